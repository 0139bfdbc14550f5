package hsa

import (
	"math/bits"
	"sync"

	"github.com/rocpu/rocpu/codeobject"
)

// launchCache keeps what Queue.LaunchWith needs per launch — kernarg
// blocks from the CPU agent's kernarg pool and completion signals — for
// reuse by the queue's later launches. Allocating and freeing them per
// launch cost a region-table update each way, a madvise(2) when a kernarg
// chunk went back to the OS (a quarter of the CPU time of bitonic's 171
// small dispatches), and a dozen allocations.
type launchCache struct {
	mu       sync.Mutex
	kernargs [launchSizeClasses][]uint64 // free blocks by size class
	signals  []*Signal
	closed   bool
}

const (
	launchMinBlock    = 64 // smallest kernarg block (bytes); classes are powers of two from here
	launchSizeClasses = 16 // up to 64 << 15 = 2 MiB, beyond codeobject.MaxKernargSize
	// Completion signals kept, and kernarg blocks kept per class: up to
	// launchKeepBytes of a class's blocks, at least launchKeepMin and at
	// most launchKeepMax. Enqueue puts many packets in flight at once
	// (bitonic small: 78), and with 8 kept each launch past the eighth
	// allocated and freed its block and signal: 7.0 ms against 4.0 ms
	// for the same dispatches launched one at a time.
	launchKeepMin   = 8
	launchKeepMax   = 1024
	launchKeepBytes = 1 << 20
)

// launchKeep returns how many blocks of size class c are kept.
func launchKeep(c int) int {
	return max(launchKeepMin, min(launchKeepMax, launchKeepBytes/(launchMinBlock<<c)))
}

// sizeClass returns the class of an n-byte kernarg segment and the
// class's block size.
func sizeClass(n uint64) (int, uint64) {
	if n <= launchMinBlock {
		return 0, launchMinBlock
	}
	c := bits.Len64((n - 1) / launchMinBlock)
	return c, launchMinBlock << c
}

// kernarg returns a kernarg block of at least n bytes.
func (q *Queue) kernarg(n uint64) (uint64, error) {
	c, size := sizeClass(n)
	if c >= launchSizeClasses {
		return q.rt.CPUAgent().Pools()[0].Allocate(n, 0)
	}
	lc := &q.launch
	lc.mu.Lock()
	if l := lc.kernargs[c]; len(l) > 0 {
		a := l[len(l)-1]
		lc.kernargs[c] = l[:len(l)-1]
		lc.mu.Unlock()
		return a, nil
	}
	lc.mu.Unlock()
	return q.rt.CPUAgent().Pools()[0].Allocate(size, 0)
}

// putKernarg returns a block of n requested bytes that no packet uses any
// more.
func (q *Queue) putKernarg(addr, n uint64) {
	c, _ := sizeClass(n)
	lc := &q.launch
	lc.mu.Lock()
	if c < launchSizeClasses && !lc.closed && len(lc.kernargs[c]) < launchKeep(c) {
		lc.kernargs[c] = append(lc.kernargs[c], addr)
		lc.mu.Unlock()
		return
	}
	lc.mu.Unlock()
	q.rt.Free(addr)
}

// completionSignal returns a live signal with value 1 and no watchers.
func (q *Queue) completionSignal() (*Signal, error) {
	lc := &q.launch
	lc.mu.Lock()
	for len(lc.signals) > 0 {
		s := lc.signals[len(lc.signals)-1]
		lc.signals = lc.signals[:len(lc.signals)-1]
		if s.Live() {
			lc.mu.Unlock()
			s.SilentStore(1)
			return s, nil
		}
	}
	lc.mu.Unlock()
	return q.rt.CreateSignal(1, nil, 0)
}

// putSignal returns a completion signal whose packet completed or can no
// longer run.
func (q *Queue) putSignal(s *Signal) {
	lc := &q.launch
	lc.mu.Lock()
	if !lc.closed && len(lc.signals) < launchKeepMax && s.Live() {
		lc.signals = append(lc.signals, s)
		lc.mu.Unlock()
		return
	}
	lc.mu.Unlock()
	s.Destroy()
}

// drain frees everything cached; later puts free at once (Queue.Destroy).
func (lc *launchCache) drain(r *Runtime) {
	lc.mu.Lock()
	lc.closed = true
	ks, ss := lc.kernargs, lc.signals
	lc.kernargs, lc.signals = [launchSizeClasses][]uint64{}, nil
	lc.mu.Unlock()
	for _, l := range ks {
		for _, a := range l {
			r.Free(a)
		}
	}
	for _, s := range ss {
		s.Destroy()
	}
}

// kernargLayout returns the kernel's kernarg layout, computed once per
// kernel metadata (layouts are read-only once built).
func (r *Runtime) kernargLayout(m *codeobject.Kernel) (*codeobject.KernargLayout, error) {
	if l, ok := r.layouts.Load(m); ok {
		return l.(*codeobject.KernargLayout), nil
	}
	l, err := m.KernargLayout()
	if err != nil {
		return nil, err
	}
	r.layouts.Store(m, l)
	return l, nil
}
