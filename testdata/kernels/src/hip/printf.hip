// printf: device printf with %d, %f and %s from several waves (thread 0 of
// each 64-thread group in 4 blocks). The runner compares the printed lines
// as a set: their order across waves is not defined.
#include "common.h"

__global__ void say(const float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 64 == 0)
    printf("block %d thread %d: value=%f name=%s\n", (int)blockIdx.x,
           (int)threadIdx.x, f[i], i % 128 == 0 ? "even" : "odd");
}

int main() {
  const int n = 4 * 256;
  float *h = new float[n];
  for (int i = 0; i < n; i++)
    h[i] = (float)i * 0.5f;
  float *d;
  CHECK(hipMalloc(&d, n * sizeof(float)));
  CHECK(hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(say, dim3(4), dim3(256), 0, 0, d);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipFree(d));
  printf("PASSED printf\n");
  return 0;
}
