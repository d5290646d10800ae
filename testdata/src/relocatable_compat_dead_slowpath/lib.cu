__device__ int live_fn(int x) { return x + 100; }
__device__ int dead_in_lib(int x) { return live_fn(x) * 2; }        // defined, never called
