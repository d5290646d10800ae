// No host code refers to a kernel: every .nvHR* list of cdp.o and plain.o is
// empty. parent launches child from the device, so nvcc's -lcudadevrt pulls
// libcudadevrt's member, whose own .nvHRKI lists *memcpy_3d_device* and
// *memset_3d_device*: those lists do not switch host-reference pruning on.
__global__ void child(int *p) { p[1] = 3; }
__global__ void parent(int *p) { child<<<1, 1>>>(p); }
__global__ void kb(int *p) { p[0] = 2; }
