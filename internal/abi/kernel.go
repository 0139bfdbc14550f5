package abi

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// KernelDescriptorSize is the size of a code object V3+ kernel descriptor.
const KernelDescriptorSize = 64

// KernelDescriptorAlign is the alignment the command processor requires of a
// kernel descriptor (INVENTORY §4.1).
const KernelDescriptorAlign = 64

// KernelDescriptor mirrors llvm::amdhsa::kernel_descriptor_t (LLVM
// llvm/Support/AMDHSAKernelDescriptor.h; INVENTORY §4.1): 64 bytes, no
// implicit padding. No ROCr header in Debian 5.2.3 carries it, so its offsets
// are pinned against INVENTORY's table only. Bytes 58-59 are reserved in
// LLVM 15 (reserved2[6]) and hold kernarg_preload in newer LLVM (bits 6:0
// KERNARG_PRELOAD_SPEC_LENGTH, 15:7 KERNARG_PRELOAD_SPEC_OFFSET), which is
// how they are named here.
//
//	off size field
//	  0    4 group_segment_fixed_size
//	  4    4 private_segment_fixed_size
//	  8    4 kernarg_size
//	 12    4 reserved0
//	 16    8 kernel_code_entry_byte_offset (signed, from the descriptor)
//	 24   20 reserved1
//	 44    4 compute_pgm_rsrc3
//	 48    4 compute_pgm_rsrc1
//	 52    4 compute_pgm_rsrc2
//	 56    2 kernel_code_properties
//	 58    2 kernarg_preload
//	 60    4 reserved3
type KernelDescriptor struct {
	GroupSegmentFixedSize     uint32
	PrivateSegmentFixedSize   uint32
	KernargSize               uint32
	Reserved0                 [4]byte
	KernelCodeEntryByteOffset int64
	Reserved1                 [20]byte
	ComputePgmRsrc3           uint32
	ComputePgmRsrc1           uint32
	ComputePgmRsrc2           uint32
	KernelCodeProperties      uint16
	KernargPreload            uint16
	Reserved3                 [4]byte
}

// errShort reports a buffer too small for a structure.
var errShort = errors.New("abi: buffer too short")

// UnmarshalBinary decodes the 64 little-endian bytes at the start of b.
func (kd *KernelDescriptor) UnmarshalBinary(b []byte) error {
	if len(b) < KernelDescriptorSize {
		return fmt.Errorf("kernel descriptor: %w: %d < %d bytes", errShort, len(b), KernelDescriptorSize)
	}
	le := binary.LittleEndian
	kd.GroupSegmentFixedSize = le.Uint32(b[0:])
	kd.PrivateSegmentFixedSize = le.Uint32(b[4:])
	kd.KernargSize = le.Uint32(b[8:])
	copy(kd.Reserved0[:], b[12:16])
	kd.KernelCodeEntryByteOffset = int64(le.Uint64(b[16:]))
	copy(kd.Reserved1[:], b[24:44])
	kd.ComputePgmRsrc3 = le.Uint32(b[44:])
	kd.ComputePgmRsrc1 = le.Uint32(b[48:])
	kd.ComputePgmRsrc2 = le.Uint32(b[52:])
	kd.KernelCodeProperties = le.Uint16(b[56:])
	kd.KernargPreload = le.Uint16(b[58:])
	copy(kd.Reserved3[:], b[60:64])
	return nil
}

// MarshalBinary encodes kd as 64 little-endian bytes.
func (kd *KernelDescriptor) MarshalBinary() ([]byte, error) {
	b := make([]byte, KernelDescriptorSize)
	le := binary.LittleEndian
	le.PutUint32(b[0:], kd.GroupSegmentFixedSize)
	le.PutUint32(b[4:], kd.PrivateSegmentFixedSize)
	le.PutUint32(b[8:], kd.KernargSize)
	copy(b[12:16], kd.Reserved0[:])
	le.PutUint64(b[16:], uint64(kd.KernelCodeEntryByteOffset))
	copy(b[24:44], kd.Reserved1[:])
	le.PutUint32(b[44:], kd.ComputePgmRsrc3)
	le.PutUint32(b[48:], kd.ComputePgmRsrc1)
	le.PutUint32(b[52:], kd.ComputePgmRsrc2)
	le.PutUint16(b[56:], kd.KernelCodeProperties)
	le.PutUint16(b[58:], kd.KernargPreload)
	copy(b[60:64], kd.Reserved3[:])
	return b, nil
}

