// mfma: gfx90a matrix-core intrinsics as GEMM kernels (rocBLAS/CK-style
// code) use them: __builtin_amdgcn_mfma_f32_16x16x4f32,
// _f32_32x32x8f16, _f64_16x16x4f64 and _i32_16x16x16i8 on one wave, with
// operands laid out as AMD's Matrix Instruction Calculator gives them for
// CDNA2 (lane l holds A[l%M][k-group l/M] and B[k-group l/N][l%N];
// accumulator register r of lane l holds D[row][l%N] with row =
// 8*(r/4) + 4*(l/32) + r%4 for 32x32, 4*(l/16) + r for 16x16 f32/i32, and
// 4*r + l/16 for 16x16 f64), checked against host matrix products.
#include "common.h"
#include <cmath>

typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef double f64x4 __attribute__((ext_vector_type(4)));
typedef int i32x4 __attribute__((ext_vector_type(4)));
typedef _Float16 f16x4 __attribute__((ext_vector_type(4)));

// D(16x16) = A(16x4) * B(4x16) + C, f32
__global__ void mm_f32(const float *A, const float *B, const float *C, float *D) {
  int l = threadIdx.x;
  float a = A[(l % 16) * 4 + l / 16];
  float b = B[(l / 16) * 16 + l % 16];
  f32x4 acc;
  for (int r = 0; r < 4; r++) acc[r] = C[(4 * (l / 16) + r) * 16 + l % 16];
  acc = __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}

// D(32x32) = A(32x8) * B(8x32), f16 inputs, f32 accumulate
__global__ void mm_f16(const _Float16 *A, const _Float16 *B, float *D) {
  int l = threadIdx.x;
  f16x4 a, b;
  for (int k = 0; k < 4; k++) {
    a[k] = A[(l % 32) * 8 + 4 * (l / 32) + k];
    b[k] = B[(4 * (l / 32) + k) * 32 + l % 32];
  }
  f32x16 acc = {0};
  acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 16; r++) D[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}

// D(16x16) = A(16x4) * B(4x16), f64
__global__ void mm_f64(const double *A, const double *B, double *D) {
  int l = threadIdx.x;
  double a = A[(l % 16) * 4 + l / 16];
  double b = B[(l / 16) * 16 + l % 16];
  f64x4 acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, acc, 0, 0, 0);
  // f64 differs from f32: register pair r of lane l is row 4*r + l/16
  for (int r = 0; r < 4; r++) D[(4 * r + l / 16) * 16 + l % 16] = acc[r];
}

