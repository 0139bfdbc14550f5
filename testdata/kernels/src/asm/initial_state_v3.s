// initial_state_v3: a code object V3+ kernel (.amdhsa_kernel) that enables
// every initial SGPR and VGPR item the kernel descriptor can request and
// writes the registers it received to memory, so the emulator's initial wave
// state can be checked register by register.
//
// Kernarg: one pointer `out`. out[0] is a slot counter (zero it before the
// dispatch); each work-item takes a slot with a global atomic add and writes
// a 32-dword record at byte offset 256 + slot*128:
//   [0] v0  [1] v1  [2] v2  [3] slot  [4+k] s<k> for k = 0..19
//   [24] exec_lo  [25] exec_hi (0 on wave32)  [26..31] 0
// SGPR layout with everything enabled (AMDGPUUsage "Initial Kernel Execution
// State"): s[0:3] private segment buffer, s[4:5] dispatch ptr, s[6:7] queue
// ptr, s[8:9] kernarg segment ptr, s[10:11] dispatch id, s[12:13] flat
// scratch init, s14 private segment size, s15-s17 workgroup id x/y/z,
// s18 workgroup info, s19 private segment wavefront offset.
// VGPRs: v0/v1/v2 = work-item id x/y/z; on targets with packed work-item IDs
// (assembled with --defsym PACKED_TID=1) v0 holds all three (10 bits each)
// and the kernel stores 0 for v1 and v2.
// Assembled with --defsym WAVE32=1 for wave32 (gfx10) targets.

	.text
	.globl	initial_state
	.p2align	8
	.type	initial_state,@function
initial_state:
	// Keep v0-v2 and s0-s19 intact: work only in v3+ and s20+.
	s_load_dwordx2	s[20:21], s[8:9], 0x0
	v_mov_b32	v3, 0
	v_mov_b32	v4, 1
	s_waitcnt	lgkmcnt(0)
	global_atomic_add	v5, v3, v4, s[20:21] glc
	s_waitcnt	vmcnt(0)
	v_lshlrev_b32	v6, 7, v5
.ifdef WAVE32
	v_add_nc_u32_e32	v6, 0x100, v6
.else
	v_add_u32_e32	v6, 0x100, v6
.endif
.ifdef PACKED_TID
	v_mov_b32	v1, 0
	v_mov_b32	v2, 0
.endif
	global_store_dword	v6, v0, s[20:21]
	global_store_dword	v6, v1, s[20:21] offset:4
	global_store_dword	v6, v2, s[20:21] offset:8
	global_store_dword	v6, v5, s[20:21] offset:12
	v_mov_b32	v7, s0
	global_store_dword	v6, v7, s[20:21] offset:16
	v_mov_b32	v7, s1
	global_store_dword	v6, v7, s[20:21] offset:20
	v_mov_b32	v7, s2
	global_store_dword	v6, v7, s[20:21] offset:24
	v_mov_b32	v7, s3
	global_store_dword	v6, v7, s[20:21] offset:28
	v_mov_b32	v7, s4
	global_store_dword	v6, v7, s[20:21] offset:32
	v_mov_b32	v7, s5
	global_store_dword	v6, v7, s[20:21] offset:36
	v_mov_b32	v7, s6
	global_store_dword	v6, v7, s[20:21] offset:40
	v_mov_b32	v7, s7
	global_store_dword	v6, v7, s[20:21] offset:44
	v_mov_b32	v7, s8
	global_store_dword	v6, v7, s[20:21] offset:48
	v_mov_b32	v7, s9
	global_store_dword	v6, v7, s[20:21] offset:52
	v_mov_b32	v7, s10
	global_store_dword	v6, v7, s[20:21] offset:56
	v_mov_b32	v7, s11
	global_store_dword	v6, v7, s[20:21] offset:60
	v_mov_b32	v7, s12
	global_store_dword	v6, v7, s[20:21] offset:64
	v_mov_b32	v7, s13
	global_store_dword	v6, v7, s[20:21] offset:68
	v_mov_b32	v7, s14
	global_store_dword	v6, v7, s[20:21] offset:72
	v_mov_b32	v7, s15
	global_store_dword	v6, v7, s[20:21] offset:76
	v_mov_b32	v7, s16
	global_store_dword	v6, v7, s[20:21] offset:80
	v_mov_b32	v7, s17
	global_store_dword	v6, v7, s[20:21] offset:84
	v_mov_b32	v7, s18
	global_store_dword	v6, v7, s[20:21] offset:88
	v_mov_b32	v7, s19
	global_store_dword	v6, v7, s[20:21] offset:92
	v_mov_b32	v7, exec_lo
	global_store_dword	v6, v7, s[20:21] offset:96
.ifdef WAVE32
	v_mov_b32	v7, 0
.else
	v_mov_b32	v7, exec_hi
.endif
	global_store_dword	v6, v7, s[20:21] offset:100
	v_mov_b32	v7, 0
	global_store_dword	v6, v7, s[20:21] offset:104
	global_store_dword	v6, v7, s[20:21] offset:108
	global_store_dword	v6, v7, s[20:21] offset:112
	global_store_dword	v6, v7, s[20:21] offset:116
	global_store_dword	v6, v7, s[20:21] offset:120
	global_store_dword	v6, v7, s[20:21] offset:124
	s_endpgm
.Lfunc_end0:
	.size	initial_state, .Lfunc_end0-initial_state

	.rodata
	.p2align	6
// The descriptor and metadata differ per target family, and directives
// inside .amdhsa_kernel cannot be conditional, so whole blocks are.
.ifdef PACKED_TID
	.amdhsa_kernel initial_state
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 1
		.amdhsa_system_sgpr_workgroup_info 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 22
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .name:            initial_state
    .symbol:          initial_state.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 16
    .max_flat_workgroup_size: 256
    .sgpr_count:      22
    .vgpr_count:      8
    .wavefront_size:  64
    .args:
      - .name:           out
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
amdhsa.version:
  - 1
  - 1
...
	.end_amdgpu_metadata
.else
.ifdef WAVE32
	.amdhsa_kernel initial_state
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 1
		.amdhsa_system_sgpr_workgroup_info 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 22
		.amdhsa_wavefront_size32 1
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .name:            initial_state
    .symbol:          initial_state.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 16
    .max_flat_workgroup_size: 256
    .sgpr_count:      22
    .vgpr_count:      8
    .wavefront_size:  32
    .args:
      - .name:           out
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
amdhsa.version:
  - 1
  - 1
...
	.end_amdgpu_metadata
.else
	.amdhsa_kernel initial_state
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 1
		.amdhsa_system_sgpr_workgroup_info 1
		.amdhsa_system_vgpr_workitem_id 2
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 22
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .name:            initial_state
    .symbol:          initial_state.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 16
    .max_flat_workgroup_size: 256
    .sgpr_count:      22
    .vgpr_count:      8
    .wavefront_size:  64
    .args:
      - .name:           out
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
amdhsa.version:
  - 1
  - 1
...
	.end_amdgpu_metadata
.endif
.endif
