package hsa

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/rocpu/rocpu/emu"
)

// Memory fault reasons (hsa_amd_memory_fault_reason_t).
const (
	HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT = 1 << 0
	HSA_AMD_MEMORY_FAULT_READ_ONLY        = 1 << 1
	HSA_AMD_MEMORY_FAULT_NX               = 1 << 2
	HSA_AMD_MEMORY_FAULT_HOST_ONLY        = 1 << 3
	HSA_AMD_MEMORY_FAULT_DRAMECC          = 1 << 4
	HSA_AMD_MEMORY_FAULT_IMPRECISE        = 1 << 5
	HSA_AMD_MEMORY_FAULT_SRAMECC          = 1 << 6
	HSA_AMD_MEMORY_FAULT_HANG             = 1 << 31
)

// HSA_AMD_GPU_MEMORY_FAULT_EVENT is the only hsa_amd_event_type_t.
const HSA_AMD_GPU_MEMORY_FAULT_EVENT = 0

// MemoryFaultEvent is hsa_amd_event_t with event type
// HSA_AMD_GPU_MEMORY_FAULT_EVENT (hsa_amd_gpu_memory_fault_info_t).
type MemoryFaultEvent struct {
	Agent           *Agent
	VirtualAddress  uint64
	FaultReasonMask uint32
}

// SystemEventHandler is hsa_amd_register_system_event_handler's
// callback; its status return is ignored, as in ROCr.
type SystemEventHandler func(MemoryFaultEvent) Status

type eventState struct {
	mu       sync.Mutex
	handlers []SystemEventHandler
}

// RegisterSystemEventHandler is hsa_amd_register_system_event_handler:
// h is called, on the faulting queue's packet-processor goroutine before
// the queue's error callback, for every device memory fault.
func (r *Runtime) RegisterSystemEventHandler(h SystemEventHandler) error {
	if err := r.check("RegisterSystemEventHandler"); err != nil {
		return err
	}
	if h == nil {
		return errorf("RegisterSystemEventHandler", HSA_STATUS_ERROR_INVALID_ARGUMENT, "nil handler")
	}
	r.events.mu.Lock()
	r.events.handlers = append(r.events.handlers, h)
	r.events.mu.Unlock()
	return nil
}

// memoryFaultEvent delivers a device memory fault to the system event
// handlers.
func (r *Runtime) memoryFaultEvent(a *Agent, err error) {
	var f *emu.Fault
	if !errors.As(err, &f) || (f.Kind != emu.FaultMemory && f.Kind != emu.FaultMisaligned) {
		return
	}
	reason := uint32(HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT)
	if reg := r.space.Find(f.Address); reg != nil {
		reason = HSA_AMD_MEMORY_FAULT_READ_ONLY // mapped, so the store hit read-only memory
	}
	r.events.mu.Lock()
	hs := append([]SystemEventHandler(nil), r.events.handlers...)
	r.events.mu.Unlock()
	for _, h := range hs {
		h(MemoryFaultEvent{Agent: a, VirtualAddress: f.Address, FaultReasonMask: reason})
	}
}

// CUMask is hsa_amd_queue_cu_get_mask: the mask SetCUMask recorded, or
// every CU enabled.
func (q *Queue) CUMask() []uint32 {
	if m := q.cuMask.Load(); m != nil {
		return append([]uint32(nil), (*m)...)
	}
	n := q.agent.chip.cus
	out := make([]uint32, (n+31)/32)
	for i := 0; i < n; i++ {
		out[i/32] |= 1 << (i % 32)
	}
	return out
}

// Exception policies (hsa_exception_policy_t) and floating-point rounding
// facts (hsa_fp_type_t, hsa_flush_mode_t, hsa_round_method_t).
const (
	HSA_EXCEPTION_POLICY_BREAK  = 1
	HSA_EXCEPTION_POLICY_DETECT = 2

	HSA_FP_TYPE_16 = 1
	HSA_FP_TYPE_32 = 2
	HSA_FP_TYPE_64 = 4

	HSA_FLUSH_MODE_FTZ     = 1
	HSA_FLUSH_MODE_NON_FTZ = 2

	HSA_ROUND_METHOD_SINGLE = 1
	HSA_ROUND_METHOD_DOUBLE = 2
)

// ExceptionPolicies is hsa_isa_get_exception_policies (and the deprecated
// hsa_agent_get_exception_policies): AMDGPU code objects support no HSAIL
// exception policies, so the mask is 0 for both profiles.
func (i *ISA) ExceptionPolicies(profile uint32) (uint16, error) {
	if profile > HSA_PROFILE_FULL {
		return 0, errorf("ISA.ExceptionPolicies", HSA_STATUS_ERROR_INVALID_ARGUMENT, "profile %d", profile)
	}
	return 0, nil
}

// RoundMethod is hsa_isa_get_round_method: AMDGPU rounds every
// floating-point type once (HSA_ROUND_METHOD_SINGLE).
func (i *ISA) RoundMethod(fpType, flushMode uint32) (uint32, error) {
	switch fpType {
	case HSA_FP_TYPE_16, HSA_FP_TYPE_32, HSA_FP_TYPE_64:
	default:
		return 0, errorf("ISA.RoundMethod", HSA_STATUS_ERROR_INVALID_ARGUMENT, "floating-point type %d", fpType)
	}
	if flushMode != HSA_FLUSH_MODE_FTZ && flushMode != HSA_FLUSH_MODE_NON_FTZ {
		return 0, errorf("ISA.RoundMethod", HSA_STATUS_ERROR_INVALID_ARGUMENT, "flush mode %d", flushMode)
	}
	return HSA_ROUND_METHOD_SINGLE, nil
}

// Coherency types (hsa_amd_coherency_type_t).
const (
	HSA_AMD_COHERENCY_TYPE_COHERENT    = 0
	HSA_AMD_COHERENCY_TYPE_NONCOHERENT = 1
)

// CoherencyType is hsa_amd_coherency_get_type: host memory is coherent.
func (a *Agent) CoherencyType() (uint32, error) {
	if a.typ != HSA_DEVICE_TYPE_GPU {
		return 0, errorf("Agent.CoherencyType", HSA_STATUS_ERROR_INVALID_AGENT, "%v is not a GPU agent", a)
	}
	return HSA_AMD_COHERENCY_TYPE_COHERENT, nil
}

// SetCoherencyType is hsa_amd_coherency_set_type: deprecated in ROCr,
// where it "spuriously succeeds" except on Kaveri; rocpu does the same
// for valid types.
func (a *Agent) SetCoherencyType(t uint32) error {
	if a.typ != HSA_DEVICE_TYPE_GPU {
		return errorf("Agent.SetCoherencyType", HSA_STATUS_ERROR_INVALID_AGENT, "%v is not a GPU agent", a)
	}
	if t > HSA_AMD_COHERENCY_TYPE_NONCOHERENT {
		return errorf("Agent.SetCoherencyType", HSA_STATUS_ERROR_INVALID_ARGUMENT, "coherency type %d", t)
	}
	return nil
}

// LockToPool is hsa_amd_memory_lock_to_pool: Lock, with the pool the
// memory is said to be pinned to (every pool is host memory here). flags
// must be 0.
func (r *Runtime) LockToPool(host unsafe.Pointer, size uint64, agents []*Agent, p *MemoryPool, flags uint32) (uint64, error) {
	const op = "LockToPool"
	if p == nil || p.rt != r {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "pool of another runtime")
	}
	if flags != 0 {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "flags %#x must be 0", flags)
	}
	return r.lock(op, host, size, agents)
}
