package emu

import (
	"math"
	"math/bits"
	"unsafe"
)

// Second-level fast paths for the integer VALU instructions that dominate
// address arithmetic (bench profile: v_add_co/v_addc pairs, v_lshlrev_b64,
// v_mov of an SGPR, v_cndmask of constants, compares). They apply when
// EXEC is all ones and the sources are VGPRs or uniform values (SGPRs,
// constants): a uniform source is read once instead of being broadcast
// into 64 lanes, and the lane loops have no per-lane EXEC test. Every
// other shape (partial EXEC, output modifiers, a uniform second source of
// a VOP3 form, SDWA/DPP staging) runs the previous handler, so results are
// those of the general paths bit for bit (valu_p_fast_test.go compares
// them).

// allOnes reports whether EXEC has every lane set.
func allOnes(w *wave) bool { return w.s[sEXECLo]&w.s[sEXECHi] == ^uint32(0) }

// isVec reports whether an operand kind has per-lane values.
func isVec(k uint8) bool { return k == kVGPR || k == kAGPR || k == kTmp }

// lanes returns the 64 lanes of a per-lane operand (isVec) or destination.
func (w *wave) lanes(s *operand) *[64]uint32 {
	i := int(s.idx) << 6
	switch s.kind {
	case kVGPR:
		return (*[64]uint32)(w.v[i : i+64])
	case kAGPR:
		return (*[64]uint32)(w.a[i : i+64])
	}
	return &w.tmp[s.idx]
}

// lanes64 returns the two registers of a per-lane 64-bit operand (VGPR or
// AGPR pair).
func (w *wave) lanes64(s *operand) (lo, hi *[64]uint32) {
	i := int(s.idx) << 6
	if s.kind == kAGPR {
		return (*[64]uint32)(w.a[i : i+64]), (*[64]uint32)(w.a[i+64 : i+128])
	}
	return (*[64]uint32)(w.v[i : i+64]), (*[64]uint32)(w.v[i+64 : i+128])
}

// Binary integer kinds (the fastU32 numbering).
const (
	bAdd  = 0
	bLshl = 1
	bAnd  = 2
	bOr   = 4
	bXor  = 5
	bSub  = 6
	bLshr = 7
	bAshr = 8
	bMul  = 9
)

// pBin32 runs a binary 32-bit integer operation; src1 must be per-lane.
func pBin32(w *wave, o *op, kind int) {
	if !allOnes(w) || !isVec(o.src[1].kind) || !isVec(o.dst.kind) {
		fastU32(w, o, kind)
		return
	}
	b, d := w.lanes(&o.src[1]), w.lanes(&o.dst)
	if haveAVX2 {
		// Eight lanes per instruction rather than one (bitonic 10% and
		// stencil 8% of their profiles as Go loops).
		var a *[64]uint32
		if isVec(o.src[0].kind) {
			a = w.lanes(&o.src[0])
		} else {
			a = &w.tmp[0]
			bcast32AVX2(a, w.sread32(&o.src[0]))
		}
		bin32AVX2(bin32Of[kind], d, a, b, ^uint32(0), ^uint32(0), 31)
		return
	}
	if isVec(o.src[0].kind) {
		a := w.lanes(&o.src[0])
		switch kind {
		case bAdd:
			for l := range d {
				d[l] = a[l] + b[l]
			}
		case bSub:
			for l := range d {
				d[l] = a[l] - b[l]
			}
		case bAnd:
			for l := range d {
				d[l] = a[l] & b[l]
			}
		case bOr:
			for l := range d {
				d[l] = a[l] | b[l]
			}
		case bXor:
			for l := range d {
				d[l] = a[l] ^ b[l]
			}
		case bLshl:
			for l := range d {
				d[l] = b[l] << (a[l] & 31)
			}
		case bLshr:
			for l := range d {
				d[l] = b[l] >> (a[l] & 31)
			}
		case bAshr:
			for l := range d {
				d[l] = uint32(int32(b[l]) >> (a[l] & 31))
			}
		case bMul:
			for l := range d {
				d[l] = a[l] * b[l]
			}
		}
		return
	}
	s := w.sread32(&o.src[0])
	switch kind {
	case bAdd:
		for l := range d {
			d[l] = s + b[l]
		}
	case bSub:
		for l := range d {
			d[l] = s - b[l]
		}
	case bAnd:
		for l := range d {
			d[l] = s & b[l]
		}
	case bOr:
		for l := range d {
			d[l] = s | b[l]
		}
	case bXor:
		for l := range d {
			d[l] = s ^ b[l]
		}
	case bLshl:
		sh := s & 31
		for l := range d {
			d[l] = b[l] << sh
		}
	case bLshr:
		sh := s & 31
		for l := range d {
			d[l] = b[l] >> sh
		}
	case bAshr:
		sh := s & 31
		for l := range d {
			d[l] = uint32(int32(b[l]) >> sh)
		}
	case bMul:
		for l := range d {
			d[l] = s * b[l]
		}
	}
}

// pMov is v_mov_b32.
func pMov(w *wave, o *op) {
	if !allOnes(w) || !isVec(o.dst.kind) {
		fastU32(w, o, 3)
		return
	}
	d := w.lanes(&o.dst)
	if isVec(o.src[0].kind) {
		*d = *w.lanes(&o.src[0])
		return
	}
	s := w.sread32(&o.src[0])
	if haveAVX2 {
		bcast32AVX2(d, s)
		return
	}
	for l := range d {
		d[l] = s
	}
}

