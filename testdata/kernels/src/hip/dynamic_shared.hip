// dynamic_shared: extern __shared__ memory sized at launch; each block
// reverses its slice through shared memory.
#include "common.h"

__global__ void reverse_block(const int *in, int *out) {
  extern __shared__ int buf[];
  int t = threadIdx.x, n = blockDim.x;
  int base = blockIdx.x * n;
  buf[t] = in[base + t];
  __syncthreads();
  out[base + t] = buf[n - 1 - t];
}

int main() {
  const int block = 192, blocks = 40, n = block * blocks;
  int *h = new int[n], *o = new int[n];
  for (int i = 0; i < n; i++)
    h[i] = i * 3 + 1;
  int *din, *dout;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dout, n * sizeof(int)));
  CHECK(hipMemcpy(din, h, n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(reverse_block, dim3(blocks), dim3(block),
                     block * sizeof(int), 0, din, dout);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(o, dout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < block; t++)
      EXPECT(o[b * block + t] == h[b * block + block - 1 - t], "out[%d]",
             b * block + t);
  printf("PASSED dynamic_shared\n");
  return 0;
}
