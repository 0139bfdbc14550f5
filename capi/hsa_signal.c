// hsa_signal.c: signals and queues. The value operations and the queue
// index operations are the hot, lock-free paths HIP polls: they run here
// directly on amd_signal_t.value and amd_queue_t's dispatch ids, and enter
// Go only to wake waiters after a signal changes (DESIGN.md "Signals and
// waking"). A zero handle is ignored rather than dereferenced.

#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "_cgo_export.h"
#include "capi.h"

_Static_assert(sizeof(amd_signal_t) == 64, "amd_signal_t is 64 bytes");
_Static_assert(offsetof(amd_signal_t, value) == 8, "amd_signal_t.value at 8");
_Static_assert(offsetof(amd_queue_t, write_dispatch_id) == 56, "amd_queue_t.write_dispatch_id at 56");
_Static_assert(offsetof(amd_queue_t, read_dispatch_id) == 128, "amd_queue_t.read_dispatch_id at 128");

static inline volatile int64_t *sigval(hsa_signal_t s) {
  return &((amd_signal_t *)(uintptr_t)s.handle)->value;
}

// wake wakes whoever watches or sleeps on the signal just updated, and
// costs nothing when nobody does. Package hsa counts the goroutines that
// watch a signal on a Go channel (waiters, wait-any, async handlers,
// barrier packets) in amd_signal_t.reserved1 — those need a call into Go —
// and the threads that sleep in futex(2) (C waits after their spin, and a
// packet processor blocked on its doorbell where there is no eventfd) in
// reserved3[0]; those are woken here by bumping the wake sequence
// reserved3[1] and waking that word (hsa.Signal.sleep). All kinds raise
// their count before re-reading
// the value; the fence orders our value update before the loads of the
// counts (Dekker's protocol), so a zero count means the watcher will see
// the new value and no wake-up is lost.
//
// The low half of reserved3[0] counts those futex sleepers; its high half
// counts packet processors that wait on a Go channel instead (poll
// sleepers, hsa/pollwake.go: they hold none of Go's Ps while idle). For
// those, a write to the process-wide eventfd rocpu_wake_fd wakes a
// goroutine blocked in Go's netpoller, again without a call into Go.
int rocpu_wake_fd = -1;

static inline void wake(hsa_signal_t s) {
  amd_signal_t *a = (amd_signal_t *)(uintptr_t)s.handle;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  uint32_t n = __atomic_load_n(&a->reserved3[0], __ATOMIC_SEQ_CST);
  if ((n & 0xffff) != 0) {
    __atomic_fetch_add(&a->reserved3[1], 1, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, &a->reserved3[1], FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
  }
  if ((n >> 16) != 0) {
    int fd = __atomic_load_n(&rocpu_wake_fd, __ATOMIC_RELAXED);
    uint64_t one = 1;
    if (fd >= 0 && write(fd, &one, sizeof one) < 0) {
      // EAGAIN: the counter is saturated, so a wake-up is pending anyway.
    }
  }
  if (__atomic_load_n(&a->reserved1, __ATOMIC_SEQ_CST) != 0) rocpu_signal_wake(s.handle);
}

// Signal creation and destruction.

hsa_status_t HSA_API hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                       const hsa_agent_t *consumers, hsa_signal_t *signal) {
  return (hsa_status_t)rocpu_signal_create(initial_value, num_consumers,
                                           consumers == NULL ? NULL : (uint64_t *)&consumers->handle, 0,
                                           signal == NULL ? NULL : &signal->handle);
}

hsa_status_t HSA_API hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                           const hsa_agent_t *consumers, uint64_t attributes, hsa_signal_t *signal) {
  return (hsa_status_t)rocpu_signal_create(initial_value, num_consumers,
                                           consumers == NULL ? NULL : (uint64_t *)&consumers->handle, attributes,
                                           signal == NULL ? NULL : &signal->handle);
}

