package emu

import (
	"math"
	"math/big"
	"math/bits"
)

// Floating-point helpers (DESIGN.md "Floating point"). Everything here is
// done in software so the host thread's MXCSR never matters and Go never
// contracts a multiply and an add into an FMA: each product that must be
// rounded is converted explicitly.

// Rounding modes of MODE.FP_ROUND.
const (
	rndNearest  = 0
	rndPlusInf  = 1
	rndMinusInf = 2
	rndZero     = 3
)

func f32(u uint32) float32 { return math.Float32frombits(u) }
func u32(f float32) uint32 { return math.Float32bits(f) }
func f64(u uint64) float64 { return math.Float64frombits(u) }
func u64(f float64) uint64 { return math.Float64bits(f) }

// flush32 flushes an f32 denormal to a zero of the same sign.
func flush32(u uint32) uint32 {
	if u&0x7F80_0000 == 0 {
		return u & 0x8000_0000
	}
	return u
}

func flush64(u uint64) uint64 {
	if u&0x7FF0_0000_0000_0000 == 0 {
		return u & (1 << 63)
	}
	return u
}

func flush16(u uint16) uint16 {
	if u&0x7C00 == 0 {
		return u & 0x8000
	}
	return u
}

// twoSum returns s = fl(a+b) and the exact error e with s+e = a+b.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return
}

// roundF32 rounds the exact value s+e (|e| at most half an ulp of s) to f32
// in rounding mode rnd.
func roundF32(s, e float64, rnd uint32) float32 {
	t := float32(s)
	if math.IsNaN(s) {
		return t
	}
	if float64(t) == s {
		if e == 0 || rnd == rndNearest {
			return t
		}
	}
	var lo, hi float32
	switch {
	case float64(t) == s && e > 0, float64(t) < s:
		lo, hi = t, math.Nextafter32(t, float32(math.Inf(1)))
	default:
		lo, hi = math.Nextafter32(t, float32(math.Inf(-1))), t
	}
	if math.IsInf(float64(t), 0) && !math.IsInf(s, 0) {
		// s is beyond the largest finite f32.
		if s > 0 {
			lo, hi = math.MaxFloat32, float32(math.Inf(1))
		} else {
			lo, hi = float32(math.Inf(-1)), -math.MaxFloat32
		}
	}
	switch rnd {
	case rndNearest:
		if float64(t) == s {
			return t
		}
		mid := (float64(lo) + float64(hi)) / 2
		if s == mid && e != 0 && !math.IsInf(float64(hi), 0) && !math.IsInf(float64(lo), 0) {
			if e > 0 {
				return hi
			}
			return lo
		}
		return t
	case rndPlusInf:
		return hi
	case rndMinusInf:
		return lo
	default: // toward zero
		if s > 0 || s == 0 && e > 0 {
			return lo
		}
		return hi
	}
}

// roundF64 rounds the exact value s+e (s = fl(s+e) to nearest) in mode rnd.
func roundF64(s, e float64, rnd uint32) float64 {
	if e == 0 || rnd == rndNearest || math.IsNaN(s) || math.IsInf(s, 0) {
		return s
	}
	var lo, hi float64
	if e > 0 {
		lo, hi = s, math.Nextafter(s, math.Inf(1))
	} else {
		lo, hi = math.Nextafter(s, math.Inf(-1)), s
	}
	switch rnd {
	case rndPlusInf:
		return hi
	case rndMinusInf:
		return lo
	default:
		if s > 0 {
			return lo
		}
		return hi
	}
}

// fma32 is the exactly rounded f32 fused multiply-add: the product of two
// f32 is exact in f64, and the sum is rounded once using its exact error.
func fma32(a, b, c float32, rnd uint32) float32 {
	p := float64(a) * float64(b)
	if rnd == rndNearest {
		// Fast path: rounding the f64 sum to f32 is a double rounding only
		// when the sum lands exactly on an f32 midpoint (f32 midpoints are
		// f64 values, so the first rounding cannot cross one).
		s := p + float64(c)
		if u := u64(s); u&0x1FFF_FFFF != 0x1000_0000 && u&0x7FF0_0000_0000_0000 >= 0x3810_0000_0000_0000 {
			return float32(s)
		}
	}
	if math.IsInf(p, 0) || math.IsNaN(p) || math.IsInf(float64(c), 0) || math.IsNaN(float64(c)) {
		return float32(p + float64(c))
	}
	s, e := twoSum(p, float64(c))
	if s == 0 && e == 0 {
		return float32(zeroSum(p, float64(c), rnd))
	}
	return roundF32(s, e, rnd)
}

