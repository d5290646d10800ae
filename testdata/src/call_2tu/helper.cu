__device__ int helper(int x) { return (x ^ 0x5a) * 3; }
__device__ float lerp_f(float a, float b, float t) { return a + (b - a) * t; }
