// multi_gpu: two emulated GPUs (rocpu exec --target gfx90a,gfx90a): device
// enumeration and properties, hipSetDevice per allocation and launch,
// streams and events per device, peer access queries and
// hipDeviceEnablePeerAccess, hipMemcpyPeer / hipMemcpyPeerAsync and a
// device-to-device hipMemcpy between the GPUs, and a kernel on each device
// working on its half of the data.
// rocpu-flags: --target gfx90a,gfx90a
#include "common.h"

__global__ void scale(float *p, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * a + (float)i;
}

int main() {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  EXPECT(count == 2, "device count %d, want 2", count);
  if (count < 2) DONE("multi_gpu");
  for (int d = 0; d < 2; d++) {
    hipDeviceProp_t p;
    CHECK(hipGetDeviceProperties(&p, d));
    EXPECT(strncmp(p.gcnArchName, "gfx90a", 6) == 0, "device %d is %s", d, p.gcnArchName);
  }
  int can01 = -1, can10 = -1;
  CHECK(hipDeviceCanAccessPeer(&can01, 0, 1));
  CHECK(hipDeviceCanAccessPeer(&can10, 1, 0));
  printf("peer access 0->1 %d, 1->0 %d\n", can01, can10);
  const int n = 1 << 14, half = n / 2;
  float *h = new float[n], *r = new float[n];
  for (int i = 0; i < n; i++) h[i] = (float)(i % 977);
  float *d[2];
  hipStream_t s[2];
  hipEvent_t e[2];
  for (int g = 0; g < 2; g++) {
    CHECK(hipSetDevice(g));
    CHECK(hipMalloc(&d[g], n * sizeof(float)));
    CHECK(hipStreamCreate(&s[g]));
    CHECK(hipEventCreate(&e[g]));
    CHECK(hipMemcpyAsync(d[g], h, n * sizeof(float), hipMemcpyHostToDevice, s[g]));
    // each device scales its own half
    scale<<<(half + 255) / 256, 256, 0, s[g]>>>(d[g] + g * half, (float)(g + 2), half);
    CHECK(hipGetLastError());
    CHECK(hipEventRecord(e[g], s[g]));
  }
  for (int g = 0; g < 2; g++) {
    CHECK(hipSetDevice(g));
    CHECK(hipEventSynchronize(e[g]));
    hipPointerAttribute_t pa;
    CHECK(hipPointerGetAttributes(&pa, d[g]));
    EXPECT(pa.device == g, "allocation on device %d reports device %d", g, pa.device);
  }
  // gather: device 1's half into device 0's buffer, by peer copy
  CHECK(hipSetDevice(0));
  if (can01) {
    hipError_t pe = hipDeviceEnablePeerAccess(1, 0);
    EXPECT(pe == hipSuccess || pe == hipErrorPeerAccessAlreadyEnabled, "enable peer access: %s", hipGetErrorName(pe));
  }
  CHECK(hipMemcpyPeer(d[0] + half, 0, d[1] + half, 1, half * sizeof(float)));
  CHECK(hipMemcpy(r, d[0], n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int g = i / half;
    float want = h[i] * (float)(g + 2) + (float)(i - g * half);
    EXPECT(r[i] == want, "gathered element %d: %g want %g", i, r[i], want);
  }
  // and back the other way asynchronously on device 1's stream
  CHECK(hipSetDevice(1));
  CHECK(hipMemcpyPeerAsync(d[1], 1, d[0], 0, half * sizeof(float), s[1]));
  CHECK(hipStreamSynchronize(s[1]));
  CHECK(hipMemcpy(r, d[1], n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < half; i++) {
    float want = h[i] * 2.0f + (float)i;
    EXPECT(r[i] == want, "device 1 element %d after peer copy: %g want %g", i, r[i], want);
  }
  // a plain device-to-device hipMemcpy across GPUs (unified addressing)
  CHECK(hipMemcpy(d[1] + half, d[0] + half, half * sizeof(float), hipMemcpyDeviceToDevice));
  CHECK(hipMemcpy(r, d[1], n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = half; i < n; i++) {
    float want = h[i] * 3.0f + (float)(i - half);
    EXPECT(r[i] == want, "device 1 element %d after D2D: %g want %g", i, r[i], want);
  }
  for (int g = 0; g < 2; g++) {
    CHECK(hipSetDevice(g));
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(d[g]));
  }
  DONE("multi_gpu");
}
