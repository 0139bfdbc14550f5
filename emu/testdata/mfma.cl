// MFMA test kernels: each wave64 lane loads its packed A and B operands and
// its C registers (contiguous per lane), runs one MFMA builtin with
// cbsz = abid = blgp = 0 and stores D the same way. Built by mfma.sh.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v16i __attribute__((ext_vector_type(16)));
typedef int v32i __attribute__((ext_vector_type(32)));
typedef half v4h __attribute__((ext_vector_type(4)));
typedef short v2s __attribute__((ext_vector_type(2)));
typedef short v4s __attribute__((ext_vector_type(4)));

#define K(name, AT, CT)                                                        \
  kernel void name(global const AT *a, global const AT *b,                    \
                   global const CT *c, global CT *d) {                         \
    int l = __builtin_amdgcn_workitem_id_x();                                  \
    d[l] = __builtin_amdgcn_##name(a[l], b[l], c[l], 0, 0, 0);                 \
  }

K(mfma_f32_32x32x1f32, float, v32f)
K(mfma_f32_16x16x1f32, float, v16f)
K(mfma_f32_4x4x1f32, float, v4f)
K(mfma_f32_32x32x2f32, float, v16f)
K(mfma_f32_16x16x4f32, float, v4f)
K(mfma_f32_32x32x4f16, v4h, v32f)
K(mfma_f32_16x16x4f16, v4h, v16f)
K(mfma_f32_4x4x4f16, v4h, v4f)
K(mfma_f32_32x32x8f16, v4h, v16f)
K(mfma_f32_16x16x16f16, v4h, v4f)
K(mfma_i32_32x32x4i8, int, v32i)
K(mfma_i32_16x16x4i8, int, v16i)
K(mfma_i32_4x4x4i8, int, v4i)
K(mfma_i32_32x32x8i8, int, v16i)
K(mfma_i32_16x16x16i8, int, v4i)
K(mfma_f32_32x32x2bf16, v2s, v32f)
K(mfma_f32_16x16x2bf16, v2s, v16f)
K(mfma_f32_4x4x2bf16, v2s, v4f)
K(mfma_f32_32x32x4bf16, v2s, v16f)
K(mfma_f32_16x16x8bf16, v2s, v4f)
#ifdef __gfx90a__ // the _1k forms are new in gfx90a
K(mfma_f32_32x32x4bf16_1k, v4s, v32f)
K(mfma_f32_16x16x4bf16_1k, v4s, v16f)
K(mfma_f32_4x4x4bf16_1k, v4s, v4f)
K(mfma_f32_32x32x8bf16_1k, v4s, v16f)
K(mfma_f32_16x16x16bf16_1k, v4s, v4f)
#endif
