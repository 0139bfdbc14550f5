// api.c drives rocpu's libhsa-runtime64.so.1 through the HSA C API the way
// rocminfo and HIP do, and asserts the values it gets back. capi_test.go
// compiles it against the Debian headers and runs it; it prints one line
// per failed check and exits 1 if any failed.

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>
#include <hsa/hsa_ven_amd_loader.h>

static int checks, failures;

#define CHECK(cond, ...)                                            \
  do {                                                              \
    checks++;                                                       \
    if (!(cond)) {                                                  \
      failures++;                                                   \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                 \
      fprintf(stderr, "\n");                                        \
    }                                                               \
  } while (0)

#define OK(call)                                                                  \
  do {                                                                            \
    hsa_status_t st_ = (call);                                                    \
    CHECK(st_ == HSA_STATUS_SUCCESS, "%s returned %#x", #call, (unsigned)st_);    \
  } while (0)

#define STATUS(want, call)                                                                           \
  do {                                                                                               \
    hsa_status_t st_ = (call);                                                                       \
    CHECK((int)st_ == (int)(want), "%s returned %#x, want %s (%#x)", #call, (unsigned)st_, #want, (unsigned)(want)); \
  } while (0)

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// Agents.

static hsa_agent_t agents[8];
static int nagents;

static hsa_status_t collect_agent(hsa_agent_t a, void *data) {
  (void)data;
  if (nagents < 8) agents[nagents++] = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t stop_at_first(hsa_agent_t a, void *data) {
  (void)a;
  ++*(int *)data;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t first_isa(hsa_isa_t isa, void *data) {
  *(hsa_isa_t *)data = isa;
  return HSA_STATUS_SUCCESS;
}

struct pools {
  hsa_amd_memory_pool_t p[8];
  int n;
};

static hsa_status_t collect_pool(hsa_amd_memory_pool_t p, void *data) {
  struct pools *ps = data;
  if (ps->n < 8) ps->p[ps->n++] = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_kernarg_region(hsa_region_t r, void *data) {
  uint32_t flags = 0;
  hsa_region_segment_t seg;
  if (hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_KERNARG)) {
    *(hsa_region_t *)data = r;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static int ncaches;
static hsa_status_t count_cache(hsa_cache_t c, void *data) {
  (void)data;
  uint8_t level = 0;
  if (hsa_cache_get_info(c, HSA_CACHE_INFO_LEVEL, &level) == HSA_STATUS_SUCCESS && level >= 1) ncaches++;
  return HSA_STATUS_SUCCESS;
}

static void test_system(void) {
  uint16_t major = 0, minor = 0;
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
  CHECK(major == 1 && minor == 1, "HSA version %u.%u, want 1.1", major, minor);
  uint64_t freq = 0, ts1 = 0, ts2 = 0, maxwait = 0;
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  CHECK(freq == 1000000000ull, "timestamp frequency %llu, want 1 GHz", (unsigned long long)freq);
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts1));
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts2));
  CHECK(ts1 != 0 && ts2 >= ts1, "timestamps %llu then %llu", (unsigned long long)ts1, (unsigned long long)ts2);
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &maxwait));
  CHECK(maxwait == UINT64_MAX, "signal max wait %#llx", (unsigned long long)maxwait);
  hsa_endianness_t e = 99;
  hsa_machine_model_t m = 99;
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &e));
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &m));
  CHECK(e == HSA_ENDIANNESS_LITTLE && m == HSA_MACHINE_MODEL_LARGE, "endianness %d model %d", e, m);

  const char *s = NULL;
  OK(hsa_status_string(HSA_STATUS_ERROR_INVALID_AGENT, &s));
  CHECK(s != NULL && strstr(s, "agent") != NULL, "status string %s", s ? s : "(null)");
  OK(hsa_status_string(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, &s));
  CHECK(s != NULL && strlen(s) > 10, "status string %s", s ? s : "(null)");
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_status_string((hsa_status_t)0x7777, &s));

  bool ok = false;
  OK(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 0, &ok));
  CHECK(ok, "AMD loader 1.0 not supported");
  // Images are reported (HIP's hipMallocPitch needs their row-pitch
  // alignment); creating one is not supported.
  OK(hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &ok));
  CHECK(ok, "images not reported supported");
  OK(hsa_system_extension_supported(HSA_EXTENSION_FINALIZER, 1, 0, &ok));
  CHECK(!ok, "finalizer reported supported");
  uint16_t lminor = 0;
  OK(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &lminor, &ok));
  CHECK(ok && lminor == 3, "loader major 1: supported %d minor %u, want 1.03", ok, lminor);
  const char *name = NULL;
  OK(hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, &name));
  CHECK(name && strcmp(name, "HSA_EXTENSION_AMD_LOADER") == 0, "extension name %s", name ? name : "(null)");
}

