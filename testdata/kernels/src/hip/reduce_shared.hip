// reduce_shared: block-level tree reduction in static shared memory with
// __syncthreads, then a second pass over the partial sums.
#include "common.h"

#define BLOCK 256

__global__ void reduce(const int *in, int *out, int n) {
  __shared__ int tmp[BLOCK];
  int tid = threadIdx.x;
  int v = 0;
  // Grid-stride: each block folds every (gridDim.x * 2 * BLOCK)-th chunk.
  for (int i = blockIdx.x * BLOCK * 2 + tid; i < n; i += gridDim.x * BLOCK * 2) {
    v += in[i];
    if (i + BLOCK < n)
      v += in[i + BLOCK];
  }
  tmp[tid] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      tmp[tid] += tmp[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = tmp[0];
}

int main() {
  const int n = 1 << 20;
  int *h = new int[n];
  long long want = 0;
  unsigned s = 7;
  for (int i = 0; i < n; i++) {
    h[i] = (int)(lcg(s) % 201) - 100;
    want += h[i];
  }
  int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  int *din, *dpart, *dout;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dpart, blocks * sizeof(int)));
  CHECK(hipMalloc(&dout, sizeof(int)));
  CHECK(hipMemcpy(din, h, n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(reduce, dim3(blocks), dim3(BLOCK), 0, 0, din, dpart, n);
  CHECK(hipGetLastError());
  int *part = new int[blocks];
  CHECK(hipMemcpy(part, dpart, blocks * sizeof(int), hipMemcpyDeviceToHost));
  long long got = 0;
  for (int b = 0; b < blocks; b++) {
    long long w = 0;
    for (int k = 0; k < 2 * BLOCK && b * 2 * BLOCK + k < n; k++)
      w += h[b * 2 * BLOCK + k];
    EXPECT(part[b] == w, "partial[%d] = %d, want %lld", b, part[b], w);
    got += part[b];
  }
  // Second pass: reduce the partial sums on the device too.
  hipLaunchKernelGGL(reduce, dim3(1), dim3(BLOCK), 0, 0, dpart, dout, blocks);
  CHECK(hipGetLastError());
  int total = 0;
  CHECK(hipMemcpy(&total, dout, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(got == want && total == (int)want, "sum %lld / %d, want %lld", got,
         total, want);
  CHECK(hipFree(din));
  CHECK(hipFree(dpart));
  CHECK(hipFree(dout));
  printf("PASSED reduce_shared\n");
  return 0;
}
