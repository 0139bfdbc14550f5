package vmem

import "unsafe"

// ViewIn returns the T stored at device address addr inside r, as a pointer
// aliasing the region. T must be a fixed-layout type holding no Go pointers
// (the internal/abi mirrors, integers, arrays of them): the memory is not
// scanned by the garbage collector. Like the other Region accessors it
// panics with a *Fault when the bytes are not inside r, and with a
// FaultMisaligned *Fault when addr is not a multiple of T's alignment
// (atomic field access would otherwise be unsound).
func ViewIn[T any](r *Region, addr uint64) *T {
	var z T
	p := r.at(addr, uint64(unsafe.Sizeof(z)))
	if align := uint64(unsafe.Alignof(z)); addr&(align-1) != 0 {
		panic(&Fault{Kind: FaultMisaligned, Access: AccessRead, Addr: addr, Size: uint64(unsafe.Sizeof(z)), Region: r})
	}
	return (*T)(p)
}

// View looks up the T at device address addr in s — for example
// View[abi.AMDSignal](s, handle) or View[abi.KernelDispatchPacket](s, slot)
// — and returns it as a pointer aliasing the memory, or a *Fault when the
// bytes are not inside one region or addr is misaligned for T. T must hold
// no Go pointers (see ViewIn).
func View[T any](s *Space, addr uint64) (*T, error) {
	var z T
	size := uint64(unsafe.Sizeof(z))
	r, err := s.Lookup(addr, size)
	if err != nil {
		return nil, err
	}
	if align := uint64(unsafe.Alignof(z)); addr&(align-1) != 0 {
		return nil, &Fault{Kind: FaultMisaligned, Access: AccessRead, Addr: addr, Size: size, Region: r}
	}
	return (*T)(unsafe.Add(r.ptr, addr-r.Base)), nil
}
