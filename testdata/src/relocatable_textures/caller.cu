// A CUDA C++ kernel calling the texref-using PTX function fetch_b (defined in unified.ptx).
extern "C" __device__ float fetch_b(int i);

__global__ void k_cu(float *out) { out[threadIdx.x] = fetch_b(threadIdx.x) * 2.0f; }
