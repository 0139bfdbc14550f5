package emu

import (
	"fmt"
	"syscall"
	"unsafe"
)

// Region is one registered range of the device address space: Data holds
// its bytes (len(Data) is its size) at device address Base, which is also
// their host address.
type Region struct {
	Base     uint64
	Data     []byte
	ReadOnly bool // stores fault (code, read-only segments)
}

// Memory is the device address space as the engine needs it; internal/vmem
// provides it. Lookup returns the region containing addr.
type Memory interface {
	Lookup(addr uint64) (Region, bool)
}

// Aperture bases as ROCr places them on GFX9 (DESIGN.md "Memory"): flat
// addresses whose bits 63:32 equal the aperture's high half reach LDS or
// scratch.
const (
	SharedApertureBase  uint64 = 0x0001_0000_0000_0000
	PrivateApertureBase uint64 = 0x0002_0000_0000_0000
	SharedApertureHi    uint32 = uint32(SharedApertureBase >> 32)
	PrivateApertureHi   uint32 = uint32(PrivateApertureBase >> 32)
	apertureLimitLow    uint64 = 0xFFFF_FFFF // limit = base | 0xFFFFFFFF
)

// scratchArena is host memory backing a dispatch's private segments. It is
// mmap'd (never the Go heap) so its address is stable and may be handed to C.
type scratchArena struct {
	data []byte
	base uint64
}

func newScratchArena(size int) (*scratchArena, error) {
	if size <= 0 {
		size = 4096
	}
	size = (size + 0xFFFF) &^ 0xFFFF
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("emu: scratch backing of %d bytes: %w", size, err)
	}
	return &scratchArena{data: b, base: uint64(uintptr(unsafe.Pointer(&b[0])))}, nil
}

func (a *scratchArena) free() { _ = syscall.Munmap(a.data) }

// getScratch returns an arena of at least size bytes, reusing a free one.
func (d *Device) getScratch(size int) (*scratchArena, error) {
	d.mu.Lock()
	for i, a := range d.scratch {
		if len(a.data) >= size {
			d.scratch = append(d.scratch[:i], d.scratch[i+1:]...)
			d.mu.Unlock()
			return a, nil
		}
	}
	d.mu.Unlock()
	return newScratchArena(size)
}

func (d *Device) putScratch(a *scratchArena) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.scratch) >= 2 {
		d.scratch[0].free()
		d.scratch = d.scratch[1:]
	}
	d.scratch = append(d.scratch, a)
}
