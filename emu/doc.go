// Package emu is rocpu's software GPU: a GFX9 wave64 execution engine that
// runs the machine code clang and hipcc emit for gfx900 … gfx942.
//
// A Device models one GPU agent (compute units, waves per CU, LDS size,
// register files; spec/INVENTORY.md §3). Device.Dispatch is the whole
// interface between the runtime and the GPU (DESIGN.md "emu.Device.Dispatch"):
// it computes each wave's initial SGPR/VGPR state from the kernel
// descriptor's enable bits (INVENTORY §5.1-§5.5), runs every workgroup and
// returns nil or a *Fault.
//
// Execution follows DESIGN.md "Execution": machine code is decoded once into
// a dense table per code region indexed by (pc-base)/4 with operands
// pre-resolved to register-file offsets; the waves of a workgroup interleave
// (switching at s_barrier, s_endpgm, s_sleep and taken backward branches after
// a counted number of instructions); workgroups are resumable objects that
// worker goroutines time-slice. Inside the hot loop, traps are panics with a
// *Fault value, recovered once per workgroup slice.
//
// Memory follows DESIGN.md "Memory": device addresses are host addresses;
// each memory instruction is bounds-checked once (minimum and maximum address
// over the active lanes against the wave's cached region). Flat addresses in
// the shared aperture (0x0001_0000_0000_0000) reach LDS and those in the
// private aperture (0x0002_0000_0000_0000) reach scratch, which this package
// owns: one swizzled slot per resident wave (element size 4, index stride 64,
// ADD_TID), the same bytes through MUBUF with the private-segment V# and
// through FLAT/SCRATCH with FLAT_SCRATCH. Global atomics are host atomics
// on the translated address; two kinds are combined first. A 32-bit add or
// subtract issues one host atomic per distinct address (atomic.go
// addCombined). Without GLC the adds are also posted: the wave keeps them,
// summed per address, until it leaves the run loop or runs an instruction
// that could observe or publish them (atomic_post.go; the memory-model
// argument is there).
//
// Floating point follows DESIGN.md "Floating point": no accidental FMA
// contraction, exactly rounded FMAs, saturating float-to-integer
// conversions, and MODE (rounding, denormals) applied in software per
// instruction.
//
// The API: NewDevice(Config) (Config from ConfigFor(target.Processor, mem)
// or DefaultGFX90A; Memory from SpaceMemory(vmem.Space) or any Memory),
// Device.Dispatch(ctx, *Dispatch) returning nil or a *Fault, the counters in
// Dispatch.Stats, Device.Predecode(addr, size) when code is loaded (decode
// once, at load time; lazy decoding covers the rest), Device.InvalidateCode
// when code is unloaded, and the OnInterrupt and Trace hooks. Instructions without semantics fail the
// dispatch with a FaultUnimplemented naming the mnemonic and encoding
// (errors.Is(err, ErrNotSupported)); Implemented reports coverage per
// isa.Opcode.
//
// MFMA (ops_mfma.go): every form of gfx908, gfx90a and gfx94x — f32, f16,
// bf16 (and _1k), i8, f64, gfx940's xf32 and FP8/BF8 forms and its sparse
// v_smfmac_* forms — with CBSZ/ABID broadcasts and BLGP lane swizzles
// (gfx940: BLGP as the f64 forms' neg bits); a modifier a form lacks faults
// as not supported. The xf32 forms multiply the full f32 inputs: how the
// hardware narrows them to xf32 is not documented, so results are exact only
// for inputs that fit xf32's 10-bit mantissa.
//
// buffer_*_format_* and MTBUF tbuffer_*_format_* (ops_format.go): the 8,
// 16 and 32-bit per-component formats in every numeric format, the packed
// formats (10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10) and the d16 forms
// (including d16_hi).
//
// Scalar atomics: s_atomic_* and s_buffer_atomic_* (32/64-bit, GLC return).
// LDS: ds_read/write_addtid_b32 as well as every other GFX9 DS load, store
// and atomic. v_fma_f64 and v_div_fmas_f64 honour MODE's directed f64 rounding (fp.go fma64,
// exact on the slow path).
//
// Global wave sync (gws.go): ds_gws_init, ds_gws_barrier and the
// ds_gws_sema_* semaphores on 64 device resources that outlive dispatches
// (HIP's grid sync initialises its barrier in a dispatch of its own). A
// wave waiting at one yields as at s_barrier; while resident waves wait,
// a worker admits further workgroups, so a grid barrier opens once every
// workgroup has arrived; a dispatch whose waves all wait at resources
// nothing can open ends with a FaultDeadlock. Dispatch.Cooperative (a
// cooperative queue's dispatches) sizes scratch for the whole grid when it
// fits the device's wave slots.
//
// MIMG (ops_image.go): image_load(_mip), image_store(_mip),
// image_get_resinfo and image_sample(_lz/_l) on linear single-level 1D,
// 2D, 3D and array resources in the buffer formats, with point and
// bilinear filtering and every address mode but half-border; other image
// instructions and descriptor settings fault as not supported.
//
// Not implemented yet: wave32, the other MIMG instructions (gather4,
// atomics, derivatives, depth compare, d16/a16), ordered-count
// (ds_ordered_count) and other GDS instructions, LDS-DMA (buffer/global
// loads to LDS).
package emu
