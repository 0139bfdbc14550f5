package emu

import (
	"math"
	"testing"
)

// TestFMA64Directed: fma64 in each rounding mode on cases worked out from
// the IEEE 754 definition (the exact a·b+c, then rounded once).
func TestFMA64Directed(t *testing.T) {
	p := math.Ldexp
	one52 := 1 + p(1, -52)
	type want [4]float64 // nearest, +inf, -inf, zero
	cases := []struct {
		name    string
		a, b, c float64
		want    want
	}{
		// (1+2^-52)^2 = 1 + 2^-51 + 2^-104.
		{"square", one52, one52, 0, want{1 + p(1, -51), 1 + p(1, -51) + p(1, -52), 1 + p(1, -51), 1 + p(1, -51)}},
		{"-square", -one52, one52, 0, want{-(1 + p(1, -51)), -(1 + p(1, -51)), -(1 + p(1, -51) + p(1, -52)), -(1 + p(1, -51))}},
		// 1·1 + 2^-1074 and 1·1 - 2^-1074: only the directed modes see the addend.
		{"1+tiny", 1, 1, p(1, -1074), want{1, 1 + p(1, -52), 1, 1}},
		{"1-tiny", 1, 1, -p(1, -1074), want{1, 1, 1 - p(1, -53), 1 - p(1, -53)}},
		// (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105, exact in f64.
		{"cancel", one52, 1 - p(1, -53), -1, want{p(1, -53) - p(1, -105), p(1, -53) - p(1, -105), p(1, -53) - p(1, -105), p(1, -53) - p(1, -105)}},
		// Overflow: to infinity only when the mode rounds away from zero.
		{"overflow", math.MaxFloat64, 2, 0, want{math.Inf(1), math.Inf(1), math.MaxFloat64, math.MaxFloat64}},
		{"-overflow", -math.MaxFloat64, 2, 0, want{math.Inf(-1), -math.MaxFloat64, math.Inf(-1), -math.MaxFloat64}},
		// Subnormal result 2^-1070 + 2^-1122: rounded at the subnormal
		// spacing 2^-1074, not at 53 bits.
		{"subnormal", p(1, -1000), one52 * p(1, -70), 0, want{p(1, -1070), p(1, -1070) + p(1, -1074), p(1, -1070), p(1, -1070)}},
		// Below the smallest subnormal: 2^-1200.
		{"underflow", p(1, -600), p(1, -600), 0, want{0, p(1, -1074), 0, 0}},
		{"-underflow", -p(1, -600), p(1, -600), 0, want{math.Copysign(0, -1), math.Copysign(0, -1), -p(1, -1074), math.Copysign(0, -1)}},
		// An exact zero sum is +0, -0 when rounding toward -inf.
		{"zero", 1, 1, -1, want{0, 0, math.Copysign(0, -1), 0}},
		{"-0 + -0", math.Copysign(0, -1), 1, math.Copysign(0, -1), want{math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1)}},
		// Infinities and NaN pass through.
		{"inf", math.Inf(1), 2, -1, want{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}},
	}
	for _, c := range cases {
		for rnd, w := range c.want {
			got := fma64(c.a, c.b, c.c, uint32(rnd))
			if math.Float64bits(got) != math.Float64bits(w) {
				t.Errorf("%s rnd %d: fma64(%g, %g, %g) = %g (%#x), want %g (%#x)", c.name, rnd, c.a, c.b, c.c, got, math.Float64bits(got), w, math.Float64bits(w))
			}
		}
	}
	if !math.IsNaN(fma64(math.NaN(), 1, 1, rndZero)) {
		t.Error("NaN operand")
	}
	// To nearest, fma64 is math.FMA.
	g := lcg(7)
	for i := 0; i < 1000; i++ {
		a := math.Float64frombits(uint64(g.next())<<32 | uint64(g.next()))
		b := math.Float64frombits(uint64(g.next())<<32 | uint64(g.next()))
		c := math.Float64frombits(uint64(g.next())<<32 | uint64(g.next()))
		if x, y := fma64(a, b, c, rndNearest), math.FMA(a, b, c); math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
			t.Fatalf("fma64 nearest(%g, %g, %g) = %g, math.FMA %g", a, b, c, x, y)
		}
	}
}

// TestFMA64DirectedMonotone: for random operands the directed results
// bracket the exact value: down <= nearest <= up, up and down at most one
// f64 step apart, toward-zero equal to down (positive) or up (negative).
func TestFMA64DirectedMonotone(t *testing.T) {
	g := lcg(11)
	r := func() float64 { return math.Ldexp(float64(int32(g.next()))+0.5, int(g.next()%200)-100) }
	for i := 0; i < 2000; i++ {
		a, b, c := r(), r(), r()
		n, up, dn, z := fma64(a, b, c, rndNearest), fma64(a, b, c, rndPlusInf), fma64(a, b, c, rndMinusInf), fma64(a, b, c, rndZero)
		if !(dn <= n && n <= up) || (up != dn && math.Nextafter(dn, math.Inf(1)) != up) {
			t.Fatalf("fma64(%g, %g, %g): down %g nearest %g up %g", a, b, c, dn, n, up)
		}
		if (n > 0 && z != dn) || (n < 0 && z != up) {
			t.Fatalf("fma64(%g, %g, %g): toward zero %g, down %g, up %g", a, b, c, z, dn, up)
		}
	}
}

// TestVFmaF64Mode: v_fma_f64, v_fmac_f64 and v_div_fmas_f64 (VCC clear: no
// scaling) take the rounding mode from MODE.FP_ROUND bits 3:2 (f64/f16), per
// lane.
func TestVFmaF64Mode(t *testing.T) {
	w := testWave(t)
	w.setExec(1)
	set := func(r uint16, x float64) {
		u := math.Float64bits(x)
		w.v[int(r)*64], w.v[int(r+1)*64] = uint32(u), uint32(u>>32)
	}
	get := func(r uint16) float64 {
		return math.Float64frombits(uint64(w.v[int(r)*64]) | uint64(w.v[int(r+1)*64])<<32)
	}
	one52 := 1 + math.Ldexp(1, -52)
	w.setVCC(0)
	for _, name := range []string{"v_fma_f64", "v_fmac_f64", "v_div_fmas_f64"} {
		for rnd, want := range []float64{1 + math.Ldexp(1, -51), 1 + math.Ldexp(1, -51) + math.Ldexp(1, -52), 1 + math.Ldexp(1, -51), 1 + math.Ldexp(1, -51)} {
			set(0, one52)
			set(2, one52)
			set(4, 0)
			w.mode = 0xF0 | uint32(rnd)<<2
			exec1(t, w, name, &op{dst: v(4), src: [3]operand{v(0), v(2), v(4)}})
			if got := get(4); got != want {
				t.Errorf("%s round mode %d = %g, want %g", name, rnd, got, want)
			}
		}
	}
}
