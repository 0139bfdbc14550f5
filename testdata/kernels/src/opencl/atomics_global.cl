// atomics_global: global-memory atomics. histogram counts bins with
// atomic_inc; atomic_ops drives every OpenCL 1.x atomic built-in on a small
// result array so the final values are order-independent (except xchg, whose
// returned values are checked as a permutation).
kernel void histogram(global const uint *in, global uint *hist, uint nbins) {
  size_t i = get_global_id(0);
  atomic_inc(&hist[in[i] % nbins]);
}

// res layout: 0 add, 1 sub, 2 min, 3 max, 4 and, 5 or, 6 xor, 7 xchg,
// 8 cmpxchg-loop add, 9 inc, 10 dec, 11 umin (as uint), 12 umax (as uint).
kernel void atomic_ops(global const int *in, global int *res,
                       global int *xchg_old) {
  size_t i = get_global_id(0);
  int v = in[i];
  atomic_add(&res[0], v);
  atomic_sub(&res[1], v);
  atomic_min(&res[2], v);
  atomic_max(&res[3], v);
  atomic_and(&res[4], ~(1 << (i & 31)) | (v & 1));
  atomic_or(&res[5], 1 << (v & 31));
  atomic_xor(&res[6], v);
  xchg_old[i] = atomic_xchg(&res[7], (int)i);
  int old = res[8];
  for (;;) {
    int prev = atomic_cmpxchg(&res[8], old, old + v);
    if (prev == old)
      break;
    old = prev;
  }
  atomic_inc(&res[9]);
  atomic_dec(&res[10]);
  atomic_min((global uint *)&res[11], (uint)v);
  atomic_max((global uint *)&res[12], (uint)v);
}

// atomic_ops64: 64-bit atomics (cl_khr_int64_base/extended_atomics).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomic_ops64(global const long *in, global long *res) {
  size_t i = get_global_id(0);
  long v = in[i];
  atom_add(&res[0], v);
  atom_min(&res[1], v);
  atom_max(&res[2], v);
  atom_xor(&res[3], v);
  long old = res[4];
  for (;;) {
    long prev = atom_cmpxchg(&res[4], old, old ^ v);
    if (prev == old)
      break;
    old = prev;
  }
}
