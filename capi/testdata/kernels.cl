// kernels.cl: the kernels dispatch.c launches. Built by capi_test.go with
// clang-15 for gfx90a, code object V4, without device libraries (the work
// item id comes from the builtins, and workgroups are 64 wide).
kernel void add_index(global int *a, int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  if (i < n) a[i] += i;
}
kernel void empty(void) {}
kernel void store_to(global int *p) { *p = 1; }
