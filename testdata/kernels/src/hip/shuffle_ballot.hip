// shuffle_ballot: warp-level primitives: __shfl, __shfl_xor, __shfl_up,
// __shfl_down, __ballot, __any, __all, __popcll, with warpSize taken from
// the device so it checks on wave64 and wave32 targets alike.
#include "common.h"

__global__ void warp_ops(const int *in, int *out, unsigned long long *ballots,
                         int *votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int v = in[i];
  out[i * 5 + 0] = __shfl(v, 0);
  out[i * 5 + 1] = __shfl_xor(v, 1);
  out[i * 5 + 2] = __shfl_up(v, 1);
  out[i * 5 + 3] = __shfl_down(v, 2);
  int sum = v;
  for (int off = warpSize / 2; off > 0; off /= 2)
    sum += __shfl_xor(sum, off);
  out[i * 5 + 4] = sum;
  unsigned long long b = __ballot(v & 1);
  int any = __any(v > 1000);
  int all = __all(v >= 0);
  if (lane == 0) {
    int w = i / warpSize;
    ballots[w] = b;
    votes[w * 3 + 0] = any;
    votes[w * 3 + 1] = all;
    votes[w * 3 + 2] = __popcll(b);
  }
}

int main() {
  int ws = 0;
  CHECK(hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0));
  EXPECT(ws == 32 || ws == 64, "warp size %d", ws);
  const int n = 512, nw = n / ws;
  int *h = new int[n];
  unsigned s = 5;
  for (int i = 0; i < n; i++)
    h[i] = (int)(lcg(s) % 1100);
  int *din, *dout, *dvotes;
  unsigned long long *dballots;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dout, n * 5 * sizeof(int)));
  CHECK(hipMalloc(&dballots, nw * sizeof(unsigned long long)));
  CHECK(hipMalloc(&dvotes, nw * 3 * sizeof(int)));
  CHECK(hipMemcpy(din, h, n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(warp_ops, dim3(n / 128), dim3(128), 0, 0, din, dout,
                     dballots, dvotes);
  CHECK(hipGetLastError());
  int *out = new int[n * 5], *votes = new int[nw * 3];
  unsigned long long *ballots = new unsigned long long[nw];
  CHECK(hipMemcpy(out, dout, n * 5 * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ballots, dballots, nw * 8, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(votes, dvotes, nw * 3 * sizeof(int), hipMemcpyDeviceToHost));
  for (int w = 0; w < nw; w++) {
    int base = w * ws, sum = 0, any = 0, all = 1;
    unsigned long long b = 0;
    for (int l = 0; l < ws; l++) {
      int v = h[base + l];
      sum += v;
      if (v & 1)
        b |= 1ull << l;
      any |= v > 1000;
      all &= v >= 0;
    }
    EXPECT(ballots[w] == b, "ballot[%d] %llx want %llx", w, ballots[w], b);
    EXPECT((votes[w * 3] != 0) == (any != 0), "any[%d]", w);
    EXPECT((votes[w * 3 + 1] != 0) == (all != 0), "all[%d]", w);
    EXPECT(votes[w * 3 + 2] == __builtin_popcountll(b), "popc[%d]", w);
    for (int l = 0; l < ws; l++) {
      int i = base + l;
      EXPECT(out[i * 5 + 0] == h[base], "shfl[%d]", i);
      EXPECT(out[i * 5 + 1] == h[base + (l ^ 1)], "shfl_xor[%d]", i);
      EXPECT(out[i * 5 + 2] == h[base + (l >= 1 ? l - 1 : l)], "shfl_up[%d]", i);
      EXPECT(out[i * 5 + 3] == h[base + (l + 2 < ws ? l + 2 : l)],
             "shfl_down[%d]", i);
      EXPECT(out[i * 5 + 4] == sum, "butterfly sum[%d] %d want %d", i,
             out[i * 5 + 4], sum);
    }
  }
  printf("PASSED shuffle_ballot (warpSize %d)\n", ws);
  return 0;
}
