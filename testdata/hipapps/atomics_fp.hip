// atomics_fp: float and double atomicAdd, integer atomicMax/Min/And/Or/Xor/
// Inc/Dec/Exch, a double atomicCAS max loop, 64-bit atomics, atomics on
// shared memory, and the __threadfence "last block finishes the sum"
// pattern, each checked against a host computation.
#include "common.h"
#include <cmath>

#ifndef APP_NAME
#define APP_NAME "atomics_fp"
#endif

#define N 4096
#define BLOCK 256

__device__ double atomicMaxDouble(double *addr, double v) {
  unsigned long long *p = (unsigned long long *)addr;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    if (__longlong_as_double(assumed) >= v) break;
    old = atomicCAS(p, assumed, __double_as_longlong(v));
  } while (old != assumed);
  return __longlong_as_double(old);
}

struct Acc {
  float fsum;
  double dsum;
  double dmax;
  int imax, imin;
  unsigned umax, umin, andv, orv, xorv, inc, dec, exch;
  unsigned long long u64sum, u64max;
  int shared_hist[16];
};

__device__ unsigned block_count = 0;

__global__ void atomics(const int *in, const float *fin, const double *din,
                        Acc *acc, float *partial, float *total) {
  __shared__ int hist[16];
  __shared__ float bsum;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 16) hist[threadIdx.x] = 0;
  if (threadIdx.x == 0) bsum = 0;
  __syncthreads();
  int v = in[i];
  atomicAdd(&acc->fsum, fin[i]);
  atomicAdd(&acc->dsum, din[i]);
  atomicMaxDouble(&acc->dmax, din[i]);
  atomicMax(&acc->imax, v);
  atomicMin(&acc->imin, v);
  atomicMax(&acc->umax, (unsigned)v * 2654435761u);
  atomicMin(&acc->umin, (unsigned)v * 2654435761u);
  atomicAnd(&acc->andv, ~(1u << (v & 31)) | (v & 0x40 ? 0u : 0xffffffffu));
  atomicOr(&acc->orv, 1u << (v % 29));
  atomicXor(&acc->xorv, (unsigned)v);
  atomicInc(&acc->inc, 100u);
  atomicDec(&acc->dec, 1000u);
  atomicExch(&acc->exch, 7u);
  atomicAdd(&acc->u64sum, (unsigned long long)v << 20);
  atomicMax(&acc->u64max, (unsigned long long)v * 0x100000001ull);
  atomicAdd(&hist[v & 15], 1);
  atomicAdd(&bsum, fin[i]);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&acc->shared_hist[threadIdx.x], hist[threadIdx.x]);
  // last-block reduction: publish the partial sum, fence, count blocks
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = bsum;
    __threadfence();
    unsigned t = atomicInc(&block_count, gridDim.x);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float s = 0;
    for (unsigned b = 0; b < gridDim.x; b++) s += ((volatile float *)partial)[b];
    *total = s;
  }
}

