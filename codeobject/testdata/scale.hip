#include <hip/hip_runtime.h>
__global__ void scale(float *a, float s, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) a[i]*=s; }
int main() { float *d; hipMalloc(&d, 64); hipLaunchKernelGGL(scale, dim3(1), dim3(16), 0, 0, d, 2.0f, 16); hipDeviceSynchronize(); return 0; }
