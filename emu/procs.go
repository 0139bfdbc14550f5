package emu

import (
	"runtime"
	"sync"
)

// defaultWorkers is GOMAXPROCS as the program started with it (the
// GOMAXPROCS environment variable, or the CPUs the process may use): the
// default number of workers, fixed before reserveProcs raises GOMAXPROCS.
var defaultWorkers = runtime.GOMAXPROCS(0)

// spareProcs is how many Ps beyond the workers a device keeps.
//
// Workers are goroutines locked to their threads (MXCSR), and each one
// needs a P to run. A goroutine that blocks in a raw futex(2) or a cgo call
// keeps its P until sysmon takes it back, which can take 10 ms or more; an
// idle packet processor waking from its doorbell sleep 50 times a second
// and going back to sleep on the P of a preempted worker thereby kept that
// worker off the CPU for a third of a two-worker dispatch (execution trace,
// saxpy, two cores). Spare Ps let such goroutines run and block without
// taking a worker's; the OS shares the cores among the threads as usual.
const spareProcs = 2

var procsMu sync.Mutex

// reserveProcs raises GOMAXPROCS to at least workers + spareProcs. It never
// lowers it.
func reserveProcs(workers int) {
	procsMu.Lock()
	defer procsMu.Unlock()
	if want := workers + spareProcs; runtime.GOMAXPROCS(0) < want {
		runtime.GOMAXPROCS(want)
	}
}
