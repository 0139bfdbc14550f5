// vector_add: the smallest complete HIP program: allocate, copy in, launch a
// grid with a partial last block, copy out, compare exactly.
#include "common.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const int n = 100000;
  float *ha = new float[n], *hb = new float[n], *hc = new float[n];
  unsigned s = 1;
  for (int i = 0; i < n; i++) {
    ha[i] = (float)(lcg(s) % 1000) * 0.5f;
    hb[i] = (float)i * 0.25f;
  }
  float *da, *db, *dc;
  CHECK(hipMalloc(&da, n * sizeof(float)));
  CHECK(hipMalloc(&db, n * sizeof(float)));
  CHECK(hipMalloc(&dc, n * sizeof(float)));
  CHECK(hipMemcpy(da, ha, n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, hb, n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(vector_add, dim3((n + 255) / 256), dim3(256), 0, 0, da,
                     db, dc, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(hc, dc, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(hc[i] == ha[i] + hb[i], "c[%d] = %f, want %f", i, hc[i],
           ha[i] + hb[i]);
  CHECK(hipFree(da));
  CHECK(hipFree(db));
  CHECK(hipFree(dc));
  delete[] ha;
  delete[] hb;
  delete[] hc;
  printf("PASSED vector_add\n");
  return 0;
}
