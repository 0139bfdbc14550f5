// initial_state_v2: code object V2 kernels (.amd_kernel_code_t) that enable
// the initial SGPR/VGPR items and write the registers they received to
// memory, record by record, for checking the emulator's initial wave state.
//
// Kernarg: one pointer `out`. out[0] is a slot counter (zero it before the
// dispatch); each work-item takes a slot with a flat atomic add and writes a
// 32-dword record at byte offset 256 + slot*128:
//   [0] v0  [1] v1  [2] v2 (work-item id x/y/z)  [3] slot
//   [4+k] s<k> for every received SGPR  then exec_lo, exec_hi, zeros.
//
// initial_state_v2 enables every item except the grid work-group counts
// (20 SGPRs): s[0:3] private segment buffer, s[4:5] dispatch ptr, s[6:7]
// queue ptr, s[8:9] kernarg segment ptr, s[10:11] dispatch id, s[12:13]
// flat scratch init, s14 private segment size, s15-s17 workgroup id x/y/z,
// s18 workgroup info, s19 private segment wave byte offset; record dwords
// 24/25 are exec_lo/exec_hi.
//
// initial_state_v2_gridcount enables the grid work-group counts, which only
// amd_kernel_code_t can request (the CP never implemented them; AMDGPUUsage
// says they should be 0, and Y/Z are only set when fewer than 16 SGPRs
// precede them), with few enough other items that all three fit (11
// SGPRs): s[0:1] dispatch ptr, s[2:3] kernarg segment ptr, s4-s6 grid
// work-group count x/y/z, s7-s9 workgroup id x/y/z, s10 workgroup info;
// record dwords 15/16 are exec_lo/exec_hi.
//
// Assemble with --defsym GFX9=1 for GFX9 targets: the carry-out add is
// spelt differently there (the build strips the GFX9 symbol afterwards).

	.hsa_code_object_version 2,1
	// Without arguments the ISA note comes from -mcpu.
	.hsa_code_object_isa

// ADD64 lo, hi, off: (hi:lo) += off (32-bit, zero-extended).
.macro ADD64 lo, hi, off
.ifdef GFX9
	v_add_co_u32	\lo, vcc, \lo, \off
	v_addc_co_u32	\hi, vcc, \hi, 0, vcc
.else
	v_add_u32	\lo, vcc, \lo, \off
	v_addc_u32	\hi, vcc, \hi, 0, vcc
.endif
.endm

// STORE reg: store reg at v[8:9] and advance v[8:9] by 4 bytes (GFX8 FLAT
// has no immediate offset).
.macro STORE reg
	flat_store_dword	v[8:9], \reg
.ifdef GFX9
	v_add_co_u32	v8, vcc, 4, v8
	v_addc_co_u32	v9, vcc, v9, 0, vcc
.else
	v_add_u32	v8, vcc, 4, v8
	v_addc_u32	v9, vcc, v9, 0, vcc
.endif
.endm

	.text
	.globl	initial_state_v2
	.p2align	8
	.type	initial_state_v2,@function
	.amdgpu_hsa_kernel initial_state_v2
initial_state_v2:
	.amd_kernel_code_t
		kernel_code_entry_byte_offset = 256
		granulated_workitem_vgpr_count = 2
		float_mode = 192
		enable_dx10_clamp = 1
		enable_ieee_mode = 1
		granulated_wavefront_sgpr_count = 3
		user_sgpr_count = 15
		enable_sgpr_private_segment_wave_byte_offset = 1
		enable_sgpr_workgroup_id_x = 1
		enable_sgpr_workgroup_id_y = 1
		enable_sgpr_workgroup_id_z = 1
		enable_sgpr_workgroup_info = 1
		enable_sgpr_private_segment_buffer = 1
		enable_sgpr_dispatch_ptr = 1
		enable_sgpr_queue_ptr = 1
		enable_sgpr_kernarg_segment_ptr = 1
		enable_sgpr_dispatch_id = 1
		enable_sgpr_flat_scratch_init = 1
		enable_sgpr_private_segment_size = 1
		workitem_private_segment_byte_size = 16
		wavefront_sgpr_count = 24
		enable_vgpr_workitem_id = 2
		private_element_size = 1
		is_ptr64 = 1
		kernarg_segment_byte_size = 8
		workitem_vgpr_count = 10
		kernarg_segment_alignment = 4
		group_segment_alignment = 4
		private_segment_alignment = 4
		wavefront_size = 6
		call_convention = -1
	.end_amd_kernel_code_t
	// Work only in v3+ and s20+ so the received registers stay intact.
	s_load_dwordx2	s[20:21], s[8:9], 0x0
	v_mov_b32	v4, 1
	s_waitcnt	lgkmcnt(0)
	v_mov_b32	v8, s20
	v_mov_b32	v9, s21
	flat_atomic_add	v5, v[8:9], v4 glc
	s_waitcnt	vmcnt(0) lgkmcnt(0)
	v_lshlrev_b32	v6, 7, v5
