// hsa_image.c: the image extension (hsa_ext_image.h) over package hsa's
// images and samplers (image.go): the C structs are unpacked here, NULL
// pointers answered with HSA_STATUS_ERROR_INVALID_ARGUMENT through Go (so
// ROCPU_CAPI_TRACE names them). hsa_amd_image_create stays in
// hsa_unsupported.c.

#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

#include "_cgo_export.h"

#define NULL_ARG(name, what) return (hsa_status_t)rocpu_null_arg((char *)(name), (char *)(what))

// unpack splits a descriptor into the {geometry, channel type, channel
// order} and {width, height, depth, array_size} arrays rocpu_image_* take.
static void unpack(const hsa_ext_image_descriptor_t *d, uint32_t g[3], uint64_t sz[4]) {
  g[0] = (uint32_t)d->geometry;
  g[1] = (uint32_t)d->format.channel_type;
  g[2] = (uint32_t)d->format.channel_order;
  sz[0] = d->width;
  sz[1] = d->height;
  sz[2] = d->depth;
  sz[3] = d->array_size;
}

_Static_assert(sizeof(hsa_ext_image_data_info_t) == 2 * sizeof(uint64_t), "hsa_ext_image_data_info_t layout");
_Static_assert(sizeof(hsa_ext_image_region_t) == 6 * sizeof(uint32_t), "hsa_ext_image_region_t layout");
_Static_assert(sizeof(hsa_dim3_t) == 3 * sizeof(uint32_t), "hsa_dim3_t layout");

hsa_status_t HSA_API hsa_ext_image_get_capability_with_layout(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                                              const hsa_ext_image_format_t *image_format,
                                                              hsa_ext_image_data_layout_t image_data_layout,
                                                              uint32_t *capability_mask) {
  if (image_format == NULL) NULL_ARG("hsa_ext_image_get_capability", "image_format");
  return (hsa_status_t)rocpu_image_capability(agent.handle, (uint32_t)geometry, (uint32_t)image_format->channel_type,
                                              (uint32_t)image_format->channel_order, (uint32_t)image_data_layout,
                                              capability_mask);
}

hsa_status_t HSA_API hsa_ext_image_get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                                  const hsa_ext_image_format_t *image_format,
                                                  uint32_t *capability_mask) {
  return hsa_ext_image_get_capability_with_layout(agent, geometry, image_format, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE,
                                                  capability_mask);
}

hsa_status_t HSA_API hsa_ext_image_data_get_info_with_layout(hsa_agent_t agent,
                                                             const hsa_ext_image_descriptor_t *image_descriptor,
                                                             hsa_access_permission_t access_permission,
                                                             hsa_ext_image_data_layout_t image_data_layout,
                                                             size_t image_data_row_pitch, size_t image_data_slice_pitch,
                                                             hsa_ext_image_data_info_t *image_data_info) {
  if (image_descriptor == NULL) NULL_ARG("hsa_ext_image_data_get_info", "image_descriptor");
  uint32_t g[3];
  uint64_t sz[4];
  unpack(image_descriptor, g, sz);
  return (hsa_status_t)rocpu_image_data_info(agent.handle, g, sz, (uint32_t)access_permission,
                                             (uint32_t)image_data_layout, image_data_row_pitch, image_data_slice_pitch,
                                             (uint64_t *)image_data_info);
}

hsa_status_t HSA_API hsa_ext_image_data_get_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                                                 hsa_access_permission_t access_permission,
                                                 hsa_ext_image_data_info_t *image_data_info) {
  return hsa_ext_image_data_get_info_with_layout(agent, image_descriptor, access_permission,
                                                 HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, image_data_info);
}

hsa_status_t HSA_API hsa_ext_image_create_with_layout(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                                                      const void *image_data, hsa_access_permission_t access_permission,
                                                      hsa_ext_image_data_layout_t image_data_layout,
                                                      size_t image_data_row_pitch, size_t image_data_slice_pitch,
                                                      hsa_ext_image_t *image) {
  if (image_descriptor == NULL) NULL_ARG("hsa_ext_image_create", "image_descriptor");
  uint32_t g[3];
  uint64_t sz[4];
  unpack(image_descriptor, g, sz);
  return (hsa_status_t)rocpu_image_create(agent.handle, g, sz, (void *)image_data, (uint32_t)access_permission,
                                          (uint32_t)image_data_layout, image_data_row_pitch, image_data_slice_pitch,
                                          image == NULL ? NULL : (uint64_t *)&image->handle);
}

hsa_status_t HSA_API hsa_ext_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                                          const void *image_data, hsa_access_permission_t access_permission,
                                          hsa_ext_image_t *image) {
  return hsa_ext_image_create_with_layout(agent, image_descriptor, image_data, access_permission,
                                          HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, image);
}

hsa_status_t HSA_API hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image) {
  return (hsa_status_t)rocpu_image_destroy(agent.handle, image.handle);
}

