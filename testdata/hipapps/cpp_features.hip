// cpp_features: what C++-heavy HIP code does: templates over types and
// integers (with a functor and a lambda), device function pointers passed
// through a table, virtual calls on objects constructed in device memory
// (placement new in a kernel), recursion (a recursive ackermann-like
// function and a recursive quicksort on a per-thread array, both need a
// stack in scratch memory), a kernel argument struct over 1 KB, a
// __launch_bounds__ kernel, and triple-chevron next to hipLaunchKernelGGL.
#include "common.h"
#include <new>
#include <algorithm>

// templates, functors and lambdas
template <typename T, int UNROLL, typename F>
__global__ void apply(const T *in, T *out, int n, F f) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int k = 0; k < UNROLL; k++)
    if (i + k < n) out[i + k] = f(in[i + k]);
}
struct Square {
  template <typename T> __device__ T operator()(T x) const { return x * x; }
};

// function pointers
typedef int (*op_t)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ op_t ops[4] = {op_add, op_sub, op_mul, op_max};

__global__ void fnptr(const int *a, const int *b, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  op_t f = ops[i % 4];
  out[i] = f(a[i], b[i]);
}

// virtual calls
struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual int sides() const { return 0; }
  __device__ virtual ~Shape() {}
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w, float h) : w(w), h(h) {}
  __device__ float area() const override { return w * h; }
  __device__ int sides() const override { return 4; }
};
struct Tri : Shape {
  float b, h;
  __device__ Tri(float b, float h) : b(b), h(h) {}
  __device__ float area() const override { return 0.5f * b * h; }
  __device__ int sides() const override { return 3; }
};
struct Circle : Shape {
  float r;
  __device__ Circle(float r) : r(r) {}
  __device__ float area() const override { return 3.0f * r * r; }
};
union ShapeStore {
  char r[sizeof(Rect)], t[sizeof(Tri)], c[sizeof(Circle)];
  double align;
};
__global__ void construct(ShapeStore *store, const float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (i % 3) {
  case 0: new (&store[i]) Rect(p[i], p[i] + 1); break;
  case 1: new (&store[i]) Tri(p[i], 2.0f); break;
  default: new (&store[i]) Circle(p[i]); break;
  }
}
__global__ void virt(ShapeStore *store, float *area, int *sides, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Shape *s = reinterpret_cast<Shape *>(&store[i]);
  area[i] = s->area();
  sides[i] = s->sides();
}

// recursion
__device__ __noinline__ int rec_sum(int n, int depth) {
  if (n <= 1) return n + depth;
  return rec_sum(n - 1, depth + 1) + rec_sum(n / 2, depth) % 7;
}
__device__ __noinline__ void qsort_rec(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) i++;
    while (a[j] > p) j--;
    if (i <= j) {
      int t = a[i]; a[i] = a[j]; a[j] = t;
      i++; j--;
    }
  }
  qsort_rec(a, lo, j);
  qsort_rec(a, i, hi);
}
__global__ void recursion(const int *in, int *sorted, int *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[24];
  for (int k = 0; k < 24; k++) a[k] = in[(i * 7 + k * 13) % n];
  qsort_rec(a, 0, 23);
  for (int k = 0; k < 24; k++) sorted[i * 24 + k] = a[k];
  sums[i] = rec_sum(in[i] % 12, 0);
}
static int rec_sum_h(int n, int depth) {
  if (n <= 1) return n + depth;
  return rec_sum_h(n - 1, depth + 1) + rec_sum_h(n / 2, depth) % 7;
}

// large kernel argument (1.5 KB) and __launch_bounds__
struct Big {
  int vals[360];
  double scale;
  char tag[16];
};
__global__ void __launch_bounds__(128) bigarg(Big b, long long *out) {
  int i = threadIdx.x;
  long long s = 0;
  for (int k = i; k < 360; k += blockDim.x) s += (long long)(b.vals[k] * b.scale);
  atomicAdd((unsigned long long *)out, (unsigned long long)s);
  if (i == 0) out[1] = b.tag[0] + 256 * b.tag[15];
}

