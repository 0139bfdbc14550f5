// dispatch.c drives a whole kernel launch through rocpu's
// libhsa-runtime64.so.1 the way HIP does underneath: load a code object
// (argv[1], built from testdata/kernels.cl) into an executable, find its
// kernels, write AQL dispatch packets into a queue, ring the doorbell,
// wait on the completion signal and check the result; then the AMD loader
// extension's view of it, profiling times, the empty-kernel round trip,
// and a faulting kernel reaching the queue's error callback and the system
// event handler.

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>

static int checks, failures;

#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    checks++;                                                                    \
    if (!(cond)) {                                                               \
      failures++;                                                                \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);   \
      fprintf(stderr, __VA_ARGS__);                                              \
      fprintf(stderr, "\n");                                                     \
    }                                                                            \
  } while (0)

#define OK(call)                                                                         \
  do {                                                                                   \
    hsa_status_t st_ = (call);                                                           \
    CHECK(st_ == HSA_STATUS_SUCCESS, "%s returned %#x", #call, (unsigned)st_);           \
  } while (0)

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t kernarg_pool, fine_pool;

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

static hsa_status_t find_pools(hsa_amd_memory_pool_t p, void *data) {
  (void)data;
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) kernarg_pool = p;
  else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) fine_pool = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t cpu_pools(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_CPU) return hsa_amd_agent_iterate_memory_pools(a, find_pools, NULL);
  return HSA_STATUS_SUCCESS;
}

struct kernel {
  uint64_t object;
  uint32_t kernarg_size, group_size, private_size;
};

static struct kernel get_kernel(hsa_executable_t exe, const char *name) {
  struct kernel k = {0};
  hsa_executable_symbol_t sym = {0};
  OK(hsa_executable_get_symbol_by_name(exe, name, &gpu, &sym));
  hsa_symbol_kind_t kind = 99;
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  CHECK(kind == HSA_SYMBOL_KIND_KERNEL, "%s has kind %d", name, kind);
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k.object));
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k.kernarg_size));
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &k.group_size));
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_size));
  uint32_t len = 0;
  OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len));
  char buf[128];
  memset(buf, '#', sizeof(buf));
  if (len < sizeof(buf)) OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME, buf));
  CHECK(len == strlen(name) && strncmp(buf, name, len) == 0 && buf[len] == '#',
        "symbol name %.*s (length %u) for %s, or written past its length", (int)len, buf, len, name);
  CHECK(k.object != 0 && (k.object & 63) == 0, "kernel object %#llx", (unsigned long long)k.object);
  return k;
}

