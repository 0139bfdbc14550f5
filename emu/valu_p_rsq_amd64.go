package emu

// unaryF32AllAVX is unaryF32AllGo in AVX assembly (valu_p_rsq_amd64.s):
// the same IEEE operations per lane, four lanes per instruction. The
// scalar loop is bound by the divider (a float64 square root and divide per
// lane: v_rsq_f32 was 18% of the n-body profile).
//
//go:noescape
func unaryF32AllAVX(kind int, d, a *[64]uint32)

func cpuHasAVX() bool

var haveAVX = cpuHasAVX()

// unaryF32AllHost is the default build's unaryF32All.
func unaryF32AllHost(kind int, d, a *[64]uint32) {
	if haveAVX {
		unaryF32AllAVX(kind, d, a)
		return
	}
	unaryF32AllGo(kind, d, a)
}
