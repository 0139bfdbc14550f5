// char_short: 8- and 16-bit loads and stores with sign and zero extension,
// and vector loads/stores (vload4/vstore2) of narrow types.
kernel void char_short(global const char *c, global const uchar *uc,
                       global const short *s, global const ushort *us,
                       global int *out, global short *sout) {
  size_t i = get_global_id(0);
  out[i * 4 + 0] = c[i] * 3;
  out[i * 4 + 1] = uc[i] + 1000;
  out[i * 4 + 2] = s[i] >> 2;
  out[i * 4 + 3] = us[i] ^ 0x8000;
  char4 v = vload4(i, c);
  short2 w = (short2)((short)(v.x + v.y), (short)(v.z * v.w));
  vstore2(w, i, sout);
}
