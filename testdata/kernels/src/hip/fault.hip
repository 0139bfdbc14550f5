// fault: a deliberately faulting kernel: thread 5 writes 1 TiB past its
// buffer, far outside any allocation. A GPU reports a memory access fault
// and HIP aborts the process; rocpu must report kernel, PC, lane and address.
// Exit status 0 means the fault went unnoticed.
#include "common.h"

__global__ void wild_store(int *p, long long off) {
  int i = threadIdx.x;
  if (i == 5)
    p[off] = 42; // far out of bounds
  else
    p[i] = i;
}

int main() {
  int *d;
  CHECK(hipMalloc(&d, 64 * sizeof(int)));
  long long off = (1ll << 40) / sizeof(int);
  hipLaunchKernelGGL(wild_store, dim3(1), dim3(64), 0, 0, d, off);
  hipError_t err = hipDeviceSynchronize();
  if (err != hipSuccess) {
    fprintf(stderr, "faulting kernel reported: %s\n", hipGetErrorString(err));
    return 4;
  }
  fprintf(stderr, "out-of-bounds store was not reported\n");
  return 0;
}
