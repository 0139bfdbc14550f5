package vmem

import (
	"fmt"
	"sync/atomic"
	"unsafe"
)

// Kind is what a region holds. It decides whether the device may store to
// it and is shown in fault reports.
type Kind uint8

// Region kinds.
const (
	KindPool    Kind = iota + 1 // a memory-pool allocation (device global memory)
	KindHost                    // host memory registered or locked by the application
	KindCode                    // code object text/rodata: the device may not store to it
	KindData                    // a code object's writable segment (global variables)
	KindKernarg                 // kernel argument buffers
	KindQueue                   // AQL rings and amd_queue_t
	KindSignal                  // amd_signal_t objects and event mailboxes
	KindScratch                 // per-dispatch scratch backing
)

var kindNames = [...]string{"", "pool", "host", "code", "data", "kernarg", "queue", "signal", "scratch"}

// String returns the lower-case kind name.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// DeviceWritable reports whether device stores and atomics may target a
// region of kind k.
func (k Kind) DeviceWritable() bool { return k != KindCode }

// Region is one registered range [Base, Base+Size) of the address space.
// Regions are immutable once registered except for their liveness, so a
// *Region may be cached and read without locks; callers must not modify
// the exported fields. Base is the device address and, except for
// regions added with Space.RegisterAt, also the host address.
type Region struct {
	Base  uint64
	Size  uint64
	Kind  Kind
	Owner any // who registered it (a pool, an executable, a queue…); for reports

	ptr      unsafe.Pointer // the host address of Base
	writable bool
	dead     atomic.Bool // set when removed; caches check it

	// Allocation bookkeeping; zero for registered (not allocated) memory.
	slab  *slab  // small object: its slab and slot
	slot  uint32 //
	chunk *chunk // large run: the chunk and its page span
	span  pageSpan

	// objs is set on the table entry that stands for a whole slab; its
	// objects are found by index, so allocating a signal does not copy
	// the table. Such entries never leave this package.
	objs *slab
}

// End returns Base+Size, one past the last byte.
func (r *Region) End() uint64 { return r.Base + r.Size }

// Live reports whether the region is still registered.
func (r *Region) Live() bool { return !r.dead.Load() }

// Contains reports whether [addr, addr+size) lies inside r (size 0 asks
// about addr alone).
func (r *Region) Contains(addr, size uint64) bool {
	off := addr - r.Base
	return off < r.Size && size <= r.Size-off
}

// String describes the region, e.g. "code region [0x1000, 0x2000) owner exe1".
func (r *Region) String() string {
	s := fmt.Sprintf("%s region [%#x, %#x)", r.Kind, r.Base, r.End())
	if r.Owner != nil {
		s += fmt.Sprintf(" owner %v", r.Owner)
	}
	return s
}

// The accessors below are the only place device addresses become Go
// pointers. They check that the bytes lie inside r and panic with a *Fault
// (FaultUnmapped) when they do not: the emulator checks each instruction's
// address range once (Cache.Range), so the check here is a guard against its
// bugs, recovered like any fault. They do not check kind or alignment:
// unaligned plain loads and stores are legal on GFX9 and on the host; atomics
// go through Cache/LookupFor with AccessAtomic first.

func (r *Region) at(addr, size uint64) unsafe.Pointer {
	off := addr - r.Base
	if off >= r.Size || size > r.Size-off {
		panic(&Fault{Kind: FaultUnmapped, Access: AccessRead, Addr: addr, Size: size})
	}
	return unsafe.Add(r.ptr, off)
}

// Pointer returns the host pointer for addr, which must hold size bytes in r.
func (r *Region) Pointer(addr, size uint64) unsafe.Pointer { return r.at(addr, size) }

// Bytes returns the n bytes at addr as a slice aliasing the region.
func (r *Region) Bytes(addr, n uint64) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(r.at(addr, n)), n)
}

// Data returns the whole region as a slice aliasing it (host-side access:
// writing code into a code region, filling kernarg buffers).
func (r *Region) Data() []byte { return unsafe.Slice((*byte)(r.ptr), r.Size) }

// U8 returns a pointer to the byte at addr.
func (r *Region) U8(addr uint64) *uint8 { return (*uint8)(r.at(addr, 1)) }

// U16 returns a pointer to the 16-bit word at addr (any alignment).
func (r *Region) U16(addr uint64) *uint16 { return (*uint16)(r.at(addr, 2)) }

// U32 returns a pointer to the 32-bit word at addr (any alignment; atomics
// need 4-byte alignment).
func (r *Region) U32(addr uint64) *uint32 { return (*uint32)(r.at(addr, 4)) }

// U64 returns a pointer to the 64-bit word at addr (any alignment; atomics
// need 8-byte alignment).
func (r *Region) U64(addr uint64) *uint64 { return (*uint64)(r.at(addr, 8)) }
