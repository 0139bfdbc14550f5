// printf: OpenCL printf calls covering every conversion, flag, width,
// precision, length modifier and vector form the decoder supports, with
// arguments computed at run time from the kernel arguments so the compiler
// cannot fold them (work-item 0 only). LLVM 15's printf pass does not count
// the conversions %F and %A nor '*' widths: a call using them gets a
// descriptor whose argument count N is the real one but which lists (and
// stores) only one argument per counted conversion, so its last arguments
// are lost.
kernel void printf_kernel(global const int *in, float f, double d, long l,
                          constant char *cs) {
  if (get_global_id(0) != 0)
    return;
  int n = in[0];
  printf("%d %i %u %x %X %o %c|\n", n, -n, (uint)-n, n, n * 1000, n, 'A' + n);
  printf("%5d|%-5d|%05d|%+d|% d|%#x|%#o|%.3d|%*d|%-*d|\n", n, n, n, n, n, n * 255,
         n, n, n + 2, n, n + 2, n);
  printf("%f %F %e %E %g %G %a %A\n", f, f * 2.0f, f * 3.0f, -f, f + 1.0f,
         f * 1e10f, f / 3.0f, -f * 1e-3f);
  printf("%.0f|%.10f|%10.3e|%-12g|%#g|%+.2e|%08.3f\n", d, d, d, d, d, d, -d);
  printf("%s|%10s|%-10s|%.2s|\n", "abc", "abc", "abc", "abcdef");
  printf("%ld %lu %lx %hd %hhd %hu %lld\n", l, (ulong)-l, l, (short)n,
         (char)n, (ushort)-n, l * 3);
  printf("%v4d|%v2f|%v3hhd|%v4hd|%v2hlf|%v2ld|%v4hlx\n", (int4)(n, 2, 3, 4),
         (float2)(f, -f), (char3)(1, -2, (char)n), (short4)(n, -n, 7, 8),
         (float2)(f, 2.0f), (long2)(l, -l), (int4)(n, 255, 256, -1));
  printf("100%% a:b:c\ttab\\back \"quoted\" \a\b\f\v\r\n");
  printf("no args\n");
  printf("%s|%c%c\n", cs, 'x', (char)(n + 48));
  printf("%f %e %g %f %F %a\n", f / 0.0f, -f / 0.0f, d / 0.0, 0.0f / 0.0f * f,
         -(0.0f / 0.0f * f), -d / 0.0);
  // One promoted float used twice: LLVM 15 stores the first as a 4-byte
  // float and the second as an 8-byte double.
  printf("dup %f %e\n", f, f);
  printf("%p %p\n", in, (global void *)0);
  printf("%.3g|%.3g|%g|%g|%g|%#.3x|%.0d|%5.1s|\n", 1234567.0 * n, 0.0001234 * f,
         100000.0 * n, 1000000.0 * n, 1e-5 * f, 0, 0, "xyz");
}