// pAddCo is v_add_co_u32 (carry out to sdst) and, with carryIn,
// v_addc_co_u32 (carry in from src2).
func pAddCo(w *wave, o *op, carryIn bool, generic func(w *wave, o *op)) {
	if o.clamp || !allOnes(w) || !isVec(o.src[1].kind) || !isVec(o.dst.kind) {
		generic(w, o)
		return
	}
	var cin uint64
	if carryIn {
		cin = w.sread64(&o.src[2])
	}
	b, d := w.lanes(&o.src[1]), w.lanes(&o.dst)
	if haveAVX2 {
		// Eight lanes per instruction (valu_p_addco_amd64.s).
		var cout uint64
		if isVec(o.src[0].kind) {
			cout = addcoVVAVX2(d, w.lanes(&o.src[0]), b, cin)
		} else {
			cout = addcoSVAVX2(d, w.sread32(&o.src[0]), b, cin)
		}
		w.swrite64(&o.sdst, cout)
		return
	}
	var cout uint64
	// Eight lanes per step: constant shifts for the carry bits. Each lane
	// reads its sources before writing, so d may alias a or b.
	switch vec := isVec(o.src[0].kind); {
	case vec && carryIn:
		a := w.lanes(&o.src[0])
		for l := 0; l < 64; l += 8 {
			x := (*[8]uint32)(a[l : l+8])
			y, z := (*[8]uint32)(b[l:l+8]), (*[8]uint32)(d[l:l+8])
			c := cin >> l
			s := uint64(x[0]) + uint64(y[0]) + c&1
			z[0] = uint32(s)
			cb := s >> 32
			s = uint64(x[1]) + uint64(y[1]) + c>>1&1
			z[1] = uint32(s)
			cb |= s >> 32 << 1
			s = uint64(x[2]) + uint64(y[2]) + c>>2&1
			z[2] = uint32(s)
			cb |= s >> 32 << 2
			s = uint64(x[3]) + uint64(y[3]) + c>>3&1
			z[3] = uint32(s)
			cb |= s >> 32 << 3
			s = uint64(x[4]) + uint64(y[4]) + c>>4&1
			z[4] = uint32(s)
			cb |= s >> 32 << 4
			s = uint64(x[5]) + uint64(y[5]) + c>>5&1
			z[5] = uint32(s)
			cb |= s >> 32 << 5
			s = uint64(x[6]) + uint64(y[6]) + c>>6&1
			z[6] = uint32(s)
			cb |= s >> 32 << 6
			s = uint64(x[7]) + uint64(y[7]) + c>>7&1
			z[7] = uint32(s)
			cb |= s >> 32 << 7
			cout |= cb << l
		}
	case vec:
		a := w.lanes(&o.src[0])
		for l := 0; l < 64; l += 8 {
			x := (*[8]uint32)(a[l : l+8])
			y, z := (*[8]uint32)(b[l:l+8]), (*[8]uint32)(d[l:l+8])
			s := uint64(x[0]) + uint64(y[0])
			z[0] = uint32(s)
			cb := s >> 32
			s = uint64(x[1]) + uint64(y[1])
			z[1] = uint32(s)
			cb |= s >> 32 << 1
			s = uint64(x[2]) + uint64(y[2])
			z[2] = uint32(s)
			cb |= s >> 32 << 2
			s = uint64(x[3]) + uint64(y[3])
			z[3] = uint32(s)
			cb |= s >> 32 << 3
			s = uint64(x[4]) + uint64(y[4])
			z[4] = uint32(s)
			cb |= s >> 32 << 4
			s = uint64(x[5]) + uint64(y[5])
			z[5] = uint32(s)
			cb |= s >> 32 << 5
			s = uint64(x[6]) + uint64(y[6])
			z[6] = uint32(s)
			cb |= s >> 32 << 6
			s = uint64(x[7]) + uint64(y[7])
			z[7] = uint32(s)
			cb |= s >> 32 << 7
			cout |= cb << l
		}
	case carryIn:
		a := uint64(w.sread32(&o.src[0]))
		for l := 0; l < 64; l += 8 {
			y, z := (*[8]uint32)(b[l:l+8]), (*[8]uint32)(d[l:l+8])
			c := cin >> l
			s := a + uint64(y[0]) + c&1
			z[0] = uint32(s)
			cb := s >> 32
			s = a + uint64(y[1]) + c>>1&1
			z[1] = uint32(s)
			cb |= s >> 32 << 1
			s = a + uint64(y[2]) + c>>2&1
			z[2] = uint32(s)
			cb |= s >> 32 << 2
			s = a + uint64(y[3]) + c>>3&1
			z[3] = uint32(s)
			cb |= s >> 32 << 3
			s = a + uint64(y[4]) + c>>4&1
			z[4] = uint32(s)
			cb |= s >> 32 << 4
			s = a + uint64(y[5]) + c>>5&1
			z[5] = uint32(s)
			cb |= s >> 32 << 5
			s = a + uint64(y[6]) + c>>6&1
			z[6] = uint32(s)
			cb |= s >> 32 << 6
			s = a + uint64(y[7]) + c>>7&1
			z[7] = uint32(s)
			cb |= s >> 32 << 7
			cout |= cb << l
		}
	default:
		a := uint64(w.sread32(&o.src[0]))
		for l := 0; l < 64; l += 8 {
			y, z := (*[8]uint32)(b[l:l+8]), (*[8]uint32)(d[l:l+8])
			s := a + uint64(y[0])
			z[0] = uint32(s)
			cb := s >> 32
			s = a + uint64(y[1])
			z[1] = uint32(s)
			cb |= s >> 32 << 1
			s = a + uint64(y[2])
			z[2] = uint32(s)
			cb |= s >> 32 << 2
			s = a + uint64(y[3])
			z[3] = uint32(s)
			cb |= s >> 32 << 3
			s = a + uint64(y[4])
			z[4] = uint32(s)
			cb |= s >> 32 << 4
			s = a + uint64(y[5])
			z[5] = uint32(s)
			cb |= s >> 32 << 5
			s = a + uint64(y[6])
			z[6] = uint32(s)
			cb |= s >> 32 << 6
			s = a + uint64(y[7])
			z[7] = uint32(s)
			cb |= s >> 32 << 7
			cout |= cb << l
		}
	}
	w.swrite64(&o.sdst, cout)
}

// pShift64 is v_lshlrev_b64 (kind 0) and v_lshrrev_b64 (kind 1): src0 the
// shift amount, src1 a per-lane 64-bit value.
func pShift64(w *wave, o *op, kind int, generic func(w *wave, o *op)) {
	if !allOnes(w) || (o.src[1].kind != kVGPR && o.src[1].kind != kAGPR) || (o.dst.kind != kVGPR && o.dst.kind != kAGPR) {
		generic(w, o)
		return
	}
	blo, bhi := w.lanes64(&o.src[1])
	dlo, dhi := w.lanes64(&o.dst)
	// Each lane reads both source halves before writing, so overlapping
	// source and destination pairs are fine.
	if !isVec(o.src[0].kind) {
		sh := w.sread32(&o.src[0]) & 63
		if haveAVX2 {
			// Eight lanes per instruction (valu_p_shift64_amd64.s).
			c1, c2, c3 := uint64(sh), uint64(32-int64(sh)), uint64(int64(sh)-32)
			if kind == 0 {
				shl64SAVX2(dlo, dhi, blo, bhi, c1, c2, c3)
			} else {
				shr64SAVX2(dlo, dhi, blo, bhi, c1, c2, c3)
			}
			return
		}
		if kind == 0 {
			for l := range dlo {
				r := (uint64(blo[l]) | uint64(bhi[l])<<32) << sh
				dlo[l], dhi[l] = uint32(r), uint32(r>>32)
			}
		} else {
			for l := range dlo {
				r := (uint64(blo[l]) | uint64(bhi[l])<<32) >> sh
				dlo[l], dhi[l] = uint32(r), uint32(r>>32)
			}
		}
		return
	}
	a := w.lanes(&o.src[0])
	for l := range dlo {
		x := uint64(blo[l]) | uint64(bhi[l])<<32
		var r uint64
		if kind == 0 {
			r = x << (a[l] & 63)
		} else {
			r = x >> (a[l] & 63)
		}
		dlo[l], dhi[l] = uint32(r), uint32(r>>32)
	}
}

