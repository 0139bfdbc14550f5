package emu

import "math"

// MAI / MFMA matrix instructions of gfx908, gfx90a and gfx94x (AMD
// Instinct MI100 and MI200 ISA reference guides, "Matrix Arithmetic
// Instructions"; register layouts as the AMD Matrix Instruction Calculator
// prints them).
//
// v_mfma_<dt>_MxNxK<st> computes, for each of B blocks b, D[b] = C[b] +
// A[b] × B[b] with A[b] M×K and B[b] K×N. Each lane holds e consecutive k
// elements of one row of A (src0) and of one column of B (src1), packed
// little-endian into 32-bit registers: lane l = i + M·g holds A[b][i][k] for
// k in e·(g mod K/e) … +e-1 of block b = g / (K/e) (so with one block the
// lane groups walk k; with K = e they walk the blocks). B is the same with
// column j. C (src2) and D (vdst) hold B·M·N/64 registers per lane:
//   - 32×32 blocks: 16 registers per block; register 16b+r of lane l is
//     element (8·(r/4) + 4·(l/32) + r%4, l%32);
//   - 16×16 blocks: 4 registers per block; register 4b+r of lane l is
//     element (4·(l/16) + r, l%16);
//   - 4×4 blocks (16 of them): register r of lane l is element (r, l%4) of
//     block l/4.
//
// The products are exact in float64 and summed with C in float64, then
// rounded once to f32 (round to nearest even), which equals the hardware
// result whenever the sum is exact (as in the tests); integer forms wrap.
// CBSZ/ABID/BLGP broadcasts are not implemented (the decoder's fields are
// rejected in buildOp). All 64 lanes are computed whatever EXEC holds
// (the matrix spans the wave; compilers issue MFMA with EXEC all ones).

type mfmaShape struct {
	m, n, k, blocks int
	elem            byte // 'f' f32, 'h' f16, 'b' bf16, 'i' i8
	e               int  // elements per lane per operand
}

func init() {
	shapes := map[string]mfmaShape{
		"v_mfma_f32_32x32x1f32":  {32, 32, 1, 2, 'f', 1},
		"v_mfma_f32_16x16x1f32":  {16, 16, 1, 4, 'f', 1},
		"v_mfma_f32_4x4x1f32":    {4, 4, 1, 16, 'f', 1},
		"v_mfma_f32_32x32x2f32":  {32, 32, 2, 1, 'f', 1},
		"v_mfma_f32_16x16x4f32":  {16, 16, 4, 1, 'f', 1},
		"v_mfma_f32_32x32x4f16":  {32, 32, 4, 2, 'h', 4},
		"v_mfma_f32_16x16x4f16":  {16, 16, 4, 4, 'h', 4},
		"v_mfma_f32_4x4x4f16":    {4, 4, 4, 16, 'h', 4},
		"v_mfma_f32_32x32x8f16":  {32, 32, 8, 1, 'h', 4},
		"v_mfma_f32_16x16x16f16": {16, 16, 16, 1, 'h', 4},
		"v_mfma_i32_32x32x4i8":   {32, 32, 4, 2, 'i', 4},
		"v_mfma_i32_16x16x4i8":   {16, 16, 4, 4, 'i', 4},
		"v_mfma_i32_4x4x4i8":     {4, 4, 4, 16, 'i', 4},
		"v_mfma_i32_32x32x8i8":   {32, 32, 8, 1, 'i', 4},
		"v_mfma_i32_16x16x16i8":  {16, 16, 16, 1, 'i', 4},
		"v_mfma_i32_32x32x16_i8": {32, 32, 16, 1, 'i', 8},
		"v_mfma_i32_16x16x32_i8": {16, 16, 32, 1, 'i', 8},
		"v_mfma_f32_32x32x2bf16": {32, 32, 2, 2, 'b', 2},
		"v_mfma_f32_16x16x2bf16": {16, 16, 2, 4, 'b', 2},
		"v_mfma_f32_4x4x2bf16":   {4, 4, 2, 16, 'b', 2},
		"v_mfma_f32_32x32x4bf16": {32, 32, 4, 1, 'b', 2},
		"v_mfma_f32_16x16x8bf16": {16, 16, 8, 1, 'b', 2},
		// gfx90a's _1k forms; gfx940 spells them _2b/_4b/_16b and _bf16.
		"v_mfma_f32_32x32x4bf16_1k":  {32, 32, 4, 2, 'b', 4},
		"v_mfma_f32_16x16x4bf16_1k":  {16, 16, 4, 4, 'b', 4},
		"v_mfma_f32_4x4x4bf16_1k":    {4, 4, 4, 16, 'b', 4},
		"v_mfma_f32_32x32x8bf16_1k":  {32, 32, 8, 1, 'b', 4},
		"v_mfma_f32_16x16x16bf16_1k": {16, 16, 16, 1, 'b', 4},
		"v_mfma_f32_32x32x4_2b_bf16": {32, 32, 4, 2, 'b', 4},
		"v_mfma_f32_16x16x4_4b_bf16": {16, 16, 4, 4, 'b', 4},
		"v_mfma_f32_4x4x4_16b_bf16":  {4, 4, 4, 16, 'b', 4},
		"v_mfma_f32_32x32x8_bf16":    {32, 32, 8, 1, 'b', 4},
		"v_mfma_f32_16x16x16_bf16":   {16, 16, 16, 1, 'b', 4},
	}
	for name, s := range shapes {
		s := s
		types := "iif"
		if s.elem == 'i' {
			types = "iii"
		}
		defV(name, types, func(w *wave, o *op) { execMFMA(w, o, &s) })
	}
}

