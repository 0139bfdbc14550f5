// streams_async: a pipeline over four non-blocking streams with pinned
// host memory: hipMemsetAsync, hipMemcpyAsync (H2D, D2D, D2H), kernels,
// events recorded on one stream and waited for on another
// (hipStreamWaitEvent), hipEventSynchronize/Query/ElapsedTime,
// hipStreamQuery, hipStreamAddCallback, stream priorities, the null
// stream's implicit synchronisation, and hipMemset2D/D32/D16/D8 values.
#include "common.h"

#define NS 4
#define N (1 << 16)

__global__ void scale_add(float *x, const float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + y[i];
}

__global__ void spin_then_write(int *flag, int v, long iters) {
  // some work so the consumer stream really has to wait for the event
  volatile int acc = 0;
  for (long k = 0; k < iters; k++) acc += k;
  if (threadIdx.x == 0) *flag = v + (acc & 0);
}

__global__ void copy_flag(const int *flag, int *out) {
  if (threadIdx.x == 0) *out = *flag;
}

static int callbacks = 0;
static void on_done(hipStream_t, hipError_t status, void *user) {
  if (status == hipSuccess) __atomic_add_fetch((int *)user, 1, __ATOMIC_SEQ_CST);
}

int main() {
  int lo, hi;
  CHECK(hipDeviceGetStreamPriorityRange(&lo, &hi));
  hipStream_t st[NS];
  for (int s = 0; s < NS; s++)
    CHECK(hipStreamCreateWithPriority(&st[s], hipStreamNonBlocking, s == 0 ? hi : lo));
  float *h[NS], *dx[NS], *dy[NS], *dz[NS];
  for (int s = 0; s < NS; s++) {
    CHECK(hipHostMalloc(&h[s], N * sizeof(float), hipHostMallocDefault));
    CHECK(hipMalloc(&dx[s], N * sizeof(float)));
    CHECK(hipMalloc(&dy[s], N * sizeof(float)));
    CHECK(hipMalloc(&dz[s], N * sizeof(float)));
    for (int i = 0; i < N; i++) h[s][i] = (float)(i % 100) + s;
  }
  hipEvent_t start, stop, ev[NS];
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, st[0]));
  for (int s = 0; s < NS; s++) {
    CHECK(hipEventCreateWithFlags(&ev[s], hipEventDisableTiming));
    CHECK(hipMemcpyAsync(dx[s], h[s], N * sizeof(float), hipMemcpyHostToDevice, st[s]));
    CHECK(hipMemsetAsync(dy[s], 0, N * sizeof(float), st[s]));
    scale_add<<<N / 256, 256, 0, st[s]>>>(dy[s], dx[s], 1.0f, N);   // y = x
    scale_add<<<N / 256, 256, 0, st[s]>>>(dx[s], dy[s], 2.0f, N);   // x = 3x
    CHECK(hipMemcpyAsync(dz[s], dx[s], N * sizeof(float), hipMemcpyDeviceToDevice, st[s]));
    CHECK(hipEventRecord(ev[s], st[s]));
  }
  // stream 0 adds every other stream's result once their events fire
  for (int s = 1; s < NS; s++) {
    CHECK(hipStreamWaitEvent(st[0], ev[s], 0));
    scale_add<<<N / 256, 256, 0, st[0]>>>(dz[0], dz[s], 1.0f, N);
  }
  CHECK(hipMemcpyAsync(h[0], dz[0], N * sizeof(float), hipMemcpyDeviceToHost, st[0]));
  CHECK(hipStreamAddCallback(st[0], on_done, &callbacks, 0));
  CHECK(hipEventRecord(stop, st[0]));
  CHECK(hipEventSynchronize(stop));
  CHECK(hipStreamSynchronize(st[0]));
  for (int i = 0; i < N; i++) {
    float e = 0;
    for (int s = 0; s < NS; s++) e += 3.0f * ((float)(i % 100) + s);
    EXPECT(h[0][i] == e, "pipeline element %d: %g want %g", i, h[0][i], e);
  }
  float ms = -1;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0 && ms < 600000, "elapsed time %g ms", ms);
  EXPECT(hipEventQuery(stop) == hipSuccess, "event query after synchronize");
  EXPECT(hipEventElapsedTime(&ms, ev[1], ev[2]) != hipSuccess, "timing a DisableTiming event succeeded");
  CHECK(hipDeviceSynchronize());
  EXPECT(__atomic_load_n(&callbacks, __ATOMIC_SEQ_CST) == 1, "stream callback ran %d times", callbacks);

  // a slow producer on stream 1, a consumer on stream 2 behind an event
  int *flag, *seen, hseen = 0;
  CHECK(hipMalloc(&flag, sizeof(int)));
  CHECK(hipMalloc(&seen, sizeof(int)));
  CHECK(hipMemset(flag, 0, sizeof(int)));
  CHECK(hipMemset(seen, 0, sizeof(int)));
  hipEvent_t produced;
  CHECK(hipEventCreate(&produced));
  spin_then_write<<<1, 64, 0, st[1]>>>(flag, 42, 20000);
  CHECK(hipEventRecord(produced, st[1]));
  CHECK(hipStreamWaitEvent(st[2], produced, 0));
  copy_flag<<<1, 64, 0, st[2]>>>(flag, seen);
  CHECK(hipMemcpyAsync(&hseen, seen, sizeof(int), hipMemcpyDeviceToHost, st[2]));
  CHECK(hipStreamSynchronize(st[2]));
  EXPECT(hseen == 42, "consumer saw %d, want 42", hseen);
  EXPECT(hipStreamQuery(st[2]) == hipSuccess, "stream query after synchronize");

  // memset widths and hipMemset2D on a pitched allocation
  {
    void *p;
    unsigned char b[64];
    CHECK(hipMalloc(&p, 64));
    CHECK(hipMemsetD32((hipDeviceptr_t)p, 0xdeadbeef, 16));
    CHECK(hipMemsetD16((hipDeviceptr_t)((char *)p + 8), 0x1234, 3));
    // (An unaligned hipMemsetD8 shorter than its distance to the next
    // 8-byte boundary, e.g. 2 bytes at p+3, is broken in Debian's HIP 5.2:
    // it fills 5 bytes, then launches a ulong fill of 2^61-1 elements that
    // faults; rocpu reports that fault as a GPU would. Unaligned and longer
    // is fine.)
    CHECK(hipMemsetD8((hipDeviceptr_t)((char *)p + 37), 0x7e, 20));
    CHECK(hipMemcpy(b, p, 64, hipMemcpyDeviceToHost));
    unsigned char e[64];
    for (int i = 0; i < 64; i += 4) { e[i] = 0xef; e[i + 1] = 0xbe; e[i + 2] = 0xad; e[i + 3] = 0xde; }
    for (int i = 0; i < 3; i++) { e[8 + 2 * i] = 0x34; e[9 + 2 * i] = 0x12; }
    for (int i = 37; i < 57; i++) e[i] = 0x7e;
    for (int i = 0; i < 64; i++) EXPECT(b[i] == e[i], "memset byte %d: %02x want %02x", i, b[i], e[i]);
    size_t pitch;
    char *p2;
    CHECK(hipMallocPitch((void **)&p2, &pitch, 100, 10));
    CHECK(hipMemset(p2, 0, pitch * 10));
    CHECK(hipMemset2DAsync(p2 + pitch + 3, pitch, 0x5a, 50, 7, st[3]));
    CHECK(hipStreamSynchronize(st[3]));
    char *hp = new char[pitch * 10];
    CHECK(hipMemcpy(hp, p2, pitch * 10, hipMemcpyDeviceToHost));
    for (int y = 0; y < 10; y++)
      for (int x = 0; x < 100; x++) {
        char want = (y >= 1 && y < 8 && x >= 3 && x < 53) ? 0x5a : 0;
        EXPECT(hp[y * pitch + x] == want, "memset2D (%d,%d): %02x want %02x", x, y, hp[y * pitch + x], want);
      }
  }
  for (int s = 0; s < NS; s++) {
    CHECK(hipStreamDestroy(st[s]));
    CHECK(hipEventDestroy(ev[s]));
    CHECK(hipHostFree(h[s]));
  }
  DONE("streams_async");
}
