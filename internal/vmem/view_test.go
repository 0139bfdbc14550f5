package vmem

import (
	"errors"
	"sync"
	"testing"

	"github.com/rocpu/rocpu/internal/abi"
)

func TestViewABIStructs(t *testing.T) {
	s := newSpace(t)
	// A signal as the runtime creates one: 64 bytes, 64-byte aligned.
	r, err := s.Alloc(abi.AMD_SIGNAL_ALIGN_BYTES, abi.AMD_SIGNAL_ALIGN_BYTES, KindSignal, "sig")
	if err != nil {
		t.Fatal(err)
	}
	sig, err := View[abi.AMDSignal](s, r.Base)
	if err != nil {
		t.Fatal(err)
	}
	sig.Kind = abi.AMD_SIGNAL_KIND_USER
	sig.Store(5)
	// Device code sees value at handle+8.
	if *r.U64(r.Base + 8) != 5 || *r.U64(r.Base) != 1 {
		t.Errorf("signal bytes: kind %d value %d", *r.U64(r.Base), *r.U64(r.Base + 8))
	}
	if ViewIn[abi.AMDSignal](r, r.Base) != sig {
		t.Error("ViewIn and View disagree")
	}
	// A 64-byte struct does not fit at Base+8 of a 64-byte region.
	if _, err := View[abi.AMDSignal](s, r.Base+8); !errors.Is(err, ErrFault) {
		t.Errorf("view past the end: %v", err)
	}
	// Misaligned views are refused.
	q, _ := s.Alloc(512, 64, KindQueue, "q")
	_, err = View[abi.AMDQueue](s, q.Base+4)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultMisaligned {
		t.Errorf("misaligned view: %v", err)
	}
	func() {
		defer func() {
			if v, ok := recover().(*Fault); !ok || v.Kind != FaultMisaligned {
				t.Errorf("ViewIn misaligned: recovered %v", v)
			}
		}()
		ViewIn[abi.AMDQueue](q, q.Base+4)
	}()
	aq, err := View[abi.AMDQueue](s, q.Base)
	if err != nil {
		t.Fatal(err)
	}
	aq.AddWriteIndex(3)
	if *q.U64(q.Base + 56) != 3 {
		t.Error("write_dispatch_id not at byte 56")
	}
}

func TestConcurrentAllocFree(t *testing.T) {
	s := newSpace(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []*Region
			for i := range 500 {
				size := uint64(16 << (i % 9)) // 16 B .. 4 KiB
				r, err := s.Alloc(size, 0, KindPool, w)
				if err != nil {
					t.Error(err)
					return
				}
				*r.U32(r.Base) = uint32(w<<16 | i)
				mine = append(mine, r)
				if i%3 == 0 {
					old := mine[0]
					mine = mine[1:]
					if err := s.Free(old.Base); err != nil {
						t.Error(err)
						return
					}
				}
			}
			for _, r := range mine {
				if r.Owner != w || *r.U32(r.Base)>>16 != uint32(w) {
					t.Errorf("allocation %v overwritten by another worker", r)
				}
				if s.Find(r.Base) != r {
					t.Errorf("allocation %v lost", r)
				}
			}
		}()
	}
	wg.Wait()
}
