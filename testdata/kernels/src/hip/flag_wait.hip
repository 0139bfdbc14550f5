// flag_wait: inside one block, thread 0 (first wave) spins on a shared flag
// that the last thread (last wave) sets after a __syncthreads. The program
// finishes only if the two waves interleave.
#include "common.h"

__global__ void flag_wait(const int *in, int *out) {
  __shared__ int flag;
  __shared__ int payload;
  if (threadIdx.x == 0) {
    flag = 0;
    payload = in[blockIdx.x];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    while (__hip_atomic_load(&flag, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_WORKGROUP) == 0) {
    }
    out[blockIdx.x] = __hip_atomic_load(&flag, __ATOMIC_RELAXED,
                                        __HIP_MEMORY_SCOPE_WORKGROUP);
  } else if (threadIdx.x == blockDim.x - 1) {
    __hip_atomic_store(&flag, payload + 1, __ATOMIC_RELEASE,
                       __HIP_MEMORY_SCOPE_WORKGROUP);
  }
}

int main() {
  const int blocks = 8;
  int h[blocks], o[blocks];
  for (int b = 0; b < blocks; b++)
    h[b] = 10 * b;
  int *din, *dout;
  CHECK(hipMalloc(&din, sizeof(h)));
  CHECK(hipMalloc(&dout, sizeof(o)));
  CHECK(hipMemcpy(din, h, sizeof(h), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(flag_wait, dim3(blocks), dim3(256), 0, 0, din, dout);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(o, dout, sizeof(o), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    EXPECT(o[b] == h[b] + 1, "block %d saw %d, want %d", b, o[b], h[b] + 1);
  printf("PASSED flag_wait\n");
  return 0;
}
