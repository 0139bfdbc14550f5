// atomics: global and shared atomics, including double atomicAdd and an
// atomicCAS loop that implements a double max.
#include "common.h"

__device__ double atomicMaxDouble(double *addr, double v) {
  unsigned long long *p = (unsigned long long *)addr;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    if (__longlong_as_double(assumed) >= v)
      break;
    old = atomicCAS(p, assumed, (unsigned long long)__double_as_longlong(v));
  } while (assumed != old);
  return __longlong_as_double(old);
}

// res: 0 add, 1 sub, 2 min, 3 max, 4 and, 5 or, 6 xor, 7 inc-wrap count,
// 8 CAS-loop counter. dres: 0 atomicAdd(double), 1 CAS max(double).
__global__ void global_atomics(const int *in, int *res, unsigned *ures,
                               double *dres, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  atomicAdd(&res[0], v);
  atomicSub(&res[1], v);
  atomicMin(&res[2], v);
  atomicMax(&res[3], v);
  atomicAnd(&res[4], ~(1 << (i & 31)));
  atomicOr(&res[5], 1 << (v & 31));
  atomicXor(&res[6], v);
  atomicInc(&ures[0], 0xFFFFFFFFu);
  atomicExch(&ures[1], 7u);
  int old = res[8];
  while (true) {
    int prev = atomicCAS(&res[8], old, old + 1);
    if (prev == old)
      break;
    old = prev;
  }
  atomicAdd(&dres[0], (double)v * 0.5);
  atomicMaxDouble(&dres[1], (double)v);
}

// shared_atomics: per-block histogram in shared memory, merged globally.
__global__ void shared_atomics(const int *in, unsigned *hist, int n) {
  __shared__ unsigned bins[16];
  if (threadIdx.x < 16)
    bins[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i] & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

int main() {
  const int n = 50000;
  int *h = new int[n];
  unsigned s = 3;
  long long sum = 0;
  int mn = 1 << 30, mx = -(1 << 30), x = 0, orv = 0, andv = -1;
  unsigned hist[16] = {0};
  for (int i = 0; i < n; i++) {
    h[i] = (int)(lcg(s) % 20001) - 10000;
    sum += h[i];
    mn = h[i] < mn ? h[i] : mn;
    mx = h[i] > mx ? h[i] : mx;
    x ^= h[i];
    orv |= 1 << (h[i] & 31);
    andv &= ~(1 << (i & 31));
    hist[h[i] & 15]++;
  }
  int *din, *dires;
  unsigned *dures, *dhist;
  double *ddres;
  int res0[9] = {0, 0, 1 << 30, -(1 << 30), -1, 0, 0, 0, 0};
  double dres0[2] = {0.0, -1e300};
  unsigned ures0[2] = {0, 0};
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dires, sizeof(res0)));
  CHECK(hipMalloc(&dures, sizeof(ures0)));
  CHECK(hipMalloc(&ddres, sizeof(dres0)));
  CHECK(hipMalloc(&dhist, sizeof(hist)));
  CHECK(hipMemcpy(din, h, n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dires, res0, sizeof(res0), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dures, ures0, sizeof(ures0), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(ddres, dres0, sizeof(dres0), hipMemcpyHostToDevice));
  CHECK(hipMemset(dhist, 0, sizeof(hist)));
  hipLaunchKernelGGL(global_atomics, dim3((n + 127) / 128), dim3(128), 0, 0,
                     din, dires, dures, ddres, n);
  CHECK(hipGetLastError());
  hipLaunchKernelGGL(shared_atomics, dim3((n + 255) / 256), dim3(256), 0, 0,
                     din, dhist, n);
  CHECK(hipGetLastError());
  int res[9];
  unsigned ures[2], ghist[16];
  double dres[2];
  CHECK(hipMemcpy(res, dires, sizeof(res), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ures, dures, sizeof(ures), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(dres, ddres, sizeof(dres), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ghist, dhist, sizeof(ghist), hipMemcpyDeviceToHost));
  EXPECT(res[0] == (int)sum, "add %d want %lld", res[0], sum);
  EXPECT(res[1] == (int)-sum, "sub %d want %lld", res[1], -sum);
  EXPECT(res[2] == mn, "min %d want %d", res[2], mn);
  EXPECT(res[3] == mx, "max %d want %d", res[3], mx);
  EXPECT(res[4] == andv, "and %x want %x", res[4], andv);
  EXPECT(res[5] == orv, "or %x want %x", res[5], orv);
  EXPECT(res[6] == x, "xor %x want %x", res[6], x);
  EXPECT(res[8] == n, "cas counter %d want %d", res[8], n);
  EXPECT(ures[0] == (unsigned)n, "inc %u want %d", ures[0], n);
  EXPECT(ures[1] == 7u, "exch %u", ures[1]);
  // Every v*0.5 is a multiple of 0.5 below 2^53, so the double sum is exact
  // in any order.
  EXPECT(dres[0] == (double)sum * 0.5, "double add %f want %f", dres[0],
         (double)sum * 0.5);
  EXPECT(dres[1] == (double)mx, "double max %f want %d", dres[1], mx);
  for (int b = 0; b < 16; b++)
    EXPECT(ghist[b] == hist[b], "hist[%d] %u want %u", b, ghist[b], hist[b]);
  printf("PASSED atomics\n");
  return 0;
}
