package vmem

import "testing"

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

// BenchmarkLookup is the table's hot path: a binary search over 1000
// regions. It must not allocate.
func BenchmarkLookup(b *testing.B) {
	s, regs := benchSpace(b, 1000)
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
