// Copies in packs of V elements, with a scalar loop for a thread whose pack
// would run past the end. At sm_100, ptxas puts the last parameter loads
// (LDCU) on the stack-pointer load's index with all six taken; the predicated
// branch to the scalar loop waits on them together with an earlier LDCU, and
// nvlink's re-allocation puts them on that LDCU's index.
template <typename T, int V> struct alignas(sizeof(T) * V) Pack { T e[V]; };

template <typename T, int V>
__global__ void pack_copy(const T *src, T *dst, const size_t count) {
  const size_t first = static_cast<size_t>(blockIdx.x) * (blockDim.x * V) + threadIdx.x * V;
  const size_t left = count - first;
  if (left < V) {
    for (size_t k = first; k < count; k++)
      dst[k] = src[k];
  } else {
    *reinterpret_cast<Pack<T, V> *>(dst + first) = *reinterpret_cast<const Pack<T, V> *>(src + first);
  }
}

template __global__ void pack_copy<char, 2>(const char *, char *, size_t);
template __global__ void pack_copy<char, 4>(const char *, char *, size_t);
template __global__ void pack_copy<char, 16>(const char *, char *, size_t);
template __global__ void pack_copy<short, 4>(const short *, short *, size_t);