hsa_status_t HSA_API hsa_signal_destroy(hsa_signal_t signal) { return (hsa_status_t)rocpu_signal_destroy(signal.handle); }

hsa_status_t HSA_API hsa_amd_signal_value_pointer(hsa_signal_t signal, volatile hsa_signal_value_t **value_ptr) {
  hsa_status_t st = (hsa_status_t)rocpu_signal_valid(signal.handle);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (value_ptr == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *value_ptr = sigval(signal);
  return HSA_STATUS_SUCCESS;
}

// Value operations, one definition per memory order. The sequentially
// consistent orders (sc*) map to __ATOMIC_SEQ_CST; the plain acquire /
// release / acq_rel ones (deprecated in HSA 1.2) to their C11 orders.

#define LOAD(order, mo)                                                \
  hsa_signal_value_t HSA_API hsa_signal_load_##order(hsa_signal_t s) { \
    if (s.handle == 0) return 0;                                       \
    return __atomic_load_n(sigval(s), mo);                             \
  }
LOAD(relaxed, __ATOMIC_RELAXED)
LOAD(scacquire, __ATOMIC_SEQ_CST)
LOAD(acquire, __ATOMIC_ACQUIRE)

#define STORE(name, mo, wakes)                                                   \
  void HSA_API hsa_signal_##name(hsa_signal_t s, hsa_signal_value_t value) {    \
    if (s.handle == 0) return;                                                   \
    __atomic_store_n(sigval(s), value, mo);                                      \
    if (wakes) wake(s);                                                          \
  }
STORE(store_relaxed, __ATOMIC_RELAXED, 1)
STORE(store_screlease, __ATOMIC_SEQ_CST, 1)
STORE(store_release, __ATOMIC_RELEASE, 1)
STORE(silent_store_relaxed, __ATOMIC_RELAXED, 0)
STORE(silent_store_screlease, __ATOMIC_SEQ_CST, 0)

#define RMW(op, fetch, order, mo)                                                   \
  void HSA_API hsa_signal_##op##_##order(hsa_signal_t s, hsa_signal_value_t value) { \
    if (s.handle == 0) return;                                                      \
    fetch(sigval(s), value, mo);                                                    \
    wake(s);                                                                        \
  }
#define RMW_ALL(op, fetch)                          \
  RMW(op, fetch, relaxed, __ATOMIC_RELAXED)         \
  RMW(op, fetch, scacquire, __ATOMIC_SEQ_CST)       \
  RMW(op, fetch, screlease, __ATOMIC_SEQ_CST)       \
  RMW(op, fetch, scacq_screl, __ATOMIC_SEQ_CST)     \
  RMW(op, fetch, acquire, __ATOMIC_ACQUIRE)         \
  RMW(op, fetch, release, __ATOMIC_RELEASE)         \
  RMW(op, fetch, acq_rel, __ATOMIC_ACQ_REL)
RMW_ALL(add, __atomic_fetch_add)
RMW_ALL(subtract, __atomic_fetch_sub)
RMW_ALL(and, __atomic_fetch_and)
RMW_ALL(or, __atomic_fetch_or)
RMW_ALL(xor, __atomic_fetch_xor)

#define EXCHANGE(order, mo)                                                                          \
  hsa_signal_value_t HSA_API hsa_signal_exchange_##order(hsa_signal_t s, hsa_signal_value_t value) { \
    if (s.handle == 0) return 0;                                                                     \
    hsa_signal_value_t old = __atomic_exchange_n(sigval(s), value, mo);                              \
    wake(s);                                                                                         \
    return old;                                                                                      \
  }
EXCHANGE(relaxed, __ATOMIC_RELAXED)
EXCHANGE(scacquire, __ATOMIC_SEQ_CST)
EXCHANGE(screlease, __ATOMIC_SEQ_CST)
EXCHANGE(scacq_screl, __ATOMIC_SEQ_CST)
EXCHANGE(acquire, __ATOMIC_ACQUIRE)
EXCHANGE(release, __ATOMIC_RELEASE)
EXCHANGE(acq_rel, __ATOMIC_ACQ_REL)

