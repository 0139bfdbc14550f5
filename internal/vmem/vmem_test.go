package vmem

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"
)

// hostMem maps n bytes outside any Space, standing in for memory an
// application registers.
func hostMem(t testing.TB, n int) []byte {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return b
}

func addrOf(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

func newSpace(t testing.TB) *Space {
	s := New()
	t.Cleanup(func() { s.Close() })
	return s
}

func wantFault(t *testing.T, err error, kind FaultKind, acc Access, addr, size uint64) {
	t.Helper()
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("error %v is not a *Fault", err)
	}
	if f.Kind != kind || f.Access != acc || f.Addr != addr || f.Size != size {
		t.Fatalf("fault %+v, want kind %v access %v addr %#x size %d", *f, kind, acc, addr, size)
	}
	if !errors.Is(err, ErrFault) {
		t.Error("errors.Is(fault, ErrFault) is false")
	}
}

func TestRegisterLookupBounds(t *testing.T) {
	s := newSpace(t)
	mem := hostMem(t, 3*pageSize)
	base := addrOf(mem)
	// Register the middle page only.
	r, err := s.Register(unsafe.Pointer(&mem[pageSize]), pageSize, KindHost, "app")
	if err != nil {
		t.Fatal(err)
	}
	lo, end := base+pageSize, base+2*pageSize
	if r.Base != lo || r.End() != end || r.Kind != KindHost || r.Owner != "app" || !r.Live() {
		t.Fatalf("region %v", r)
	}
	cases := []struct {
		addr, size uint64
		ok         bool
	}{
		{lo, 1, true},
		{lo, pageSize, true},      // the whole region
		{lo, pageSize + 1, false}, // one byte past the end
		{end - 4, 4, true},        // last dword
		{end - 3, 4, false},       // straddles the end
		{end - 1, 1, true},        // last byte
		{end, 1, false},           // first byte after
		{lo - 1, 1, false},        // byte before
		{lo - 1, 2, false},        // straddles the start
		{lo + 100, 0, true},       // size 0: the address alone
		{end, 0, false},
		{^uint64(0) - 2, 8, false}, // wraps
		{0, 8, false},              // null
	}
	for _, c := range cases {
		got, err := s.Lookup(c.addr, c.size)
		if c.ok {
			if err != nil || got != r {
				t.Errorf("Lookup(%#x, %d) = %v, %v; want the region", c.addr, c.size, got, err)
			}
			continue
		}
		if got != nil {
			t.Errorf("Lookup(%#x, %d) = %v, want a fault", c.addr, c.size, got)
			continue
		}
		wantFault(t, err, FaultUnmapped, AccessRead, c.addr, c.size)
	}
	// Translation is the host address itself.
	mem[pageSize+8] = 0x5a
	if p := r.U8(lo + 8); *p != 0x5a || uintptr(unsafe.Pointer(p)) != uintptr(lo+8) {
		t.Errorf("U8 translation wrong")
	}
	*r.U32(lo + 13) = 0xdeadbeef // unaligned is legal
	if mem[pageSize+13] != 0xef || mem[pageSize+16] != 0xde {
		t.Errorf("U32 store landed elsewhere: % x", mem[pageSize+12:pageSize+18])
	}
	if b, err := s.Slice(end-4, 4); err != nil || &b[0] != &mem[2*pageSize-4] || len(b) != 4 {
		t.Errorf("Slice at end-4: %v", err)
	}
	if _, err := s.Slice(end-4, 5); err == nil {
		t.Error("Slice past the end accepted")
	}
	if d := r.Data(); len(d) != pageSize || &d[0] != &mem[pageSize] {
		t.Error("Data does not alias the region")
	}
	if s.Find(lo+5) != r || s.Find(end) != nil {
		t.Error("Find")
	}
}

