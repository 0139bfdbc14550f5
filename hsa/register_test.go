package hsa

import (
	"syscall"
	"testing"
	"unsafe"
)

// TestRegisterOverlapping: hsa_memory_register ranges may repeat and
// overlap; agents see their union, and each deregistration drops one
// reference, leaving what other registrations cover visible (as ROCr, whose
// registrations are reference counted).
func TestRegisterOverlapping(t *testing.T) {
	r, _ := newRT(t)
	mem, err := syscall.Mmap(-1, 0, 3*4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	p := unsafe.Pointer(&mem[0])
	q := unsafe.Pointer(&mem[4096])
	base := uint64(uintptr(p))
	visible := func(off uint64) bool { return r.Space().Find(base+off) != nil }
	want := func(step string, offs map[uint64]bool) {
		t.Helper()
		for off, v := range offs {
			if visible(off) != v {
				t.Errorf("%s: byte %d visible = %v, want %v", step, off, !v, v)
			}
		}
	}
	// A: [0, 8192), B: [4096, 12288) overlapping A, A again.
	wantStatus(t, r.Register(p, 8192), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Register(q, 8192), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Register(p, 8192), HSA_STATUS_SUCCESS)
	want("A, B, A", map[uint64]bool{0: true, 5000: true, 12287: true})
	if reg := r.Space().Find(base); reg == nil || reg.Base != base || reg.Size != 3*4096 {
		t.Errorf("union region %+v, want [%#x, +%d)", reg, base, 3*4096)
	}
	// Kernels read and write through the registration.
	b, err := r.Space().Slice(base+8000, 400)
	if err != nil {
		t.Fatal(err)
	}
	b[0] = 42
	if mem[8000] != 42 {
		t.Error("a write through the registration did not reach the host bytes")
	}
	// Dropping B leaves A (counted twice).
	wantStatus(t, r.DeregisterRange(q, 8192), HSA_STATUS_SUCCESS)
	want("A, A", map[uint64]bool{0: true, 8191: true, 8192: false})
	wantStatus(t, r.DeregisterRange(q, 8192), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Deregister(p), HSA_STATUS_SUCCESS)
	want("A", map[uint64]bool{0: true, 8191: true})
	// B again, then A's last reference: B's part stays.
	wantStatus(t, r.Register(q, 8192), HSA_STATUS_SUCCESS)
	wantStatus(t, r.DeregisterRange(p, 8192), HSA_STATUS_SUCCESS)
	want("B", map[uint64]bool{0: false, 4095: false, 4096: true, 12287: true})
	// A range inside B, registered and dropped, changes nothing.
	wantStatus(t, r.Register(unsafe.Pointer(&mem[5000]), 100), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Deregister(unsafe.Pointer(&mem[5000])), HSA_STATUS_SUCCESS)
	want("B after an inner range", map[uint64]bool{4096: true, 12287: true})
	// A deallocation callback on B runs when B goes.
	ran := 0
	wantStatus(t, r.RegisterDeallocationCallback(base+4096, "k", func(uint64) { ran++ }), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Deregister(q), HSA_STATUS_SUCCESS)
	want("none", map[uint64]bool{0: false, 4096: false, 12287: false})
	if ran != 1 {
		t.Errorf("deallocation callback ran %d times, want 1", ran)
	}
	wantStatus(t, r.Deregister(q), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Register(nil, 10), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Register(p, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT)
}
