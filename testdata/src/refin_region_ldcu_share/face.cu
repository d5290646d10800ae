// Initial values on one face of a 3-D block decomposition: each thread
// fills its (x, z, octant) column for every energy group, unknown and angle.
struct Steps {
  int block_z[8];
  int active[8];
};

__global__ void fill_face(const int base_x, const int base_y, const int ne, const int na, const int nx,
                          const int ny, const int nz, const int ymin, const int ymax, Steps steps,
                          double *face) {
  int ix = blockDim.x * blockIdx.x + threadIdx.x;
  int iz = blockDim.y * blockIdx.y + threadIdx.y;
  int oct = blockDim.z * blockIdx.z + threadIdx.z;
  if (ix >= nx || iz >= nz || oct >= 8)
    return;
  for (int ie = 0; ie < ne; ++ie)
    for (int iu = 0; iu < 4; ++iu)
      for (int ia = 0; ia < na; ++ia) {
        const int dir_y = (oct & 2) ? -1 : 1;
        const int iy = dir_y == 1 ? ymin : ymax + ny - 1;
        const int gz = iz + steps.block_z[oct] * nz;
        face[((((size_t)ie * 4 + iu) * na + ia) * nx + ix) * nz * 8 + iz * 8 + oct] =
            (steps.active[oct] ? 1.0 : 0.0) * (1.0 + ix + base_x) * (1.0 + iy + base_y) * (1.0 + gz) *
            (ia + 1) * (ie + 1) * (iu + 1);
      }
}