func TestAccessorsPanicWithFault(t *testing.T) {
	s := newSpace(t)
	r, err := s.Alloc(64, 0, KindPool, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(){
		func() { r.U64(r.End() - 7) },
		func() { r.U32(r.Base - 1) },
		func() { r.Bytes(r.Base, 65) },
		func() { r.U8(r.End()) },
	} {
		func() {
			defer func() {
				v := recover()
				if _, ok := v.(*Fault); !ok {
					t.Errorf("recovered %v, want *Fault", v)
				}
			}()
			f()
		}()
	}
	if len(r.Bytes(r.Base, 64)) != 64 || r.Bytes(r.Base, 0) != nil {
		t.Error("Bytes inside the region")
	}
}

func TestOverlapRejectionAndRemoval(t *testing.T) {
	s := newSpace(t)
	mem := hostMem(t, 4*pageSize)
	base := addrOf(mem)
	p := func(off int) unsafe.Pointer { return unsafe.Pointer(&mem[off]) }
	a, err := s.Register(p(pageSize), pageSize, KindHost, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ off, size int }{
		{pageSize, pageSize},       // identical
		{pageSize + 8, 8},          // inside
		{0, pageSize + 1},          // overlaps the start
		{2*pageSize - 1, pageSize}, // overlaps the end
		{0, 3 * pageSize},          // covers it
	} {
		if _, err := s.Register(p(c.off), uint64(c.size), KindHost, 2); !errors.Is(err, ErrOverlap) {
			t.Errorf("Register(+%#x, %#x) = %v, want ErrOverlap", c.off, c.size, err)
		}
	}
	// Adjacent on both sides is fine.
	b, err := s.Register(p(0), pageSize, KindCode, 3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Register(p(2*pageSize), pageSize, KindKernarg, 4)
	if err != nil {
		t.Fatal(err)
	}
	regs := s.Regions()
	if len(regs) != 3 || regs[0] != b || regs[1] != a || regs[2] != c {
		t.Fatalf("regions not in address order: %v", regs)
	}
	// An access spanning two adjacent regions is not inside one region.
	if _, err := s.Lookup(base+pageSize-2, 4); err == nil {
		t.Error("access across two regions accepted")
	}
	if _, err := s.Register(nil, 8, KindHost, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil register: %v", err)
	}
	if _, err := s.Register(p(3*pageSize), 0, KindHost, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero-size register: %v", err)
	}
	// Removal.
	if err := s.Unregister(base + 8); !errors.Is(err, ErrNotFound) {
		t.Errorf("Unregister of a non-base: %v", err)
	}
	if err := s.Unregister(base + pageSize); err != nil {
		t.Fatal(err)
	}
	if a.Live() {
		t.Error("removed region still live")
	}
	if _, err := s.Lookup(base+pageSize, 1); err == nil {
		t.Error("lookup in a removed region succeeded")
	}
	if err := s.Unregister(base + pageSize); !errors.Is(err, ErrNotFound) {
		t.Errorf("double Unregister: %v", err)
	}
	if len(s.Regions()) != 2 {
		t.Errorf("%d regions left", len(s.Regions()))
	}
	// The freed range can be registered again.
	if _, err := s.Register(p(pageSize), pageSize, KindHost, 5); err != nil {
		t.Errorf("re-register: %v", err)
	}
	// Free refuses registered memory; Unregister refuses allocations.
	if err := s.Free(base); !errors.Is(err, ErrInvalid) {
		t.Errorf("Free of registered memory: %v", err)
	}
	al, _ := s.Alloc(100, 0, KindPool, nil)
	if err := s.Unregister(al.Base); !errors.Is(err, ErrInvalid) {
		t.Errorf("Unregister of an allocation: %v", err)
	}
	// Memory inside an arena cannot be registered.
	if _, err := s.Register(unsafe.Add(al.ptr, 2048), 16, KindHost, nil); !errors.Is(err, ErrOverlap) {
		t.Errorf("register inside an arena: %v", err)
	}
}

func TestStoresToCodeAndAtomics(t *testing.T) {
	s := newSpace(t)
	code, err := s.Alloc(8192, 256, KindCode, "exe")
	if err != nil {
		t.Fatal(err)
	}
	data, err := s.Alloc(8192, 0, KindPool, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.LookupFor(code.Base+4, 4, AccessRead); err != nil {
		t.Errorf("load from code: %v", err)
	}
	_, err = s.LookupFor(code.Base+4, 4, AccessWrite)
	wantFault(t, err, FaultReadOnly, AccessWrite, code.Base+4, 4)
	if f := err.(*Fault); f.Region != code || !strings.Contains(f.Error(), "read-only code region") {
		t.Errorf("fault text %q", f.Error())
	}
	_, err = s.LookupFor(code.Base+8, 8, AccessAtomic)
	wantFault(t, err, FaultReadOnly, AccessAtomic, code.Base+8, 8)
	// Atomics must be naturally aligned; plain stores need not be.
	if _, err := s.LookupFor(data.Base+2, 4, AccessWrite); err != nil {
		t.Errorf("unaligned store: %v", err)
	}
	_, err = s.LookupFor(data.Base+2, 4, AccessAtomic)
	wantFault(t, err, FaultMisaligned, AccessAtomic, data.Base+2, 4)
	_, err = s.LookupFor(data.Base+12, 8, AccessAtomic)
	wantFault(t, err, FaultMisaligned, AccessAtomic, data.Base+12, 8)
	if _, err := s.LookupFor(data.Base+16, 8, AccessAtomic); err != nil {
		t.Errorf("aligned atomic: %v", err)
	}
	_, err = s.LookupFor(data.End(), 4, AccessWrite)
	wantFault(t, err, FaultUnmapped, AccessWrite, data.End(), 4)
	// Host-side atomics on the translated address.
	p := data.U64(data.Base + 16)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				atomic.AddUint64(p, 1)
			}
		}()
	}
	wg.Wait()
	if *p != 4000 {
		t.Errorf("atomic total %d", *p)
	}
}

