package emu

import "math"

// VOP3P packed math. Each 16-bit half of the result takes its operands'
// halves selected by op_sel (low result) and op_sel_hi (high result), with
// neg_lo / neg_hi (o.neg / o.abs here) applied to float operands.

type pk16fn func(a, b, c uint32, rnd uint32) uint32

func runPK16(w *wave, o *op, n int, float bool, f pk16fn) {
	exec := w.exec()
	var s [3][]uint32
	for i := 0; i < n; i++ {
		s[i] = w.vsrc(&o.src[i], &w.tmp[i])
	}
	d := w.vdst(&o.dst)
	rnd := w.mode >> 2 & 3
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var r uint32
		for h := 0; h < 2; h++ {
			var x [3]uint32
			sel, neg := o.opsel, o.neg
			if h == 1 {
				sel, neg = o.opselh, o.abs
			}
			for i := 0; i < n; i++ {
				v := s[i][l] >> (16 * uint(sel>>i&1)) & 0xFFFF
				if float && neg>>i&1 != 0 {
					v ^= 0x8000
				}
				x[i] = v
			}
			r |= f(x[0], x[1], x[2], rnd) & 0xFFFF << (16 * h)
		}
		if o.clamp && float {
			lo := f16from64(clamp01(f16to64(uint16(r))), 0)
			hi := f16from64(clamp01(f16to64(uint16(r>>16))), 0)
			r = uint32(lo) | uint32(hi)<<16
		}
		d[l] = r
	}
}

func pkF(f func(a, b, c float64) float64) pk16fn {
	return func(a, b, c uint32, rnd uint32) uint32 {
		return uint32(f16from64(f(f16to64(uint16(a)), f16to64(uint16(b)), f16to64(uint16(c))), rnd))
	}
}

// pk32VV is runPK32 for v_pk_add_f32 (kind 0) and v_pk_mul_f32 (1) in its
// common shape: VGPR sources and destination, no neg_lo/neg_hi, no clamp,
// EXEC all ones, the usual MODE, and no high-half source that is the
// destination's low register. It picks the registers from op_sel directly
// and runs the same lane loops, low result half first; it reports false for
// every other shape.
func pk32VV(w *wave, o *op, kind int) bool {
	if o.src[0].kind != kVGPR || o.src[1].kind != kVGPR || o.dst.kind != kVGPR ||
		o.neg|o.abs != 0 || o.clamp || w.mode&0x33 != 0x30 || !allOnes(w) {
		return false
	}
	d := int(o.dst.idx)
	a0, a1 := int(o.src[0].idx)+int(o.opsel&1), int(o.src[0].idx)+int(o.opselh&1)
	b0, b1 := int(o.src[1].idx)+int(o.opsel>>1&1), int(o.src[1].idx)+int(o.opselh>>1&1)
	if a1 == d || b1 == d {
		return false
	}
	v := func(r int) *[64]float32 { return f32Lanes(w.v[r<<6 : r<<6+64 : r<<6+64]) }
	if kind == 0 {
		f32AddVV(v(d), v(a0), v(b0))
		f32AddVV(v(d+1), v(a1), v(b1))
	} else {
		f32MulVV(v(d), v(a0), v(b0))
		f32MulVV(v(d+1), v(a1), v(b1))
	}
	return true
}