// CAS returns the value observed; only a successful exchange wakes.
#define CAS(order, mo)                                                                             \
  hsa_signal_value_t HSA_API hsa_signal_cas_##order(hsa_signal_t s, hsa_signal_value_t expected,   \
                                                    hsa_signal_value_t value) {                    \
    if (s.handle == 0) return 0;                                                                   \
    hsa_signal_value_t old = expected;                                                             \
    if (__atomic_compare_exchange_n(sigval(s), &old, value, 0, mo, __ATOMIC_RELAXED)) {            \
      wake(s);                                                                                     \
      return expected;                                                                             \
    }                                                                                              \
    return old;                                                                                    \
  }
CAS(relaxed, __ATOMIC_RELAXED)
CAS(scacquire, __ATOMIC_SEQ_CST)
CAS(screlease, __ATOMIC_SEQ_CST)
CAS(scacq_screl, __ATOMIC_SEQ_CST)
CAS(acquire, __ATOMIC_ACQUIRE)
CAS(release, __ATOMIC_RELEASE)
CAS(acq_rel, __ATOMIC_ACQ_REL)

static int holds(hsa_signal_condition_t c, hsa_signal_value_t v, hsa_signal_value_t cmp) {
  switch (c) {
    case HSA_SIGNAL_CONDITION_EQ: return v == cmp;
    case HSA_SIGNAL_CONDITION_NE: return v != cmp;
    case HSA_SIGNAL_CONDITION_LT: return v < cmp;
    case HSA_SIGNAL_CONDITION_GTE: return v >= cmp;
  }
  return 0;
}

static inline uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// WAIT_SPIN_NS bounds the spin of a wait before it sleeps. A kernel that
// completes within it (every short dispatch HIP waits on) costs no system
// call on either side: the packet processor decrements the completion
// signal and finds nobody to wake. After the first microsecond the spin
// yields the core (on two cores the emulator needs it). Both wait-state
// hints spin, as ROCr's waits do before they sleep.
#define WAIT_SPIN_NS 20000u

// Sleeping waits re-read the value at least every WAIT_POLL_MAX_NS, which
// catches stores that wake nobody (device stores without s_sendmsg), as
// package hsa's waits do.
#define WAIT_POLL_MIN_NS 50000u
#define WAIT_POLL_MAX_NS 2000000u

static inline hsa_signal_value_t load_value(hsa_signal_t s, int mo) {
  return mo == __ATOMIC_RELAXED ? __atomic_load_n(sigval(s), __ATOMIC_RELAXED)
                                : __atomic_load_n(sigval(s), __ATOMIC_SEQ_CST);
}