// pCndmask is v_cndmask_b32 without input modifiers.
func pCndmask(w *wave, o *op, generic func(w *wave, o *op)) {
	if o.abs|o.neg != 0 || !allOnes(w) || !isVec(o.dst.kind) {
		generic(w, o)
		return
	}
	m := w.sread64(&o.src[2])
	d := w.lanes(&o.dst)
	// Eight lanes per step, selecting without branches (AVX2 blends when the
	// CPU has them: valu_p_cnd_amd64.s).
	switch {
	case haveAVX2 && isVec(o.src[0].kind) && isVec(o.src[1].kind):
		cndmaskVVAVX2(d, w.lanes(&o.src[0]), w.lanes(&o.src[1]), m)
	case haveAVX2 && isVec(o.src[1].kind):
		cndmaskSVAVX2(d, w.sread32(&o.src[0]), w.lanes(&o.src[1]), m)
	case haveAVX2 && isVec(o.src[0].kind):
		cndmaskVSAVX2(d, w.lanes(&o.src[0]), w.sread32(&o.src[1]), m)
	case haveAVX2:
		// Two uniform values (a boolean to 0/1: a border test's
		// v_cndmask_b32_e64 v, 0, 1, vcc): src1 broadcast, then the
		// scalar-vector blend.
		t := &w.tmp[11]
		bcast32AVX2(t, w.sread32(&o.src[1]))
		cndmaskSVAVX2(d, w.sread32(&o.src[0]), t, m)
	case isVec(o.src[0].kind) && isVec(o.src[1].kind):
		a, b := w.lanes(&o.src[0]), w.lanes(&o.src[1])
		for l := 0; l < 64; l += 8 {
			x := (*[8]uint32)(a[l : l+8])
			y := (*[8]uint32)(b[l : l+8])
			z := (*[8]uint32)(d[l : l+8])
			c := uint32(m >> l)
			z[0] = x[0] ^ (x[0]^y[0])&-(c>>0&1)
			z[1] = x[1] ^ (x[1]^y[1])&-(c>>1&1)
			z[2] = x[2] ^ (x[2]^y[2])&-(c>>2&1)
			z[3] = x[3] ^ (x[3]^y[3])&-(c>>3&1)
			z[4] = x[4] ^ (x[4]^y[4])&-(c>>4&1)
			z[5] = x[5] ^ (x[5]^y[5])&-(c>>5&1)
			z[6] = x[6] ^ (x[6]^y[6])&-(c>>6&1)
			z[7] = x[7] ^ (x[7]^y[7])&-(c>>7&1)
		}
	case isVec(o.src[1].kind):
		a, b := w.sread32(&o.src[0]), w.lanes(&o.src[1])
		for l := 0; l < 64; l += 8 {
			y := (*[8]uint32)(b[l : l+8])
			z := (*[8]uint32)(d[l : l+8])
			c := uint32(m >> l)
			z[0] = a ^ (a^y[0])&-(c>>0&1)
			z[1] = a ^ (a^y[1])&-(c>>1&1)
			z[2] = a ^ (a^y[2])&-(c>>2&1)
			z[3] = a ^ (a^y[3])&-(c>>3&1)
			z[4] = a ^ (a^y[4])&-(c>>4&1)
			z[5] = a ^ (a^y[5])&-(c>>5&1)
			z[6] = a ^ (a^y[6])&-(c>>6&1)
			z[7] = a ^ (a^y[7])&-(c>>7&1)
		}
	case isVec(o.src[0].kind):
		a, b := w.lanes(&o.src[0]), w.sread32(&o.src[1])
		for l := 0; l < 64; l += 8 {
			x := (*[8]uint32)(a[l : l+8])
			z := (*[8]uint32)(d[l : l+8])
			c := uint32(m >> l)
			z[0] = x[0] ^ (x[0]^b)&-(c>>0&1)
			z[1] = x[1] ^ (x[1]^b)&-(c>>1&1)
			z[2] = x[2] ^ (x[2]^b)&-(c>>2&1)
			z[3] = x[3] ^ (x[3]^b)&-(c>>3&1)
			z[4] = x[4] ^ (x[4]^b)&-(c>>4&1)
			z[5] = x[5] ^ (x[5]^b)&-(c>>5&1)
			z[6] = x[6] ^ (x[6]^b)&-(c>>6&1)
			z[7] = x[7] ^ (x[7]^b)&-(c>>7&1)
		}
	default:
		a, b := w.sread32(&o.src[0]), w.sread32(&o.src[1])
		for l := 0; l < 64; l += 8 {
			z := (*[8]uint32)(d[l : l+8])
			c := uint32(m >> l)
			z[0] = a ^ (a^b)&-(c>>0&1)
			z[1] = a ^ (a^b)&-(c>>1&1)
			z[2] = a ^ (a^b)&-(c>>2&1)
			z[3] = a ^ (a^b)&-(c>>3&1)
			z[4] = a ^ (a^b)&-(c>>4&1)
			z[5] = a ^ (a^b)&-(c>>5&1)
			z[6] = a ^ (a^b)&-(c>>6&1)
			z[7] = a ^ (a^b)&-(c>>7&1)
		}
	}
}

// bit64 is 1 for true, 0 for false (SETcc, no branch).
func bit64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Ordered f32 compares, eight lanes per step (NaN compares false, as the
// ISA's lt/gt/le/ge/eq predicates do).
func fpackLTVV(a *[64]float32, b *[64]float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]float32)(a[l : l+8])
		y := (*[8]float32)(b[l : l+8])
		r |= (bit64(x[0] < y[0]) | bit64(x[1] < y[1])<<1 | bit64(x[2] < y[2])<<2 | bit64(x[3] < y[3])<<3 |
			bit64(x[4] < y[4])<<4 | bit64(x[5] < y[5])<<5 | bit64(x[6] < y[6])<<6 | bit64(x[7] < y[7])<<7) << l
	}
	return r
}

