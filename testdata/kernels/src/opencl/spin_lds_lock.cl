// spin_lds_lock: an LDS spin lock taken once by every wave (by the wave's
// first lane: taking it from several lanes of one wave would deadlock on
// SIMT hardware). Inside the critical section a non-atomic read-modify-write
// with a delay loop would lose updates without mutual exclusion.
// out[g*2] = number of waves that entered, out[g*2+1] = protected counter.
kernel void spin_lds_lock(global int *out, int delay) {
  local atomic_int lock;
  local atomic_int entered;
  local volatile int counter;
  size_t lid = get_local_id(0);
  if (lid == 0) {
    atomic_init(&lock, 0);
    atomic_init(&entered, 0);
    counter = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  if (lane == 0) {
    int expected = 0;
    while (!atomic_compare_exchange_strong_explicit(
        &lock, &expected, 1, memory_order_acquire, memory_order_relaxed,
        memory_scope_work_group))
      expected = 0;
    int c = counter;
    // Burn cycles between the read and the write of counter, through a
    // volatile private so that the compiler keeps the loop.
    volatile int burn = 0;
    for (int k = 0; k < delay; k++)
      burn += k;
    counter = c + 1;
    atomic_fetch_add_explicit(&entered, 1, memory_order_relaxed,
                              memory_scope_work_group);
    atomic_store_explicit(&lock, 0, memory_order_release,
                          memory_scope_work_group);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    out[get_group_id(0) * 2 + 0] = atomic_load_explicit(
        &entered, memory_order_relaxed, memory_scope_work_group);
    out[get_group_id(0) * 2 + 1] = counter;
  }
}
