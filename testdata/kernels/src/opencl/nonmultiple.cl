// nonmultiple: a 1D grid whose size is not a multiple of the workgroup size
// (OpenCL 2.0 non-uniform workgroups): the last workgroup is partial and
// get_local_size differs from get_enqueued_local_size there.
kernel void partial_groups(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i * 4 + 0] = in[i] * 2 + 1;
  out[i * 4 + 1] = (int)get_local_size(0);
  out[i * 4 + 2] = (int)get_enqueued_local_size(0);
  out[i * 4 + 3] = (int)get_group_id(0);
}
