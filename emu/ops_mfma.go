package emu

import (
	"fmt"
	"math"
	"strings"
)

// MAI / MFMA matrix instructions of gfx908, gfx90a and gfx94x (AMD
// Instinct MI100, MI200 and MI300 ISA reference guides, "Matrix Arithmetic
// Instructions"; register layouts, broadcast and swizzle fields as the AMD
// Matrix Instruction Calculator gives them for CDNA1-3).
//
// v_mfma_<dt>_MxNxK<st> computes, for each of B blocks b, D[b] = C[b] +
// A[b] × B[b] with A[b] M×K and B[b] K×N. Each lane holds e consecutive k
// elements of one row of A (src0) and of one column of B (src1), packed
// little-endian into 32-bit registers (f64: one element in a register
// pair): lane l = i + M·g holds A[b][i][k] for k in e·(g mod K/e) … +e-1 of
// block b = g / (K/e) (so with one block the lane groups walk k; with K = e
// they walk the blocks); v_mfma_f64_4x4x4f64 alone puts the blocks inside
// the k groups (g = b + 4·k). B is the same with column j. C (src2) and D
// (vdst) hold B·M·N/64 elements per lane:
//   - 32×32 f32/i32 blocks: 16 registers per block; register 16b+r of lane
//     l is element (8·(r/4) + 4·(l/32) + r%4, l%32);
//   - 16×16 f32/i32 blocks: 4 registers per block; register 4b+r of lane l
//     is element (4·(l/16) + r, l%16);
//   - 4×4 f32/i32 blocks (16 of them): register r of lane l is element
//     (r, l%4) of block l/4;
//   - 16×16 f64: register pair p of lane l is element (4·p + l/16, l%16);
//   - 4×4 f64 (4 blocks): lane l holds element (l/16, l%4) of block
//     (l/4)%4.
//
// Modifiers (VOP3P-MAI CBSZ, ABID, BLGP): with CBSZ = c > 0 every block b
// reads A from block (b with its low c bits replaced by ABID), the
// broadcast of one block to each group of 2^c blocks; BLGP swizzles the
// lanes B is read from: 1 lanes 0-31 also into 32-63, 2 lanes 32-63 into
// 0-31, 3 rotate down by 16 (lane l reads lane (l+16) mod 64), 4-7 lanes
// 16·(BLGP-4) … +15 into all four groups of 16. On gfx94x the f64 forms
// read BLGP as neg bits (negate A, B, C), as LLVM's printer spells them.
// CBSZ/ABID on single-block forms, ABID ≥ 2^CBSZ, 2^CBSZ above the block
// count, any field on gfx90a's f64 forms and on gfx940's xf32 and FP8/BF8
// forms, and BLGP on gfx94x's single-block f16, bf16 and i8 forms (which
// the calculator lists as not supporting them) fault as not supported.
//
// Element types: f32, f16, bf16, i8, f64, xf32 (gfx940: f32 operands, two
// per lane; the products are formed from the full f32 inputs, which is the
// hardware's result whenever the inputs are representable in xf32's 10-bit
// mantissa, as in the tests) and gfx940's FP8 (E4M3, exponent bias 8) and
// BF8 (E5M2, bias 16), both without infinities and with 0x80 the only NaN.
// The f32 forms' products are exact in float64 and summed with C in float64,
// then rounded once to f32 (round to nearest even), which equals the
// hardware result whenever the sum is exact (as in the tests); the f64
// forms accumulate C + Σ a·b with one fused multiply-add per k in
// increasing k; integer forms wrap. All 64 lanes are computed whatever EXEC
// holds (the matrix spans the wave; compilers issue MFMA with EXEC all
// ones).

type mfmaShape struct {
	m, n, k, blocks int
	ea, eb          byte // element type of A, B: 'f' f32 (also xf32), 'h' f16, 'b' bf16, 'i' i8, 'd' f64, '8' fp8, '5' bf8
	e               int  // elements per lane per operand
	kOuter          bool // lane group g = b + blocks·(k/e) (v_mfma_f64_4x4x4f64)
	mods            byte // 'a' CBSZ/ABID and BLGP, 'g' BLGP only, 'n' none, 'N' BLGP is neg (gfx94x f64), 's' sparse
}

