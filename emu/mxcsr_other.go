//go:build !amd64

package emu

// ieeeFP is a no-op where the engine does not manage the FP control
// register (arm64's FPCR defaults are IEEE; Go never changes them).
func ieeeFP() (restore func()) { return func() {} }

const haveMXCSR = false

func getMXCSR() uint32  { return 0 }
func setMXCSR(v uint32) {}
