// misc_types: the other value types and block primitives HIP code uses:
// hip_bfloat16 (conversion with round-to-nearest-even and truncation, and
// arithmetic through float; the header is __host__ __device__ so the host
// runs the same code for the expected values), hipDoubleComplex and
// hipFloatComplex arithmetic (hipCmul, hipCdiv, hipCfma, hipCabs), vector
// types (float4/int2/uchar4/double2 with make_*, component arithmetic,
// 16-byte loads and stores), __syncthreads_count/_and/_or, and
// nontemporal loads and stores.
#include "common.h"
#include <hip/hip_bfloat16.h>
#include <hip/hip_complex.h>
#include <cmath>

#define N 512

__device__ __host__ inline void bf_ops(float a, float b, float *o, unsigned short *raw) {
  hip_bfloat16 x(a), y(b), t(a, hip_bfloat16::truncate);
  raw[0] = x.data;
  raw[1] = t.data;
  o[0] = float(x) + float(y);
  o[1] = float(hip_bfloat16(float(x) * float(y)));
  o[2] = float(hip_bfloat16(float(x) / (float(y) == 0.0f ? 1.0f : float(y))));
}

__device__ __host__ inline hipDoubleComplex z_ops(hipDoubleComplex p, hipDoubleComplex q) {
  hipDoubleComplex m = hipCmul(p, q);
  hipDoubleComplex d = hipCdiv(p, hipCadd(q, make_hipDoubleComplex(1.0, 0.5)));
  return hipCfma(m, d, make_hipDoubleComplex(hipCabs(p), -hipCreal(q)));
}

__global__ void types(const float *fa, const float *fb, float *fo, unsigned short *raw,
                      const hipDoubleComplex *zp, const hipDoubleComplex *zq, hipDoubleComplex *zo,
                      const float4 *v4, float4 *o4, const int2 *vi, int2 *oi, uchar4 *oc, double2 *od,
                      int *votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bf_ops(fa[i], fb[i], fo + 3 * i, raw + 2 * i);
  zo[i] = z_ops(zp[i], zq[i]);
  hipFloatComplex c = make_hipFloatComplex(fa[i], fb[i]);
  hipFloatComplex c2 = hipCmulf(c, hipConjf(c));
  zo[N + i] = make_hipDoubleComplex(hipCrealf(c2), hipCimagf(c2));
  float4 a = v4[i], b = v4[(i + 1) % N];
  o4[i] = make_float4(a.x + b.w, a.y * b.z, a.z - b.y, a.w * 0.5f + b.x);
  int2 p = vi[i];
  oi[i] = make_int2(p.x ^ p.y, p.x + 3 * p.y);
  oc[i] = make_uchar4((unsigned char)i, (unsigned char)(i >> 1), (unsigned char)(p.x & 0xff), 255);
  double2 dd = make_double2(fa[i], fb[i]);
  od[i] = make_double2(dd.x * dd.y, dd.x - dd.y);
  int pred = fa[i] > 0.0f;
  int cnt = __syncthreads_count(pred);
  int all = __syncthreads_and(pred || i % 2);
  int any = __syncthreads_or(fa[i] > 1000.0f);
  int nt = __builtin_nontemporal_load(&vi[i].x);
  __builtin_nontemporal_store(cnt * 100 + all * 10 + any, &votes[2 * i]);
  votes[2 * i + 1] = nt;
}

