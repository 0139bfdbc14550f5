package abi

import (
	"fmt"
	"sync/atomic"
	"unsafe"
)

// PacketSize is the size in bytes of every AQL packet (INVENTORY §6.2).
const PacketSize = 64

// PacketType is hsa_packet_type_t (hsa.h): the value of bits 7:0 of a packet
// header.
type PacketType uint8

// Packet types (hsa.h hsa_packet_type_t).
const (
	HSA_PACKET_TYPE_VENDOR_SPECIFIC PacketType = 0
	HSA_PACKET_TYPE_INVALID         PacketType = 1
	HSA_PACKET_TYPE_KERNEL_DISPATCH PacketType = 2
	HSA_PACKET_TYPE_BARRIER_AND     PacketType = 3
	HSA_PACKET_TYPE_AGENT_DISPATCH  PacketType = 4
	HSA_PACKET_TYPE_BARRIER_OR      PacketType = 5
)

var packetTypeNames = [...]string{
	"HSA_PACKET_TYPE_VENDOR_SPECIFIC",
	"HSA_PACKET_TYPE_INVALID",
	"HSA_PACKET_TYPE_KERNEL_DISPATCH",
	"HSA_PACKET_TYPE_BARRIER_AND",
	"HSA_PACKET_TYPE_AGENT_DISPATCH",
	"HSA_PACKET_TYPE_BARRIER_OR",
}

// String returns the C name of t, or a numeric form for reserved values.
func (t PacketType) String() string {
	if int(t) < len(packetTypeNames) {
		return packetTypeNames[t]
	}
	return fmt.Sprintf("PacketType(%d)", uint8(t))
}

// FenceScope is hsa_fence_scope_t (hsa.h): the value of a packet header's
// acquire or release fence-scope field.
type FenceScope uint8

// Fence scopes (hsa.h hsa_fence_scope_t). Value 3 is reserved.
const (
	HSA_FENCE_SCOPE_NONE   FenceScope = 0
	HSA_FENCE_SCOPE_AGENT  FenceScope = 1
	HSA_FENCE_SCOPE_SYSTEM FenceScope = 2
)

// String returns the C name of s, or a numeric form for the reserved value.
func (s FenceScope) String() string {
	switch s {
	case HSA_FENCE_SCOPE_NONE:
		return "HSA_FENCE_SCOPE_NONE"
	case HSA_FENCE_SCOPE_AGENT:
		return "HSA_FENCE_SCOPE_AGENT"
	case HSA_FENCE_SCOPE_SYSTEM:
		return "HSA_FENCE_SCOPE_SYSTEM"
	}
	return fmt.Sprintf("FenceScope(%d)", uint8(s))
}

// Packet header bit-field offsets and widths (hsa.h hsa_packet_header_t and
// hsa_packet_header_width_t). Bits 15:13 are reserved and must be 0.
const (
	HSA_PACKET_HEADER_TYPE                        = 0
	HSA_PACKET_HEADER_BARRIER                     = 8
	HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE       = 9
	HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE         = 9
	HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE       = 11
	HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE         = 11
	HSA_PACKET_HEADER_WIDTH_TYPE                  = 8
	HSA_PACKET_HEADER_WIDTH_BARRIER               = 1
	HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE = 2
	HSA_PACKET_HEADER_WIDTH_ACQUIRE_FENCE_SCOPE   = 2
	HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE = 2
	HSA_PACKET_HEADER_WIDTH_RELEASE_FENCE_SCOPE   = 2
)

// Kernel dispatch packet setup field (hsa.h
// hsa_kernel_dispatch_packet_setup_t and ..._setup_width_t): bits 1:0 hold
// the number of grid dimensions (1..3).
const (
	HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS       = 0
	HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS = 2
)

// packetHeaderReservedMask covers header bits 15:13.
const packetHeaderReservedMask = 0xE000

// PacketHeader is the 16-bit header that starts every AQL packet (hsa.h,
// fields per hsa_packet_header_t): bits 7:0 type, bit 8 barrier, bits 10:9
// acquire (scacquire) fence scope, bits 12:11 release (screlease) fence
// scope, bits 15:13 reserved.
type PacketHeader uint16

// MakePacketHeader assembles a header from its fields. Values wider than
// their field are truncated to it.
func MakePacketHeader(t PacketType, barrier bool, acquire, release FenceScope) PacketHeader {
	h := uint16(t) << HSA_PACKET_HEADER_TYPE
	if barrier {
		h |= 1 << HSA_PACKET_HEADER_BARRIER
	}
	h |= uint16(acquire&3) << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
	h |= uint16(release&3) << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE
	return PacketHeader(h)
}

// Type returns bits 7:0.
func (h PacketHeader) Type() PacketType { return PacketType(h >> HSA_PACKET_HEADER_TYPE) }

// Barrier reports bit 8: the packet may start only after all preceding
// packets of the queue have completed.
func (h PacketHeader) Barrier() bool { return h>>HSA_PACKET_HEADER_BARRIER&1 != 0 }

