#pragma once
__device__ float transform_value(float x);
__device__ float stats_weight(int i);
template <class T> __device__ inline T clamp01(T x) { return x < T(0) ? T(0) : (x > T(1) ? T(1) : x); }