// dispatch writes one kernel dispatch packet and rings the doorbell.
static void dispatch(hsa_queue_t *q, struct kernel k, void *kernarg, uint32_t grid, uint32_t wg, hsa_signal_t done) {
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) {
  }
  hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx & (q->size - 1));
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->workgroup_size_x = (uint16_t)wg;
  p->workgroup_size_y = 1;
  p->workgroup_size_z = 1;
  p->grid_size_x = grid;
  p->grid_size_y = 1;
  p->grid_size_z = 1;
  p->kernel_object = k.object;
  p->kernarg_address = kernarg;
  p->group_segment_size = k.group_size;
  p->private_segment_size = k.private_size;
  p->completion_signal = done;
  uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  uint16_t setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  __atomic_store_n((uint32_t *)p, header | ((uint32_t)setup << 16), __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static hsa_status_t count_lco(hsa_executable_t e, hsa_loaded_code_object_t l, void *data) {
  (void)e;
  *(hsa_loaded_code_object_t *)data = l;
  return HSA_STATUS_SUCCESS;
}

static volatile int queue_errors;
static volatile hsa_status_t queue_error_status;
static void on_queue_error(hsa_status_t st, hsa_queue_t *q, void *data) {
  (void)q;
  queue_error_status = st;
  queue_errors++;
  CHECK(data == (void *)&queue_errors, "queue callback data %p", data);
}

static volatile int fault_events;
static volatile uint64_t fault_address;
static hsa_status_t on_event(const hsa_amd_event_t *ev, void *data) {
  (void)data;
  if (ev->event_type == HSA_AMD_GPU_MEMORY_FAULT_EVENT) {
    fault_address = ev->memory_fault.virtual_address;
    fault_events++;
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

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dispatch CODE_OBJECT\n");
    return 2;
  }
  OK(hsa_init());
  hsa_iterate_agents(find_gpu, NULL);
  hsa_iterate_agents(cpu_pools, NULL);
  CHECK(gpu.handle != 0 && kernarg_pool.handle != 0 && fine_pool.handle != 0, "no GPU or pools");

  // Load the code object from its file.
  int fd = open(argv[1], O_RDONLY);
  CHECK(fd >= 0, "open %s", argv[1]);
  hsa_code_object_reader_t reader = {0};
  OK(hsa_code_object_reader_create_from_file(fd, &reader));
  hsa_executable_t exe = {0};
  OK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exe));
  hsa_loaded_code_object_t lco = {0};
  OK(hsa_executable_load_agent_code_object(exe, gpu, reader, NULL, &lco));
  OK(hsa_executable_freeze(exe, NULL));
  uint32_t valid = 99;
  OK(hsa_executable_validate(exe, &valid));
  CHECK(valid == 0, "validate result %u", valid);
  struct kernel add = get_kernel(exe, "add_index.kd");
  struct kernel empty = get_kernel(exe, "empty.kd");
  struct kernel store = get_kernel(exe, "store_to.kd");
  CHECK(add.kernarg_size == 12 && empty.kernarg_size == 0, "kernarg sizes %u %u", add.kernarg_size,
        empty.kernarg_size);
  hsa_executable_symbol_t none;
  CHECK(hsa_executable_get_symbol_by_name(exe, "nosuch.kd", &gpu, &none) == HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
        "lookup of a missing symbol");

  // The loader extension sees the executable, as HIP's URI locator does.
  hsa_ven_amd_loader_1_03_pfn_t ld;
  OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(ld), &ld));
  hsa_loaded_code_object_t seen = {0};
  OK(ld.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exe, count_lco, &seen));
  CHECK(seen.handle == lco.handle, "iterated loaded code object %#llx, loaded %#llx",
        (unsigned long long)seen.handle, (unsigned long long)lco.handle);
  uint32_t urilen = 0;
  OK(ld.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH,
                                                       &urilen));
  char uri[512] = {0};
  if (urilen < sizeof(uri))
    OK(ld.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri));
  CHECK(strncmp(uri, "file://", 7) == 0 && strstr(uri, argv[1]) != NULL, "URI %s", uri);
  int storage_fd = -1;
  OK(ld.hsa_ven_amd_loader_loaded_code_object_get_info(
      lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE, &storage_fd));
  CHECK(storage_fd == fd, "storage file %d, opened %d", storage_fd, fd);
  uint64_t base = 0, size = 0;
  OK(ld.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base));
  OK(ld.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &size));
  CHECK(add.object >= base && add.object < base + size, "kernel object %#llx outside [%#llx, +%#llx)",
        (unsigned long long)add.object, (unsigned long long)base, (unsigned long long)size);
  hsa_executable_t owner = {0};
  OK(ld.hsa_ven_amd_loader_query_executable((void *)(uintptr_t)add.object, &owner));
  CHECK(owner.handle == exe.handle, "query_executable gave %#llx", (unsigned long long)owner.handle);
  const void *host = NULL;
  OK(ld.hsa_ven_amd_loader_query_host_address((void *)(uintptr_t)add.object, &host));
  CHECK(host == (void *)(uintptr_t)add.object, "host address %p", host);
  size_t nseg = 0;
  OK(ld.hsa_ven_amd_loader_query_segment_descriptors(NULL, &nseg));
  CHECK(nseg >= 1, "%zu segment descriptors", nseg);
  hsa_ven_amd_loader_segment_descriptor_t segs[16];
  if (nseg <= 16) {
    OK(ld.hsa_ven_amd_loader_query_segment_descriptors(segs, &nseg));
    CHECK(segs[0].executable.handle == exe.handle && segs[0].agent.handle == gpu.handle && segs[0].segment_size > 0,
          "segment 0: executable %#llx agent %#llx size %zu", (unsigned long long)segs[0].executable.handle,
          (unsigned long long)segs[0].agent.handle, segs[0].segment_size);
  }

  // One dispatch that computes something.
  hsa_queue_t *q = NULL;
  OK(hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, on_queue_error, (void *)&queue_errors, UINT32_MAX, UINT32_MAX,
                      &q));
  OK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  enum { N = 1000 };
  int *buf = NULL;
  OK(hsa_amd_memory_pool_allocate(fine_pool, N * sizeof(int), 0, (void **)&buf));
  for (int i = 0; i < N; i++) buf[i] = 1;
  struct {
    int *a;
    int n;
  } *args = NULL;
  OK(hsa_amd_memory_pool_allocate(kernarg_pool, 64, 0, (void **)&args));
  args->a = buf;
  args->n = N;
  hsa_signal_t done;
  OK(hsa_signal_create(1, 0, NULL, &done));
  dispatch(q, add, args, 1024, 64, done);
  hsa_signal_value_t v =
      hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 30ull * 1000 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED);
  CHECK(v == 0, "dispatch did not complete (signal %lld)", (long long)v);
  int wrong = 0;
  for (int i = 0; i < N; i++)
    if (buf[i] != 1 + i) wrong++;
  CHECK(wrong == 0, "%d of %d elements wrong (buf[5] = %d)", wrong, N, buf[5]);
  hsa_amd_profiling_dispatch_time_t tm = {0, 0};
  OK(hsa_amd_profiling_get_dispatch_time(gpu, done, &tm));
  CHECK(tm.start != 0 && tm.end >= tm.start, "dispatch time %llu..%llu", (unsigned long long)tm.start,
        (unsigned long long)tm.end);

  // Empty-kernel round trips: the path HIP takes for every launch.
  enum { RUNS = 300 };
  static uint64_t rt[RUNS];
  for (int i = 0; i < RUNS; i++) {
    hsa_signal_store_relaxed(done, 1);
    uint64_t t0 = now_ns();
    dispatch(q, empty, NULL, 1, 1, done);
    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    rt[i] = now_ns() - t0;
  }
  qsort(rt, RUNS, sizeof(rt[0]), cmp_u64);
  printf("empty dispatch round trip: median %.1f us, p90 %.1f us\n", rt[RUNS / 2] / 1000.0, rt[RUNS * 9 / 10] / 1000.0);
  CHECK(queue_errors == 0, "queue error %#x", queue_error_status);

  // Launches onto an idle queue: past its spin the packet processor
  // waits for the doorbell (woken through the eventfd, hsa/pollwake.go),
  // and a doorbell store from C must wake it at once, not at its idle
  // poll (1 s).
  uint64_t worst = 0;
  for (int i = 0; i < 5; i++) {
    usleep(5000);
    hsa_signal_store_relaxed(done, 1);
    uint64_t t0 = now_ns();
    dispatch(q, empty, NULL, 1, 1, done);
    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    uint64_t d = now_ns() - t0;
    if (d > worst) worst = d;
  }
  printf("empty dispatch on an idle queue: worst of 5 %.1f us\n", worst / 1000.0);
  CHECK(worst < 300ull * 1000 * 1000, "a launch on an idle queue took %.1f ms", worst / 1e6);

  // A kernel that stores to an unmapped address faults: the system event
  // handler and then the queue's error callback hear of it.
  OK(hsa_amd_register_system_event_handler(on_event, NULL));
  int **pargs = (int **)args;
  *pargs = (int *)(uintptr_t)0x10;
  hsa_signal_store_relaxed(done, 1);
  dispatch(q, store, args, 1, 1, done);
  for (int i = 0; i < 3000 && queue_errors == 0; i++) usleep(1000);
  CHECK(queue_errors == 1 && (int)queue_error_status == (int)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION,
        "%d queue errors, status %#x", queue_errors, queue_error_status);
  CHECK(fault_events == 1 && fault_address == 0x10, "%d fault events at %#llx", fault_events,
        (unsigned long long)fault_address);

  OK(hsa_signal_destroy(done));
  OK(hsa_queue_destroy(q));
  OK(hsa_amd_memory_pool_free(args));
  OK(hsa_amd_memory_pool_free(buf));
  OK(hsa_executable_destroy(exe));
  OK(hsa_code_object_reader_destroy(reader));
  close(fd);
  OK(hsa_shut_down());
  printf("dispatch: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
