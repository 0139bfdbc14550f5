// reduce_lds: tree reduction of ints in local memory with barriers; one
// partial sum per workgroup. The local buffer is a kernel argument (dynamic
// group segment) in reduce_sum and a static array in reduce_sum_static.
kernel void reduce_sum(global const int *in, global int *partial,
                       local int *tmp) {
  size_t lid = get_local_id(0);
  size_t lsz = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = lsz / 2; s > 0; s >>= 1) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = tmp[0];
}

kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void reduce_sum_static(global const int *in, global int *partial) {
  local int tmp[256];
  size_t lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 128; s > 0; s >>= 1) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = tmp[0];
}
