// wave_intrinsics: the AMDGCN builtins hand-tuned HIP code (rocPRIM, CK,
// PyTorch's reductions) reaches for: __builtin_amdgcn_ds_swizzle (quad-perm
// and bit modes), __builtin_amdgcn_update_dpp / mov_dpp (row shifts, row
// rotate, row broadcasts, quad perms, with bound_ctrl), readfirstlane,
// readlane, ds_permute / ds_bpermute and mbcnt, each checked against a
// host model of the wave. (The clocks are clocks.hip.)
#include "common.h"

#define N 256
#define NO 16

__global__ void wave_ops(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int *o = out + i * NO;
  o[0] = __builtin_amdgcn_ds_swizzle(v, 0x801b);       // quad perm [3,2,1,0]
  o[1] = __builtin_amdgcn_ds_swizzle(v, (0x1f) | (0x00 << 5) | (0x01 << 10));  // bit mode: xor 1
  o[2] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false);  // row_shr:1, old = -1
  o[3] = __builtin_amdgcn_update_dpp(-1, v, 0x101, 0xf, 0xf, true);   // row_shl:1, bound_ctrl -> 0
  o[4] = __builtin_amdgcn_update_dpp(0, v, 0x124, 0xf, 0xf, false);   // row_ror:4
  o[5] = __builtin_amdgcn_update_dpp(0, v, 0x142, 0xf, 0xf, false);   // row_bcast:15
  o[6] = __builtin_amdgcn_update_dpp(0, v, 0x143, 0xf, 0xf, false);   // row_bcast:31
  o[7] = __builtin_amdgcn_update_dpp(0, v, 0x1b, 0xf, 0xf, false);    // quad_perm [3,2,1,0]
  o[8] = __builtin_amdgcn_readfirstlane(v);
  o[9] = __builtin_amdgcn_readlane(v, 37);
  o[10] = __builtin_amdgcn_readlane(v, 63) - __builtin_amdgcn_readfirstlane(v + 1);
  int lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0));
  o[11] = __builtin_amdgcn_ds_permute(((lane + 3) & 63) << 2, v);   // push to lane+3
  o[12] = __builtin_amdgcn_ds_bpermute(((lane * 5) & 63) << 2, v);  // pull from 5*lane
  o[13] = lane;
  o[14] = __builtin_amdgcn_update_dpp(0, v, 0x130, 0xf, 0xf, false);  // wave_shl:1 (gfx9)
  o[15] = __builtin_amdgcn_update_dpp(7, v, 0x111, 0x5, 0xf, false);  // row_shr:1, rows 0 and 2 only
}

int main() {
  static int h[N], out[N * NO];
  unsigned s = 3;
  for (int i = 0; i < N; i++) h[i] = (int)(lcg(s) % 100000);
  int *din, *dout;
  CHECK(hipMalloc(&din, sizeof h));
  CHECK(hipMalloc(&dout, sizeof out));
  CHECK(hipMemcpy(din, h, sizeof h, hipMemcpyHostToDevice));
  wave_ops<<<N / 64, 64>>>(din, dout);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost));
  const char *names[NO] = {"swizzle quad", "swizzle xor1", "dpp row_shr:1", "dpp row_shl:1 bc", "dpp row_ror:4",
                           "dpp row_bcast:15", "dpp row_bcast:31", "dpp quad_perm", "readfirstlane", "readlane 37",
                           "readlane 63 - readfirstlane", "ds_permute", "ds_bpermute", "mbcnt", "dpp wave_shl:1", "dpp row_mask 0x5"};
  for (int i = 0; i < N; i++) {
    int l = i % 64, base = i - l, row = l / 16, rl = l % 16;
    auto at = [&](int k) { return h[base + k]; };
    int e[NO];
    e[0] = at((l & ~3) | (3 - (l & 3)));
    e[1] = at(((l & 31) ^ 1) | (l & 32));
    e[2] = rl >= 1 ? at(l - 1) : -1;
    e[3] = rl <= 14 ? at(l + 1) : 0;
    e[4] = at(row * 16 + (rl + 12) % 16);  // rotate right by 4: lane takes rl-4
    // row_bcast:15: lane 15 of each row goes to all lanes of the next row; row 0 keeps old (0)
    e[5] = row >= 1 ? at(row * 16 - 1) : 0;
    // row_bcast:31: lane 31 to rows 2 and 3; rows 0-1 keep old
    e[6] = row >= 2 ? at(31) : 0;
    e[7] = at((l & ~3) | (3 - (l & 3)));
    e[8] = at(0);
    e[9] = at(37);
    e[10] = at(63) - (at(0) + 1);
    e[11] = at((l + 61) & 63);  // lane l received from lane l-3
    e[12] = at((l * 5) & 63);
    e[13] = l;
    e[14] = l <= 62 ? at(l + 1) : 0;
    e[15] = (row == 0 || row == 2) ? (rl >= 1 ? at(l - 1) : 7) : 7;
    for (int k = 0; k < NO; k++)
      EXPECT(out[i * NO + k] == e[k], "%s lane %d (wave %d): %d want %d", names[k], l, i / 64, out[i * NO + k], e[k]);
  }
  DONE("wave_intrinsics");
}
