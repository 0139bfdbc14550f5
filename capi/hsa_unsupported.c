// hsa_unsupported.c: the functions of ROCr 5.2's export list that rocpu
// does not implement. Each is defined with the header's prototype, writes
// nothing and returns HSA_STATUS_ERROR (HSA_STATUS_ERROR_NOT_INITIALIZED
// before hsa_init), naming itself under ROCPU_CAPI_TRACE=1.

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "_cgo_export.h"

#define UNSUPPORTED(name) return (hsa_status_t)rocpu_unsupported(name)

// Images: hsa_image.c implements the image extension; rocpu has no AMD
// image layouts (tiling metadata) to create images from.
hsa_status_t HSA_API hsa_amd_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor, const hsa_amd_image_descriptor_t *image_layout, const void *image_data, hsa_access_permission_t access_permission, hsa_ext_image_t *image) {
  (void)agent, (void)image_descriptor, (void)image_layout, (void)image_data, (void)access_permission, (void)image;
  UNSUPPORTED("hsa_amd_image_create");
}



// The HSAIL finalizer (hsa_ext_finalize.h): rocpu runs AMDGPU code objects only.
hsa_status_t HSA_API hsa_ext_program_create(hsa_machine_model_t machine_model, hsa_profile_t profile, hsa_default_float_rounding_mode_t default_float_rounding_mode, const char *options, hsa_ext_program_t *program) {
  (void)machine_model, (void)profile, (void)default_float_rounding_mode, (void)options, (void)program;
  UNSUPPORTED("hsa_ext_program_create");
}

hsa_status_t HSA_API hsa_ext_program_destroy(hsa_ext_program_t program) {
  (void)program;
  UNSUPPORTED("hsa_ext_program_destroy");
}

hsa_status_t HSA_API hsa_ext_program_add_module(hsa_ext_program_t program, hsa_ext_module_t module) {
  (void)program, (void)module;
  UNSUPPORTED("hsa_ext_program_add_module");
}

hsa_status_t HSA_API hsa_ext_program_iterate_modules(hsa_ext_program_t program, hsa_status_t (*callback)(hsa_ext_program_t, hsa_ext_module_t, void *), void *data) {
  (void)program, (void)callback, (void)data;
  UNSUPPORTED("hsa_ext_program_iterate_modules");
}

hsa_status_t HSA_API hsa_ext_program_get_info(hsa_ext_program_t program, hsa_ext_program_info_t attribute, void *value) {
  (void)program, (void)attribute, (void)value;
  UNSUPPORTED("hsa_ext_program_get_info");
}

hsa_status_t HSA_API hsa_ext_program_finalize(hsa_ext_program_t program, hsa_isa_t isa, int32_t call_convention, hsa_ext_control_directives_t control_directives, const char *options, hsa_code_object_type_t code_object_type, hsa_code_object_t *code_object) {
  (void)program, (void)isa, (void)call_convention, (void)control_directives, (void)options, (void)code_object_type, (void)code_object;
  UNSUPPORTED("hsa_ext_program_finalize");
}


// The pre-1.1 code-object API (hsa_code_object_t), deprecated in HSA 1.1 and replaced by code-object readers.
hsa_status_t HSA_API hsa_code_object_serialize(hsa_code_object_t code_object, hsa_status_t (*alloc_callback)(size_t, hsa_callback_data_t, void **), hsa_callback_data_t callback_data, const char *options, void **serialized_code_object, size_t *serialized_code_object_size) {
  (void)code_object, (void)alloc_callback, (void)callback_data, (void)options, (void)serialized_code_object, (void)serialized_code_object_size;
  UNSUPPORTED("hsa_code_object_serialize");
}

hsa_status_t HSA_API hsa_code_object_deserialize(void *serialized_code_object, size_t serialized_code_object_size, const char *options, hsa_code_object_t *code_object) {
  (void)serialized_code_object, (void)serialized_code_object_size, (void)options, (void)code_object;
  UNSUPPORTED("hsa_code_object_deserialize");
}

hsa_status_t HSA_API hsa_code_object_destroy(hsa_code_object_t code_object) {
  (void)code_object;
  UNSUPPORTED("hsa_code_object_destroy");
}

hsa_status_t HSA_API hsa_code_object_get_info(hsa_code_object_t code_object, hsa_code_object_info_t attribute, void *value) {
  (void)code_object, (void)attribute, (void)value;
  UNSUPPORTED("hsa_code_object_get_info");
}

hsa_status_t HSA_API hsa_code_object_get_symbol(hsa_code_object_t code_object, const char *symbol_name, hsa_code_symbol_t *symbol) {
  (void)code_object, (void)symbol_name, (void)symbol;
  UNSUPPORTED("hsa_code_object_get_symbol");
}

