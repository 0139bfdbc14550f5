// amdgcn_builtins: AMDGPU cross-lane built-ins that clang-15 exposes. Not
// portable OpenCL (PoCL cannot run it); results depend on the wave size
// (__AMDGCN_WAVEFRONT_SIZE), which the Go reference takes as a parameter.
#define NOUT 12
kernel void amdgcn_builtins(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int x = in[i];
  uint lane = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  global int *o = out + i * NOUT;
  o[0] = __builtin_amdgcn_readfirstlane(x);
  o[1] = __builtin_amdgcn_readlane(x, 3);
  // ds_swizzle bit-mask mode: and_mask=0x1f, or_mask=0, xor_mask=1 (swap
  // neighbours within 32 lanes).
  o[2] = __builtin_amdgcn_ds_swizzle(x, 0x041F);
  // DPP row_shr:1 with bound_ctrl (lanes shifted in from outside get 0).
  o[3] = __builtin_amdgcn_mov_dpp(x, 0x111, 0xF, 0xF, true);
  // DPP quad_perm:[3,2,1,0] with old value 0.
  o[4] = __builtin_amdgcn_update_dpp(0, x, 0x1B, 0xF, 0xF, false);
  o[5] = __builtin_amdgcn_ds_bpermute((int)(((lane + 1) % __AMDGCN_WAVEFRONT_SIZE) * 4), x);
  ulong ballot = __builtin_amdgcn_uicmp((uint)x & 1u, 0u, 33); // ICMP_NE
  o[6] = (int)ballot;
  o[7] = (int)(ballot >> 32);
  ulong lt = __builtin_amdgcn_sicmp(x, 0, 40); // ICMP_SLT
  o[8] = (int)lt;
  o[9] = (int)lane;
  o[10] = __AMDGCN_WAVEFRONT_SIZE;
  o[11] = __builtin_amdgcn_ds_permute((int)((lane ^ 1u) * 4), x);
}
