// device_api: what applications query and how they handle errors:
// hipGetDeviceProperties fields (printed and sanity-checked against
// hipDeviceGetAttribute and each other), hipMemGetInfo, hipOccupancy*
// (max active blocks, max potential block size) checked against the
// limits they are derived from, hipFuncGetAttributes, hipPointerGetAttributes,
// and the error paths: invalid launch configurations reported by
// hipGetLastError (and cleared by it), hipPeekAtLastError, bad arguments,
// hipMalloc of an impossible size, invalid device ids, hipGetErrorName.
#include "common.h"

__global__ void small_kernel(int *p) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(256) lds_hungry(float *p) {
  __shared__ float big[8192];  // 32 KB of LDS
  big[threadIdx.x] = threadIdx.x;
  __syncthreads();
  p[threadIdx.x] = big[(threadIdx.x + 1) % 256];
}

int main() {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  EXPECT(count >= 1, "device count %d", count);
  hipDeviceProp_t pr;
  CHECK(hipGetDeviceProperties(&pr, 0));
  printf("device 0: %s, gcnArchName %s, %d CUs, warpSize %d, clock %d kHz\n", pr.name, pr.gcnArchName,
         pr.multiProcessorCount, pr.warpSize, pr.clockRate);
  printf("  global %zu MiB, shared/block %zu, regs/block %d, maxThreads %d, maxDim %d %d %d, grid %d %d %d\n",
         pr.totalGlobalMem >> 20, pr.sharedMemPerBlock, pr.regsPerBlock, pr.maxThreadsPerBlock, pr.maxThreadsDim[0],
         pr.maxThreadsDim[1], pr.maxThreadsDim[2], pr.maxGridSize[0], pr.maxGridSize[1], pr.maxGridSize[2]);
  printf("  cc %d.%d, l2 %d, maxThreadsPerCU %d, concurrentKernels %d, managed %d, pciBus %d\n", pr.major, pr.minor,
         pr.l2CacheSize, pr.maxThreadsPerMultiProcessor, pr.concurrentKernels, pr.managedMemory, pr.pciBusID);
  EXPECT(strncmp(pr.gcnArchName, "gfx90a", 6) == 0, "gcnArchName %s", pr.gcnArchName);
  EXPECT(pr.gcnArch == 910 || pr.gcnArch == 0, "gcnArch %d", pr.gcnArch);
  EXPECT(pr.warpSize == 64, "warpSize %d", pr.warpSize);
  EXPECT(pr.multiProcessorCount > 0, "CU count %d", pr.multiProcessorCount);
  EXPECT(pr.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", pr.maxThreadsPerBlock);
  EXPECT(pr.maxThreadsDim[0] == 1024 && pr.maxThreadsDim[1] == 1024 && pr.maxThreadsDim[2] == 1024,
         "maxThreadsDim %d %d %d", pr.maxThreadsDim[0], pr.maxThreadsDim[1], pr.maxThreadsDim[2]);
  EXPECT(pr.sharedMemPerBlock == 65536, "sharedMemPerBlock %zu", pr.sharedMemPerBlock);
  EXPECT(pr.totalGlobalMem >= (1ull << 30), "totalGlobalMem %zu", pr.totalGlobalMem);
  EXPECT(pr.major == 9 && pr.minor == 0, "compute capability %d.%d", pr.major, pr.minor);
  EXPECT(pr.clockRate > 0, "clockRate %d", pr.clockRate);
  EXPECT(pr.maxGridSize[0] > 0 && pr.maxGridSize[1] > 0 && pr.maxGridSize[2] > 0, "maxGridSize");
  int v;
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0));
  EXPECT(v == pr.multiProcessorCount, "attribute CU count %d vs %d", v, pr.multiProcessorCount);
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
  EXPECT((size_t)v == pr.sharedMemPerBlock, "attribute shared %d", v);
  CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxThreadsPerMultiProcessor, 0));
  EXPECT(v == pr.maxThreadsPerMultiProcessor && v >= 1024, "attribute threads/CU %d", v);
  size_t free_b = 0, total_b = 0;
  CHECK(hipMemGetInfo(&free_b, &total_b));
  EXPECT(total_b > 0 && free_b <= total_b, "hipMemGetInfo free %zu total %zu", free_b, total_b);
  int dev = -1;
  CHECK(hipGetDevice(&dev));
  EXPECT(dev == 0, "current device %d", dev);

  // occupancy
  int blocks = 0;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small_kernel, 256, 0));
  EXPECT(blocks >= 1 && blocks * 256 <= pr.maxThreadsPerMultiProcessor * 2,
         "small_kernel: %d active blocks of 256 per CU", blocks);
  int lblocks = 0;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&lblocks, lds_hungry, 256, 0));
  EXPECT(lblocks >= 1 && lblocks <= 2, "lds_hungry (32 KB LDS): %d active blocks per CU, want 1..2", lblocks);
  int grid = 0, block = 0;
  CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, small_kernel, 0, 0));
  EXPECT(block > 0 && block <= 1024 && block % 64 == 0, "potential block size %d", block);
  EXPECT(grid > 0, "potential grid %d", grid);
  int lgrid = 0, lblock = 0;
  // HIP 5.2 ignores the kernel's __launch_bounds__ here (it starts from
  // the device's maximum work-group size unless given a limit), so pass it.
  CHECK(hipOccupancyMaxPotentialBlockSize(&lgrid, &lblock, lds_hungry, 0, 256));
  EXPECT(lblock == 256, "lds_hungry potential block size %d (limit 256)", lblock);
  EXPECT(lgrid == pr.multiProcessorCount * lblocks, "lds_hungry potential grid %d, want %d CUs x %d", lgrid,
         pr.multiProcessorCount, lblocks);
  hipFuncAttributes fa;
  CHECK(hipFuncGetAttributes(&fa, reinterpret_cast<const void *>(&lds_hungry)));
  EXPECT(fa.sharedSizeBytes == 32768, "lds_hungry sharedSizeBytes %zu", fa.sharedSizeBytes);
  EXPECT(fa.maxThreadsPerBlock == 256, "lds_hungry maxThreadsPerBlock %d", fa.maxThreadsPerBlock);
  printf("  occupancy: small_kernel %d blocks/CU, potential block %d grid %d; lds_hungry %d blocks/CU\n", blocks,
         block, grid, lblocks);

  // a good launch, then error paths
  int *d;
  CHECK(hipMalloc(&d, 1024 * sizeof(int)));
  small_kernel<<<4, 256>>>(d);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  int h[1024];
  CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 1024; i++) EXPECT(h[i] == 255 - i % 256, "small_kernel %d: %d", i, h[i]);

  small_kernel<<<1, 2048>>>(d);  // too many threads per block
  hipError_t e1 = hipPeekAtLastError();
  hipError_t e2 = hipGetLastError();
  hipError_t e3 = hipGetLastError();
  EXPECT(e1 != hipSuccess && e1 == e2, "oversized block: peek %s, get %s", hipGetErrorName(e1), hipGetErrorName(e2));
  EXPECT(e3 == hipSuccess, "hipGetLastError did not clear the error: %s", hipGetErrorName(e3));
  small_kernel<<<dim3(1, 1, 1), dim3(64, 64, 1)>>>(d);  // 4096 threads
  EXPECT(hipGetLastError() != hipSuccess, "64x64 block launched");
  small_kernel<<<1, 64, 200000>>>(d);  // more dynamic LDS than exists
  EXPECT(hipGetLastError() != hipSuccess, "launch with 200000 bytes of dynamic shared memory succeeded");
  CHECK(hipDeviceSynchronize());
  void *huge = nullptr;
  hipError_t em = hipMalloc(&huge, (size_t)1 << 50);
  EXPECT(em == hipErrorOutOfMemory || em == hipErrorMemoryAllocation, "hipMalloc(1 PiB): %s", hipGetErrorName(em));
  hipGetLastError();
  EXPECT(hipSetDevice(count + 3) == hipErrorInvalidDevice, "hipSetDevice(invalid)");
  hipGetLastError();
  EXPECT(hipGetDeviceProperties(&pr, count + 3) != hipSuccess, "properties of invalid device");
  hipGetLastError();
  EXPECT(hipMemcpy(nullptr, h, 16, hipMemcpyHostToDevice) != hipSuccess, "memcpy to NULL");
  hipGetLastError();
  EXPECT(strcmp(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue") == 0, "hipGetErrorName");
  hipPointerAttribute_t pa;
  CHECK(hipPointerGetAttributes(&pa, d + 10));
  EXPECT(pa.memoryType == hipMemoryTypeDevice && pa.devicePointer == d + 10, "pointer attributes type %d ptr %p",
         pa.memoryType, pa.devicePointer);
  // the device still works after all that
  small_kernel<<<4, 256>>>(d);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  EXPECT(h[1023] == 0 && h[0] == 255, "after errors: %d %d", h[0], h[1023]);
  CHECK(hipDeviceReset());
  DONE("device_api");
}
