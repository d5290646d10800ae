extern __device__ __managed__ int m_flag;
extern __device__ __managed__ float m_data[32];
extern __device__ __managed__ double m_sum;
__device__ __managed__ unsigned m_local;

__global__ void accumulate() {
  if (m_flag) atomicAdd(&m_sum, (double)m_data[threadIdx.x & 31]);
  atomicInc(&m_local, 1000u);
}
