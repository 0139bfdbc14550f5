package emu

import (
	"math"
	"math/bits"
)

// semantic is a table entry: the function implementing an instruction, its
// counter class and the types of its sources (operand.go), which decide how
// inline constants and literals are materialised. The table is keyed by the
// LLVM mnemonic (without _e32/_e64/_sdwa/_dpp) and indexed by isa opcode at
// start-up (build.go).
type semantic struct {
	fn    func(w *wave, o *op)
	class uint8
	types string
}

var semantics = map[string]semantic{}

func def(name string, class uint8, types string, fn func(w *wave, o *op)) {
	if _, dup := semantics[name]; dup {
		panic("emu: duplicate semantic " + name)
	}
	semantics[name] = semantic{fn: fn, class: class, types: types}
}

func defV(name, types string, fn func(w *wave, o *op)) { def(name, ClassVALU, types, fn) }

// f32 helpers in the form runF32 takes.
func f1(f func(a float32) float32) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		if o.omod != 0 || o.clamp {
			runF32(w, o, 1, 0, func(a, _, _ float32, _ uint32) float32 { return f(a) })
			return
		}
		exec := w.exec()
		a := w.fsrc32(o, 0)[:64]
		d := w.vdst(&o.dst)[:64]
		inFlush, outFlush := w.mode&0x10 == 0, w.mode&0x20 == 0
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			x := a[l]
			if inFlush {
				x = flush32(x)
			}
			u := u32(f(f32(x)))
			if outFlush {
				u = flush32(u)
			}
			d[l] = u
		}
	}
}
func f2(f func(a, b float32, rnd uint32) float32) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		runF32(w, o, 2, 0, func(a, b, _ float32, r uint32) float32 { return f(a, b, r) })
	}
}
func d1(f func(a float64) float64) func(w *wave, o *op) {
	return func(w *wave, o *op) { runF64(w, o, 1, func(a, _, _ float64, _ uint32) float64 { return f(a) }) }
}
func d2(f func(a, b float64, rnd uint32) float64) func(w *wave, o *op) {
	return func(w *wave, o *op) { runF64(w, o, 2, func(a, b, _ float64, r uint32) float64 { return f(a, b, r) }) }
}
func h1(f func(a float64) float64) func(w *wave, o *op) {
	return func(w *wave, o *op) { runF16(w, o, 1, func(a, _, _ float64, _ uint32) float64 { return f(a) }) }
}
func h2(f func(a, b float64) float64) func(w *wave, o *op) {
	return func(w *wave, o *op) { runF16(w, o, 2, func(a, b, _ float64, _ uint32) float64 { return f(a, b) }) }
}
func h3(f func(a, b, c float64) float64) func(w *wave, o *op) {
	return func(w *wave, o *op) { runF16(w, o, 3, func(a, b, c float64, _ uint32) float64 { return f(a, b, c) }) }
}
func u1(f func(a uint32) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) { runU32(w, o, 1, func(a, _, _ uint32) uint32 { return f(a) }) }
}
func u2(f func(a, b uint32) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) { runU32(w, o, 2, func(a, b, _ uint32) uint32 { return f(a, b) }) }
}
func u3(f func(a, b, c uint32) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) { runU32(w, o, 3, f) }
}
func s2(f func(a, b uint32) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) { runU16(w, o, 2, func(a, b, _ uint32) uint32 { return f(a, b) }) }
}
func s3(f func(a, b, c uint32) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) { runU16(w, o, 3, f) }
}

// fcvt1 runs a one-source conversion whose source is f32 and whose result
// is a raw 32-bit value.
func fcvt1(f func(a float32) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc32(o, 0)
		d := w.vdst(&o.dst)
		flush := w.mode&0x10 == 0
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				x := a[l]
				if flush {
					x = flush32(x)
				}
				d[l] = f(f32(x))
			}
		}
	}
}

// dcvt1 runs a conversion from f64 to a raw 32-bit value.
func dcvt1(f func(a float64) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		lo, hi := w.fsrc64(o, 0)
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = f(f64(uint64(lo[l]) | uint64(hi[l])<<32))
			}
		}
	}
}

// tod runs a conversion from a raw 32-bit value to f64.
func tod(f func(a uint32) float64) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc32(o, 0)
		dlo, dhi := w.vdst64(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				u := u64(f(a[l]))
				dlo[l], dhi[l] = uint32(u), uint32(u>>32)
			}
		}
	}
}

func sext24(x uint32) int64 { return int64(int32(x<<8) >> 8) }

func fract64(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	r := x - math.Floor(x)
	if r >= 1 {
		r = math.Nextafter(1, 0)
	}
	return r
}

func fract32(x float32) float32 {
	if math.IsInf(float64(x), 0) {
		return float32(math.NaN())
	}
	r := float32(float64(x) - math.Floor(float64(x)))
	if r >= 1 {
		r = math.Nextafter32(1, 0)
	}
	return r
}

// ldexp32 is a·2^e rounded once to f32. With e clamped to ±300 the f64
// product of a and 2^e is exact (its exponent stays within ±450, normal in
// f64), so the conversion is the only rounding, as with math.Ldexp; the
// multiplication is several times faster (v_div_scale and v_ldexp in
// blackscholes' divisions: 8% of its profile through math.Ldexp).
func ldexp32(a float32, e int32) float32 {
	if e > 300 {
		e = 300
	} else if e < -300 {
		e = -300
	}
	return float32(float64(a) * math.Float64frombits(uint64(int64(e)+1023)<<52))
}

func rcp32(a float32) float32 { return float32(1 / float64(a)) }

func rsq32(a float32) float32 { return float32(1 / math.Sqrt(float64(a))) }

// sNaN32: in IEEE mode a signaling NaN operand of v_min/v_max gives that
// NaN quieted (GFX9 ISA: "if IEEE_MODE and S0 is sNaN, D = Quiet(S0)").
func sNaN32(a, b float32, ieee bool) (float32, bool) {
	if !ieee {
		return 0, false
	}
	for _, x := range [2]float32{a, b} {
		u := u32(x)
		if u&0x7F80_0000 == 0x7F80_0000 && u&0x7F_FFFF != 0 && u&0x40_0000 == 0 {
			return f32(u | 0x40_0000), true
		}
	}
	return 0, false
}

func sNaN64(a, b float64, ieee bool) (float64, bool) {
	if !ieee {
		return 0, false
	}
	for _, x := range [2]float64{a, b} {
		u := u64(x)
		if u&0x7FF0_0000_0000_0000 == 0x7FF0_0000_0000_0000 && u&0xF_FFFF_FFFF_FFFF != 0 && u&(1<<51) == 0 {
			return f64(u | 1<<51), true
		}
	}
	return 0, false
}

