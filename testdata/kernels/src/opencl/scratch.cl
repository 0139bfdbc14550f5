// scratch: a private array indexed by lane data. It is too large for
// registers and written through a dynamic index, so clang places it in the
// private segment (scratch) — the kernel's private_segment_fixed_size > 0.
#define N 96
kernel void private_array(global const uint *idx, global uint *out) {
  size_t i = get_global_id(0);
  uint arr[N];
  for (uint k = 0; k < N; k++)
    arr[k] = k * 7u + (uint)i;
  uint j = idx[i];
  for (uint k = 0; k < 8; k++) {
    arr[(j + k * 13u) % N] ^= arr[(j * 5u + k) % N] + k;
  }
  uint acc = 0;
  for (uint k = 0; k < 4; k++)
    acc = acc * 31u + arr[(j + k * 29u) % N];
  out[i] = acc;
}
