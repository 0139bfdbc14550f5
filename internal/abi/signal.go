package abi

import (
	"strconv"
	"sync/atomic"
)

// SignalKind is amd_signal_kind_t (amd_hsa_signal.h), stored as
// amd_signal_kind64_t.
type SignalKind int64

// Signal kinds (amd_hsa_signal.h amd_signal_kind_t).
const (
	AMD_SIGNAL_KIND_INVALID         SignalKind = 0
	AMD_SIGNAL_KIND_USER            SignalKind = 1
	AMD_SIGNAL_KIND_DOORBELL        SignalKind = -1
	AMD_SIGNAL_KIND_LEGACY_DOORBELL SignalKind = -2
)

// String returns the C name of k.
func (k SignalKind) String() string {
	switch k {
	case AMD_SIGNAL_KIND_INVALID:
		return "AMD_SIGNAL_KIND_INVALID"
	case AMD_SIGNAL_KIND_USER:
		return "AMD_SIGNAL_KIND_USER"
	case AMD_SIGNAL_KIND_DOORBELL:
		return "AMD_SIGNAL_KIND_DOORBELL"
	case AMD_SIGNAL_KIND_LEGACY_DOORBELL:
		return "AMD_SIGNAL_KIND_LEGACY_DOORBELL"
	}
	return "SignalKind(" + strconv.FormatInt(int64(k), 10) + ")"
}

// AMD_SIGNAL_ALIGN_BYTES is the alignment amd_hsa_signal.h gives
// amd_signal_t.
const AMD_SIGNAL_ALIGN_BYTES = 64

// AMDSignal mirrors amd_signal_t (amd_hsa_signal.h): 64 bytes, 64-byte
// aligned in C (Go only guarantees 8; allocate it in vmem). An hsa_signal_t
// handle is the address of one of these; device code (ockl) and HIP
// dereference it. No implicit padding.
//
//	off size field
//	  0    8 kind (amd_signal_kind64_t)
//	  8    8 union { value (int64, volatile); legacy_hardware_doorbell_ptr; hardware_doorbell_ptr }
//	 16    8 event_mailbox_ptr
//	 24    4 event_id
//	 28    4 reserved1
//	 32    8 start_ts
//	 40    8 end_ts
//	 48    8 union { queue_ptr (amd_queue_t*); reserved2 }
//	 56    8 reserved3[2]
type AMDSignal struct {
	Kind            SignalKind
	Value           int64
	EventMailboxPtr uint64
	EventID         uint32
	Reserved1       uint32
	StartTS         uint64
	EndTS           uint64
	QueuePtr        uint64
	Reserved3       [2]uint32
}

// Load atomically loads the value (acquire).
func (s *AMDSignal) Load() int64 { return atomic.LoadInt64(&s.Value) }

// Store atomically stores the value (release).
func (s *AMDSignal) Store(v int64) { atomic.StoreInt64(&s.Value, v) }

// Add atomically adds d to the value and returns the new value.
func (s *AMDSignal) Add(d int64) int64 { return atomic.AddInt64(&s.Value, d) }

// Exchange atomically stores v and returns the previous value.
func (s *AMDSignal) Exchange(v int64) int64 { return atomic.SwapInt64(&s.Value, v) }

// CAS atomically replaces the value with v if it equals expected and
// returns the value observed, as hsa_signal_cas_* do.
func (s *AMDSignal) CAS(expected, v int64) int64 {
	for {
		if atomic.CompareAndSwapInt64(&s.Value, expected, v) {
			return expected
		}
		if cur := atomic.LoadInt64(&s.Value); cur != expected {
			return cur
		}
	}
}