.ifdef GFX9
	v_add_u32	v6, 0x100, v6
.else
	v_add_u32	v6, vcc, 0x100, v6
.endif
	ADD64	v8, v9, v6
	STORE	v0
	STORE	v1
	STORE	v2
	STORE	v5
	v_mov_b32	v7, s0
	STORE	v7
	v_mov_b32	v7, s1
	STORE	v7
	v_mov_b32	v7, s2
	STORE	v7
	v_mov_b32	v7, s3
	STORE	v7
	v_mov_b32	v7, s4
	STORE	v7
	v_mov_b32	v7, s5
	STORE	v7
	v_mov_b32	v7, s6
	STORE	v7
	v_mov_b32	v7, s7
	STORE	v7
	v_mov_b32	v7, s8
	STORE	v7
	v_mov_b32	v7, s9
	STORE	v7
	v_mov_b32	v7, s10
	STORE	v7
	v_mov_b32	v7, s11
	STORE	v7
	v_mov_b32	v7, s12
	STORE	v7
	v_mov_b32	v7, s13
	STORE	v7
	v_mov_b32	v7, s14
	STORE	v7
	v_mov_b32	v7, s15
	STORE	v7
	v_mov_b32	v7, s16
	STORE	v7
	v_mov_b32	v7, s17
	STORE	v7
	v_mov_b32	v7, s18
	STORE	v7
	v_mov_b32	v7, s19
	STORE	v7
	v_mov_b32	v7, exec_lo
	STORE	v7
	v_mov_b32	v7, exec_hi
	STORE	v7
	v_mov_b32	v7, 0
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	s_endpgm
.Linitial_state_v2_end:
	.size	initial_state_v2, .Linitial_state_v2_end-initial_state_v2

	.globl	initial_state_v2_gridcount
	.p2align	8
	.type	initial_state_v2_gridcount,@function
	.amdgpu_hsa_kernel initial_state_v2_gridcount
initial_state_v2_gridcount:
	.amd_kernel_code_t
		kernel_code_entry_byte_offset = 256
		granulated_workitem_vgpr_count = 2
		float_mode = 192
		enable_dx10_clamp = 1
		enable_ieee_mode = 1
		granulated_wavefront_sgpr_count = 1
		user_sgpr_count = 7
		enable_sgpr_workgroup_id_x = 1
		enable_sgpr_workgroup_id_y = 1
		enable_sgpr_workgroup_id_z = 1
		enable_sgpr_workgroup_info = 1
		enable_sgpr_dispatch_ptr = 1
		enable_sgpr_kernarg_segment_ptr = 1
		enable_sgpr_grid_workgroup_count_x = 1
		enable_sgpr_grid_workgroup_count_y = 1
		enable_sgpr_grid_workgroup_count_z = 1
		wavefront_sgpr_count = 16
		enable_vgpr_workitem_id = 2
		private_element_size = 1
		is_ptr64 = 1
		kernarg_segment_byte_size = 8
		workitem_vgpr_count = 10
		kernarg_segment_alignment = 4
		group_segment_alignment = 4
		private_segment_alignment = 4
		wavefront_size = 6
		call_convention = -1
	.end_amd_kernel_code_t
	// Work only in v3+ and s12+ so the received registers stay intact.
	s_load_dwordx2	s[12:13], s[2:3], 0x0
	v_mov_b32	v4, 1
	s_waitcnt	lgkmcnt(0)
	v_mov_b32	v8, s12
	v_mov_b32	v9, s13
	flat_atomic_add	v5, v[8:9], v4 glc
	s_waitcnt	vmcnt(0) lgkmcnt(0)
	v_lshlrev_b32	v6, 7, v5
.ifdef GFX9
	v_add_u32	v6, 0x100, v6
.else
	v_add_u32	v6, vcc, 0x100, v6
.endif
	ADD64	v8, v9, v6
	STORE	v0
	STORE	v1
	STORE	v2
	STORE	v5
	v_mov_b32	v7, s0
	STORE	v7
	v_mov_b32	v7, s1
	STORE	v7
	v_mov_b32	v7, s2
	STORE	v7
	v_mov_b32	v7, s3
	STORE	v7
	v_mov_b32	v7, s4
	STORE	v7
	v_mov_b32	v7, s5
	STORE	v7
	v_mov_b32	v7, s6
	STORE	v7
	v_mov_b32	v7, s7
	STORE	v7
	v_mov_b32	v7, s8
	STORE	v7
	v_mov_b32	v7, s9
	STORE	v7
	v_mov_b32	v7, s10
	STORE	v7
	v_mov_b32	v7, exec_lo
	STORE	v7
	v_mov_b32	v7, exec_hi
	STORE	v7
	v_mov_b32	v7, 0
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	STORE	v7
	s_endpgm
.Linitial_state_v2_gridcount_end:
	.size	initial_state_v2_gridcount, .Linitial_state_v2_gridcount_end-initial_state_v2_gridcount

