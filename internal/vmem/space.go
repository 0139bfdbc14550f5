package vmem

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// table is one immutable snapshot of the registered regions, sorted by
// Base. bases duplicates regs[i].Base so the binary search touches one dense
// array.
type table struct {
	bases []uint64
	regs  []*Region
}

var emptyTable = &table{}

// search returns the index of the last region whose Base is <= addr, or -1.
// It halves a window [i, i+n) whose first base is <= addr, so the loop has
// one data-dependent comparison per level and no early exit.
func (t *table) search(addr uint64) int {
	b := t.bases
	n := len(b)
	if n == 0 || b[0] > addr {
		return -1
	}
	i := 0
	for n > 1 {
		half := n >> 1
		j := i + half
		if b[j] <= addr {
			i = j
		}
		n -= half
	}
	return i
}

// Space is a device address space: the region table and the arenas that
// back allocations. Its methods are safe for concurrent use; Lookup and the
// Cache take no lock.
type Space struct {
	tab atomic.Pointer[table]

	mu     sync.Mutex // serialises table changes and the allocator
	closed bool
	arena  arena
}

// New returns an empty address space. Arenas are mapped on first use.
func New() *Space {
	s := &Space{}
	s.tab.Store(emptyTable)
	return s
}

// Lookup returns the region that holds all of [addr, addr+size), or a
// *Fault of kind FaultUnmapped (Access read). It does not check the kind:
// use LookupFor for stores and atomics. It takes no lock and does not
// allocate when it succeeds.
func (s *Space) Lookup(addr, size uint64) (*Region, error) {
	t := s.tab.Load()
	if i := t.search(addr); i >= 0 {
		r := t.regs[i]
		if r.objs != nil {
			r = r.objs.object(addr)
		}
		if r != nil && r.Contains(addr, size) {
			return r, nil
		}
	}
	return nil, &Fault{Kind: FaultUnmapped, Access: AccessRead, Addr: addr, Size: size}
}

// LookupFor is Lookup for an access of kind acc: stores and atomics to a
// region the device may not write fault with FaultReadOnly, and an atomic
// whose address is not a multiple of its size (1, 2, 4, 8 or 16) faults with
// FaultMisaligned.
func (s *Space) LookupFor(addr, size uint64, acc Access) (*Region, error) {
	r, err := s.Lookup(addr, size)
	if err != nil {
		err.(*Fault).Access = acc
		return nil, err
	}
	return r, checkAccess(r, addr, size, acc)
}

// checkAccess applies the kind and alignment rules of acc to an access
// already known to lie inside r.
func checkAccess(r *Region, addr, size uint64, acc Access) error {
	if acc == AccessRead {
		return nil
	}
	if !r.writable {
		return &Fault{Kind: FaultReadOnly, Access: acc, Addr: addr, Size: size, Region: r}
	}
	if acc == AccessAtomic && size&(size-1) == 0 && addr&(size-1) != 0 {
		return &Fault{Kind: FaultMisaligned, Access: acc, Addr: addr, Size: size, Region: r}
	}
	return nil
}

// Find returns the live region containing addr, or nil.
func (s *Space) Find(addr uint64) *Region {
	r, _ := s.Lookup(addr, 0)
	return r
}