// mfmaElem returns element t of a lane's packed operand as a float64 (or,
// for i8, the integer value).
func mfmaElem(regs [][]uint32, l, t int, elem byte) float64 {
	switch elem {
	case 'f':
		return float64(f32(regs[t][l]))
	case 'h', 'b':
		h := uint16(regs[t/2][l] >> (16 * uint(t&1)))
		if elem == 'h' {
			return f16to64(h)
		}
		return float64(math.Float32frombits(uint32(h) << 16))
	}
	return float64(int8(regs[t/4][l] >> (8 * uint(t&3))))
}

// mfmaReg returns register r of a multi-register vector operand, or a
// broadcast of its scalar value into buf.
func (w *wave) mfmaReg(s *operand, r int, buf *[64]uint32) []uint32 {
	switch s.kind {
	case kVGPR:
		i := (int(s.idx) + r) << 6
		return w.v[i : i+64 : i+64]
	case kAGPR:
		i := (int(s.idx) + r) << 6
		return w.a[i : i+64 : i+64]
	}
	return w.vsrc(s, buf)
}

func execMFMA(w *wave, o *op, s *mfmaShape) {
	bits := 32
	switch s.elem {
	case 'h', 'b':
		bits = 16
	case 'i':
		bits = 8
	}
	nin := (s.e*bits + 31) / 32
	var ar, br [2][]uint32
	for r := 0; r < nin; r++ {
		ar[r] = w.mfmaReg(&o.src[0], r, &w.tmp[r])
		br[r] = w.mfmaReg(&o.src[1], r, &w.tmp[2+r])
	}
	kg := s.k / s.e // lane groups per block
	nout := s.blocks * s.m * s.n / 64
	if len(w.mfma) < nout*64 {
		w.mfma = make([]uint32, 32*64)
	}
	acc := w.mfma[:nout*64]
	for r := 0; r < nout; r++ {
		copy(acc[r*64:(r+1)*64], w.mfmaReg(&o.src[2], r, &w.tmp[4]))
	}
	for r := 0; r < nout; r++ {
		for l := 0; l < 64; l++ {
			var b, i, j int
			switch s.m {
			case 32:
				b, i, j = r/16, 8*(r%16/4)+4*(l/32)+r%4, l%32
			case 16:
				b, i, j = r/4, 4*(l/16)+r%4, l%16
			default:
				b, i, j = l/4, r, l%4
			}
			x := acc[r*64+l]
			if s.elem == 'i' {
				sum := int32(x)
				for k := 0; k < s.k; k++ {
					g := b*kg + k/s.e
					sum += int32(mfmaElem(ar[:nin], i+s.m*g, k%s.e, 'i')) * int32(mfmaElem(br[:nin], j+s.n*g, k%s.e, 'i'))
				}
				acc[r*64+l] = uint32(sum)
				continue
			}
			sum := float64(f32(x))
			for k := 0; k < s.k; k++ {
				g := b*kg + k/s.e
				sum += mfmaElem(ar[:nin], i+s.m*g, k%s.e, s.elem) * mfmaElem(br[:nin], j+s.n*g, k%s.e, s.elem)
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
