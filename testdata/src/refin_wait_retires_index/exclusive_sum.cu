// CUB's radix-sort exclusive-sum kernel for int keys, instantiated alone: at
// sm_120 nvlink re-finalizes it, and a wait in its re-allocated code retires
// everything pending on its indices.
#include <cub/device/device_radix_sort.cuh>

using Hub = cub::detail::radix::policy_hub<int, cub::NullType, unsigned>;
template __global__ void
cub::detail::radix_sort::DeviceRadixSortExclusiveSumKernel<Hub::Policy1000, unsigned>(unsigned *);