// runPK32 runs a gfx90a packed f32 operation on register pairs. The
// halves each result half reads are chosen once per instruction (op_sel for
// the low result, op_sel_hi for the high one); kind selects a specialised
// loop for add (0), mul (1) and fma (2) under the usual MODE.
func runPK32(w *wave, o *op, n int, kind int, f func(a, b, c float32, rnd uint32) float32) {
	if kind < 2 && pk32VV(w, o, kind) {
		return
	}
	exec := w.exec()
	var sel [2][3][]uint32 // [result half][source]
	for i := 0; i < n; i++ {
		lo, hi := w.vsrc64(&o.src[i], &w.tmp[i], &w.tmp[i+3])
		for h := 0; h < 2; h++ {
			bitsel, neg := o.opsel, o.neg
			if h == 1 {
				bitsel, neg = o.opselh, o.abs
			}
			s := lo
			if bitsel>>i&1 != 0 {
				s = hi
			}
			if neg>>i&1 != 0 {
				b := &w.tmp[6+3*h+i] // 6..11: free of the broadcast buffers 0..5
				for l := range b {
					b[l] = s[l] ^ 0x8000_0000
				}
				s = b[:]
			}
			sel[h][i] = s[:64]
		}
	}
	dlo, dhi := w.vdst64(&o.dst)
	d := [2][]uint32{dlo[:64], dhi[:64]}
	rnd := w.mode & 3
	// The low result half is written first; if a high-half source is the
	// destination's low register, use the per-lane path.
	alias := false
	for i := 0; i < n; i++ {
		alias = alias || &sel[1][i][0] == &d[0][0]
	}
	if w.mode&0x33 == 0x30 && !o.clamp && !alias {
		for h := 0; h < 2; h++ {
			a, b, dd := sel[h][0], sel[h][1], d[h]
			if exec == ^uint64(0) && kind < 2 {
				fa, fb, fd := f32Lanes(a), f32Lanes(b), f32Lanes(dd)
				if kind == 0 {
					f32AddVV(fd, fa, fb)
				} else {
					f32MulVV(fd, fa, fb)
				}
				continue
			}
			switch kind {
			case 0:
				for l := 0; l < 64; l++ {
					if exec>>l&1 != 0 {
						dd[l] = u32(f32(a[l]) + f32(b[l]))
					}
				}
				continue
			case 1:
				for l := 0; l < 64; l++ {
					if exec>>l&1 != 0 {
						dd[l] = u32(f32(a[l]) * f32(b[l]))
					}
				}
				continue
			}
		}
		if kind != 2 {
			return
		}
	}
	for h := 0; h < 2; h++ {
		for i := n; i < 3; i++ {
			sel[h][i] = sel[h][0]
		}
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var r [2]uint32
		for h := 0; h < 2; h++ {
			x, y, z := sel[h][0][l], sel[h][1][l], sel[h][2][l]
			if w.mode&0x10 == 0 {
				x, y, z = flush32(x), flush32(y), flush32(z)
			}
			v := f(f32(x), f32(y), f32(z), rnd)
			if o.clamp {
				v = float32(clamp01(float64(v)))
			}
			r[h] = u32(v)
			if w.mode&0x20 == 0 {
				r[h] = flush32(r[h])
			}
		}
		d[0][l], d[1][l] = r[0], r[1]
	}
}

