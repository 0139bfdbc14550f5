// f32_convert: conversions between float and integer types, with and without
// saturation and with every rounding mode. Inputs include NaN, infinities and
// out-of-range values; the unsaturated float->int casts are only applied to
// values clamped into range, so every result is defined and exact.
#define NOUT 16
kernel void f32_convert(global const float *a, global const int *b,
                        global int *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  int n = b[i];
  float xc = isnan(x) ? 0.0f : clamp(x, -2147483520.0f, 2147483520.0f);
  global int *o = out + i * NOUT;
  o[0] = (int)xc;
  o[1] = convert_int_sat(x);
  o[2] = (int)convert_uint_sat(x);
  o[3] = convert_int_sat_rte(x);
  o[4] = convert_int_sat_rtp(x);
  o[5] = convert_int_sat_rtn(x);
  o[6] = (int)convert_short_sat(x);
  o[7] = (int)convert_uchar_sat(x);
  o[8] = (int)convert_char_sat(n);
  o[9] = (int)convert_ushort_sat(n);
  o[10] = as_int((float)n);
  o[11] = as_int((float)(uint)n);
  o[12] = as_int(convert_float_rtz(n));
  o[13] = as_int(convert_float_rtp((uint)n));
  o[14] = as_int((float)((long)n * 123457l));
  o[15] = (int)convert_long_sat(x * 1.0e9f);
}
