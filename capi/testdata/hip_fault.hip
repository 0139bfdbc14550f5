// hip_fault.hip: a kernel that stores far outside every allocation. On a GPU
// the queue's error handling aborts the program; under rocpu the fault is
// reported (kernel, PC, lane, address, instruction) and HIP's queue error
// callback, reached through the library's C trampoline, aborts it the same
// way (exit 134).
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void wild_store(int *p, long off) { p[off + threadIdx.x] = 1; }

int main() {
  setvbuf(stdout, NULL, _IONBF, 0);
  int *d = NULL;
  if (hipMalloc(&d, 4096) != hipSuccess) return 2;
  printf("launching\n");
  hipLaunchKernelGGL(wild_store, dim3(1), dim3(64), 0, 0, d, 1L << 40);
  hipDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
