// memcpy: hipMemset, hipMemcpy in every direction (H2D, D2H, D2D),
// hipMemcpy2D with pitched device memory, and hipMemcpyToSymbol /
// hipMemcpyFromSymbol on __device__ globals read and written by a kernel.
#include "common.h"

__device__ int dev_table[64];
__device__ int dev_scale;
__device__ int dev_result[64];

__global__ void use_symbols() {
  int t = threadIdx.x;
  dev_result[t] = dev_table[t] * dev_scale;
}

__global__ void bump_rows(char *base, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) {
    int *row = (int *)(base + y * pitch);
    row[x] += y;
  }
}

int main() {
  const int n = 1000;
  int *h = new int[n], *back = new int[n];
  for (int i = 0; i < n; i++)
    h[i] = i * 7;
  int *d1, *d2;
  CHECK(hipMalloc(&d1, n * sizeof(int)));
  CHECK(hipMalloc(&d2, n * sizeof(int)));
  CHECK(hipMemset(d2, 0xAB, n * sizeof(int)));
  CHECK(hipMemcpy(back, d2, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(back[i] == (int)0xABABABAB, "memset[%d] = %x", i, back[i]);
  CHECK(hipMemcpy(d1, h, n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(d2, d1, n * sizeof(int), hipMemcpyDeviceToDevice));
  CHECK(hipMemcpy(back, d2, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(back[i] == h[i], "d2d[%d] = %d", i, back[i]);

  // 2D: a 37 x 19 int matrix into pitched memory and back.
  const int w = 37, hgt = 19;
  int m[hgt][w], m2[hgt][w];
  for (int y = 0; y < hgt; y++)
    for (int x = 0; x < w; x++)
      m[y][x] = y * 100 + x;
  char *dp;
  size_t pitch = 0;
  CHECK(hipMallocPitch((void **)&dp, &pitch, w * sizeof(int), hgt));
  EXPECT(pitch >= w * sizeof(int), "pitch %zu", pitch);
  CHECK(hipMemcpy2D(dp, pitch, m, w * sizeof(int), w * sizeof(int), hgt,
                    hipMemcpyHostToDevice));
  hipLaunchKernelGGL(bump_rows, dim3(hgt), dim3(64), 0, 0, dp, pitch, w, hgt);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy2D(m2, w * sizeof(int), dp, pitch, w * sizeof(int), hgt,
                    hipMemcpyDeviceToHost));
  for (int y = 0; y < hgt; y++)
    for (int x = 0; x < w; x++)
      EXPECT(m2[y][x] == m[y][x] + y, "m2[%d][%d] = %d", y, x, m2[y][x]);

  // Symbols.
  int table[64], result[64], scale = 3;
  for (int i = 0; i < 64; i++)
    table[i] = i - 20;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_table), table, sizeof(table)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_scale), &scale, sizeof(int)));
  hipLaunchKernelGGL(use_symbols, dim3(1), dim3(64), 0, 0);
  CHECK(hipGetLastError());
  CHECK(hipMemcpyFromSymbol(result, HIP_SYMBOL(dev_result), sizeof(result)));
  for (int i = 0; i < 64; i++)
    EXPECT(result[i] == (i - 20) * 3, "symbol result[%d] = %d", i, result[i]);
  int got_scale = 0;
  CHECK(hipMemcpyFromSymbol(&got_scale, HIP_SYMBOL(dev_scale), sizeof(int)));
  EXPECT(got_scale == 3, "dev_scale %d", got_scale);
  CHECK(hipFree(d1));
  CHECK(hipFree(d2));
  CHECK(hipFree(dp));
  printf("PASSED memcpy\n");
  return 0;
}
