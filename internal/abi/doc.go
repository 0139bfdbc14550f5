// Package abi holds Go mirrors of the C structures whose bytes are the ROCm
// ABI: the AQL packets, hsa_queue_t, amd_queue_t, amd_signal_t, the code
// object V3+ kernel descriptor (kernel_descriptor_t) and the code object V2
// amd_kernel_code_t.
//
// The layouts are those of the Debian 12 libhsa-runtime-dev 5.2.3 headers
// (/usr/include/hsa: hsa.h, hsa_ext_amd.h, amd_hsa_queue.h,
// amd_hsa_signal.h, amd_hsa_kernel_code.h) for the LP64 little-endian large
// model, and of LLVM's AMDHSAKernelDescriptor.h for kernel_descriptor_t,
// which no ROCr header carries. spec/INVENTORY.md describes them: §6.2 (AQL
// packets), §6.3 (amd_queue_t), §6.5 (amd_signal_t), §4.1 (kernel
// descriptor) and §4.7 (amd_kernel_code_t). The seeds leave the HSA 1.x
// packets, hsa_queue_t and amd_queue_t bytes 140-255 as [GAP]; the tests pin
// every size and offset, and, when a C compiler and the headers are present,
// compare them with what the compiler says.
//
// Every struct names its C type and header, spells out its padding, and uses
// fixed-size integer fields only: pointers in the C structs (base_address,
// kernarg_address, hsa_signal_t handles) are uint64 device addresses, so the
// values can live in mmap'd memory that C code shares. The package holds raw
// fields only; decoding bit fields (COMPUTE_PGM_RSRC*, kernel code
// properties) is the codeobject package's job.
//
// Constants keep their C names (HSA_PACKET_TYPE_KERNEL_DISPATCH,
// AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, AMD_SIGNAL_KIND_USER).
//
// This package never uses cgo; the C cross-check lives in a test that runs
// the system C compiler as a separate process.
package abi
