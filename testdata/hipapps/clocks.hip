// clocks: clock64() (s_memtime) and __builtin_amdgcn_s_memrealtime (the
// wall clock, 100 MHz on gfx90a), as kernels timing themselves use them:
// both increase across a busy loop and an s_sleep, and the wall clock's
// reading of that interval is plausible.
#include "common.h"

__global__ void timed(long long *clocks) {
  if (threadIdx.x == 0) {
    long long c0 = clock64(), w0 = __builtin_amdgcn_s_memrealtime();
    volatile int acc = 0;
    for (int k = 0; k < 2000; k++) acc += k;
    __builtin_amdgcn_s_sleep(10);
    long long c1 = clock64(), w1 = __builtin_amdgcn_s_memrealtime();
    clocks[blockIdx.x * 4 + 0] = c0;
    clocks[blockIdx.x * 4 + 1] = c1;
    clocks[blockIdx.x * 4 + 2] = w0;
    clocks[blockIdx.x * 4 + 3] = w1;
  }
}

int main() {
  const int blocks = 4;
  long long clocks[blocks * 4];
  long long *dclk;
  CHECK(hipMalloc(&dclk, sizeof clocks));
  timed<<<blocks, 64>>>(dclk);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(clocks, dclk, sizeof clocks, hipMemcpyDeviceToHost));
  const int rate = 100000;  // kHz: s_memrealtime on gfx90a (HIP 5.2 has no attribute for it)
  for (int b = 0; b < blocks; b++) {
    long long c0 = clocks[b * 4], c1 = clocks[b * 4 + 1], w0 = clocks[b * 4 + 2], w1 = clocks[b * 4 + 3];
    EXPECT(c1 > c0, "block %d clock64 not increasing: %lld -> %lld", b, c0, c1);
    EXPECT(w1 >= w0, "block %d s_memrealtime went back: %lld -> %lld", b, w0, w1);
    double secs = (double)(w1 - w0) / ((double)rate * 1000.0);
    EXPECT(secs < 10.0, "block %d: wall clock says the loop took %g s (rate %d kHz)", b, secs, rate);
  }
  DONE("clocks");
}
