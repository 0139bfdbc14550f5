// atomics_hw: atomics_fp.hip built with -munsafe-fp-atomics, as
// performance-minded HIP code is: float/double atomicAdd become gfx90a's
// hardware global_atomic_add_f32 / flat_atomic_add_f64 (and ds_add_f32 in
// shared memory) instead of compare-and-swap loops.
// hipcc-flags: -munsafe-fp-atomics -DAPP_NAME="atomics_hw"
#include "atomics_fp.hip"