func init() {
	f := func(m, n, k, blocks int, elem byte, e int) mfmaShape {
		mods := byte('g')
		if blocks > 1 {
			mods = 'a'
		}
		return mfmaShape{m: m, n: n, k: k, blocks: blocks, ea: elem, eb: elem, e: e, mods: mods}
	}
	shapes := map[string]mfmaShape{
		"v_mfma_f32_32x32x1f32":  f(32, 32, 1, 2, 'f', 1),
		"v_mfma_f32_16x16x1f32":  f(16, 16, 1, 4, 'f', 1),
		"v_mfma_f32_4x4x1f32":    f(4, 4, 1, 16, 'f', 1),
		"v_mfma_f32_32x32x2f32":  f(32, 32, 2, 1, 'f', 1),
		"v_mfma_f32_16x16x4f32":  f(16, 16, 4, 1, 'f', 1),
		"v_mfma_f32_32x32x4f16":  f(32, 32, 4, 2, 'h', 4),
		"v_mfma_f32_16x16x4f16":  f(16, 16, 4, 4, 'h', 4),
		"v_mfma_f32_4x4x4f16":    f(4, 4, 4, 16, 'h', 4),
		"v_mfma_f32_32x32x8f16":  f(32, 32, 8, 1, 'h', 4),
		"v_mfma_f32_16x16x16f16": f(16, 16, 16, 1, 'h', 4),
		"v_mfma_i32_32x32x4i8":   f(32, 32, 4, 2, 'i', 4),
		"v_mfma_i32_16x16x4i8":   f(16, 16, 4, 4, 'i', 4),
		"v_mfma_i32_4x4x4i8":     f(4, 4, 4, 16, 'i', 4),
		"v_mfma_i32_32x32x8i8":   f(32, 32, 8, 1, 'i', 4),
		"v_mfma_i32_16x16x16i8":  f(16, 16, 16, 1, 'i', 4),
		"v_mfma_i32_32x32x16_i8": f(32, 32, 16, 1, 'i', 8),
		"v_mfma_i32_16x16x32_i8": f(16, 16, 32, 1, 'i', 8),
		"v_mfma_f32_32x32x2bf16": f(32, 32, 2, 2, 'b', 2),
		"v_mfma_f32_16x16x2bf16": f(16, 16, 2, 4, 'b', 2),
		"v_mfma_f32_4x4x2bf16":   f(4, 4, 2, 16, 'b', 2),
		"v_mfma_f32_32x32x4bf16": f(32, 32, 4, 1, 'b', 2),
		"v_mfma_f32_16x16x8bf16": f(16, 16, 8, 1, 'b', 2),
		// gfx90a's _1k forms; gfx940 spells them _2b/_4b/_16b and _bf16.
		"v_mfma_f32_32x32x4bf16_1k":  f(32, 32, 4, 2, 'b', 4),
		"v_mfma_f32_16x16x4bf16_1k":  f(16, 16, 4, 4, 'b', 4),
		"v_mfma_f32_4x4x4bf16_1k":    f(4, 4, 4, 16, 'b', 4),
		"v_mfma_f32_32x32x8bf16_1k":  f(32, 32, 8, 1, 'b', 4),
		"v_mfma_f32_16x16x16bf16_1k": f(16, 16, 16, 1, 'b', 4),
		"v_mfma_f32_32x32x4_2b_bf16": f(32, 32, 4, 2, 'b', 4),
		"v_mfma_f32_16x16x4_4b_bf16": f(16, 16, 4, 4, 'b', 4),
		"v_mfma_f32_4x4x4_16b_bf16":  f(4, 4, 4, 16, 'b', 4),
		"v_mfma_f32_32x32x8_bf16":    f(32, 32, 8, 1, 'b', 4),
		"v_mfma_f32_16x16x16_bf16":   f(16, 16, 16, 1, 'b', 4),
		// f64 (gfx90a names; gfx940's read BLGP as neg bits).
		"v_mfma_f64_16x16x4f64":   {m: 16, n: 16, k: 4, blocks: 1, ea: 'd', eb: 'd', e: 1, mods: 'n'},
		"v_mfma_f64_4x4x4f64":     {m: 4, n: 4, k: 4, blocks: 4, ea: 'd', eb: 'd', e: 1, kOuter: true, mods: 'n'},
		"v_mfma_f64_16x16x4_f64":  {m: 16, n: 16, k: 4, blocks: 1, ea: 'd', eb: 'd', e: 1, mods: 'N'},
		"v_mfma_f64_4x4x4_4b_f64": {m: 4, n: 4, k: 4, blocks: 4, ea: 'd', eb: 'd', e: 1, kOuter: true, mods: 'N'},
		// gfx940 xf32, fp8/bf8 (no CBSZ/ABID/BLGP per the calculator).
		"v_mfma_f32_16x16x8_xf32":     {m: 16, n: 16, k: 8, blocks: 1, ea: 'f', eb: 'f', e: 2, mods: 'n'},
		"v_mfma_f32_32x32x4_xf32":     {m: 32, n: 32, k: 4, blocks: 1, ea: 'f', eb: 'f', e: 2, mods: 'n'},
		"v_mfma_f32_16x16x32_fp8_fp8": {m: 16, n: 16, k: 32, blocks: 1, ea: '8', eb: '8', e: 8, mods: 'n'},
		"v_mfma_f32_16x16x32_fp8_bf8": {m: 16, n: 16, k: 32, blocks: 1, ea: '8', eb: '5', e: 8, mods: 'n'},
		"v_mfma_f32_16x16x32_bf8_fp8": {m: 16, n: 16, k: 32, blocks: 1, ea: '5', eb: '8', e: 8, mods: 'n'},
		"v_mfma_f32_16x16x32_bf8_bf8": {m: 16, n: 16, k: 32, blocks: 1, ea: '5', eb: '5', e: 8, mods: 'n'},
		"v_mfma_f32_32x32x16_fp8_fp8": {m: 32, n: 32, k: 16, blocks: 1, ea: '8', eb: '8', e: 8, mods: 'n'},
		"v_mfma_f32_32x32x16_fp8_bf8": {m: 32, n: 32, k: 16, blocks: 1, ea: '8', eb: '5', e: 8, mods: 'n'},
		"v_mfma_f32_32x32x16_bf8_fp8": {m: 32, n: 32, k: 16, blocks: 1, ea: '5', eb: '8', e: 8, mods: 'n'},
		"v_mfma_f32_32x32x16_bf8_bf8": {m: 32, n: 32, k: 16, blocks: 1, ea: '5', eb: '5', e: 8, mods: 'n'},
	}
	sparse := map[string]mfmaShape{
		"v_smfmac_f32_16x16x32_f16":     {m: 16, n: 16, k: 32, ea: 'h', eb: 'h', e: 8},
		"v_smfmac_f32_32x32x16_f16":     {m: 32, n: 32, k: 16, ea: 'h', eb: 'h', e: 8},
		"v_smfmac_f32_16x16x32_bf16":    {m: 16, n: 16, k: 32, ea: 'b', eb: 'b', e: 8},
		"v_smfmac_f32_32x32x16_bf16":    {m: 32, n: 32, k: 16, ea: 'b', eb: 'b', e: 8},
		"v_smfmac_i32_16x16x64_i8":      {m: 16, n: 16, k: 64, ea: 'i', eb: 'i', e: 16},
		"v_smfmac_i32_32x32x32_i8":      {m: 32, n: 32, k: 32, ea: 'i', eb: 'i', e: 16},
		"v_smfmac_f32_16x16x64_fp8_fp8": {m: 16, n: 16, k: 64, ea: '8', eb: '8', e: 16},
		"v_smfmac_f32_16x16x64_fp8_bf8": {m: 16, n: 16, k: 64, ea: '8', eb: '5', e: 16},
		"v_smfmac_f32_16x16x64_bf8_fp8": {m: 16, n: 16, k: 64, ea: '5', eb: '8', e: 16},
		"v_smfmac_f32_16x16x64_bf8_bf8": {m: 16, n: 16, k: 64, ea: '5', eb: '5', e: 16},
		"v_smfmac_f32_32x32x32_fp8_fp8": {m: 32, n: 32, k: 32, ea: '8', eb: '8', e: 16},
		"v_smfmac_f32_32x32x32_fp8_bf8": {m: 32, n: 32, k: 32, ea: '8', eb: '5', e: 16},
		"v_smfmac_f32_32x32x32_bf8_fp8": {m: 32, n: 32, k: 32, ea: '5', eb: '8', e: 16},
		"v_smfmac_f32_32x32x32_bf8_bf8": {m: 32, n: 32, k: 32, ea: '5', eb: '5', e: 16},
	}
	for name, s := range sparse {
		s := s
		s.blocks, s.mods = 1, 's'
		shapes[name] = s
		defV(name, "iii", func(w *wave, o *op) { execSMFMAC(w, o, &s) })
	}
	mfmaShapes = shapes
	for name, s := range shapes {
		if s.mods == 's' {
			continue
		}
		s := s
		types := "iif"
		switch s.ea {
		case 'i':
			types = "iii"
		case 'd':
			types = "FFF"
		}
		defV(name, types, func(w *wave, o *op) { execMFMA(w, o, &s) })
	}
}

