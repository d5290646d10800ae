__device__ int counter;                       // uninitialised
__device__ float zeros[64];                   // uninitialised array
__device__ int answer = 42;                   // initialised scalar
__device__ double table[4] = {1.0, 2.5, -3.0, 0.125};
__device__ short small[3] = {1, 2, 3};
__device__ char tag[8] = "dlink";

__global__ void touch(int v) {
  counter += v;
  zeros[threadIdx.x & 63] = table[threadIdx.x & 3] + small[threadIdx.x % 3] + tag[threadIdx.x & 7];
}
