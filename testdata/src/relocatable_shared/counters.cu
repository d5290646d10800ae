__device__ int hist[16];
__device__ unsigned long long total;
__device__ float fsum;
__device__ double dsum;
__device__ int lock_word;

__device__ void spin_lock() { while (atomicCAS(&lock_word, 0, 1) != 0) {} }
__device__ void spin_unlock() { atomicExch(&lock_word, 0); }
