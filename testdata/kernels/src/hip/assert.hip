// assert: a kernel whose assert() fails for one thread. On a GPU the
// dispatch aborts (s_trap 2) and the HIP runtime reports the failure; this
// program must therefore NOT exit 0: it exits 0 only if the failing assert
// went unnoticed, which is the bug a runner should catch.
#include "common.h"
#include <cassert>

__global__ void check_positive(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(in[i] >= 0);
    out[i] = in[i] * 2;
  }
}

int main() {
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; i++)
    h[i] = (i == 77) ? -1 : i;
  int *din, *dout;
  CHECK(hipMalloc(&din, sizeof(h)));
  CHECK(hipMalloc(&dout, sizeof(h)));
  CHECK(hipMemcpy(din, h, sizeof(h), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(check_positive, dim3(1), dim3(n), 0, 0, din, dout, n);
  hipError_t err = hipDeviceSynchronize();
  if (err != hipSuccess) {
    fprintf(stderr, "assert kernel failed as expected: %s\n",
            hipGetErrorString(err));
    return 3;
  }
  fprintf(stderr, "assert(in[77] >= 0) did not stop the kernel\n");
  return 0;
}
