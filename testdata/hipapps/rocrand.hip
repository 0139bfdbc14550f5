// rocrand: rocRAND (Debian's librocrand, whose fat binary carries gfx90a
// code) on the device. The library's own kernels generate uniform, normal
// and quasi-random numbers, checked for determinism (same seed, same
// numbers; other seed, other numbers), range and statistics; the device
// API (rocrand_kernel.h) runs Philox and XORWOW in our kernel and is
// compared bit for bit with the same header code run on the host.
// hipcc-flags: -lrocrand
// needs: /usr/include/rocrand/rocrand.h
#define FQUALIFIERS __forceinline__ __host__ __device__
#include "common.h"
#include <cmath>
#include <rocrand/rocrand.h>
#include <rocrand/rocrand_kernel.h>

#define RCHECK(call)                                                        \
  do {                                                                      \
    rocrand_status s_ = (call);                                             \
    if (s_ != ROCRAND_STATUS_SUCCESS) {                                     \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call,  \
              (int)s_);                                                     \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

static void gen_uniform(rocrand_rng_type t, unsigned long long seed, float *d,
                        float *h, size_t n) {
  rocrand_generator g;
  RCHECK(rocrand_create_generator(&g, t));
  RCHECK(rocrand_set_seed(g, seed));
  RCHECK(rocrand_generate_uniform(g, d, n));
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost));
  RCHECK(rocrand_destroy_generator(g));
}

static void stats(const char *what, const float *h, size_t n, double lo,
                  double hi, double mean, double var, double tol) {
  double s = 0, s2 = 0;
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(h[i] > lo && h[i] <= hi)) bad++;
    s += h[i];
    s2 += (double)h[i] * h[i];
  }
  double m = s / n, v = s2 / n - m * m;
  EXPECT(bad == 0, "%s: %zu values outside (%g, %g]", what, bad, lo, hi);
  EXPECT(fabs(m - mean) < tol, "%s: mean %g want %g", what, m, mean);
  EXPECT(fabs(v - var) < tol, "%s: variance %g want %g", what, v, var);
}

__global__ void philox_kernel(unsigned long long seed, float4 *out,
                              unsigned *xw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rocrand_state_philox4x32_10 st;
  rocrand_init(seed, i, 7, &st);
  out[i] = rocrand_uniform4(&st);
  rocrand_state_xorwow xs;
  rocrand_init(seed, i, 0, &xs);
  xw[i] = rocrand(&xs) ^ rocrand(&xs);
}

int main() {
  const size_t n = 1 << 16;
  float *d, *h1 = new float[n], *h2 = new float[n], *h3 = new float[n];
  CHECK(hipMalloc(&d, n * sizeof(float)));

  // (XORWOW's library generator is left out for time: its state set-up
  // kernel jumps every one of its 131072 states ahead, 270M instructions.)
  const rocrand_rng_type types[] = {ROCRAND_RNG_PSEUDO_PHILOX4_32_10,
                                    ROCRAND_RNG_PSEUDO_MRG32K3A};
  const char *names[] = {"philox", "mrg32k3a"};
  for (int k = 0; k < 2; k++) {
    gen_uniform(types[k], 1234, d, h1, n);
    gen_uniform(types[k], 1234, d, h2, n);
    gen_uniform(types[k], 4321, d, h3, n);
    EXPECT(memcmp(h1, h2, n * sizeof(float)) == 0, "%s: same seed, different numbers", names[k]);
    size_t same = 0;
    for (size_t i = 0; i < n; i++) same += h1[i] == h3[i];
    EXPECT(same < 16, "%s: other seed, %zu equal numbers", names[k], same);
    stats(names[k], h1, n, 0.0, 1.0, 0.5, 1.0 / 12, 0.01);
  }

  // normal distribution through the library
  {
    rocrand_generator g;
    RCHECK(rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
    RCHECK(rocrand_set_seed(g, 99));
    RCHECK(rocrand_generate_normal(g, d, n, 2.0f, 3.0f));
    CHECK(hipMemcpy(h1, d, n * sizeof(float), hipMemcpyDeviceToHost));
    RCHECK(rocrand_destroy_generator(g));
    stats("normal", h1, n, -100, 100, 2.0, 9.0, 0.1);
  }

  // Sobol: the first 4096 points of dimension 1 are equidistributed.
  {
    rocrand_generator g;
    RCHECK(rocrand_create_generator(&g, ROCRAND_RNG_QUASI_SOBOL32));
    RCHECK(rocrand_generate_uniform(g, d, 4096));
    CHECK(hipMemcpy(h1, d, 4096 * sizeof(float), hipMemcpyDeviceToHost));
    RCHECK(rocrand_destroy_generator(g));
    int bins[64] = {0};
    for (int i = 0; i < 4096; i++) bins[std::min(63, (int)(h1[i] * 64))]++;
    for (int b = 0; b < 64; b++)
      EXPECT(bins[b] >= 63 && bins[b] <= 65, "sobol bin %d has %d points", b, bins[b]);
  }

  // device API vs the same header code on the host
  {
    const int m = 1000;
    float4 *dout, *hout = new float4[m];
    unsigned *dxw, *hxw = new unsigned[m];
    CHECK(hipMalloc(&dout, m * sizeof(float4)));
    CHECK(hipMalloc(&dxw, m * sizeof(unsigned)));
    hipLaunchKernelGGL(philox_kernel, dim3((m + 255) / 256), dim3(256), 0, 0,
                       77ull, dout, dxw, m);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(hout, dout, m * sizeof(float4), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(hxw, dxw, m * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (int i = 0; i < m; i += 37) {
      rocrand_state_philox4x32_10 st;
      rocrand_init(77ull, i, 7, &st);
      float4 e = rocrand_uniform4(&st);
      EXPECT(hout[i].x == e.x && hout[i].y == e.y && hout[i].z == e.z && hout[i].w == e.w,
             "philox thread %d: (%g %g %g %g) want (%g %g %g %g)", i, hout[i].x,
             hout[i].y, hout[i].z, hout[i].w, e.x, e.y, e.z, e.w);
      if (i % 111 == 0) {
        rocrand_state_xorwow xs;
        rocrand_init(77ull, i, 0, &xs);
        unsigned ex = rocrand(&xs);
        ex ^= rocrand(&xs);
        EXPECT(hxw[i] == ex, "xorwow thread %d: %08x want %08x", i, hxw[i], ex);
      }
    }
  }
  DONE("rocrand");
}