// wait_slow is a wait whose first check failed: spin, then sleep in
// futex(2) on the signal's wake sequence (see wake) until the condition
// holds or the timeout passes. A signal that is not a live user signal
// (destroyed: package hsa sets its kind to INVALID) goes to Go, which
// answers for stale handles.
static hsa_signal_value_t wait_slow(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t cmp,
                                    uint64_t timeout, hsa_wait_state_t state, int mo) {
  amd_signal_t *a = (amd_signal_t *)(uintptr_t)s.handle;
  uint64_t t0 = now_ns(), el = 0;
  hsa_signal_value_t v;
  for (unsigned i = 0;; i++) {
    for (int j = 0; j < 16; j++) {
      v = load_value(s, mo);
      if (holds(c, v, cmp)) return v;
      __builtin_ia32_pause();
    }
    el = now_ns() - t0;
    if (el >= timeout) return v;
    if (el >= WAIT_SPIN_NS) break;
    sched_yield();
  }
  // The sleeper count stays raised from here until the last access to the
  // signal, so hsa_shut_down (which waits for sleepers to leave) does not
  // unmap the signal under us.
  uint64_t poll = WAIT_POLL_MIN_NS;
  __atomic_fetch_add(&a->reserved3[0], 1, __ATOMIC_SEQ_CST);
  for (;;) {
    uint32_t seq = __atomic_load_n(&a->reserved3[1], __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&a->kind, __ATOMIC_SEQ_CST) != AMD_SIGNAL_KIND_USER) {
      __atomic_fetch_sub(&a->reserved3[0], 1, __ATOMIC_SEQ_CST);
      el = now_ns() - t0;
      if (el >= timeout) return 0;
      return rocpu_signal_wait(s.handle, (uint32_t)c, cmp, timeout == UINT64_MAX ? timeout : timeout - el,
                               (uint32_t)state);
    }
    v = load_value(s, mo);
    el = now_ns() - t0;
    if (holds(c, v, cmp) || el >= timeout) {
      __atomic_fetch_sub(&a->reserved3[0], 1, __ATOMIC_SEQ_CST);
      return v;
    }
    uint64_t d = timeout - el < poll ? timeout - el : poll;
    struct timespec ts = {(time_t)(d / 1000000000u), (long)(d % 1000000000u)};
    if (syscall(SYS_futex, &a->reserved3[1], FUTEX_WAIT_PRIVATE, seq, &ts, NULL, 0) == 0) {
      poll = WAIT_POLL_MIN_NS;
    } else if (poll < WAIT_POLL_MAX_NS) {
      poll *= 2;
    }
  }
}

// Waits check the condition here first (the common case when HIP waits on
// a signal that has already completed) and take the slow path otherwise;
// none enters Go while the signal is live.
#define WAIT(order, mo)                                                                               \
  hsa_signal_value_t HSA_API hsa_signal_wait_##order(hsa_signal_t s, hsa_signal_condition_t condition, \
                                                     hsa_signal_value_t compare_value, uint64_t timeout_hint, \
                                                     hsa_wait_state_t wait_state_hint) {               \
    if (s.handle == 0) return 0;                                                                      \
    hsa_signal_value_t v = __atomic_load_n(sigval(s), mo);                                            \
    if (holds(condition, v, compare_value) || timeout_hint == 0) return v;                            \
    return wait_slow(s, condition, compare_value, timeout_hint, wait_state_hint, mo);                 \
  }
WAIT(relaxed, __ATOMIC_RELAXED)
WAIT(scacquire, __ATOMIC_SEQ_CST)
WAIT(acquire, __ATOMIC_ACQUIRE)

uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
                                         hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                                         uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t *satisfying_value) {
  _Static_assert(sizeof(hsa_signal_condition_t) == sizeof(uint32_t), "hsa_signal_condition_t is 32-bit");
  if (signal_count == 0 || signals == NULL || conds == NULL || values == NULL) return UINT32_MAX;
  return rocpu_signal_wait_any(signal_count, &signals->handle, (uint32_t *)conds, values, timeout_hint,
                               (uint32_t)wait_hint, satisfying_value);
}

hsa_status_t HSA_API hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                                  hsa_signal_value_t value, hsa_amd_signal_handler handler,
                                                  void *arg) {
  return (hsa_status_t)rocpu_signal_async_handler(signal.handle, (uint32_t)cond, value, (void *)handler, arg);
}

hsa_status_t HSA_API hsa_amd_async_function(void (*callback)(void *arg), void *arg) {
  return (hsa_status_t)rocpu_async_function((void *)callback, arg);
}

// Signal groups.

hsa_status_t HSA_API hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t *signals,
                                             uint32_t num_consumers, const hsa_agent_t *consumers,
                                             hsa_signal_group_t *signal_group) {
  return (hsa_status_t)rocpu_signal_group_create(num_signals, signals == NULL ? NULL : (uint64_t *)&signals->handle,
                                                 num_consumers,
                                                 consumers == NULL ? NULL : (uint64_t *)&consumers->handle,
                                                 signal_group == NULL ? NULL : &signal_group->handle);
}

