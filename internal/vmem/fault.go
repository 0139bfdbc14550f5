package vmem

import (
	"errors"
	"fmt"
)

// Access is the kind of device memory access being checked.
type Access uint8

// Accesses. An atomic is a read-modify-write: it needs a writable region and
// natural alignment.
const (
	AccessRead Access = iota
	AccessWrite
	AccessAtomic
)

// String returns "read", "write" or "atomic".
func (a Access) String() string {
	switch a {
	case AccessRead:
		return "read"
	case AccessWrite:
		return "write"
	case AccessAtomic:
		return "atomic"
	}
	return fmt.Sprintf("Access(%d)", uint8(a))
}

// FaultKind says why a device access faulted.
type FaultKind uint8

// Fault kinds.
const (
	// FaultUnmapped: the bytes are not inside one registered region
	// (outside every region, across a region's end, or in a freed region).
	FaultUnmapped FaultKind = iota + 1
	// FaultReadOnly: a store or atomic to a region the device may only
	// read (code).
	FaultReadOnly
	// FaultMisaligned: an atomic whose address is not a multiple of its size.
	FaultMisaligned
)

// String returns a short name of k.
func (k FaultKind) String() string {
	switch k {
	case FaultUnmapped:
		return "unmapped"
	case FaultReadOnly:
		return "read-only"
	case FaultMisaligned:
		return "misaligned"
	}
	return fmt.Sprintf("FaultKind(%d)", uint8(k))
}

// Fault is a device memory access that real hardware would turn into a page
// fault (or, for misaligned atomics, a memory violation). The emulator wraps
// it into its own fault with kernel, PC, wave and lane.
type Fault struct {
	Kind   FaultKind
	Access Access
	Addr   uint64  // first byte of the faulting access
	Size   uint64  // bytes accessed
	Region *Region // the region involved for FaultReadOnly/FaultMisaligned; nil when unmapped
}

// Error describes the fault, e.g.
// "vmem: write of 4 bytes at 0x7f0000001000: read-only code region [0x7f0000001000, 0x7f0000002000)".
func (f *Fault) Error() string {
	s := fmt.Sprintf("vmem: %s of %d bytes at %#x: ", f.Access, f.Size, f.Addr)
	switch f.Kind {
	case FaultUnmapped:
		return s + "not in any region"
	case FaultReadOnly:
		return s + "read-only " + f.Region.String()
	case FaultMisaligned:
		return s + "misaligned atomic"
	}
	return s + f.Kind.String()
}

// Is makes errors.Is(err, ErrFault) true for every *Fault.
func (f *Fault) Is(target error) bool { return target == ErrFault }

// Errors returned by registration and allocation.
var (
	// ErrFault matches every *Fault with errors.Is.
	ErrFault = errors.New("vmem: memory fault")
	// ErrOverlap: a region to register overlaps a registered region, an
	// arena, or an aperture.
	ErrOverlap = errors.New("vmem: region overlaps")
	// ErrNotFound: no region (or allocation) starts at the given address.
	ErrNotFound = errors.New("vmem: no such region")
	// ErrInvalid: a zero size, a size that wraps the address space, or an
	// alignment that is not a power of two.
	ErrInvalid = errors.New("vmem: invalid argument")
	// ErrNoMemory: the arenas could not be grown.
	ErrNoMemory = errors.New("vmem: out of memory")
	// ErrClosed: the space has been closed.
	ErrClosed = errors.New("vmem: space closed")
)