// amd_kernel_code_t enumerations (amd_hsa_kernel_code.h).
const (
	AMD_KERNEL_CODE_VERSION_MAJOR = 1
	AMD_KERNEL_CODE_VERSION_MINOR = 1

	AMD_MACHINE_KIND_UNDEFINED = 0
	AMD_MACHINE_KIND_AMDGPU    = 1

	AMD_FLOAT_ROUND_MODE_NEAREST_EVEN   = 0
	AMD_FLOAT_ROUND_MODE_PLUS_INFINITY  = 1
	AMD_FLOAT_ROUND_MODE_MINUS_INFINITY = 2
	AMD_FLOAT_ROUND_MODE_ZERO           = 3

	AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE_OUTPUT = 0
	AMD_FLOAT_DENORM_MODE_FLUSH_OUTPUT        = 1
	AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE        = 2
	AMD_FLOAT_DENORM_MODE_NO_FLUSH            = 3

	AMD_SYSTEM_VGPR_WORKITEM_ID_X         = 0
	AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y       = 1
	AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y_Z     = 2
	AMD_SYSTEM_VGPR_WORKITEM_ID_UNDEFINED = 3

	AMD_ELEMENT_BYTE_SIZE_2  = 0
	AMD_ELEMENT_BYTE_SIZE_4  = 1
	AMD_ELEMENT_BYTE_SIZE_8  = 2
	AMD_ELEMENT_BYTE_SIZE_16 = 3

	AMD_POWERTWO_1   = 0
	AMD_POWERTWO_2   = 1
	AMD_POWERTWO_4   = 2
	AMD_POWERTWO_8   = 3
	AMD_POWERTWO_16  = 4
	AMD_POWERTWO_32  = 5
	AMD_POWERTWO_64  = 6
	AMD_POWERTWO_128 = 7
	AMD_POWERTWO_256 = 8

	AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_BREAK_EXCEPTIONS       = 1
	AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_DETECT_EXCEPTIONS      = 2
	AMD_ENABLED_CONTROL_DIRECTIVE_MAX_DYNAMIC_GROUP_SIZE        = 4
	AMD_ENABLED_CONTROL_DIRECTIVE_MAX_FLAT_GRID_SIZE            = 8
	AMD_ENABLED_CONTROL_DIRECTIVE_MAX_FLAT_WORKGROUP_SIZE       = 16
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_DIM                  = 32
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_GRID_SIZE            = 64
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_WORKGROUP_SIZE       = 128
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRE_NO_PARTIAL_WORKGROUPS = 256

	AMD_EXCEPTION_KIND_INVALID_OPERATION = 1
	AMD_EXCEPTION_KIND_DIVISION_BY_ZERO  = 2
	AMD_EXCEPTION_KIND_OVERFLOW          = 4
	AMD_EXCEPTION_KIND_UNDERFLOW         = 8
	AMD_EXCEPTION_KIND_INEXACT           = 16

	// AMD_ISA_ALIGN_BYTES is the alignment of kernel code entries.
	AMD_ISA_ALIGN_BYTES = 256
	// AMD_KERNEL_CODE_ALIGN_BYTES is the alignment of amd_kernel_code_t.
	AMD_KERNEL_CODE_ALIGN_BYTES = 64
	// AMD_CONTROL_DIRECTIVES_ALIGN_BYTES is the alignment of
	// amd_control_directives_t.
	AMD_CONTROL_DIRECTIVES_ALIGN_BYTES = 64
)

// AMDKernelCodeSize is the size of amd_kernel_code_t.
const AMDKernelCodeSize = 256

// AMDControlDirectives mirrors amd_control_directives_t
// (amd_hsa_kernel_code.h): 128 bytes, 64-byte aligned in C. No implicit
// padding.
//
//	off size field
//	  0    8 enabled_control_directives
//	  8    2 enable_break_exceptions
//	 10    2 enable_detect_exceptions
//	 12    4 max_dynamic_group_size
//	 16    8 max_flat_grid_size
//	 24    4 max_flat_workgroup_size
//	 28    1 required_dim
//	 29    3 reserved1
//	 32   24 required_grid_size[3]
//	 56   12 required_workgroup_size[3]
//	 68   60 reserved2
type AMDControlDirectives struct {
	EnabledControlDirectives uint64
	EnableBreakExceptions    uint16
	EnableDetectExceptions   uint16
	MaxDynamicGroupSize      uint32
	MaxFlatGridSize          uint64
	MaxFlatWorkgroupSize     uint32
	RequiredDim              uint8
	Reserved1                [3]byte
	RequiredGridSize         [3]uint64
	RequiredWorkgroupSize    [3]uint32
	Reserved2                [60]byte
}