// fma64 is the f64 fused multiply-add a·b+c rounded once in mode rnd. To
// nearest it is math.FMA; the directed modes (the slow path) form the exact
// product (106 bits) and the exact sum in math/big, then round that once to
// the f64 format: 53 bits, or fewer for results below the normal range
// (subnormals, rounded in the same mode), and beyond the largest finite
// value to infinity or ±MaxFloat64 as the mode directs (IEEE 754 §4.3,
// §7.4). An exactly zero sum takes the sign IEEE 754 §6.3 gives it.
func fma64(a, b, c float64, rnd uint32) float64 {
	r := math.FMA(a, b, c)
	if rnd == rndNearest || math.IsNaN(r) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0) {
		return r
	}
	// Exact: the product has at most 106 significant bits and the sum's
	// operands are at most 2·1074+106 bit positions apart.
	const exact = 106 + 2*1100
	p := new(big.Float).SetPrec(106).Mul(big.NewFloat(a), big.NewFloat(b))
	sum := new(big.Float).SetPrec(exact).Add(p, big.NewFloat(c))
	if sum.Sign() == 0 {
		return zeroSum(a*b, c, rnd)
	}
	mode := big.ToZero
	switch rnd {
	case rndPlusInf:
		mode = big.ToPositiveInf
	case rndMinusInf:
		mode = big.ToNegativeInf
	}
	prec := 53
	if e := sum.MantExp(nil) - 1; e < -1022 { // sum = m·2^e, 1 <= m < 2
		prec = 53 - (-1022 - e)
	}
	neg := sum.Sign() < 0
	if prec <= 0 {
		// 0 < |sum| < 2^-1074, the smallest subnormal: directed rounding
		// gives 0 or the smallest subnormal.
		up := rnd == rndPlusInf && !neg || rnd == rndMinusInf && neg
		if !up {
			return math.Copysign(0, float64(sum.Sign()))
		}
		return math.Copysign(math.SmallestNonzeroFloat64, float64(sum.Sign()))
	}
	rounded := new(big.Float).SetPrec(uint(prec)).SetMode(mode).Set(sum)
	f, _ := rounded.Float64() // exact: rounded fits the format
	if math.IsInf(f, 0) {
		away := rnd == rndPlusInf && !neg || rnd == rndMinusInf && neg
		if !away {
			return math.Copysign(math.MaxFloat64, f)
		}
	}
	return f
}

// zeroSum is a+b when it is exactly zero: IEEE 754 gives -0 when both are
// -0, and for opposite operands +0 except when rounding toward -inf.
func zeroSum(a, b float64, rnd uint32) float64 {
	if math.Signbit(a) && math.Signbit(b) {
		return math.Copysign(0, -1)
	}
	if rnd == rndMinusInf && (a != 0 || b != 0 || math.Signbit(a) != math.Signbit(b)) {
		return math.Copysign(0, -1)
	}
	return 0
}

// add32, mul32 … round once in mode rnd.
func add32(a, b float32, rnd uint32) float32 {
	if rnd == rndNearest {
		return a + b
	}
	s, e := twoSum(float64(a), float64(b))
	if s == 0 && e == 0 {
		return float32(zeroSum(float64(a), float64(b), rnd))
	}
	return roundF32(s, e, rnd)
}

func mul32(a, b float32, rnd uint32) float32 {
	if rnd == rndNearest {
		return a * b
	}
	return roundF32(float64(a)*float64(b), 0, rnd)
}

func add64(a, b float64, rnd uint32) float64 {
	if rnd == rndNearest {
		return a + b
	}
	s, e := twoSum(a, b)
	if s == 0 && e == 0 {
		return zeroSum(a, b, rnd)
	}
	return roundF64(s, e, rnd)
}

func mul64(a, b float64, rnd uint32) float64 {
	p := a * b
	if rnd == rndNearest {
		return p
	}
	return roundF64(p, math.FMA(a, b, -p), rnd)
}

// cvtI32 converts to int32 as v_cvt_i32_f32/f64 do: truncate, saturate,
// NaN gives 0.
func cvtI32(x float64) int32 {
	switch {
	case x != x:
		return 0
	case x >= 2147483647:
		return math.MaxInt32
	case x <= -2147483648:
		return math.MinInt32
	}
	return int32(x)
}

// cvtU32 converts to uint32: truncate, saturate, NaN and negatives give 0.
func cvtU32(x float64) uint32 {
	switch {
	case x != x || x <= 0:
		return 0
	case x >= 4294967295:
		return math.MaxUint32
	}
	return uint32(x)
}

func cvtI16(x float64) int16 {
	switch {
	case x != x:
		return 0
	case x >= 32767:
		return math.MaxInt16
	case x <= -32768:
		return math.MinInt16
	}
	return int16(x)
}

func cvtU16(x float64) uint16 {
	switch {
	case x != x || x <= 0:
		return 0
	case x >= 65535:
		return math.MaxUint16
	}
	return uint16(x)
}

// f16 conversions.

