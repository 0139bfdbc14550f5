// coop_groups: cooperative groups from HIP 5.2's hip_cooperative_groups.h:
// this_thread_block (rank, sync, group_index), tiled_partition with a
// runtime size and thread_block_tile<N> with shfl/shfl_down/shfl_xor
// reductions, and coalesced_threads under divergence. (Grid-wide sync is
// coop_grid.hip.)
#include "common.h"
#include <hip/hip_cooperative_groups.h>
#include <algorithm>
namespace cg = cooperative_groups;

__global__ void block_tiles(const int *in, int *out, int *tile_sums, int *coal) {
  cg::thread_block b = cg::this_thread_block();
  int i = b.group_index().x * b.size() + b.thread_rank();
  __shared__ int s[256];
  s[b.thread_rank()] = in[i];
  b.sync();
  out[i] = s[b.size() - 1 - b.thread_rank()];
  // static tile of 16: reduction with shfl_down, broadcast with shfl
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(b);
  int v = in[i];
  for (int d = 8; d > 0; d /= 2) v += t16.shfl_down(v, d);
  v = t16.shfl(v, 0);
  if (t16.thread_rank() == 0) tile_sums[i / 16] = v;
  // dynamic tile of 8: xor butterfly max
  cg::thread_group t8 = cg::tiled_partition(b, 8);
  int m = in[i];
  cg::thread_block_tile<8> t8s = cg::tiled_partition<8>(b);
  for (int d = 4; d > 0; d /= 2) m = max(m, t8s.shfl_xor(m, d));
  t8.sync();
  out[4096 + i] = m + 1000000 * (int)t8.size() + 100000 * (t8.thread_rank() == (unsigned)(i % 8));
  // coalesced group of the odd values
  if (in[i] & 1) {
    cg::coalesced_group c = cg::coalesced_threads();
    coal[i] = (int)c.size() * 100 + (int)c.thread_rank();
  } else {
    coal[i] = -1;
  }
}

int main() {
  const int N = 4096;
  int *h = new int[N], *out = new int[2 * N], *ts = new int[N / 16], *coal = new int[N];
  unsigned seed = 21;
  for (int i = 0; i < N; i++) h[i] = (int)(lcg(seed) % 100000);
  int *din, *dout, *dts, *dcoal;
  CHECK(hipMalloc(&din, N * sizeof(int)));
  CHECK(hipMalloc(&dout, 2 * N * sizeof(int)));
  CHECK(hipMalloc(&dts, N / 16 * sizeof(int)));
  CHECK(hipMalloc(&dcoal, N * sizeof(int)));
  CHECK(hipMemcpy(din, h, N * sizeof(int), hipMemcpyHostToDevice));
  block_tiles<<<N / 256, 256>>>(din, dout, dts, dcoal);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out, dout, 2 * N * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ts, dts, N / 16 * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(coal, dcoal, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    int b = i / 256, r = i % 256;
    EXPECT(out[i] == h[b * 256 + 255 - r], "block reverse %d: %d", i, out[i]);
    int m = 0;
    for (int k = i & ~7; k < (i & ~7) + 8; k++) m = std::max(m, h[k]);
    EXPECT(out[N + i] == m + 8000000 + 100000, "tile8 %d: %d want %d", i, out[N + i], m + 8100000);
    int w = i & ~63, cnt = 0, rank = 0;
    for (int k = w; k < w + 64; k++)
      if (h[k] & 1) {
        if (k < i) rank++;
        cnt++;
      }
    int e = (h[i] & 1) ? cnt * 100 + rank : -1;
    EXPECT(coal[i] == e, "coalesced %d: %d want %d", i, coal[i], e);
  }
  for (int t = 0; t < N / 16; t++) {
    int s = 0;
    for (int k = 0; k < 16; k++) s += h[t * 16 + k];
    EXPECT(ts[t] == s, "tile16 sum %d: %d want %d", t, ts[t], s);
  }

  DONE("coop_groups");
}
