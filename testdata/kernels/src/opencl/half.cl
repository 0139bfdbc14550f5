// half: half precision. half_convert uses the core vload_half/vstore_half
// (no extension needed, exact round-to-nearest-even); half_arith uses
// cl_khr_fp16 arithmetic, which clang accepts for AMDGPU.
kernel void half_convert(global const half *in, global const float *f,
                         global float *out, global half *hout) {
  size_t i = get_global_id(0);
  float v = vload_half(i, in);
  out[i] = v * 2.0f;
  vstore_half_rte(f[i], i, hout);
}

// Guarded so the file still builds where cl_khr_fp16 is missing (PoCL's
// CPU device); clang defines cl_khr_fp16 for every AMDGPU target.
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_arith(global const half *a, global const half *b,
                       global half *out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  out[i * 4 + 0] = x + y;
  out[i * 4 + 1] = x * y;
  out[i * 4 + 2] = fma(x, y, x);
  out[i * 4 + 3] = fmax(x, y) - fmin(x, y);
}
#endif
