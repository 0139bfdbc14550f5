// memcpy3d: pitched and 3D memory: hipMallocPitch + hipMemcpy2D (H2D, D2D
// between different pitches, D2H into a sub-rectangle), hipMemcpy2DAsync,
// hipMalloc3D + hipMemcpy3D with offsets (hipPos) and extents, hipMemset3D,
// a kernel walking the pitched 3D volume, and hipMemcpyToSymbol /
// hipMemcpyFromSymbol with offsets into __device__ and __constant__ arrays.
#include "common.h"

__constant__ float coeffs[16];
__device__ int dev_table[64];

__global__ void scale3d(hipPitchedPtr p, hipExtent e, int *sum) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= (int)(e.width / sizeof(float)) || y >= (int)e.height) return;
  char *slice = (char *)p.ptr + (size_t)z * p.pitch * e.height;
  float *row = (float *)(slice + (size_t)y * p.pitch);
  row[x] = row[x] * coeffs[z % 16] + (float)dev_table[(x + y) % 64];
  atomicAdd(sum, 1);
}

int main() {
  // 2D: 123 x 45 floats
  const int W = 123, H = 45;
  float *h = new float[W * H], *back = new float[W * H];
  for (int i = 0; i < W * H; i++) h[i] = (float)i;
  float *d1, *d2;
  size_t p1, p2;
  CHECK(hipMallocPitch((void **)&d1, &p1, W * sizeof(float), H));
  CHECK(hipMallocPitch((void **)&d2, &p2, (W + 40) * sizeof(float), H));
  EXPECT(p1 >= W * sizeof(float) && p1 % 4 == 0, "pitch %zu", p1);
  CHECK(hipMemcpy2D(d1, p1, h, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  CHECK(hipMemset(d2, 0, p2 * H));
  // copy columns 10..109 of rows 5..39 into d2 at column 3
  CHECK(hipMemcpy2D((char *)d2 + 3 * sizeof(float), p2, (char *)d1 + 5 * p1 + 10 * sizeof(float), p1,
                    100 * sizeof(float), 35, hipMemcpyDeviceToDevice));
  float *sub = new float[(W + 40) * H];
  CHECK(hipMemcpy2D(sub, (W + 40) * sizeof(float), d2, p2, (W + 40) * sizeof(float), H, hipMemcpyDeviceToHost));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W + 40; x++) {
      float e = (y < 35 && x >= 3 && x < 103) ? h[(y + 5) * W + (x - 3 + 10)] : 0.0f;
      EXPECT(sub[y * (W + 40) + x] == e, "2D D2D (%d,%d): %g want %g", x, y, sub[y * (W + 40) + x], e);
    }
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  CHECK(hipMemcpy2DAsync(back, W * sizeof(float), d1, p1, W * sizeof(float), H, hipMemcpyDeviceToHost, s));
  CHECK(hipStreamSynchronize(s));
  EXPECT(memcmp(back, h, W * H * sizeof(float)) == 0, "2D round trip differs");

  // 3D: 37 x 21 x 9 floats
  const int X = 37, Y = 21, Z = 9;
  hipExtent ext = make_hipExtent(X * sizeof(float), Y, Z);
  hipPitchedPtr dp;
  CHECK(hipMalloc3D(&dp, ext));
  EXPECT(dp.pitch >= X * sizeof(float), "3D pitch %zu", dp.pitch);
  CHECK(hipMemset3D(dp, 0, ext));
  float *v = new float[X * Y * Z], *v2 = new float[X * Y * Z];
  for (int i = 0; i < X * Y * Z; i++) v[i] = (float)(i % 1000) * 0.25f;
  hipMemcpy3DParms cp = {};
  cp.srcPtr = make_hipPitchedPtr(v, X * sizeof(float), X, Y);
  cp.dstPtr = dp;
  cp.extent = ext;
  cp.kind = hipMemcpyHostToDevice;
  CHECK(hipMemcpy3D(&cp));
  float hc[16];
  for (int i = 0; i < 16; i++) hc[i] = 1.0f + i;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc, sizeof hc));
  int tab[64];
  for (int i = 0; i < 64; i++) tab[i] = i * 3;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_table), tab, 32 * sizeof(int)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(dev_table), tab + 32, 32 * sizeof(int), 32 * sizeof(int)));
  int *dsum, sum = 0;
  CHECK(hipMalloc(&dsum, sizeof(int)));
  CHECK(hipMemset(dsum, 0, sizeof(int)));
  scale3d<<<dim3((X + 15) / 16, (Y + 7) / 8, Z), dim3(16, 8)>>>(dp, ext, dsum);
  CHECK(hipGetLastError());
  // copy back only a sub-box: x 5..29, y 2..18, z 1..7 into a same-shape host box
  memset(v2, 0, X * Y * Z * sizeof(float));
  hipMemcpy3DParms cb = {};
  cb.srcPtr = dp;
  cb.srcPos = make_hipPos(5 * sizeof(float), 2, 1);
  cb.dstPtr = make_hipPitchedPtr(v2, X * sizeof(float), X, Y);
  cb.dstPos = make_hipPos(5 * sizeof(float), 2, 1);
  cb.extent = make_hipExtent(25 * sizeof(float), 17, 7);
  cb.kind = hipMemcpyDeviceToHost;
  CHECK(hipMemcpy3D(&cb));
  CHECK(hipMemcpy(&sum, dsum, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(sum == X * Y * Z, "3D kernel visited %d elements, want %d", sum, X * Y * Z);
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++) {
        int i = (z * Y + y) * X + x;
        bool in = x >= 5 && x < 30 && y >= 2 && y < 19 && z >= 1 && z < 8;
        float e = in ? v[i] * hc[z % 16] + (float)tab[(x + y) % 64] : 0.0f;
        EXPECT(v2[i] == e, "3D (%d,%d,%d): %g want %g", x, y, z, v2[i], e);
      }
  int tab2[8];
  CHECK(hipMemcpyFromSymbol(tab2, HIP_SYMBOL(dev_table), sizeof tab2, 40 * sizeof(int)));
  for (int i = 0; i < 8; i++) EXPECT(tab2[i] == tab[40 + i], "symbol read %d: %d", i, tab2[i]);
  void *addr;
  size_t sz;
  CHECK(hipGetSymbolAddress(&addr, HIP_SYMBOL(dev_table)));
  CHECK(hipGetSymbolSize(&sz, HIP_SYMBOL(dev_table)));
  EXPECT(sz == 64 * sizeof(int), "symbol size %zu", sz);
  int t5;
  CHECK(hipMemcpy(&t5, (int *)addr + 5, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(t5 == 15, "dev_table[5] via its address: %d", t5);
  DONE("memcpy3d");
}
