// textures: texture objects as image-processing HIP code uses them: a
// linear-buffer texture read with tex1Dfetch, and a 2D hipArray texture
// (hipMallocArray + hipMemcpy2DToArray) read with tex2D using unnormalized
// coordinates, point filtering and clamp addressing, checked against the
// host. HIP creates the textures through the HSA image extension
// (hsa_ext_image_*, hsa_ext_sampler_*), fills the array with ROCclr's
// copyBufferToImage blit kernel (image_store) and reads it with image_sample
// and buffer_load_format_x.
#include "common.h"
#include <algorithm>

__global__ void fetch1d(hipTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i) * 2.0f;
}

__global__ void sample2d(hipTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w + 4 && y < h + 4)  // read past the edge: clamped
    out[y * (w + 4) + x] = tex2D<float>(t, x - 2 + 0.5f, y - 2 + 0.5f);
}

int main() {
  const int n = 1000;
  float *h = new float[n], *r = new float[n];
  for (int i = 0; i < n; i++) h[i] = i * 0.5f;
  float *d, *o;
  CHECK(hipMalloc(&d, n * sizeof(float)));
  CHECK(hipMalloc(&o, n * sizeof(float)));
  CHECK(hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice));
  hipResourceDesc rd = {};
  rd.resType = hipResourceTypeLinear;
  rd.res.linear.devPtr = d;
  rd.res.linear.desc = hipCreateChannelDesc<float>();
  rd.res.linear.sizeInBytes = n * sizeof(float);
  hipTextureDesc td = {};
  td.readMode = hipReadModeElementType;
  hipTextureObject_t t1;
  CHECK(hipCreateTextureObject(&t1, &rd, &td, nullptr));
  fetch1d<<<(n + 255) / 256, 256>>>(t1, o, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(r, o, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(r[i] == 2.0f * h[i], "tex1Dfetch %d: %g", i, r[i]);
  CHECK(hipDestroyTextureObject(t1));

  const int w = 37, hh = 23;
  float *img = new float[w * hh], *res = new float[(w + 4) * (hh + 4)];
  for (int i = 0; i < w * hh; i++) img[i] = (float)(i % 101);
  hipArray_t arr;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  CHECK(hipMallocArray(&arr, &cd, w, hh));
  CHECK(hipMemcpy2DToArray(arr, 0, 0, img, w * sizeof(float), w * sizeof(float), hh, hipMemcpyHostToDevice));
  hipResourceDesc ad = {};
  ad.resType = hipResourceTypeArray;
  ad.res.array.array = arr;
  hipTextureDesc t2d = {};
  t2d.addressMode[0] = t2d.addressMode[1] = hipAddressModeClamp;
  t2d.filterMode = hipFilterModePoint;
  t2d.readMode = hipReadModeElementType;
  t2d.normalizedCoords = 0;
  hipTextureObject_t t2;
  CHECK(hipCreateTextureObject(&t2, &ad, &t2d, nullptr));
  float *dres;
  CHECK(hipMalloc(&dres, (w + 4) * (hh + 4) * sizeof(float)));
  sample2d<<<dim3((w + 4 + 15) / 16, (hh + 4 + 15) / 16), dim3(16, 16)>>>(t2, dres, w, hh);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(res, dres, (w + 4) * (hh + 4) * sizeof(float), hipMemcpyDeviceToHost));
  for (int y = 0; y < hh + 4; y++)
    for (int x = 0; x < w + 4; x++) {
      int sx = std::min(std::max(x - 2, 0), w - 1), sy = std::min(std::max(y - 2, 0), hh - 1);
      EXPECT(res[y * (w + 4) + x] == img[sy * w + sx], "tex2D (%d,%d): %g want %g", x, y, res[y * (w + 4) + x],
             img[sy * w + sx]);
    }
  CHECK(hipDestroyTextureObject(t2));
  CHECK(hipFreeArray(arr));
  DONE("textures");
}
