#include <hip/hip_runtime.h>
__global__ void vadd(int *out, const int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + 1;
}
int main() { return 0; }
