// A kernel beside a device function that no kernel calls, dividing floats: ptxas
// adds its float-division slow path (__cuda_sm3x_div_rn_noftz_f32_slowpath), whose
// presence clears bit 0x8 of the cubin's .nv.compat record 0x0b on sm_100.
__device__ float slowdiv(float a, float b) { return a / b; }
__global__ void k(int *p) { p[0] = 7; }
