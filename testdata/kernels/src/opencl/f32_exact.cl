// f32_exact: single-precision operations whose results are correctly rounded
// (or exact) on every conforming device, so they compare bit-exactly — as
// long as the build does not contract the mul/add pairs (see fp_contract).
#define NOUT 16
kernel void f32_exact(global const float *a, global const float *b,
                      global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  global float *o = out + i * NOUT;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x * y + x;
  o[4] = fma(x, y, x);
  o[5] = fmin(x, y);
  o[6] = fmax(x, y);
  o[7] = floor(x);
  o[8] = ceil(x);
  o[9] = round(x);
  o[10] = trunc(x);
  o[11] = fabs(x);
  o[12] = copysign(x, y);
  o[13] = rint(x);
  o[14] = -x * y - x;
  o[15] = mad(x, x, y) - mad(x, x, y);
}
