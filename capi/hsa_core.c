// hsa_core.c: the runtime, system, agent, ISA, cache, wavefront, region,
// memory-pool and memory functions of hsa.h and hsa_ext_amd.h, defined
// against the Debian libhsa-runtime-dev 5.2.3 headers so that the compiler
// checks every prototype. Each calls its Go export (_cgo_export.h).

#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "_cgo_export.h"
#include "capi.h"
#include "capi_internal.h"

// _amdgpu_r_debug is the loader's debugger rendezvous structure that ROCr
// exports (version ROCR_1) for ROCgdb. rocpu loads nothing a GPU debugger
// could attach to, so its list stays empty.
struct r_debug _amdgpu_r_debug = {.r_version = 1, .r_state = RT_CONSISTENT};

// rocpu_fini prints the --stats summary of `rocpu exec` (ROCPU_STATS set).
// A library destructor runs after those of the libraries that depend on
// it, so HIP's queues have done their last work by then.
__attribute__((destructor)) static void rocpu_fini(void) {
  const char *s = getenv("ROCPU_STATS");
  if (s != NULL && s[0] != '\0' && s[0] != '0') rocpu_stats_report();
}

hsa_status_t rocpu_iterate(int kind, uint64_t a, uint64_t b, rocpu_visit_fn visit, void *ctx) {
  uint64_t stackbuf[64];
  uint64_t *buf = stackbuf;
  size_t n = 0;
  hsa_status_t st = (hsa_status_t)rocpu_list(kind, a, b, buf, 64, &n);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (n > 64) {
    buf = malloc(n * sizeof(uint64_t));
    if (buf == NULL) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    size_t m = 0;
    st = (hsa_status_t)rocpu_list(kind, a, b, buf, n, &m);
    if (st != HSA_STATUS_SUCCESS) {
      free(buf);
      return st;
    }
    if (m < n) n = m;
  }
  for (size_t i = 0; i < n; i++) {
    st = visit(buf[i], ctx);
    if (st != HSA_STATUS_SUCCESS) break;
  }
  if (buf != stackbuf) free(buf);
  return st;
}

// Runtime.

hsa_status_t HSA_API hsa_init(void) { return (hsa_status_t)rocpu_init(); }

hsa_status_t HSA_API hsa_shut_down(void) { return (hsa_status_t)rocpu_shut_down(); }

hsa_status_t HSA_API hsa_status_string(hsa_status_t status, const char **status_string) {
  return (hsa_status_t)rocpu_status_string((int32_t)status, (char **)status_string);
}

hsa_status_t HSA_API hsa_system_get_info(hsa_system_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_system_get_info((uint32_t)attribute, value);
}

hsa_status_t HSA_API hsa_extension_get_name(uint16_t extension, const char **name) {
  if (name == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (extension) {
    case HSA_EXTENSION_FINALIZER: *name = "HSA_EXTENSION_FINALIZER"; break;
    case HSA_EXTENSION_IMAGES: *name = "HSA_EXTENSION_IMAGES"; break;
    case HSA_EXTENSION_PERFORMANCE_COUNTERS: *name = "HSA_EXTENSION_PERFORMANCE_COUNTERS"; break;
    case HSA_EXTENSION_PROFILING_EVENTS: *name = "HSA_EXTENSION_PROFILING_EVENTS"; break;
    case HSA_EXTENSION_AMD_PROFILER: *name = "HSA_EXTENSION_AMD_PROFILER"; break;
    case HSA_EXTENSION_AMD_LOADER: *name = "HSA_EXTENSION_AMD_LOADER"; break;
    case HSA_EXTENSION_AMD_AQLPROFILE: *name = "HSA_EXTENSION_AMD_AQLPROFILE"; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_extension_supported(uint16_t extension, uint16_t version_major,
                                                    uint16_t version_minor, bool *result) {
  return (hsa_status_t)rocpu_extension_supported(0, 0, extension, version_major, version_minor, result);
}

hsa_status_t HSA_API hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
                                                          uint16_t *version_minor, bool *result) {
  if (version_minor == NULL || result == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // The highest minor version supported of this major version.
  for (int minor = 99; minor >= 0; minor--) {
    bool ok = false;
    hsa_status_t st = (hsa_status_t)rocpu_extension_supported(0, 0, extension, version_major, (uint16_t)minor, &ok);
    if (st != HSA_STATUS_SUCCESS) return st;
    if (ok) {
      *version_minor = (uint16_t)minor;
      *result = true;
      return HSA_STATUS_SUCCESS;
    }
  }
  *result = false;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                   uint16_t version_major, uint16_t version_minor,
                                                   bool *result) {
  return (hsa_status_t)rocpu_extension_supported(agent.handle, 1, extension, version_major, version_minor, result);
}

hsa_status_t HSA_API hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                         uint16_t version_major, uint16_t *version_minor,
                                                         bool *result) {
  if (version_minor == NULL || result == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (int minor = 99; minor >= 0; minor--) {
    bool ok = false;
    hsa_status_t st = (hsa_status_t)rocpu_extension_supported(agent.handle, 1, extension, version_major,
                                                              (uint16_t)minor, &ok);
    if (st != HSA_STATUS_SUCCESS) return st;
    if (ok) {
      *version_minor = (uint16_t)minor;
      *result = true;
      return HSA_STATUS_SUCCESS;
    }
  }
  *result = false;
  return HSA_STATUS_SUCCESS;
}

// Agents.

struct agent_ctx {
  hsa_status_t (*cb)(hsa_agent_t, void *);
  void *data;
};

static hsa_status_t visit_agent(uint64_t h, void *ctx) {
  struct agent_ctx *c = ctx;
  hsa_agent_t a = {h};
  return c->cb(a, c->data);
}

hsa_status_t HSA_API hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void *data), void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct agent_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_AGENTS, 0, 0, visit_agent, &c);
}

