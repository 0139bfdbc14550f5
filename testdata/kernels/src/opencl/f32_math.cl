// f32_math: single-precision transcendental built-ins. These are not correctly
// rounded; the manifest gives the OpenCL 2.0 full-profile ULP bound per slot
// (sqrt 3, rsqrt 2, exp/exp2/log/log2 3, sin/cos 4, tan 5, pow 16, div 2.5->3).
#define NOUT 12
kernel void f32_math(global const float *a, global const float *b,
                     global float *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  float ax = fabs(x) + 0.5f;
  global float *o = out + i * NOUT;
  o[0] = sqrt(ax);
  o[1] = rsqrt(ax);
  o[2] = exp(x);
  o[3] = exp2(x);
  o[4] = log(ax);
  o[5] = log2(ax);
  o[6] = sin(x);
  o[7] = cos(x);
  o[8] = tan(x);
  o[9] = pow(ax, y);
  o[10] = x / (fabs(y) + 1.0f);
  o[11] = hypot(x, y);
}