func fpackLTSV(a float32, b *[64]float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		y := (*[8]float32)(b[l : l+8])
		r |= (bit64(a < y[0]) | bit64(a < y[1])<<1 | bit64(a < y[2])<<2 | bit64(a < y[3])<<3 |
			bit64(a < y[4])<<4 | bit64(a < y[5])<<5 | bit64(a < y[6])<<6 | bit64(a < y[7])<<7) << l
	}
	return r
}

func fpackLTVS(a *[64]float32, b float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]float32)(a[l : l+8])
		r |= (bit64(x[0] < b) | bit64(x[1] < b)<<1 | bit64(x[2] < b)<<2 | bit64(x[3] < b)<<3 |
			bit64(x[4] < b)<<4 | bit64(x[5] < b)<<5 | bit64(x[6] < b)<<6 | bit64(x[7] < b)<<7) << l
	}
	return r
}

func fpackLEVV(a *[64]float32, b *[64]float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]float32)(a[l : l+8])
		y := (*[8]float32)(b[l : l+8])
		r |= (bit64(x[0] <= y[0]) | bit64(x[1] <= y[1])<<1 | bit64(x[2] <= y[2])<<2 | bit64(x[3] <= y[3])<<3 |
			bit64(x[4] <= y[4])<<4 | bit64(x[5] <= y[5])<<5 | bit64(x[6] <= y[6])<<6 | bit64(x[7] <= y[7])<<7) << l
	}
	return r
}

func fpackLESV(a float32, b *[64]float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		y := (*[8]float32)(b[l : l+8])
		r |= (bit64(a <= y[0]) | bit64(a <= y[1])<<1 | bit64(a <= y[2])<<2 | bit64(a <= y[3])<<3 |
			bit64(a <= y[4])<<4 | bit64(a <= y[5])<<5 | bit64(a <= y[6])<<6 | bit64(a <= y[7])<<7) << l
	}
	return r
}

func fpackLEVS(a *[64]float32, b float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]float32)(a[l : l+8])
		r |= (bit64(x[0] <= b) | bit64(x[1] <= b)<<1 | bit64(x[2] <= b)<<2 | bit64(x[3] <= b)<<3 |
			bit64(x[4] <= b)<<4 | bit64(x[5] <= b)<<5 | bit64(x[6] <= b)<<6 | bit64(x[7] <= b)<<7) << l
	}
	return r
}

func fpackEQVV(a *[64]float32, b *[64]float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]float32)(a[l : l+8])
		y := (*[8]float32)(b[l : l+8])
		r |= (bit64(x[0] == y[0]) | bit64(x[1] == y[1])<<1 | bit64(x[2] == y[2])<<2 | bit64(x[3] == y[3])<<3 |
			bit64(x[4] == y[4])<<4 | bit64(x[5] == y[5])<<5 | bit64(x[6] == y[6])<<6 | bit64(x[7] == y[7])<<7) << l
	}
	return r
}

func fpackEQSV(a float32, b *[64]float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		y := (*[8]float32)(b[l : l+8])
		r |= (bit64(a == y[0]) | bit64(a == y[1])<<1 | bit64(a == y[2])<<2 | bit64(a == y[3])<<3 |
			bit64(a == y[4])<<4 | bit64(a == y[5])<<5 | bit64(a == y[6])<<6 | bit64(a == y[7])<<7) << l
	}
	return r
}

func fpackEQVS(a *[64]float32, b float32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]float32)(a[l : l+8])
		r |= (bit64(x[0] == b) | bit64(x[1] == b)<<1 | bit64(x[2] == b)<<2 | bit64(x[3] == b)<<3 |
			bit64(x[4] == b)<<4 | bit64(x[5] == b)<<5 | bit64(x[6] == b)<<6 | bit64(x[7] == b)<<7) << l
	}
	return r
}

// pCmpF32 is cmpF32Fast with EXEC all ones, f32 denormals kept and no
// input modifiers, for the ordered predicates; uniform sources are read
// once and the mask is built without branches.
func pCmpF32(w *wave, o *op, x bool, p int) {
	if !allOnes(w) || w.mode&0x10 == 0 || o.abs|o.neg != 0 || p > pGE || p == pNE {
		cmpF32Fast(w, o, x, p)
		return
	}
	va, vb := isVec(o.src[0].kind), isVec(o.src[1].kind)
	var r uint64
	switch {
	case haveAVX && (va || vb):
		r = pCmpF32AVX(w, o, p, va, vb)
	case va && vb:
		a, b := f32Lanes(w.lanes(&o.src[0])[:]), f32Lanes(w.lanes(&o.src[1])[:])
		switch p {
		case pLT:
			r = fpackLTVV(a, b)
		case pGT:
			r = fpackLTVV(b, a)
		case pLE:
			r = fpackLEVV(a, b)
		case pGE:
			r = fpackLEVV(b, a)
		case pEQ:
			r = fpackEQVV(a, b)
		}
	case vb:
		a, b := f32(w.sread32(&o.src[0])), f32Lanes(w.lanes(&o.src[1])[:])
		switch p {
		case pLT:
			r = fpackLTSV(a, b)
		case pGT:
			r = fpackLTVS(b, a)
		case pLE:
			r = fpackLESV(a, b)
		case pGE:
			r = fpackLEVS(b, a)
		case pEQ:
			r = fpackEQSV(a, b)
		}
	case va:
		a, b := f32Lanes(w.lanes(&o.src[0])[:]), f32(w.sread32(&o.src[1]))
		switch p {
		case pLT:
			r = fpackLTVS(a, b)
		case pGT:
			r = fpackLTSV(b, a)
		case pLE:
			r = fpackLEVS(a, b)
		case pGE:
			r = fpackLESV(b, a)
		case pEQ:
			r = fpackEQVS(a, b)
		}
	default:
		cmpF32Fast(w, o, x, p)
		return
	}
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

// pCmpF32AVX is pCmpF32's mask for at least one per-lane source in AVX
// assembly (valu_p_cmp_amd64.s): > and >= are < and <= with the operands
// swapped, as in the Go loops.
func pCmpF32AVX(w *wave, o *op, p int, va, vb bool) uint64 {
	pred, swap := 0, false // pEQ
	switch p {
	case pLT:
		pred = 1
	case pGT:
		pred, swap = 1, true
	case pLE:
		pred = 2
	case pGE:
		pred, swap = 2, true
	}
	switch {
	case va && vb:
		a, b := f32Lanes(w.lanes(&o.src[0])[:]), f32Lanes(w.lanes(&o.src[1])[:])
		if swap {
			a, b = b, a
		}
		return fpackVVAVX(pred, a, b)
	case vb:
		s, b := f32(w.sread32(&o.src[0])), f32Lanes(w.lanes(&o.src[1])[:])
		if swap {
			return fpackVSAVX(pred, b, s)
		}
		return fpackSVAVX(pred, s, b)
	default:
		a, s := f32Lanes(w.lanes(&o.src[0])[:]), f32(w.sread32(&o.src[1]))
		if swap {
			return fpackSVAVX(pred, s, a)
		}
		return fpackVSAVX(pred, a, s)
	}
}

// Compare bits without branches: with 32-bit values widened to 64 bits,
// the sign of the difference is the unsigned order.
func ltBit(x, y uint32) uint64 { return (uint64(x) - uint64(y)) >> 63 }
func leBit(x, y uint32) uint64 { return (uint64(x) - uint64(y) - 1) >> 63 }
func eqBit(x, y uint32) uint64 { return (uint64(x^y) - 1) >> 63 }

// packLT, packLE and packEQ return the lane mask of a[l]^f < b[l]^f
// (<=, ==), eight lanes per step.
func packLT(a, b *[64]uint32, f uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x, y := (*[8]uint32)(a[l:l+8]), (*[8]uint32)(b[l:l+8])
		r |= (ltBit(x[0]^f, y[0]^f) | ltBit(x[1]^f, y[1]^f)<<1 | ltBit(x[2]^f, y[2]^f)<<2 | ltBit(x[3]^f, y[3]^f)<<3 |
			ltBit(x[4]^f, y[4]^f)<<4 | ltBit(x[5]^f, y[5]^f)<<5 | ltBit(x[6]^f, y[6]^f)<<6 | ltBit(x[7]^f, y[7]^f)<<7) << l
	}
	return r
}

