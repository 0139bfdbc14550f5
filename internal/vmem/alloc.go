package vmem

import (
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Allocator geometry.
const (
	pageSize     = 4096
	slabSize     = 64 << 10 // one slab holds objects of one size class
	minClass     = 16       // smallest object (and default alignment)
	maxSmall     = 2048     // larger requests get whole pages
	chunkDefault = 1 << 30  // virtual size of an arena chunk (MAP_NORESERVE)
	chunkMin     = 16 << 20
)

// numClasses covers 16, 32, …, 2048.
var numClasses = bits.Len(maxSmall) - bits.Len(minClass) + 1

// pageSpan is a run of bytes inside a chunk, page-granular.
type pageSpan struct{ off, n uint64 }

// chunk is one mmap'd arena range with a first-fit free list of page runs
// (sorted by offset, coalesced).
type chunk struct {
	mem  []byte
	base uint64
	ptr  unsafe.Pointer
	free []pageSpan
}

// alloc takes n bytes (a page multiple) whose absolute address is a multiple
// of align (a power of two >= pageSize).
func (c *chunk) alloc(n, align uint64) (pageSpan, bool) {
	for i, f := range c.free {
		start := (c.base+f.off+align-1)&^(align-1) - c.base
		if start+n > f.off+f.n {
			continue
		}
		var repl []pageSpan
		if start > f.off {
			repl = append(repl, pageSpan{f.off, start - f.off})
		}
		if end := start + n; end < f.off+f.n {
			repl = append(repl, pageSpan{end, f.off + f.n - end})
		}
		c.free = append(c.free[:i], append(repl, c.free[i+1:]...)...)
		return pageSpan{start, n}, true
	}
	return pageSpan{}, false
}

// release returns sp to the free list, zeroing its pages (MADV_DONTNEED on
// private anonymous memory gives zero pages and returns them to the kernel).
func (c *chunk) release(sp pageSpan) {
	_ = syscall.Madvise(c.mem[sp.off:sp.off+sp.n], syscall.MADV_DONTNEED)
	i := 0
	for i < len(c.free) && c.free[i].off < sp.off {
		i++
	}
	c.free = append(c.free[:i], append([]pageSpan{sp}, c.free[i:]...)...)
	// Coalesce with the neighbours.
	if i+1 < len(c.free) && c.free[i].off+c.free[i].n == c.free[i+1].off {
		c.free[i].n += c.free[i+1].n
		c.free = append(c.free[:i+1], c.free[i+2:]...)
	}
	if i > 0 && c.free[i-1].off+c.free[i-1].n == c.free[i].off {
		c.free[i-1].n += c.free[i].n
		c.free = append(c.free[:i], c.free[i+1:]...)
	}
}

// slab holds slabSize/class objects of one size class. One table entry (the
// container region, objs == the slab) covers the whole slab; each live
// object's own region sits in objs, where Lookup finds it by index without a
// lock.
type slab struct {
	class     uint64
	shift     uint // log2(class)
	base      uint64
	ptr       unsafe.Pointer
	chunk     *chunk
	span      pageSpan
	free      []uint32 // free slot indexes (a stack)
	objs      []atomic.Pointer[Region]
	container *Region
}

// object returns the live object region whose slot holds addr, or nil.
func (sl *slab) object(addr uint64) *Region {
	off := addr - sl.base
	if off >= slabSize {
		return nil
	}
	return sl.objs[off>>sl.shift].Load()
}

// arena is the allocator state of a Space; guarded by Space.mu.
type arena struct {
	chunks  []*chunk
	partial [][]*slab // per class: slabs with at least one free slot
}

func (a *arena) chunkOverlapping(base, size uint64) *chunk {
	for _, c := range a.chunks {
		if base < c.base+uint64(len(c.mem)) && c.base < base+size {
			return c
		}
	}
	return nil
}

// pages allocates n bytes (page multiple) aligned to align from some chunk,
// mapping a new chunk when none has room.
func (a *arena) pages(n, align uint64) (*chunk, pageSpan, error) {
	for _, c := range a.chunks {
		if sp, ok := c.alloc(n, align); ok {
			return c, sp, nil
		}
	}
	c, err := a.grow(n + align)
	if err != nil {
		return nil, pageSpan{}, err
	}
	sp, ok := c.alloc(n, align)
	if !ok {
		return nil, pageSpan{}, fmt.Errorf("%w: new chunk cannot hold %d bytes", ErrNoMemory, n)
	}
	return c, sp, nil
}

// grow maps a new chunk of at least need bytes: chunkDefault if the kernel
// allows (MAP_NORESERVE reserves address space only), halving on ENOMEM.
func (a *arena) grow(need uint64) (*chunk, error) {
	size := uint64(chunkDefault)
	if need > size {
		size = (need + chunkMin - 1) &^ (chunkMin - 1)
	}
	for {
		mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
		if err == nil {
			p := unsafe.Pointer(unsafe.SliceData(mem))
			c := &chunk{mem: mem, ptr: p, base: uint64(uintptr(p)), free: []pageSpan{{0, size}}}
			if err := checkApertureOverlap(c.base, size); err != nil {
				_ = syscall.Munmap(mem)
				return nil, err
			}
			a.chunks = append(a.chunks, c)
			return c, nil
		}
		if !errors.Is(err, syscall.ENOMEM) || size/2 < need || size/2 < chunkMin {
			return nil, fmt.Errorf("%w: mmap %d bytes: %v", ErrNoMemory, size, err)
		}
		size /= 2
	}
}

func (a *arena) close() error {
	var first error
	for _, c := range a.chunks {
		if err := syscall.Munmap(c.mem); err != nil && first == nil {
			first = err
		}
	}
	a.chunks = nil
	a.partial = nil
	return first
}

// classOf returns the size-class index for an object of size bytes aligned
// to align, or -1 when it is not small.
func classOf(size, align uint64) int {
	if align > size {
		size = align
	}
	if size > maxSmall {
		return -1
	}
	if size < minClass {
		size = minClass
	}
	return bits.Len64(size-1) - bits.Len(minClass-1)
}

// Alloc allocates size bytes aligned to align (a power of two; 0 means 16)
// from the space's arenas, zeroed, and registers them as a region of the
// given kind and owner. Objects up to 2 KiB come from slabs (a signal costs
// 64 bytes, not a page); larger ones are page-granular runs followed by one
// page no region covers, so overruns fault. The region is exactly size
// bytes.
func (s *Space) Alloc(size, align uint64, kind Kind, owner any) (*Region, error) {
	if align == 0 {
		align = minClass
	}
	if size == 0 || size > 1<<47 || align&(align-1) != 0 || align > 1<<30 {
		return nil, fmt.Errorf("%w: alloc size %#x align %#x", ErrInvalid, size, align)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	r := &Region{Size: size, Kind: kind, Owner: owner, writable: kind.DeviceWritable()}
	if ci := classOf(size, align); ci >= 0 {
		sl, slot, err := s.smallSlot(ci)
		if err != nil {
			return nil, err
		}
		off := uint64(slot) * sl.class
		r.Base, r.ptr, r.slab, r.slot = sl.base+off, unsafe.Add(sl.ptr, off), sl, slot
		clear(unsafe.Slice((*byte)(r.ptr), sl.class))
		sl.objs[slot].Store(r) // publishes the region: no table copy
		return r, nil
	}
	n := (size+pageSize-1)&^(pageSize-1) + pageSize // + guard page
	if align < pageSize {
		align = pageSize
	}
	c, sp, err := s.arena.pages(n, align)
	if err != nil {
		return nil, err
	}
	r.Base, r.ptr, r.chunk, r.span = c.base+sp.off, unsafe.Add(c.ptr, sp.off), c, sp
	if err := s.insert(r); err != nil {
		c.release(sp)
		return nil, err
	}
	return r, nil
}

// smallSlot takes a free slot of class index ci, mapping a slab if needed.
func (s *Space) smallSlot(ci int) (*slab, uint32, error) {
	a := &s.arena
	if a.partial == nil {
		a.partial = make([][]*slab, numClasses)
	}
	list := a.partial[ci]
	if len(list) == 0 {
		c, sp, err := a.pages(slabSize, pageSize)
		if err != nil {
			return nil, 0, err
		}
		class := uint64(minClass) << ci
		sl := &slab{class: class, shift: uint(bits.TrailingZeros64(class)), base: c.base + sp.off,
			ptr: unsafe.Add(c.ptr, sp.off), chunk: c, span: sp}
		nslots := uint32(slabSize / class)
		sl.objs = make([]atomic.Pointer[Region], nslots)
		sl.free = make([]uint32, 0, nslots)
		for i := nslots; i > 0; i-- { // pop order: lowest address first
			sl.free = append(sl.free, i-1)
		}
		sl.container = &Region{Base: sl.base, Size: slabSize, Owner: "slab", ptr: sl.ptr, objs: sl}
		if err := s.insert(sl.container); err != nil {
			c.release(sp)
			return nil, 0, err
		}
		list = append(list, sl)
		a.partial[ci] = list
	}
	sl := list[len(list)-1]
	slot := sl.free[len(sl.free)-1]
	sl.free = sl.free[:len(sl.free)-1]
	if len(sl.free) == 0 {
		a.partial[ci] = list[:len(list)-1]
	}
	return sl, slot, nil
}

// freeSlot returns a slot to its slab; a slab that becomes entirely free
// goes back to its chunk unless it is the class's only partial slab.
func (s *Space) freeSlot(sl *slab, slot uint32) {
	a := &s.arena
	ci := classOf(sl.class, 0)
	if len(sl.free) == 0 {
		a.partial[ci] = append(a.partial[ci], sl)
	}
	sl.free = append(sl.free, slot)
	if uint64(len(sl.free)) == slabSize/sl.class && len(a.partial[ci]) > 1 {
		list := a.partial[ci]
		for i, x := range list {
			if x == sl {
				a.partial[ci] = append(list[:i], list[i+1:]...)
				break
			}
		}
		if _, i := s.regionAt(sl.base); i >= 0 {
			s.remove(i)
		}
		sl.chunk.release(sl.span)
	}
}

// Free releases the allocation whose region starts at base. The region
// leaves the table at once (caches see it as dead); its memory is reused by
// later allocations.
func (s *Space) Free(base uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	t := s.tab.Load()
	i := t.search(base)
	if i < 0 {
		return fmt.Errorf("%w: no allocation at %#x", ErrNotFound, base)
	}
	r := t.regs[i]
	if sl := r.objs; sl != nil {
		o := sl.object(base)
		if o == nil || o.Base != base {
			return fmt.Errorf("%w: no allocation at %#x", ErrNotFound, base)
		}
		sl.objs[o.slot].Store(nil)
		o.dead.Store(true)
		s.freeSlot(sl, o.slot)
		return nil
	}
	if r.Base != base {
		return fmt.Errorf("%w: no allocation at %#x", ErrNotFound, base)
	}
	if r.chunk == nil {
		return fmt.Errorf("%w: %v is registered memory; use Unregister", ErrInvalid, r)
	}
	s.remove(i)
	r.chunk.release(r.span)
	return nil
}
