// math_f64: double- and single-precision libm functions on the device
// (ROCm device libs' OCML: sqrt, exp, log, sin, cos, tan, pow, fma, tanh,
// erf, cbrt, atan2, exp2, log1p, expm1, hypot, ...) against the host's libm
// with ULP bounds, special values (inf, nan, -0, denormals) in the first lanes.
// (The directed-rounding intrinsics __fadd_rd etc. are not usable: Debian's
// device libs lack __ocml_add_rtn_f32 and friends.)
#include "common.h"
#include <cmath>

#define N 2048
#define ND 20
#define NF 10

__global__ void dmath(const double *x, const double *y, double *out,
                      const float *xf, const float *yf, float *outf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double a = x[i], b = y[i];
  double *o = out + i * ND;
  o[0] = sqrt(a);
  o[1] = exp(b);
  o[2] = log(a);
  o[3] = sin(b);
  o[4] = cos(b);
  o[5] = tan(b);
  o[6] = pow(a, b * 0.1);
  o[7] = fma(a, b, -a * b);
  o[8] = tanh(b);
  o[9] = erf(b * 0.3);
  o[10] = cbrt(b);
  o[11] = atan2(b, a);
  o[12] = exp2(b * 0.5);
  o[13] = log1p(a);
  o[14] = expm1(b * 0.01);
  o[15] = hypot(a, b);
  o[16] = a / b;
  o[17] = rsqrt(a);
  o[18] = floor(b) + trunc(a * 3.3) + round(b * 1.5);
  o[19] = fmod(a, b);
  float af = xf[i], bf = yf[i];
  float *of = outf + i * NF;
  of[0] = sqrtf(af);
  of[1] = expf(bf);
  of[2] = logf(af);
  of[3] = sinf(bf);
  of[4] = cosf(bf);
  of[5] = powf(af, bf * 0.1f);
  of[6] = fmaf(af, bf, 1.0f);
  of[7] = af / bf;
  of[8] = tanhf(bf);
  of[9] = atan2f(bf, af);
}

static int64_t ulps(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (a == b) return 0;
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  if (ia < 0) ia = INT64_MIN - ia;
  if (ib < 0) ib = INT64_MIN - ib;
  int64_t d = ia - ib;
  return d < 0 ? -d : d;
}
static int64_t ulpsf(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (a == b) return 0;
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  int64_t d = (int64_t)ia - ib;
  return d < 0 ? -d : d;
}

int main() {
  static double x[N], y[N], out[N * ND];
  static float xf[N], yf[N], outf[N * NF];
  unsigned s = 17;
  for (int i = 0; i < N; i++) {
    x[i] = ldexp((double)lcg(s) / 16777216.0 + 0.01, (int)(lcg(s) % 40) - 20);
    y[i] = ((double)lcg(s) / 16777216.0 - 0.5) * 60.0;
    xf[i] = (float)x[i];
    yf[i] = (float)y[i];
  }
  // special values in the first lanes
  const double sx[] = {0.0, -0.0, INFINITY, NAN, 4.9406564584124654e-324, 1.0, 2.2250738585072014e-308, 1e308};
  const double sy[] = {-0.0, INFINITY, -INFINITY, 1.0, NAN, 0.0, -1e-310, 700.0};
  for (int i = 0; i < 8; i++) {
    x[i] = sx[i];
    y[i] = sy[i];
    xf[i] = (float)sx[i];
    yf[i] = (float)sy[i];
  }
  double *dx, *dy, *dout;
  float *dxf, *dyf, *doutf;
  CHECK(hipMalloc(&dx, sizeof x));
  CHECK(hipMalloc(&dy, sizeof y));
  CHECK(hipMalloc(&dout, sizeof out));
  CHECK(hipMalloc(&dxf, sizeof xf));
  CHECK(hipMalloc(&dyf, sizeof yf));
  CHECK(hipMalloc(&doutf, sizeof outf));
  CHECK(hipMemcpy(dx, x, sizeof x, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, y, sizeof y, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dxf, xf, sizeof xf, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dyf, yf, sizeof yf, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(dmath, dim3(N / 256), dim3(256), 0, 0, dx, dy, dout, dxf,
                     dyf, doutf);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(outf, doutf, sizeof outf, hipMemcpyDeviceToHost));
  const char *dn[ND] = {"sqrt", "exp", "log", "sin", "cos", "tan", "pow", "fma", "tanh", "erf",
                        "cbrt", "atan2", "exp2", "log1p", "expm1", "hypot", "div", "rsqrt", "floor+trunc+round", "fmod"};
  // bounds: HIP's documented maximum ULP errors plus the host's own (<= 1)
  const int dbound[ND] = {0, 2, 2, 3, 3, 3, 3, 0, 3, 3, 2, 3, 2, 2, 2, 2, 0, 2, 0, 0};
  const char *fn[NF] = {"sqrtf", "expf", "logf", "sinf", "cosf", "powf", "fmaf", "divf", "tanhf", "atan2f"};
  const int fbound[NF] = {1, 2, 2, 3, 3, 5, 0, 1, 3, 4};
  for (int i = 0; i < N; i++) {
    double a = x[i], b = y[i];
    double e[ND] = {sqrt(a), exp(b), log(a), sin(b), cos(b), tan(b), pow(a, b * 0.1), fma(a, b, -a * b),
                    tanh(b), erf(b * 0.3), cbrt(b), atan2(b, a), exp2(b * 0.5), log1p(a), expm1(b * 0.01),
                    hypot(a, b), a / b, 1.0 / sqrt(a), floor(b) + trunc(a * 3.3) + round(b * 1.5), fmod(a, b)};
    for (int k = 0; k < ND; k++) {
      double g = out[i * ND + k];
      int64_t u = ulps(g, e[k]);
      // rsqrt is checked against 1/sqrt, itself rounded twice
      EXPECT(u <= dbound[k] + (k == 17 ? 1 : 0), "%s(%.17g, %.17g) = %.17g, host %.17g (%lld ulp)", dn[k], a, b, g,
             e[k], (long long)u);
    }
    float af = xf[i], bf = yf[i];
    float ef[NF] = {sqrtf(af), expf(bf), logf(af), sinf(bf), cosf(bf), powf(af, bf * 0.1f), fmaf(af, bf, 1.0f),
                    af / bf, tanhf(bf), atan2f(bf, af)};
    for (int k = 0; k < NF; k++) {
      float g = outf[i * NF + k];
      // denormal float inputs/results: the device may flush them
      if (i < 8 && (std::fpclassify(af) == FP_SUBNORMAL || std::fpclassify(ef[k]) == FP_SUBNORMAL)) continue;
      int64_t u = ulpsf(g, ef[k]);
      EXPECT(u <= fbound[k], "%s(%.9g, %.9g) = %.9g, host %.9g (%lld ulp)", fn[k], af, bf, g, ef[k], (long long)u);
    }
  }
  DONE("math_f64");
}
