// int_alu: 32-bit integer ALU coverage. Every result is fully defined for any
// input (division by zero and INT_MIN/-1 are steered away, shift amounts are
// masked, mul24/mad24 operands are sign-extended from 24 bits), so outputs
// compare bit-exactly with any reference.
#define NOUT 32
kernel void int_alu(global const int *a, global const int *b,
                    global int *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  uint ux = (uint)x, uy = (uint)y;
  int d = (y == 0) ? 1 : y;
  if (x == INT_MIN && d == -1)
    d = 1;
  uint ud = (uy == 0) ? 1u : uy;
  int s = y & 31;
  int x24 = (int)(ux << 8) >> 8, y24 = (int)(uy << 8) >> 8;
  uint ux24 = ux & 0xFFFFFFu, uy24 = uy & 0xFFFFFFu;
  global int *o = out + i * NOUT;
  o[0] = (int)(ux + uy);
  o[1] = (int)(ux - uy);
  o[2] = (int)(ux * uy);
  o[3] = mul_hi(x, y);
  o[4] = (int)mul_hi(ux, uy);
  o[5] = x / d;
  o[6] = x % d;
  o[7] = (int)(ux / ud);
  o[8] = (int)(ux % ud);
  o[9] = (int)(ux << s);
  o[10] = x >> s;
  o[11] = (int)(ux >> s);
  o[12] = (int)rotate(ux, (uint)y);
  o[13] = x & y;
  o[14] = x | y;
  o[15] = x ^ y;
  o[16] = ~x;
  o[17] = popcount(x);
  o[18] = clz(x);
  o[19] = (int)abs(x);
  o[20] = min(x, y);
  o[21] = max(x, y);
  o[22] = (int)min(ux, uy);
  o[23] = (int)max(ux, uy);
  o[24] = mul24(x24, y24);
  o[25] = mad24(x24 >> 12, y24 >> 12, x >> 8);
  o[26] = (int)mul24(ux24, uy24);
  o[27] = (int)mad24(ux24, uy24, uy);
  o[28] = (int)(0u - ux);
  o[29] = (x < y) ? x : (int)(uy * 3u);
  o[30] = (int)(ux < uy);
  o[31] = ctz(x);
}
