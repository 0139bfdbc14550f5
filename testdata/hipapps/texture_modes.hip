// texture_modes: texture and surface objects beyond the basics of
// textures.hip, checked against host computations: a uchar4 array read as
// normalized floats with normalized coordinates and wrap addressing;
// bilinear filtering of a float array under clamp; mirror and border
// addressing; a 1D array read with tex1D; a 3D array (tex3D) and a layered
// 2D array (tex2DLayered) filled with hipMemcpy3D; a surface written with
// surf2Dwrite and copied back with hipMemcpy2DFromArray.
#include "common.h"
#include <cmath>
#include <vector>

__global__ void sample4(hipTextureObject_t t, const float2 *uv, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, uv[i].x, uv[i].y);
}

__global__ void sample1(hipTextureObject_t t, const float2 *uv, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}

__global__ void sample1d(hipTextureObject_t t, const float *u, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, u[i]);
}

__global__ void sample3d(hipTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;  // one texel past every face
  if (x < w + 2 && y < h + 2) out[(z * (h + 2) + y) * (w + 2) + x] = tex3D<float>(t, x - 0.5f, y - 0.5f, z - 0.5f);
}

__global__ void sample_layered(hipTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  if (x < w && y < h) out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

__global__ void write_surface(hipSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) surf2Dwrite(float(100 * y + x), s, x * (int)sizeof(float), y);
}

