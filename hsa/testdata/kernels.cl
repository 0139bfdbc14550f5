// Test kernels for the hsa loader (regenerate with gen.sh): kernel
// descriptors, a constant table, a program-scope global, a pointer table
// that needs R_AMDGPU_RELATIVE64 relocations, and (in ext.cl) a variable the
// application defines with hsa_executable_agent_global_variable_define.
__constant int table[4] = {1, 2, 3, 4};
__attribute__((visibility("protected"))) __global int counter = 5;
__constant int *__constant ptrs[2] = {&table[0], &table[2]};

__kernel void add(__global int *out, int v) {
  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  out[i] = table[i & 3] + v + *ptrs[1] + counter;
}

__kernel void empty(void) {}
