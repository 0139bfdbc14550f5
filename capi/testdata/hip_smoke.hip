// hip_smoke.hip: the first HIP program run on rocpu's libhsa-runtime64.so.1
// through Debian's unmodified libamdhip64.so.5 — device discovery and
// properties, allocation, copies both ways, one kernel launch, and its own
// check of the result. capi_test.go builds it with hipcc --offload-arch=gfx90a.
#include <hip/hip_runtime.h>
#include <stdio.h>

__global__ void add_index(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += i;
}

#define CHECK(x)                                                   \
  do {                                                             \
    hipError_t e = (x);                                            \
    printf("%s -> %s\n", #x, hipGetErrorName(e));                  \
    if (e != hipSuccess) return 1;                                 \
  } while (0)

int main() {
  setvbuf(stdout, NULL, _IONBF, 0);
  int n = 0;
  CHECK(hipGetDeviceCount(&n));
  printf("devices: %d\n", n);
  hipDeviceProp_t p;
  CHECK(hipGetDeviceProperties(&p, 0));
  printf("device: %s arch %s CUs %d warp %d\n", p.name, p.gcnArchName, p.multiProcessorCount, p.warpSize);
  enum { N = 1000 };
  static int h[N], back[N];
  for (int i = 0; i < N; i++) h[i] = 1;
  int *d = NULL;
  CHECK(hipMalloc(&d, sizeof h));
  CHECK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(back, d, sizeof h, hipMemcpyDeviceToHost));
  printf("roundtrip: %d %d\n", back[0], back[N - 1]);
  hipLaunchKernelGGL(add_index, dim3((N + 255) / 256), dim3(256), 0, 0, d, N);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(back, d, sizeof h, hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < N; i++)
    if (back[i] != 1 + i) wrong++;
  printf("kernel: %d of %d wrong\n", wrong, N);
  CHECK(hipFree(d));
  return wrong != 0;
}