func init() {
	defV("v_pk_add_f16", "pp", func(w *wave, o *op) { runPK16(w, o, 2, true, pkF(func(a, b, _ float64) float64 { return a + b })) })
	defV("v_pk_mul_f16", "pp", func(w *wave, o *op) { runPK16(w, o, 2, true, pkF(func(a, b, _ float64) float64 { return a * b })) })
	defV("v_pk_fma_f16", "ppp", func(w *wave, o *op) { runPK16(w, o, 3, true, pkF(func(a, b, c float64) float64 { return a*b + c })) })
	defV("v_pk_min_f16", "pp", func(w *wave, o *op) {
		runPK16(w, o, 2, true, pkF(func(a, b, _ float64) float64 { return minF64(a, b) }))
	})
	defV("v_pk_max_f16", "pp", func(w *wave, o *op) {
		runPK16(w, o, 2, true, pkF(func(a, b, _ float64) float64 { return maxF64(a, b) }))
	})
	i16 := func(f func(a, b, c uint32) uint32) pk16fn {
		return func(a, b, c, _ uint32) uint32 { return f(a, b, c) }
	}
	defV("v_pk_add_u16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return a + b })) })
	defV("v_pk_sub_u16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return a - b })) })
	defV("v_pk_add_i16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return a + b })) })
	defV("v_pk_sub_i16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return a - b })) })
	defV("v_pk_mul_lo_u16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return a * b })) })
	defV("v_pk_mad_u16", "qqq", func(w *wave, o *op) { runPK16(w, o, 3, false, i16(func(a, b, c uint32) uint32 { return a*b + c })) })
	defV("v_pk_mad_i16", "qqq", func(w *wave, o *op) { runPK16(w, o, 3, false, i16(func(a, b, c uint32) uint32 { return a*b + c })) })
	defV("v_pk_lshlrev_b16", "qq", func(w *wave, o *op) {
		runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return b << (a & 15) }))
	})
	defV("v_pk_lshrrev_b16", "qq", func(w *wave, o *op) {
		runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return b >> (a & 15) }))
	})
	defV("v_pk_ashrrev_i16", "qq", func(w *wave, o *op) {
		runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return uint32(int16(b) >> (a & 15)) }))
	})
	defV("v_pk_max_u16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return max(a, b) })) })
	defV("v_pk_min_u16", "qq", func(w *wave, o *op) { runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return min(a, b) })) })
	defV("v_pk_max_i16", "qq", func(w *wave, o *op) {
		runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return uint32(max(int16(a), int16(b))) }))
	})
	defV("v_pk_min_i16", "qq", func(w *wave, o *op) {
		runPK16(w, o, 2, false, i16(func(a, b, _ uint32) uint32 { return uint32(min(int16(a), int16(b))) }))
	})
	defV("v_pk_fma_f32", "PPP", func(w *wave, o *op) { runPK32(w, o, 3, 2, fma32) })
	defV("v_pk_mul_f32", "PP", func(w *wave, o *op) {
		runPK32(w, o, 2, 1, func(a, b, _ float32, r uint32) float32 { return mul32(a, b, r) })
	})
	defV("v_pk_add_f32", "PP", func(w *wave, o *op) {
		runPK32(w, o, 2, 0, func(a, b, _ float32, r uint32) float32 { return add32(a, b, r) })
	})
	// v_pk_mov_b32: D.lo = op_sel[0] ? src0.hi : src0.lo; D.hi = op_sel[1] ? src1.hi : src1.lo.
	defV("v_pk_mov_b32", "PP", func(w *wave, o *op) {
		exec := w.exec()
		alo, ahi := w.vsrc64(&o.src[0], &w.tmp[0], &w.tmp[3])
		blo, bhi := w.vsrc64(&o.src[1], &w.tmp[1], &w.tmp[4])
		dlo, dhi := w.vdst64(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			x, y := alo[l], blo[l]
			if o.opsel&1 != 0 {
				x = ahi[l]
			}
			if o.opsel&2 != 0 {
				y = bhi[l]
			}
			dlo[l], dhi[l] = x, y
		}
	})
	// Mixed precision: f16 or f32 sources per op_sel_hi.
	mix := func(w *wave, o *op, out int) {
		exec := w.exec()
		var s [3][]uint32
		for i := 0; i < 3; i++ {
			s[i] = w.vsrc(&o.src[i], &w.tmp[i])
		}
		d := w.vdst(&o.dst)
		rnd := w.mode & 3
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			var x [3]float64
			for i := 0; i < 3; i++ {
				v := s[i][l]
				if o.opselh>>i&1 != 0 {
					x[i] = f16to64(uint16(v >> (16 * uint(o.opsel>>i&1))))
				} else {
					x[i] = float64(f32(v))
				}
				if o.abs>>i&1 != 0 {
					x[i] = math.Abs(x[i])
				}
				if o.neg>>i&1 != 0 {
					x[i] = -x[i]
				}
			}
			r := fma32(float32(x[0]), float32(x[1]), float32(x[2]), rnd)
			if o.clamp {
				r = float32(clamp01(float64(r)))
			}
			switch out {
			case 0:
				d[l] = u32(r)
			case 1:
				d[l] = d[l]&0xFFFF0000 | uint32(f16from64(float64(r), 0))
			default:
				d[l] = d[l]&0xFFFF | uint32(f16from64(float64(r), 0))<<16
			}
		}
	}
	for _, n := range []string{"v_mad_mix_f32", "v_fma_mix_f32"} {
		defV(n, "fff", func(w *wave, o *op) { mix(w, o, 0) })
	}
	for _, n := range []string{"v_mad_mixlo_f16", "v_fma_mixlo_f16"} {
		defV(n, "fff", func(w *wave, o *op) { mix(w, o, 1) })
	}
	for _, n := range []string{"v_mad_mixhi_f16", "v_fma_mixhi_f16"} {
		defV(n, "fff", func(w *wave, o *op) { mix(w, o, 2) })
	}
	defV("v_dot2_f32_f16", "ppf", func(w *wave, o *op) {
		runU32(w, o, 3, func(a, b, c uint32) uint32 {
			s := f16to64(uint16(a))*f16to64(uint16(b)) + f16to64(uint16(a>>16))*f16to64(uint16(b>>16))
			return u32(float32(s + float64(f32(c))))
		})
	})
	defV("v_dot2_i32_i16", "qqi", u3(func(a, b, c uint32) uint32 {
		return uint32(int32(int16(a))*int32(int16(b)) + int32(int16(a>>16))*int32(int16(b>>16)) + int32(c))
	}))
	defV("v_dot2_u32_u16", "qqi", u3(func(a, b, c uint32) uint32 {
		return (a&0xFFFF)*(b&0xFFFF) + (a>>16)*(b>>16) + c
	}))
	defV("v_dot4_i32_i8", "iii", u3(func(a, b, c uint32) uint32 {
		s := int32(c)
		for i := 0; i < 32; i += 8 {
			s += int32(int8(a>>i)) * int32(int8(b>>i))
		}
		return uint32(s)
	}))
	defV("v_dot4_u32_u8", "iii", u3(func(a, b, c uint32) uint32 {
		s := c
		for i := 0; i < 32; i += 8 {
			s += (a >> i & 0xFF) * (b >> i & 0xFF)
		}
		return s
	}))
	defV("v_dot8_i32_i4", "iii", u3(func(a, b, c uint32) uint32 {
		s := int32(c)
		for i := 0; i < 32; i += 4 {
			s += int32(a<<(28-i)) >> 28 * (int32(b<<(28-i)) >> 28)
		}
		return uint32(s)
	}))
	defV("v_dot8_u32_u4", "iii", u3(func(a, b, c uint32) uint32 {
		s := c
		for i := 0; i < 32; i += 4 {
			s += (a >> i & 15) * (b >> i & 15)
		}
		return s
	}))
}

