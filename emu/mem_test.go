package emu

import (
	"sort"
	"sync"
	"syscall"
	"testing"
	"unsafe"
)

// testMem is a minimal device address space for the engine's tests:
// mmap'd regions at their host addresses (what internal/vmem provides to
// the runtime).
type testMem struct {
	mu      sync.RWMutex
	regions []Region
}

func (m *testMem) Lookup(addr uint64) (Region, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	i := sort.Search(len(m.regions), func(i int) bool { return m.regions[i].Base+uint64(len(m.regions[i].Data)) > addr })
	if i < len(m.regions) && m.regions[i].Base <= addr {
		return m.regions[i], true
	}
	return Region{}, false
}

// alloc maps size bytes (rounded to a page) and registers them.
func (m *testMem) alloc(t testing.TB, size int, readOnly bool) Region {
	t.Helper()
	n := (size + 4095) &^ 4095
	if n == 0 {
		n = 4096
	}
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.mu.Lock()
		for i, r := range m.regions {
			if &r.Data[0] == &b[0] {
				m.regions = append(m.regions[:i], m.regions[i+1:]...)
				break
			}
		}
		m.mu.Unlock()
		syscall.Munmap(b)
	})
	r := Region{Base: uint64(uintptr(unsafe.Pointer(&b[0]))), Data: b[:size:size], ReadOnly: readOnly}
	if size == 0 {
		r.Data = b[:0]
	}
	m.mu.Lock()
	m.regions = append(m.regions, r)
	sort.Slice(m.regions, func(i, j int) bool { return m.regions[i].Base < m.regions[j].Base })
	m.mu.Unlock()
	return r
}
