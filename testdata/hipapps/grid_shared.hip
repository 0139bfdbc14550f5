// grid_shared: 2D and 3D grids with ragged edges (every blockIdx/threadIdx/
// blockDim/gridDim component used), a tiled transpose through static
// shared memory with and without the +1 padding that avoids bank
// conflicts, a dynamic-shared-memory stencil (extern __shared__, size given
// at launch, used as two arrays of different types), and a 3D
// non-power-of-two block, each checked on the host.
#include "common.h"

#define TILE 32

template <int PAD>
__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x;
  for (int j = threadIdx.y; j < TILE; j += blockDim.y) {
    int y = blockIdx.y * TILE + j;
    if (x < w && y < h) tile[j][threadIdx.x] = in[(size_t)y * w + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  for (int j = threadIdx.y; j < TILE; j += blockDim.y) {
    int y = blockIdx.x * TILE + j;
    if (x < h && y < w) out[(size_t)y * h + x] = tile[threadIdx.x][j];
  }
}

__global__ void ids3d(int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  int *o = out + 4 * ((size_t)(z * ny + y) * nx + x);
  o[0] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z;
  o[1] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;
  o[2] = blockDim.x + 100 * blockDim.y + 10000 * blockDim.z;
  o[3] = gridDim.x + 100 * gridDim.y + 10000 * gridDim.z;
}

// 1D stencil with a halo in dynamic shared memory; the same allocation
// also holds a per-block int counter array after the floats.
__global__ void stencil(const float *in, float *out, int *counts, int n, int r) {
  extern __shared__ float smem[];
  float *buf = smem;
  int *cnt = (int *)(smem + blockDim.x + 2 * r);
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + r;
  if (threadIdx.x == 0) cnt[0] = 0;
  buf[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < r) {
    int left = g - r, right = g + blockDim.x;
    buf[l - r] = left >= 0 && left < n ? in[left] : 0.0f;
    buf[l + blockDim.x] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (g < n) {
    float s = 0;
    for (int k = -r; k <= r; k++) s += buf[l + k] * (float)(k + r + 1);
    out[g] = s;
    atomicAdd(&cnt[0], 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = cnt[0];
}

int main() {
  // transpose of a ragged 333 x 197 matrix, both variants
  const int w = 333, h = 197;
  float *hin = new float[w * h], *hout = new float[w * h];
  for (int i = 0; i < w * h; i++) hin[i] = (float)i * 0.5f;
  float *din, *dout;
  CHECK(hipMalloc(&din, w * h * sizeof(float)));
  CHECK(hipMalloc(&dout, w * h * sizeof(float)));
  CHECK(hipMemcpy(din, hin, w * h * sizeof(float), hipMemcpyHostToDevice));
  for (int pad = 0; pad < 2; pad++) {
    CHECK(hipMemset(dout, 0, w * h * sizeof(float)));
    dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, 8);
    if (pad)
      transpose<1><<<grid, block>>>(din, dout, w, h);
    else
      transpose<0><<<grid, block>>>(din, dout, w, h);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(hout, dout, w * h * sizeof(float), hipMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        EXPECT(hout[x * h + y] == hin[y * w + x], "transpose pad %d at (%d,%d): %g want %g", pad, x, y,
               hout[x * h + y], hin[y * w + x]);
  }

  // 3D ids on a ragged 37 x 19 x 11 volume with 5 x 3 x 7 blocks
  const int nx = 37, ny = 19, nz = 11;
  dim3 b3(5, 3, 7), g3((nx + 4) / 5, (ny + 2) / 3, (nz + 6) / 7);
  int *dids, *hids = new int[4 * nx * ny * nz];
  CHECK(hipMalloc(&dids, 4 * nx * ny * nz * sizeof(int)));
  CHECK(hipMemset(dids, 0xff, 4 * nx * ny * nz * sizeof(int)));
  hipLaunchKernelGGL(ids3d, g3, b3, 0, 0, dids, nx, ny, nz);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(hids, dids, 4 * nx * ny * nz * sizeof(int), hipMemcpyDeviceToHost));
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        int *o = hids + 4 * ((z * ny + y) * nx + x);
        int e[4] = {x % 5 + 10 * (y % 3) + 100 * (z % 7), x / 5 + 100 * (y / 3) + 10000 * (z / 7),
                    5 + 100 * 3 + 10000 * 7, (int)g3.x + 100 * (int)g3.y + 10000 * (int)g3.z};
        for (int k = 0; k < 4; k++)
          EXPECT(o[k] == e[k], "ids3d (%d,%d,%d)[%d]: %d want %d", x, y, z, k, o[k], e[k]);
      }

  // dynamic shared memory stencil: n = 1000, radius 5, block 96
  const int n = 1000, r = 5, bs = 96, nb = (n + bs - 1) / bs;
  float *sin_ = new float[n], *sout = new float[n];
  for (int i = 0; i < n; i++) sin_[i] = (float)((i * 7) % 13) - 6.0f;
  float *dsin, *dsout;
  int *dcounts, counts[nb];
  CHECK(hipMalloc(&dsin, n * sizeof(float)));
  CHECK(hipMalloc(&dsout, n * sizeof(float)));
  CHECK(hipMalloc(&dcounts, nb * sizeof(int)));
  CHECK(hipMemcpy(dsin, sin_, n * sizeof(float), hipMemcpyHostToDevice));
  size_t shmem = (bs + 2 * r) * sizeof(float) + sizeof(int);
  stencil<<<nb, bs, shmem>>>(dsin, dsout, dcounts, n, r);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(sout, dsout, n * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(counts, dcounts, sizeof counts, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int k = -r; k <= r; k++) s += (i + k >= 0 && i + k < n ? sin_[i + k] : 0.0f) * (float)(k + r + 1);
    EXPECT(sout[i] == s, "stencil %d: %g want %g", i, sout[i], s);
  }
  for (int b = 0; b < nb; b++) {
    int e = b == nb - 1 ? n - b * bs : bs;
    EXPECT(counts[b] == e, "stencil block %d counted %d threads, want %d", b, counts[b], e);
  }
  DONE("grid_shared");
}