// Regions returns the registered regions in address order (a snapshot).
func (s *Space) Regions() []*Region {
	t := s.tab.Load()
	var out []*Region
	for _, r := range t.regs {
		if r.objs == nil {
			out = append(out, r)
			continue
		}
		for i := range r.objs.objs {
			if o := r.objs.objs[i].Load(); o != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// Slice returns the n bytes at device address addr as a Go slice aliasing
// the memory, after checking that they lie inside one region. It is for
// host-side code (copies, kernarg writing); the emulator uses Cache and the
// Region accessors.
func (s *Space) Slice(addr, n uint64) ([]byte, error) {
	r, err := s.Lookup(addr, n)
	if err != nil {
		return nil, err
	}
	return r.Bytes(addr, n), nil
}

// Register adds the size bytes at p, which the caller keeps mapped and
// readable (and writable unless kind is KindCode) until Unregister, as a
// region of the given kind and owner. The range must not overlap a
// registered region, an arena of this space, or an aperture.
func (s *Space) Register(p unsafe.Pointer, size uint64, kind Kind, owner any) (*Region, error) {
	base := uint64(uintptr(p))
	if p == nil || size == 0 || base+size < base {
		return nil, fmt.Errorf("%w: register %#x size %#x", ErrInvalid, base, size)
	}
	r := &Region{Base: base, Size: size, Kind: kind, Owner: owner, ptr: p, writable: kind.DeviceWritable()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if c := s.arena.chunkOverlapping(base, size); c != nil {
		return nil, fmt.Errorf("%w: [%#x, %#x) is inside an arena of this space", ErrOverlap, base, base+size)
	}
	if err := s.insert(r); err != nil {
		return nil, err
	}
	return r, nil
}

// RegisterAt is Register with a device address different from the host
// address: the size bytes at p are seen by devices at [base, base+size)
// (hsa_amd_memory_lock's agent address). base must not overlap a
// registered region, an arena or an aperture; the caller reserves it.
func (s *Space) RegisterAt(base uint64, p unsafe.Pointer, size uint64, kind Kind, owner any) (*Region, error) {
	if p == nil || base == 0 || size == 0 || base+size < base {
		return nil, fmt.Errorf("%w: register %#x at %#x size %#x", ErrInvalid, uintptr(p), base, size)
	}
	r := &Region{Base: base, Size: size, Kind: kind, Owner: owner, ptr: p, writable: kind.DeviceWritable()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if c := s.arena.chunkOverlapping(base, size); c != nil {
		return nil, fmt.Errorf("%w: [%#x, %#x) is inside an arena of this space", ErrOverlap, base, base+size)
	}
	if err := s.insert(r); err != nil {
		return nil, err
	}
	return r, nil
}

// Unregister removes the registered (not allocated) region starting at
// base. Caches holding it see it as gone.
func (s *Space) Unregister(base uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, i := s.regionAt(base)
	if r == nil {
		return fmt.Errorf("%w at %#x", ErrNotFound, base)
	}
	if r.objs != nil || r.chunk != nil {
		return fmt.Errorf("%w: %v is an allocation; use Free", ErrInvalid, r)
	}
	s.remove(i)
	return nil
}

// regionAt returns the table entry starting exactly at base and its index.
// The entry may be a slab (objs != nil). Callers hold s.mu.
func (s *Space) regionAt(base uint64) (*Region, int) {
	t := s.tab.Load()
	i := t.search(base)
	if i < 0 || t.regs[i].Base != base {
		return nil, -1
	}
	return t.regs[i], i
}

// insert publishes a new table with r added. Callers hold s.mu.
func (s *Space) insert(r *Region) error {
	if err := checkApertureOverlap(r.Base, r.Size); err != nil {
		return err
	}
	t := s.tab.Load()
	i := t.search(r.Base) + 1 // insertion index
	if i > 0 && t.regs[i-1].End() > r.Base {
		return fmt.Errorf("%w: [%#x, %#x) with %v", ErrOverlap, r.Base, r.End(), t.regs[i-1])
	}
	if i < len(t.regs) && t.regs[i].Base < r.End() {
		return fmt.Errorf("%w: [%#x, %#x) with %v", ErrOverlap, r.Base, r.End(), t.regs[i])
	}
	n := &table{
		bases: make([]uint64, 0, len(t.bases)+1),
		regs:  make([]*Region, 0, len(t.regs)+1),
	}
	n.bases = append(append(append(n.bases, t.bases[:i]...), r.Base), t.bases[i:]...)
	n.regs = append(append(append(n.regs, t.regs[:i]...), r), t.regs[i:]...)
	s.tab.Store(n)
	return nil
}

// remove publishes a new table without entry i and marks it dead. Callers
// hold s.mu.
func (s *Space) remove(i int) {
	t := s.tab.Load()
	r := t.regs[i]
	n := &table{
		bases: make([]uint64, 0, len(t.bases)-1),
		regs:  make([]*Region, 0, len(t.regs)-1),
	}
	n.bases = append(append(n.bases, t.bases[:i]...), t.bases[i+1:]...)
	n.regs = append(append(n.regs, t.regs[:i]...), t.regs[i+1:]...)
	s.tab.Store(n)
	r.dead.Store(true)
}

// Close removes every region and unmaps the arenas. Pointers into
// allocations are invalid afterwards; registered host memory is untouched.
func (s *Space) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	t := s.tab.Load()
	s.tab.Store(emptyTable)
	for _, r := range t.regs {
		r.dead.Store(true)
		if r.objs != nil {
			for i := range r.objs.objs {
				if o := r.objs.objs[i].Swap(nil); o != nil {
					o.dead.Store(true)
				}
			}
		}
	}
	return s.arena.close()
}