func init() {
	// gfx940 additions.
	defV("v_lshl_add_u64", "IiI", func(w *wave, o *op) {
		runU64(w, o, 3, [3]bool{true, false, true}, func(a, b, c uint64) uint64 { return a<<(b&7) + c })
	})
	defV("v_mov_b64", "I", func(w *wave, o *op) {
		runU64(w, o, 1, [3]bool{true}, func(a, _, _ uint64) uint64 { return a })
	})
	defM("buffer_inv", "", opNop)
}

func init() {
	// GFX8-compatible 16-bit "legacy" forms (op_sel is not applied; the
	// operations are the same on the low halves).
	defV("v_mad_legacy_u16", "sss", s3(func(a, b, c uint32) uint32 { return a*b + c }))
	defV("v_mad_legacy_i16", "sss", s3(func(a, b, c uint32) uint32 { return uint32(int16(a)*int16(b) + int16(c)) }))
	defV("v_mad_legacy_f16", "hhh", h3(func(a, b, c float64) float64 { return f16to64(f16from64(a*b, 0)) + c }))
	defV("v_fma_legacy_f16", "hhh", h3(func(a, b, c float64) float64 { return a*b + c }))
	fixup16 := h3(func(a, b, c float64) float64 {
		return divFixup(a, b, c, 31, func(float64) int { return 0 }, 0x1p-24, 65504)
	})
	defV("v_div_fixup_f16", "hhh", fixup16)
	defV("v_div_fixup_legacy_f16", "hhh", fixup16)
}

func init() {
	// VGPR indexing relative to M0 (v_movrel*): lane-wise moves between
	// registers whose numbers are offset by M0.
	movrel := func(srcRel, dstRel bool) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			m0 := uint16(w.s[sM0])
			s, d := o.src[0], o.dst
			if srcRel && s.kind == kVGPR {
				s.idx += m0
			}
			if dstRel {
				d.idx += m0
			}
			exec := w.exec()
			a := w.vsrc(&s, &w.tmp[0])
			dd := w.vdst(&d)
			for l := 0; l < 64; l++ {
				if exec>>l&1 != 0 {
					dd[l] = a[l]
				}
			}
		}
	}
	defV("v_movreld_b32", "i", movrel(false, true))
	defV("v_movrels_b32", "i", movrel(true, false))
	defV("v_movrelsd_b32", "i", movrel(true, true))
	defV("v_movrelsd_2_b32", "i", movrel(true, true))
}