func packLE(a, b *[64]uint32, f uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x, y := (*[8]uint32)(a[l:l+8]), (*[8]uint32)(b[l:l+8])
		r |= (leBit(x[0]^f, y[0]^f) | leBit(x[1]^f, y[1]^f)<<1 | leBit(x[2]^f, y[2]^f)<<2 | leBit(x[3]^f, y[3]^f)<<3 |
			leBit(x[4]^f, y[4]^f)<<4 | leBit(x[5]^f, y[5]^f)<<5 | leBit(x[6]^f, y[6]^f)<<6 | leBit(x[7]^f, y[7]^f)<<7) << l
	}
	return r
}

func packEQ(a, b *[64]uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x, y := (*[8]uint32)(a[l:l+8]), (*[8]uint32)(b[l:l+8])
		r |= (eqBit(x[0], y[0]) | eqBit(x[1], y[1])<<1 | eqBit(x[2], y[2])<<2 | eqBit(x[3], y[3])<<3 |
			eqBit(x[4], y[4])<<4 | eqBit(x[5], y[5])<<5 | eqBit(x[6], y[6])<<6 | eqBit(x[7], y[7])<<7) << l
	}
	return r
}

// Uniform-operand forms: a or b is one value (already sign-flipped by
// the caller for signed compares).
func packLTsv(a uint32, b *[64]uint32, f uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		y := (*[8]uint32)(b[l : l+8])
		r |= (ltBit(a, y[0]^f) | ltBit(a, y[1]^f)<<1 | ltBit(a, y[2]^f)<<2 | ltBit(a, y[3]^f)<<3 |
			ltBit(a, y[4]^f)<<4 | ltBit(a, y[5]^f)<<5 | ltBit(a, y[6]^f)<<6 | ltBit(a, y[7]^f)<<7) << l
	}
	return r
}

func packLTvs(a *[64]uint32, b uint32, f uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]uint32)(a[l : l+8])
		r |= (ltBit(x[0]^f, b) | ltBit(x[1]^f, b)<<1 | ltBit(x[2]^f, b)<<2 | ltBit(x[3]^f, b)<<3 |
			ltBit(x[4]^f, b)<<4 | ltBit(x[5]^f, b)<<5 | ltBit(x[6]^f, b)<<6 | ltBit(x[7]^f, b)<<7) << l
	}
	return r
}

func packLEsv(a uint32, b *[64]uint32, f uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		y := (*[8]uint32)(b[l : l+8])
		r |= (leBit(a, y[0]^f) | leBit(a, y[1]^f)<<1 | leBit(a, y[2]^f)<<2 | leBit(a, y[3]^f)<<3 |
			leBit(a, y[4]^f)<<4 | leBit(a, y[5]^f)<<5 | leBit(a, y[6]^f)<<6 | leBit(a, y[7]^f)<<7) << l
	}
	return r
}

func packLEvs(a *[64]uint32, b uint32, f uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		x := (*[8]uint32)(a[l : l+8])
		r |= (leBit(x[0]^f, b) | leBit(x[1]^f, b)<<1 | leBit(x[2]^f, b)<<2 | leBit(x[3]^f, b)<<3 |
			leBit(x[4]^f, b)<<4 | leBit(x[5]^f, b)<<5 | leBit(x[6]^f, b)<<6 | leBit(x[7]^f, b)<<7) << l
	}
	return r
}

func packEQsv(a uint32, b *[64]uint32) (r uint64) {
	for l := 0; l < 64; l += 8 {
		y := (*[8]uint32)(b[l : l+8])
		r |= (eqBit(a, y[0]) | eqBit(a, y[1])<<1 | eqBit(a, y[2])<<2 | eqBit(a, y[3])<<3 |
			eqBit(a, y[4])<<4 | eqBit(a, y[5])<<5 | eqBit(a, y[6])<<6 | eqBit(a, y[7])<<7) << l
	}
	return r
}