// legacy multiply: 0 times anything (including inf and NaN) is 0.
func mulLegacy(a, b float32, rnd uint32) float32 {
	if a == 0 || b == 0 {
		return 0
	}
	return mul32(a, b, rnd)
}

func med3F(a, b, c float64) float64 {
	if a != a || b != b || c != c {
		return minF64(minF64(a, b), c)
	}
	mx := maxF64(maxF64(a, b), c)
	switch mx {
	case a:
		return maxF64(b, c)
	case b:
		return maxF64(a, c)
	}
	return maxF64(a, b)
}

func med3I(a, b, c int32) int32 {
	mx := max(a, b, c)
	switch mx {
	case a:
		return max(b, c)
	case b:
		return max(a, c)
	}
	return max(a, b)
}

func med3U(a, b, c uint32) uint32 {
	mx := max(a, b, c)
	switch mx {
	case a:
		return max(b, c)
	case b:
		return max(a, c)
	}
	return max(a, b)
}

func bfe(a, off, width uint32) uint32 {
	off &= 31
	width &= 31
	if width == 0 {
		return 0
	}
	return a >> off & (1<<width - 1)
}

func bfeI(a, off, width uint32) uint32 {
	off &= 31
	width &= 31
	if width == 0 {
		return 0
	}
	v := a >> off & (1<<width - 1)
	if v>>(width-1)&1 != 0 {
		v |= ^uint32(0) << width
	}
	return v
}

func exponent32(x float32) int { return int(u32(x) >> 23 & 0xFF) }
func exponent64(x float64) int { return int(u64(x) >> 52 & 0x7FF) }

func isDenorm32(x float32) bool { return u32(x)&0x7F80_0000 == 0 && u32(x)&0x7F_FFFF != 0 }
func isDenorm64(x float64) bool {
	return u64(x)&0x7FF0_0000_0000_0000 == 0 && u64(x)&0xF_FFFF_FFFF_FFFF != 0
}

// divScale32 implements v_div_scale_f32 (S0 is the value to scale, S1 the
// denominator, S2 the numerator).
func divScale32(s0, s1, s2 float32) (float32, bool) {
	d, vcc := s0, false
	switch {
	case s2 == 0 || s1 == 0:
		d = float32(math.NaN())
	case exponent32(s2)-exponent32(s1) >= 96:
		vcc = true
		if s0 == s1 {
			d = ldexp32(s0, 64)
		}
	case isDenorm32(s1):
		d = ldexp32(s0, 64)
	case isDenorm32(1/s1) && isDenorm32(s2/s1):
		vcc = true
		if s0 == s1 {
			d = ldexp32(s0, 64)
		}
	case isDenorm32(1 / s1):
		d = ldexp32(s0, -64)
	case isDenorm32(s2 / s1):
		vcc = true
		if s0 == s2 {
			d = ldexp32(s0, 64)
		}
	case exponent32(s2) <= 23:
		d = ldexp32(s0, 64)
	}
	return d, vcc
}

func divScale64(s0, s1, s2 float64) (float64, bool) {
	d, vcc := s0, false
	switch {
	case s2 == 0 || s1 == 0:
		d = math.NaN()
	case exponent64(s2)-exponent64(s1) >= 768:
		vcc = true
		if s0 == s1 {
			d = math.Ldexp(s0, 128)
		}
	case isDenorm64(s1):
		d = math.Ldexp(s0, 128)
	case isDenorm64(1/s1) && isDenorm64(s2/s1):
		vcc = true
		if s0 == s1 {
			d = math.Ldexp(s0, 128)
		}
	case isDenorm64(1 / s1):
		d = math.Ldexp(s0, -128)
	case isDenorm64(s2 / s1):
		vcc = true
		if s0 == s2 {
			d = math.Ldexp(s0, 128)
		}
	case exponent64(s2) <= 53:
		d = math.Ldexp(s0, 128)
	}
	return d, vcc
}

// divFmasScale32 undoes v_div_scale_f32's scaling when VCC is set: the
// quotient estimate S2 is large when the denominator was scaled up (scale
// back up by 2^64) and small when the numerator was (scale down).
func divFmasScale32(v, s2 float32) float32 {
	e := 64
	if exponent32(s2) <= 127 {
		e = -64
	}
	return float32(math.Ldexp(float64(v), e))
}

// divFixup implements v_div_fixup (S0 quotient, S1 denominator, S2 numerator).
func divFixup(s0, s1, s2 float64, maxExp int, exp func(float64) int, under, over float64) float64 {
	neg := math.Signbit(s1) != math.Signbit(s2)
	sgn := func(x float64) float64 {
		if neg {
			return -x
		}
		return x
	}
	switch {
	case s2 != s2:
		return s2
	case s1 != s1:
		return s1
	case s1 == 0 && s2 == 0:
		return math.NaN()
	case math.IsInf(s1, 0) && math.IsInf(s2, 0):
		return math.NaN()
	case s1 == 0 || math.IsInf(s2, 0):
		return sgn(math.Inf(1))
	case math.IsInf(s1, 0) || s2 == 0:
		return sgn(0)
	case exp(s1) == maxExp:
		return sgn(over)
	}
	if s0 != s0 {
		return s0
	}
	return sgn(math.Abs(s0))
}

