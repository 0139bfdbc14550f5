// hsa_exec.c: code-object readers, executables and their symbols, the AMD
// loader extension (hsa_ven_amd_loader.h, versions 1.00-1.03) and the
// extension tables that hand it out.

#include <stddef.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ven_amd_loader.h>

#include "_cgo_export.h"
#include "capi.h"
#include "capi_internal.h"

// Code-object readers.

hsa_status_t HSA_API hsa_code_object_reader_create_from_file(hsa_file_t file,
                                                             hsa_code_object_reader_t *code_object_reader) {
  return (hsa_status_t)rocpu_reader_from_file(file, 0, 0, 0,
                                              code_object_reader == NULL ? NULL : &code_object_reader->handle);
}

hsa_status_t HSA_API hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
                                                               hsa_code_object_reader_t *code_object_reader) {
  return (hsa_status_t)rocpu_reader_from_memory((void *)code_object, size,
                                                code_object_reader == NULL ? NULL : &code_object_reader->handle);
}

hsa_status_t HSA_API hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader) {
  return (hsa_status_t)rocpu_reader_destroy(code_object_reader.handle);
}

// Executables.

hsa_status_t HSA_API hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t executable_state,
                                           const char *options, hsa_executable_t *executable) {
  // The pre-1.1 form: an executable created frozen could never be loaded
  // into, so only UNFROZEN is meaningful.
  if (executable_state != HSA_EXECUTABLE_STATE_UNFROZEN) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return (hsa_status_t)rocpu_executable_create(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, (char *)options,
                                               executable == NULL ? NULL : &executable->handle);
}

hsa_status_t HSA_API hsa_executable_create_alt(hsa_profile_t profile,
                                               hsa_default_float_rounding_mode_t default_float_rounding_mode,
                                               const char *options, hsa_executable_t *executable) {
  return (hsa_status_t)rocpu_executable_create(profile, default_float_rounding_mode, (char *)options,
                                               executable == NULL ? NULL : &executable->handle);
}

hsa_status_t HSA_API hsa_executable_destroy(hsa_executable_t executable) {
  return (hsa_status_t)rocpu_executable_op(executable.handle, ROCPU_EXE_DESTROY, NULL);
}

hsa_status_t HSA_API hsa_executable_freeze(hsa_executable_t executable, const char *options) {
  return (hsa_status_t)rocpu_executable_op(executable.handle, ROCPU_EXE_FREEZE, (char *)options);
}

hsa_status_t HSA_API hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                           hsa_code_object_reader_t code_object_reader,
                                                           const char *options,
                                                           hsa_loaded_code_object_t *loaded_code_object) {
  return (hsa_status_t)rocpu_executable_load(executable.handle, agent.handle, code_object_reader.handle,
                                             (char *)options,
                                             loaded_code_object == NULL ? NULL : &loaded_code_object->handle);
}

hsa_status_t HSA_API hsa_executable_load_program_code_object(hsa_executable_t executable,
                                                             hsa_code_object_reader_t code_object_reader,
                                                             const char *options,
                                                             hsa_loaded_code_object_t *loaded_code_object) {
  (void)executable, (void)code_object_reader, (void)options, (void)loaded_code_object;
  // AMDGPU code objects are always agent code objects (their ISA names
  // one processor); program code objects come only from HSAIL.
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t HSA_API hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                                             void *value) {
  return (hsa_status_t)rocpu_executable_get_info(executable.handle, (uint32_t)attribute, value);
}

hsa_status_t HSA_API hsa_executable_validate(hsa_executable_t executable, uint32_t *result) {
  return (hsa_status_t)rocpu_executable_validate(executable.handle, result);
}

hsa_status_t HSA_API hsa_executable_validate_alt(hsa_executable_t executable, const char *options,
                                                 uint32_t *result) {
  (void)options;
  return (hsa_status_t)rocpu_executable_validate(executable.handle, result);
}

hsa_status_t HSA_API hsa_executable_global_variable_define(hsa_executable_t executable, const char *variable_name,
                                                           void *address) {
  return (hsa_status_t)rocpu_executable_define(executable.handle, 0, 0, (char *)variable_name, address);
}

hsa_status_t HSA_API hsa_executable_agent_global_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                                                 const char *variable_name, void *address) {
  return (hsa_status_t)rocpu_executable_define(executable.handle, agent.handle, 1, (char *)variable_name, address);
}

hsa_status_t HSA_API hsa_executable_readonly_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                                             const char *variable_name, void *address) {
  return (hsa_status_t)rocpu_executable_define(executable.handle, agent.handle, 1, (char *)variable_name, address);
}

