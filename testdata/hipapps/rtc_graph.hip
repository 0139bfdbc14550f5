// rtc_graph: run-time compilation and graphs. hiprtc compiles a kernel
// (with a name expression for a template instance and a -D option) to a
// gfx90a code object that hipModuleLoadData loads and hipModuleLaunchKernel
// runs (the path JIT-ing libraries take); hipModuleGetGlobal reads a
// module global. Then a stream capture (memset, two kernels, a copy) is
// instantiated as a hipGraph and launched several times, an explicitly
// built graph with a kernel node and a dependency is launched, and managed
// memory with hipMemAdvise/hipMemPrefetchAsync is written by a kernel and
// read by the host.
#include "common.h"
#include <hip/hiprtc.h>
#include <vector>
#include <string>

#define RTC(call)                                                           \
  do {                                                                      \
    hiprtcResult r_ = (call);                                               \
    if (r_ != HIPRTC_SUCCESS) {                                             \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,  \
              hiprtcGetErrorString(r_));                                    \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

static const char *src = R"(
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + OFFSET;
}
__device__ int counter = 5;
template <int K> __global__ void powk(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int v = p[i], r = 1; for (int k = 0; k < K; k++) r *= v; p[i] = r; }
  if (i == 0) atomicAdd(&counter, K);
}
)";

__global__ void add1(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}
__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