hsa_status_t HSA_API hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_agent_get_info(agent.handle, (uint32_t)attribute, value);
}

hsa_status_t HSA_API hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile, uint16_t *mask) {
  uint32_t dev;
  hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &dev);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (mask == NULL || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // The emulator neither breaks on nor detects floating-point exceptions.
  *mask = 0;
  return HSA_STATUS_SUCCESS;
}

struct cache_ctx {
  hsa_status_t (*cb)(hsa_cache_t, void *);
  void *data;
};

static hsa_status_t visit_cache(uint64_t h, void *ctx) {
  struct cache_ctx *c = ctx;
  hsa_cache_t x = {h};
  return c->cb(x, c->data);
}

hsa_status_t HSA_API hsa_agent_iterate_caches(hsa_agent_t agent,
                                              hsa_status_t (*callback)(hsa_cache_t cache, void *data),
                                              void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct cache_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_CACHES, agent.handle, 0, visit_cache, &c);
}

hsa_status_t HSA_API hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_cache_get_info(cache.handle, (uint32_t)attribute, value);
}

// ISAs and wavefronts.

struct isa_ctx {
  hsa_status_t (*cb)(hsa_isa_t, void *);
  void *data;
};

static hsa_status_t visit_isa(uint64_t h, void *ctx) {
  struct isa_ctx *c = ctx;
  hsa_isa_t x = {h};
  return c->cb(x, c->data);
}

hsa_status_t HSA_API hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void *data),
                                            void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct isa_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_ISAS, agent.handle, 0, visit_isa, &c);
}

hsa_status_t HSA_API hsa_isa_from_name(const char *name, hsa_isa_t *isa) {
  return (hsa_status_t)rocpu_isa_from_name((char *)name, isa == NULL ? NULL : &isa->handle);
}

hsa_status_t HSA_API hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index, void *value) {
  return (hsa_status_t)rocpu_isa_get_info(isa.handle, (uint32_t)attribute, index, value);
}

hsa_status_t HSA_API hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_isa_get_info(isa.handle, (uint32_t)attribute, 0, value);
}

hsa_status_t HSA_API hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t *mask) {
  uint32_t len;
  hsa_status_t st = hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (mask == NULL || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *mask = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type, hsa_flush_mode_t flush_mode,
                                              hsa_round_method_t *round_method) {
  uint32_t len;
  hsa_status_t st = hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (round_method == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (fp_type != HSA_FP_TYPE_16 && fp_type != HSA_FP_TYPE_32 && fp_type != HSA_FP_TYPE_64)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (flush_mode != HSA_FLUSH_MODE_FTZ && flush_mode != HSA_FLUSH_MODE_NON_FTZ)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // One rounding method per type and mode: the MODE register's, applied
  // the same way to every instruction.
  *round_method = HSA_ROUND_METHOD_SINGLE;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool *result) {
  return (hsa_status_t)rocpu_isa_compatible(code_object_isa.handle, agent_isa.handle, result);
}

struct wf_ctx {
  hsa_status_t (*cb)(hsa_wavefront_t, void *);
  void *data;
};

static hsa_status_t visit_wf(uint64_t h, void *ctx) {
  struct wf_ctx *c = ctx;
  hsa_wavefront_t x = {h};
  return c->cb(x, c->data);
}

hsa_status_t HSA_API hsa_isa_iterate_wavefronts(hsa_isa_t isa,
                                                hsa_status_t (*callback)(hsa_wavefront_t wavefront, void *data),
                                                void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct wf_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_WAVEFRONTS, isa.handle, 0, visit_wf, &c);
}

hsa_status_t HSA_API hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_wavefront_get_info(wavefront.handle, (uint32_t)attribute, value);
}