// AcquireFenceScope returns bits 10:9.
func (h PacketHeader) AcquireFenceScope() FenceScope {
	return FenceScope(h >> HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE & 3)
}

// ReleaseFenceScope returns bits 12:11.
func (h PacketHeader) ReleaseFenceScope() FenceScope {
	return FenceScope(h >> HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE & 3)
}

// Reserved returns bits 15:13 in place (non-zero means a malformed packet).
func (h PacketHeader) Reserved() uint16 { return uint16(h) & packetHeaderReservedMask }

// String prints the fields, e.g. "KERNEL_DISPATCH barrier acq=SYSTEM rel=SYSTEM".
func (h PacketHeader) String() string {
	s := h.Type().String()
	if h.Barrier() {
		s += " barrier"
	}
	s += " acq=" + h.AcquireFenceScope().String() + " rel=" + h.ReleaseFenceScope().String()
	if r := h.Reserved(); r != 0 {
		s += fmt.Sprintf(" reserved=%#x", r)
	}
	return s
}

// Packet is one 64-byte slot of an AQL ring before its type is known. The
// first 32-bit word holds the header (bits 15:0) and the packet's next 16
// bits (setup, agent-dispatch type, AMD vendor format, or reserved); a
// producer publishes the packet by storing that word last, with release
// semantics, which is what ROCr and HIP do.
//
// Packets must be at least 4-byte aligned (AQL rings are 64-byte aligned),
// because the header is accessed with 32-bit atomics: Go has no 16-bit ones.
type Packet struct {
	Words [8]uint64
}

// LoadPacketHeader atomically loads (acquire) the header of the packet at p.
func LoadPacketHeader(p unsafe.Pointer) PacketHeader {
	return PacketHeader(atomic.LoadUint32((*uint32)(p)))
}

// StorePacketHeader atomically stores (release) h as the header of the
// packet at p, leaving the packet's second 16 bits unchanged. A packet
// processor uses it to return a consumed slot to HSA_PACKET_TYPE_INVALID.
func StorePacketHeader(p unsafe.Pointer, h PacketHeader) {
	w := (*uint32)(p)
	for {
		old := atomic.LoadUint32(w)
		if atomic.CompareAndSwapUint32(w, old, old&^0xFFFF|uint32(h)) {
			return
		}
	}
}

// PublishPacket atomically stores (release) the packet's first 32-bit word,
// header h and the following 16 bits rest (the kernel dispatch setup field,
// the agent dispatch type, the AMD vendor format byte pair, or 0). All
// earlier writes to the packet body become visible before the header does.
func PublishPacket(p unsafe.Pointer, h PacketHeader, rest uint16) {
	atomic.StoreUint32((*uint32)(p), uint32(h)|uint32(rest)<<16)
}

// LoadHeader atomically loads (acquire) the header.
func (p *Packet) LoadHeader() PacketHeader { return LoadPacketHeader(unsafe.Pointer(p)) }

// StoreHeader atomically stores (release) the header, keeping bits 31:16 of
// the first word.
func (p *Packet) StoreHeader(h PacketHeader) { StorePacketHeader(unsafe.Pointer(p), h) }

// Publish atomically stores (release) the header and the following 16 bits.
func (p *Packet) Publish(h PacketHeader, rest uint16) { PublishPacket(unsafe.Pointer(p), h, rest) }

// KernelDispatch views the slot as a kernel dispatch packet.
func (p *Packet) KernelDispatch() *KernelDispatchPacket {
	return (*KernelDispatchPacket)(unsafe.Pointer(p))
}

// AgentDispatch views the slot as an agent dispatch packet.
func (p *Packet) AgentDispatch() *AgentDispatchPacket {
	return (*AgentDispatchPacket)(unsafe.Pointer(p))
}

// BarrierAnd views the slot as a barrier-AND packet.
func (p *Packet) BarrierAnd() *BarrierAndPacket { return (*BarrierAndPacket)(unsafe.Pointer(p)) }

// BarrierOr views the slot as a barrier-OR packet.
func (p *Packet) BarrierOr() *BarrierOrPacket { return (*BarrierOrPacket)(unsafe.Pointer(p)) }

// AMDBarrierValue views the slot as an AMD vendor barrier-value packet.
func (p *Packet) AMDBarrierValue() *AMDBarrierValuePacket {
	return (*AMDBarrierValuePacket)(unsafe.Pointer(p))
}

// KernelDispatchPacket mirrors hsa_kernel_dispatch_packet_t (hsa.h, large
// model): 64 bytes, no implicit padding.
//
//	off size field
//	  0    2 header
//	  2    2 setup (bits 1:0 dimensions)
//	  4    2 workgroup_size_x
//	  6    2 workgroup_size_y
//	  8    2 workgroup_size_z
//	 10    2 reserved0 (must be 0)
//	 12    4 grid_size_x
//	 16    4 grid_size_y
//	 20    4 grid_size_z
//	 24    4 private_segment_size (bytes per work-item)
//	 28    4 group_segment_size (bytes per work-group)
//	 32    8 kernel_object (kernel descriptor address)
//	 40    8 kernarg_address (void*)
//	 48    8 reserved2 (must be 0)
//	 56    8 completion_signal (hsa_signal_t; 0 = none)
type KernelDispatchPacket struct {
	Header             uint16
	Setup              uint16
	WorkgroupSizeX     uint16
	WorkgroupSizeY     uint16
	WorkgroupSizeZ     uint16
	Reserved0          uint16
	GridSizeX          uint32
	GridSizeY          uint32
	GridSizeZ          uint32
	PrivateSegmentSize uint32
	GroupSegmentSize   uint32
	KernelObject       uint64
	KernargAddress     uint64
	Reserved2          uint64
	CompletionSignal   uint64
}