hsa_status_t HSA_API hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t src_image, const hsa_dim3_t *src_offset,
                                        hsa_ext_image_t dst_image, const hsa_dim3_t *dst_offset,
                                        const hsa_dim3_t *range) {
  if (src_offset == NULL || dst_offset == NULL || range == NULL) NULL_ARG("hsa_ext_image_copy", "offset or range");
  return (hsa_status_t)rocpu_image_copy(agent.handle, src_image.handle, (uint32_t *)src_offset, dst_image.handle,
                                        (uint32_t *)dst_offset, (uint32_t *)range);
}

hsa_status_t HSA_API hsa_ext_image_import(hsa_agent_t agent, const void *src_memory, size_t src_row_pitch,
                                          size_t src_slice_pitch, hsa_ext_image_t dst_image,
                                          const hsa_ext_image_region_t *image_region) {
  if (image_region == NULL) NULL_ARG("hsa_ext_image_import", "image_region");
  return (hsa_status_t)rocpu_image_transfer(agent.handle, dst_image.handle, (void *)src_memory, src_row_pitch,
                                            src_slice_pitch, (uint32_t *)image_region, 1);
}

hsa_status_t HSA_API hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t src_image, void *dst_memory,
                                          size_t dst_row_pitch, size_t dst_slice_pitch,
                                          const hsa_ext_image_region_t *image_region) {
  if (image_region == NULL) NULL_ARG("hsa_ext_image_export", "image_region");
  return (hsa_status_t)rocpu_image_transfer(agent.handle, src_image.handle, dst_memory, dst_row_pitch,
                                            dst_slice_pitch, (uint32_t *)image_region, 0);
}

hsa_status_t HSA_API hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t image, const void *data,
                                         const hsa_ext_image_region_t *image_region) {
  if (image_region == NULL) NULL_ARG("hsa_ext_image_clear", "image_region");
  return (hsa_status_t)rocpu_image_clear(agent.handle, image.handle, (void *)data, (uint32_t *)image_region);
}

hsa_status_t HSA_API hsa_ext_sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t *sampler_descriptor,
                                            hsa_ext_sampler_t *sampler) {
  if (sampler_descriptor == NULL) NULL_ARG("hsa_ext_sampler_create", "sampler_descriptor");
  return (hsa_status_t)rocpu_sampler_create(agent.handle, (uint32_t)sampler_descriptor->coordinate_mode,
                                            (uint32_t)sampler_descriptor->filter_mode,
                                            (uint32_t)sampler_descriptor->address_mode,
                                            sampler == NULL ? NULL : (uint64_t *)&sampler->handle);
}

hsa_status_t HSA_API hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler) {
  return (hsa_status_t)rocpu_sampler_destroy(agent.handle, sampler.handle);
}

// hsa_amd_image_get_info_max_dim answers the image size limits, the
// attributes ROCr's hsa_agent_get_info forwards to it; here it is the other
// way round.
hsa_status_t HSA_API hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute, void *value) {
  if (attribute < (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS ||
      attribute > (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS)
    NULL_ARG("hsa_amd_image_get_info_max_dim", "(not an image size) attribute");
  return hsa_agent_get_info(agent, attribute, value);
}

// images_table is what hsa_system_get_(major_)extension_table returns for
// HSA_EXTENSION_IMAGES 1.x (hsa_ext_images_1_00_pfn_t is its prefix).
static const hsa_ext_images_1_pfn_t images_table = {
    .hsa_ext_image_get_capability = hsa_ext_image_get_capability,
    .hsa_ext_image_data_get_info = hsa_ext_image_data_get_info,
    .hsa_ext_image_create = hsa_ext_image_create,
    .hsa_ext_image_destroy = hsa_ext_image_destroy,
    .hsa_ext_image_copy = hsa_ext_image_copy,
    .hsa_ext_image_import = hsa_ext_image_import,
    .hsa_ext_image_export = hsa_ext_image_export,
    .hsa_ext_image_clear = hsa_ext_image_clear,
    .hsa_ext_sampler_create = hsa_ext_sampler_create,
    .hsa_ext_sampler_destroy = hsa_ext_sampler_destroy,
    .hsa_ext_image_get_capability_with_layout = hsa_ext_image_get_capability_with_layout,
    .hsa_ext_image_data_get_info_with_layout = hsa_ext_image_data_get_info_with_layout,
    .hsa_ext_image_create_with_layout = hsa_ext_image_create_with_layout,
};

// rocpu_images_table copies the first n bytes of the table (minor 0: the
// 1.00 table; 1: the whole 1.x table) into out; it returns the size the
// version has, 0 for an unknown minor.
size_t rocpu_images_table(uint16_t minor, size_t n, void *out) {
  size_t size = minor == 0 ? sizeof(hsa_ext_images_1_00_pfn_t) : minor == 1 ? sizeof(images_table) : 0;
  if (n > size) n = size;
  if (out != NULL) memcpy(out, &images_table, n);
  return size;
}
