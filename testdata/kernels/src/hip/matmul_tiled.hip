// matmul_tiled: C = A * B with 16x16 shared-memory tiles. Inputs are small
// integers stored as floats, so every partial sum is exact and the result
// must equal the host product bit for bit whatever the contraction.
#include "common.h"

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

int main() {
  const int n = 128;
  float *A = new float[n * n], *B = new float[n * n], *C = new float[n * n];
  unsigned s = 11;
  for (int i = 0; i < n * n; i++) {
    A[i] = (float)((int)(lcg(s) % 17) - 8);
    B[i] = (float)((int)(lcg(s) % 17) - 8);
  }
  float *dA, *dB, *dC;
  CHECK(hipMalloc(&dA, n * n * sizeof(float)));
  CHECK(hipMalloc(&dB, n * n * sizeof(float)));
  CHECK(hipMalloc(&dC, n * n * sizeof(float)));
  CHECK(hipMemcpy(dA, A, n * n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dB, B, n * n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(matmul, dim3(n / TILE, n / TILE), dim3(TILE, TILE), 0, 0,
                     dA, dB, dC, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(C, dC, n * n * sizeof(float), hipMemcpyDeviceToHost));
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      float want = 0.0f;
      for (int k = 0; k < n; k++)
        want += A[r * n + k] * B[k * n + c];
      EXPECT(C[r * n + c] == want, "C[%d][%d] = %f, want %f", r, c,
             C[r * n + c], want);
    }
  printf("PASSED matmul_tiled\n");
  return 0;
}