// D(16x16) = A(16x16) * B(16x16), int8 inputs, i32 accumulate
__global__ void mm_i8(const signed char *A, const signed char *B, int *D) {
  int l = threadIdx.x;
  int a = 0, b = 0;
  for (int k = 0; k < 4; k++) {
    a |= (A[(l % 16) * 16 + 4 * (l / 16) + k] & 0xff) << (8 * k);
    b |= (B[(4 * (l / 16) + k) * 16 + l % 16] & 0xff) << (8 * k);
  }
  i32x4 acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_i32_16x16x16i8(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}

int main() {
  unsigned s = 77;
  // f32
  {
    float A[64], B[64], C[256], D[256];
    for (auto &x : A) x = (float)((int)(lcg(s) % 17) - 8) * 0.5f;
    for (auto &x : B) x = (float)((int)(lcg(s) % 13) - 6) * 0.25f;
    for (auto &x : C) x = (float)((int)(lcg(s) % 9) - 4);
    float *dA, *dB, *dC, *dD;
    CHECK(hipMalloc(&dA, sizeof A)); CHECK(hipMalloc(&dB, sizeof B));
    CHECK(hipMalloc(&dC, sizeof C)); CHECK(hipMalloc(&dD, sizeof D));
    CHECK(hipMemcpy(dA, A, sizeof A, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, B, sizeof B, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dC, C, sizeof C, hipMemcpyHostToDevice));
    mm_f32<<<1, 64>>>(dA, dB, dC, dD);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(D, dD, sizeof D, hipMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 16; j++) {
        float e = C[i * 16 + j];
        for (int k = 0; k < 4; k++) e += A[i * 4 + k] * B[k * 16 + j];  // exact: small dyadic values
        EXPECT(D[i * 16 + j] == e, "f32 16x16x4 D[%d][%d] = %g want %g", i, j, D[i * 16 + j], e);
      }
  }
  // f16
  {
    _Float16 A[256], B[256];
    float D[1024];
    for (auto &x : A) x = (_Float16)((float)((int)(lcg(s) % 15) - 7) * 0.5f);
    for (auto &x : B) x = (_Float16)((float)((int)(lcg(s) % 11) - 5) * 0.25f);
    _Float16 *dA, *dB;
    float *dD;
    CHECK(hipMalloc(&dA, sizeof A)); CHECK(hipMalloc(&dB, sizeof B)); CHECK(hipMalloc(&dD, sizeof D));
    CHECK(hipMemcpy(dA, A, sizeof A, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, B, sizeof B, hipMemcpyHostToDevice));
    mm_f16<<<1, 64>>>(dA, dB, dD);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(D, dD, sizeof D, hipMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
      for (int j = 0; j < 32; j++) {
        float e = 0;
        for (int k = 0; k < 8; k++) e += (float)A[i * 8 + k] * (float)B[k * 32 + j];
        EXPECT(D[i * 32 + j] == e, "f16 32x32x8 D[%d][%d] = %g want %g", i, j, D[i * 32 + j], e);
      }
  }
  // f64
  {
    double A[64], B[64], D[256];
    for (auto &x : A) x = (double)((int)(lcg(s) % 1001) - 500) / 3.0;
    for (auto &x : B) x = (double)((int)(lcg(s) % 1001) - 500) / 7.0;
    double *dA, *dB, *dD;
    CHECK(hipMalloc(&dA, sizeof A)); CHECK(hipMalloc(&dB, sizeof B)); CHECK(hipMalloc(&dD, sizeof D));
    CHECK(hipMemcpy(dA, A, sizeof A, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, B, sizeof B, hipMemcpyHostToDevice));
    mm_f64<<<1, 64>>>(dA, dB, dD);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(D, dD, sizeof D, hipMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 16; j++) {
        double e = 0;
        for (int k = 0; k < 4; k++) e = fma(A[i * 4 + k], B[k * 16 + j], e);
        double tol = 1e-13 * (fabs(e) + 1);
        EXPECT(fabs(D[i * 16 + j] - e) <= tol, "f64 16x16x4 D[%d][%d] = %.17g want %.17g", i, j, D[i * 16 + j], e);
      }
  }
  // i8
  {
    signed char A[256], B[256];
    int D[256];
    for (auto &x : A) x = (signed char)((int)(lcg(s) % 256) - 128);
    for (auto &x : B) x = (signed char)((int)(lcg(s) % 256) - 128);
    signed char *dA, *dB;
    int *dD;
    CHECK(hipMalloc(&dA, sizeof A)); CHECK(hipMalloc(&dB, sizeof B)); CHECK(hipMalloc(&dD, sizeof D));
    CHECK(hipMemcpy(dA, A, sizeof A, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dB, B, sizeof B, hipMemcpyHostToDevice));
    mm_i8<<<1, 64>>>(dA, dB, dD);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(D, dD, sizeof D, hipMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 16; j++) {
        int e = 0;
        for (int k = 0; k < 16; k++) e += A[i * 16 + k] * B[k * 16 + j];
        EXPECT(D[i * 16 + j] == e, "i8 16x16x16 D[%d][%d] = %d want %d", i, j, D[i * 16 + j], e);
      }
  }
  DONE("mfma");
}