// Regions and memory pools (one object answers both, as in ROCr).

struct region_ctx {
  hsa_status_t (*cb)(hsa_region_t, void *);
  void *data;
};

static hsa_status_t visit_region(uint64_t h, void *ctx) {
  struct region_ctx *c = ctx;
  hsa_region_t x = {h};
  return c->cb(x, c->data);
}

hsa_status_t HSA_API hsa_agent_iterate_regions(hsa_agent_t agent,
                                               hsa_status_t (*callback)(hsa_region_t region, void *data),
                                               void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct region_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_POOLS, agent.handle, 0, visit_region, &c);
}

hsa_status_t HSA_API hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_region_get_info(region.handle, (uint32_t)attribute, value);
}

struct pool_ctx {
  hsa_status_t (*cb)(hsa_amd_memory_pool_t, void *);
  void *data;
};

static hsa_status_t visit_pool(uint64_t h, void *ctx) {
  struct pool_ctx *c = ctx;
  hsa_amd_memory_pool_t x = {h};
  return c->cb(x, c->data);
}

hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent,
                                                        hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool,
                                                                                 void *data),
                                                        void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct pool_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_POOLS, agent.handle, 0, visit_pool, &c);
}

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                                  hsa_amd_memory_pool_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_pool_get_info(memory_pool.handle, (uint32_t)attribute, value);
}

hsa_status_t HSA_API hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t memory_pool,
                                                        hsa_amd_agent_memory_pool_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_agent_pool_get_info(agent.handle, memory_pool.handle, (uint32_t)attribute, value);
}

// Memory.

hsa_status_t HSA_API hsa_memory_allocate(hsa_region_t region, size_t size, void **ptr) {
  return (hsa_status_t)rocpu_region_allocate(region.handle, size, ptr);
}

hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size, uint32_t flags,
                                                  void **ptr) {
  return (hsa_status_t)rocpu_pool_allocate(memory_pool.handle, size, flags, ptr);
}

// Deallocation callbacks (hsa_amd_register_deallocation_callback) run
// before a pool allocation is freed; they live here, in C, because they
// are C function pointers and are called from C.
struct dealloc_cb {
  void *ptr;
  hsa_amd_deallocation_callback_t cb;
  void *user_data;
  struct dealloc_cb *next;
};

static pthread_mutex_t dealloc_mu = PTHREAD_MUTEX_INITIALIZER;
static struct dealloc_cb *dealloc_list;

static void run_dealloc_callbacks(void *ptr) {
  for (;;) {
    // Unlink one callback at a time so that callbacks may register or
    // deregister others.
    pthread_mutex_lock(&dealloc_mu);
    struct dealloc_cb **pp = &dealloc_list, *found = NULL;
    for (; *pp != NULL; pp = &(*pp)->next) {
      if ((*pp)->ptr == ptr) {
        found = *pp;
        *pp = found->next;
        break;
      }
    }
    pthread_mutex_unlock(&dealloc_mu);
    if (found == NULL) return;
    found->cb(ptr, found->user_data);
    free(found);
  }
}

static hsa_status_t free_memory(void *ptr) {
  if (ptr == NULL) return (hsa_status_t)rocpu_free(ptr);
  // Check the pointer before the callbacks run: freeing a bad pointer
  // must not notify anyone.
  hsa_amd_pointer_info_t info = {.size = sizeof(info)};
  hsa_status_t st = hsa_amd_pointer_info(ptr, &info, NULL, NULL, NULL);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (info.type != HSA_EXT_POINTER_TYPE_HSA || info.agentBaseAddress != ptr)
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  run_dealloc_callbacks(ptr);
  return (hsa_status_t)rocpu_free(ptr);
}

hsa_status_t HSA_API hsa_memory_free(void *ptr) { return free_memory(ptr); }

hsa_status_t HSA_API hsa_amd_memory_pool_free(void *ptr) { return free_memory(ptr); }

