//go:build !amd64

package emu

const haveAVX = false

// unaryF32AllHost is the default build's unaryF32All.
func unaryF32AllHost(kind int, d, a *[64]uint32) { unaryF32AllGo(kind, d, a) }