int main() {
  const int n = 1000;
  // templates: float with a functor, int with a lambda
  {
    float hf[n], rf[n];
    int hi[n], ri[n];
    for (int i = 0; i < n; i++) { hf[i] = i * 0.5f; hi[i] = i - 500; }
    float *df, *dfo;
    int *di, *dio;
    CHECK(hipMalloc(&df, sizeof hf)); CHECK(hipMalloc(&dfo, sizeof hf));
    CHECK(hipMalloc(&di, sizeof hi)); CHECK(hipMalloc(&dio, sizeof hi));
    CHECK(hipMemcpy(df, hf, sizeof hf, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(di, hi, sizeof hi, hipMemcpyHostToDevice));
    apply<float, 4><<<(n / 4 + 63) / 64, 64>>>(df, dfo, n, Square());
    int k3 = 3;
    auto lam = [=] __device__(int x) { return x * k3 - 1; };
    hipLaunchKernelGGL((apply<int, 2, decltype(lam)>), dim3((n / 2 + 127) / 128), dim3(128), 0, 0, di, dio, n, lam);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(rf, dfo, sizeof rf, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(ri, dio, sizeof ri, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      EXPECT(rf[i] == hf[i] * hf[i], "template functor %d: %g", i, rf[i]);
      EXPECT(ri[i] == hi[i] * 3 - 1, "template lambda %d: %d", i, ri[i]);
    }
  }
  // function pointers
  {
    int a[n], b[n], r[n];
    unsigned s = 1;
    for (int i = 0; i < n; i++) { a[i] = (int)(lcg(s) % 2000) - 1000; b[i] = (int)(lcg(s) % 100); }
    int *da, *db, *dr;
    CHECK(hipMalloc(&da, sizeof a)); CHECK(hipMalloc(&db, sizeof b)); CHECK(hipMalloc(&dr, sizeof r));
    CHECK(hipMemcpy(da, a, sizeof a, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(db, b, sizeof b, hipMemcpyHostToDevice));
    fnptr<<<(n + 255) / 256, 256>>>(da, db, dr, n);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(r, dr, sizeof r, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int e = i % 4 == 0 ? a[i] + b[i] : i % 4 == 1 ? a[i] - b[i] : i % 4 == 2 ? a[i] * b[i] : std::max(a[i], b[i]);
      EXPECT(r[i] == e, "function pointer %d: %d want %d", i, r[i], e);
    }
  }
  // virtual calls
  {
    float p[n], area[n];
    int sides[n];
    for (int i = 0; i < n; i++) p[i] = 1.0f + (i % 10);
    ShapeStore *store;
    float *dp, *darea;
    int *dsides;
    CHECK(hipMalloc(&store, n * sizeof(ShapeStore)));
    CHECK(hipMalloc(&dp, sizeof p)); CHECK(hipMalloc(&darea, sizeof area)); CHECK(hipMalloc(&dsides, sizeof sides));
    CHECK(hipMemcpy(dp, p, sizeof p, hipMemcpyHostToDevice));
    construct<<<(n + 127) / 128, 128>>>(store, dp, n);
    virt<<<(n + 127) / 128, 128>>>(store, darea, dsides, n);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(area, darea, sizeof area, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(sides, dsides, sizeof sides, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      float e = i % 3 == 0 ? p[i] * (p[i] + 1) : i % 3 == 1 ? 0.5f * p[i] * 2.0f : 3.0f * p[i] * p[i];
      int es = i % 3 == 0 ? 4 : i % 3 == 1 ? 3 : 0;
      EXPECT(area[i] == e && sides[i] == es, "virtual %d: area %g sides %d, want %g %d", i, area[i], sides[i], e, es);
    }
  }
  // recursion
  {
    const int m = 300;
    int in[m], sorted[m * 24], sums[m];
    unsigned s = 8;
    for (int i = 0; i < m; i++) in[i] = (int)(lcg(s) % 1000);
    int *din, *dsorted, *dsums;
    CHECK(hipMalloc(&din, sizeof in)); CHECK(hipMalloc(&dsorted, sizeof sorted)); CHECK(hipMalloc(&dsums, sizeof sums));
    CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
    recursion<<<(m + 63) / 64, 64>>>(din, dsorted, dsums, m);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(sorted, dsorted, sizeof sorted, hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(sums, dsums, sizeof sums, hipMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) {
      int a[24];
      for (int k = 0; k < 24; k++) a[k] = in[(i * 7 + k * 13) % m];
      std::sort(a, a + 24);
      for (int k = 0; k < 24; k++) EXPECT(sorted[i * 24 + k] == a[k], "qsort thread %d element %d", i, k);
      EXPECT(sums[i] == rec_sum_h(in[i] % 12, 0), "recursive sum %d: %d want %d", i, sums[i], rec_sum_h(in[i] % 12, 0));
    }
  }
  // big argument
  {
    Big b;
    long long e = 0;
    for (int k = 0; k < 360; k++) { b.vals[k] = k * 7 - 1000; e += (long long)(b.vals[k] * 1.5); }
    b.scale = 1.5;
    memset(b.tag, 0, sizeof b.tag);
    b.tag[0] = 'R'; b.tag[15] = 'Z';
    long long *dout, out[2];
    CHECK(hipMalloc(&dout, sizeof out));
    CHECK(hipMemset(dout, 0, sizeof out));
    static_assert(sizeof(Big) > 1024, "big argument");
    hipLaunchKernelGGL(bigarg, dim3(1), dim3(128), 0, 0, b, dout);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
    EXPECT(out[0] == e, "big argument sum %lld want %lld", out[0], e);
    EXPECT(out[1] == 'R' + 256 * 'Z', "big argument tail %lld", out[1]);
    hipFuncAttributes fa;
    CHECK(hipFuncGetAttributes(&fa, reinterpret_cast<const void *>(&bigarg)));
    EXPECT(fa.maxThreadsPerBlock == 128, "__launch_bounds__(128) kernel reports maxThreadsPerBlock %d",
           fa.maxThreadsPerBlock);
    hipLaunchKernelGGL(bigarg, dim3(1), dim3(256), 0, 0, b, dout);
    hipError_t err = hipGetLastError();
    EXPECT(err != hipSuccess, "launching a __launch_bounds__(128) kernel with 256 threads succeeded");
  }
  DONE("cpp_features");
}