// pCmpI32 is the 32-bit integer compare (cmpI32Fast) with EXEC all ones:
// a uniform source is read once, the mask is built without branches.
func pCmpI32(w *wave, o *op, x bool, p int, signed bool) {
	if !allOnes(w) {
		cmpI32Fast(w, o, x, p, signed)
		return
	}
	f := uint32(0)
	if signed {
		f = 1 << 31 // signed order = unsigned order with the sign bit flipped
	}
	var r uint64
	va, vb := isVec(o.src[0].kind), isVec(o.src[1].kind)
	if haveAVX2 && (va || vb) && p >= pLT && p <= pGE {
		// Eight lanes per compare (stencil's six compares a wave were 8%
		// of its profile as Go loops).
		a, b := &w.tmp[0], &w.tmp[1]
		if va {
			a = w.lanes(&o.src[0])
		} else {
			bcast32AVX2(a, w.sread32(&o.src[0]))
		}
		if vb {
			b = w.lanes(&o.src[1])
		} else {
			bcast32AVX2(b, w.sread32(&o.src[1]))
		}
		r = icmpPred(p, a, b, signed)
		w.swrite64(&o.sdst, r)
		if x {
			w.setExec(r)
		}
		return
	}
	switch {
	case va && vb:
		a, b := w.lanes(&o.src[0]), w.lanes(&o.src[1])
		switch p {
		case pLT:
			r = packLT(a, b, f)
		case pGT:
			r = packLT(b, a, f)
		case pLE:
			r = packLE(a, b, f)
		case pGE:
			r = packLE(b, a, f)
		case pEQ:
			r = packEQ(a, b)
		case pNE:
			r = ^packEQ(a, b)
		}
	case vb:
		a, b := w.sread32(&o.src[0]), w.lanes(&o.src[1])
		switch p {
		case pLT:
			r = packLTsv(a^f, b, f)
		case pGT:
			r = packLTvs(b, a^f, f)
		case pLE:
			r = packLEsv(a^f, b, f)
		case pGE:
			r = packLEvs(b, a^f, f)
		case pEQ:
			r = packEQsv(a, b)
		case pNE:
			r = ^packEQsv(a, b)
		}
	case va:
		a, b := w.lanes(&o.src[0]), w.sread32(&o.src[1])
		switch p {
		case pLT:
			r = packLTvs(a, b^f, f)
		case pGT:
			r = packLTsv(b^f, a, f)
		case pLE:
			r = packLEvs(a, b^f, f)
		case pGE:
			r = packLEsv(b^f, a, f)
		case pEQ:
			r = packEQsv(b, a)
		case pNE:
			r = ^packEQsv(b, a)
		}
	default:
		cmpI32Fast(w, o, x, p, signed)
		return
	}
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

// icmpPred is the lane mask of integer predicate p (pLT … pGE) over a and
// b, signed or unsigned, in AVX2.
func icmpPred(p int, a, b *[64]uint32, signed bool) uint64 {
	fl := uint32(1 << 31) // unsigned: flip the sign bits for VPCMPGTD
	if signed {
		fl = 0
	}
	switch p {
	case pLT:
		return icmpAVX2(icmpLT, a, b, fl)
	case pGT:
		return icmpAVX2(icmpLT, b, a, fl)
	case pLE:
		return icmpAVX2(icmpLE, a, b, fl)
	case pGE:
		return icmpAVX2(icmpLE, b, a, fl)
	case pEQ:
		return icmpAVX2(icmpEQ, a, b, 0)
	case pNE:
		return ^icmpAVX2(icmpEQ, a, b, 0)
	}
	panic("emu: icmpPred: not an integer predicate")
}

// Three-source integer kinds for pTer32.
const (
	tBfe = iota
	tLshlAdd
	tAddLshl
	tAdd3
	tLshlOr
	tAndOr
	tOr3
	tMadU24
	tBfi
)

// pTer32 runs a three-source 32-bit integer operation with EXEC all ones
// without the generic runner's per-lane indirect call (uniform sources are
// broadcast).
func pTer32(w *wave, o *op, kind int, generic func(w *wave, o *op)) {
	if !allOnes(w) || !isVec(o.dst.kind) {
		generic(w, o)
		return
	}
	a := (*[64]uint32)(w.vsrc(&o.src[0], &w.tmp[0]))
	b := (*[64]uint32)(w.vsrc(&o.src[1], &w.tmp[1]))
	c := (*[64]uint32)(w.vsrc(&o.src[2], &w.tmp[2]))
	d := w.lanes(&o.dst)
	if kind == tBfe && haveAVX2 {
		// (a >> (b&31)) & ((1 << (c&31)) - 1), which is 0 for width 0,
		// in four AVX2 passes (bitonic's index arithmetic).
		t, m, one, all := &w.tmp[3], &w.tmp[4], &w.tmp[5], ^uint32(0)
		bcast32AVX2(one, 1)
		bin32AVX2(bin32Shr, t, b, a, all, all, 31)
		bin32AVX2(bin32Shl, m, c, one, all, all, 31)
		bin32AVX2(bin32Sub, m, m, one, all, all, 31)
		bin32AVX2(bin32And, d, t, m, all, all, 31)
		return
	}
	switch kind {
	case tBfe:
		for l := range d {
			d[l] = bfe(a[l], b[l], c[l])
		}
	case tLshlAdd:
		for l := range d {
			d[l] = a[l]<<(b[l]&31) + c[l]
		}
	case tAddLshl:
		for l := range d {
			d[l] = (a[l] + b[l]) << (c[l] & 31)
		}
	case tAdd3:
		for l := range d {
			d[l] = a[l] + b[l] + c[l]
		}
	case tLshlOr:
		for l := range d {
			d[l] = a[l]<<(b[l]&31) | c[l]
		}
	case tAndOr:
		for l := range d {
			d[l] = a[l]&b[l] | c[l]
		}
	case tOr3:
		for l := range d {
			d[l] = a[l] | b[l] | c[l]
		}
	case tMadU24:
		for l := range d {
			d[l] = (a[l]&0xFFFFFF)*(b[l]&0xFFFFFF) + c[l]
		}
	case tBfi:
		for l := range d {
			d[l] = a[l]&b[l] | ^a[l]&c[l]
		}
	}
}

// 16-bit integer kinds for pU16.
const (
	uAdd16 = iota
	uSub16
	uMul16
	uLshl16
	uLshr16
)

// pU16 runs a 16-bit integer operation on the low halves (op_sel 0) with
// EXEC all ones: the result in the low half, the high half zeroed, as
// runU16 does, without its per-lane indirect call.
func pU16(w *wave, o *op, kind int, generic func(w *wave, o *op)) {
	if o.opsel != 0 || o.clamp || !allOnes(w) || !isVec(o.dst.kind) {
		generic(w, o)
		return
	}
	a := (*[64]uint32)(w.vsrc(&o.src[0], &w.tmp[0]))
	b := (*[64]uint32)(w.vsrc(&o.src[1], &w.tmp[1]))
	d := w.lanes(&o.dst)
	if haveAVX2 {
		bmask := ^uint32(0)
		if kind == uLshr16 {
			bmask = 0xFFFF
		}
		bin32AVX2(u16Of[kind], d, a, b, bmask, 0xFFFF, 15)
		return
	}
	switch kind {
	case uAdd16:
		for l := range d {
			d[l] = (a[l] + b[l]) & 0xFFFF
		}
	case uSub16:
		for l := range d {
			d[l] = (a[l] - b[l]) & 0xFFFF
		}
	case uMul16:
		for l := range d {
			d[l] = (a[l] & 0xFFFF) * (b[l] & 0xFFFF) & 0xFFFF
		}
	case uLshl16:
		for l := range d {
			d[l] = (b[l] & 0xFFFF) << (a[l] & 15) & 0xFFFF
		}
	case uLshr16:
		for l := range d {
			d[l] = (b[l] & 0xFFFF) >> (a[l] & 15)
		}
	}
}

// pCmp16 is the 16-bit integer compare (cmpU16) on the low halves (op_sel
// 0) with EXEC all ones: the halves are masked (and sign-flipped for the
// signed forms) into staging arrays and compared without branches.
func pCmp16(w *wave, o *op, x bool, p int, signed bool, generic func(w *wave, o *op)) {
	if o.opsel != 0 || !allOnes(w) {
		generic(w, o)
		return
	}
	f := uint32(0)
	if signed {
		f = 0x8000
	}
	a := (*[64]uint32)(w.vsrc(&o.src[0], &w.tmp[0]))
	b := (*[64]uint32)(w.vsrc(&o.src[1], &w.tmp[1]))
	if haveAVX2 && p >= pLT && p <= pGE {
		// The low halves shifted to the top compare as 32-bit values in
		// the same order, signed or unsigned, and equal when they are.
		ta, tb, k, all := &w.tmp[3], &w.tmp[4], &w.tmp[5], ^uint32(0)
		bcast32AVX2(k, 16)
		bin32AVX2(bin32Shl, ta, k, a, all, all, 31)
		bin32AVX2(bin32Shl, tb, k, b, all, all, 31)
		r := icmpPred(p, ta, tb, signed)
		w.swrite64(&o.sdst, r)
		if x {
			w.setExec(r)
		}
		return
	}
	var ta, tb [64]uint32
	for l := range ta {
		ta[l] = a[l]&0xFFFF ^ f
		tb[l] = b[l]&0xFFFF ^ f
	}
	var r uint64
	switch p {
	case pLT:
		r = packLT(&ta, &tb, 0)
	case pGT:
		r = packLT(&tb, &ta, 0)
	case pLE:
		r = packLE(&ta, &tb, 0)
	case pGE:
		r = packLE(&tb, &ta, 0)
	case pEQ:
		r = packEQ(&ta, &tb)
	case pNE:
		r = ^packEQ(&ta, &tb)
	}
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

// pMad64 is v_mad_u64_u32 with EXEC all ones (runMad64 without the
// per-lane indirect call): d = a·b + c in 64 bits, carry-out to sdst.
func pMad64(w *wave, o *op, generic func(w *wave, o *op)) {
	if !allOnes(w) || (o.dst.kind != kVGPR && o.dst.kind != kAGPR) {
		generic(w, o)
		return
	}
	a := (*[64]uint32)(w.vsrc(&o.src[0], &w.tmp[0]))
	b := (*[64]uint32)(w.vsrc(&o.src[1], &w.tmp[1]))
	clo, chi := w.vsrc64(&o.src[2], &w.tmp[2], &w.tmp[5])
	cl, ch := (*[64]uint32)(clo), (*[64]uint32)(chi)
	dlo, dhi := w.lanes64(&o.dst)
	if haveAVX2 {
		w.swrite64(&o.sdst, mad64AVX2(dlo, dhi, a, b, cl, ch))
		return
	}
	var cout uint64
	for l := range dlo {
		s, c := bits.Add64(uint64(a[l])*uint64(b[l]), uint64(cl[l])|uint64(ch[l])<<32, 0)
		dlo[l], dhi[l] = uint32(s), uint32(s>>32)
		cout |= c << l
	}
	w.swrite64(&o.sdst, cout)
}

// pPrev keeps the handler each specialiseP handler replaced, for the tests
// that compare the two.
var pPrev = map[string]func(w *wave, o *op){}

// specialiseP installs the handlers above over those specialiseHot made
// (it runs last; each keeps the previous handler as its fallback).
func specialiseP() {
	over := func(name string, f func(prev func(w *wave, o *op)) func(w *wave, o *op)) {
		s, ok := semantics[name]
		if !ok {
			panic("emu: specialiseP: no semantics for " + name)
		}
		pPrev[name] = s.fn
		s.fn = f(s.fn)
		semantics[name] = s
	}
	for name, kind := range map[string]int{"v_lshlrev_b32": bLshl, "v_and_b32": bAnd, "v_or_b32": bOr,
		"v_xor_b32": bXor, "v_lshrrev_b32": bLshr, "v_ashrrev_i32": bAshr, "v_mul_lo_u32": bMul} {
		kind := kind
		over(name, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pBin32(w, o, kind) }
		})
	}
	over("v_subrev_u32", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			if !haveAVX2 || o.clamp || !allOnes(w) || !isVec(o.src[1].kind) || !isVec(o.dst.kind) {
				prev(w, o)
				return
			}
			a := &w.tmp[0]
			if isVec(o.src[0].kind) {
				a = w.lanes(&o.src[0])
			} else {
				bcast32AVX2(a, w.sread32(&o.src[0]))
			}
			bin32AVX2(bin32Rsub, w.lanes(&o.dst), a, w.lanes(&o.src[1]), ^uint32(0), ^uint32(0), 31)
		}
	})
	for name, kind := range map[string]int{"v_add_u32": bAdd, "v_sub_u32": bSub} {
		kind := kind
		over(name, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) {
				if o.clamp {
					prev(w, o)
					return
				}
				pBin32(w, o, kind)
			}
		})
	}
	for name, kind := range map[string]int{"v_bfe_u32": tBfe, "v_lshl_add_u32": tLshlAdd, "v_add_lshl_u32": tAddLshl, "v_add3_u32": tAdd3, "v_lshl_or_b32": tLshlOr, "v_and_or_b32": tAndOr, "v_or3_b32": tOr3, "v_mad_u32_u24": tMadU24, "v_bfi_b32": tBfi} {
		kind := kind
		over(name, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pTer32(w, o, kind, prev) }
		})
	}
	for name, kind := range map[string]int{"v_add_u16": uAdd16, "v_sub_u16": uSub16, "v_mul_lo_u16": uMul16, "v_lshlrev_b16": uLshl16, "v_lshrrev_b16": uLshr16} {
		kind := kind
		over(name, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pU16(w, o, kind, prev) }
		})
	}
	over("v_mad_u64_u32", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { pMad64(w, o, prev) }
	})
	for name, p := range fastIntPred {
		p := p
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			for _, ty := range []string{"_i16", "_u16"} {
				signed := ty == "_i16"
				if _, ok := semantics[pre+name+ty]; ok {
					over(pre+name+ty, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
						return func(w *wave, o *op) { pCmp16(w, o, x, p, signed, prev) }
					})
				}
			}
		}
	}
	specialiseDS(over)
	over("v_mov_b32", func(prev func(w *wave, o *op)) func(w *wave, o *op) { return pMov })
	over("v_add_co_u32", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { pAddCo(w, o, false, prev) }
	})
	over("v_addc_co_u32", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { pAddCo(w, o, true, prev) }
	})
	over("v_lshlrev_b64", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { pShift64(w, o, 0, prev) }
	})
	over("v_lshrrev_b64", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { pShift64(w, o, 1, prev) }
	})
	over("v_cndmask_b32", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { pCndmask(w, o, prev) }
	})
	for name, p := range fastFloatPred {
		p := p
		if p > pGE || p == pNE {
			continue
		}
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			if _, ok := semantics[pre+name+"_f32"]; ok {
				over(pre+name+"_f32", func(prev func(w *wave, o *op)) func(w *wave, o *op) {
					return func(w *wave, o *op) { pCmpF32(w, o, x, p) }
				})
			}
		}
	}
	for name, p := range fastIntPred {
		p := p
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			for _, ty := range []string{"_i32", "_u32"} {
				signed := ty == "_i32"
				if _, ok := semantics[pre+name+ty]; ok {
					over(pre+name+ty, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
						return func(w *wave, o *op) { pCmpI32(w, o, x, p, signed) }
					})
				}
			}
		}
	}
}

