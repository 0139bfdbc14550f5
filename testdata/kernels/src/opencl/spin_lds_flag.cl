// spin_lds_flag: after a barrier, work-item 0 (in the first wave) spins on an
// LDS flag that the last work-item (in the last wave) sets only after it has
// read a value work-item 0 published before the barrier. It terminates only
// if the waiting wave and the setting wave interleave. Not for PoCL (its
// work-item loops never interleave within a workgroup).
kernel void spin_lds_flag(global const int *in, global int *out) {
  local atomic_int flag;
  local int payload;
  size_t lid = get_local_id(0);
  size_t last = get_local_size(0) - 1;
  if (lid == 0) {
    atomic_init(&flag, 0);
    payload = in[get_group_id(0)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int seen = 0;
  if (lid == 0) {
    int spins = 0;
    while (atomic_load_explicit(&flag, memory_order_acquire,
                                memory_scope_work_group) == 0)
      spins++;
    seen = atomic_load_explicit(&flag, memory_order_relaxed,
                                memory_scope_work_group);
  } else if (lid == last) {
    atomic_store_explicit(&flag, payload + 1, memory_order_release,
                          memory_scope_work_group);
  }
  if (lid == 0)
    out[get_group_id(0)] = seen;
}