func init() {
	// VOP2 / VOP3 f32 arithmetic.
	defV("v_add_f32", "ff", f2(add32))
	defV("v_sub_f32", "ff", f2(func(a, b float32, r uint32) float32 { return add32(a, -b, r) }))
	defV("v_subrev_f32", "ff", f2(func(a, b float32, r uint32) float32 { return add32(b, -a, r) }))
	defV("v_mul_f32", "ff", f2(mul32))
	defV("v_mul_legacy_f32", "ff", f2(mulLegacy))
	defV("v_min_f32", "ff", func(w *wave, o *op) {
		ieee := w.mode&modeIEEE != 0
		runF32(w, o, 2, 0, func(a, b, _ float32, _ uint32) float32 {
			if q, ok := sNaN32(a, b, ieee); ok {
				return q
			}
			return minF32(a, b)
		})
	})
	defV("v_max_f32", "ff", func(w *wave, o *op) {
		ieee := w.mode&modeIEEE != 0
		runF32(w, o, 2, 0, func(a, b, _ float32, _ uint32) float32 {
			if q, ok := sNaN32(a, b, ieee); ok {
				return q
			}
			return maxF32(a, b)
		})
	})
	defV("v_ldexp_f32", "fi", func(w *wave, o *op) {
		runF32(w, o, 2, 0, func(a, b, _ float32, _ uint32) float32 { return ldexp32(a, int32(u32(b))) })
	})
	mad := func(w *wave, o *op) {
		runF32(w, o, 3, fFlushAlways, func(a, b, c float32, r uint32) float32 { return add32(mul32(a, b, r), c, r) })
	}
	fma := func(w *wave, o *op) {
		runF32(w, o, 3, 0, func(a, b, c float32, r uint32) float32 { return fma32(a, b, c, r) })
	}
	madLegacy := func(w *wave, o *op) {
		runF32(w, o, 3, fFlushAlways, func(a, b, c float32, r uint32) float32 { return add32(mulLegacy(a, b, r), c, r) })
	}
	defV("v_mad_f32", "fff", mad)
	defV("v_mac_f32", "fff", mad) // src2 is the destination (build.go)
	defV("v_madmk_f32", "fff", mad)
	defV("v_madak_f32", "fff", mad)
	defV("v_mad_legacy_f32", "fff", madLegacy)
	defV("v_mac_legacy_f32", "fff", madLegacy)
	defV("v_fma_f32", "fff", fma)
	defV("v_fmac_f32", "fff", fma)
	defV("v_fmamk_f32", "fff", fma)
	defV("v_fmaak_f32", "fff", fma)
	defV("v_fma_legacy_f32", "fff", func(w *wave, o *op) {
		runF32(w, o, 3, 0, func(a, b, c float32, r uint32) float32 {
			if a == 0 || b == 0 {
				return add32(0, c, r)
			}
			return fma32(a, b, c, r)
		})
	})
	defV("v_min3_f32", "fff", func(w *wave, o *op) {
		runF32(w, o, 3, 0, func(a, b, c float32, _ uint32) float32 { return minF32(minF32(a, b), c) })
	})
	defV("v_max3_f32", "fff", func(w *wave, o *op) {
		runF32(w, o, 3, 0, func(a, b, c float32, _ uint32) float32 { return maxF32(maxF32(a, b), c) })
	})
	defV("v_med3_f32", "fff", func(w *wave, o *op) {
		runF32(w, o, 3, 0, func(a, b, c float32, _ uint32) float32 {
			return float32(med3F(float64(a), float64(b), float64(c)))
		})
	})
	defV("v_div_fmas_f32", "fff", func(w *wave, o *op) {
		vcc := w.vcc()
		l := 0
		runF32(w, o, 3, 0, func(a, b, c float32, r uint32) float32 {
			// runF32 visits active lanes in order; recover the lane from a counter.
			for w.exec()>>l&1 == 0 {
				l++
			}
			v := fma32(a, b, c, r)
			if vcc>>l&1 != 0 {
				v = divFmasScale32(v, c)
			}
			l++
			return v
		})
	})
	defV("v_div_fixup_f32", "fff", func(w *wave, o *op) {
		runF32(w, o, 3, 0, func(a, b, c float32, _ uint32) float32 {
			return float32(divFixup(float64(a), float64(b), float64(c), 255, func(x float64) int { return exponent32(float32(x)) }, 0x1p-149, math.MaxFloat32))
		})
	})
	defV("v_div_scale_f32", "fff", func(w *wave, o *op) {
		exec := w.exec()
		a, b, c := w.fsrc32(o, 0), w.fsrc32(o, 1), w.fsrc32(o, 2)
		d := w.vdst(&o.dst)
		var vcc uint64
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			r, v := divScale32(f32(a[l]), f32(b[l]), f32(c[l]))
			d[l] = u32(r)
			if v {
				vcc |= 1 << l
			}
		}
		w.swrite64(&o.sdst, vcc)
	})

	// f32 unary.
	defV("v_mov_b32", "i", u1(func(a uint32) uint32 { return a }))
	defV("v_accvgpr_read_b32", "i", u1(func(a uint32) uint32 { return a }))
	defV("v_accvgpr_write_b32", "i", u1(func(a uint32) uint32 { return a }))
	defV("v_accvgpr_mov_b32", "i", u1(func(a uint32) uint32 { return a }))
	defV("v_nop", "", func(w *wave, o *op) {})
	defV("v_clrexcp", "", func(w *wave, o *op) {})
	defV("v_fract_f32", "f", f1(fract32))
	defV("v_trunc_f32", "f", f1(func(a float32) float32 { return float32(math.Trunc(float64(a))) }))
	defV("v_ceil_f32", "f", f1(func(a float32) float32 { return float32(math.Ceil(float64(a))) }))
	defV("v_floor_f32", "f", f1(func(a float32) float32 { return float32(math.Floor(float64(a))) }))
	defV("v_rndne_f32", "f", f1(func(a float32) float32 { return float32(math.RoundToEven(float64(a))) }))
	defV("v_exp_f32", "f", f1(func(a float32) float32 { return float32(math.Exp2(float64(a))) }))
	defV("v_log_f32", "f", f1(func(a float32) float32 { return float32(math.Log2(float64(a))) }))
	defV("v_exp_legacy_f32", "f", f1(func(a float32) float32 { return float32(math.Exp2(float64(a))) }))
	defV("v_log_legacy_f32", "f", f1(func(a float32) float32 { return float32(math.Log2(float64(a))) }))
	defV("v_rcp_f32", "f", f1(rcp32))
	defV("v_rcp_iflag_f32", "f", f1(rcp32))
	defV("v_rsq_f32", "f", f1(rsq32))
	defV("v_sqrt_f32", "f", f1(func(a float32) float32 { return float32(math.Sqrt(float64(a))) }))
	defV("v_sin_f32", "f", f1(func(a float32) float32 { return float32(math.Sin(float64(a) * 2 * math.Pi)) }))
	defV("v_cos_f32", "f", f1(func(a float32) float32 { return float32(math.Cos(float64(a) * 2 * math.Pi)) }))
	defV("v_frexp_mant_f32", "f", f1(func(a float32) float32 { return float32(frexpMant(float64(a))) }))
	defV("v_frexp_exp_i32_f32", "f", fcvt1(func(a float32) uint32 { return uint32(frexpExp(float64(a))) }))

	// Conversions.
	defV("v_cvt_i32_f32", "f", fcvt1(func(a float32) uint32 { return uint32(cvtI32(float64(a))) }))
	defV("v_cvt_u32_f32", "f", fcvt1(func(a float32) uint32 { return cvtU32(float64(a)) }))
	defV("v_cvt_rpi_i32_f32", "f", fcvt1(func(a float32) uint32 { return uint32(cvtI32(math.Floor(float64(a) + 0.5))) }))
	defV("v_cvt_flr_i32_f32", "f", fcvt1(func(a float32) uint32 { return uint32(cvtI32(math.Floor(float64(a)))) }))
	defV("v_cvt_f32_i32", "i", u1(func(a uint32) uint32 { return u32(float32(int32(a))) }))
	defV("v_cvt_f32_u32", "i", u1(func(a uint32) uint32 { return u32(float32(a)) }))
	defV("v_cvt_f32_ubyte0", "i", u1(func(a uint32) uint32 { return u32(float32(a & 0xFF)) }))
	defV("v_cvt_f32_ubyte1", "i", u1(func(a uint32) uint32 { return u32(float32(a >> 8 & 0xFF)) }))
	defV("v_cvt_f32_ubyte2", "i", u1(func(a uint32) uint32 { return u32(float32(a >> 16 & 0xFF)) }))
	defV("v_cvt_f32_ubyte3", "i", u1(func(a uint32) uint32 { return u32(float32(a >> 24)) }))
	defV("v_cvt_off_f32_i4", "i", u1(func(a uint32) uint32 { return u32(float32(int32(a<<28)>>28) / 16) }))
	defV("v_cvt_f16_f32", "f", func(w *wave, o *op) {
		rnd := w.mode >> 2 & 3
		exec := w.exec()
		a := w.fsrc32(o, 0)
		d := w.vdst(&o.dst)
		flushIn, flushOut := w.mode&0x10 == 0, w.mode&0x80 == 0
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			x := a[l]
			if flushIn {
				x = flush32(x)
			}
			h := f16from64(float64(f32(x)), rnd)
			if flushOut {
				h = flush16(h)
			}
			if o.opsel&8 != 0 { // op_sel dst: write the high half, keep the low
				d[l] = d[l]&0xFFFF | uint32(h)<<16
			} else {
				d[l] = uint32(h)
			}
		}
	})
	defV("v_cvt_f32_f16", "h", func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc16(o, 0, true)
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = u32(f16to32(uint16(a[l])))
			}
		}
	})
	defV("v_cvt_f32_f64", "F", dcvt1(func(a float64) uint32 { return u32(float32(a)) }))
	defV("v_cvt_i32_f64", "F", dcvt1(func(a float64) uint32 { return uint32(cvtI32(a)) }))
	defV("v_cvt_u32_f64", "F", dcvt1(func(a float64) uint32 { return cvtU32(a) }))
	defV("v_cvt_f64_f32", "f", tod(func(a uint32) float64 { return float64(f32(a)) }))
	defV("v_cvt_f64_i32", "i", tod(func(a uint32) float64 { return float64(int32(a)) }))
	defV("v_cvt_f64_u32", "i", tod(func(a uint32) float64 { return float64(a) }))
	defV("v_cvt_pkrtz_f16_f32", "ff", func(w *wave, o *op) {
		runF32Raw2(w, o, func(a, b float32) uint32 {
			return uint32(f16from64(float64(a), rndZero)) | uint32(f16from64(float64(b), rndZero))<<16
		})
	})
	defV("v_cvt_pknorm_i16_f32", "ff", func(w *wave, o *op) {
		n := func(x float32) uint32 {
			return uint32(uint16(cvtI16(math.RoundToEven(clampF(float64(x), -1, 1) * 32767))))
		}
		runF32Raw2(w, o, func(a, b float32) uint32 { return n(a) | n(b)<<16 })
	})
	defV("v_cvt_pknorm_u16_f32", "ff", func(w *wave, o *op) {
		n := func(x float32) uint32 { return uint32(cvtU16(math.RoundToEven(clampF(float64(x), 0, 1) * 65535))) }
		runF32Raw2(w, o, func(a, b float32) uint32 { return n(a) | n(b)<<16 })
	})
	defV("v_cvt_pk_u8_f32", "fii", func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc32(o, 0)
		b := w.vsrc(&o.src[1], &w.tmp[1])
		c := w.vsrc(&o.src[2], &w.tmp[2])
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				sh := (b[l] & 3) * 8
				v := uint32(cvtU32(math.RoundToEven(float64(f32(a[l]))))) // saturate to 0..2^32-1
				if v > 255 {
					v = 255
				}
				d[l] = c[l]&^(0xFF<<sh) | v<<sh
			}
		}
	})
	defV("v_cvt_pk_u16_u32", "ii", u2(func(a, b uint32) uint32 { return uint32(min(a, 0xFFFF)) | uint32(min(b, 0xFFFF))<<16 }))
	defV("v_cvt_pk_i16_i32", "ii", u2(func(a, b uint32) uint32 {
		s := func(x uint32) uint32 { return uint32(uint16(int16(max(min(int32(x), 32767), -32768)))) }
		return s(a) | s(b)<<16
	}))
	defV("v_pack_b32_f16", "hh", func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc16(o, 0, true)
		b := w.fsrc16(o, 1, true)
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l]&0xFFFF | b[l]<<16
			}
		}
	})

	// f64.
	defV("v_add_f64", "FF", d2(add64))
	defV("v_mul_f64", "FF", d2(mul64))
	defV("v_min_f64", "FF", func(w *wave, o *op) {
		ieee := w.mode&modeIEEE != 0
		runF64(w, o, 2, func(a, b, _ float64, _ uint32) float64 {
			if q, ok := sNaN64(a, b, ieee); ok {
				return q
			}
			return minF64(a, b)
		})
	})
	defV("v_max_f64", "FF", func(w *wave, o *op) {
		ieee := w.mode&modeIEEE != 0
		runF64(w, o, 2, func(a, b, _ float64, _ uint32) float64 {
			if q, ok := sNaN64(a, b, ieee); ok {
				return q
			}
			return maxF64(a, b)
		})
	})
	defV("v_fma_f64", "FFF", func(w *wave, o *op) {
		runF64(w, o, 3, fma64) // fp.go: exactly rounded in MODE's f64 rounding mode
	})
	defV("v_fmac_f64", "FFF", func(w *wave, o *op) {
		runF64(w, o, 3, fma64)
	})
	defV("v_ldexp_f64", "Fi", func(w *wave, o *op) {
		exec := w.exec()
		lo, hi := w.fsrc64(o, 0)
		e := w.vsrc(&o.src[1], &w.tmp[1])
		dlo, dhi := w.vdst64(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				x := f64(uint64(lo[l]) | uint64(hi[l])<<32)
				k := int(int32(e[l]))
				k = max(min(k, 4000), -4000)
				u := u64(outF64(o, math.Ldexp(x, k)))
				dlo[l], dhi[l] = uint32(u), uint32(u>>32)
			}
		}
	})
	defV("v_fract_f64", "F", d1(fract64))
	defV("v_trunc_f64", "F", d1(math.Trunc))
	defV("v_ceil_f64", "F", d1(math.Ceil))
	defV("v_floor_f64", "F", d1(math.Floor))
	defV("v_rndne_f64", "F", d1(math.RoundToEven))
	defV("v_rcp_f64", "F", d1(func(a float64) float64 { return 1 / a }))
	defV("v_rsq_f64", "F", d1(func(a float64) float64 { return 1 / math.Sqrt(a) }))
	defV("v_sqrt_f64", "F", d1(math.Sqrt))
	defV("v_frexp_mant_f64", "F", d1(frexpMant))
	defV("v_frexp_exp_i32_f64", "F", dcvt1(func(a float64) uint32 { return uint32(frexpExp(a)) }))
	defV("v_div_fixup_f64", "FFF", func(w *wave, o *op) {
		runF64(w, o, 3, func(a, b, c float64, _ uint32) float64 {
			return divFixup(a, b, c, 2047, exponent64, 0x1p-1074, math.MaxFloat64)
		})
	})
	defV("v_div_fmas_f64", "FFF", func(w *wave, o *op) {
		exec, vcc := w.exec(), w.vcc()
		l := 0
		runF64(w, o, 3, func(a, b, c float64, rnd uint32) float64 {
			for exec>>l&1 == 0 {
				l++
			}
			v := fma64(a, b, c, rnd) // MODE's f64 rounding, like v_fma_f64
			if vcc>>l&1 != 0 {
				if exponent64(c) > 1023 {
					v = math.Ldexp(v, 128)
				} else {
					v = math.Ldexp(v, -128)
				}
			}
			l++
			return v
		})
	})
	defV("v_div_scale_f64", "FFF", func(w *wave, o *op) {
		exec := w.exec()
		alo, ahi := w.fsrc64(o, 0)
		blo, bhi := w.fsrc64(o, 1)
		clo, chi := w.fsrc64(o, 2)
		dlo, dhi := w.vdst64(&o.dst)
		var vcc uint64
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			r, v := divScale64(f64(uint64(alo[l])|uint64(ahi[l])<<32), f64(uint64(blo[l])|uint64(bhi[l])<<32), f64(uint64(clo[l])|uint64(chi[l])<<32))
			u := u64(r)
			dlo[l], dhi[l] = uint32(u), uint32(u>>32)
			if v {
				vcc |= 1 << l
			}
		}
		w.swrite64(&o.sdst, vcc)
	})
	defV("v_trig_preop_f64", "Fi", func(w *wave, o *op) {
		exec := w.exec()
		lo, hi := w.fsrc64(o, 0)
		b := w.vsrc(&o.src[1], &w.tmp[1])
		dlo, dhi := w.vdst64(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				u := u64(trigPreop(f64(uint64(lo[l])|uint64(hi[l])<<32), b[l]&31))
				dlo[l], dhi[l] = uint32(u), uint32(u>>32)
			}
		}
	})

	// Integer VOP2/VOP3.
	defV("v_add_u32", "ii", func(w *wave, o *op) {
		if o.clamp {
			runU32(w, o, 2, func(a, b, _ uint32) uint32 {
				s, c := bits.Add32(a, b, 0)
				if c != 0 {
					return 0xFFFF_FFFF
				}
				return s
			})
			return
		}
		runU32(w, o, 2, func(a, b, _ uint32) uint32 { return a + b })
	})
	defV("v_sub_u32", "ii", func(w *wave, o *op) {
		runU32(w, o, 2, func(a, b, _ uint32) uint32 {
			if o.clamp && b > a {
				return 0
			}
			return a - b
		})
	})
	defV("v_subrev_u32", "ii", func(w *wave, o *op) {
		runU32(w, o, 2, func(a, b, _ uint32) uint32 {
			if o.clamp && a > b {
				return 0
			}
			return b - a
		})
	})
	defV("v_add_i32", "ii", func(w *wave, o *op) {
		runU32(w, o, 2, func(a, b, _ uint32) uint32 {
			s := int64(int32(a)) + int64(int32(b))
			if o.clamp {
				s = max(min(s, math.MaxInt32), math.MinInt32)
			}
			return uint32(s)
		})
	})
	defV("v_sub_i32", "ii", func(w *wave, o *op) {
		runU32(w, o, 2, func(a, b, _ uint32) uint32 {
			s := int64(int32(a)) - int64(int32(b))
			if o.clamp {
				s = max(min(s, math.MaxInt32), math.MinInt32)
			}
			return uint32(s)
		})
	})
	defV("v_add_co_u32", "ii", func(w *wave, o *op) {
		runCarry(w, o, false, func(a, b, _ uint32) (uint32, uint32) { return bits.Add32(a, b, 0) })
	})
	defV("v_addc_co_u32", "iiI", func(w *wave, o *op) {
		runCarry(w, o, true, func(a, b, c uint32) (uint32, uint32) { return bits.Add32(a, b, c) })
	})
	defV("v_sub_co_u32", "ii", func(w *wave, o *op) {
		runCarry(w, o, false, func(a, b, _ uint32) (uint32, uint32) { return bits.Sub32(a, b, 0) })
	})
	defV("v_subrev_co_u32", "ii", func(w *wave, o *op) {
		runCarry(w, o, false, func(a, b, _ uint32) (uint32, uint32) { return bits.Sub32(b, a, 0) })
	})
	defV("v_subb_co_u32", "iiI", func(w *wave, o *op) {
		runCarry(w, o, true, func(a, b, c uint32) (uint32, uint32) { return bits.Sub32(a, b, c) })
	})
	defV("v_subbrev_co_u32", "iiI", func(w *wave, o *op) {
		runCarry(w, o, true, func(a, b, c uint32) (uint32, uint32) { return bits.Sub32(b, a, c) })
	})
	defV("v_mul_lo_u32", "ii", u2(func(a, b uint32) uint32 { return a * b }))
	defV("v_mul_hi_u32", "ii", u2(func(a, b uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) }))
	defV("v_mul_hi_i32", "ii", u2(func(a, b uint32) uint32 { return uint32(int64(int32(a)) * int64(int32(b)) >> 32) }))
	defV("v_mul_i32_i24", "ii", u2(func(a, b uint32) uint32 { return uint32(sext24(a) * sext24(b)) }))
	defV("v_mul_hi_i32_i24", "ii", u2(func(a, b uint32) uint32 { return uint32(sext24(a) * sext24(b) >> 32) }))
	defV("v_mul_u32_u24", "ii", u2(func(a, b uint32) uint32 { return (a & 0xFFFFFF) * (b & 0xFFFFFF) }))
	defV("v_mul_hi_u32_u24", "ii", u2(func(a, b uint32) uint32 {
		return uint32(uint64(a&0xFFFFFF) * uint64(b&0xFFFFFF) >> 32)
	}))
	defV("v_mad_i32_i24", "iii", u3(func(a, b, c uint32) uint32 { return uint32(sext24(a)*sext24(b)) + c }))
	defV("v_mad_u32_u24", "iii", u3(func(a, b, c uint32) uint32 { return (a&0xFFFFFF)*(b&0xFFFFFF) + c }))
	defV("v_min_i32", "ii", u2(func(a, b uint32) uint32 { return uint32(min(int32(a), int32(b))) }))
	defV("v_max_i32", "ii", u2(func(a, b uint32) uint32 { return uint32(max(int32(a), int32(b))) }))
	defV("v_min_u32", "ii", u2(func(a, b uint32) uint32 { return min(a, b) }))
	defV("v_max_u32", "ii", u2(func(a, b uint32) uint32 { return max(a, b) }))
	defV("v_min3_i32", "iii", u3(func(a, b, c uint32) uint32 { return uint32(min(int32(a), int32(b), int32(c))) }))
	defV("v_max3_i32", "iii", u3(func(a, b, c uint32) uint32 { return uint32(max(int32(a), int32(b), int32(c))) }))
	defV("v_med3_i32", "iii", u3(func(a, b, c uint32) uint32 { return uint32(med3I(int32(a), int32(b), int32(c))) }))
	defV("v_min3_u32", "iii", u3(func(a, b, c uint32) uint32 { return min(a, b, c) }))
	defV("v_max3_u32", "iii", u3(func(a, b, c uint32) uint32 { return max(a, b, c) }))
	defV("v_med3_u32", "iii", u3(med3U))
	defV("v_lshrrev_b32", "ii", u2(func(a, b uint32) uint32 { return b >> (a & 31) }))
	defV("v_ashrrev_i32", "ii", u2(func(a, b uint32) uint32 { return uint32(int32(b) >> (a & 31)) }))
	defV("v_lshlrev_b32", "ii", u2(func(a, b uint32) uint32 { return b << (a & 31) }))
	defV("v_and_b32", "ii", u2(func(a, b uint32) uint32 { return a & b }))
	defV("v_or_b32", "ii", u2(func(a, b uint32) uint32 { return a | b }))
	defV("v_xor_b32", "ii", u2(func(a, b uint32) uint32 { return a ^ b }))
	defV("v_xnor_b32", "ii", u2(func(a, b uint32) uint32 { return ^(a ^ b) }))
	defV("v_not_b32", "i", u1(func(a uint32) uint32 { return ^a }))
	defV("v_bfrev_b32", "i", u1(bits.Reverse32))
	defV("v_ffbh_u32", "i", u1(ffbh32))
	defV("v_ffbl_b32", "i", u1(ffbl32))
	defV("v_ffbh_i32", "i", u1(ffbhI32))
	defV("v_bcnt_u32_b32", "ii", u2(func(a, b uint32) uint32 { return uint32(bits.OnesCount32(a)) + b }))
	defV("v_bfm_b32", "ii", u2(func(a, b uint32) uint32 { return (1<<(a&31) - 1) << (b & 31) }))
	defV("v_bfe_u32", "iii", u3(bfe))
	defV("v_bfe_i32", "iii", u3(bfeI))
	defV("v_bfi_b32", "iii", u3(func(a, b, c uint32) uint32 { return a&b | ^a&c }))
	defV("v_alignbit_b32", "iii", u3(func(a, b, c uint32) uint32 { return uint32((uint64(a)<<32 | uint64(b)) >> (c & 31)) }))
	defV("v_alignbyte_b32", "iii", u3(func(a, b, c uint32) uint32 { return uint32((uint64(a)<<32 | uint64(b)) >> (8 * (c & 3))) }))
	defV("v_lshl_add_u32", "iii", u3(func(a, b, c uint32) uint32 { return a<<(b&31) + c }))
	defV("v_add_lshl_u32", "iii", u3(func(a, b, c uint32) uint32 { return (a + b) << (c & 31) }))
	defV("v_add3_u32", "iii", u3(func(a, b, c uint32) uint32 { return a + b + c }))
	defV("v_lshl_or_b32", "iii", u3(func(a, b, c uint32) uint32 { return a<<(b&31) | c }))
	defV("v_and_or_b32", "iii", u3(func(a, b, c uint32) uint32 { return a&b | c }))
	defV("v_or3_b32", "iii", u3(func(a, b, c uint32) uint32 { return a | b | c }))
	defV("v_xad_u32", "iii", u3(func(a, b, c uint32) uint32 { return a ^ b + c }))
	defV("v_perm_b32", "iii", u3(perm))
	defV("v_sad_u32", "iii", u3(func(a, b, c uint32) uint32 {
		if a > b {
			return a - b + c
		}
		return b - a + c
	}))
	defV("v_sad_u8", "iii", u3(func(a, b, c uint32) uint32 {
		s := c
		for i := 0; i < 32; i += 8 {
			x, y := a>>i&0xFF, b>>i&0xFF
			if x > y {
				s += x - y
			} else {
				s += y - x
			}
		}
		return s
	}))
	defV("v_lerp_u8", "iii", u3(func(a, b, c uint32) uint32 {
		var r uint32
		for i := 0; i < 32; i += 8 {
			r |= ((a>>i&0xFF + b>>i&0xFF + c>>i&1) >> 1) << i
		}
		return r
	}))
	defV("v_mbcnt_lo_u32_b32", "ii", func(w *wave, o *op) {
		exec := w.exec()
		a := w.vsrc(&o.src[0], &w.tmp[0])
		b := w.vsrc(&o.src[1], &w.tmp[1])
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				m := a[l]
				if l < 32 {
					m &= 1<<uint(l) - 1
				}
				d[l] = uint32(bits.OnesCount32(m)) + b[l]
			}
		}
	})
	defV("v_mbcnt_hi_u32_b32", "ii", func(w *wave, o *op) {
		exec := w.exec()
		a := w.vsrc(&o.src[0], &w.tmp[0])
		b := w.vsrc(&o.src[1], &w.tmp[1])
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				m := a[l]
				if l < 64 && l >= 32 {
					m &= 1<<uint(l-32) - 1
				} else {
					m = 0
				}
				d[l] = uint32(bits.OnesCount32(m)) + b[l]
			}
		}
	})

	// 64-bit integer.
	defV("v_lshlrev_b64", "iI", func(w *wave, o *op) {
		runU64(w, o, 2, [3]bool{false, true}, func(a, b, _ uint64) uint64 { return b << (a & 63) })
	})
	defV("v_lshrrev_b64", "iI", func(w *wave, o *op) {
		runU64(w, o, 2, [3]bool{false, true}, func(a, b, _ uint64) uint64 { return b >> (a & 63) })
	})
	defV("v_ashrrev_i64", "iI", func(w *wave, o *op) {
		runU64(w, o, 2, [3]bool{false, true}, func(a, b, _ uint64) uint64 { return uint64(int64(b) >> (a & 63)) })
	})
	defV("v_mad_u64_u32", "iiI", func(w *wave, o *op) {
		runMad64(w, o, func(a, b uint32, c uint64) (uint64, bool) {
			hi, lo := bits.Mul64(uint64(a), uint64(b))
			s, carry := bits.Add64(lo, c, 0)
			return s, carry+hi != 0
		})
	})
	defV("v_mad_i64_i32", "iiI", func(w *wave, o *op) {
		runMad64(w, o, func(a, b uint32, c uint64) (uint64, bool) {
			p := int64(int32(a)) * int64(int32(b))
			s := p + int64(c)
			// Signed overflow of the 64-bit sum.
			return uint64(s), (p >= 0) == (int64(c) >= 0) && (s >= 0) != (p >= 0)
		})
	})

	// v_cndmask_b32: src2 is the lane mask (VCC for the e32 form).
	defV("v_cndmask_b32", "iiI", func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc32(o, 0)
		b := w.fsrc32(o, 1)
		m := w.sread64(&o.src[2])
		d := w.vdst(&o.dst)[:64]
		a, b = a[:64], b[:64]
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				if m>>l&1 != 0 {
					d[l] = b[l]
				} else {
					d[l] = a[l]
				}
			}
		}
	})

	// Lane access.
	defV("v_readfirstlane_b32", "i", func(w *wave, o *op) {
		exec := w.exec()
		l := 0
		if exec != 0 {
			l = bits.TrailingZeros64(exec)
		}
		a := w.vsrc(&o.src[0], &w.tmp[0])
		w.swrite32(&o.dst, a[l])
	})
	defV("v_readlane_b32", "ii", func(w *wave, o *op) {
		a := w.vsrc(&o.src[0], &w.tmp[0])
		l := w.sread32(&o.src[1]) & 63
		w.swrite32(&o.dst, a[l])
	})
	defV("v_writelane_b32", "ii", func(w *wave, o *op) {
		v := w.sread32(&o.src[0])
		l := w.sread32(&o.src[1]) & 63
		w.vdst(&o.dst)[l] = v
	})
	defV("v_swap_b32", "i", func(w *wave, o *op) {
		exec := w.exec()
		a := w.vdst(&o.src[0])
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				a[l], d[l] = d[l], a[l]
			}
		}
	})

	// f16 (GFX9).
	defV("v_add_f16", "hh", h2(func(a, b float64) float64 { return a + b }))
	defV("v_sub_f16", "hh", h2(func(a, b float64) float64 { return a - b }))
	defV("v_subrev_f16", "hh", h2(func(a, b float64) float64 { return b - a }))
	defV("v_mul_f16", "hh", h2(func(a, b float64) float64 { return a * b }))
	defV("v_min_f16", "hh", h2(minF64))
	defV("v_max_f16", "hh", h2(maxF64))
	defV("v_ldexp_f16", "hi", func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc16(o, 0, true)
		b := w.vsrc(&o.src[1], &w.tmp[1])
		d := w.vdst(&o.dst)
		rnd := w.mode >> 2 & 3
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				e := max(min(int(int16(b[l])), 100), -100)
				d[l] = uint32(f16from64(math.Ldexp(f16to64(uint16(a[l])), e), rnd))
			}
		}
	})
	fmaH := h3(func(a, b, c float64) float64 { return a*b + c }) // a*b is exact in f64; one rounding to f16 after the add
	defV("v_fma_f16", "hhh", fmaH)
	defV("v_fmac_f16", "hhh", fmaH)
	defV("v_mad_f16", "hhh", h3(func(a, b, c float64) float64 {
		return f16to64(f16from64(a*b, 0)) + c
	}))
	defV("v_mac_f16", "hhh", h3(func(a, b, c float64) float64 { return f16to64(f16from64(a*b, 0)) + c }))
	defV("v_madmk_f16", "hhh", h3(func(a, b, c float64) float64 { return f16to64(f16from64(a*b, 0)) + c }))
	defV("v_madak_f16", "hhh", h3(func(a, b, c float64) float64 { return f16to64(f16from64(a*b, 0)) + c }))
	defV("v_min3_f16", "hhh", h3(func(a, b, c float64) float64 { return minF64(minF64(a, b), c) }))
	defV("v_max3_f16", "hhh", h3(func(a, b, c float64) float64 { return maxF64(maxF64(a, b), c) }))
	defV("v_med3_f16", "hhh", h3(med3F))
	defV("v_sqrt_f16", "h", h1(math.Sqrt))
	defV("v_rcp_f16", "h", h1(func(a float64) float64 { return 1 / a }))
	defV("v_rsq_f16", "h", h1(func(a float64) float64 { return 1 / math.Sqrt(a) }))
	defV("v_log_f16", "h", h1(math.Log2))
	defV("v_exp_f16", "h", h1(math.Exp2))
	defV("v_sin_f16", "h", h1(func(a float64) float64 { return math.Sin(a * 2 * math.Pi) }))
	defV("v_cos_f16", "h", h1(func(a float64) float64 { return math.Cos(a * 2 * math.Pi) }))
	defV("v_floor_f16", "h", h1(math.Floor))
	defV("v_ceil_f16", "h", h1(math.Ceil))
	defV("v_trunc_f16", "h", h1(math.Trunc))
	defV("v_rndne_f16", "h", h1(math.RoundToEven))
	defV("v_fract_f16", "h", h1(fract64))
	defV("v_frexp_mant_f16", "h", h1(frexpMant))
	defV("v_cvt_f16_u16", "s", h1(func(a float64) float64 { return float64(uint16(u64(a))) }))
	defV("v_cvt_f16_i16", "s", h1(func(a float64) float64 { return float64(int16(u64(a))) }))
	defV("v_cvt_u16_f16", "h", cvtFromH(func(x float64) uint32 { return uint32(cvtU16(x)) }))
	defV("v_cvt_i16_f16", "h", cvtFromH(func(x float64) uint32 { return uint32(uint16(cvtI16(x))) }))
	defV("v_frexp_exp_i16_f16", "h", cvtFromH(func(x float64) uint32 { return uint32(uint16(int16(frexpExp(x)))) }))

	// 16-bit integer (GFX9).
	defV("v_add_u16", "ss", s2(func(a, b uint32) uint32 { return a + b }))
	defV("v_sub_u16", "ss", s2(func(a, b uint32) uint32 { return a - b }))
	defV("v_subrev_u16", "ss", s2(func(a, b uint32) uint32 { return b - a }))
	defV("v_mul_lo_u16", "ss", s2(func(a, b uint32) uint32 { return a * b }))
	defV("v_lshlrev_b16", "ss", s2(func(a, b uint32) uint32 { return b << (a & 15) }))
	defV("v_lshrrev_b16", "ss", s2(func(a, b uint32) uint32 { return b >> (a & 15) }))
	defV("v_ashrrev_i16", "ss", s2(func(a, b uint32) uint32 { return uint32(int16(b) >> (a & 15)) }))
	defV("v_max_u16", "ss", s2(func(a, b uint32) uint32 { return max(a, b) }))
	defV("v_min_u16", "ss", s2(func(a, b uint32) uint32 { return min(a, b) }))
	defV("v_max_i16", "ss", s2(func(a, b uint32) uint32 { return uint32(max(int16(a), int16(b))) }))
	defV("v_min_i16", "ss", s2(func(a, b uint32) uint32 { return uint32(min(int16(a), int16(b))) }))
	defV("v_add_i16", "ss", s2(func(a, b uint32) uint32 { return uint32(int16(a) + int16(b)) }))
	defV("v_sub_i16", "ss", s2(func(a, b uint32) uint32 { return uint32(int16(a) - int16(b)) }))
	defV("v_mad_u16", "sss", s3(func(a, b, c uint32) uint32 { return a*b + c }))
	defV("v_mad_i16", "sss", s3(func(a, b, c uint32) uint32 { return uint32(int16(a)*int16(b) + int16(c)) }))
	defV("v_mad_u32_u16", "ssi", func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc16(o, 0, false)
		b := w.fsrc16(o, 1, false)
		c := w.vsrc(&o.src[2], &w.tmp[2])
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = (a[l]&0xFFFF)*(b[l]&0xFFFF) + c[l]
			}
		}
	})
	defV("v_min3_i16", "sss", s3(func(a, b, c uint32) uint32 { return uint32(min(int16(a), int16(b), int16(c))) }))
	defV("v_max3_i16", "sss", s3(func(a, b, c uint32) uint32 { return uint32(max(int16(a), int16(b), int16(c))) }))
	defV("v_min3_u16", "sss", s3(func(a, b, c uint32) uint32 { return min(a, b, c) }))
	defV("v_max3_u16", "sss", s3(func(a, b, c uint32) uint32 { return max(a, b, c) }))
	defV("v_med3_u16", "sss", s3(med3U))
	defV("v_med3_i16", "sss", s3(func(a, b, c uint32) uint32 {
		return uint32(med3I(int32(int16(a)), int32(int16(b)), int32(int16(c))))
	}))
}