int main() {
  static int h[N];
  static float hf[N];
  static double hd[N];
  unsigned seed = 3;
  for (int i = 0; i < N; i++) {
    h[i] = (int)(lcg(seed) % 200001) - 100000;
    hf[i] = (float)(lcg(seed) % 1024) / 64.0f;   // exact sums in float
    hd[i] = (double)(lcg(seed) % 100000) / 7.0;
  }
  Acc init;
  memset(&init, 0, sizeof init);
  init.dmax = -1e300;
  init.imax = INT32_MIN;
  init.imin = INT32_MAX;
  init.umin = 0xffffffffu;
  init.andv = 0xffffffffu;
  init.dec = 500;
  int *din;
  float *dfin, *dpart, *dtotal;
  double *ddin;
  Acc *dacc;
  const int blocks = N / BLOCK;
  CHECK(hipMalloc(&din, sizeof h));
  CHECK(hipMalloc(&dfin, sizeof hf));
  CHECK(hipMalloc(&ddin, sizeof hd));
  CHECK(hipMalloc(&dacc, sizeof(Acc)));
  CHECK(hipMalloc(&dpart, blocks * sizeof(float)));
  CHECK(hipMalloc(&dtotal, sizeof(float)));
  CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dfin, hf, sizeof hf, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(ddin, hd, sizeof hd, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dacc, &init, sizeof init, hipMemcpyHostToDevice));
  CHECK(hipMemset(dtotal, 0xff, sizeof(float)));
  atomics<<<blocks, BLOCK>>>(din, dfin, ddin, dacc, dpart, dtotal);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  Acc got;
  float total;
  CHECK(hipMemcpy(&got, dacc, sizeof got, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&total, dtotal, sizeof total, hipMemcpyDeviceToHost));
  unsigned bc;
  CHECK(hipMemcpyFromSymbol(&bc, HIP_SYMBOL(block_count), sizeof bc));

  Acc e = init;
  double dsum = 0;
  for (int i = 0; i < N; i++) {
    int v = h[i];
    e.fsum += hf[i];
    dsum += hd[i];
    e.dmax = std::max(e.dmax, hd[i]);
    e.imax = std::max(e.imax, v);
    e.imin = std::min(e.imin, v);
    e.umax = std::max(e.umax, (unsigned)v * 2654435761u);
    e.umin = std::min(e.umin, (unsigned)v * 2654435761u);
    e.andv &= ~(1u << (v & 31)) | (v & 0x40 ? 0u : 0xffffffffu);
    e.orv |= 1u << (v % 29);
    e.xorv ^= (unsigned)v;
    e.inc = e.inc >= 100u ? 0 : e.inc + 1;
    e.dec = (e.dec == 0 || e.dec > 1000u) ? 1000u : e.dec - 1;
    e.u64sum += (unsigned long long)v << 20;
    e.u64max = std::max(e.u64max, (unsigned long long)v * 0x100000001ull);
    e.shared_hist[v & 15]++;
  }
  e.exch = 7;
  EXPECT(got.fsum == e.fsum, "float atomicAdd %.9g want %.9g", got.fsum, e.fsum);
  EXPECT(fabs(got.dsum - dsum) <= 1e-9 * fabs(dsum), "double atomicAdd %.17g want %.17g", got.dsum, dsum);
  EXPECT(got.dmax == e.dmax, "atomicCAS double max %.17g want %.17g", got.dmax, e.dmax);
  EXPECT(got.imax == e.imax, "atomicMax %d want %d", got.imax, e.imax);
  EXPECT(got.imin == e.imin, "atomicMin %d want %d", got.imin, e.imin);
  EXPECT(got.umax == e.umax, "unsigned atomicMax %u want %u", got.umax, e.umax);
  EXPECT(got.umin == e.umin, "unsigned atomicMin %u want %u", got.umin, e.umin);
  EXPECT(got.andv == e.andv, "atomicAnd %08x want %08x", got.andv, e.andv);
  EXPECT(got.orv == e.orv, "atomicOr %08x want %08x", got.orv, e.orv);
  EXPECT(got.xorv == e.xorv, "atomicXor %08x want %08x", got.xorv, e.xorv);
  EXPECT(got.inc == e.inc, "atomicInc %u want %u", got.inc, e.inc);
  EXPECT(got.dec == e.dec, "atomicDec %u want %u", got.dec, e.dec);
  EXPECT(got.exch == e.exch, "atomicExch %u want %u", got.exch, e.exch);
  EXPECT(got.u64sum == e.u64sum, "64-bit atomicAdd %llx want %llx", got.u64sum, e.u64sum);
  EXPECT(got.u64max == e.u64max, "64-bit atomicMax %llx want %llx", got.u64max, e.u64max);
  for (int b = 0; b < 16; b++)
    EXPECT(got.shared_hist[b] == e.shared_hist[b], "shared histogram bin %d: %d want %d", b,
           got.shared_hist[b], e.shared_hist[b]);
  EXPECT(total == e.fsum, "last-block total %.9g want %.9g", total, e.fsum);
  EXPECT(bc == (unsigned)blocks, "block counter %u, want %d", bc, blocks);
  DONE(APP_NAME);
}
