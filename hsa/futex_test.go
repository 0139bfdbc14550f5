package hsa

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocpu/rocpu/internal/abi"
)

// TestSignalSleepers pins the sleeper protocol the C ABI's waits and the
// packet processor use (Signal.sleep, amd_signal_t.reserved3): a sleeper
// counts itself while it sleeps, a store wakes it long before its
// timeout, a store nobody sleeps on leaves the wake sequence alone, and
// destroying the signal marks it INVALID and wakes its sleepers.
func TestSignalSleepers(t *testing.T) {
	if !haveFutex {
		t.Skip("no futex on this OS: sleepers are not used")
	}
	r, _ := newRT(t)
	s, err := r.CreateSignal(1, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seq := atomic.LoadUint32(s.wakeSeq())
	s.Store(2)
	if atomic.LoadUint32(s.wakeSeq()) != seq || s.Sleepers() != 0 {
		t.Errorf("a store with no sleepers bumped the wake sequence or the count (%d sleepers)", s.Sleepers())
	}
	for _, store := range []func(){func() { s.Store(0) }, func() { s.Subtract(1) }, func() { r.WakeAll() }} {
		s.Store(1)
		woke := make(chan bool, 1)
		go func() {
			woke <- s.sleep(func() bool { return s.Load() <= 0 }, 30*time.Second)
		}()
		for i := 0; s.Sleepers() == 0 && i < 5000; i++ {
			time.Sleep(100 * time.Microsecond)
		}
		if s.Sleepers() != 1 {
			t.Fatalf("%d sleepers counted, want 1", s.Sleepers())
		}
		start := time.Now()
		store()
		select {
		case ok := <-woke:
			if !ok {
				t.Error("sleep reported a timeout")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a sleeper was not woken")
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("woken after %v", d)
		}
		if s.Sleepers() != 0 {
			t.Errorf("%d sleepers after waking", s.Sleepers())
		}
	}
	// Destroy wakes a sleeper and marks the signal INVALID for C.
	s.Store(1)
	woke := make(chan bool, 1)
	go func() { woke <- s.sleep(func() bool { return !s.Live() }, 30*time.Second) }()
	for i := 0; s.Sleepers() == 0 && i < 5000; i++ {
		time.Sleep(100 * time.Microsecond)
	}
	if err := s.Destroy(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-woke:
	case <-time.After(10 * time.Second):
		t.Fatal("Destroy did not wake the sleeper")
	}
	// What Destroy does before freeing: the kind C's waits check.
	s2, _ := r.CreateSignal(1, nil, 0)
	s2.markDead()
	if k := s2.ABI().Kind; k != abi.AMD_SIGNAL_KIND_INVALID {
		t.Errorf("a destroyed signal's kind is %v, want AMD_SIGNAL_KIND_INVALID", k)
	}
	if err := s2.Destroy(); err != nil {
		t.Fatal(err)
	}
}