// mfmaShapes holds every MFMA form's shape by mnemonic.
var mfmaShapes map[string]mfmaShape

// mfmaShapeFor returns the shape of MFMA mnemonic name, or nil.
func mfmaShapeFor(name string) *mfmaShape {
	if s, ok := mfmaShapes[name]; ok {
		return &s
	}
	return nil
}

// mfmaBits is the width of an element of type elem.
func mfmaBits(elem byte) int {
	switch elem {
	case 'h', 'b':
		return 16
	case 'i', '8', '5':
		return 8
	case 'd':
		return 64
	}
	return 32
}

// mfmaElem returns element t of a lane's packed operand as a float64 (or,
// for i8, the integer value).
func mfmaElem(regs [][]uint32, l, t int, elem byte) float64 {
	switch elem {
	case 'f':
		return float64(f32(regs[t][l]))
	case 'd':
		return math.Float64frombits(uint64(regs[2*t][l]) | uint64(regs[2*t+1][l])<<32)
	case 'h', 'b':
		h := uint16(regs[t/2][l] >> (16 * uint(t&1)))
		if elem == 'h' {
			return f16to64(h)
		}
		return float64(math.Float32frombits(uint32(h) << 16))
	}
	b := uint8(regs[t/4][l] >> (8 * uint(t&3)))
	switch elem {
	case '8':
		return fp8ToF64(b, 4, 8)
	case '5':
		return fp8ToF64(b, 5, 16)
	}
	return float64(int8(b))
}