// f16to64 widens an IEEE half to float64 (exact).
func f16to64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h >> 10 & 0x1F)
	m := float64(h & 0x3FF)
	switch e {
	case 0:
		return sign * m * 0x1p-24
	case 31:
		if m == 0 {
			return math.Inf(int(sign))
		}
		return math.Float64frombits(u64(math.NaN())&^(1<<63) | uint64(h&0x8000)<<48 | uint64(h&0x3FF)<<42 | 1<<51)
	}
	return sign * (1 + m/1024) * math.Ldexp(1, e-15)
}

func f16to32(h uint16) float32 { return float32(f16to64(h)) }

// f16from64 rounds x to half precision in mode rnd (one rounding).
func f16from64(x float64, rnd uint32) uint16 {
	b := u64(x)
	sign := uint16(b>>48) & 0x8000
	if x != x {
		return sign | 0x7E00 | uint16(b>>42)&0x1FF
	}
	ax := math.Abs(x)
	if math.IsInf(x, 0) {
		return sign | 0x7C00
	}
	if ax == 0 {
		return sign
	}
	// Scale so the representable grid is integers: quantum q = 2^(e-10),
	// with e the exponent of ax clamped to the normal minimum -14.
	_, exp := math.Frexp(ax) // ax = f * 2^exp, f in [0.5,1)
	e := exp - 1
	if e < -14 {
		e = -14
	}
	q := math.Ldexp(1, e-10)
	n := ax / q // exact (power-of-two scaling)
	fl := math.Floor(n)
	frac := n - fl
	up := false
	neg := sign != 0
	switch rnd {
	case rndNearest:
		up = frac > 0.5 || frac == 0.5 && math.Mod(fl, 2) == 1
	case rndPlusInf:
		up = frac > 0 && !neg
	case rndMinusInf:
		up = frac > 0 && neg
	}
	if up {
		fl++
	}
	v := fl * q
	if v > 65504 {
		if rnd == rndZero || rnd == rndPlusInf && neg || rnd == rndMinusInf && !neg {
			return sign | 0x7BFF
		}
		return sign | 0x7C00
	}
	// Encode v.
	if v < 0x1p-14 {
		return sign | uint16(v/0x1p-24)
	}
	fr, ex := math.Frexp(v)
	m := uint16((fr*2 - 1) * 1024)
	return sign | uint16(ex-1+15)<<10 | m
}

// minNum/maxNum as the ISA's v_min/v_max in IEEE mode: a NaN operand yields
// the other operand (quieted if both are NaN); -0 orders below +0.
func minF64(a, b float64) float64 {
	switch {
	case a != a:
		if b != b {
			return math.NaN()
		}
		return b
	case b != b:
		return a
	case a == b:
		if math.Signbit(a) {
			return a
		}
		return b
	case a < b:
		return a
	}
	return b
}

func maxF64(a, b float64) float64 {
	switch {
	case a != a:
		if b != b {
			return math.NaN()
		}
		return b
	case b != b:
		return a
	case a == b:
		if math.Signbit(a) {
			return b
		}
		return a
	case a > b:
		return a
	}
	return b
}

func minF32(a, b float32) float32 {
	return float32(minF64(float64(a), float64(b)))
}

func maxF32(a, b float32) float32 {
	return float32(maxF64(float64(a), float64(b)))
}

// quiet32 returns the quieted NaN of a signaling NaN.
func quiet32(u uint32) uint32 {
	if u&0x7F80_0000 == 0x7F80_0000 && u&0x7F_FFFF != 0 {
		return u | 0x40_0000
	}
	return u
}

// clamp01 clamps to [0, 1]; NaN becomes 0 (DX10 clamp).
func clamp01(x float64) float64 {
	if x != x || x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// frexp exponent of v_frexp_exp: 0 for 0, inf, NaN.
func frexpExp(x float64) int32 {
	if x == 0 || math.IsInf(x, 0) || x != x {
		return 0
	}
	_, e := math.Frexp(x)
	return int32(e)
}

func frexpMant(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || x != x {
		return x
	}
	m, _ := math.Frexp(x)
	return m
}

// Integer helpers.

func ffbh32(v uint32) uint32 {
	if v == 0 {
		return 0xFFFFFFFF
	}
	return uint32(bits.LeadingZeros32(v))
}

func ffbl32(v uint32) uint32 {
	if v == 0 {
		return 0xFFFFFFFF
	}
	return uint32(bits.TrailingZeros32(v))
}

// ffbhI32 counts leading bits equal to the sign (v_ffbh_i32 / s_flbit_i32).
func ffbhI32(v uint32) uint32 {
	if v == 0 || v == 0xFFFFFFFF {
		return 0xFFFFFFFF
	}
	if int32(v) < 0 {
		v = ^v
	}
	return uint32(bits.LeadingZeros32(v))
}

func popcount(m uint64) int { return bits.OnesCount64(m) }

func lowestLane(m uint64) int { return bits.TrailingZeros64(m) }

func mathFloat32bits(f float32) uint32 { return math.Float32bits(f) }
