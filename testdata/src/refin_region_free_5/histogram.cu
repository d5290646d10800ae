// CUB's radix-sort histogram kernel for unsigned keys, instantiated alone: in the
// opening region nvlink re-allocates, an S2UR finds 0-4 taken and 5 free and
// takes 5, while an LDCU waited on with the stack-pointer load shares its index.
#include <cub/device/device_radix_sort.cuh>

using Hub = cub::detail::radix::policy_hub<unsigned, unsigned, unsigned long long>;
template __global__ void cub::detail::radix_sort::DeviceRadixSortHistogramKernel<
    Hub::Policy1000, cub::SortOrder::Ascending, unsigned, unsigned long long, cub::detail::identity_decomposer_t>(
    unsigned long long *, const unsigned *, unsigned long long, int, int, cub::detail::identity_decomposer_t);