// fp8ToF64 decodes gfx940's 8-bit floats: sign, ebits of exponent with the
// given bias, 7-ebits of mantissa; exponent 0 is subnormal; no infinities,
// and 0x80 (negative zero's pattern) is the NaN.
func fp8ToF64(b uint8, ebits uint, bias int) float64 {
	if b == 0x80 {
		return math.NaN()
	}
	mbits := 7 - ebits
	e := int(b>>mbits) & (1<<ebits - 1)
	mant := float64(b & (1<<mbits - 1))
	var v float64
	if e == 0 {
		v = math.Ldexp(mant, 1-bias-int(mbits))
	} else {
		v = math.Ldexp(mant+float64(int(1)<<mbits), e-bias-int(mbits))
	}
	if b&0x80 != 0 {
		v = -v
	}
	return v
}

// mfmaReg returns register r of a multi-register vector operand, or a
// broadcast of its constant value into buf (for 64-bit elements, register r
// of a constant is its low word for even r and its high word for odd r).
func (w *wave) mfmaReg(s *operand, r int, wide bool, buf *[64]uint32) []uint32 {
	switch s.kind {
	case kVGPR:
		i := (int(s.idx) + r) << 6
		return w.v[i : i+64 : i+64]
	case kAGPR:
		i := (int(s.idx) + r) << 6
		return w.a[i : i+64 : i+64]
	case kConst:
		if wide {
			v := uint32(s.val >> (32 * uint(r&1)))
			for l := range buf {
				buf[l] = v
			}
			return buf[:]
		}
	}
	return w.vsrc(s, buf)
}

// mfmaUnsupported faults for a modifier the instruction does not have.
func mfmaUnsupported(w *wave, what string) {
	panic(&Fault{Kind: FaultUnimplemented, PC: w.curPC, Lane: -1,
		Detail: fmt.Sprintf("MFMA %s: %v", what, ErrNotSupported), err: ErrNotSupported})
}

// mfmaMods decodes o.imm (CBSZ | ABID<<4 | BLGP<<8, set by buildOp) for s.
func mfmaMods(w *wave, o *op, s *mfmaShape) (cbsz, abid, blgp, neg uint) {
	cbsz, abid, blgp = uint(o.imm&7), uint(o.imm>>4&15), uint(o.imm>>8&7)
	switch s.mods {
	case 'N':
		neg, blgp = blgp, 0
		fallthrough
	case 'n':
		if cbsz|abid|blgp != 0 {
			mfmaUnsupported(w, fmt.Sprintf("cbsz:%d abid:%d blgp:%d on a form without them", cbsz, abid, blgp))
		}
	case 'g':
		if cbsz|abid != 0 {
			mfmaUnsupported(w, fmt.Sprintf("cbsz:%d abid:%d on a single-block form", cbsz, abid))
		}
		if blgp != 0 && s.ea != 'f' && w.r != nil && strings.HasPrefix(w.r.dev.cfg.Processor, "gfx94") {
			// CDNA3 dropped BLGP from the single-block f16, bf16 and i8 forms.
			mfmaUnsupported(w, fmt.Sprintf("blgp:%d on a gfx94x single-block %c form", blgp, s.ea))
		}
	default:
		if 1<<cbsz > s.blocks || abid >= 1<<cbsz && abid != 0 {
			mfmaUnsupported(w, fmt.Sprintf("cbsz:%d abid:%d with %d blocks", cbsz, abid, s.blocks))
		}
	}
	return
}

