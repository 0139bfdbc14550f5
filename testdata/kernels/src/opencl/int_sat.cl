// int_sat: saturating and rounding integer built-ins, plus clamp/upsample.
#define NOUT 12
kernel void int_sat(global const int *a, global const int *b,
                    global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  uint ux = (uint)x, uy = (uint)y;
  global int *o = out + i * NOUT;
  o[0] = add_sat(x, y);
  o[1] = sub_sat(x, y);
  o[2] = (int)add_sat(ux, uy);
  o[3] = (int)sub_sat(ux, uy);
  o[4] = hadd(x, y);
  o[5] = rhadd(x, y);
  o[6] = clamp(x, -1000, 1000);
  o[7] = abs_diff(x, y);
  o[8] = mad_sat(x, 3, y);
  o[9] = (int)upsample((short)x, (ushort)y);
  o[10] = mad_hi(x, y, 7);
  o[11] = (int)mul_hi((uint)x, 0x9E3779B9u);
}
