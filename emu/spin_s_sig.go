package emu

import (
	"hash/maphash"
	"unsafe"
)

// spinSeed seeds the wave state signatures of spinStalled.
var spinSeed = maphash.MakeSeed()

// spinStalled reports whether a wave that just switched at a taken backward
// branch after the switch interval (w.spin) is in the same state as at its
// previous such switch: a spin-wait polling memory that has not changed.
// A loop that computes (n-body's inner loop, a long reduction) changes a
// counter or an accumulator between two switches and so is progress: the
// worker must not idle or sleep because of it. The scalar state (SGPRs,
// EXEC, VCC, M0, SCC, PC) is compared first; only when it is unchanged are
// the VGPRs hashed (a loop with a uniform counter never gets that far).
func (w *wave) spinStalled() bool {
	sb := unsafe.Slice((*byte)(unsafe.Pointer(&w.s[0])), len(w.s)*4)
	h := maphash.Bytes(spinSeed, sb) ^ (w.pc*0x9E3779B97F4A7C15 + uint64(w.scc))
	if h != w.sigS || !w.sigOK {
		w.sigS, w.sigOK, w.sigVOK = h, true, false
		return false
	}
	var hv uint64
	if len(w.v) > 0 {
		hv = maphash.Bytes(spinSeed, unsafe.Slice((*byte)(unsafe.Pointer(&w.v[0])), len(w.v)*4))
	}
	if !w.sigVOK || hv != w.sigV {
		w.sigV, w.sigVOK = hv, true
		return false
	}
	return true
}
