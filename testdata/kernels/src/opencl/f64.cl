// f64: double precision. f64_arith holds correctly rounded operations
// (add, sub, mul, div, fma are correctly rounded for double in OpenCL, and
// LLVM 15 implements them so), so -ffp-contract=off builds compare exactly;
// f64_math holds the transcendentals with their OpenCL ULP bounds, and sqrt,
// which LLVM 15 lowers to the bare v_sqrt_f64 (not correctly rounded).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define NARITH 12
#define NMATH 9
kernel void f64_arith(global const double *a, global const double *b,
                      global double *out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  global double *o = out + i * NARITH;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = x - floor(x);
  o[5] = fma(x, y, x);
  o[6] = x * y + x;
  o[7] = fmin(x, y);
  o[8] = floor(x);
  o[9] = (double)(long)(x * 1000.0);
  o[10] = (double)(float)x;
  o[11] = copysign(fabs(x), y);
}

kernel void f64_math(global const double *a, global const double *b,
                     global double *out) {
  size_t i = get_global_id(0);
  double x = a[i], y = b[i];
  double ax = fabs(x) + 0.5;
  global double *o = out + i * NMATH;
  o[0] = exp(x);
  o[1] = log(ax);
  o[2] = sin(x);
  o[3] = cos(x);
  o[4] = pow(ax, y);
  o[5] = exp2(x);
  o[6] = log2(ax);
  o[7] = rsqrt(ax);
  o[8] = sqrt(ax);
}
