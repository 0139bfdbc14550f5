package hsa

import (
	"context"
	"testing"
	"time"
	"unsafe"

	"github.com/rocpu/rocpu/emu"
)

func TestSystemEventHandler(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "k", 0)
	events := make(chan MemoryFaultEvent, 2)
	wantStatus(t, r.RegisterSystemEventHandler(func(e MemoryFaultEvent) Status { events <- e; return HSA_STATUS_SUCCESS }), HSA_STATUS_SUCCESS)
	wantStatus(t, r.RegisterSystemEventHandler(nil), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	devs[0].setFn(func(context.Context, *emu.Dispatch) error {
		return &emu.Fault{Kind: emu.FaultMemory, Address: 0xdead000, Wave: 0, Lane: 3}
	})
	q, errs := newQueue(t, r, 64)
	submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, 0)
	select {
	case e := <-events:
		if e.Agent != r.GPUAgents()[0] || e.VirtualAddress != 0xdead000 || e.FaultReasonMask != HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT {
			t.Errorf("event %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no memory fault event")
	}
	if e := <-errs; e.st != HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION {
		t.Errorf("queue error %v", e.st)
	}
}

func TestExtras(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	q, _ := newQueue(t, r, 64)
	m := q.CUMask()
	if len(m) != 4 || m[0] != ^uint32(0) || m[3] != 0xFF { // 104 CUs
		t.Errorf("default CU mask %#x", m)
	}
	q.SetCUMask([]uint32{0x5})
	if m := q.CUMask(); len(m) != 1 || m[0] != 5 {
		t.Errorf("CU mask %#x", m)
	}
	isa := gpu.ISA()
	if p, err := isa.ExceptionPolicies(HSA_PROFILE_BASE); p != 0 || err != nil {
		t.Errorf("exception policies %d %v", p, err)
	}
	_, err := isa.ExceptionPolicies(5)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	if m, err := isa.RoundMethod(HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ); m != HSA_ROUND_METHOD_SINGLE || err != nil {
		t.Errorf("round method %d %v", m, err)
	}
	_, err = isa.RoundMethod(3, HSA_FLUSH_MODE_FTZ)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	if c, err := gpu.CoherencyType(); c != HSA_AMD_COHERENCY_TYPE_COHERENT || err != nil {
		t.Errorf("coherency %d %v", c, err)
	}
	wantStatus(t, gpu.SetCoherencyType(HSA_AMD_COHERENCY_TYPE_NONCOHERENT), HSA_STATUS_SUCCESS)
	wantStatus(t, gpu.SetCoherencyType(2), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.CPUAgent().CoherencyType()
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
	host := mmapHost(t, 4096)
	p, err := r.LockToPool(unsafe.Pointer(&host[0]), 4096, nil, r.CPUAgent().Pools()[0], 0)
	if err != nil || p == 0 || p == uint64(uintptr(unsafe.Pointer(&host[0]))) || r.Space().Find(p) == nil {
		t.Errorf("LockToPool %#x %v, want a registered agent address other than the host's", p, err)
	}
	_, err = r.LockToPool(unsafe.Pointer(&host[0]), 4096, nil, nil, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_MEMORY_POOL)
	wantStatus(t, r.Unlock(unsafe.Pointer(&host[0])), HSA_STATUS_SUCCESS)
}

func TestAsyncFunction(t *testing.T) {
	r, _ := newRT(t)
	done := make(chan int, 3)
	for i := 0; i < 3; i++ {
		i := i
		wantStatus(t, r.AsyncFunction(func() { done <- i }), HSA_STATUS_SUCCESS)
	}
	for want := 0; want < 3; want++ {
		select {
		case got := <-done:
			if got != want {
				t.Errorf("async function %d ran in position %d", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("async function did not run")
		}
	}
	wantStatus(t, r.AsyncFunction(nil), HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

func TestDeallocationCallbacks(t *testing.T) {
	r, _ := newRT(t)
	p, _ := r.GPUAgents()[0].Pools()[0].Allocate(8192, 0)
	var got []uint64
	wantStatus(t, r.RegisterDeallocationCallback(p+100, "a", func(ptr uint64) { got = append(got, ptr) }), HSA_STATUS_SUCCESS)
	wantStatus(t, r.RegisterDeallocationCallback(p, "b", func(ptr uint64) { t.Error("deregistered callback ran") }), HSA_STATUS_SUCCESS)
	wantStatus(t, r.DeregisterDeallocationCallback(p, "b"), HSA_STATUS_SUCCESS)
	wantStatus(t, r.DeregisterDeallocationCallback(p, "b"), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.RegisterDeallocationCallback(0x1000, "c", func(uint64) {}), HSA_STATUS_ERROR_INVALID_ALLOCATION)
	wantStatus(t, r.RegisterDeallocationCallback(p, "c", nil), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	r.Free(p)
	if len(got) != 1 || got[0] != p+100 {
		t.Errorf("deallocation callback got %#x, want [%#x]", got, p+100)
	}
	host := mmapHost(t, 4096)
	hp := unsafe.Pointer(&host[0])
	a, _ := r.Lock(hp, 4096, nil)
	ran := false
	r.RegisterDeallocationCallback(a, 1, func(uint64) { ran = true })
	r.Unlock(hp)
	if !ran {
		t.Error("unlock did not run the deallocation callback")
	}
}
