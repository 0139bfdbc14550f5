/* capi_internal.h: helpers shared by the C files that define hsa_*. */
#ifndef ROCPU_CAPI_INTERNAL_H
#define ROCPU_CAPI_INTERNAL_H

#include <stddef.h>

#include <hsa/hsa.h>

/* rocpu_iterate calls visit for every handle of the list kind (of a, b)
   and stops at the first status other than HSA_STATUS_SUCCESS, which it
   returns (HSA_STATUS_INFO_BREAK included, as ROCr does). */
typedef hsa_status_t (*rocpu_visit_fn)(uint64_t handle, void *ctx);
hsa_status_t rocpu_iterate(int kind, uint64_t a, uint64_t b, rocpu_visit_fn visit, void *ctx);

/* rocpu_images_table (hsa_image.c) copies up to n bytes of the images
   extension table of version 1.minor into out and returns that version's
   table size (0: no such version). */
size_t rocpu_images_table(uint16_t minor, size_t n, void *out);

#endif
