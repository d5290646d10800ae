// A second strong definition of bar(int): an error even though dead-code
// elimination would drop both copies.
__device__ int bar(int x) { return x * 5; }
