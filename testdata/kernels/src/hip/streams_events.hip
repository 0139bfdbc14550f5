// streams_events: several kernels on two streams ordered by events,
// hipEventElapsedTime > 0 across a timed kernel, and hipStreamAddCallback
// running after the stream's preceding work.
#include "common.h"
#include <atomic>

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

__global__ void add_into(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] += src[i];
}

// busy does enough work that the elapsed time between two events is > 0.
__global__ void busy(float *p, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = p[i];
  for (int k = 0; k < iters; k++)
    x = x * 0.999f + 0.001f;
  p[i] = x;
}

static std::atomic<int> callback_value{0};

static void on_done(hipStream_t, hipError_t status, void *user) {
  int *host = (int *)user;
  // The callback runs after fill+add_into completed and were copied back.
  callback_value.store(status == hipSuccess ? host[5] : -1);
}

int main() {
  const int n = 4096;
  hipStream_t s1, s2;
  CHECK(hipStreamCreate(&s1));
  CHECK(hipStreamCreate(&s2));
  hipEvent_t filled, start, stop;
  CHECK(hipEventCreate(&filled));
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  int *a, *b, *host;
  float *f;
  CHECK(hipMalloc(&a, n * sizeof(int)));
  CHECK(hipMalloc(&b, n * sizeof(int)));
  CHECK(hipMalloc(&f, n * sizeof(float)));
  CHECK(hipHostMalloc(&host, n * sizeof(int)));
  CHECK(hipMemset(f, 0, n * sizeof(float)));
  hipLaunchKernelGGL(fill, dim3(n / 256), dim3(256), 0, s2, b, 1000, n);
  CHECK(hipEventRecord(filled, s2));
  hipLaunchKernelGGL(fill, dim3(n / 256), dim3(256), 0, s1, a, 0, n);
  CHECK(hipStreamWaitEvent(s1, filled, 0));
  hipLaunchKernelGGL(add_into, dim3(n / 256), dim3(256), 0, s1, a, b, n);
  CHECK(hipMemcpyAsync(host, a, n * sizeof(int), hipMemcpyDeviceToHost, s1));
  CHECK(hipStreamAddCallback(s1, on_done, host, 0));
  CHECK(hipEventRecord(start, s2));
  hipLaunchKernelGGL(busy, dim3(n / 256), dim3(256), 0, s2, f, n, 2000);
  CHECK(hipEventRecord(stop, s2));
  CHECK(hipStreamSynchronize(s1));
  CHECK(hipEventSynchronize(stop));
  CHECK(hipGetLastError());
  for (int i = 0; i < n; i++)
    EXPECT(host[i] == 1000 + 2 * i, "a[%d] = %d, want %d", i, host[i],
           1000 + 2 * i);
  // The callback may finish just after hipStreamSynchronize returns.
  for (int k = 0; k < 1000 && callback_value.load() == 0; k++)
    CHECK(hipDeviceSynchronize());
  EXPECT(callback_value.load() == 1010, "callback saw %d, want 1010",
         callback_value.load());
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  EXPECT(ms > 0.0f, "elapsed %f ms", ms);
  float fv = 0;
  CHECK(hipMemcpy(&fv, f, sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(fv > 0.8f && fv < 1.0f, "busy result %f", fv);
  CHECK(hipStreamDestroy(s1));
  CHECK(hipStreamDestroy(s2));
  CHECK(hipEventDestroy(filled));
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipHostFree(host));
  printf("PASSED streams_events (%.3f ms)\n", ms);
  return 0;
}
