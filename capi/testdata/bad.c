// bad.c feeds rocpu's libhsa-runtime64.so.1 bad input — NULL pointers,
// invalid and destroyed handles, wrong sizes, unsupported features — and
// checks each returned status. Nothing may crash, hang or write through a
// pointer after failing.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>
#include <hsa/hsa_ven_amd_loader.h>

static int checks, failures;

#define STATUS(want, call)                                                                                  \
  do {                                                                                                      \
    checks++;                                                                                               \
    hsa_status_t st_ = (call);                                                                              \
    if ((int)st_ != (int)(want)) {                                                                                 \
      failures++;                                                                                           \
      fprintf(stderr, "%s:%d: %s returned %#x, want %s (%#x)\n", __FILE__, __LINE__, #call, (unsigned)st_, \
              #want, (unsigned)(want));                                                                     \
    }                                                                                                       \
  } while (0)

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

static hsa_agent_t gpu, cpu;

static hsa_status_t pick(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU) gpu = a;
  else cpu = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_pool(hsa_amd_memory_pool_t p, void *data) {
  *(hsa_amd_memory_pool_t *)data = p;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t first_isa(hsa_isa_t isa, void *data) {
  (void)isa, (void)data;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t fail_cb(hsa_agent_t a, void *data) {
  (void)a, (void)data;
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

int main(void) {
  const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
  uint64_t out = sentinel;

  // Before hsa_init everything but hsa_init and hsa_status_string fails.
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_signal_create(0, 0, NULL, (hsa_signal_t *)&out));
  CHECK(out == sentinel, "signal written before init");
  const char *s;
  STATUS(HSA_STATUS_SUCCESS, hsa_status_string(HSA_STATUS_ERROR_NOT_INITIALIZED, &s));
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_amd_memory_pool_free(&out));
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED,
         hsa_ext_image_create(gpu, NULL, NULL, HSA_ACCESS_PERMISSION_RW, (hsa_ext_image_t *)&out));

  STATUS(HSA_STATUS_SUCCESS, hsa_init());
  STATUS(HSA_STATUS_SUCCESS, hsa_iterate_agents(pick, NULL));
  CHECK(gpu.handle != 0 && cpu.handle != 0, "agents %#llx %#llx", (unsigned long long)cpu.handle,
        (unsigned long long)gpu.handle);
  STATUS(HSA_STATUS_ERROR_OUT_OF_RESOURCES, hsa_iterate_agents(fail_cb, NULL));

  // NULL outputs.
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_status_string(HSA_STATUS_SUCCESS, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_signal_create(0, 0, NULL, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_isa_from_name(NULL, (hsa_isa_t *)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_agent_iterate_memory_pools(gpu, NULL, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_code_object_reader_create_from_memory(NULL, 10, (hsa_code_object_reader_t *)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_pointer_info(&out, NULL, NULL, NULL, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_memory_copy(NULL, &out, 8));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL, hsa_amd_signal_value_pointer((hsa_signal_t){0}, NULL));
  hsa_ext_image_descriptor_t idesc = {HSA_EXT_IMAGE_GEOMETRY_2D, 16, 16, 0, 0,
                                      {HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA}};
  hsa_ext_sampler_descriptor_t sdesc = {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                                        HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT};
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_ext_image_create(gpu, NULL, &out, HSA_ACCESS_PERMISSION_RW, (hsa_ext_image_t *)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_create(gpu, &idesc, &out, HSA_ACCESS_PERMISSION_RW, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_data_get_info(gpu, &idesc, HSA_ACCESS_PERMISSION_RW, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_sampler_create(gpu, NULL, (hsa_ext_sampler_t *)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_sampler_create(gpu, &sdesc, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_import(gpu, &out, 0, 0, (hsa_ext_image_t){0}, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_clear(gpu, (hsa_ext_image_t){0}, &out, NULL));

  // Invalid handles of every kind.
  hsa_agent_t bad_agent = {0xdead0};
  hsa_amd_memory_pool_t bad_pool = {0xdead0};
  hsa_region_t bad_region = {0xdead0};
  hsa_isa_t bad_isa = {0xdead0};
  hsa_signal_t bad_signal = {0xdead0};
  hsa_executable_t bad_exe = {0xdead0};
  hsa_executable_symbol_t bad_sym = {0xdead0};
  hsa_code_object_reader_t bad_reader = {0xdead0};
  hsa_cache_t bad_cache = {0xdead0};
  hsa_wavefront_t bad_wf = {0xdead0};
  char buf[64];
  out = sentinel;
  STATUS(HSA_STATUS_ERROR_INVALID_AGENT, hsa_agent_get_info(bad_agent, HSA_AGENT_INFO_NAME, buf));
  STATUS(HSA_STATUS_ERROR_INVALID_AGENT, hsa_agent_iterate_isas(bad_agent, first_isa, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_AGENT,
         hsa_queue_create(bad_agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, (hsa_queue_t **)&out));
  CHECK(out == sentinel, "queue written after failure");
  STATUS(HSA_STATUS_ERROR_INVALID_MEMORY_POOL, hsa_amd_memory_pool_get_info(bad_pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &out));
  STATUS(HSA_STATUS_ERROR_INVALID_MEMORY_POOL, hsa_amd_memory_pool_allocate(bad_pool, 4096, 0, (void **)&out));
  CHECK(out == sentinel, "pointer written after failure");
  STATUS(HSA_STATUS_ERROR_INVALID_REGION, hsa_region_get_info(bad_region, HSA_REGION_INFO_SIZE, &out));
  STATUS(HSA_STATUS_ERROR_INVALID_REGION, hsa_memory_allocate(bad_region, 4096, (void **)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ISA, hsa_isa_get_info_alt(bad_isa, HSA_ISA_INFO_NAME_LENGTH, &out));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL, hsa_signal_destroy(bad_signal));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL,
         hsa_amd_signal_async_handler(bad_signal, HSA_SIGNAL_CONDITION_EQ, 0, NULL, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_EXECUTABLE, hsa_executable_freeze(bad_exe, NULL));
  STATUS(HSA_STATUS_ERROR_INVALID_EXECUTABLE, hsa_executable_destroy(bad_exe));
  STATUS(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL,
         hsa_executable_symbol_get_info(bad_sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &out));
  STATUS(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, hsa_code_object_reader_destroy(bad_reader));
  STATUS(HSA_STATUS_ERROR_INVALID_CACHE, hsa_cache_get_info(bad_cache, HSA_CACHE_INFO_LEVEL, &out));
  STATUS(HSA_STATUS_ERROR_INVALID_WAVEFRONT, hsa_wavefront_get_info(bad_wf, HSA_WAVEFRONT_INFO_SIZE, &out));
  STATUS(HSA_STATUS_ERROR_INVALID_QUEUE, hsa_queue_destroy((hsa_queue_t *)buf));
  STATUS(HSA_STATUS_ERROR_INVALID_QUEUE, hsa_amd_queue_set_priority((hsa_queue_t *)buf, HSA_AMD_QUEUE_PRIORITY_LOW));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, hsa_signal_group_destroy((hsa_signal_group_t){77}));

  // Wrong sizes and values.
  hsa_amd_memory_pool_t pool = {0};
  hsa_amd_agent_iterate_memory_pools(gpu, first_pool, &pool);
  out = sentinel;
  CHECK(hsa_amd_memory_pool_allocate(pool, 4096, 0x80, (void **)&out) != HSA_STATUS_SUCCESS && out == sentinel,
        "allocation with unknown flags");
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_queue_create(gpu, 96, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, (hsa_queue_t **)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_queue_create(gpu, 1u << 20, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, (hsa_queue_t **)&out));
  CHECK(out == sentinel, "queue written after failure");
  STATUS(HSA_STATUS_ERROR_INVALID_ALLOCATION, hsa_amd_memory_pool_free(buf));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_unlock(buf));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_fill((char *)&out + 1, 0, 1));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_queue_set_priority(NULL, (hsa_amd_queue_priority_t)7));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, buf));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 2, sizeof(buf), buf));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 9, buf));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_system_get_extension_table(HSA_EXTENSION_IMAGES, 1, 2, buf));
  // Images: unsupported formats, sizes, pitches and sampler modes get the
  // extension's own statuses; bad handles and misaligned data
  // INVALID_ARGUMENT; nothing is written on failure.
  out = sentinel;
  hsa_ext_image_data_info_t iinfo;
  hsa_ext_image_descriptor_t d2 = idesc;
  d2.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA;
  STATUS(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, hsa_ext_image_data_get_info(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &iinfo));
  d2 = idesc;
  d2.geometry = HSA_EXT_IMAGE_GEOMETRY_2DDEPTH;
  STATUS(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, hsa_ext_image_data_get_info(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &iinfo));
  d2 = idesc;
  d2.width = 16385;
  STATUS(HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED, hsa_ext_image_data_get_info(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &iinfo));
  d2.width = 0;
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_data_get_info(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &iinfo));
  STATUS(HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED,
         hsa_ext_image_data_get_info_with_layout(gpu, &idesc, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                                                 16 * 16 + 4, 0, &iinfo));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_ext_image_create(gpu, &idesc, (char *)buf + 4, HSA_ACCESS_PERMISSION_RW, (hsa_ext_image_t *)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_AGENT, hsa_ext_image_create(cpu, &idesc, buf, HSA_ACCESS_PERMISSION_RW, (hsa_ext_image_t *)&out));
  sdesc.address_mode = (hsa_ext_sampler_addressing_mode32_t)9;
  STATUS(HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED, hsa_ext_sampler_create(gpu, &sdesc, (hsa_ext_sampler_t *)&out));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_destroy(gpu, (hsa_ext_image_t){(uint64_t)(uintptr_t)buf}));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_sampler_destroy(gpu, (hsa_ext_sampler_t){0}));
  CHECK(out == sentinel, "image or sampler written after failure");

  // Destroyed handles.
  hsa_signal_t sig;
  STATUS(HSA_STATUS_SUCCESS, hsa_signal_create(1, 0, NULL, &sig));
  STATUS(HSA_STATUS_SUCCESS, hsa_signal_destroy(sig));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL, hsa_signal_destroy(sig));
  volatile hsa_signal_value_t *vp = NULL;
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL, hsa_amd_signal_value_pointer(sig, &vp));
  CHECK(vp == NULL, "value pointer written for a destroyed signal");
  hsa_queue_t *q;
  STATUS(HSA_STATUS_SUCCESS, hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &q));
  STATUS(HSA_STATUS_SUCCESS, hsa_queue_destroy(q));
  STATUS(HSA_STATUS_ERROR_INVALID_QUEUE, hsa_queue_destroy(q));
  STATUS(HSA_STATUS_ERROR_INVALID_QUEUE, hsa_amd_profiling_set_profiler_enabled(q, 1));
  hsa_executable_t exe;
  STATUS(HSA_STATUS_SUCCESS, hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exe));
  STATUS(HSA_STATUS_SUCCESS, hsa_executable_freeze(exe, NULL));
  STATUS(HSA_STATUS_ERROR_FROZEN_EXECUTABLE, hsa_executable_freeze(exe, NULL));
  STATUS(HSA_STATUS_SUCCESS, hsa_executable_destroy(exe));
  STATUS(HSA_STATUS_ERROR_INVALID_EXECUTABLE, hsa_executable_destroy(exe));

  // Not supported: a clear error, nothing written.
  out = sentinel;
  STATUS(HSA_STATUS_ERROR, hsa_amd_image_create(gpu, NULL, NULL, NULL, HSA_ACCESS_PERMISSION_RW, (hsa_ext_image_t *)&out));
  STATUS(HSA_STATUS_ERROR, hsa_ext_program_create(HSA_MACHINE_MODEL_LARGE, HSA_PROFILE_BASE,
                                                  HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                                  (hsa_ext_program_t *)&out));
  STATUS(HSA_STATUS_ERROR, hsa_amd_ipc_memory_create(buf, 64, (hsa_amd_ipc_memory_t *)buf));
  STATUS(HSA_STATUS_ERROR, hsa_amd_svm_prefetch_async(buf, 64, gpu, 0, NULL, (hsa_signal_t){0}));
  STATUS(HSA_STATUS_ERROR, hsa_soft_queue_create(bad_region, 64, HSA_QUEUE_TYPE_MULTI, 0, bad_signal, &q));
  CHECK(out == sentinel, "output written by an unsupported function");

  STATUS(HSA_STATUS_SUCCESS, hsa_shut_down());
  printf("bad: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
