package emu

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// poolKernel is a device and a kernel whose 64 one-wave workgroups each
// count themselves in n.
func poolKernel(t *testing.T, workers int) (*Device, uint64, *atomic.Int64) {
	cfg := DefaultGFX90A(nil)
	cfg.Workers = workers
	var n atomic.Int64
	rec := &op{class: ClassOther, fn: func(w *wave, o *op) { n.Add(1) }}
	d, entry, _ := handKernel(t, cfg, rec, endpgm())
	return d, entry, &n
}

// waitPoolEmpty shortens poolIdle and waits until every pool thread has
// left the pool.
func waitPoolEmpty(t *testing.T) {
	t.Helper()
	old := poolIdle.Load()
	poolIdle.Store(int64(10 * time.Millisecond))
	t.Cleanup(func() { poolIdle.Store(old) })
	// Threads already asleep use the old poolIdle: wake them so that they
	// sleep again with the new one.
	workerPool.mu.Lock()
	for _, th := range workerPool.idle {
		select {
		case th.wake <- struct{}{}:
		default:
		}
	}
	workerPool.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for workerPool.live.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d pool threads still live", workerPool.live.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestWorkerPool: a dispatch with several workers starts pool threads; one
// right after it finds them spinning, runs on them without starting
// others, and runs worker 0 on the caller; idle threads leave the pool
// after poolIdle. Every dispatch runs each workgroup once.
func TestWorkerPool(t *testing.T) {
	waitPoolEmpty(t)
	d, entry, n := poolKernel(t, 3)
	dispatch := func() {
		t.Helper()
		n.Store(0)
		k := &Dispatch{Entry: entry, GridSize: [3]uint32{64 * 64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
		if err := d.Dispatch(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		if n.Load() != 64 || k.Stats.Workgroups != 64 {
			t.Fatalf("%d waves ran, %d workgroups counted; want 64", n.Load(), k.Stats.Workgroups)
		}
	}
	started := workerPool.started.Load()
	dispatch()
	// From an empty pool all three workers run on new threads.
	if s := workerPool.started.Load() - started; s != 3 {
		t.Errorf("first dispatch started %d pool threads, want 3", s)
	}
	// Back to back, the next dispatch finds two threads spinning (a
	// machine busy enough to delay it past poolSpin gets more tries).
	hot := false
	for i := 0; i < 50 && !hot; i++ {
		h, s := workerPool.hot.Load(), workerPool.started.Load()
		dispatch()
		hot = workerPool.hot.Load() == h+1
		if hot && workerPool.started.Load() != s {
			t.Errorf("a dispatch on spinning threads started %d more", workerPool.started.Load()-s)
		}
	}
	if !hot {
		t.Error("50 back-to-back dispatches never found the pool threads spinning")
	}
	if l := workerPool.live.Load(); l != 3 {
		t.Errorf("%d pool threads live, want 3", l)
	}
	waitPoolEmpty(t)
	workerPool.mu.Lock()
	idle := len(workerPool.idle)
	workerPool.mu.Unlock()
	if idle != 0 {
		t.Errorf("%d threads still listed idle after leaving", idle)
	}
	dispatch() // an emptied pool starts threads again
}

// TestWorkerPoolConcurrent: dispatches from several goroutines at once on
// one device share the pool without losing or repeating a workgroup.
func TestWorkerPoolConcurrent(t *testing.T) {
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 3
	var mu sync.Mutex
	count := map[uint64]int{} // dispatch id (kernarg address) -> waves seen
	rec := &op{class: ClassOther, fn: func(w *wave, o *op) {
		mu.Lock()
		count[w.r.k.KernargAddr]++
		mu.Unlock()
	}}
	d, entry, _ := handKernel(t, cfg, rec, endpgm())
	var wg sync.WaitGroup
	errs := make(chan error, 4*25)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				k := &Dispatch{Entry: entry, GridSize: [3]uint32{64 * 32, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1},
					KernargAddr: uint64(g*1000 + i + 1)}
				if err := d.Dispatch(context.Background(), k); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(count) != 100 {
		t.Fatalf("%d dispatches seen, want 100", len(count))
	}
	for id, c := range count {
		if c != 32 {
			t.Errorf("dispatch %d ran %d workgroups, want 32", id, c)
		}
	}
}
