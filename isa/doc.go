// Package isa decodes AMDGPU machine code into Inst values and prints them
// exactly as llvm-objdump-15 does.
//
// The instruction set covered is GFX9 (gfx900, gfx902, gfx904, gfx906,
// gfx908, gfx909, gfx90a, gfx90c, gfx940, gfx941, gfx942). Field layouts of
// each encoding family follow the AMD "Vega" Instruction Set Architecture
// reference guide, chapter 12 ("Microcode Formats"), and the MI100/MI200/MI300
// guides for the gfx908/gfx90a/gfx94x additions. The per-opcode data
// (mnemonic, operands and their register counts and constant types, which
// modifier bits are meaningful or invalid, per processor) is generated into
// tables_gfx9.go by internal/cmd/isagen, which probes LLVM's disassembler;
// DESIGN.md "The seams: isa.Decode" describes the contract.
//
// An Inst is a plain value designed for execution: its Opcode is a named
// constant shared by all encodings of one instruction (V_ADD_F32 in _e32,
// _e64, SDWA and DPP forms), its operands are resolved (register file,
// index, count, inline-constant or literal value, the encoding field they
// came from), its modifiers are decoded, and Len says how many bytes it
// spans. Modifier bits LLVM ignores for an opcode are dropped, so the Inst
// reflects what the disassembly shows.
//
// Decode(Target, code) decodes one instruction without allocating;
// DecodeRange walks a code range, reporting undecodable words (as
// *DecodeError wrapping ErrInvalidEncoding, with the byte offset) and going
// on 4 bytes later, as llvm-objdump does. Inst.String / AppendText print the
// instruction exactly as llvm-objdump-15 -d does.
//
// Status (issue #4). Every GFX9 encoding is decoded and printed exactly as
// llvm-objdump-15 prints it (corpus, committed LLVM goldens, and a
// differential test against llvm-objdump-15 with an empty allowlist): SOP2,
// SOPK, SOP1, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC (including their SDWA and
// DPP forms), VOP3A/VOP3B (including the VOP3-encoded v_interp_* with their
// attrN.c and high operands), VOP3P (packed math, mad_mix/fma_mix, dot), DS,
// FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, the gfx908+ MFMA instructions (cbsz,
// abid, blgp, acc_cd and AGPR source selects) and gfx940's v_smfmac_*,
// VINTRP (v_interp_*_e32 on gfx900-gfx90c), EXP (gfx900-gfx90c) and MIMG
// (image_* on gfx900-gfx90a; gfx940 has none). Only words LLVM rejects
// return an error (ErrInvalidEncoding); no valid GFX9 word returns
// ErrNotSupported.
//
// MIMG: the data register count follows dmask, tfe and packed d16 as LLVM's
// AMDGPUDisassembler::convertMIMGInst derives it (generated per opcode into
// gfx9MIMGCounts; gather4 always returns four components), a tuple that
// would pass v255 keeps the narrowest count as LLVM does, gfx90a's bit 16 is
// the acc bit (AGPR data), and the r128 bit prints as a16. The vaddr count is
// fixed per opcode on GFX9 (no NSA). Modifiers.DMask and the FlagUnorm,
// FlagDA, FlagA16, FlagLWE, FlagD16, FlagTFE, FlagGLC, FlagSLC, FlagSCC and
// FlagAcc bits carry the fields.
//
// Completeness: opcodes LLVM accepts only with a fixed flag (s_memtime,
// s_memrealtime and s_dcache_* need SMEM imm = 0; ds_gws_* and
// ds_ordered_count need gds; buffer_store_lds_dword needs lds; gfx940's
// v_cvt_*_fp8/bf8_sdwa need dst_sel DWORD) are found by the generator's
// canonical probes and recorded in opDesc.ModSet (or sdwaDstFixed).
// TestLLVMCompleteness checks the canonical words of every opcode value of
// every encoding (zero fields, each single flag bit) against
// llvm-objdump-15 for gfx900-gfx940, and TestLLVMAbsentOpcodes checks
// random words of every opcode value without a table row; both report 0
// mismatches (counts in testdata/README).
//
// LLVM 15 cannot disassemble gfx941/gfx942; they use gfx940's tables.
// Words on which llvm-objdump-15 itself aborts (llvm_unreachable in
// AMDGPUInstPrinter::printSDWASel for select 7, also reached when it
// resynchronises after an invalid word) cannot be compared; the random word
// generator keeps them out.
//
// Decode speed (BenchmarkDecode, gfx90a corpus): compiled operand plans
// (prototype operands per template), one flat opcode table per processor
// and a SOPP fast path; zero allocations. See testdata/README for numbers.
//
// Testdata: see testdata/README.
package isa

//go:generate go run ../internal/cmd/isagen -o tables_gfx9.go
