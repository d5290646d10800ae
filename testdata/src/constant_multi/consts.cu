__constant__ float c_coef[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
__constant__ int c_idx[16];
__constant__ double c_bias = 0.25;
__constant__ unsigned char c_lut[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