// blgpLane is the lane B is read from for lane l under BLGP pattern p.
func blgpLane(p uint, l int) int {
	switch p {
	case 1:
		return l & 31
	case 2:
		return l | 32
	case 3:
		return (l + 16) & 63
	case 4, 5, 6, 7:
		return int(p-4)*16 + l&15
	}
	return l
}

func execMFMA(w *wave, o *op, s *mfmaShape) {
	cbsz, abid, blgp, neg := mfmaMods(w, o, s)
	nina := (s.e*mfmaBits(s.ea) + 31) / 32
	ninb := (s.e*mfmaBits(s.eb) + 31) / 32
	var ar, br [2][]uint32
	for r := 0; r < nina; r++ {
		ar[r] = w.mfmaReg(&o.src[0], r, s.ea == 'd', &w.tmp[r])
	}
	for r := 0; r < ninb; r++ {
		br[r] = w.mfmaReg(&o.src[1], r, s.eb == 'd', &w.tmp[2+r])
	}
	wide := s.ea == 'd'
	kg := s.k / s.e // lane groups per block
	nelem := s.blocks * s.m * s.n / 64
	nout := nelem
	if wide {
		nout *= 2
	}
	if len(w.mfma) < nout*64 {
		w.mfma = make([]uint32, 32*64)
	}
	acc := w.mfma[:nout*64]
	for r := 0; r < nout; r++ {
		copy(acc[r*64:(r+1)*64], w.mfmaReg(&o.src[2], r, wide, &w.tmp[4]))
	}
	group := func(b, k int) int {
		if s.kOuter {
			return b + s.blocks*(k/s.e)
		}
		return b*kg + k/s.e
	}
	for r := 0; r < nelem; r++ {
		for l := 0; l < 64; l++ {
			var b, i, j int
			switch {
			case wide && s.m == 16:
				b, i, j = 0, 4*r+l/16, l%16
			case wide:
				b, i, j = l/4%4, l/16, l%4
			case s.m == 32:
				b, i, j = r/16, 8*(r%16/4)+4*(l/32)+r%4, l%32
			case s.m == 16:
				b, i, j = r/4, 4*(l/16)+r%4, l%16
			default:
				b, i, j = l/4, r, l%4
			}
			ab := b
			if cbsz > 0 {
				ab = b>>cbsz<<cbsz | int(abid)
			}
			if wide {
				x := math.Float64frombits(uint64(acc[2*r*64+l]) | uint64(acc[(2*r+1)*64+l])<<32)
				if neg&4 != 0 {
					x = -x
				}
				for k := 0; k < s.k; k++ {
					a := mfmaElem(ar[:nina], i+s.m*group(ab, k), k%s.e, 'd')
					bv := mfmaElem(br[:ninb], blgpLane(blgp, j+s.n*group(b, k)), k%s.e, 'd')
					if neg&1 != 0 {
						a = -a
					}
					if neg&2 != 0 {
						bv = -bv
					}
					x = math.FMA(a, bv, x)
				}
				u := math.Float64bits(x)
				acc[2*r*64+l], acc[(2*r+1)*64+l] = uint32(u), uint32(u>>32)
				continue
			}
			x := acc[r*64+l]
			if s.ea == 'i' {
				sum := int32(x)
				for k := 0; k < s.k; k++ {
					sum += int32(mfmaElem(ar[:nina], i+s.m*group(ab, k), k%s.e, 'i')) *
						int32(mfmaElem(br[:ninb], blgpLane(blgp, j+s.n*group(b, k)), k%s.e, 'i'))
				}
				acc[r*64+l] = uint32(sum)
				continue
			}
			sum := float64(f32(x))
			for k := 0; k < s.k; k++ {
				sum += mfmaElem(ar[:nina], i+s.m*group(ab, k), k%s.e, s.ea) *
					mfmaElem(br[:ninb], blgpLane(blgp, j+s.n*group(b, k)), k%s.e, s.eb)
			}
			acc[r*64+l] = u32(float32(sum))
		}
	}
	for r := 0; r < nout; r++ {
		i := (int(o.dst.idx) + r) << 6
		if o.dst.kind == kAGPR {
			copy(w.a[i:i+64], acc[r*64:(r+1)*64])
		} else {
			copy(w.v[i:i+64], acc[r*64:(r+1)*64])
		}
	}
}

