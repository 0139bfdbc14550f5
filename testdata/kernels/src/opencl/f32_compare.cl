// f32_compare: relational and classification built-ins on floats, including
// NaN and infinities; results are integers and compare exactly.
#define NOUT 12
kernel void f32_compare(global const float *a, global const float *b,
                        global int *out) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  global int *o = out + i * NOUT;
  o[0] = isnan(x);
  o[1] = isinf(x);
  o[2] = isfinite(x);
  o[3] = isnormal(x);
  o[4] = signbit(x);
  o[5] = isequal(x, y);
  o[6] = isless(x, y);
  o[7] = islessgreater(x, y);
  o[8] = isunordered(x, y);
  o[9] = x < y;
  o[10] = x >= y;
  o[11] = as_int(select(x, y, (int)(x > y)));
}
