// spin_global_chain: workgroup g waits until workgroup g-1 has set
// flags[g-1], then takes a ticket and sets flags[g]. It terminates only if
// workgroups start in linear order and a spinning workgroup does not starve
// its predecessor; order[g] == g proves the linear chain.
// flags must be zero-initialised (n+1 ints); ticket is flags[n].
kernel void spin_global_chain(global atomic_int *flags, global int *order,
                              uint n) {
  size_t g = get_group_id(0);
  if (get_local_id(0) == 0) {
    if (g > 0) {
      while (atomic_load_explicit(&flags[g - 1], memory_order_acquire,
                                  memory_scope_device) == 0)
        ;
    }
    int t = atomic_fetch_add_explicit(&flags[n], 1, memory_order_relaxed,
                                      memory_scope_device);
    order[g] = t;
    atomic_store_explicit(&flags[g], 1, memory_order_release,
                          memory_scope_device);
  }
}
