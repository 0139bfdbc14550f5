package emu

// The f32 lane loops in AVX assembly (valu_p_f32_amd64.s): eight lanes per
// instruction where the Go loops do one; the same IEEE operation per lane.

//go:noescape
func f32AddVVAVX(d, a, b *[64]float32)

//go:noescape
func f32MulVVAVX(d, a, b *[64]float32)

//go:noescape
func f32SubVVAVX(d, a, b *[64]float32)

//go:noescape
func f32AddSVAVX(d *[64]float32, s float32, b *[64]float32)

//go:noescape
func f32MulSVAVX(d *[64]float32, s float32, b *[64]float32)

//go:noescape
func f32SubSVAVX(d *[64]float32, s float32, b *[64]float32)

// The default build's f32 lane loops (valu_p_nosimd.go): AVX when the CPU
// has it, else the unrolled Go loops.

func f32AddVVHost(d, a, b *[64]float32) {
	if haveAVX {
		f32AddVVAVX(d, a, b)
		return
	}
	f32AddVVGo(d, a, b)
}

func f32MulVVHost(d, a, b *[64]float32) {
	if haveAVX {
		f32MulVVAVX(d, a, b)
		return
	}
	f32MulVVGo(d, a, b)
}

func f32SubVVHost(d, a, b *[64]float32) {
	if haveAVX {
		f32SubVVAVX(d, a, b)
		return
	}
	f32SubVVGo(d, a, b)
}

func f32AddSVHost(d *[64]float32, s float32, b *[64]float32) {
	if haveAVX {
		f32AddSVAVX(d, s, b)
		return
	}
	f32AddSVGo(d, s, b)
}

func f32MulSVHost(d *[64]float32, s float32, b *[64]float32) {
	if haveAVX {
		f32MulSVAVX(d, s, b)
		return
	}
	f32MulSVGo(d, s, b)
}

func f32SubSVHost(d *[64]float32, s float32, b *[64]float32) {
	if haveAVX {
		f32SubSVAVX(d, s, b)
		return
	}
	f32SubSVGo(d, s, b)
}

// Compare-to-mask loops (valu_p_cmp_amd64.s) for pCmpF32: pred 0 is ==,
// 1 is <, 2 is <= (ordered: false with a NaN operand).

//go:noescape
func fpackVVAVX(pred int, a, b *[64]float32) uint64

//go:noescape
func fpackVSAVX(pred int, a *[64]float32, s float32) uint64

//go:noescape
func fpackSVAVX(pred int, s float32, b *[64]float32) uint64

// v_cndmask_b32 lane loops (valu_p_cnd_amd64.s): d[l] = b[l] where bit l
// of m is set, else a[l]; a or b may be a uniform value.

//go:noescape
func cndmaskVVAVX2(d, a, b *[64]uint32, m uint64)

//go:noescape
func cndmaskSVAVX2(d *[64]uint32, a uint32, b *[64]uint32, m uint64)

//go:noescape
func cndmaskVSAVX2(d, a *[64]uint32, b uint32, m uint64)

func cpuHasAVX2() bool

var haveAVX2 = haveAVX && cpuHasAVX2()

// f32FmaAVX2 is fastF32's v_fma_f32 for EXEC all ones (valu_p_fma_amd64.s):
// the host's fused multiply-add, eight lanes per instruction.
//
//go:noescape
func f32FmaAVX2(d, a, b, c *[64]float32)

func cpuHasFMA() bool

// mad64AVX2 is pMad64's v_mad_u64_u32 for EXEC all ones
// (valu_p_mad64_amd64.s); it returns the carry-out mask.
//
//go:noescape
func mad64AVX2(dlo, dhi, a, b, clo, chi *[64]uint32) uint64

var haveFMA = haveAVX2 && cpuHasFMA()

// The add with carry of pAddCo (valu_p_addco_amd64.s): d = a + b + cin per
// lane, returning the carry-out mask.

//go:noescape
func addcoVVAVX2(d, a, b *[64]uint32, cin uint64) uint64

//go:noescape
func addcoSVAVX2(d *[64]uint32, a uint32, b *[64]uint32, cin uint64) uint64

// The uniform-amount 64-bit shifts of pShift64 (valu_p_shift64_amd64.s);
// c1, c2, c3 are s, 32-s and s-32 as unsigned counts.

//go:noescape
func shl64SAVX2(dlo, dhi, blo, bhi *[64]uint32, c1, c2, c3 uint64)

//go:noescape
func shr64SAVX2(dlo, dhi, blo, bhi *[64]uint32, c1, c2, c3 uint64)

// The gathered dword loads of loadGather (mem_p_gather_amd64.s).

//go:noescape
func minmaxU32AVX2(v *[64]uint32) (mn, mx uint32)

//go:noescape
func gatherDAVX2(d *[64]uint32, p *byte, v *[64]uint32, mn uint32)

//go:noescape
func unitCheckAVX2(lo, hi *[64]uint32, stride uint32) bool

//go:noescape
func bcast32AVX2(d *[64]uint32, s uint32)

// bin32AVX2 is the integer lane loop of pBin32 and pU16 for EXEC all ones
// (valu_p_bin32_amd64.s, valu_p_bin32.go).
//
//go:noescape
func bin32AVX2(op int, d, a, b *[64]uint32, bmask, dmask, smask uint32)

// icmpAVX2 is pCmpI32's compare for EXEC all ones (valu_p_icmp_amd64.s).
//
//go:noescape
func icmpAVX2(p int, a, b *[64]uint32, flip uint32) uint64

//go:noescape
func dsRead2AVX2(d0, d1 *[64]uint32, lds *byte, v *[64]uint32, off0, off1, limit uint32) bool