func clampF(x, lo, hi float64) float64 {
	if x != x {
		return 0
	}
	return math.Max(lo, math.Min(hi, x))
}

// runF32Raw2 runs a two-source f32 operation producing a raw 32-bit value.
func runF32Raw2(w *wave, o *op, f func(a, b float32) uint32) {
	exec := w.exec()
	a := w.fsrc32(o, 0)
	b := w.fsrc32(o, 1)
	d := w.vdst(&o.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			d[l] = f(f32(a[l]), f32(b[l]))
		}
	}
}

func cvtFromH(f func(x float64) uint32) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		a := w.fsrc16(o, 0, true)
		d := w.vdst(&o.dst)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = f(f16to64(uint16(a[l])))
			}
		}
	}
}

// runMad64 runs v_mad_u64_u32 / v_mad_i64_i32: 32x32+64 with a carry-out
// (overflow) SGPR pair.
func runMad64(w *wave, o *op, f func(a, b uint32, c uint64) (uint64, bool)) {
	exec := w.exec()
	a := w.vsrc(&o.src[0], &w.tmp[0])
	b := w.vsrc(&o.src[1], &w.tmp[1])
	clo, chi := w.vsrc64(&o.src[2], &w.tmp[2], &w.tmp[5])
	dlo, dhi := w.vdst64(&o.dst)
	var cout uint64
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		r, c := f(a[l], b[l], uint64(clo[l])|uint64(chi[l])<<32)
		dlo[l], dhi[l] = uint32(r), uint32(r>>32)
		if c {
			cout |= 1 << l
		}
	}
	w.swrite64(&o.sdst, cout)
}