hsa_status_t HSA_API hsa_signal_group_destroy(hsa_signal_group_t signal_group) {
  return (hsa_status_t)rocpu_signal_group_destroy(signal_group.handle);
}

#define GROUP_WAIT(order)                                                                                  \
  hsa_status_t HSA_API hsa_signal_group_wait_any_##order(                                                  \
      hsa_signal_group_t signal_group, const hsa_signal_condition_t *conditions,                           \
      const hsa_signal_value_t *compare_values, hsa_wait_state_t wait_state_hint, hsa_signal_t *signal,    \
      hsa_signal_value_t *value) {                                                                         \
    return (hsa_status_t)rocpu_signal_group_wait_any(signal_group.handle, (uint32_t *)conditions,          \
                                                     (int64_t *)compare_values, (uint32_t)wait_state_hint, \
                                                     signal == NULL ? NULL : &signal->handle, value);      \
  }
GROUP_WAIT(relaxed)
GROUP_WAIT(scacquire)

// Queues. hsa_queue_t* is the amd_queue_t's address.

static inline amd_queue_t *amdq(const hsa_queue_t *q) { return (amd_queue_t *)(uintptr_t)q; }

hsa_status_t HSA_API hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                      void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data),
                                      void *data, uint32_t private_segment_size, uint32_t group_segment_size,
                                      hsa_queue_t **queue) {
  if (queue == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t q = 0;
  hsa_status_t st = (hsa_status_t)rocpu_queue_create(agent.handle, size, type, (void *)callback, data,
                                                     private_segment_size, group_segment_size, &q);
  if (st == HSA_STATUS_SUCCESS) *queue = (hsa_queue_t *)(uintptr_t)q;
  return st;
}

hsa_status_t HSA_API hsa_soft_queue_create(hsa_region_t region, uint32_t size, hsa_queue_type32_t type,
                                           uint32_t features, hsa_signal_t doorbell_signal, hsa_queue_t **queue) {
  (void)region, (void)size, (void)type, (void)features, (void)doorbell_signal, (void)queue;
  // Soft queues are serviced by the application's own agent; rocpu has
  // none to offer.
  return HSA_STATUS_ERROR;
}

hsa_status_t HSA_API hsa_queue_destroy(hsa_queue_t *queue) {
  return (hsa_status_t)rocpu_queue_op((uint64_t)(uintptr_t)queue, ROCPU_QUEUE_DESTROY, 0);
}

hsa_status_t HSA_API hsa_queue_inactivate(hsa_queue_t *queue) {
  return (hsa_status_t)rocpu_queue_op((uint64_t)(uintptr_t)queue, ROCPU_QUEUE_INACTIVATE, 0);
}

hsa_status_t HSA_API hsa_amd_queue_set_priority(hsa_queue_t *queue, hsa_amd_queue_priority_t priority) {
  if (priority < HSA_AMD_QUEUE_PRIORITY_LOW || priority > HSA_AMD_QUEUE_PRIORITY_HIGH)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return (hsa_status_t)rocpu_queue_op((uint64_t)(uintptr_t)queue, ROCPU_QUEUE_PRIORITY, priority);
}

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable) {
  return (hsa_status_t)rocpu_queue_op((uint64_t)(uintptr_t)queue, ROCPU_QUEUE_PROFILING, enable);
}

hsa_status_t HSA_API hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                                               const uint32_t *cu_mask) {
  return (hsa_status_t)rocpu_queue_cu_mask((uint64_t)(uintptr_t)queue, 1, num_cu_mask_count, (uint32_t *)cu_mask);
}

hsa_status_t HSA_API hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                                               uint32_t *cu_mask) {
  return (hsa_status_t)rocpu_queue_cu_mask((uint64_t)(uintptr_t)queue, 0, num_cu_mask_count, cu_mask);
}

