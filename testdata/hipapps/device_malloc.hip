// device_malloc: malloc/free and new[]/delete[] inside kernels (HIP's
// device heap, implemented in the device libraries' __ockl_dm_alloc), each
// thread filling and summing its own block, plus a block kept across two
// kernels through a pointer table; also a kernel with an 8 KB per-thread
// private array indexed dynamically (scratch), checked on the host.
#include "common.h"

__global__ void heap(int *out, int **keep) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = (int *)malloc(16 * sizeof(int));
  if (!p) {
    out[i] = -1;
    return;
  }
  for (int j = 0; j < 16; j++) p[j] = i + j;
  int s = 0;
  for (int j = 0; j < 16; j++) s += p[j];
  free(p);
  int *q = new int[4];
  q[3] = s;
  out[i] = q[3];
  delete[] q;
  if (i % 8 == 0) {
    keep[i / 8] = (int *)malloc(sizeof(int));
    *keep[i / 8] = i * 3;
  }
}

__global__ void reuse(int **keep, int *out) {
  int i = threadIdx.x;
  out[i] = *keep[i];
  free(keep[i]);
}

__global__ void scratch(int *out) {
  int a[2048];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 2048; j++) a[(j * 7 + i) % 2048] = j ^ i;
  int s = 0;
  for (int j = 0; j < 2048; j += (i % 5) + 1) s += a[j];
  out[i] = s;
}

int main() {
  const int n = 256;
  int h[n], kept[n / 8];
  int *d, *dk, **keep;
  CHECK(hipMalloc(&d, sizeof h));
  CHECK(hipMalloc(&dk, sizeof kept));
  CHECK(hipMalloc(&keep, n / 8 * sizeof(int *)));
  scratch<<<n / 64, 64>>>(d);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  static int a[2048];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 2048; j++) a[(j * 7 + i) % 2048] = j ^ i;
    int s = 0;
    for (int j = 0; j < 2048; j += (i % 5) + 1) s += a[j];
    EXPECT(h[i] == s, "scratch thread %d: %d want %d", i, h[i], s);
  }
  heap<<<n / 64, 64>>>(d, keep);
  CHECK(hipGetLastError());
  reuse<<<1, n / 8>>>(keep, dk);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(kept, dk, sizeof kept, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == 16 * i + 120, "heap thread %d: %d want %d", i, h[i], 16 * i + 120);
  for (int i = 0; i < n / 8; i++) EXPECT(kept[i] == 24 * i, "kept block %d: %d want %d", i, kept[i], 24 * i);
  DONE("device_malloc");
}