// perm implements v_perm_b32's byte selector.
func perm(a, b, sel uint32) uint32 {
	src := uint64(a)<<32 | uint64(b)
	var r uint32
	for i := 0; i < 4; i++ {
		s := sel >> (8 * i) & 0xFF
		var v uint32
		switch {
		case s < 8:
			v = uint32(src >> (8 * s) & 0xFF)
		case s == 8:
			v = boolByte(src>>15&1 != 0)
		case s == 9:
			v = boolByte(src>>31&1 != 0)
		case s == 10:
			v = boolByte(src>>47&1 != 0)
		case s == 11:
			v = boolByte(src>>63&1 != 0)
		case s == 12:
			v = 0
		default:
			v = 0xFF
		}
		r |= v << (8 * i)
	}
	return r
}

func boolByte(b bool) uint32 {
	if b {
		return 0xFF
	}
	return 0
}

// trigPreop returns the segment of 2/pi selected by seg (v_trig_preop_f64).
func trigPreop(x float64, seg uint32) float64 {
	// 2/pi to 1200 bits (hex), from which 53-bit slices are taken.
	const twoOverPi = "A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041FE5163ABDEBBC561B7246E3A424DD2E006492EEA09D1921CFE1DEB1CB129A73EE88235F52EBB4484E99C7026B45F7E413991D639835339F49C845F8BBDF9283B1FF897FFDE05980FEF2F118B5A0A6D1F6D367ECF27CB09B74F463F669E5FEA2D7527BAC7EBE5F17B3D0739F78A5292EA6BFB5FB11F8D5D0856033046FC7B6BABF0CFBC209AF4361DA9E391615EE61B086599855F14A068408DFFD8804D73273106061556CA73A8C960E27BC08C6B"
	e := exponent64(x) - 1023
	shift := int(seg) * 53
	if e > 1077 {
		shift += e - 1077
	}
	// Take 53 bits starting at bit 'shift' of the fraction (bit 0 = 2^-1).
	var m uint64
	for i := 0; i < 53; i++ {
		bit := shift + i
		nib := bit / 4
		if nib >= len(twoOverPi) {
			break
		}
		c := twoOverPi[nib]
		var v uint64
		if c <= '9' {
			v = uint64(c - '0')
		} else {
			v = uint64(c-'A') + 10
		}
		m = m<<1 | v>>(3-uint(bit%4))&1
	}
	return math.Ldexp(float64(m), -shift-53)
}