hsa_status_t HSA_API hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object, const char *module_name, const char *symbol_name, hsa_code_symbol_t *symbol) {
  (void)code_object, (void)module_name, (void)symbol_name, (void)symbol;
  UNSUPPORTED("hsa_code_object_get_symbol_from_name");
}

hsa_status_t HSA_API hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol, hsa_code_symbol_info_t attribute, void *value) {
  (void)code_symbol, (void)attribute, (void)value;
  UNSUPPORTED("hsa_code_symbol_get_info");
}

hsa_status_t HSA_API hsa_code_object_iterate_symbols(hsa_code_object_t code_object, hsa_status_t (*callback)(hsa_code_object_t, hsa_code_symbol_t, void *), void *data) {
  (void)code_object, (void)callback, (void)data;
  UNSUPPORTED("hsa_code_object_iterate_symbols");
}

hsa_status_t HSA_API hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent, hsa_code_object_t code_object, const char *options) {
  (void)executable, (void)agent, (void)code_object, (void)options;
  UNSUPPORTED("hsa_executable_load_code_object");
}


// Inter-process sharing: rocpu's memory and signals live in one process.
hsa_status_t HSA_API hsa_amd_ipc_memory_create(void *ptr, size_t len, hsa_amd_ipc_memory_t *handle) {
  (void)ptr, (void)len, (void)handle;
  UNSUPPORTED("hsa_amd_ipc_memory_create");
}

hsa_status_t HSA_API hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *handle, size_t len, uint32_t num_agents, const hsa_agent_t *mapping_agents, void **mapped_ptr) {
  (void)handle, (void)len, (void)num_agents, (void)mapping_agents, (void)mapped_ptr;
  UNSUPPORTED("hsa_amd_ipc_memory_attach");
}

hsa_status_t HSA_API hsa_amd_ipc_memory_detach(void *mapped_ptr) {
  (void)mapped_ptr;
  UNSUPPORTED("hsa_amd_ipc_memory_detach");
}

hsa_status_t HSA_API hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t *handle) {
  (void)signal, (void)handle;
  UNSUPPORTED("hsa_amd_ipc_signal_create");
}

hsa_status_t HSA_API hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t *handle, hsa_signal_t *signal) {
  (void)handle, (void)signal;
  UNSUPPORTED("hsa_amd_ipc_signal_attach");
}


// Graphics interop: there is no graphics driver to share buffers with.
hsa_status_t HSA_API hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t *agents, int interop_handle, uint32_t flags, size_t *size, void **ptr, size_t *metadata_size, const void **metadata) {
  (void)num_agents, (void)agents, (void)interop_handle, (void)flags, (void)size, (void)ptr, (void)metadata_size, (void)metadata;
  UNSUPPORTED("hsa_amd_interop_map_buffer");
}

hsa_status_t HSA_API hsa_amd_interop_unmap_buffer(void *ptr) {
  (void)ptr;
  UNSUPPORTED("hsa_amd_interop_unmap_buffer");
}


// Shared virtual memory attributes and page migration (HMM): the GPU agent reports xnack-, so HIP does not use them.
hsa_status_t HSA_API hsa_amd_svm_attributes_set(void *ptr, size_t size, hsa_amd_svm_attribute_pair_t *attribute_list, size_t attribute_count) {
  (void)ptr, (void)size, (void)attribute_list, (void)attribute_count;
  UNSUPPORTED("hsa_amd_svm_attributes_set");
}

hsa_status_t HSA_API hsa_amd_svm_attributes_get(void *ptr, size_t size, hsa_amd_svm_attribute_pair_t *attribute_list, size_t attribute_count) {
  (void)ptr, (void)size, (void)attribute_list, (void)attribute_count;
  UNSUPPORTED("hsa_amd_svm_attributes_get");
}

hsa_status_t HSA_API hsa_amd_svm_prefetch_async(void *ptr, size_t size, hsa_agent_t agent, uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal) {
  (void)ptr, (void)size, (void)agent, (void)num_dep_signals, (void)dep_signals, (void)completion_signal;
  UNSUPPORTED("hsa_amd_svm_prefetch_async");
}

hsa_status_t HSA_API hsa_amd_memory_migrate(const void *ptr, hsa_amd_memory_pool_t memory_pool, uint32_t flags) {
  (void)ptr, (void)memory_pool, (void)flags;
  UNSUPPORTED("hsa_amd_memory_migrate");
}

hsa_status_t HSA_API hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool, hsa_amd_memory_pool_t dst_memory_pool, bool *result) {
  (void)src_memory_pool, (void)dst_memory_pool, (void)result;
  UNSUPPORTED("hsa_amd_memory_pool_can_migrate");
}

