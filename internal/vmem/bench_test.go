package vmem

import (
	"strconv"
	"testing"
)

func benchSpace(b *testing.B, n int) (*Space, []*Region) {
	s := newSpace(b)
	regs := make([]*Region, n)
	for i := range regs {
		r, err := s.Alloc(4096, 0, KindPool, nil)
		if err != nil {
			b.Fatal(err)
		}
		regs[i] = r
	}
	return s, regs
}

// BenchmarkLookup is the table's hot path: a binary search over 32 and
// over 1000 regions, hitting them in a scattered order. It must not
// allocate.
func BenchmarkLookup(b *testing.B) {
	for _, n := range []int{32, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchLookup(b, n) })
	}
}

func benchLookup(b *testing.B, n int) {
	s, regs := benchSpace(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	var sink *Region
	for i := 0; i < b.N; i++ {
		r := regs[i*7919%len(regs)]
		got, err := s.Lookup(r.Base+64, 4)
		if err != nil {
			b.Fatal(err)
		}
		sink = got
	}
	_ = sink
}

// BenchmarkCacheRange is one memory instruction's check on the wave cache's
// fast path.
func BenchmarkCacheRange(b *testing.B) {
	s, regs := benchSpace(b, 1000)
	r := regs[500]
	var c Cache
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lo := r.Base + uint64(i&63)*4
		if c.Range(s, lo, lo+256, AccessWrite) == nil {
			b.Fatal("miss")
		}
	}
}
