// Empty .nvHR* lists; needs dfun from the archive.
extern __device__ int dfun(int);
__global__ void ku(int *o) { o[0] = dfun(2); }
