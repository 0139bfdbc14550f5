package emu

import (
	"runtime"
	"testing"
)

// TestReserveProcs: a device keeps spare Ps beyond its workers, and the
// default worker count stays what the program started with.
func TestReserveProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(before)
	cfg := DefaultGFX90A(&testMem{})
	cfg.Workers = before + 3
	if _, err := NewDevice(cfg); err != nil {
		t.Fatal(err)
	}
	if got, want := runtime.GOMAXPROCS(0), before+3+spareProcs; got != want {
		t.Errorf("GOMAXPROCS %d after a device with %d workers, want %d", got, cfg.Workers, want)
	}
	cfg.Workers = 0
	d, err := NewDevice(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d.cfg.Workers != defaultWorkers || defaultWorkers > before {
		t.Errorf("default workers %d (start-up GOMAXPROCS %d, before the test %d)", d.cfg.Workers, defaultWorkers, before)
	}
	cfg.Workers = 1
	if _, err := NewDevice(cfg); err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != before+3+spareProcs {
		t.Errorf("GOMAXPROCS lowered to %d by a smaller device", got)
	}
}