// execSMFMAC runs gfx940's sparse v_smfmac_* (MI300 ISA guide; AMD Matrix
// Instruction Calculator README, "compression index"): D += A·B with D
// (vdst) also the accumulator, A stored with 4:2 structured sparsity and
// src2 a VGPR of compression indices. Per lane the dense layout is the
// MFMA one with e = s.e k elements per lane group (lane i + M·(k/e)); of
// each chunk of 4 consecutive k only 2 values of A are stored, in value
// slots 2c and 2c+1 for chunk c = (k mod e)/4, and the index VGPR holds a
// 4-bit field per chunk at bit 4c of the lane's index set: two 2-bit
// positions within the chunk, the low one for slot 2c. The index set is
// e bits wide (8 for 16-bit, 16 for 8-bit inputs); CBSZ = 0 selects set
// ABID, any other CBSZ set 0. B and D are as in the dense forms; BLGP is
// not supported.
func execSMFMAC(w *wave, o *op, s *mfmaShape) {
	cbsz, abid, blgp := uint(o.imm&7), uint(o.imm>>4&15), uint(o.imm>>8&7)
	sets := uint(32 / s.e)
	if blgp != 0 || cbsz == 0 && abid >= sets {
		mfmaUnsupported(w, fmt.Sprintf("cbsz:%d abid:%d blgp:%d on a sparse form", cbsz, abid, blgp))
	}
	shift := uint(0)
	if cbsz == 0 {
		shift = abid * uint(s.e)
	}
	bits := mfmaBits(s.ea)
	nina := (s.e / 2 * bits) / 32
	ninb := (s.e * bits) / 32
	var ar, br [4][]uint32
	for r := 0; r < nina; r++ {
		ar[r] = w.mfmaReg(&o.src[0], r, false, &w.tmp[r])
	}
	for r := 0; r < ninb; r++ {
		br[r] = w.mfmaReg(&o.src[1], r, false, &w.tmp[4+r])
	}
	idx := w.mfmaReg(&o.src[2], 0, false, &w.tmp[8])
	nout := s.m * s.n / 64
	if len(w.mfma) < 32*64 {
		w.mfma = make([]uint32, 32*64)
	}
	acc := w.mfma[:nout*64]
	for r := 0; r < nout; r++ {
		copy(acc[r*64:(r+1)*64], w.mfmaReg(&o.dst, r, false, &w.tmp[9]))
	}
	groups := s.k / s.e
	for r := 0; r < nout; r++ {
		for l := 0; l < 64; l++ {
			var i, j int
			if s.m == 32 {
				i, j = 8*(r/4)+4*(l/32)+r%4, l%32
			} else {
				i, j = 4*(l/16)+r%4, l%16
			}
			fsum, isum := float64(f32(acc[r*64+l])), int32(acc[r*64+l])
			for g := 0; g < groups; g++ {
				la, lb := i+s.m*g, j+s.n*g
				for c := 0; c < s.e/4; c++ {
					field := idx[la] >> (shift + uint(4*c)) & 0xF
					for t := 0; t < 2; t++ {
						pos := int(field>>(2*uint(t))) & 3
						if s.ea == 'i' {
							isum += int32(mfmaElem(ar[:nina], la, 2*c+t, 'i')) * int32(mfmaElem(br[:ninb], lb, 4*c+pos, 'i'))
							continue
						}
						fsum += mfmaElem(ar[:nina], la, 2*c+t, s.ea) * mfmaElem(br[:ninb], lb, 4*c+pos, s.eb)
					}
				}
			}
			if s.ea == 'i' {
				acc[r*64+l] = uint32(isum)
			} else {
				acc[r*64+l] = u32(float32(fsum))
			}
		}
	}
	for r := 0; r < nout; r++ {
		i := (int(o.dst.idx) + r) << 6
		if o.dst.kind == kAGPR {
			copy(w.a[i:i+64], acc[r*64:(r+1)*64])
		} else {
			copy(w.v[i:i+64], acc[r*64:(r+1)*64])
		}
	}
}
