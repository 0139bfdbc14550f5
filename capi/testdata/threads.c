// threads.c calls rocpu's libhsa-runtime64.so.1 from several threads at
// once, as HIP's threads do: producers reserve slots in one MULTI queue
// (add_write_index and the CAS loop), write barrier-AND packets whose
// completion signals they wait on, and create/destroy signals; meanwhile
// waiters block on one signal that the main thread releases.

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

enum { PRODUCERS = 4, PACKETS = 50, WAITERS = 4 };

static int failures;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, long long v) {
  pthread_mutex_lock(&mu);
  failures++;
  fprintf(stderr, "threads: %s (%lld)\n", what, v);
  pthread_mutex_unlock(&mu);
}

static hsa_agent_t gpu;
static hsa_queue_t *q;
static hsa_signal_t gate;

static hsa_status_t find_gpu(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU) gpu = a;
  return HSA_STATUS_SUCCESS;
}

static void submit_barrier(hsa_signal_t done, int use_cas) {
  uint64_t idx;
  if (use_cas) {
    // The CAS loop HIP's ROCclr uses on multi-producer queues.
    idx = hsa_queue_load_write_index_relaxed(q);
    for (;;) {
      uint64_t seen = hsa_queue_cas_write_index_scacq_screl(q, idx, idx + 1);
      if (seen == idx) break;
      idx = seen;
    }
  } else {
    idx = hsa_queue_add_write_index_scacq_screl(q, 1);
  }
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) {
  }
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->completion_signal = done;
  uint16_t header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  __atomic_store_n((uint32_t *)p, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static void *producer(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int i = 0; i < PACKETS; i++) {
    hsa_signal_t done;
    if (hsa_signal_create(1, 0, NULL, &done) != HSA_STATUS_SUCCESS) {
      fail("signal create", i);
      return NULL;
    }
    submit_barrier(done, (id + i) & 1);
    hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20ull * 1000 * 1000 * 1000,
                                                     (i & 1) ? HSA_WAIT_STATE_ACTIVE : HSA_WAIT_STATE_BLOCKED);
    if (v != 0) fail("packet not completed", v);
    if (hsa_signal_destroy(done) != HSA_STATUS_SUCCESS) fail("signal destroy", i);
  }
  return NULL;
}

static void *waiter(void *arg) {
  (void)arg;
  hsa_signal_value_t v =
      hsa_signal_wait_scacquire(gate, HSA_SIGNAL_CONDITION_LT, 1, 20ull * 1000 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED);
  if (v >= 1) fail("waiter woke before the gate opened, value", v);
  hsa_signal_add_relaxed(gate, -1);  // count ourselves out: the gate ends at -WAITERS
  return NULL;
}

int main(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(find_gpu, NULL);
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "threads: no queue\n");
    return 1;
  }
  hsa_signal_create(1, 0, NULL, &gate);
  pthread_t p[PRODUCERS], w[WAITERS];
  for (int i = 0; i < WAITERS; i++) pthread_create(&w[i], NULL, waiter, NULL);
  for (int i = 0; i < PRODUCERS; i++) pthread_create(&p[i], NULL, producer, (void *)(intptr_t)i);
  hsa_signal_store_screlease(gate, 0);
  for (int i = 0; i < PRODUCERS; i++) pthread_join(p[i], NULL);
  for (int i = 0; i < WAITERS; i++) pthread_join(w[i], NULL);
  if (hsa_signal_load_scacquire(gate) != -WAITERS) fail("gate", hsa_signal_load_scacquire(gate));
  uint64_t n = hsa_queue_load_read_index_scacquire(q);
  if (n != PRODUCERS * PACKETS || hsa_queue_load_write_index_relaxed(q) != n) fail("packets consumed", (long long)n);
  hsa_signal_destroy(gate);
  hsa_queue_destroy(q);
  hsa_shut_down();
  printf("threads: %d producers x %d packets, %d waiters, %d failed\n", PRODUCERS, PACKETS, WAITERS, failures);
  return failures ? 1 : 0;
}