static hsa_status_t count_exe(hsa_executable_t e, void *data) {
  (void)e;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static void test_loader_table(void) {
  // HIP asks for the 1.01 table by size; the rest must stay untouched.
  struct {
    hsa_ven_amd_loader_1_01_pfn_t t;
    void *guard;
  } small;
  memset(&small, 0, sizeof(small));
  small.guard = (void *)0x1234;
  OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(small.t), &small.t));
  CHECK(small.t.hsa_ven_amd_loader_query_host_address != NULL &&
            small.t.hsa_ven_amd_loader_loaded_code_object_get_info != NULL,
        "1.01 table not filled");
  CHECK(small.guard == (void *)0x1234, "table overflowed the 1.01 size");

  hsa_ven_amd_loader_1_03_pfn_t t;
  memset(&t, 0, sizeof(t));
  OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(t), &t));
  CHECK(t.hsa_ven_amd_loader_iterate_executables != NULL, "1.03 table has no iterate_executables");
  int n = 0;
  if (t.hsa_ven_amd_loader_iterate_executables) OK(t.hsa_ven_amd_loader_iterate_executables(count_exe, &n));
  CHECK(n == 0, "%d executables before any was created", n);
  hsa_executable_t e;
  if (t.hsa_ven_amd_loader_query_executable)
    STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, t.hsa_ven_amd_loader_query_executable(&n, &e));

  hsa_ven_amd_loader_1_00_pfn_t t0;
  OK(hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, &t0));
  CHECK(t0.hsa_ven_amd_loader_query_executable == t.hsa_ven_amd_loader_query_executable, "1.00 table differs");
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_system_get_major_extension_table(HSA_EXTENSION_FINALIZER, 1, sizeof(t), &t));

  // The images table: the 1.00 prefix by minor version, the newest by size.
  hsa_ext_images_1_pfn_t it;
  memset(&it, 0, sizeof(it));
  OK(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof(it), &it));
  CHECK(it.hsa_ext_image_create == hsa_ext_image_create && it.hsa_ext_sampler_destroy == hsa_ext_sampler_destroy &&
            it.hsa_ext_image_create_with_layout == hsa_ext_image_create_with_layout,
        "images 1.x table does not hold the library's functions");
  struct {
    hsa_ext_images_1_00_pfn_t t;
    void *after;
  } i0;
  i0.after = &i0;
  OK(hsa_system_get_extension_table(HSA_EXTENSION_IMAGES, 1, 0, &i0.t));
  CHECK(i0.t.hsa_ext_image_import == hsa_ext_image_import && i0.after == &i0, "images 1.00 table wrong or overrun");
}

// Images: a 2D float image over pool memory; its handle is the address of
// the descriptor words kernels read (hsa/imagesrd.go has the layout).
static void test_images(hsa_agent_t gpu, hsa_amd_memory_pool_t pool) {
  uint32_t dims[3] = {0, 0, 0};
  OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, dims));
  CHECK(dims[0] == 2048 && dims[1] == 2048 && dims[2] == 2048, "3D max %u %u %u (uint32, as ROCr)", dims[0], dims[1],
        dims[2]);
  uint32_t d2[3] = {0, 0, 7};
  OK(hsa_amd_image_get_info_max_dim(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, d2));
  CHECK(d2[0] == 16384 && d2[1] == 16384 && d2[2] == 7, "2D max %u %u (and %u untouched)", d2[0], d2[1], d2[2]);
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT,
         hsa_amd_image_get_info_max_dim(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS, d2));
  hsa_ext_image_format_t f = {HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_R};
  uint32_t cap = 0;
  OK(hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &f, &cap));
  CHECK(cap & HSA_EXT_IMAGE_CAPABILITY_READ_WRITE, "float R 2D capability %#x", cap);
  hsa_ext_image_format_t srgb = {HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA};
  OK(hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &srgb, &cap));
  CHECK(cap == 0, "sRGBA capability %#x, want 0", cap);

  hsa_ext_image_descriptor_t d = {HSA_EXT_IMAGE_GEOMETRY_2D, 37, 23, 0, 0, f};
  hsa_ext_image_data_info_t info = {0, 0};
  OK(hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info));
  CHECK(info.size == 256 * 23 && info.alignment == 256, "data info size %zu alignment %zu", info.size, info.alignment);
  void *data = NULL;
  OK(hsa_amd_memory_pool_allocate(pool, info.size, 0, &data));
  hsa_ext_image_t img = {0};
  OK(hsa_ext_image_create(gpu, &d, data, HSA_ACCESS_PERMISSION_RW, &img));
  const uint32_t *w = (const uint32_t *)(uintptr_t)img.handle;
  if (w != NULL) {
    CHECK(w[0] == (uint32_t)((uintptr_t)data >> 8), "T# base %#x", w[0]);
    CHECK((w[2] & 0x3fff) == 36 && (w[2] >> 14 & 0x3fff) == 22, "T# width/height word %#x", w[2]);
    CHECK(w[8] == HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT && w[9] == HSA_EXT_IMAGE_CHANNEL_ORDER_R && w[10] == 37,
          "words 8-10 %u %u %u", w[8], w[9], w[10]);
  }
  float row[37];
  for (int i = 0; i < 37; i++) row[i] = (float)i;
  hsa_ext_image_region_t r = {{0, 5, 0}, {37, 1, 1}};
  OK(hsa_ext_image_import(gpu, row, 0, 0, img, &r));
  CHECK(((float *)data)[5 * 64 + 36] == 36.0f, "import landed at %g", ((float *)data)[5 * 64 + 36]);
  float back[37];
  memset(back, 0, sizeof(back));
  OK(hsa_ext_image_export(gpu, img, back, 0, 0, &r));
  CHECK(back[7] == 7.0f, "export read %g", back[7]);
  float two = 2.0f;
  hsa_ext_image_region_t cr = {{30, 22, 0}, {7, 1, 1}};
  OK(hsa_ext_image_clear(gpu, img, &two, &cr));
  CHECK(((float *)data)[22 * 64 + 29] == 0.0f && ((float *)data)[22 * 64 + 30] == 2.0f &&
            ((float *)data)[22 * 64 + 36] == 2.0f && ((float *)data)[22 * 64 + 37] == 0.0f,
        "clear wrote %g %g %g %g", ((float *)data)[22 * 64 + 29], ((float *)data)[22 * 64 + 30],
        ((float *)data)[22 * 64 + 36], ((float *)data)[22 * 64 + 37]);
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_clear(gpu, img, NULL, &cr));
  hsa_ext_image_region_t past = {{0, 23, 0}, {37, 1, 1}};
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_import(gpu, row, 0, 0, img, &past));

  hsa_ext_sampler_descriptor_t sd = {HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
                                     HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE};
  hsa_ext_sampler_t smp = {0};
  OK(hsa_ext_sampler_create(gpu, &sd, &smp));
  const uint32_t *s = (const uint32_t *)(uintptr_t)smp.handle;
  if (s != NULL) CHECK(s[0] == (2 | 2 << 3 | 2 << 6 | 1 << 15), "S# word 0 %#x", s[0]);
  OK(hsa_ext_sampler_destroy(gpu, smp));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_sampler_destroy(gpu, smp));
  OK(hsa_ext_image_destroy(gpu, img));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_ext_image_destroy(gpu, img));
  OK(hsa_amd_memory_pool_free(data));
}

