// jacobi: an iterative solver as simulation codes write it: a 2D Jacobi
// heat-diffusion sweep over a 258 x 258 grid with 16 x 16 shared-memory
// tiles plus halos, ping-pong buffers, and every 10 sweeps a residual
// reduction (shared-memory tree, then warp shuffles, then one atomicMax on
// the float's bits) copied back asynchronously to decide convergence;
// 60 sweeps checked against the same computation on the host.
#include "common.h"
#include <cmath>
#include <vector>
#include <algorithm>

#define NX 258
#define NY 258
#define T 16

__global__ void sweep(const float *in, float *out) {
  __shared__ float tile[T + 2][T + 2];
  int x = blockIdx.x * T + threadIdx.x + 1, y = blockIdx.y * T + threadIdx.y + 1;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  bool inside = x < NX - 1 && y < NY - 1;
  if (inside) {
    tile[ty][tx] = in[y * NX + x];
    if (threadIdx.x == 0) tile[ty][0] = in[y * NX + x - 1];
    if (threadIdx.x == T - 1 || x == NX - 2) tile[ty][tx + 1] = in[y * NX + x + 1];
    if (threadIdx.y == 0) tile[0][tx] = in[(y - 1) * NX + x];
    if (threadIdx.y == T - 1 || y == NY - 2) tile[ty + 1][tx] = in[(y + 1) * NX + x];
  }
  __syncthreads();
  if (inside) {
    float v = 0.25f * (tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx]);
    out[y * NX + x] = v;
  }
}

__global__ void residual(const float *a, const float *b, unsigned *maxbits) {
  __shared__ float red[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  float d = i < NX * NY ? fabsf(a[i] - b[i]) : 0.0f;
  red[threadIdx.x] = d;
  __syncthreads();
  for (int s = 128; s >= 64; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x < 64) {
    float m = red[threadIdx.x];
    for (int o = 32; o > 0; o >>= 1) m = fmaxf(m, __shfl_down(m, o));
    if (threadIdx.x == 0) atomicMax(maxbits, __float_as_uint(m));  // non-negative floats order as integers
  }
}

static void host_sweep(const std::vector<float> &in, std::vector<float> &out) {
  for (int y = 1; y < NY - 1; y++)
    for (int x = 1; x < NX - 1; x++) {
      volatile float s = in[y * NX + x - 1] + in[y * NX + x + 1];
      s = s + in[(y - 1) * NX + x];
      s = s + in[(y + 1) * NX + x];
      out[y * NX + x] = 0.25f * s;
    }
}

int main() {
  std::vector<float> h(NX * NY, 0.0f);
  for (int x = 0; x < NX; x++) h[x] = 100.0f;                  // hot top edge
  for (int y = 0; y < NY; y++) h[y * NX + NX - 1] = 50.0f;     // warm right edge
  for (int i = 0; i < 40; i++) h[(100 + i) * NX + 60] = 75.0f;  // a warm line inside
  float *a, *b;
  unsigned *dmax, *hmax;
  CHECK(hipMalloc(&a, NX * NY * sizeof(float)));
  CHECK(hipMalloc(&b, NX * NY * sizeof(float)));
  CHECK(hipMalloc(&dmax, sizeof(unsigned)));
  CHECK(hipHostMalloc(&hmax, sizeof(unsigned), hipHostMallocDefault));
  CHECK(hipMemcpy(a, h.data(), NX * NY * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(b, h.data(), NX * NY * sizeof(float), hipMemcpyHostToDevice));
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  std::vector<float> ha = h, hb = h;
  dim3 grid((NX - 2 + T - 1) / T, (NY - 2 + T - 1) / T), block(T, T);
  const int sweeps = 60;
  std::vector<float> res_dev, res_host;
  for (int it = 0; it < sweeps; it++) {
    sweep<<<grid, block, 0, s>>>(a, b);
    host_sweep(ha, hb);
    if ((it + 1) % 10 == 0) {
      CHECK(hipMemsetAsync(dmax, 0, sizeof(unsigned), s));
      residual<<<(NX * NY + 255) / 256, 256, 0, s>>>(a, b, dmax);
      CHECK(hipMemcpyAsync(hmax, dmax, sizeof(unsigned), hipMemcpyDeviceToHost, s));
      CHECK(hipStreamSynchronize(s));
      float r;
      memcpy(&r, hmax, sizeof r);
      float hr = 0;
      for (int i = 0; i < NX * NY; i++) hr = std::max(hr, fabsf(ha[i] - hb[i]));
      res_dev.push_back(r);
      res_host.push_back(hr);
    }
    std::swap(a, b);
    std::swap(ha, hb);
  }
  CHECK(hipGetLastError());
  std::vector<float> out(NX * NY);
  CHECK(hipMemcpy(out.data(), a, NX * NY * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < NX * NY; i++)
    EXPECT(fabsf(out[i] - ha[i]) <= 1e-4f * (1 + fabsf(ha[i])), "cell (%d,%d): %.9g want %.9g", i % NX, i / NX, out[i],
           ha[i]);
  for (size_t k = 0; k < res_dev.size(); k++)
    EXPECT(fabsf(res_dev[k] - res_host[k]) <= 1e-4f * (1 + res_host[k]), "residual after %zu sweeps: %g want %g",
           10 * (k + 1), res_dev[k], res_host[k]);
  printf("residual after %d sweeps: %g\n", sweeps, res_dev.back());
  DONE("jacobi");
}
