// Texture and surface object accesses in a second TU.
__device__ float fetch_linear(cudaTextureObject_t tex, int i) { return tex1Dfetch<float>(tex, i); }
__device__ void store_surface(cudaSurfaceObject_t surf, int x, int y, float v) {
  surf2Dwrite(v, surf, x * sizeof(float), y);
}
