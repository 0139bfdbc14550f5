// MFMA test kernels for TestMFMAX (mfma_x_test.go): as mfma.cl, each wave64
// lane loads its packed A and B operands and its C registers (contiguous
// per lane), runs one MFMA builtin with the given cbsz, abid and blgp and
// stores D the same way. Built by mfma_x.sh for gfx90a and gfx940.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef float v2f __attribute__((ext_vector_type(2)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v16i __attribute__((ext_vector_type(16)));
typedef double v4d __attribute__((ext_vector_type(4)));
typedef half v4h __attribute__((ext_vector_type(4)));
typedef short v2s __attribute__((ext_vector_type(2)));
typedef short v4s __attribute__((ext_vector_type(4)));
typedef short v8s __attribute__((ext_vector_type(8)));
typedef half v8h __attribute__((ext_vector_type(8)));
typedef int v2i __attribute__((ext_vector_type(2)));

#define K(kname, builtin, AT, CT, cbsz, abid, blgp)                            \
  kernel void kname(global const AT *a, global const AT *b,                   \
                    global const CT *c, global CT *d) {                        \
    int l = __builtin_amdgcn_workitem_id_x();                                  \
    d[l] = __builtin_amdgcn_##builtin(a[l], b[l], c[l], cbsz, abid, blgp);     \
  }

// Sparse (gfx940): A compressed 4:2, x the compression index VGPR.
#define SK(kname, builtin, AT, BT, CT, cbsz, abid)                             \
  kernel void kname(global const AT *a, global const BT *b,                   \
                    global const CT *c, global CT *d, global const int *x) {   \
    int l = __builtin_amdgcn_workitem_id_x();                                  \
    d[l] = __builtin_amdgcn_##builtin(a[l], b[l], c[l], x[l], cbsz, abid);     \
  }

#ifdef GFX90A
K(x_f64_16x16x4, mfma_f64_16x16x4f64, double, v4d, 0, 0, 0)
K(x_f64_4x4x4, mfma_f64_4x4x4f64, double, double, 0, 0, 0)
K(x_f32_32x32x1_c1a1g3, mfma_f32_32x32x1f32, float, v32f, 1, 1, 3)
K(x_f32_16x16x1_c2a2g5, mfma_f32_16x16x1f32, float, v16f, 2, 2, 5)
K(x_f32_4x4x1_c3a5g1, mfma_f32_4x4x1f32, float, v4f, 3, 5, 1)
K(x_i32_4x4x4_c4a9g7, mfma_i32_4x4x4i8, int, v4i, 4, 9, 7)
K(x_f16_16x16x4_c1a0g2, mfma_f32_16x16x4f16, v4h, v16f, 1, 0, 2)
K(x_f32_32x32x2_g4, mfma_f32_32x32x2f32, float, v16f, 0, 0, 4)
K(x_bf16_16x16x2_c2a3g6, mfma_f32_16x16x2bf16, v2s, v16f, 2, 3, 6)
K(x_f16_16x16x16_g3, mfma_f32_16x16x16f16, v4h, v4f, 0, 0, 3)
#else
K(x_f64_16x16x4_neg5, mfma_f64_16x16x4f64, double, v4d, 0, 0, 5)
K(x_f64_4x4x4_neg2, mfma_f64_4x4x4f64, double, double, 0, 0, 2)
K(x_xf32_16x16x8, mfma_f32_16x16x8_xf32, v2f, v4f, 0, 0, 0)
K(x_xf32_32x32x4, mfma_f32_32x32x4_xf32, v2f, v16f, 0, 0, 0)
K(x_fp8_fp8_16x16x32, mfma_f32_16x16x32_fp8_fp8, long, v4f, 0, 0, 0)
K(x_fp8_bf8_16x16x32, mfma_f32_16x16x32_fp8_bf8, long, v4f, 0, 0, 0)
K(x_bf8_fp8_16x16x32, mfma_f32_16x16x32_bf8_fp8, long, v4f, 0, 0, 0)
K(x_bf8_bf8_16x16x32, mfma_f32_16x16x32_bf8_bf8, long, v4f, 0, 0, 0)
K(x_fp8_fp8_32x32x16, mfma_f32_32x32x16_fp8_fp8, long, v16f, 0, 0, 0)
K(x_bf8_fp8_32x32x16, mfma_f32_32x32x16_bf8_fp8, long, v16f, 0, 0, 0)
K(x_f32_32x32x1_c1a0g1, mfma_f32_32x32x1f32, float, v32f, 1, 0, 1)
SK(xs_f16_16x16x32_a1, smfmac_f32_16x16x32_f16, v4h, v8h, v4f, 0, 1)
SK(xs_f16_32x32x16, smfmac_f32_32x32x16_f16, v4h, v8h, v16f, 0, 0)
SK(xs_bf16_16x16x32_a3, smfmac_f32_16x16x32_bf16, v4s, v8s, v4f, 0, 3)
SK(xs_bf16_32x32x16_c1a2, smfmac_f32_32x32x16_bf16, v4s, v8s, v16f, 1, 2)
SK(xs_i8_16x16x64_a1, smfmac_i32_16x16x64_i8, v2i, v4i, v4i, 0, 1)
SK(xs_i8_32x32x32, smfmac_i32_32x32x32_i8, v2i, v4i, v16i, 0, 0)
SK(xs_fp8_bf8_16x16x64, smfmac_f32_16x16x64_fp8_bf8, v2i, v4i, v4f, 0, 0)
SK(xs_bf8_fp8_32x32x32_a1, smfmac_f32_32x32x32_bf8_fp8, v2i, v4i, v16f, 0, 1)
#endif
