// kinds: one argument of every explicit value kind, plus device enqueue
// (hidden_default_queue, hidden_completion_action) and generic-pointer
// aperture checks (hidden_shared_base / hidden_private_base on gfx8, V5).
typedef struct { char c; int i; double d; } S;

kernel void child(global int *g) { g[get_global_id(0)] += 1; }

kernel void kinds(global int *g, local float *l, constant int *c, S s, char ch,
                  short sh, double d, float4 v, read_only image2d_t img,
                  sampler_t smp, read_only pipe int p, queue_t q,
                  local int4 *l2) {
  size_t i = get_global_id(0);
  l[get_local_id(0)] = v.x;
  l2[0] = (int4)(1, 2, 3, 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 px = read_imagef(img, smp, (int2)(0, 0));
  g[i] = c[0] + s.c + s.i + (int)s.d + ch + sh + (int)d + (int)l[0] + (int)px.y + l2[0].w +
         get_pipe_num_packets(p);
  if (i == 0)
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT,
                   ndrange_1D(1), ^{ g[0] = 7; });
}

kernel void flat(global int *g, local int *l, int n) {
  int priv[4] = {n, n + 1, n + 2, n + 3};
  generic int *p = (n & 1) ? (generic int *)l : (generic int *)&priv[n & 3];
  l[0] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  g[get_global_id(0)] = *p + (to_local(p) != 0) + (to_private(p) != 0) + (int)get_global_offset(0);
}
