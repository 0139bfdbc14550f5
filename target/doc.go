// Package target is rocpu's table of AMDGPU processors and its target-ID
// codec: DESIGN.md seam "target.Processor". Every package that needs to
// know what a processor is — codeobject (e_flags, kernel descriptors), isa
// (which encoding family), emu (wave size, register files, flat scratch)
// and hsa (agent ISA names, code object compatibility) — asks here.
//
// What it implements, by spec section (spec/INVENTORY.md, which cites the
// seed documents line by line):
//
//   - §1.4 EF_AMDGPU_MACH values, as Mach constants with their C names
//     (AMDGPUUsage "ELF Header", S1:772-822; values ≥ 0x038 are [GAP] from
//     LLVM ELF.h).
//   - §3.1 target triples; §3.2 the processor table of the old guide
//     (S1:92-280) with alternative names and feature defaults; §3.3 the
//     current processor list [GAP] (LLVM TargetParser ISA versions and
//     features); §3.4 generic processors, members and versions
//     (S2:22-32, table [GAP]); §3.5 target features (S1:282-343,
//     S2:33-105).
//   - §3.6 target IDs: the V4+ syntax processor(:feature±)* with the
//     triple (S2:106-121), the V2/V3 syntax processor(+feature)*
//     (S1:2018-2046), the V2 ISA name AMD:AMDGPU:major:minor:stepping
//     (S0 / NT_AMD_HSA_ISA_VERSION), canonicalisation, and the loader's
//     compatibility rules (Compatible).
//   - §4.2 the register and LDS granularity formulas behind the kernel
//     descriptor's granulated counts (regs.go), §5.3 flat scratch methods,
//     §5.5 kernarg preload, §5.7 wave sizes.
//
// Processor facts live in one table (table.go); nothing else in the
// package branches on processor names. Where a spec value is marked [GAP]
// a test pins it and names its source (gap_test.go). Where the specs and
// LLVM 15 disagree LLVM wins, and the test says so.
//
// Decisions the specs leave open (INVENTORY §13):
//   - hainan and oland are gfx602 (upstream), not gfx601 (S1).
//   - xnack is a feature of gfx801 and gfx810 only among GFX8 (upstream
//     and LLVM 15), not of gfx802/gfx803 as S1's table says.
//   - Compatible matches V2/V3 feature settings strictly.
//   - GRANULATED_WAVEFRONT_SGPR_COUNT on GFX9 is ceil(n/8)-1, as LLVM 15
//     emits, not the spec's 2*(ceil(n/16)-1).
//
// The package imports only the standard library.
package target