// Dimensions returns the setup field's dimension count (bits 1:0).
func (p *KernelDispatchPacket) Dimensions() int {
	return int(p.Setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS & 3)
}

// AgentDispatchPacket mirrors hsa_agent_dispatch_packet_t (hsa.h, large
// model): 64 bytes, no implicit padding.
//
//	off size field
//	  0    2 header
//	  2    2 type (function: 0x0000-0x3FFF vendor, 0x4000-0x7FFF runtime, 0x8000-0xFFFF user)
//	  4    4 reserved0 (must be 0)
//	  8    8 return_address (void*)
//	 16   32 arg[4]
//	 48    8 reserved2 (must be 0)
//	 56    8 completion_signal
type AgentDispatchPacket struct {
	Header           uint16
	Type             uint16
	Reserved0        uint32
	ReturnAddress    uint64
	Arg              [4]uint64
	Reserved2        uint64
	CompletionSignal uint64
}

// BarrierAndPacket mirrors hsa_barrier_and_packet_t (hsa.h): 64 bytes, no
// implicit padding. It completes when every dependency signal has value 0; a
// zero handle is a satisfied dependency.
//
//	off size field
//	  0    2 header
//	  2    2 reserved0 (must be 0)
//	  4    4 reserved1 (must be 0)
//	  8   40 dep_signal[5]
//	 48    8 reserved2 (must be 0)
//	 56    8 completion_signal
type BarrierAndPacket struct {
	Header           uint16
	Reserved0        uint16
	Reserved1        uint32
	DepSignal        [5]uint64
	Reserved2        uint64
	CompletionSignal uint64
}

// BarrierOrPacket mirrors hsa_barrier_or_packet_t (hsa.h): the layout of
// BarrierAndPacket. It completes when any dependency signal has value 0.
//
//	off size field
//	  0    2 header
//	  2    2 reserved0 (must be 0)
//	  4    4 reserved1 (must be 0)
//	  8   40 dep_signal[5]
//	 48    8 reserved2 (must be 0)
//	 56    8 completion_signal
type BarrierOrPacket struct {
	Header           uint16
	Reserved0        uint16
	Reserved1        uint32
	DepSignal        [5]uint64
	Reserved2        uint64
	CompletionSignal uint64
}

// HSA_AMD_PACKET_TYPE_BARRIER_VALUE is hsa_amd_packet_type_t's only value
// (hsa_ext_amd.h): the AmdFormat of a barrier-value vendor packet.
const HSA_AMD_PACKET_TYPE_BARRIER_VALUE = 2

// Signal conditions (hsa.h hsa_signal_condition_t), used by signal waits and
// by AMDBarrierValuePacket.Cond.
const (
	HSA_SIGNAL_CONDITION_EQ  = 0
	HSA_SIGNAL_CONDITION_NE  = 1
	HSA_SIGNAL_CONDITION_LT  = 2
	HSA_SIGNAL_CONDITION_GTE = 3
)

// AMDVendorPacketHeader mirrors hsa_amd_vendor_packet_header_t
// (hsa_ext_amd.h): 4 bytes. The header's type is
// HSA_PACKET_TYPE_VENDOR_SPECIFIC.
//
//	off size field
//	  0    2 header
//	  2    1 AmdFormat (hsa_amd_packet_type8_t)
//	  3    1 reserved (must be 0)
type AMDVendorPacketHeader struct {
	Header    uint16
	AmdFormat uint8
	Reserved  uint8
}

// AMDBarrierValuePacket mirrors hsa_amd_barrier_value_packet_t
// (hsa_ext_amd.h): 64 bytes, no implicit padding. It completes when
// (signal value & mask) satisfies cond against value.
//
//	off size field
//	  0    4 header (hsa_amd_vendor_packet_header_t)
//	  4    4 reserved0 (must be 0)
//	  8    8 signal (hsa_signal_t)
//	 16    8 value (hsa_signal_value_t)
//	 24    8 mask
//	 32    4 cond (hsa_signal_condition32_t)
//	 36    4 reserved1
//	 40    8 reserved2
//	 48    8 reserved3
//	 56    8 completion_signal
type AMDBarrierValuePacket struct {
	Header           AMDVendorPacketHeader
	Reserved0        uint32
	Signal           uint64
	Value            int64
	Mask             int64
	Cond             uint32
	Reserved1        uint32
	Reserved2        uint64
	Reserved3        uint64
	CompletionSignal uint64
}
