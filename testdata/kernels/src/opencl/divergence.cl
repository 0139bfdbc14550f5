// divergence: control flow that depends on lane data, so lanes of one wave
// take different paths and the EXEC mask must be saved and restored.
kernel void divergent_if(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  int r;
  if (v & 1) {
    r = v * 3 + 1;
    if (v > 100)
      r -= 7;
  } else {
    r = v / 2;
  }
  out[i] = r;
}

// divergent_loop: a Collatz-style loop whose trip count differs per lane.
kernel void divergent_loop(global const uint *in, global uint *out) {
  size_t i = get_global_id(0);
  uint v = in[i] % 1000u + 1u;
  uint steps = 0;
  while (v != 1u && steps < 500u) {
    v = (v & 1u) ? 3u * v + 1u : v >> 1;
    steps++;
  }
  out[i] = steps;
}

// early_return: some lanes leave before the store, others continue.
kernel void early_return(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  out[i] = -1;
  if (v < 0)
    return;
  int acc = 0;
  for (int k = 0; k < (v & 15); k++) {
    if (k == 9)
      return;
    acc += k * v;
  }
  out[i] = acc;
}

// switch_case: a switch on lane data, compiled to a branch tree.
kernel void switch_case(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int v = in[i];
  int r;
  switch (v & 7) {
  case 0: r = v + 10; break;
  case 1: r = v * 2; break;
  case 2: r = v ^ 0x55; break;
  case 3: r = v - 1000; /* fall through */
  case 4: r = v << 1; break;
  case 6: r = -v; break;
  default: r = 42; break;
  }
  out[i] = r;
}
