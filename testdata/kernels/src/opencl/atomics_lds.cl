// atomics_lds: local-memory atomics. Each workgroup builds a 64-bin
// histogram in LDS with atomic_inc, then merges it into the global histogram
// with global atomic_add; it also exercises LDS min/max/cmpxchg.
#define NBINS 64
kernel void lds_histogram(global const uint *in, global uint *hist,
                          global int *stats) {
  local uint bins[NBINS];
  local int lmin, lmax, lcas;
  size_t lid = get_local_id(0);
  for (size_t b = lid; b < NBINS; b += get_local_size(0))
    bins[b] = 0;
  if (lid == 0) {
    lmin = INT_MAX;
    lmax = INT_MIN;
    lcas = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_inc(&bins[v % NBINS]);
  atomic_min(&lmin, (int)v);
  atomic_max(&lmax, (int)v);
  int old = lcas;
  for (;;) {
    int prev = atomic_cmpxchg(&lcas, old, old + 1);
    if (prev == old)
      break;
    old = prev;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = lid; b < NBINS; b += get_local_size(0))
    atomic_add(&hist[b], bins[b]);
  if (lid == 0) {
    size_t g = get_group_id(0);
    stats[g * 3 + 0] = lmin;
    stats[g * 3 + 1] = lmax;
    stats[g * 3 + 2] = lcas;
  }
}
