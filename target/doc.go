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
//     (S1:2018-2046; ParseLegacyID where a bare processor means "all
//     off"), the V2 ISA name AMD:AMDGPU:major:minor:stepping (S0 /
//     NT_AMD_HSA_ISA_VERSION, with LLVM's xnack variants such as 9.0.1 for
//     gfx900 with xnack), clang offload bundle entry IDs
//     (ParseBundleEntryID; Clang Offload Bundler doc [GAP]),
//     canonicalisation, and the loader's compatibility rules (Compatible).
//   - §4.2 the register and LDS granularity formulas behind the kernel
//     descriptor's granulated counts and the special SGPRs LLVM counts
//     (regs.go), §5.3 flat scratch methods, §5.5 kernarg preload, §5.7
//     wave sizes.
//
// LLVM 15 is the golden where it has an opinion: llvm_test.go checks the
// MACH value, xnack/sramecc support and LDS limit of every processor
// llc-15 knows, thousands of granulated register counts, and V2/V3 target
// strings against llvm-mc-15, llc-15 and clang-15 (skipped when they are
// absent or under -short).
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
//   - Every generic member was added in generic version 1 (LLVM's
//     GenericVersion constants are all 1) [GAP].
//   - A bare target ID ("gfx90a") gets the triple amdgcn-amd-amdhsa-.
//   - The newest upstream processors (gfx1154, gfx1170-gfx1172, GFX12.5)
//     are known but not Executable: the specs lack their ISA.
//
// The package imports only the standard library.
package target
