__device__ __managed__ int m_flag;
__device__ __managed__ float m_data[32] = {1.f, 2.f, 3.f};
__device__ __managed__ double m_sum = 0.0;

__global__ void set_flag(int v) { m_flag = v; }