int main() {
  static float fa[N], fb[N], fo[3 * N];
  static unsigned short raw[2 * N];
  static hipDoubleComplex zp[N], zq[N], zo[2 * N];
  static float4 v4[N], o4[N];
  static int2 vi[N], oi[N];
  static uchar4 oc[N];
  static double2 od[N];
  static int votes[2 * N];
  unsigned s = 31;
  for (int i = 0; i < N; i++) {
    fa[i] = ((int)(lcg(s) % 200001) - 100000) / 1237.0f;
    fb[i] = ((int)(lcg(s) % 200001) - 100000) / 731.0f;
    zp[i] = make_hipDoubleComplex(fa[i], fb[i] * 0.5);
    zq[i] = make_hipDoubleComplex(fb[i], -fa[i]);
    v4[i] = make_float4(fa[i], fb[i], i * 0.25f, -i * 0.5f);
    vi[i] = make_int2((int)lcg(s), (int)lcg(s) % 1000);
  }
  fa[7] = 1.0f + 1.0f / 256;  // halfway between bf16 values: ties to even
  fa[8] = 1.0f + 3.0f / 256;
  fa[9] = NAN;
  fa[10] = 3.4e38f;           // rounds up to infinity
  fa[300] = 5000.0f;          // the only value > 1000 in block 1
  float *dfa, *dfb, *dfo;
  unsigned short *draw;
  hipDoubleComplex *dzp, *dzq, *dzo;
  float4 *dv4, *do4;
  int2 *dvi, *doi;
  uchar4 *doc;
  double2 *dod;
  int *dvotes;
  CHECK(hipMalloc(&dfa, sizeof fa)); CHECK(hipMalloc(&dfb, sizeof fb)); CHECK(hipMalloc(&dfo, sizeof fo));
  CHECK(hipMalloc(&draw, sizeof raw)); CHECK(hipMalloc(&dzp, sizeof zp)); CHECK(hipMalloc(&dzq, sizeof zq));
  CHECK(hipMalloc(&dzo, sizeof zo)); CHECK(hipMalloc(&dv4, sizeof v4)); CHECK(hipMalloc(&do4, sizeof o4));
  CHECK(hipMalloc(&dvi, sizeof vi)); CHECK(hipMalloc(&doi, sizeof oi)); CHECK(hipMalloc(&doc, sizeof oc));
  CHECK(hipMalloc(&dod, sizeof od)); CHECK(hipMalloc(&dvotes, sizeof votes));
  CHECK(hipMemcpy(dfa, fa, sizeof fa, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dfb, fb, sizeof fb, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dzp, zp, sizeof zp, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dzq, zq, sizeof zq, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dv4, v4, sizeof v4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dvi, vi, sizeof vi, hipMemcpyHostToDevice));
  types<<<N / 256, 256>>>(dfa, dfb, dfo, draw, dzp, dzq, dzo, dv4, do4, dvi, doi, doc, dod, dvotes);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(fo, dfo, sizeof fo, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(raw, draw, sizeof raw, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(zo, dzo, sizeof zo, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(o4, do4, sizeof o4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(oi, doi, sizeof oi, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(oc, doc, sizeof oc, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(od, dod, sizeof od, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(votes, dvotes, sizeof votes, hipMemcpyDeviceToHost));
  auto same = [](float g, float e) { return (std::isnan(g) && std::isnan(e)) || g == e; };
  for (int i = 0; i < N; i++) {
    float eo[3];
    unsigned short er[2];
    bf_ops(fa[i], fb[i], eo, er);
    EXPECT(raw[2 * i] == er[0] && raw[2 * i + 1] == er[1], "bf16 of %g: rne %04x trunc %04x, want %04x %04x", fa[i],
           raw[2 * i], raw[2 * i + 1], er[0], er[1]);
    for (int k = 0; k < 3; k++)
      EXPECT(same(fo[3 * i + k], eo[k]), "bf16 op %d on (%g, %g): %g want %g", k, fa[i], fb[i], fo[3 * i + k], eo[k]);
    if (!std::isnan(fa[i]) && !std::isinf(fa[i]) && fabsf(fa[i]) < 1e30f) {
      hipDoubleComplex ez = z_ops(zp[i], zq[i]);
      double tol = 1e-12 * (1 + hipCabs(ez));
      EXPECT(fabs(hipCreal(zo[i]) - hipCreal(ez)) <= tol && fabs(hipCimag(zo[i]) - hipCimag(ez)) <= tol,
             "complex %d: (%.17g, %.17g) want (%.17g, %.17g)", i, hipCreal(zo[i]), hipCimag(zo[i]), hipCreal(ez),
             hipCimag(ez));
      float re = fa[i] * fa[i] + fb[i] * fb[i];
      EXPECT(fabs(hipCreal(zo[N + i]) - re) <= 1e-6 * re && fabs(hipCimag(zo[N + i])) <= 1e-6 * re,
             "float complex |c|^2 %d: (%g, %g) want (%g, 0)", i, hipCreal(zo[N + i]), hipCimag(zo[N + i]), re);
    }
    float4 a = v4[i], b = v4[(i + 1) % N];
    float4 e4 = make_float4(a.x + b.w, a.y * b.z, a.z - b.y, a.w * 0.5f + b.x);
    EXPECT(same(o4[i].x, e4.x) && same(o4[i].y, e4.y) && same(o4[i].z, e4.z) && same(o4[i].w, e4.w), "float4 %d", i);
    EXPECT(oi[i].x == (vi[i].x ^ vi[i].y) && oi[i].y == vi[i].x + 3 * vi[i].y, "int2 %d", i);
    EXPECT(oc[i].x == (unsigned char)i && oc[i].y == (unsigned char)(i >> 1) && oc[i].z == (unsigned char)(vi[i].x & 0xff) &&
               oc[i].w == 255, "uchar4 %d", i);
    EXPECT(same((float)od[i].x, (float)((double)fa[i] * fb[i])) && same((float)od[i].y, (float)((double)fa[i] - fb[i])),
           "double2 %d", i);
    int b0 = i / 256 * 256, cnt = 0, all = 1, any = 0;
    for (int k = b0; k < b0 + 256; k++) {
      cnt += fa[k] > 0.0f;
      all &= (fa[k] > 0.0f) || k % 2;
      any |= fa[k] > 1000.0f;
    }
    EXPECT(votes[2 * i] == cnt * 100 + all * 10 + any, "block votes at %d: %d want %d", i, votes[2 * i],
           cnt * 100 + all * 10 + any);
    EXPECT(votes[2 * i + 1] == vi[i].x, "nontemporal load %d", i);
  }
  DONE("misc_types");
}