// Unrolled f32 lane loops (eight lanes per step on fixed-size arrays: no
// bounds checks, a quarter of the loop overhead; the measured speed-up of
// the loop alone is 1.5-2.5x). Each is one IEEE operation per lane, as the
// scalar loops were: Go rounds every float32 operation and nothing here can
// be fused.

func f32AddVVGo(d, a, b *[64]float32) {
	for l := 0; l < 64; l += 8 {
		x, y, z := (*[8]float32)(a[l:l+8]), (*[8]float32)(b[l:l+8]), (*[8]float32)(d[l:l+8])
		z[0] = x[0] + y[0]
		z[1] = x[1] + y[1]
		z[2] = x[2] + y[2]
		z[3] = x[3] + y[3]
		z[4] = x[4] + y[4]
		z[5] = x[5] + y[5]
		z[6] = x[6] + y[6]
		z[7] = x[7] + y[7]
	}
}

func f32AddSVGo(d *[64]float32, s float32, b *[64]float32) {
	for l := 0; l < 64; l += 8 {
		y, z := (*[8]float32)(b[l:l+8]), (*[8]float32)(d[l:l+8])
		z[0] = s + y[0]
		z[1] = s + y[1]
		z[2] = s + y[2]
		z[3] = s + y[3]
		z[4] = s + y[4]
		z[5] = s + y[5]
		z[6] = s + y[6]
		z[7] = s + y[7]
	}
}