hsa_status_t HSA_API hsa_amd_register_deallocation_callback(void *ptr, hsa_amd_deallocation_callback_t callback,
                                                            void *user_data) {
  if (ptr == NULL || callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_amd_pointer_info_t info = {.size = sizeof(info)};
  hsa_status_t st = hsa_amd_pointer_info(ptr, &info, NULL, NULL, NULL);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (info.type != HSA_EXT_POINTER_TYPE_HSA) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  struct dealloc_cb *d = malloc(sizeof(*d));
  if (d == NULL) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  d->ptr = info.agentBaseAddress;
  d->cb = callback;
  d->user_data = user_data;
  pthread_mutex_lock(&dealloc_mu);
  d->next = dealloc_list;
  dealloc_list = d;
  pthread_mutex_unlock(&dealloc_mu);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_deregister_deallocation_callback(void *ptr, hsa_amd_deallocation_callback_t callback) {
  if (ptr == NULL || callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&dealloc_mu);
  for (struct dealloc_cb **pp = &dealloc_list; *pp != NULL; pp = &(*pp)->next) {
    if ((*pp)->ptr == ptr && (*pp)->cb == callback) {
      struct dealloc_cb *d = *pp;
      *pp = d->next;
      pthread_mutex_unlock(&dealloc_mu);
      free(d);
      return HSA_STATUS_SUCCESS;
    }
  }
  pthread_mutex_unlock(&dealloc_mu);
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_memory_copy(void *dst, const void *src, size_t size) {
  hsa_status_t st = (hsa_status_t)rocpu_memory_check("hsa_memory_copy");
  if (st != HSA_STATUS_SUCCESS) return st;
  if (dst == NULL || src == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Every byte an agent can reach is host memory at the same address: a
  // synchronous copy is a memmove (the ranges may overlap).
  memmove(dst, src, size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count) {
  return (hsa_status_t)rocpu_memory_fill(ptr, value, count);
}

hsa_status_t HSA_API hsa_memory_register(void *ptr, size_t size) {
  return (hsa_status_t)rocpu_memory_register(ptr, size);
}

hsa_status_t HSA_API hsa_memory_deregister(void *ptr, size_t size) {
  return (hsa_status_t)rocpu_memory_deregister(ptr, size);
}

hsa_status_t HSA_API hsa_memory_assign_agent(void *ptr, hsa_agent_t agent, hsa_access_permission_t access) {
  if (access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (ptr == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return (hsa_status_t)rocpu_memory_assign_agent(ptr, agent.handle);
}

hsa_status_t HSA_API hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                                         void **agent_ptr) {
  return (hsa_status_t)rocpu_memory_lock(host_ptr, size, agents == NULL ? NULL : &agents->handle, num_agent, 0, 0, 0,
                                         agent_ptr);
}

hsa_status_t HSA_API hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                                                 hsa_amd_memory_pool_t pool, uint32_t flags, void **agent_ptr) {
  return (hsa_status_t)rocpu_memory_lock(host_ptr, size, agents == NULL ? NULL : &agents->handle, num_agent,
                                         pool.handle, 1, flags, agent_ptr);
}

hsa_status_t HSA_API hsa_amd_memory_unlock(void *host_ptr) { return (hsa_status_t)rocpu_memory_unlock(host_ptr); }

hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
                                                 const uint32_t *flags, const void *ptr) {
  if (flags != NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // reserved, must be NULL
  return (hsa_status_t)rocpu_allow_access(num_agents, agents == NULL ? NULL : (uint64_t *)&agents->handle,
                                          (void *)ptr);
}

hsa_status_t HSA_API hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info, void *(*alloc)(size_t),
                                          uint32_t *num_agents_accessible, hsa_agent_t **accessible) {
  if (info == NULL || info->size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_agents_accessible == NULL) != (accessible == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (accessible != NULL && alloc == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t type = 0, flags = 0, n = 0;
  uint64_t agent_base = 0, host_base = 0, user_data = 0, owner = 0;
  size_t size = 0;
  uint64_t acc[64];
  hsa_status_t st = (hsa_status_t)rocpu_pointer_info((void *)ptr, &type, &agent_base, &host_base, &size, &user_data,
                                                     &owner, &flags, acc, 64, &n);
  if (st != HSA_STATUS_SUCCESS) return st;
  hsa_amd_pointer_info_t full;
  memset(&full, 0, sizeof(full));
  full.size = info->size < sizeof(full) ? info->size : (uint32_t)sizeof(full);
  full.type = (hsa_amd_pointer_type_t)type;
  full.agentBaseAddress = (void *)(uintptr_t)agent_base;
  full.hostBaseAddress = (void *)(uintptr_t)host_base;
  full.sizeInBytes = size;
  full.userData = (void *)(uintptr_t)user_data;
  full.agentOwner.handle = owner;
  full.global_flags = flags;
  // Members past the caller's size are not written.
  memcpy(info, &full, full.size);
  if (accessible != NULL) {
    if (n > 64) n = 64;
    *num_agents_accessible = n;
    *accessible = NULL;
    if (n > 0) {
      hsa_agent_t *list = alloc(n * sizeof(hsa_agent_t));
      if (list == NULL) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      for (uint32_t i = 0; i < n; i++) list[i].handle = acc[i];
      *accessible = list;
    }
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata) {
  return (hsa_status_t)rocpu_pointer_set_userdata((void *)ptr, userdata);
}

hsa_status_t HSA_API hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                                               hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
                                               const hsa_signal_t *dep_signals, hsa_signal_t completion_signal) {
  return (hsa_status_t)rocpu_async_copy(dst, dst_agent.handle, (void *)src, src_agent.handle, size, num_dep_signals,
                                        dep_signals == NULL ? NULL : (uint64_t *)&dep_signals->handle,
                                        completion_signal.handle);
}

hsa_status_t HSA_API hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t *dst, const hsa_dim3_t *dst_offset,
                                                    const hsa_pitched_ptr_t *src, const hsa_dim3_t *src_offset,
                                                    const hsa_dim3_t *range, hsa_agent_t copy_agent,
                                                    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals,
                                                    const hsa_signal_t *dep_signals,
                                                    hsa_signal_t completion_signal) {
  _Static_assert(sizeof(hsa_pitched_ptr_t) == 3 * sizeof(uint64_t), "hsa_pitched_ptr_t layout");
  _Static_assert(sizeof(hsa_dim3_t) == 3 * sizeof(uint32_t), "hsa_dim3_t layout");
  return (hsa_status_t)rocpu_async_copy_rect((uint64_t *)dst, (uint32_t *)dst_offset, (uint64_t *)src,
                                             (uint32_t *)src_offset, (uint32_t *)range, copy_agent.handle,
                                             (uint32_t)dir, num_dep_signals,
                                             dep_signals == NULL ? NULL : (uint64_t *)&dep_signals->handle,
                                             completion_signal.handle);
}

// Coherency: every agent shares one cache-coherent address space, so the
// coherency type of system memory is always COHERENT; setting it is
// accepted for GPU agents (as ROCr does) and changes nothing.
hsa_status_t HSA_API hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t *type) {
  uint32_t dev;
  hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &dev);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (type == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (dev != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  *type = HSA_AMD_COHERENCY_TYPE_COHERENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type) {
  uint32_t dev;
  hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &dev);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (dev != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (type != HSA_AMD_COHERENCY_TYPE_COHERENT && type != HSA_AMD_COHERENCY_TYPE_NONCOHERENT)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

// Profiling.

hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                         hsa_amd_profiling_dispatch_time_t *time) {
  uint32_t dev;
  hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &dev);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (time == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return (hsa_status_t)rocpu_profiling_times(signal.handle, &time->start, &time->end);
}

hsa_status_t HSA_API hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
                                                           hsa_amd_profiling_async_copy_time_t *time) {
  if (time == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return (hsa_status_t)rocpu_profiling_times(signal.handle, &time->start, &time->end);
}

hsa_status_t HSA_API hsa_amd_profiling_async_copy_enable(bool enable) {
  (void)enable;
  // Asynchronous copies always record their start and end times.
  return (hsa_status_t)rocpu_memory_check("hsa_amd_profiling_async_copy_enable");
}

hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                                     uint64_t *system_tick) {
  uint32_t dev;
  hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &dev);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (system_tick == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Agents and the system share one 1 GHz clock (hsa.Timestamp).
  *system_tick = agent_tick;
  return HSA_STATUS_SUCCESS;
}

// System events: package hsa raises HSA_AMD_GPU_MEMORY_FAULT_EVENT for
// device memory faults, before the queue's error callback runs.
hsa_status_t HSA_API hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback, void *data) {
  return (hsa_status_t)rocpu_register_system_event_handler((void *)callback, data);
}

int32_t capi_call_system_event(void *cb, uint64_t agent, uint64_t address, uint32_t reasons, void *data) {
  hsa_amd_event_t ev;
  memset(&ev, 0, sizeof(ev));
  ev.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
  ev.memory_fault.agent.handle = agent;
  ev.memory_fault.virtual_address = address;
  ev.memory_fault.fault_reason_mask = reasons;
  return (int32_t)((hsa_amd_system_event_callback_t)cb)(&ev, data);
}
