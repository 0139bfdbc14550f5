// int64_alu: 64-bit integer arithmetic including division and remainder by
// variables (lowered to long call-free sequences on AMDGPU).
#define NOUT 20
kernel void int64_alu(global const long *a, global const long *b,
                      global long *out) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  ulong ux = (ulong)x, uy = (ulong)y;
  long d = (y == 0) ? 1 : y;
  if (x == LONG_MIN && d == -1)
    d = 1;
  ulong ud = (uy == 0) ? 1ul : uy;
  int s = (int)(y & 63);
  global long *o = out + i * NOUT;
  o[0] = (long)(ux + uy);
  o[1] = (long)(ux - uy);
  o[2] = (long)(ux * uy);
  o[3] = mul_hi(x, y);
  o[4] = (long)mul_hi(ux, uy);
  o[5] = x / d;
  o[6] = x % d;
  o[7] = (long)(ux / ud);
  o[8] = (long)(ux % ud);
  o[9] = (long)(ux << s);
  o[10] = x >> s;
  o[11] = (long)(ux >> s);
  o[12] = x & y;
  o[13] = x | y;
  o[14] = x ^ y;
  o[15] = popcount(x);
  o[16] = clz(x);
  o[17] = min(x, y);
  o[18] = (long)max(ux, uy);
  o[19] = (long)rotate(ux, (ulong)y);
}
