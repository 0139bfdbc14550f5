package emu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Worker threads that outlive a dispatch.
//
// A dispatch with several workers used to start a goroutine per worker.
// Go runs a new goroutine on an idle P by waking an idle thread, which on
// this VM takes tens of microseconds, and the thread went back to sleep
// when the dispatch ended. A kernel dispatched many times in a row
// (bitonic: 120 dispatches of 0.2 ms at the medium size) ran with one
// worker for the first part of every dispatch: the two CPUs were busy
// 1.45 of 2 on average, against 1.9 on long dispatches. With the pool,
// bitonic medium takes 17.9-19.4 ms instead of 23-26 ms (alternated
// runs), and bitonic small 2.4-3.8 ms instead of 3.4-3.9 ms.
//
// The pool keeps those threads: after a dispatch, a pool thread spins for
// poolSpin looking for the next one (yielding its CPU, as the packet
// processor's spin does), then sleeps, and leaves after poolIdle without
// work. A dispatch whose helpers are all spinning runs worker 0 on the
// caller's goroutine and hands workers 1.. to them with a store each. If
// one sleeps, every worker goes to the pool and the caller blocks, so the
// caller's P runs a woken worker at once (a goroutine readied while the
// caller runs waits in the caller's runnext, which other Ps steal only
// after some microseconds).
//
// The pool is process-wide: devices have no Close, and a thread can serve
// any device's dispatch.

// poolSpin bounds how long an idle pool thread polls for its next job
// before it sleeps. It covers the gap between back-to-back dispatches of
// a queue (the packet processor retiring one packet and setting up the
// next), and a host's launch after its wait.
const poolSpin = 100 * time.Microsecond

// poolIdle is how long, in nanoseconds, a sleeping pool thread waits for
// a job before it leaves the pool (a variable for the tests).
var poolIdle atomic.Int64

func init() { poolIdle.Store(int64(2 * time.Second)) }

var workerPool pool

type pool struct {
	mu   sync.Mutex
	idle []*poolThread // threads without a job, most recently idle last

	// Counts for the tests: threads started and still in the pool, and
	// dispatches that found all their helpers spinning.
	started, live, hot atomic.Int64
}

// poolThread is one worker thread. job is its next job (nil: none);
// asleep is set while it sleeps (or is about to), so that a poster wakes
// it through wake.
type poolThread struct {
	job    atomic.Pointer[poolJob]
	asleep atomic.Bool
	wake   chan struct{} // capacity 1
}

// poolJob runs worker id of r.
type poolJob struct {
	r  *run
	id int
}

// take returns n threads for jobs, idle ones first (the most recently
// idle, likeliest still spinning), new ones for the rest, and whether all
// of them were spinning rather than asleep or new.
func (p *pool) take(dst []*poolThread, n int) ([]*poolThread, bool) {
	hot := true
	p.mu.Lock()
	for len(dst) < n && len(p.idle) > 0 {
		t := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		hot = hot && !t.asleep.Load()
		dst = append(dst, t)
	}
	p.mu.Unlock()
	for len(dst) < n {
		t := &poolThread{wake: make(chan struct{}, 1)}
		p.started.Add(1)
		p.live.Add(1)
		go t.loop()
		dst = append(dst, t)
		hot = false
	}
	return dst, hot
}

// post gives t its job, waking it if it sleeps. The job store and the
// asleep load pair with the thread's asleep store and job load (both
// sequentially consistent), so a thread going to sleep either sees the
// job or is woken.
func (t *poolThread) post(j *poolJob) {
	t.job.Store(j)
	if t.asleep.Load() {
		select {
		case t.wake <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
}

func (t *poolThread) loop() {
	for {
		j := t.await()
		if j == nil {
			workerPool.live.Add(-1)
			return
		}
		j.r.runWorker(j.id)
		// Back to the pool before the run learns this worker is done, so
		// that the next dispatch finds the thread idle.
		workerPool.mu.Lock()
		workerPool.idle = append(workerPool.idle, t)
		workerPool.mu.Unlock()
		if j.r.workerDone() {
			// The caller was readied onto this P: let it run here rather
			// than wait in runnext while this thread spins.
			runtime.Gosched()
		}
	}
}

// await returns the thread's next job, or nil once it has been idle for
// poolIdle and has left the pool.
func (t *poolThread) await() *poolJob {
	for {
		start := time.Now()
		// With a single P the spin would hold the P the next dispatch's
		// caller needs (GOMAXPROCS=1, two workers: 200 back-to-back
		// dispatches took 24 ms with the spin, 3.4 ms without): sleep at
		// once. (GOMAXPROCS takes the scheduler's lock: read it once.)
		spin := runtime.GOMAXPROCS(0) > 1
		for i := 1; spin; i++ {
			if j := t.job.Swap(nil); j != nil {
				return j
			}
			if i&31 == 0 {
				if time.Since(start) > poolSpin {
					break
				}
				osYield()
			}
		}
		t.asleep.Store(true)
		if j := t.job.Swap(nil); j != nil {
			t.asleep.Store(false)
			return j
		}
		timer := time.NewTimer(time.Duration(poolIdle.Load()))
		select {
		case <-t.wake:
			timer.Stop()
			t.asleep.Store(false)
			continue
		case <-timer.C:
		}
		t.asleep.Store(false)
		// Leave the pool, unless a dispatch took this thread meanwhile
		// (its job is posted or about to be: look again).
		workerPool.mu.Lock()
		for i, u := range workerPool.idle {
			if u == t {
				workerPool.idle = append(workerPool.idle[:i], workerPool.idle[i+1:]...)
				workerPool.mu.Unlock()
				return nil
			}
		}
		workerPool.mu.Unlock()
	}
}

// runWorker runs worker id on this thread with the device's floating-point
// environment.
func (r *run) runWorker(id int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer ieeeFP()()
	r.worker(id)
}

// workerDone notes that a pool worker finished, waking the caller if it
// waits for the last one, and reports whether it did.
func (r *run) workerDone() bool {
	if r.left.Add(-1) == 0 && r.waiting.Load() {
		r.doneCh <- struct{}{} // the only send: capacity 1 never blocks
		return true
	}
	return false
}

// runWorkers runs r's workers: on pool threads and, when they are all
// spinning, worker 0 on the calling goroutine. It returns when all have
// finished.
func (r *run) runWorkers() {
	var buf [8]*poolThread
	ts, hot := workerPool.take(buf[:0], r.workers-1)
	if hot {
		workerPool.hot.Add(1)
	} else {
		ts, _ = workerPool.take(ts, r.workers) // one more, for worker 0
	}
	js := make([]poolJob, len(ts))
	r.left.Store(int32(len(ts)))
	r.doneCh = make(chan struct{}, 1)
	first := r.workers - len(ts) // 1 when worker 0 runs here, else 0
	for i, t := range ts {
		js[i] = poolJob{r: r, id: first + i}
		t.post(&js[i])
	}
	if first == 1 {
		r.runWorker(0)
		// The pool workers usually finish within microseconds of this
		// one: poll briefly before blocking.
		start := time.Now()
		for i := 1; r.left.Load() > 0; i++ {
			if i&31 == 0 {
				if time.Since(start) > poolSpin {
					break
				}
				runtime.Gosched()
			}
		}
	}
	r.waiting.Store(true)
	for r.left.Load() > 0 {
		<-r.doneCh
	}
}