int main() {
  // hiprtc
  hiprtcProgram prog;
  RTC(hiprtcCreateProgram(&prog, src, "rtc.hip", 0, nullptr, nullptr));
  RTC(hiprtcAddNameExpression(prog, "powk<3>"));
  const char *opts[] = {"--offload-arch=gfx90a", "-DOFFSET=0.5f", "-O2"};
  hiprtcResult cr = hiprtcCompileProgram(prog, 3, opts);
  size_t logsz = 0;
  hiprtcGetProgramLogSize(prog, &logsz);
  if (cr != HIPRTC_SUCCESS) {
    std::string log(logsz, '\0');
    hiprtcGetProgramLog(prog, &log[0]);
    fprintf(stderr, "hiprtc compile failed: %s\n%s\n", hiprtcGetErrorString(cr), log.c_str());
    return 2;
  }
  const char *lowered = nullptr;
  RTC(hiprtcGetLoweredName(prog, "powk<3>", &lowered));
  std::string powk_name = lowered;
  size_t cosz = 0;
  RTC(hiprtcGetCodeSize(prog, &cosz));
  std::vector<char> co(cosz);
  RTC(hiprtcGetCode(prog, co.data()));
  RTC(hiprtcDestroyProgram(&prog));
  EXPECT(cosz > 1000 && memcmp(co.data(), "\x7f" "ELF", 4) == 0, "code object of %zu bytes", cosz);
  hipModule_t mod;
  CHECK(hipModuleLoadData(&mod, co.data()));
  hipFunction_t saxpy, powk;
  CHECK(hipModuleGetFunction(&saxpy, mod, "saxpy"));
  CHECK(hipModuleGetFunction(&powk, mod, powk_name.c_str()));
  const int n = 3000;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; i++) { hx[i] = i * 0.25f; hy[i] = 1.0f - i; }
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipMemcpy(dx, hx.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, hy.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 3.0f;
  int nn = n;
  void *args[] = {&a, &dx, &dy, &nn};
  CHECK(hipModuleLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
  // the same kernel through the "extra" argument buffer
  struct { float a; int pad; float *x, *y; int n; } packed = {2.0f, 0, dx, dy, n};
  size_t psz = sizeof packed;
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &psz, HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, nullptr, extra));
  std::vector<float> ry(n);
  CHECK(hipMemcpy(ry.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float e = 3.0f * hx[i] + hy[i] + 0.5f;
    e = 2.0f * hx[i] + e + 0.5f;
    EXPECT(ry[i] == e, "rtc saxpy %d: %g want %g", i, ry[i], e);
  }
  std::vector<int> hp(n);
  for (int i = 0; i < n; i++) hp[i] = i % 50 - 25;
  int *dp;
  CHECK(hipMalloc(&dp, n * sizeof(int)));
  CHECK(hipMemcpy(dp, hp.data(), n * sizeof(int), hipMemcpyHostToDevice));
  void *pargs[] = {&dp, &nn};
  CHECK(hipModuleLaunchKernel(powk, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, pargs, nullptr));
  std::vector<int> rp(n);
  CHECK(hipMemcpy(rp.data(), dp, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(rp[i] == hp[i] * hp[i] * hp[i], "rtc powk<3> %d: %d", i, rp[i]);
  hipDeviceptr_t cptr;
  size_t csz;
  CHECK(hipModuleGetGlobal(&cptr, &csz, mod, "counter"));
  int counter = 0;
  CHECK(hipMemcpy(&counter, cptr, sizeof counter, hipMemcpyDeviceToHost));
  EXPECT(csz == sizeof(int) && counter == 8, "module global counter %d (size %zu), want 8", counter, csz);
  CHECK(hipModuleUnload(mod));

  // stream capture -> graph, launched 3 times
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  int *g, *gout;
  CHECK(hipMalloc(&g, n * sizeof(int)));
  CHECK(hipMalloc(&gout, n * sizeof(int)));
  CHECK(hipMemset(g, 0, n * sizeof(int)));
  hipGraph_t graph;
  CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  add1<<<(n + 255) / 256, 256, 0, s>>>(g, n);
  twice<<<(n + 255) / 256, 256, 0, s>>>(g, n);
  CHECK(hipMemcpyAsync(gout, g, n * sizeof(int), hipMemcpyDeviceToDevice, s));
  CHECK(hipStreamEndCapture(s, &graph));
  size_t nodes = 0;
  CHECK(hipGraphGetNodes(graph, nullptr, &nodes));
  EXPECT(nodes == 3, "captured graph has %zu nodes, want 3", nodes);
  hipGraphExec_t exec;
  CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int k = 0; k < 3; k++) CHECK(hipGraphLaunch(exec, s));
  CHECK(hipStreamSynchronize(s));
  std::vector<int> rg(n);
  CHECK(hipMemcpy(rg.data(), gout, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(rg[i] == 14, "graph result %d: %d, want ((0+1)*2+1)*2+1)*2 = 14", i, rg[i]);

  // explicit graph: twice -> add1 as kernel nodes with a dependency
  hipGraph_t g2;
  CHECK(hipGraphCreate(&g2, 0));
  hipGraphNode_t n1, n2;
  hipKernelNodeParams kp = {};
  void *kargs[] = {&g, &nn};
  kp.func = reinterpret_cast<void *>(twice);
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = kargs;
  CHECK(hipGraphAddKernelNode(&n1, g2, nullptr, 0, &kp));
  kp.func = reinterpret_cast<void *>(add1);
  CHECK(hipGraphAddKernelNode(&n2, g2, &n1, 1, &kp));
  hipGraphExec_t exec2;
  CHECK(hipGraphInstantiate(&exec2, g2, nullptr, nullptr, 0));
  CHECK(hipGraphLaunch(exec2, s));
  CHECK(hipStreamSynchronize(s));
  CHECK(hipMemcpy(rg.data(), g, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(rg[i] == 29, "explicit graph %d: %d, want 14*2+1", i, rg[i]);
  CHECK(hipGraphExecDestroy(exec));
  CHECK(hipGraphExecDestroy(exec2));
  CHECK(hipGraphDestroy(graph));
  CHECK(hipGraphDestroy(g2));

  // managed memory with advice and prefetch
  int *m;
  CHECK(hipMallocManaged(&m, n * sizeof(int)));
  for (int i = 0; i < n; i++) m[i] = i;
  CHECK(hipMemAdvise(m, n * sizeof(int), hipMemAdviseSetPreferredLocation, 0));
  CHECK(hipMemPrefetchAsync(m, n * sizeof(int), 0, s));
  twice<<<(n + 255) / 256, 256, 0, s>>>(m, n);
  CHECK(hipStreamSynchronize(s));
  for (int i = 0; i < n; i++) EXPECT(m[i] == 2 * i, "managed %d: %d", i, m[i]);
  CHECK(hipFree(m));
  DONE("rtc_graph");
}
