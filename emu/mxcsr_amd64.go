package emu

// The engine's fast paths use the host's SSE arithmetic, whose rounding and
// denormal behaviour the MXCSR register controls. Programs built with
// -ffast-math set FTZ/DAZ on their threads, and a new OS thread inherits its
// creator's MXCSR, so workers pin their thread and run with the IEEE
// default (round to nearest, no flushing, exceptions masked) — MODE is
// applied in software (DESIGN.md "Floating point").

const defaultMXCSR = 0x1F80

func getMXCSR() uint32
func setMXCSR(v uint32)

// ieeeFP makes the current thread's MXCSR the IEEE default and returns a
// function restoring it. The caller must hold runtime.LockOSThread.
func ieeeFP() (restore func()) {
	old := getMXCSR()
	if old == defaultMXCSR {
		return func() {}
	}
	setMXCSR(defaultMXCSR)
	return func() { setMXCSR(old) }
}

const haveMXCSR = true
