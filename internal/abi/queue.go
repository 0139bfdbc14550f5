package abi

import (
	"strconv"
	"sync/atomic"
)

// QueueType is hsa_queue_type_t (hsa.h), stored as hsa_queue_type32_t.
type QueueType uint32

// Queue types (hsa.h hsa_queue_type_t).
const (
	HSA_QUEUE_TYPE_MULTI       QueueType = 0
	HSA_QUEUE_TYPE_SINGLE      QueueType = 1
	HSA_QUEUE_TYPE_COOPERATIVE QueueType = 2
)

// String returns the C name of t.
func (t QueueType) String() string {
	switch t {
	case HSA_QUEUE_TYPE_MULTI:
		return "HSA_QUEUE_TYPE_MULTI"
	case HSA_QUEUE_TYPE_SINGLE:
		return "HSA_QUEUE_TYPE_SINGLE"
	case HSA_QUEUE_TYPE_COOPERATIVE:
		return "HSA_QUEUE_TYPE_COOPERATIVE"
	}
	return "QueueType(" + strconv.FormatUint(uint64(t), 10) + ")"
}

// Queue features (hsa.h hsa_queue_feature_t), a bit mask in
// hsa_queue_t.features.
const (
	HSA_QUEUE_FEATURE_KERNEL_DISPATCH = 1
	HSA_QUEUE_FEATURE_AGENT_DISPATCH  = 2
)

// HSAQueue mirrors hsa_queue_t (hsa.h, large model): 40 bytes, no implicit
// padding. The packet ring is base_address[0 : size].
//
//	off size field
//	  0    4 type (hsa_queue_type32_t)
//	  4    4 features
//	  8    8 base_address (void*)
//	 16    8 doorbell_signal (hsa_signal_t)
//	 24    4 size (packets, a power of 2)
//	 28    4 reserved1 (must be 0)
//	 32    8 id
type HSAQueue struct {
	Type           QueueType
	Features       uint32
	BaseAddress    uint64
	DoorbellSignal uint64
	Size           uint32
	Reserved1      uint32
	ID             uint64
}

// amd_queue_t queue_properties bits (amd_hsa_queue.h amd_queue_properties_t).
// Each has a _SHIFT and _WIDTH, as AMD_HSA_BITS_CREATE_ENUM_ENTRIES makes.
const (
	AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_SHIFT             = 0
	AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_WIDTH             = 1
	AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER                   = 1 << 0
	AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT                        = 1
	AMD_QUEUE_PROPERTIES_IS_PTR64_WIDTH                        = 1
	AMD_QUEUE_PROPERTIES_IS_PTR64                              = 1 << 1
	AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_SHIFT = 2
	AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_WIDTH = 1
	AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS       = 1 << 2
	AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT                = 3
	AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_WIDTH                = 1
	AMD_QUEUE_PROPERTIES_ENABLE_PROFILING                      = 1 << 3
	AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_SHIFT                = 4
	AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_WIDTH                = 1
	AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE                      = 1 << 4
	AMD_QUEUE_PROPERTIES_RESERVED1_SHIFT                       = 5
	AMD_QUEUE_PROPERTIES_RESERVED1_WIDTH                       = 27
	AMD_QUEUE_PROPERTIES_RESERVED1                             = (1<<27 - 1) << 5
)

// AMD_QUEUE_ALIGN_BYTES is the alignment amd_hsa_queue.h gives amd_queue_t.
// INVENTORY §6.3 adds that the structure must not span a 4 GiB boundary.
const AMD_QUEUE_ALIGN_BYTES = 64

