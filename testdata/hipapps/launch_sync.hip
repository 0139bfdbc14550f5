// launch_sync: many small launches, HIP's everyday pattern. 2000 launches
// of an empty kernel, each followed by hipDeviceSynchronize, then 2000
// back-to-back launches of a kernel that adds 1 to every element on the
// null stream (they must run in order and each exactly once: every
// element ends at 2000), then a stream's launches interleaved with
// hipStreamQuery and hipStreamSynchronize. It also prints the launch +
// synchronize round trip and the time per back-to-back launch, which
// bench/README.md reports; the check is only of the results.
#include "common.h"

#include <algorithm>
#include <chrono>
#include <vector>

#define N (1 << 14)
#define LAUNCHES 2000

__global__ void empty() {}

__global__ void add_one(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}

__global__ void set_step(int *a, int step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Each launch checks that the previous one on the stream finished.
  if (i < n) a[i] = (a[i] == step - 1) ? step : -1000000;
}

static double us_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
}

int main() {
  float *d;
  CHECK(hipMalloc(&d, N * sizeof(float)));
  CHECK(hipMemset(d, 0, N * sizeof(float)));

  for (int i = 0; i < 100; i++) {  // warm-up
    empty<<<1, 64>>>();
    CHECK(hipDeviceSynchronize());
  }
  std::vector<double> rt(LAUNCHES);
  for (int i = 0; i < LAUNCHES; i++) {
    auto t = std::chrono::steady_clock::now();
    empty<<<1, 64>>>();
    CHECK(hipGetLastError());
    CHECK(hipDeviceSynchronize());
    rt[i] = us_since(t);
  }
  std::sort(rt.begin(), rt.end());
  printf("empty kernel launch + hipDeviceSynchronize: median %.1f us (p10 %.1f, p90 %.1f)\n", rt[LAUNCHES / 2],
         rt[LAUNCHES / 10], rt[LAUNCHES * 9 / 10]);

  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < LAUNCHES; i++) add_one<<<N / 256, 256>>>(d, N);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  printf("back-to-back launches of a %d-workgroup kernel: %.1f us each\n", N / 256, us_since(t) / LAUNCHES);
  std::vector<float> h(N);
  CHECK(hipMemcpy(h.data(), d, N * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == (float)LAUNCHES, "a[%d] = %g after %d launches", i, h[i], LAUNCHES);

  hipStream_t s;
  CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  int *x;
  CHECK(hipMalloc(&x, N * sizeof(int)));
  CHECK(hipMemsetAsync(x, 0, N * sizeof(int), s));
  for (int step = 1; step <= 200; step++) {
    set_step<<<N / 256, 256, 0, s>>>(x, step, N);
    if (step % 7 == 0) {
      hipError_t q = hipStreamQuery(s);
      EXPECT(q == hipSuccess || q == hipErrorNotReady, "hipStreamQuery: %s", hipGetErrorString(q));
    }
    if (step % 50 == 0) CHECK(hipStreamSynchronize(s));
  }
  CHECK(hipStreamSynchronize(s));
  std::vector<int> hx(N);
  CHECK(hipMemcpy(hx.data(), x, N * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(hx[i] == 200, "x[%d] = %d after 200 ordered steps", i, hx[i]);

  CHECK(hipStreamDestroy(s));
  CHECK(hipFree(x));
  CHECK(hipFree(d));
  DONE("launch_sync");
}
