// host_memory: kernels reading and writing host memory directly:
// hipHostMalloc (pinned, mapped), hipHostRegister'ed malloc memory through
// hipHostGetDevicePointer, and hipMallocManaged memory touched by both sides.
#include "common.h"

__global__ void scale(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * k + 1;
}

int main() {
  const int n = 3000;
  // hipHostMalloc: the kernel uses the host pointer itself.
  int *pinned;
  CHECK(hipHostMalloc(&pinned, n * sizeof(int), hipHostMallocDefault));
  for (int i = 0; i < n; i++)
    pinned[i] = i;
  hipLaunchKernelGGL(scale, dim3((n + 127) / 128), dim3(128), 0, 0, pinned, n,
                     2);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++)
    EXPECT(pinned[i] == 2 * i + 1, "pinned[%d] = %d", i, pinned[i]);

  // hipHostRegister: ordinary malloc memory registered and mapped.
  int *plain = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    plain[i] = -i;
  CHECK(hipHostRegister(plain, n * sizeof(int), hipHostRegisterMapped));
  int *dplain = nullptr;
  CHECK(hipHostGetDevicePointer((void **)&dplain, plain, 0));
  hipLaunchKernelGGL(scale, dim3((n + 127) / 128), dim3(128), 0, 0, dplain, n,
                     3);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++)
    EXPECT(plain[i] == -3 * i + 1, "registered[%d] = %d", i, plain[i]);
  CHECK(hipHostUnregister(plain));
  free(plain);

  // hipMallocManaged: one pointer for host and device.
  int *managed;
  CHECK(hipMallocManaged(&managed, n * sizeof(int)));
  for (int i = 0; i < n; i++)
    managed[i] = i + 5;
  hipLaunchKernelGGL(scale, dim3((n + 127) / 128), dim3(128), 0, 0, managed, n,
                     4);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++)
    EXPECT(managed[i] == 4 * (i + 5) + 1, "managed[%d] = %d", i, managed[i]);
  CHECK(hipFree(managed));
  CHECK(hipHostFree(pinned));
  printf("PASSED host_memory\n");
  return 0;
}
