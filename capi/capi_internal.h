/* capi_internal.h: helpers shared by the C files that define hsa_*. */
#ifndef ROCPU_CAPI_INTERNAL_H
#define ROCPU_CAPI_INTERNAL_H

#include <hsa/hsa.h>

/* rocpu_iterate calls visit for every handle of the list kind (of a, b)
   and stops at the first status other than HSA_STATUS_SUCCESS, which it
   returns (HSA_STATUS_INFO_BREAK included, as ROCr does). */
typedef hsa_status_t (*rocpu_visit_fn)(uint64_t handle, void *ctx);
hsa_status_t rocpu_iterate(int kind, uint64_t a, uint64_t b, rocpu_visit_fn visit, void *ctx);

#endif