// AMDQueue mirrors amd_queue_t (amd_hsa_queue.h, ROCr 5.2.3): 256 bytes,
// 64-byte aligned in C (Go only guarantees 8; allocate it in vmem). There
// is no implicit padding; the reserved arrays are explicit in the header.
// An hsa_queue_t* handed to HIP points at one of these.
//
//	off size field
//	  0   40 hsa_queue (hsa_queue_t)
//	 40   16 reserved1[4] (must be 0; keeps write_dispatch_id in this cache line)
//	 56    8 write_dispatch_id (volatile)
//	 64    4 group_segment_aperture_base_hi (kernel code reads this line)
//	 68    4 private_segment_aperture_base_hi
//	 72    4 max_cu_id
//	 76    4 max_wave_id
//	 80    8 max_legacy_doorbell_dispatch_id_plus_1 (volatile)
//	 88    4 legacy_doorbell_lock (volatile)
//	 92   36 reserved2[9]
//	128    8 read_dispatch_id (volatile; CP cache line)
//	136    4 read_dispatch_id_field_base_byte_offset
//	140    4 compute_tmpring_size
//	144   16 scratch_resource_descriptor[4] (scratch V#)
//	160    8 scratch_backing_memory_location
//	168    8 scratch_backing_memory_byte_size
//	176    4 scratch_wave64_lane_byte_size
//	180    4 queue_properties (amd_queue_properties32_t)
//	184    8 reserved3[2]
//	192    8 queue_inactive_signal (hsa_signal_t)
//	200   56 reserved4[14]
type AMDQueue struct {
	HSAQueue                          HSAQueue
	Reserved1                         [4]uint32
	WriteDispatchID                   uint64
	GroupSegmentApertureBaseHi        uint32
	PrivateSegmentApertureBaseHi      uint32
	MaxCUID                           uint32
	MaxWaveID                         uint32
	MaxLegacyDoorbellDispatchIDPlus1  uint64
	LegacyDoorbellLock                uint32
	Reserved2                         [9]uint32
	ReadDispatchID                    uint64
	ReadDispatchIDFieldBaseByteOffset uint32
	ComputeTmpringSize                uint32
	ScratchResourceDescriptor         [4]uint32
	ScratchBackingMemoryLocation      uint64
	ScratchBackingMemoryByteSize      uint64
	ScratchWave64LaneByteSize         uint32
	QueueProperties                   uint32
	Reserved3                         [2]uint32
	QueueInactiveSignal               uint64
	Reserved4                         [14]uint32
}

// The queue index operations (INVENTORY §6.4) are atomic accesses to
// write_dispatch_id and read_dispatch_id at system scope. Go's atomics are
// sequentially consistent, which covers every memory order HSA asks for.

// LoadWriteIndex atomically loads write_dispatch_id.
func (q *AMDQueue) LoadWriteIndex() uint64 { return atomic.LoadUint64(&q.WriteDispatchID) }

// StoreWriteIndex atomically stores write_dispatch_id.
func (q *AMDQueue) StoreWriteIndex(v uint64) { atomic.StoreUint64(&q.WriteDispatchID, v) }

// AddWriteIndex atomically adds n to write_dispatch_id and returns the
// previous value, as hsa_queue_add_write_index_* do.
func (q *AMDQueue) AddWriteIndex(n uint64) uint64 {
	return atomic.AddUint64(&q.WriteDispatchID, n) - n
}

// CASWriteIndex atomically replaces write_dispatch_id with v if it equals
// expected, and returns the value it observed (hsa_queue_cas_write_index_*).
func (q *AMDQueue) CASWriteIndex(expected, v uint64) uint64 {
	for {
		if atomic.CompareAndSwapUint64(&q.WriteDispatchID, expected, v) {
			return expected
		}
		if cur := atomic.LoadUint64(&q.WriteDispatchID); cur != expected {
			return cur
		}
	}
}

// LoadReadIndex atomically loads read_dispatch_id.
func (q *AMDQueue) LoadReadIndex() uint64 { return atomic.LoadUint64(&q.ReadDispatchID) }

// StoreReadIndex atomically stores read_dispatch_id (packet processor only).
func (q *AMDQueue) StoreReadIndex(v uint64) { atomic.StoreUint64(&q.ReadDispatchID, v) }