static void test_agents(hsa_agent_t *cpu, hsa_agent_t *gpu) {
  OK(hsa_iterate_agents(collect_agent, NULL));
  CHECK(nagents == 2, "%d agents, want 2 (CPU, gfx90a)", nagents);
  int visits = 0;
  STATUS(HSA_STATUS_INFO_BREAK, hsa_iterate_agents(stop_at_first, &visits));
  CHECK(visits == 1, "iteration went on after INFO_BREAK (%d visits)", visits);
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_iterate_agents(NULL, NULL));

  hsa_device_type_t t0 = 99, t1 = 99;
  OK(hsa_agent_get_info(agents[0], HSA_AGENT_INFO_DEVICE, &t0));
  OK(hsa_agent_get_info(agents[1], HSA_AGENT_INFO_DEVICE, &t1));
  CHECK(t0 == HSA_DEVICE_TYPE_CPU && t1 == HSA_DEVICE_TYPE_GPU, "device types %d, %d", t0, t1);
  *cpu = agents[0];
  *gpu = agents[1];

  char name[64], vendor[64], product[64], uuid[21];
  memset(name, 'x', sizeof(name));
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_NAME, name));
  CHECK(strcmp(name, "gfx90a") == 0, "GPU name %.64s", name);
  CHECK(name[63] == 0, "name not padded to 64 bytes");
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_VENDOR_NAME, vendor));
  CHECK(strcmp(vendor, "AMD") == 0, "GPU vendor %s", vendor);
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product));
  CHECK(strlen(product) > 0, "empty product name");
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid));
  CHECK(strncmp(uuid, "GPU-", 4) == 0 && strlen(uuid) == 20, "UUID %s", uuid);

  uint32_t feature = 0, wave = 0, wgmax = 0, qmin = 0, qmax = 0, qtype = 99, node = 99;
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_FEATURE, &feature));
  CHECK(feature == HSA_AGENT_FEATURE_KERNEL_DISPATCH, "feature %u", feature);
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
  CHECK(wave == 64, "wavefront size %u", wave);
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &wgmax));
  CHECK(wgmax == 1024, "workgroup max %u", wgmax);
  uint16_t dims[3] = {0};
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, dims));
  CHECK(dims[0] == 1024 && dims[1] == 1024 && dims[2] == 1024, "workgroup max dims %u %u %u", dims[0], dims[1],
        dims[2]);
  hsa_dim3_t grid = {0};
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_GRID_MAX_DIM, &grid));
  CHECK(grid.x == UINT32_MAX && grid.y == UINT32_MAX && grid.z == UINT32_MAX, "grid max %u %u %u", grid.x, grid.y,
        grid.z);
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax));
  CHECK(qmin == 64 && qmax == 131072, "queue sizes %u..%u", qmin, qmax);
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_QUEUE_TYPE, &qtype));
  CHECK(qtype == HSA_QUEUE_TYPE_MULTI, "queue type %u", qtype);
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_NODE, &node));
  CHECK(node == 1, "GPU node %u", node);
  hsa_profile_t prof = 99;
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_PROFILE, &prof));
  CHECK(prof == HSA_PROFILE_BASE, "GPU profile %d, want BASE (FULL makes ROCclr an APU)", prof);
  uint32_t caches[4] = {0};
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_CACHE_SIZE, caches));
  CHECK(caches[0] > 0 && caches[1] > 0, "cache sizes %u %u", caches[0], caches[1]);
  hsa_isa_t isa0 = {0};
  OK(hsa_agent_get_info(*gpu, HSA_AGENT_INFO_ISA, &isa0));
  CHECK(isa0.handle != 0, "HSA_AGENT_INFO_ISA is 0");

  uint32_t cus = 0, simds = 0, waves = 0, chip = 0, bdf = 0, domain = 99, cacheline = 0, clock = 0;
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, &simds));
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU, &waves));
  CHECK(cus > 0 && simds == 4 && waves > 0, "CUs %u SIMDs %u waves/CU %u", cus, simds, waves);
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip));
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &bdf));
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DOMAIN, &domain));
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CACHELINE_SIZE, &cacheline));
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, &clock));
  CHECK(chip != 0 && cacheline == 64 && clock > 0, "chip %#x cacheline %u clock %u", chip, cacheline, clock);
  // HIP 5.2 offers hipLaunchCooperativeKernel only when COOPERATIVE_QUEUES
  // is true; it sizes cooperative grids by COOPERATIVE_COMPUTE_UNIT_COUNT.
  bool coop = false;
  uint32_t coop_cus = 0;
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, &coop));
  CHECK(coop, "cooperative queues not reported");
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT, &coop_cus));
  CHECK(coop_cus == cus, "cooperative CU count %u, CU count %u", coop_cus, cus);
  hsa_amd_hdp_flush_t hdp = {0};
  OK(hsa_agent_get_info(*gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &hdp));
  CHECK(hdp.HDP_MEM_FLUSH_CNTL != NULL && hdp.HDP_REG_FLUSH_CNTL != NULL, "HDP flush registers NULL");
  if (hdp.HDP_MEM_FLUSH_CNTL) *hdp.HDP_MEM_FLUSH_CNTL = 1;  // HIP writes them; must not fault
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_agent_get_info(*gpu, (hsa_agent_info_t)0x7fff, &cus));

  // ISA.
  hsa_isa_t isa = {0};
  OK(hsa_agent_iterate_isas(*gpu, first_isa, &isa));
  CHECK(isa.handle == isa0.handle, "iterate_isas gives %#llx, agent info %#llx", (unsigned long long)isa.handle,
        (unsigned long long)isa0.handle);
  uint32_t len = 0;
  OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
  char *isaname = calloc(1, len + 1);
  OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isaname));
  CHECK(strcmp(isaname, "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-") == 0, "ISA %s", isaname);
  CHECK(len == strlen(isaname) + 1, "ISA name length %u for %zu characters", len, strlen(isaname));
  hsa_isa_t byname = {0};
  OK(hsa_isa_from_name(isaname, &byname));
  bool compat = false;
  OK(hsa_isa_compatible(byname, isa, &compat));
  CHECK(compat, "ISA not compatible with itself");
  STATUS(HSA_STATUS_ERROR_INVALID_ISA_NAME, hsa_isa_from_name("amdgcn-amd-amdhsa--gfx9999", &byname));
  free(isaname);
  bool profiles[2] = {false, false};
  OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_PROFILES, profiles));
  CHECK(profiles[0] && !profiles[1], "ISA profiles base %d full %d", profiles[0], profiles[1]);
  uint32_t wf = 0;
  OK(hsa_isa_get_info(isa, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 0, &wf));
  CHECK(wf == 64, "call convention wavefront size %u", wf);
  hsa_isa_t none = {0};
  CHECK(hsa_agent_iterate_isas(*cpu, first_isa, &none) == HSA_STATUS_SUCCESS && none.handle == 0,
        "the CPU agent has an ISA");
  OK(hsa_agent_iterate_caches(*gpu, count_cache, NULL));
  CHECK(ncaches >= 2, "%d GPU caches", ncaches);
  bool ext = false;
  OK(hsa_agent_extension_supported(HSA_EXTENSION_AMD_LOADER, *gpu, 1, 0, &ext));
  CHECK(ext, "GPU does not support the loader extension");
}

