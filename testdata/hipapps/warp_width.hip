// warp_width: sub-warp shuffles (__shfl, __shfl_up, __shfl_down, __shfl_xor
// with width 4/8/16/32), 64-bit and double shuffles, segmented warp
// reductions and scans, __ballot(1) under divergence (the active mask) and
// __lane_id, checked against a host model of HIP's ds_bpermute semantics.
#include "common.h"

#define N 1024
#define NOUT 12

__global__ void shuffles(const int *in, const double *din, int *out,
                         double *dout, unsigned long long *bal) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int *o = out + i * NOUT;
  o[0] = __shfl(v, 3, 8);
  o[1] = __shfl_up(v, 3, 16);
  o[2] = __shfl_down(v, 5, 16);
  o[3] = __shfl_xor(v, 6, 8);
  o[4] = __shfl_xor(v, 17, 32);
  // segmented inclusive scan over width 16
  int s = v;
  for (int d = 1; d < 16; d <<= 1) {
    int t = __shfl_up(s, d, 16);
    if ((__lane_id() & 15) >= d) s += t;
  }
  o[5] = s;
  // reduction over width 4 with shfl_down
  int r = v;
  for (int d = 2; d > 0; d >>= 1) r += __shfl_down(r, d, 4);
  o[6] = r;
  o[7] = __lane_id();
  long long w = ((long long)v << 33) ^ (long long)i;
  long long ws = __shfl_down(w, 1);
  o[8] = (int)(ws >> 33);
  o[9] = (int)(ws & 0xffffffff);
  unsigned long long am = 0;
  if (v % 3 == 0) {
    am = __ballot(1);
    o[10] = __popcll(am);
  } else {
    o[10] = -1;
  }
  o[11] = (int)__ballot(v % 5 == 0 && (threadIdx.x & 1));
  double dv = din[i];
  dout[i] = __shfl_xor(dv, 2) + __shfl(dv, 63);
  unsigned long long bb = __ballot(dv > 0.5);
  if ((threadIdx.x % warpSize) == 0)
    bal[i / warpSize] = bb;
}

int main() {
  int ws = 0;
  CHECK(hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0));
  if (ws != 64) {
    fprintf(stderr, "this program models wave64, warp size is %d\n", ws);
    return 1;
  }
  static int h[N], out[N * NOUT];
  static double hd[N], dres[N];
  static unsigned long long bal[N / 64];
  unsigned seed = 11;
  for (int i = 0; i < N; i++) {
    h[i] = (int)(lcg(seed) % 1000) - 300;
    hd[i] = (lcg(seed) % 1000) / 1000.0;
  }
  int *din, *dout;
  double *ddin, *ddout;
  unsigned long long *dbal;
  CHECK(hipMalloc(&din, sizeof h));
  CHECK(hipMalloc(&dout, sizeof out));
  CHECK(hipMalloc(&ddin, sizeof hd));
  CHECK(hipMalloc(&ddout, sizeof dres));
  CHECK(hipMalloc(&dbal, sizeof bal));
  CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(ddin, hd, sizeof hd, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(shuffles, dim3(N / 128), dim3(128), 0, 0, din, ddin, dout,
                     ddout, dbal);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(dres, ddout, sizeof dres, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(bal, dbal, sizeof bal, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    int lane = i % 64, base = i - lane;
    auto at = [&](int l) { return h[base + l]; };
    int e[NOUT];
    e[0] = at(3 + (lane & ~7));
    e[1] = (lane & 15) >= 3 ? at(lane - 3) : at(lane);
    e[2] = (lane & 15) + 5 < 16 ? at(lane + 5) : at(lane);
    {
      int x = lane ^ 6;
      e[3] = x >= ((lane + 8) & ~7) ? at(lane) : at(x);
      x = lane ^ 17;
      e[4] = x >= ((lane + 32) & ~31) ? at(lane) : at(x);
    }
    e[5] = 0;
    for (int l = lane & ~15; l <= lane; l++) e[5] += at(l);
    // shfl_down reduction over width 4: lane keeps partial sums
    {
      int r[64];
      for (int l = 0; l < 64; l++) r[l] = at(l);
      for (int d = 2; d > 0; d >>= 1) {
        int nr[64];
        for (int l = 0; l < 64; l++)
          nr[l] = r[l] + ((l & 3) + d < 4 ? r[l + d] : r[l]);
        memcpy(r, nr, sizeof r);
      }
      e[6] = r[lane];
    }
    e[7] = lane;
    {
      int src = lane + 1 < 64 ? i + 1 : i;
      long long w = ((long long)h[src] << 33) ^ (long long)src;
      e[8] = (int)(w >> 33);
      e[9] = (int)(w & 0xffffffff);
    }
    if (h[i] % 3 == 0) {
      int c = 0;
      for (int l = 0; l < 64; l++) c += at(l) % 3 == 0;
      e[10] = c;
    } else {
      e[10] = -1;
    }
    {
      unsigned long long b = 0;
      for (int l = 0; l < 64; l++)
        if (at(l) % 5 == 0 && (l & 1)) b |= 1ull << l;
      e[11] = (int)b;
    }
    for (int k = 0; k < NOUT; k++)
      EXPECT(out[i * NOUT + k] == e[k], "thread %d output %d: got %d want %d", i,
             k, out[i * NOUT + k], e[k]);
    double ed = hd[base + (lane ^ 2)] + hd[base + 63];
    EXPECT(dres[i] == ed, "thread %d double shuffle: got %g want %g", i, dres[i], ed);
  }
  for (int w = 0; w < N / 64; w++) {
    unsigned long long b = 0;
    for (int l = 0; l < 64; l++)
      if (hd[w * 64 + l] > 0.5) b |= 1ull << l;
    EXPECT(bal[w] == b, "warp %d ballot %llx want %llx", w, bal[w], b);
  }
  DONE("warp_width");
}
