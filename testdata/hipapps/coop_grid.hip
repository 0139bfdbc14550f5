// coop_grid: a grid-wide cooperative_groups::this_grid().sync() in a kernel
// launched with hipLaunchCooperativeKernel on as many blocks as the
// occupancy API says fit, as real cooperative codes size their grids.
// Every block must be resident at once or the grid barrier never opens;
// HIP 5.2 implements the barrier with GWS (ds_gws_init in its
// __amd_rocclr_gwsInit blit kernel, ds_gws_barrier in __ockl_grid_sync) on
// a cooperative queue, and only offers cooperative launch when the agent
// reports HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES.
#include "common.h"
#include <hip/hip_cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void grid_steps(int *data, int *flags, int n, int steps) {
  cg::grid_group g = cg::this_grid();
  int tid = g.thread_rank();
  int nthreads = g.size();
  for (int s = 0; s < steps; s++) {
    // each step reads what another block wrote in the previous step
    for (int i = tid; i < n; i += nthreads) {
      int j = (i + 97 * (s + 1)) % n;
      data[(s + 1) * n + i] = data[s * n + j] + 1;
    }
    g.sync();
  }
  if (tid == 0) flags[0] = g.is_valid() ? nthreads : -1;
}

int main() {
  // grid sync on a cooperative launch filling the device
  int coop = 0;
  CHECK(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0));
  EXPECT(coop == 1, "cooperative launch attribute %d", coop);
  int per_cu = 0, cus = 0;
  const int block = 256;
  CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, grid_steps, block, 0));
  CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
  int blocks = per_cu * cus;
  printf("cooperative grid: %d blocks of %d (%d per CU x %d CUs)\n", blocks, block, per_cu, cus);
  const int n = 50000, steps = 6;
  int *data, *flags, *hd = new int[(steps + 1) * n];
  CHECK(hipMalloc(&data, (steps + 1) * n * sizeof(int)));
  CHECK(hipMalloc(&flags, sizeof(int)));
  for (int i = 0; i < n; i++) hd[i] = i * 3;
  CHECK(hipMemcpy(data, hd, n * sizeof(int), hipMemcpyHostToDevice));
  int nn = n, ss = steps;
  void *args[] = {&data, &flags, &nn, &ss};
  CHECK(hipLaunchCooperativeKernel(reinterpret_cast<void *>(grid_steps), dim3(blocks), dim3(block), args, 0, 0));
  CHECK(hipDeviceSynchronize());
  int f = 0;
  CHECK(hipMemcpy(hd, data, (steps + 1) * n * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&f, flags, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(f == blocks * block, "grid size seen by the kernel %d, want %d", f, blocks * block);
  std::vector<int> ref(hd, hd + n), nxt(n);
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) nxt[i] = ref[(i + 97 * (s + 1)) % n] + 1;
    ref.swap(nxt);
    for (int i = 0; i < n; i++)
      EXPECT(hd[(s + 1) * n + i] == ref[i], "grid step %d element %d: %d want %d", s + 1, i, hd[(s + 1) * n + i], ref[i]);
  }
  DONE("coop_grid");
}