static void *dealloc_ptr, *dealloc_data;
static int dealloc_calls;
static void on_dealloc(void *ptr, void *user_data) {
  dealloc_calls++;
  dealloc_ptr = ptr;
  dealloc_data = user_data;
}

static uint32_t pool_flags(hsa_amd_memory_pool_t p) {
  uint32_t f = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  return f;
}

static void test_memory(hsa_agent_t cpu, hsa_agent_t gpu) {
  struct pools cp = {0}, gp = {0};
  OK(hsa_amd_agent_iterate_memory_pools(cpu, collect_pool, &cp));
  OK(hsa_amd_agent_iterate_memory_pools(gpu, collect_pool, &gp));
  CHECK(cp.n == 3, "%d CPU pools, want 3", cp.n);
  if (cp.n == 3) {
    CHECK(pool_flags(cp.p[0]) == (HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
              pool_flags(cp.p[1]) == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED &&
              pool_flags(cp.p[2]) == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
          "CPU pool flags %#x %#x %#x", pool_flags(cp.p[0]), pool_flags(cp.p[1]), pool_flags(cp.p[2]));
  }
  CHECK(gp.n == 2, "%d GPU pools, want 2", gp.n);
  if (gp.n < 2) return;
  hsa_amd_segment_t seg0 = 99, seg1 = 99;
  OK(hsa_amd_memory_pool_get_info(gp.p[0], HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg0));
  OK(hsa_amd_memory_pool_get_info(gp.p[1], HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg1));
  CHECK(seg0 == HSA_AMD_SEGMENT_GLOBAL && seg1 == HSA_AMD_SEGMENT_GROUP, "GPU pool segments %d %d", seg0, seg1);
  CHECK(pool_flags(gp.p[0]) == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, "GPU pool flags %#x",
        pool_flags(gp.p[0]));
  size_t size = 0, granule = 0;
  bool alloc_ok = false;
  OK(hsa_amd_memory_pool_get_info(gp.p[0], HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  OK(hsa_amd_memory_pool_get_info(gp.p[0], HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  OK(hsa_amd_memory_pool_get_info(gp.p[0], HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_ok));
  CHECK(size > (1u << 30) && granule == 4096 && alloc_ok, "GPU pool size %zu granule %zu alloc %d", size, granule,
        alloc_ok);
  hsa_amd_memory_pool_access_t access = 99;
  OK(hsa_amd_agent_memory_pool_get_info(gpu, gp.p[0], HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT, "GPU access to its pool %d", access);
  OK(hsa_amd_agent_memory_pool_get_info(gpu, cp.p[0], HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT, "GPU access to system memory %d", access);

  // Allocate, touch, describe, free.
  void *p = NULL;
  OK(hsa_amd_memory_pool_allocate(gp.p[0], 1000, 0, &p));
  CHECK(p != NULL && ((uintptr_t)p & 4095) == 0, "allocation %p not 4 KiB aligned", p);
  if (p == NULL) return;
  memset(p, 0xab, 2000);
  OK(hsa_amd_agents_allow_access(1, &cpu, NULL, p));
  hsa_amd_pointer_info_t info;
  memset(&info, 0, sizeof(info));
  info.size = sizeof(info);
  uint32_t nacc = 0;
  hsa_agent_t *acc = NULL;
  OK(hsa_amd_pointer_info(p, &info, malloc, &nacc, &acc));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA && info.agentBaseAddress == p && info.sizeInBytes == 4096 &&
            info.agentOwner.handle == gpu.handle,
        "pointer info type %d base %p size %zu owner %#llx", info.type, info.agentBaseAddress, info.sizeInBytes,
        (unsigned long long)info.agentOwner.handle);
  CHECK(nacc >= 1 && acc != NULL, "%u agents can access", nacc);
  free(acc);
  OK(hsa_amd_pointer_info_set_userdata(p, (void *)0x5678));
  OK(hsa_amd_pointer_info((char *)p + 100, &info, NULL, NULL, NULL));
  CHECK(info.userData == (void *)0x5678 && info.agentBaseAddress == p, "user data %p base %p", info.userData,
        info.agentBaseAddress);
  OK(hsa_amd_memory_fill(p, 0x01020304, 256));
  CHECK(((uint32_t *)p)[255] == 0x01020304 && ((unsigned char *)p)[1024] == 0xab, "fill wrote %#x / %#x",
        ((uint32_t *)p)[255], ((unsigned char *)p)[1024]);
  void *q = NULL;
  OK(hsa_amd_memory_pool_allocate(cp.p[1], 4096, 0, &q));
  // Deallocation notifiers: called once, before the free, with their data.
  OK(hsa_amd_register_deallocation_callback(q, on_dealloc, (void *)0x77));
  OK(hsa_amd_register_deallocation_callback(p, on_dealloc, (void *)0x88));
  OK(hsa_amd_deregister_deallocation_callback(p, on_dealloc));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_deregister_deallocation_callback(p, on_dealloc));
  OK(hsa_memory_copy(q, p, 4096));
  CHECK(q && ((uint32_t *)q)[0] == 0x01020304, "hsa_memory_copy");
  OK(hsa_amd_memory_pool_free(q));
  CHECK(dealloc_calls == 1 && dealloc_ptr == q && dealloc_data == (void *)0x77, "deallocation callback: %d calls (%p, %p)",
        dealloc_calls, dealloc_ptr, dealloc_data);
  OK(hsa_amd_memory_pool_free(p));
  CHECK(dealloc_calls == 1, "deregistered deallocation callback ran");
  STATUS(HSA_STATUS_ERROR_INVALID_ALLOCATION, hsa_amd_memory_pool_free(p));
  memset(&info, 0, sizeof(info));
  info.size = sizeof(info);
  OK(hsa_amd_pointer_info(&info, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN, "stack pointer has type %d", info.type);

  // Regions, as older code finds kernarg memory.
  hsa_region_t kr = {0};
  STATUS(HSA_STATUS_INFO_BREAK, hsa_agent_iterate_regions(cpu, find_kernarg_region, &kr));
  CHECK(kr.handle != 0, "no kernarg region");
  void *ka = NULL;
  OK(hsa_memory_allocate(kr, 256, &ka));
  CHECK(ka != NULL, "kernarg allocation");
  OK(hsa_memory_free(ka));

  // Locking host memory.
  char *host = aligned_alloc(4096, 8192);
  void *agent_ptr = NULL;
  OK(hsa_amd_memory_lock(host, 8192, &gpu, 1, &agent_ptr));
  // As on a discrete GPU the agent address differs from the host's (HIP
  // aborts in hipHostUnregister when they are equal).
  CHECK(agent_ptr != NULL && agent_ptr != host, "locked pointer %p for host %p", agent_ptr, (void *)host);
  hsa_amd_pointer_info_t pinfo = {.size = sizeof(pinfo)};
  OK(hsa_amd_pointer_info(agent_ptr, &pinfo, NULL, NULL, NULL));
  CHECK(pinfo.type == HSA_EXT_POINTER_TYPE_LOCKED && pinfo.agentBaseAddress == agent_ptr && pinfo.hostBaseAddress == host,
        "locked pointer info type %d agent %p host %p", pinfo.type, pinfo.agentBaseAddress, pinfo.hostBaseAddress);
  // A second, overlapping lock (HIP's 2D copies lock a stack buffer on a
  // page already locked) gets its own agent range.
  void *agent_ptr2 = NULL;
  OK(hsa_amd_memory_lock(host + 100, 16, &gpu, 1, &agent_ptr2));
  CHECK(agent_ptr2 != NULL && agent_ptr2 != agent_ptr && agent_ptr2 != host + 100, "overlapping lock %p", agent_ptr2);
  OK(hsa_amd_memory_unlock(host + 100));
  OK(hsa_amd_memory_unlock(host));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_amd_memory_unlock(host));

  // Registering host memory: ranges may repeat and overlap; each
  // deregistration drops one reference and leaves what the others cover
  // visible (type LOCKED to pointer info); ROCr's status conventions.
  OK(hsa_memory_register(host, 8192));
  OK(hsa_memory_register(host + 4096, 4096));
  OK(hsa_memory_register(host, 8192));
  pinfo.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  OK(hsa_amd_pointer_info(host + 5000, &pinfo, NULL, NULL, NULL));
  CHECK(pinfo.type == HSA_EXT_POINTER_TYPE_LOCKED, "registered memory has pointer type %d", pinfo.type);
  OK(hsa_memory_deregister(host, 8192));
  OK(hsa_memory_deregister(host, 8192));
  pinfo.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  OK(hsa_amd_pointer_info(host + 5000, &pinfo, NULL, NULL, NULL));
  CHECK(pinfo.type == HSA_EXT_POINTER_TYPE_LOCKED, "overlapping registration gone with the other's deregistration (type %d)",
        pinfo.type);
  OK(hsa_amd_pointer_info(host + 100, &pinfo, NULL, NULL, NULL));
  CHECK(pinfo.type == HSA_EXT_POINTER_TYPE_UNKNOWN, "deregistered range still registered (type %d)", pinfo.type);
  OK(hsa_memory_deregister(host + 4096, 4096));
  OK(hsa_amd_pointer_info(host + 5000, &pinfo, NULL, NULL, NULL));
  CHECK(pinfo.type == HSA_EXT_POINTER_TYPE_UNKNOWN, "registration left after the last deregistration (type %d)", pinfo.type);
  OK(hsa_memory_deregister(host, 8192));
  STATUS(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_memory_register(host, 0));
  OK(hsa_memory_register(NULL, 0));
  free(host);
}

// Signals.

static void *store_later(void *arg) {
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  hsa_signal_store_screlease(*(hsa_signal_t *)arg, 0);
  return NULL;
}

static hsa_signal_t handler_done;
static int handler_calls;

static bool on_signal(hsa_signal_value_t value, void *arg) {
  handler_calls++;
  CHECK(arg == (void *)&handler_calls, "handler arg %p", arg);
  CHECK(value == 42, "handler saw %lld", (long long)value);
  hsa_signal_store_screlease(handler_done, 0);
  return false;
}

static hsa_signal_t async_done;
static void async_fn(void *arg) { hsa_signal_store_screlease(async_done, (hsa_signal_value_t)(intptr_t)arg); }

static void test_signals(hsa_agent_t gpu) {
  hsa_signal_t s = {0};
  OK(hsa_signal_create(5, 0, NULL, &s));
  CHECK(s.handle != 0 && (s.handle & 63) == 0, "signal handle %#llx not 64-byte aligned",
        (unsigned long long)s.handle);
  amd_signal_t *as = (amd_signal_t *)(uintptr_t)s.handle;
  CHECK(as->kind == AMD_SIGNAL_KIND_USER && as->value == 5, "amd_signal_t kind %lld value %lld", (long long)as->kind,
        (long long)as->value);
  CHECK(as->event_mailbox_ptr != 0 && as->event_id != 0, "no event mailbox (%#llx, %u)",
        (unsigned long long)as->event_mailbox_ptr, as->event_id);
  CHECK(hsa_signal_load_relaxed(s) == 5, "load %lld", (long long)hsa_signal_load_relaxed(s));
  hsa_signal_store_relaxed(s, 7);
  hsa_signal_add_screlease(s, 3);
  CHECK(hsa_signal_load_scacquire(s) == 10, "after add %lld", (long long)hsa_signal_load_scacquire(s));
  hsa_signal_subtract_acq_rel(s, 4);
  CHECK(hsa_signal_cas_scacq_screl(s, 6, 12) == 6 && as->value == 12, "cas");
  CHECK(hsa_signal_cas_relaxed(s, 6, 99) == 12 && as->value == 12, "failed cas changed the value");
  CHECK(hsa_signal_exchange_relaxed(s, 0xf0) == 12, "exchange");
  hsa_signal_and_relaxed(s, 0x3c);
  hsa_signal_or_scacquire(s, 0x01);
  hsa_signal_xor_release(s, 0xff);
  CHECK(as->value == ((0x30 | 0x01) ^ 0xff), "bit operations gave %#llx", (long long)as->value);
  volatile hsa_signal_value_t *vp = NULL;
  OK(hsa_amd_signal_value_pointer(s, &vp));
  CHECK(vp == &as->value, "value pointer %p, want %p", (void *)vp, (void *)&as->value);

  // Waits: satisfied at once; timing out; woken by another thread.
  hsa_signal_store_relaxed(s, 1);
  CHECK(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_GTE, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 1,
        "satisfied wait");
  uint64_t t0 = now_ns();
  hsa_signal_value_t v = hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_EQ, 0, 5 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED);
  uint64_t dt = now_ns() - t0;
  CHECK(v == 1 && dt >= 4 * 1000 * 1000, "timed-out wait returned %lld after %llu ns", (long long)v,
        (unsigned long long)dt);
  pthread_t th;
  pthread_create(&th, NULL, store_later, &s);
  v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  CHECK(v == 0, "woken wait returned %lld", (long long)v);
  pthread_join(th, NULL);

  // Wait-any and groups.
  hsa_signal_t pair[2] = {s, {0}};
  OK(hsa_amd_signal_create(3, 1, &gpu, 0, &pair[1]));
  hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_NE, HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t vals[2] = {0, 3};
  hsa_signal_value_t sat = -1;
  uint32_t idx = hsa_amd_signal_wait_any(2, pair, conds, vals, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &sat);
  CHECK(idx == 1 && sat == 3, "wait_any index %u value %lld", idx, (long long)sat);
  vals[1] = 4;
  idx = hsa_amd_signal_wait_any(2, pair, conds, vals, 1000 * 1000, HSA_WAIT_STATE_ACTIVE, &sat);
  CHECK(idx == UINT32_MAX, "timed-out wait_any gave %u", idx);
  hsa_signal_group_t g = {0};
  OK(hsa_signal_group_create(2, pair, 0, NULL, &g));
  hsa_signal_t which = {0};
  vals[1] = 3;
  OK(hsa_signal_group_wait_any_relaxed(g, conds, vals, HSA_WAIT_STATE_BLOCKED, &which, &sat));
  CHECK(which.handle == pair[1].handle && sat == 3, "group wait gave %#llx = %lld", (unsigned long long)which.handle,
        (long long)sat);
  OK(hsa_signal_group_destroy(g));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, hsa_signal_group_destroy(g));

  // An async handler, level-triggered, called once, on another thread.
  OK(hsa_signal_create(1, 0, NULL, &handler_done));
  hsa_signal_store_relaxed(pair[1], 0);
  OK(hsa_amd_signal_async_handler(pair[1], HSA_SIGNAL_CONDITION_EQ, 42, on_signal, &handler_calls));
  hsa_signal_store_screlease(pair[1], 42);
  v = hsa_signal_wait_scacquire(handler_done, HSA_SIGNAL_CONDITION_EQ, 0, 5ull * 1000 * 1000 * 1000,
                                HSA_WAIT_STATE_BLOCKED);
  CHECK(v == 0 && handler_calls == 1, "async handler: done %lld, %d calls", (long long)v, handler_calls);

  // hsa_amd_async_function runs the callback on another thread.
  OK(hsa_signal_create(1, 0, NULL, &async_done));
  OK(hsa_amd_async_function(async_fn, (void *)(intptr_t)9));
  v = hsa_signal_wait_scacquire(async_done, HSA_SIGNAL_CONDITION_EQ, 9, 5ull * 1000 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED);
  CHECK(v == 9, "async function: signal %lld", (long long)v);
  OK(hsa_signal_destroy(async_done));

  OK(hsa_signal_destroy(pair[1]));
  OK(hsa_signal_destroy(handler_done));
  OK(hsa_signal_destroy(s));
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL, hsa_signal_destroy(s));
  hsa_signal_t zero = {0};
  STATUS(HSA_STATUS_ERROR_INVALID_SIGNAL, hsa_signal_destroy(zero));
  CHECK(hsa_signal_load_relaxed(zero) == 0, "load of signal 0");
}

// Queues.

static void test_queues(hsa_agent_t cpu, hsa_agent_t gpu) {
  hsa_queue_t *q = NULL;
  OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK(q != NULL, "no queue");
  if (q == NULL) return;
  amd_queue_t *aq = (amd_queue_t *)q;
  CHECK(q->size == 64 && q->type == HSA_QUEUE_TYPE_MULTI, "queue size %u type %u", q->size, q->type);
  CHECK(q->base_address != NULL && ((uintptr_t)q->base_address & 63) == 0, "ring at %p", q->base_address);
  CHECK(q->doorbell_signal.handle != 0, "no doorbell");
  CHECK(q->features & HSA_QUEUE_FEATURE_KERNEL_DISPATCH, "features %#x", q->features);
  CHECK(aq->group_segment_aperture_base_hi == 0x10000 && aq->private_segment_aperture_base_hi == 0x20000,
        "apertures hi %#x %#x", aq->group_segment_aperture_base_hi, aq->private_segment_aperture_base_hi);
  CHECK(aq->max_cu_id > 0 && aq->max_wave_id > 0, "max cu id %u wave id %u", aq->max_cu_id, aq->max_wave_id);
  CHECK(hsa_queue_load_read_index_scacquire(q) == 0 && hsa_queue_load_write_index_relaxed(q) == 0, "indices");

  // A barrier-AND packet with a completion signal, as HIP's markers.
  hsa_signal_t done = {0};
  OK(hsa_signal_create(1, 0, NULL, &done));
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  CHECK(idx == 0, "first write index %llu", (unsigned long long)idx);
  hsa_barrier_and_packet_t *pkt = (hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
  memset((char *)pkt + 4, 0, sizeof(*pkt) - 4);
  pkt->completion_signal = done;
  uint16_t header = (HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE) |
                    (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  __atomic_store_n((uint32_t *)pkt, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  hsa_signal_value_t v =
      hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 5ull * 1000 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED);
  CHECK(v == 0, "barrier packet not completed (signal %lld)", (long long)v);
  CHECK(hsa_queue_load_read_index_relaxed(q) == 1, "read index %llu after one packet",
        (unsigned long long)hsa_queue_load_read_index_relaxed(q));
  CHECK((pkt->header & 0xff) == HSA_PACKET_TYPE_INVALID, "consumed packet header %#x", pkt->header);

  CHECK(hsa_queue_cas_write_index_relaxed(q, 1, 3) == 1 && hsa_queue_load_write_index_scacquire(q) == 3, "cas write");
  hsa_queue_store_write_index_relaxed(q, 1);
  CHECK(hsa_queue_load_write_index_relaxed(q) == 1, "store write index");

  OK(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH));
  OK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  uint32_t mask[2] = {0x5, 0};
  OK(hsa_amd_queue_cu_set_mask(q, 64, mask));
  uint32_t got[2] = {0, 0};
  OK(hsa_amd_queue_cu_get_mask(q, 64, got));
  CHECK(got[0] == 0x5 && got[1] == 0, "CU mask %#x %#x", got[0], got[1]);
  OK(hsa_signal_destroy(done));
  OK(hsa_queue_destroy(q));
  STATUS(HSA_STATUS_ERROR_INVALID_QUEUE, hsa_queue_destroy(q));

  // The cooperative queue HIP creates for hipLaunchCooperativeKernel (its
  // size is HSA_AGENT_INFO_QUEUE_MAX_SIZE's answer, 4096 with Debian's HIP).
  hsa_queue_t *cq = NULL;
  OK(hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, UINT32_MAX, UINT32_MAX, &cq));
  CHECK(cq != NULL && cq->type == HSA_QUEUE_TYPE_COOPERATIVE && cq->size == 4096, "cooperative queue %p type %u",
        (void *)cq, cq ? cq->type : 0);
  if (cq != NULL) {
    OK(hsa_amd_profiling_set_profiler_enabled(cq, 1));
    OK(hsa_queue_destroy(cq));
  }

  hsa_queue_t *bad = NULL;
  CHECK(hsa_queue_create(cpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, 0, 0, &bad) != HSA_STATUS_SUCCESS &&
            bad == NULL,
        "cooperative queue on the CPU agent created");
  CHECK(hsa_queue_create(gpu, 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &bad) != HSA_STATUS_SUCCESS && bad == NULL,
        "queue of 100 packets created");
  CHECK(hsa_queue_create(cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &bad) != HSA_STATUS_SUCCESS && bad == NULL,
        "queue on the CPU agent created");
}

int main(void) {
  hsa_agent_t cpu = {0}, gpu = {0};
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_iterate_agents(collect_agent, NULL));
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_shut_down());
  OK(hsa_init());
  OK(hsa_init());  // reference counted
  test_system();
  test_loader_table();
  test_agents(&cpu, &gpu);
  if (nagents == 2) {
    test_memory(cpu, gpu);
    struct pools gp = {0};
    OK(hsa_amd_agent_iterate_memory_pools(gpu, collect_pool, &gp));
    if (gp.n > 0) test_images(gpu, gp.p[0]);
    test_signals(gpu);
    test_queues(cpu, gpu);
  }
  OK(hsa_shut_down());
  uint16_t major;
  OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));  // still one reference
  OK(hsa_shut_down());
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, &major));
  STATUS(HSA_STATUS_ERROR_NOT_INITIALIZED, hsa_shut_down());
  printf("api: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
