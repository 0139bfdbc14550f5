//go:build unix

package isa

import (
	"syscall"
	"time"
)

// processCPUTime returns the CPU time the test process has used, so that
// benchmarks can report rates that do not count time spent descheduled on
// a loaded machine.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
