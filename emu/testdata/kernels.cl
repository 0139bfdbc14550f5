// Test kernels for package emu. Build with build.sh (clang-15, rocm-device-libs).

__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

__kernel void saxpy(float alpha, __global const float *x, __global float *y, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = alpha * x[i] + y[i];
}

__kernel void fdiv(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] / b[i] + sqrt(fabs(a[i]));
}

__kernel void intalu(__global const uint *a, __global const uint *b, __global uint *out, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint x = a[i], y = b[i];
  int sx = (int)x, sy = (int)y;
  ulong p = (ulong)x * (ulong)y;
  uint r = 0;
  r ^= mul_hi(x, y);
  r ^= (uint)mul_hi(sx, sy) * 3u;
  r ^= rotate(x, y & 31u);
  r ^= clz(x) + popcount(y) * 7u;
  r ^= (uint)(p >> 17) + (uint)p;
  r ^= (y != 0) ? x / y : 0xdeadu;
  r ^= (sy != 0 && !(sx == INT_MIN && sy == -1)) ? (uint)(sx % sy) : 0xbeefu;
  r ^= (uint)((long)sx * (long)sy >> 40);
  r ^= abs_diff(sx, sy);
  r ^= (uint)max(sx, sy) + (uint)min(x, y);
  r ^= (sx < 0) ? (uint)(sx >> 3) : x << (y & 7u);
  r ^= (uint)mad24(sx & 0xffff, sy & 0xffff, 5);
  r ^= (uint)((ulong)p % 1000003ul);
  out[i] = r;
}

__kernel void reduce(__global const int *in, __global int *out, int n, __local int *tmp) {
  int lid = get_local_id(0);
  int i = get_global_id(0);
  tmp[lid] = i < n ? in[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}

__kernel void divloop(__global const int *in, __global float *out, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int k = in[i] & 63;
  float acc = 0.0f;
  int iacc = 0;
  for (int j = 0; j < k; j++) {
    acc = acc * 0.5f + (float)j;
    iacc += j * i;
    if (iacc & 1) iacc ^= 0x55;
  }
  out[i] = acc + (float)iacc;
}

// Wave 0 of each workgroup spins on an LDS flag that wave 1 sets.
__kernel void ldsflag(__global int *out) {
  __local volatile int flag;
  int lid = get_local_id(0);
  if (lid == 0) flag = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 64) flag = 42 + (int)get_group_id(0);
  if (lid == 0) {
    int spins = 0;
    while (flag == 0) spins++;
    out[get_group_id(0)] = flag;
  }
}

__kernel void atomics(__global const int *in, __global int *sum, __global uint *mx, __global int *cnt, int n) {
  int i = get_global_id(0);
  if (i < n) {
    atomic_add(sum, in[i]);
    atomic_max(mx, (uint)in[i]);
    int old = atomic_inc(cnt);
    if (old < 0) sum[1] = -1;
  }
}

__kernel void oobwrite(__global int *p, int n) {
  int i = get_global_id(0);
  if (i == n) p[i + (1 << 28)] = 1;
  else if (i < n) p[i] = i;
}

__kernel void nullread(__global int *p, __global int *out) {
  out[get_global_id(0)] = p[get_global_id(0)];
}

__kernel void trap(__global int *out, int n) {
  int i = get_global_id(0);
  if (i == n) __builtin_trap();
  out[i] = i;
}

__kernel void privarr(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int a[40];
  for (int j = 0; j < 40; j++) a[j] = in[(i + j) % n] * j;
  int s = 0;
  for (int j = 0; j < 40; j++) s += a[(j * 7 + i) % 40];
  if (i < n) out[i] = s;
}

// Private memory written through scratch (MUBUF with the private segment
// V# on gfx90a, scratch_* on gfx940) and read back through a flat load of
// an address-space-cast (generic) pointer.
__attribute__((noinline)) int readgen(__generic volatile int *p, int k) { return p[k]; }

__kernel void privflat(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  volatile int a[16];
  for (int j = 0; j < 16; j++) a[j] = in[(i + j) % n] + j;
  if (i < n) out[i] = readgen((__generic volatile int *)a, i % 16) * 3 + readgen((__generic volatile int *)a, (i + 5) % 16);
}

// Each workgroup waits for its predecessor's flag, then sets its own
// (decoupled look-back): terminates only if earlier workgroups progress.
__kernel void chain(__global volatile int *flags, __global int *out) {
  int g = get_group_id(0);
  if (get_local_id(0) == 0) {
    int prev = 0;
    if (g > 0) {
      while (atomic_load_explicit((__global volatile atomic_int *)&flags[g - 1], memory_order_acquire, memory_scope_device) == 0) {}
      prev = out[g - 1];
    }
    out[g] = prev + g;
    atomic_store_explicit((__global volatile atomic_int *)&flags[g], 1, memory_order_release, memory_scope_device);
  }
}

// The n-body inner loop: float mul/add/rsqrt on loaded data (the VALU
// throughput benchmark).
__kernel void nbody(__global const float4 *pos, __global float4 *acc, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; j++) {
    float4 q = pos[j];
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
    float inv = rsqrt(r2);
    float s = q.w * inv * inv * inv;
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  acc[i] = (float4)(ax, ay, az, 0.0f);
}

// Cross-lane operations: DPP moves, ds_swizzle, ds_bpermute, readlane, mbcnt.
__kernel void lanes(__global const int *in, __global int *out) {
  int i = get_global_id(0);
  int x = in[i];
  __global int *o = out + i * 8;
  o[0] = __builtin_amdgcn_mov_dpp(x, 0x1B, 0xF, 0xF, false); // quad_perm:[3,2,1,0]
  o[1] = __builtin_amdgcn_mov_dpp(x, 0x111, 0xF, 0xF, true); // row_shr:1 bound_ctrl:0
  o[2] = __builtin_amdgcn_mov_dpp(x, 0x140, 0xF, 0xF, false); // row_mirror
  o[3] = __builtin_amdgcn_ds_swizzle(x, 0x041F);             // xor_mask 1
  o[4] = __builtin_amdgcn_ds_bpermute(((i & 63) ^ 5) * 4, x);
  o[5] = __builtin_amdgcn_readlane(x, 7);
  o[6] = __builtin_amdgcn_mov_dpp(x, 0x138, 0xF, 0xF, true); // wave_shr:1 bound_ctrl:0
  o[7] = (int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

// Byte and half-word arithmetic (SDWA selects on GFX9).
__kernel void bytes(__global const uchar4 *a, __global const short2 *b, __global uchar4 *c, __global short2 *d) {
  int i = get_global_id(0);
  uchar4 x = a[i];
  short2 y = b[i];
  c[i] = x * (uchar4)(3) + x.wzyx;
  d[i] = (short2)(y.x * y.y, y.y - y.x) >> (short2)(1);
}
