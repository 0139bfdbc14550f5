//go:build !linux

package emu

// osYield is a no-op where sched_yield is not available.
func osYield() {}