static hipTextureObject_t make_texture(hipArray_t a, hipTextureAddressMode mode, hipTextureFilterMode filter,
                                       hipTextureReadMode read, int normalized) {
  hipResourceDesc rd = {};
  rd.resType = hipResourceTypeArray;
  rd.res.array.array = a;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = filter;
  td.readMode = read;
  td.normalizedCoords = normalized;
  hipTextureObject_t t;
  CHECK(hipCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

template <typename T>
static void run(void (*k)(hipTextureObject_t, const float2 *, T *, int), hipTextureObject_t t,
                const std::vector<float2> &uv, std::vector<T> &out) {
  float2 *duv;
  T *dout;
  int n = (int)uv.size();
  CHECK(hipMalloc(&duv, n * sizeof(float2)));
  CHECK(hipMalloc(&dout, n * sizeof(T)));
  CHECK(hipMemcpy(duv, uv.data(), n * sizeof(float2), hipMemcpyHostToDevice));
  k<<<(n + 63) / 64, 64>>>(t, duv, dout, n);
  CHECK(hipGetLastError());
  out.resize(n);
  CHECK(hipMemcpy(out.data(), dout, n * sizeof(T), hipMemcpyDeviceToHost));
  CHECK(hipFree(duv));
  CHECK(hipFree(dout));
}

static int clampi(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
static int wrapi(int i, int n) { return ((i % n) + n) % n; }
static int mirrori(int i, int n) {
  int j = ((i % (2 * n)) + 2 * n) % (2 * n);
  return j < n ? j : 2 * n - 1 - j;
}

int main() {
  // A uchar4 8x4 array, read as normalized floats through normalized
  // coordinates with wrap addressing, at texel centres one period left,
  // in and right of the image.
  const int W = 8, H = 4;
  std::vector<uchar4> px(W * H);
  for (int i = 0; i < W * H; i++) px[i] = make_uchar4(i * 7, 255 - i, i * 3 + 1, 128);
  // Not hipCreateChannelDesc<uchar4>(): HIP 5.2's header gives every
  // vector type hipChannelFormatKindSigned, so the texture would read the
  // bytes as snorm (as it does on a GPU).
  hipChannelFormatDesc c4 = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  hipArray_t a4;
  CHECK(hipMallocArray(&a4, &c4, W, H));
  CHECK(hipMemcpy2DToArray(a4, 0, 0, px.data(), W * sizeof(uchar4), W * sizeof(uchar4), H, hipMemcpyHostToDevice));
  hipTextureObject_t t4 = make_texture(a4, hipAddressModeWrap, hipFilterModePoint, hipReadModeNormalizedFloat, 1);
  std::vector<float2> uv;
  for (int k = -1; k <= 1; k++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) uv.push_back(make_float2((x + 0.5f) / W + k, (y + 0.5f) / H - k));
  std::vector<float4> o4;
  run(sample4, t4, uv, o4);
  for (size_t i = 0; i < uv.size(); i++) {
    uchar4 p = px[i % (W * H)];
    float4 g = o4[i];
    EXPECT(fabsf(g.x - p.x / 255.0f) < 1e-6f && fabsf(g.y - p.y / 255.0f) < 1e-6f &&
               fabsf(g.z - p.z / 255.0f) < 1e-6f && fabsf(g.w - p.w / 255.0f) < 1e-6f,
           "uchar4 wrap %zu: (%g %g %g %g)", i, g.x, g.y, g.z, g.w);
  }
  CHECK(hipDestroyTextureObject(t4));
  CHECK(hipFreeArray(a4));

  // A float 5x4 array: bilinear under clamp (unnormalized coordinates at
  // quarter texels, inside and past every edge), then point sampling
  // under mirror (normalized) and border (unnormalized).
  const int FW = 5, FH = 4;
  std::vector<float> img(FW * FH);
  for (int i = 0; i < FW * FH; i++) img[i] = (float)((i * 37) % 23);
  hipChannelFormatDesc c1 = hipCreateChannelDesc<float>();
  hipArray_t a1;
  CHECK(hipMallocArray(&a1, &c1, FW, FH));
  CHECK(hipMemcpy2DToArray(a1, 0, 0, img.data(), FW * sizeof(float), FW * sizeof(float), FH, hipMemcpyHostToDevice));
  auto at = [&](int x, int y) { return img[y * FW + x]; };

  hipTextureObject_t tl = make_texture(a1, hipAddressModeClamp, hipFilterModeLinear, hipReadModeElementType, 0);
  uv.clear();
  for (int y = -2; y < FH + 2; y++)
    for (int x = -2; x < FW + 2; x++) uv.push_back(make_float2(x + 0.25f, y + 0.75f));
  std::vector<float> o1;
  run(sample1, tl, uv, o1);
  for (size_t i = 0; i < uv.size(); i++) {
    float u = uv[i].x - 0.5f, v = uv[i].y - 0.5f;
    int x0 = (int)floorf(u), y0 = (int)floorf(v);
    float a = u - x0, b = v - y0;
    float want = (1 - a) * (1 - b) * at(clampi(x0, FW), clampi(y0, FH)) + a * (1 - b) * at(clampi(x0 + 1, FW), clampi(y0, FH)) +
                 (1 - a) * b * at(clampi(x0, FW), clampi(y0 + 1, FH)) + a * b * at(clampi(x0 + 1, FW), clampi(y0 + 1, FH));
    EXPECT(fabsf(o1[i] - want) < 1e-4f, "bilinear (%g, %g): %g want %g", uv[i].x, uv[i].y, o1[i], want);
  }
  CHECK(hipDestroyTextureObject(tl));

  hipTextureObject_t tm = make_texture(a1, hipAddressModeMirror, hipFilterModePoint, hipReadModeElementType, 1);
  uv.clear();
  std::vector<int> xs, ys;
  for (int y = -FH; y < 2 * FH; y++)
    for (int x = -FW; x < 2 * FW; x++) {
      uv.push_back(make_float2((x + 0.5f) / FW, (y + 0.5f) / FH));
      xs.push_back(x);
      ys.push_back(y);
    }
  run(sample1, tm, uv, o1);
  for (size_t i = 0; i < uv.size(); i++)
    EXPECT(o1[i] == at(mirrori(xs[i], FW), mirrori(ys[i], FH)), "mirror (%d, %d): %g want %g", xs[i], ys[i], o1[i],
           at(mirrori(xs[i], FW), mirrori(ys[i], FH)));
  CHECK(hipDestroyTextureObject(tm));

  hipTextureObject_t tb = make_texture(a1, hipAddressModeBorder, hipFilterModePoint, hipReadModeElementType, 0);
  uv.clear();
  xs.clear();
  ys.clear();
  for (int y = -2; y < FH + 2; y++)
    for (int x = -2; x < FW + 2; x++) {
      uv.push_back(make_float2(x + 0.5f, y + 0.5f));
      xs.push_back(x);
      ys.push_back(y);
    }
  run(sample1, tb, uv, o1);
  for (size_t i = 0; i < uv.size(); i++) {
    bool in = xs[i] >= 0 && xs[i] < FW && ys[i] >= 0 && ys[i] < FH;
    float want = in ? at(xs[i], ys[i]) : 0.0f;
    EXPECT(o1[i] == want, "border (%d, %d): %g want %g", xs[i], ys[i], o1[i], want);
  }
  CHECK(hipDestroyTextureObject(tb));
  CHECK(hipFreeArray(a1));

  // A 1D array (height 0) read with tex1D, wrap, normalized.
  const int N1 = 13;
  std::vector<float> line(N1);
  for (int i = 0; i < N1; i++) line[i] = i * 1.5f - 4;
  hipArray_t a1d;
  CHECK(hipMallocArray(&a1d, &c1, N1, 0));
  CHECK(hipMemcpy2DToArray(a1d, 0, 0, line.data(), N1 * sizeof(float), N1 * sizeof(float), 1, hipMemcpyHostToDevice));
  hipTextureObject_t t1d = make_texture(a1d, hipAddressModeWrap, hipFilterModePoint, hipReadModeElementType, 1);
  std::vector<float> us;
  for (int x = -N1; x < 2 * N1; x++) us.push_back((x + 0.5f) / N1);
  float *du, *dout;
  CHECK(hipMalloc(&du, us.size() * sizeof(float)));
  CHECK(hipMalloc(&dout, us.size() * sizeof(float)));
  CHECK(hipMemcpy(du, us.data(), us.size() * sizeof(float), hipMemcpyHostToDevice));
  sample1d<<<1, 64>>>(t1d, du, dout, (int)us.size());
  CHECK(hipGetLastError());
  o1.resize(us.size());
  CHECK(hipMemcpy(o1.data(), dout, us.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < (int)us.size(); i++)
    EXPECT(o1[i] == line[wrapi(i - N1, N1)], "tex1D %d: %g want %g", i - N1, o1[i], line[wrapi(i - N1, N1)]);
  CHECK(hipDestroyTextureObject(t1d));
  CHECK(hipFreeArray(a1d));
  CHECK(hipFree(du));
  CHECK(hipFree(dout));

  // A 3D array and a layered 2D array, filled with hipMemcpy3D and read
  // with point sampling under clamp.
  const int W3 = 5, H3 = 3, D3 = 4;
  std::vector<float> vol(W3 * H3 * D3);
  for (int i = 0; i < W3 * H3 * D3; i++) vol[i] = i * 0.25f - 3;
  for (int layered = 0; layered < 2; layered++) {
    hipArray_t a;
    CHECK(hipMalloc3DArray(&a, &c1, make_hipExtent(W3, H3, D3), layered ? hipArrayLayered : 0));
    hipMemcpy3DParms p = {};
    p.srcPtr = make_hipPitchedPtr(vol.data(), W3 * sizeof(float), W3, H3);
    p.dstArray = a;
    p.extent = make_hipExtent(W3, H3, D3);
    p.kind = hipMemcpyHostToDevice;
    CHECK(hipMemcpy3D(&p));
    hipTextureObject_t t = make_texture(a, hipAddressModeClamp, hipFilterModePoint, hipReadModeElementType, 0);
    int n = (W3 + 2) * (H3 + 2) * (D3 + 2);
    float *o;
    CHECK(hipMalloc(&o, n * sizeof(float)));
    std::vector<float> got(n);
    if (!layered) {
      sample3d<<<D3 + 2, dim3(W3 + 2, H3 + 2)>>>(t, o, W3, H3);
      CHECK(hipGetLastError());
      CHECK(hipMemcpy(got.data(), o, n * sizeof(float), hipMemcpyDeviceToHost));
      for (int z = 0; z < D3 + 2; z++)
        for (int y = 0; y < H3 + 2; y++)
          for (int x = 0; x < W3 + 2; x++) {
            float want = vol[(clampi(z - 1, D3) * H3 + clampi(y - 1, H3)) * W3 + clampi(x - 1, W3)];
            EXPECT(got[(z * (H3 + 2) + y) * (W3 + 2) + x] == want, "tex3D (%d, %d, %d): %g want %g", x - 1, y - 1,
                   z - 1, got[(z * (H3 + 2) + y) * (W3 + 2) + x], want);
          }
    } else {
      sample_layered<<<D3, dim3(W3, H3)>>>(t, o, W3, H3);
      CHECK(hipGetLastError());
      CHECK(hipMemcpy(got.data(), o, W3 * H3 * D3 * sizeof(float), hipMemcpyDeviceToHost));
      for (int i = 0; i < W3 * H3 * D3; i++) EXPECT(got[i] == vol[i], "tex2DLayered %d: %g want %g", i, got[i], vol[i]);
    }
    CHECK(hipDestroyTextureObject(t));
    CHECK(hipFreeArray(a));
    CHECK(hipFree(o));
  }

  // A surface: written by a kernel, copied back to the host.
  const int SW = 19, SH = 6;
  hipArray_t as;
  // (HIP 5.2's hipMallocArray refuses hipArraySurfaceLoadStore; any array
  // can back a surface.)
  CHECK(hipMallocArray(&as, &c1, SW, SH));
  hipResourceDesc sd = {};
  sd.resType = hipResourceTypeArray;
  sd.res.array.array = as;
  hipSurfaceObject_t s;
  CHECK(hipCreateSurfaceObject(&s, &sd));
  write_surface<<<dim3(2, 1), dim3(16, 8)>>>(s, SW, SH);
  CHECK(hipGetLastError());
  std::vector<float> back(SW * SH, -1);
  CHECK(hipMemcpy2DFromArray(back.data(), SW * sizeof(float), as, 0, 0, SW * sizeof(float), SH, hipMemcpyDeviceToHost));
  for (int y = 0; y < SH; y++)
    for (int x = 0; x < SW; x++)
      EXPECT(back[y * SW + x] == 100 * y + x, "surface (%d, %d): %g", x, y, back[y * SW + x]);
  CHECK(hipDestroySurfaceObject(s));
  CHECK(hipFreeArray(as));
  DONE("texture_modes");
}
