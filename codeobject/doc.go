// Package codeobject reads, validates and writes AMDGPU code objects: the
// ELF files that clang, hipcc and the LLVM assembler produce for AMD GPUs,
// code object versions V2 to V6.
//
// A File (from Open or NewFile) gives the ELF header with its e_flags decoded
// for the file's code object version (spec/INVENTORY.md §1.1–§1.4,
// "AMDGPUUsage: ELF Code Object"), the sections and program headers, the
// loadable segments a loader must map, the symbol tables (§1.7), the dynamic
// relocations with their calculations (§1.8), the notes (§1.6), the code
// object metadata (§2: V2 YAML, V3+ MessagePack) as a typed model that keeps
// unknown keys, and each kernel with its kernel descriptor (§4.1–§4.6) or,
// for V2, its amd_kernel_code_t (§4.7).
//
// Validate applies the checklists of §1.10 and §4.8 and reports each finding
// with its byte offset, rule and severity. ParseBundle unwraps clang offload
// bundles (plain and compressed "CCOB", zlib or zstd), HIPFatBinaries finds
// the bundles in a HIP host executable's .hip_fatbin section, and OpenAny
// takes any of the three. Builder writes ET_DYN code objects (V3-V6) from
// the same types, BuildDescriptor encodes a kernel descriptor from
// .amdhsa_*-style settings, and File.Encode writes back edited headers.
//
// MetadataYAML (and Metadata.YAML) print the metadata exactly as
// llvm-readelf-15 does in its "AMDGPU Metadata" note dump: map keys in
// LLVM's order, its quoting rules and its !str/!int/!nil tags, pinned by
// tests against llvm-readelf-15 for every corpus object and for strings
// built to hit every rule.
//
// Kernel arguments (kernarg.go): Kernel.KernargLayout places a kernel's
// explicit and hidden arguments from its metadata for V2-V6 (the
// .value_kind table of §2.6 and the V5 implicit block of §2.6.1), and
// KernargLayout.Build / BuildDispatch fill a kernarg segment from a Launch;
// the emulator's tests, the Go launcher and `rocpu run` all use it. OpenCL
// printf (printf.go): ParsePrintfFormats reads the metadata's format
// strings (§2.7, V2 and V3+ forms), DecodePrintfBuffer / PrintfOutput turn
// a printf buffer into what C printf prints for the same formats.
//
// Every parser works on bounded slices of the file: a corrupt size or offset
// yields a *FormatError carrying the byte offset of the bad field, never a
// panic and never an allocation larger than a small multiple of the input.
// Features that are recognised but not implemented return an error that
// satisfies errors.Is(err, ErrNotSupported).
//
// DecodeMsgPack is this package's own decoder (the encoder uses
// github.com/vmihailenco/msgpack): one pass over the note in place, with
// every announced length and count checked against the bytes left before
// anything is allocated, so decoding is linear in the note's size
// (TestMsgPackHostile, testdata/msgpack).
//
// Fuzzing: go test -fuzz=FuzzNewFile (FuzzMetadata, FuzzBundle,
// FuzzKernargMetadata, FuzzPrintfBuffer, FuzzFormatPrintf) seeded from the
// corpus objects and testdata/corrupt. The seeds are whole 6-170 KB
// objects, and Go minimizes every new interesting input for up to
// -fuzzminimizetime (60 s by default), during which the exec counter stands
// still; pass -fuzzminimizetime=10x for short runs. Measured over 20 s
// with 10x (2 shared cores): FuzzNewFile ~3000 execs/s (60632 execs, 343
// new inputs); with 1s: FuzzMetadata 1341/s, FuzzKernargMetadata 1377/s,
// FuzzPrintfBuffer 11593/s, FuzzFormatPrintf 19657/s, FuzzBundle ~860/s.
//
// Performance (2 shared cores, 547 corpus objects, medians of alternating
// runs): `rocpu readobj --notes` on all files in one process takes as long
// as `llvm-readelf-15 --notes` (ratio 1.00, 427 ms each under load; 1.2
// before stdout was buffered), and one process per file is about 4 times
// faster (49 ms vs 203 ms: llvm-readelf's start-up dominates), although
// rocpu's own start-up is ~25 ms of package emu's init.
// BenchmarkOpenMetadataKernels on the largest object (rocprim, 174 KB):
// 1.4-1.9 ms, 646 KB and 1085 allocations per Open + Metadata + Kernels +
// Resources.
//
// Decisions where the spec is silent or contradictory (§13):
//   - ABI version 0 is V2 and 1 is V3 (upstream ELFABIVERSION_AMDGPU_HSA_V2..V6
//     = 0..4). An object with ABI version 1 whose only notes are "AMD" V2
//     notes is read as V2 (the old guide's single ELFABIVERSION_AMDGPU_HSA=1).
//   - V2 e_flags: LLVM writes the V3 layout (MACH in bits 7:0, XNACK 0x100,
//     SRAMECC 0x200) into V2 objects and llvm-readobj decodes them that way,
//     so V2 flags are decoded as V3 unless the MACH field is below 0x20 and
//     only bits 0x1/0x2 are set, which is the HSAIL Finalizer's V2 layout
//     (EF_AMDGPU_FEATURE_XNACK_V2, EF_AMDGPU_FEATURE_TRAP_HANDLER_V2).
//   - Where LLVM 15 departs from the spec in what it emits, Validate
//     reports a warning, not an error, so LLVM's own output validates:
//     GRANULATED_WAVEFRONT_SGPR_COUNT non-zero on GFX10+, V2 assembly with
//     no metadata note, V4+ assembly metadata without amdhsa.target.
//   - On gfx90a/gfx94x LLVM 15's .vgpr_count is the unified VGPR+AGPR
//     total (architectural VGPRs up to ACCUM_OFFSET, then AGPRs); the
//     granulated VGPR count is derived from it alone.
//   - V2 arguments carry no offsets; Metadata (the unified view) places
//     each at the next multiple of its Align.
package codeobject
