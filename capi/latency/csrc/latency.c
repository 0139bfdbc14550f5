// latency.c measures the empty-kernel dispatch round trip through
// libhsa-runtime64.so.1 on the path HIP takes for every launch: reserve a
// slot (hsa_queue_load_write_index / hsa_queue_store_write_index), write the
// AQL packet and publish its header, ring the doorbell
// (hsa_signal_store_screlease), and wait on the completion signal
// (hsa_signal_wait_scacquire). It is compiled by package
// github.com/rocpu/rocpu/capi/latency and run against the built library.
//
// usage: latency CODE_OBJECT KERNEL_SYMBOL RUNS
// Output, one line per wait state:
//   active median_ns p10_ns p90_ns min_ns
//   blocked median_ns p10_ns p90_ns min_ns

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#define DIE(...)                      \
  do {                                \
    fprintf(stderr, "latency: ");     \
    fprintf(stderr, __VA_ARGS__);     \
    fprintf(stderr, "\n");            \
    exit(1);                          \
  } while (0)

#define OK(call)                                                         \
  do {                                                                   \
    hsa_status_t st_ = (call);                                           \
    if (st_ != HSA_STATUS_SUCCESS) DIE("%s returned %#x", #call, (unsigned)st_); \
  } while (0)

static hsa_agent_t gpu;

static hsa_status_t find_gpu(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU) {
    gpu = a;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// launch is HIP's dispatch sequence (ROCclr VirtualGPU::dispatchAqlPacket):
// a single-producer reservation, the packet body, the header published last
// with a release store, and the doorbell.
static void launch(hsa_queue_t *q, uint64_t object, uint32_t group, uint32_t priv, hsa_signal_t done) {
  uint64_t idx = hsa_queue_load_write_index_relaxed(q);
  while (idx - hsa_queue_load_read_index_relaxed(q) >= q->size) {
  }
  hsa_queue_store_write_index_relaxed(q, idx + 1);
  hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx & (q->size - 1));
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->workgroup_size_x = 1;
  p->workgroup_size_y = 1;
  p->workgroup_size_z = 1;
  p->grid_size_x = 1;
  p->grid_size_y = 1;
  p->grid_size_z = 1;
  p->kernel_object = object;
  p->group_segment_size = group;
  p->private_segment_size = priv;
  p->completion_signal = done;
  uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  uint16_t setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  __atomic_store_n((uint32_t *)p, header | ((uint32_t)setup << 16), __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static void measure(const char *name, hsa_queue_t *q, uint64_t object, uint32_t group, uint32_t priv,
                    hsa_signal_t done, hsa_wait_state_t state, int runs) {
  uint64_t *rt = calloc((size_t)runs, sizeof(uint64_t));
  if (rt == NULL) DIE("out of memory");
  int warm = runs / 10;
  for (int i = -warm; i < runs; i++) {
    hsa_signal_store_relaxed(done, 1);
    uint64_t t0 = now_ns();
    launch(q, object, group, priv, done);
    while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, state) != 0) {
    }
    uint64_t t = now_ns() - t0;
    if (i >= 0) rt[i] = t;
  }
  qsort(rt, (size_t)runs, sizeof(rt[0]), cmp_u64);
  printf("%s %llu %llu %llu %llu\n", name, (unsigned long long)rt[runs / 2], (unsigned long long)rt[runs / 10],
         (unsigned long long)rt[runs * 9 / 10], (unsigned long long)rt[0]);
  free(rt);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: latency CODE_OBJECT KERNEL_SYMBOL RUNS\n");
    return 2;
  }
  int runs = atoi(argv[3]);
  if (runs < 10) DIE("RUNS must be at least 10");
  OK(hsa_init());
  hsa_iterate_agents(find_gpu, NULL);
  if (gpu.handle == 0) DIE("no GPU agent");
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) DIE("cannot open %s", argv[1]);
  hsa_code_object_reader_t reader;
  OK(hsa_code_object_reader_create_from_file(fd, &reader));
  hsa_executable_t exe;
  OK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exe));
  OK(hsa_executable_load_agent_code_object(exe, gpu, reader, NULL, NULL));
  OK(hsa_executable_freeze(exe, NULL));
  hsa_executable_symbol_t sym;
  OK(hsa_executable_get_symbol_by_name(exe, argv[2], &gpu, &sym));
  uint64_t object = 0;
  uint32_t group = 0, priv = 0;
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object));
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group));
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv));
  hsa_queue_t *q;
  OK(hsa_queue_create(gpu, 1024, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t done;
  OK(hsa_signal_create(1, 0, NULL, &done));
  measure("active", q, object, group, priv, done, HSA_WAIT_STATE_ACTIVE, runs);
  measure("blocked", q, object, group, priv, done, HSA_WAIT_STATE_BLOCKED, runs);
  OK(hsa_signal_destroy(done));
  OK(hsa_queue_destroy(q));
  OK(hsa_executable_destroy(exe));
  OK(hsa_code_object_reader_destroy(reader));
  close(fd);
  OK(hsa_shut_down());
  return 0;
}
