package vmem

import (
	"testing"
)

func TestCacheRange(t *testing.T) {
	s := newSpace(t)
	a, _ := s.Alloc(4096, 0, KindPool, "a")
	b, _ := s.Alloc(4096, 0, KindPool, "b")
	code, _ := s.Alloc(4096, 0, KindCode, "code")
	var c Cache
	// Lanes 0..63 loading dwords from a: [Base, Base+256).
	if r := c.Range(s, a.Base, a.Base+256, AccessRead); r != a {
		t.Fatalf("Range in a = %v", r)
	}
	if c.r != a {
		t.Fatal("cache not filled")
	}
	// Fast path up to the last byte; one past it is not in a.
	if r := c.Range(s, a.End()-4, a.End(), AccessWrite); r != a {
		t.Error("last dword of a")
	}
	if r := c.Range(s, a.End()-4, a.End()+1, AccessWrite); r != nil {
		t.Error("range past the end of a accepted")
	}
	// Switching to b refills the cache.
	if r := c.Range(s, b.Base, b.Base+4, AccessRead); r != b || c.r != b {
		t.Error("switch to b")
	}
	// Lanes spread over a and b: no single region, check per lane.
	if r := c.Range(s, a.Base, b.Base+4, AccessRead); r != nil {
		t.Error("range over two allocations accepted")
	}
	if r, err := c.Lookup(s, a.Base+8, 4, AccessRead); r != a || err != nil {
		t.Errorf("lane in a: %v", err)
	}
	if r, err := c.Lookup(s, b.Base+8, 4, AccessWrite); r != b || err != nil {
		t.Errorf("lane in b: %v", err)
	}
	_, err := c.Lookup(s, a.End()+8, 4, AccessRead)
	wantFault(t, err, FaultUnmapped, AccessRead, a.End()+8, 4)
	// Code: loads pass, stores do not (neither fast nor slow path).
	if r := c.Range(s, code.Base, code.Base+64, AccessRead); r != code {
		t.Error("load from code")
	}
	if r := c.Range(s, code.Base, code.Base+64, AccessWrite); r != nil {
		t.Error("store to code accepted by Range (cached)")
	}
	c.Reset()
	if r := c.Range(s, code.Base, code.Base+64, AccessAtomic); r != nil {
		t.Error("atomic to code accepted by Range (uncached)")
	}
	_, err = c.Lookup(s, code.Base+4, 4, AccessWrite)
	wantFault(t, err, FaultReadOnly, AccessWrite, code.Base+4, 4)
	_, err = c.Lookup(s, a.Base+4, 8, AccessAtomic)
	wantFault(t, err, FaultMisaligned, AccessAtomic, a.Base+4, 8)
	// Empty and inverted ranges.
	if r := c.Range(s, a.Base+8, a.Base+4, AccessRead); r != nil {
		t.Error("inverted range accepted")
	}
	// A freed region is not served from the cache.
	c.Range(s, a.Base, a.Base+4, AccessRead)
	if err := s.Free(a.Base); err != nil {
		t.Fatal(err)
	}
	if r := c.Range(s, a.Base, a.Base+4, AccessRead); r != nil {
		t.Error("freed region served from the cache")
	}
	_, err = c.Lookup(s, a.Base, 4, AccessRead)
	wantFault(t, err, FaultUnmapped, AccessRead, a.Base, 4)
}
