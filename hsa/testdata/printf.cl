// printf: one OpenCL printf call, for Launch's printf buffer handling.
kernel void hello(global int *out, int n) {
  if (get_global_id(0) == 0)
    printf("hello %d from %s\n", n, "rocpu");
  out[get_global_id(0)] = n;
}
