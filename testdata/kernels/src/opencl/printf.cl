// printf: device printf with several formats, from the first work-item of
// every 64-item block (several waves on wave64 and wave32 targets).
kernel void printf_formats(global const int *in, global const float *f) {
  size_t i = get_global_id(0);
  if (i % 64 != 0)
    return;
  int v = in[i];
  float x = f[i];
  printf("item %u: d=%d i=%i u=%u x=%x X=%X o=%o c=%c\n", (uint)i, v, -v,
         (uint)v, v, v + 255, v, 'A' + (int)(i / 64));
  printf("item %u: f=%f e=%e g=%g 5.2f=[%5.2f] -8d=[%-8d] %s %%\n", (uint)i,
         x, x * 1000.0f, x, x, v, "str");
  printf("item %u: ld=%ld lu=%lu v4=%v4hld\n", (uint)i, (long)v * 100000l,
         (ulong)i, (int4)(1, 2, 3, (int)i));
}
