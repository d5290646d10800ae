// Device code calling the device runtime API broadly: libcudadevrt's
// __cudaCDP2* members (attributes, limits, errors, streams, events, malloc,
// occupancy, parameter buffers and launches, async copies and fills) and
// the functions the driver provides (the graph API, cooperative-group grid
// sync, syscalls). Linked only, not run.
#include <cooperative_groups.h>
__global__ void child() {}
__global__ void api(int *out, void *ptr, cudaGraphConditionalHandle h, cudaGraphExec_t g, cudaGraphDeviceNode_t node) {
  int v = 0; size_t sz = 0; cudaStream_t s; cudaEvent_t e; cudaFuncAttributes fa; cudaFuncCache cc;
  out[0] = cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);
  out[1] = cudaDeviceGetLimit(&sz, cudaLimitStackSize);
  out[2] = cudaDeviceGetCacheConfig(&cc);
  out[4] = cudaGetLastError() + cudaPeekAtLastError();
  out[5] = cudaGetErrorString(cudaSuccess)[0] + cudaGetErrorName(cudaSuccess)[0];
  out[6] = cudaGetDeviceCount(&v) + cudaGetDevice(&v);
  out[7] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) + cudaStreamDestroy(s);
  out[8] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming) + cudaEventRecord(e, s) + cudaStreamWaitEvent(s, e, 0) + cudaEventDestroy(e);
  out[9] = cudaFuncGetAttributes(&fa, (const void *)child);
  out[10] = cudaMalloc(&ptr, 16) + cudaFree(ptr);
  out[11] = cudaRuntimeGetVersion(&v);
  out[12] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, child, 32, 0) + cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&v, child, 32, 0, 0);
  void *buf = cudaGetParameterBuffer(8, 0);
  out[13] = cudaLaunchDevice((void *)child, buf, dim3(1), dim3(1), 0, s);
  out[14] = cudaMemcpyAsync(ptr, ptr, 4, cudaMemcpyDeviceToDevice, s) + cudaMemsetAsync(ptr, 0, 4, s);
  cudaGraphSetConditional(h, 1);
  out[15] = cudaGraphLaunch(g, cudaStreamGraphTailLaunch);
  out[16] = cudaGraphKernelNodeSetParam(node, 0, &v, 4) + cudaGraphKernelNodeSetEnabled(node, true) + cudaGraphKernelNodeSetGridDim(node, dim3(1)) ;
#if __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
#endif
  cooperative_groups::this_grid().sync();
  child<<<1, 1, 0, cudaStreamFireAndForget>>>();
}
int main() { return 0; }