hsa_status_t HSA_API hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char *symbol_name,
                                                       const hsa_agent_t *agent, hsa_executable_symbol_t *symbol) {
  return (hsa_status_t)rocpu_executable_symbol(executable.handle, (char *)symbol_name,
                                               agent == NULL ? 0 : agent->handle, agent != NULL,
                                               symbol == NULL ? NULL : &symbol->handle);
}

hsa_status_t HSA_API hsa_executable_get_symbol(hsa_executable_t executable, const char *module_name,
                                               const char *symbol_name, hsa_agent_t agent, int32_t call_convention,
                                               hsa_executable_symbol_t *symbol) {
  (void)call_convention;
  // Module names belong to HSAIL program symbols; AMDGPU symbols have none.
  if (module_name != NULL && module_name[0] != '\0') return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  return (hsa_status_t)rocpu_executable_symbol(executable.handle, (char *)symbol_name, agent.handle, 1,
                                               symbol == NULL ? NULL : &symbol->handle);
}

hsa_status_t HSA_API hsa_executable_symbol_get_info(hsa_executable_symbol_t executable_symbol,
                                                    hsa_executable_symbol_info_t attribute, void *value) {
  return (hsa_status_t)rocpu_symbol_get_info(executable_symbol.handle, (uint32_t)attribute, value);
}

struct agent_sym_ctx {
  hsa_executable_t exe;
  hsa_agent_t agent;
  hsa_status_t (*cb)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *);
  hsa_status_t (*cb2)(hsa_executable_t, hsa_executable_symbol_t, void *);
  void *data;
};

static hsa_status_t visit_agent_sym(uint64_t h, void *ctx) {
  struct agent_sym_ctx *c = ctx;
  hsa_executable_symbol_t s = {h};
  return c->cb(c->exe, c->agent, s, c->data);
}

static hsa_status_t visit_sym(uint64_t h, void *ctx) {
  struct agent_sym_ctx *c = ctx;
  hsa_executable_symbol_t s = {h};
  return c->cb2(c->exe, s, c->data);
}

hsa_status_t HSA_API hsa_executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_agent_t agent, hsa_executable_symbol_t symbol, void *data),
    void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct agent_sym_ctx c = {executable, agent, callback, NULL, data};
  return rocpu_iterate(ROCPU_LIST_AGENT_SYMBOLS, executable.handle, agent.handle, visit_agent_sym, &c);
}

hsa_status_t HSA_API hsa_executable_iterate_program_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_executable_symbol_t symbol, void *data), void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct agent_sym_ctx c = {executable, {0}, NULL, callback, data};
  return rocpu_iterate(ROCPU_LIST_PROGRAM_SYMBOLS, executable.handle, 0, visit_sym, &c);
}

struct all_sym_ctx {
  hsa_executable_t exe;
  struct agent_sym_ctx *sym;
};

static hsa_status_t visit_agent_for_syms(uint64_t h, void *ctx) {
  struct all_sym_ctx *c = ctx;
  return rocpu_iterate(ROCPU_LIST_AGENT_SYMBOLS, c->exe.handle, h, visit_sym, c->sym);
}

hsa_status_t HSA_API hsa_executable_iterate_symbols(hsa_executable_t executable,
                                                    hsa_status_t (*callback)(hsa_executable_t exec,
                                                                             hsa_executable_symbol_t symbol,
                                                                             void *data),
                                                    void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Every symbol: each agent's, then the program's.
  struct agent_sym_ctx c = {executable, {0}, NULL, callback, data};
  struct all_sym_ctx all = {executable, &c};
  uint32_t state;
  hsa_status_t st = hsa_executable_get_info(executable, HSA_EXECUTABLE_INFO_STATE, &state);
  if (st != HSA_STATUS_SUCCESS) return st;
  st = rocpu_iterate(ROCPU_LIST_AGENTS, 0, 0, visit_agent_for_syms, &all);
  if (st != HSA_STATUS_SUCCESS) return st;
  return rocpu_iterate(ROCPU_LIST_PROGRAM_SYMBOLS, executable.handle, 0, visit_sym, &c);
}

// The AMD loader extension. These functions are reached through the
// extension table only; ROCr does not export them, and neither does rocpu
// (they stay local under the version script).

hsa_status_t hsa_ven_amd_loader_query_host_address(const void *device_address, const void **host_address) {
  return (hsa_status_t)rocpu_query_host_address((void *)device_address, (void **)host_address);
}

hsa_status_t hsa_ven_amd_loader_query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t *segment_descriptors,
                                                          size_t *num_segment_descriptors) {
  _Static_assert(sizeof(hsa_ven_amd_loader_segment_descriptor_t) == 64, "segment descriptor layout");
  _Static_assert(offsetof(hsa_ven_amd_loader_segment_descriptor_t, code_object_storage_base) == 24,
                 "segment descriptor layout");
  return (hsa_status_t)rocpu_segment_descriptors(segment_descriptors, num_segment_descriptors);
}

