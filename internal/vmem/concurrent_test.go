package vmem

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentLookupsWhileRegistering runs lock-free lookups and wave
// caches against a space whose table changes underneath them; run it with
// -race. Stable regions must always be found; churned ones must be found
// whole or not at all.
func TestConcurrentLookupsWhileRegistering(t *testing.T) {
	s := newSpace(t)
	var stable []*Region
	for i := range 16 {
		r, err := s.Alloc(uint64(256+i*512), 0, KindPool, i)
		if err != nil {
			t.Fatal(err)
		}
		stable = append(stable, r)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var c Cache
			for i := 0; !stop.Load(); i++ {
				r := stable[(i+w)%len(stable)]
				addr := r.Base + uint64(i)%r.Size
				got, err := s.Lookup(addr, 1)
				if err != nil || got != r {
					errs <- "stable region lost"
					return
				}
				if c.Range(s, r.Base, r.End(), AccessWrite) != r {
					errs <- "cache lost a stable region"
					return
				}
				atomic.AddUint32(r.U32(r.Base), 1) // real shared memory traffic
			}
		}()
	}
	// The mutator: allocate and free signals and buffers, register and
	// unregister, while the readers run.
	for i := range 2000 {
		a, err := s.Alloc(64, 64, KindSignal, i)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Alloc(uint64(4096+i%3*4096), 0, KindKernarg, i)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Find(a.Base); got != a {
			t.Fatal("fresh signal not found")
		}
		if err := s.Free(a.Base); err != nil {
			t.Fatal(err)
		}
		if err := s.Free(b.Base); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := len(s.Regions()); n != len(stable) {
		t.Errorf("%d regions at the end, want %d", n, len(stable))
	}
}