#define LOAD_INDEX(which, field, order, mo)                                        \
  uint64_t HSA_API hsa_queue_load_##which##_index_##order(const hsa_queue_t *q) { \
    if (q == NULL) return 0;                                                       \
    return __atomic_load_n(&amdq(q)->field, mo);                                   \
  }
LOAD_INDEX(read, read_dispatch_id, relaxed, __ATOMIC_RELAXED)
LOAD_INDEX(read, read_dispatch_id, scacquire, __ATOMIC_SEQ_CST)
LOAD_INDEX(read, read_dispatch_id, acquire, __ATOMIC_ACQUIRE)
LOAD_INDEX(write, write_dispatch_id, relaxed, __ATOMIC_RELAXED)
LOAD_INDEX(write, write_dispatch_id, scacquire, __ATOMIC_SEQ_CST)
LOAD_INDEX(write, write_dispatch_id, acquire, __ATOMIC_ACQUIRE)

#define STORE_INDEX(which, field, order, mo)                                                  \
  void HSA_API hsa_queue_store_##which##_index_##order(const hsa_queue_t *q, uint64_t value) { \
    if (q == NULL) return;                                                                    \
    __atomic_store_n(&amdq(q)->field, value, mo);                                             \
  }
STORE_INDEX(read, read_dispatch_id, relaxed, __ATOMIC_RELAXED)
STORE_INDEX(read, read_dispatch_id, screlease, __ATOMIC_SEQ_CST)
STORE_INDEX(read, read_dispatch_id, release, __ATOMIC_RELEASE)
STORE_INDEX(write, write_dispatch_id, relaxed, __ATOMIC_RELAXED)
STORE_INDEX(write, write_dispatch_id, screlease, __ATOMIC_SEQ_CST)
STORE_INDEX(write, write_dispatch_id, release, __ATOMIC_RELEASE)

#define ADD_WRITE(order, mo)                                                                \
  uint64_t HSA_API hsa_queue_add_write_index_##order(const hsa_queue_t *q, uint64_t value) { \
    if (q == NULL) return 0;                                                                \
    return __atomic_fetch_add(&amdq(q)->write_dispatch_id, value, mo);                      \
  }
#define CAS_WRITE(order, mo)                                                                      \
  uint64_t HSA_API hsa_queue_cas_write_index_##order(const hsa_queue_t *q, uint64_t expected,     \
                                                     uint64_t value) {                            \
    if (q == NULL) return 0;                                                                      \
    uint64_t old = expected;                                                                      \
    __atomic_compare_exchange_n(&amdq(q)->write_dispatch_id, &old, value, 0, mo, __ATOMIC_RELAXED); \
    return old;                                                                                   \
  }
#define WRITE_ALL(M)                    \
  M(relaxed, __ATOMIC_RELAXED)          \
  M(scacquire, __ATOMIC_SEQ_CST)        \
  M(screlease, __ATOMIC_SEQ_CST)        \
  M(scacq_screl, __ATOMIC_SEQ_CST)      \
  M(acquire, __ATOMIC_ACQUIRE)          \
  M(release, __ATOMIC_RELEASE)          \
  M(acq_rel, __ATOMIC_ACQ_REL)
WRITE_ALL(ADD_WRITE)
WRITE_ALL(CAS_WRITE)

// Trampolines for Go (capi.h).

void capi_call_queue_error(void *cb, int32_t status, uint64_t queue, void *data) {
  ((void (*)(hsa_status_t, hsa_queue_t *, void *))cb)((hsa_status_t)status, (hsa_queue_t *)(uintptr_t)queue, data);
}

bool capi_call_signal_handler(void *fn, int64_t value, void *arg) {
  return ((hsa_amd_signal_handler)fn)(value, arg);
}

void capi_call_async_function(void *fn, void *arg) { ((void (*)(void *))fn)(arg); }