func f32MulVVGo(d, a, b *[64]float32) {
	for l := 0; l < 64; l += 8 {
		x, y, z := (*[8]float32)(a[l:l+8]), (*[8]float32)(b[l:l+8]), (*[8]float32)(d[l:l+8])
		z[0] = x[0] * y[0]
		z[1] = x[1] * y[1]
		z[2] = x[2] * y[2]
		z[3] = x[3] * y[3]
		z[4] = x[4] * y[4]
		z[5] = x[5] * y[5]
		z[6] = x[6] * y[6]
		z[7] = x[7] * y[7]
	}
}

func f32MulSVGo(d *[64]float32, s float32, b *[64]float32) {
	for l := 0; l < 64; l += 8 {
		y, z := (*[8]float32)(b[l:l+8]), (*[8]float32)(d[l:l+8])
		z[0] = s * y[0]
		z[1] = s * y[1]
		z[2] = s * y[2]
		z[3] = s * y[3]
		z[4] = s * y[4]
		z[5] = s * y[5]
		z[6] = s * y[6]
		z[7] = s * y[7]
	}
}

func f32SubVVGo(d, a, b *[64]float32) {
	for l := 0; l < 64; l += 8 {
		x, y, z := (*[8]float32)(a[l:l+8]), (*[8]float32)(b[l:l+8]), (*[8]float32)(d[l:l+8])
		z[0] = x[0] - y[0]
		z[1] = x[1] - y[1]
		z[2] = x[2] - y[2]
		z[3] = x[3] - y[3]
		z[4] = x[4] - y[4]
		z[5] = x[5] - y[5]
		z[6] = x[6] - y[6]
		z[7] = x[7] - y[7]
	}
}

func f32SubSVGo(d *[64]float32, s float32, b *[64]float32) {
	for l := 0; l < 64; l += 8 {
		y, z := (*[8]float32)(b[l:l+8]), (*[8]float32)(d[l:l+8])
		z[0] = s - y[0]
		z[1] = s - y[1]
		z[2] = s - y[2]
		z[3] = s - y[3]
		z[4] = s - y[4]
		z[5] = s - y[5]
		z[6] = s - y[6]
		z[7] = s - y[7]
	}
}

// f32Lanes views 64 lanes of register bits as float32 values.
func f32Lanes(s []uint32) *[64]float32 { return (*[64]float32)(unsafe.Pointer((*[64]uint32)(s))) }

// unaryF32AllGo is unaryF32Fast's lane loop for EXEC all ones: v_rcp_f32
// (kind 0), v_rsq_f32 (1), v_sqrt_f32 (2) in float64, rounded once.
func unaryF32AllGo(kind int, d, a *[64]uint32) {
	fa, fd := f32Lanes(a[:]), f32Lanes(d[:])
	switch kind {
	case 0:
		for l := range fd {
			fd[l] = float32(1 / float64(fa[l]))
		}
	case 1:
		for l := range fd {
			fd[l] = float32(1 / math.Sqrt(float64(fa[l])))
		}
	default:
		for l := range fd {
			fd[l] = float32(math.Sqrt(float64(fa[l])))
		}
	}
}