func TestFaultStrings(t *testing.T) {
	f := &Fault{Kind: FaultUnmapped, Access: AccessRead, Addr: 0x10, Size: 4}
	if got := f.Error(); got != "vmem: read of 4 bytes at 0x10: not in any region" {
		t.Errorf("%q", got)
	}
	f = &Fault{Kind: FaultMisaligned, Access: AccessAtomic, Addr: 0x1002, Size: 4}
	if got := f.Error(); got != "vmem: atomic of 4 bytes at 0x1002: misaligned atomic" {
		t.Errorf("%q", got)
	}
	if KindSignal.String() != "signal" || Kind(0).String() != "Kind(0)" || Kind(99).String() != "Kind(99)" {
		t.Error("Kind.String")
	}
	if FaultReadOnly.String() != "read-only" || AccessAtomic.String() != "atomic" {
		t.Error("String")
	}
}

// RegisterAt: devices see the host bytes at a different address, and the
// host range itself stays unregistered (hsa_amd_memory_lock's agent
// address).
func TestRegisterAtAlias(t *testing.T) {
	s := newSpace(t)
	mem := hostMem(t, pageSize)
	res := hostMem(t, 2*pageSize) // reserved stand-in for the alias range
	alias := addrOf(res) + 16
	mem[0], mem[5] = 0xab, 0xcd
	r, err := s.RegisterAt(alias, unsafe.Pointer(&mem[0]), 64, KindHost, "lock")
	if err != nil {
		t.Fatal(err)
	}
	if r.Base != alias || r.Size != 64 {
		t.Fatalf("region %v", r)
	}
	b, err := s.Slice(alias, 8)
	if err != nil {
		t.Fatal(err)
	}
	if b[0] != 0xab || b[5] != 0xcd {
		t.Fatalf("alias reads % x, want the host bytes", b)
	}
	*r.U32(alias + 8) = 0x11223344
	if got := *(*uint32)(unsafe.Pointer(&mem[8])); got != 0x11223344 {
		t.Fatalf("host sees %#x after a store through the alias", got)
	}
	if s.Find(addrOf(mem)) != nil {
		t.Error("the host address is registered too")
	}
	if _, err := s.RegisterAt(alias+8, unsafe.Pointer(&mem[0]), 8, KindHost, nil); !errors.Is(err, ErrOverlap) {
		t.Errorf("overlapping RegisterAt: %v, want ErrOverlap", err)
	}
	if _, err := s.RegisterAt(0, unsafe.Pointer(&mem[0]), 8, KindHost, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("RegisterAt(0): %v, want ErrInvalid", err)
	}
	if err := s.Unregister(alias); err != nil {
		t.Fatal(err)
	}
	if r.Live() || s.Find(alias) != nil {
		t.Error("alias still registered after Unregister")
	}
}
