// calls: a kernel calling non-inlined functions, so real calls
// (s_swappc/s_setpc), the stack pointer and frame setup appear. helper_sum
// takes a pointer to the caller's private array, so the stack is in scratch.
__attribute__((noinline)) int helper_sum(private int *arr, int n, int k) {
  int s = 0;
  for (int j = 0; j < n; j++)
    s += arr[j] * (j + k);
  return s;
}

__attribute__((noinline)) float helper_poly(float x, float a, float b,
                                            float c) {
  return (a * x + b) * x + c;
}

kernel void calls(global const int *in, global int *out, global float *fout) {
  size_t i = get_global_id(0);
  int arr[8];
  for (int j = 0; j < 8; j++)
    arr[j] = in[(i + j) % get_global_size(0)];
  out[i] = helper_sum(arr, 8, (int)i & 3) + helper_sum(arr, 4, 1);
  fout[i] = helper_poly((float)in[i] * 0.25f, 0.5f, -2.0f, 3.0f);
}