hsa_status_t hsa_ven_amd_loader_query_executable(const void *device_address, hsa_executable_t *executable) {
  return (hsa_status_t)rocpu_query_executable((void *)device_address,
                                              executable == NULL ? NULL : &executable->handle);
}

struct lco_ctx {
  hsa_executable_t exe;
  hsa_status_t (*cb)(hsa_executable_t, hsa_loaded_code_object_t, void *);
  void *data;
};

static hsa_status_t visit_lco(uint64_t h, void *ctx) {
  struct lco_ctx *c = ctx;
  hsa_loaded_code_object_t l = {h};
  return c->cb(c->exe, l, c->data);
}

hsa_status_t hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t executable, hsa_loaded_code_object_t loaded_code_object, void *data),
    void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct lco_ctx c = {executable, callback, data};
  return rocpu_iterate(ROCPU_LIST_LOADED_CODE_OBJECTS, executable.handle, 0, visit_lco, &c);
}

hsa_status_t hsa_ven_amd_loader_loaded_code_object_get_info(hsa_loaded_code_object_t loaded_code_object,
                                                            hsa_ven_amd_loader_loaded_code_object_info_t attribute,
                                                            void *value) {
  return (hsa_status_t)rocpu_loaded_code_object_get_info(loaded_code_object.handle, (uint32_t)attribute, value);
}

hsa_status_t hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *code_object_reader) {
  return (hsa_status_t)rocpu_reader_from_file(file, offset, size, 1,
                                              code_object_reader == NULL ? NULL : &code_object_reader->handle);
}

struct exe_ctx {
  hsa_status_t (*cb)(hsa_executable_t, void *);
  void *data;
};

static hsa_status_t visit_exe(uint64_t h, void *ctx) {
  struct exe_ctx *c = ctx;
  hsa_executable_t e = {h};
  return c->cb(e, c->data);
}

hsa_status_t hsa_ven_amd_loader_iterate_executables(hsa_status_t (*callback)(hsa_executable_t executable,
                                                                             void *data),
                                                    void *data) {
  if (callback == NULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct exe_ctx c = {callback, data};
  return rocpu_iterate(ROCPU_LIST_EXECUTABLES, 0, 0, visit_exe, &c);
}

static const hsa_ven_amd_loader_1_03_pfn_t loader_table = {
    hsa_ven_amd_loader_query_host_address,
    hsa_ven_amd_loader_query_segment_descriptors,
    hsa_ven_amd_loader_query_executable,
    hsa_ven_amd_loader_executable_iterate_loaded_code_objects,
    hsa_ven_amd_loader_loaded_code_object_get_info,
    hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size,
    hsa_ven_amd_loader_iterate_executables,
};

// loader_table_size is the size of the table of version 1.minor.
static size_t loader_table_size(uint16_t minor) {
  switch (minor) {
    case 0: return sizeof(hsa_ven_amd_loader_1_00_pfn_t);
    case 1: return sizeof(hsa_ven_amd_loader_1_01_pfn_t);
    case 2: return sizeof(hsa_ven_amd_loader_1_02_pfn_t);
    case 3: return sizeof(hsa_ven_amd_loader_1_03_pfn_t);
  }
  return 0;
}

hsa_status_t HSA_API hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
                                                    uint16_t version_minor, void *table) {
  bool ok = false;
  hsa_status_t st = hsa_system_extension_supported(extension, version_major, version_minor, &ok);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (table == NULL || !ok || version_major != 1) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (extension) {
    case HSA_EXTENSION_AMD_LOADER:
      if (loader_table_size(version_minor) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      memcpy(table, &loader_table, loader_table_size(version_minor));
      return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_IMAGES: {
      size_t n = rocpu_images_table(version_minor, 0, NULL);
      if (n == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      rocpu_images_table(version_minor, n, table);
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t HSA_API hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                                          size_t table_length, void *table) {
  uint16_t minor = 0;
  bool ok = false;
  hsa_status_t st = hsa_system_major_extension_supported(extension, version_major, &minor, &ok);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (table == NULL || table_length == 0 || !ok || version_major != 1) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Fill as much of the newest table as the caller has room for.
  switch (extension) {
    case HSA_EXTENSION_AMD_LOADER: {
      size_t n = table_length < sizeof(loader_table) ? table_length : sizeof(loader_table);
      memcpy(table, &loader_table, n);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_EXTENSION_IMAGES:
      rocpu_images_table(minor, table_length, table);
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
