package vmem

import (
	"errors"
	"testing"
)

func TestAllocAlignmentAndZeroing(t *testing.T) {
	s := newSpace(t)
	for _, c := range []struct{ size, align uint64 }{
		{1, 0}, {8, 8}, {16, 16}, {17, 0}, {64, 64}, {100, 4}, {64, 256},
		{2048, 0}, {2049, 0}, {4096, 4096}, {5000, 0}, {10000, 65536},
		{1 << 20, 2 << 20}, {3 << 20, 0}, {24, 1024}, {8, 4096},
	} {
		r, err := s.Alloc(c.size, c.align, KindPool, c)
		if err != nil {
			t.Fatalf("Alloc(%d, %d): %v", c.size, c.align, err)
		}
		align := max(c.align, minClass)
		if r.Base%align != 0 {
			t.Errorf("Alloc(%d, %d) = %#x, misaligned", c.size, c.align, r.Base)
		}
		if r.Size != c.size || r.Kind != KindPool || r.Owner != c {
			t.Errorf("Alloc(%d, %d): region %v", c.size, c.align, r)
		}
		b := r.Bytes(r.Base, r.Size)
		for i, v := range b {
			if v != 0 {
				t.Fatalf("Alloc(%d): byte %d = %#x, not zeroed", c.size, i, v)
			}
		}
		for i := range b {
			b[i] = 0xa5 // dirty it so reuse must re-zero
		}
		if got, err := s.Lookup(r.Base, r.Size); got != r || err != nil {
			t.Errorf("Lookup of the whole allocation: %v", err)
		}
		if _, err := s.Lookup(r.Base, r.Size+1); err == nil {
			t.Errorf("Alloc(%d): byte past the end is mapped for the device", c.size)
		}
	}
	for _, c := range []struct{ size, align uint64 }{{0, 0}, {8, 3}, {8, 48}, {1 << 50, 0}} {
		if _, err := s.Alloc(c.size, c.align, KindPool, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("Alloc(%d, %d) = %v, want ErrInvalid", c.size, c.align, err)
		}
	}
}

func TestAllocReuse(t *testing.T) {
	s := newSpace(t)
	// Small objects: a freed slot is the next one handed out, zeroed.
	a, _ := s.Alloc(64, 64, KindSignal, nil)
	b, _ := s.Alloc(64, 64, KindSignal, nil)
	if b.Base != a.Base+64 {
		t.Errorf("second signal at %#x, first at %#x: not packed", b.Base, a.Base)
	}
	*a.U64(a.Base) = 42
	if err := s.Free(a.Base); err != nil {
		t.Fatal(err)
	}
	if a.Live() {
		t.Error("freed region still live")
	}
	if err := s.Free(a.Base); !errors.Is(err, ErrNotFound) {
		t.Errorf("double free: %v", err)
	}
	c, _ := s.Alloc(50, 0, KindSignal, nil)
	if c.Base != a.Base || *c.U64(c.Base) != 0 {
		t.Errorf("reuse: got %#x (value %d), want %#x zeroed", c.Base, *c.U64(c.Base), a.Base)
	}
	// Large runs: freeing and allocating the same size reuses the pages.
	big, _ := s.Alloc(1<<20, 0, KindPool, nil)
	*big.U32(big.Base + 4096) = 7
	base := big.Base
	if err := s.Free(base); err != nil {
		t.Fatal(err)
	}
	big2, _ := s.Alloc(1<<20, 0, KindPool, nil)
	if big2.Base != base || *big2.U32(base + 4096) != 0 {
		t.Errorf("large reuse: %#x vs %#x, value %d", big2.Base, base, *big2.U32(base + 4096))
	}
	// Neighbouring large allocations are separated by an unregistered page.
	x, _ := s.Alloc(8192, 0, KindPool, nil)
	y, _ := s.Alloc(8192, 0, KindPool, nil)
	if y.Base < x.End()+pageSize && x.Base < y.End()+pageSize {
		t.Errorf("no guard between [%#x,%#x) and [%#x,%#x)", x.Base, x.End(), y.Base, y.End())
	}
}

func TestManySmallAllocations(t *testing.T) {
	s := newSpace(t)
	const n = 5000
	regs := make([]*Region, n)
	seen := map[uint64]bool{}
	for i := range regs {
		r, err := s.Alloc(64, 64, KindSignal, i)
		if err != nil {
			t.Fatal(err)
		}
		if seen[r.Base] {
			t.Fatalf("address %#x handed out twice", r.Base)
		}
		seen[r.Base] = true
		regs[i] = r
	}
	// 5000 signals fit in 5 slabs of 64 KiB, not 5000 pages.
	slabs := map[*slab]bool{}
	for _, r := range regs {
		slabs[r.slab] = true
	}
	if len(slabs) != (n*64+slabSize-1)/slabSize {
		t.Errorf("%d slabs for %d signals", len(slabs), n)
	}
	for i, r := range regs {
		if got := s.Find(r.Base + 8); got != r || got.Owner != i {
			t.Fatalf("Find(signal %d) = %v", i, got)
		}
	}
	for i, r := range regs {
		if i%2 == 0 {
			if err := s.Free(r.Base); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(s.Regions()) != n/2 {
		t.Errorf("%d regions after freeing half", len(s.Regions()))
	}
	for _, r := range regs {
		if err := s.Free(r.Base); err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
	}
	if len(s.Regions()) != 0 {
		t.Errorf("%d regions left", len(s.Regions()))
	}
	// Empty slabs beyond one per class went back to their chunk.
	if got := len(s.arena.partial[classOf(64, 64)]); got != 1 {
		t.Errorf("%d partial slabs kept", got)
	}
}

func TestClose(t *testing.T) {
	s := New()
	r, err := s.Alloc(100, 0, KindPool, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if r.Live() || s.Find(r.Base) != nil {
		t.Error("region survives Close")
	}
	if _, err := s.Alloc(8, 0, KindPool, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Alloc after Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestHugeAllocation takes the path where one allocation is larger than the
// default arena chunk: MAP_NORESERVE makes it cost address space, not
// memory, until touched.
func TestHugeAllocation(t *testing.T) {
	s := newSpace(t)
	const size = 3 << 30
	r, err := s.Alloc(size, 2<<20, KindPool, "huge")
	if err != nil {
		t.Skipf("no 3 GiB of address space: %v", err)
	}
	if r.Base%(2<<20) != 0 || r.Size != size {
		t.Fatalf("region %v", r)
	}
	*r.U64(r.Base) = 1
	*r.U64(r.End() - 8) = 2
	if got, err := s.Lookup(r.End()-8, 8); got != r || err != nil {
		t.Error("last word not in the region")
	}
	if _, err := s.Lookup(r.End(), 1); err == nil {
		t.Error("byte after a huge allocation is mapped for the device")
	}
	if err := s.Free(r.Base); err != nil {
		t.Fatal(err)
	}
	// Small allocations still work after the big chunk exists.
	if _, err := s.Alloc(64, 64, KindSignal, nil); err != nil {
		t.Fatal(err)
	}
}