// AMDKernelCode mirrors amd_kernel_code_t (amd_hsa_kernel_code.h;
// INVENTORY §4.7): 256 bytes, 64-byte aligned in C. No implicit padding.
// kernel_code_properties (offset 56) is the 32-bit word holding the
// enable_sgpr_* and is_* bits.
//
//	off size field
//	  0    4 amd_kernel_code_version_major
//	  4    4 amd_kernel_code_version_minor
//	  8    2 amd_machine_kind
//	 10    2 amd_machine_version_major
//	 12    2 amd_machine_version_minor
//	 14    2 amd_machine_version_stepping
//	 16    8 kernel_code_entry_byte_offset (signed)
//	 24    8 kernel_code_prefetch_byte_offset (signed)
//	 32    8 kernel_code_prefetch_byte_size
//	 40    8 max_scratch_backing_memory_byte_size
//	 48    4 compute_pgm_rsrc1
//	 52    4 compute_pgm_rsrc2
//	 56    4 kernel_code_properties
//	 60    4 workitem_private_segment_byte_size
//	 64    4 workgroup_group_segment_byte_size
//	 68    4 gds_segment_byte_size
//	 72    8 kernarg_segment_byte_size
//	 80    4 workgroup_fbarrier_count
//	 84    2 wavefront_sgpr_count
//	 86    2 workitem_vgpr_count
//	 88    2 reserved_vgpr_first
//	 90    2 reserved_vgpr_count
//	 92    2 reserved_sgpr_first
//	 94    2 reserved_sgpr_count
//	 96    2 debug_wavefront_private_segment_offset_sgpr
//	 98    2 debug_private_segment_buffer_sgpr
//	100    1 kernarg_segment_alignment (log2)
//	101    1 group_segment_alignment (log2)
//	102    1 private_segment_alignment (log2)
//	103    1 wavefront_size (log2)
//	104    4 call_convention (signed)
//	108   12 reserved1
//	120    8 runtime_loader_kernel_symbol
//	128  128 control_directives (amd_control_directives_t)
type AMDKernelCode struct {
	AMDKernelCodeVersionMajor              uint32
	AMDKernelCodeVersionMinor              uint32
	AMDMachineKind                         uint16
	AMDMachineVersionMajor                 uint16
	AMDMachineVersionMinor                 uint16
	AMDMachineVersionStepping              uint16
	KernelCodeEntryByteOffset              int64
	KernelCodePrefetchByteOffset           int64
	KernelCodePrefetchByteSize             uint64
	MaxScratchBackingMemoryByteSize        uint64
	ComputePgmRsrc1                        uint32
	ComputePgmRsrc2                        uint32
	KernelCodeProperties                   uint32
	WorkitemPrivateSegmentByteSize         uint32
	WorkgroupGroupSegmentByteSize          uint32
	GDSSegmentByteSize                     uint32
	KernargSegmentByteSize                 uint64
	WorkgroupFbarrierCount                 uint32
	WavefrontSGPRCount                     uint16
	WorkitemVGPRCount                      uint16
	ReservedVGPRFirst                      uint16
	ReservedVGPRCount                      uint16
	ReservedSGPRFirst                      uint16
	ReservedSGPRCount                      uint16
	DebugWavefrontPrivateSegmentOffsetSGPR uint16
	DebugPrivateSegmentBufferSGPR          uint16
	KernargSegmentAlignment                uint8
	GroupSegmentAlignment                  uint8
	PrivateSegmentAlignment                uint8
	WavefrontSize                          uint8
	CallConvention                         int32
	Reserved1                              [12]byte
	RuntimeLoaderKernelSymbol              uint64
	ControlDirectives                      AMDControlDirectives
}

// UnmarshalBinary decodes the 256 little-endian bytes at the start of b,
// field by field (the layout has no implicit padding, so encoding/binary's
// packed view is the C view).
func (c *AMDKernelCode) UnmarshalBinary(b []byte) error {
	if len(b) < AMDKernelCodeSize {
		return fmt.Errorf("amd_kernel_code_t: %w: %d < %d bytes", errShort, len(b), AMDKernelCodeSize)
	}
	_, err := binary.Decode(b[:AMDKernelCodeSize], binary.LittleEndian, c)
	return err
}

// MarshalBinary encodes c as 256 little-endian bytes.
func (c *AMDKernelCode) MarshalBinary() ([]byte, error) {
	return binary.Append(make([]byte, 0, AMDKernelCodeSize), binary.LittleEndian, c)
}

// Compile-time size checks: an array of negative length fails the build.
var (
	_ [KernelDescriptorSize - unsafe.Sizeof(KernelDescriptor{})]struct{}
	_ [unsafe.Sizeof(KernelDescriptor{}) - KernelDescriptorSize]struct{}
	_ [AMDKernelCodeSize - unsafe.Sizeof(AMDKernelCode{})]struct{}
	_ [unsafe.Sizeof(AMDKernelCode{}) - AMDKernelCodeSize]struct{}
	_ [PacketSize - unsafe.Sizeof(KernelDispatchPacket{})]struct{}
	_ [unsafe.Sizeof(KernelDispatchPacket{}) - PacketSize]struct{}
	_ [PacketSize - unsafe.Sizeof(AgentDispatchPacket{})]struct{}
	_ [PacketSize - unsafe.Sizeof(BarrierAndPacket{})]struct{}
	_ [PacketSize - unsafe.Sizeof(BarrierOrPacket{})]struct{}
	_ [PacketSize - unsafe.Sizeof(AMDBarrierValuePacket{})]struct{}
	_ [PacketSize - unsafe.Sizeof(Packet{})]struct{}
	_ [256 - unsafe.Sizeof(AMDQueue{})]struct{}
	_ [unsafe.Sizeof(AMDQueue{}) - 256]struct{}
	_ [64 - unsafe.Sizeof(AMDSignal{})]struct{}
	_ [unsafe.Sizeof(AMDSignal{}) - 64]struct{}
)
