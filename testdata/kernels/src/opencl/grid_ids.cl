// grid_ids: every work-item function of OpenCL 2.0 in 2D and 3D grids,
// launched with a non-zero global offset. Each work-item writes a record of
// NREC ints at its global linear id (which already subtracts the offset).
#define NREC 24
static void record(global uint *out) {
  size_t lin = get_global_linear_id();
  global uint *o = out + lin * NREC;
  o[0] = get_work_dim();
  for (uint d = 0; d < 3; d++) {
    o[1 + d] = (uint)get_global_id(d);
    o[4 + d] = (uint)get_local_id(d);
    o[7 + d] = (uint)get_group_id(d);
    o[10 + d] = (uint)get_local_size(d);
    o[13 + d] = (uint)get_global_size(d);
    o[16 + d] = (uint)get_num_groups(d);
    o[19 + d] = (uint)get_global_offset(d);
  }
  o[22] = (uint)get_local_linear_id();
  o[23] = (uint)get_enqueued_local_size(0) * 1000u +
          (uint)get_enqueued_local_size(1);
}

kernel void ids_2d(global uint *out) { record(out); }

kernel void ids_3d(global uint *out) { record(out); }
