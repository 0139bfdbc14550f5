package emu

import (
	"math"
	"runtime"
	"testing"
)

// TestFMA32DoubleRounding: the f32 FMA computed as float32(math.FMA(a, b, c))
// on float64 operands rounds twice and is wrong for this input; fma32 must
// be exact. a*b = -2^-24 + 2^-60 and c = 1 + 2^-23, so the exact result
// 1 + 2^-24 + 2^-60 lies just above the midpoint of 1 and 1+2^-23.
func TestFMA32DoubleRounding(t *testing.T) {
	a := -(1 + 0x1p-18) * float32(0x1p-12)
	b := (1 - 0x1p-18) * float32(0x1p-12)
	c := float32(1 + 0x1p-23)
	naive := float32(math.FMA(float64(a), float64(b), float64(c)))
	if math.Float32bits(naive) != 0x3F800000 {
		t.Fatalf("counterexample is not one: naive result %#x", math.Float32bits(naive))
	}
	if got := fma32(a, b, c, rndNearest); math.Float32bits(got) != 0x3F800001 {
		t.Errorf("fma32 = %#x, want 0x3f800001", math.Float32bits(got))
	}
	// Directed modes on the same input.
	if got := fma32(a, b, c, rndZero); math.Float32bits(got) != 0x3F800000 {
		t.Errorf("fma32 rtz = %#x, want 0x3f800000", math.Float32bits(got))
	}
	if got := fma32(a, b, c, rndPlusInf); math.Float32bits(got) != 0x3F800001 {
		t.Errorf("fma32 rup = %#x, want 0x3f800001", math.Float32bits(got))
	}
	// Exact cases and signed zeros.
	if got := fma32(2, 3, 1, rndNearest); got != 7 {
		t.Errorf("fma32(2,3,1) = %v", got)
	}
	if got := fma32(1, -1, 1, rndMinusInf); !math.Signbit(float64(got)) || got != 0 {
		t.Errorf("fma32(1,-1,1) toward -inf = %v, want -0", got)
	}
	if got := fma32(1, -1, 1, rndNearest); math.Signbit(float64(got)) {
		t.Errorf("fma32(1,-1,1) = -0, want +0")
	}
	if got := fma32(float32(math.Inf(1)), 0, 1, rndNearest); !math.IsNaN(float64(got)) {
		t.Errorf("inf*0+1 = %v", got)
	}
}

func TestDirectedRounding(t *testing.T) {
	// 1 + 2^-30 is not representable: RNE and RTZ and RDN give 1, RUP gives 1+2^-23.
	cases := []struct {
		rnd  uint32
		want uint32
	}{{rndNearest, 0x3F800000}, {rndZero, 0x3F800000}, {rndMinusInf, 0x3F800000}, {rndPlusInf, 0x3F800001}}
	for _, c := range cases {
		if got := math.Float32bits(add32(1, 0x1p-30, c.rnd)); got != c.want {
			t.Errorf("1 + 2^-30 mode %d = %#x, want %#x", c.rnd, got, c.want)
		}
		if got := math.Float32bits(add32(-1, -0x1p-30, c.rnd)); got != c.want|0x80000000+b2u(c.rnd == rndMinusInf)-b2u(c.rnd == rndPlusInf) {
			t.Errorf("-1 - 2^-30 mode %d = %#x", c.rnd, got)
		}
	}
	// Overflow: MaxFloat32 * 2 toward zero stays MaxFloat32; nearest is +inf.
	if got := mul32(math.MaxFloat32, 2, rndZero); got != math.MaxFloat32 {
		t.Errorf("max*2 rtz = %v", got)
	}
	if got := mul32(math.MaxFloat32, 2, rndNearest); !math.IsInf(float64(got), 1) {
		t.Errorf("max*2 = %v", got)
	}
	// f64: 1 + 2^-60.
	if got := add64(1, 0x1p-60, rndPlusInf); got != math.Nextafter(1, 2) {
		t.Errorf("f64 1+2^-60 rup = %v", got)
	}
	if got := mul64(1+0x1p-52, 1+0x1p-52, rndZero); got != 1+0x1p-51 {
		t.Errorf("f64 mul rtz = %v", got)
	}
}

func TestFloatToIntSaturates(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		x float64
		i int32
		u uint32
	}{
		{nan, 0, 0}, {math.Inf(1), math.MaxInt32, math.MaxUint32}, {math.Inf(-1), math.MinInt32, 0},
		{3e9, math.MaxInt32, 3000000000}, {-3e9, math.MinInt32, 0}, {-1.9, -1, 0}, {1.9, 1, 1},
		{5e9, math.MaxInt32, math.MaxUint32}, {-0.5, 0, 0},
	} {
		if got := cvtI32(c.x); got != c.i {
			t.Errorf("cvtI32(%v) = %d, want %d", c.x, got, c.i)
		}
		if got := cvtU32(c.x); got != c.u {
			t.Errorf("cvtU32(%v) = %d, want %d", c.x, got, c.u)
		}
	}
}

func TestHalf(t *testing.T) {
	for _, c := range []struct {
		x    float64
		rnd  uint32
		want uint16
	}{
		{1, 0, 0x3C00}, {-2, 0, 0xC000}, {65504, 0, 0x7BFF}, {65520, 0, 0x7C00}, {65520, rndZero, 0x7BFF},
		{1 + 0x1p-11, 0, 0x3C00}, {1 + 3*0x1p-11, 0, 0x3C02}, {1 + 0x1p-11, rndPlusInf, 0x3C01},
		{0x1p-24, 0, 0x0001}, {0x1p-25, 0, 0x0000}, {0x1.8p-25, 0, 0x0001}, {0x1p-14, 0, 0x0400},
		{math.Inf(-1), 0, 0xFC00}, {-0.0, 0, 0x0000}, {math.Copysign(0, -1), 0, 0x8000},
		{0.1, 0, 0x2E66}, {0.1, rndPlusInf, 0x2E67},
	} {
		if got := f16from64(c.x, c.rnd); got != c.want {
			t.Errorf("f16from64(%v, %d) = %#04x, want %#04x", c.x, c.rnd, got, c.want)
		}
	}
	for _, h := range []uint16{0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0xC000, 0x7C00, 0x2E66} {
		if back := f16from64(f16to64(h), 0); back != h {
			t.Errorf("round trip %#04x -> %v -> %#04x", h, f16to64(h), back)
		}
	}
	if !math.IsNaN(f16to64(0x7E00)) {
		t.Error("0x7e00 is not NaN")
	}
}

func TestMinMaxNaN(t *testing.T) {
	nan := float32(math.NaN())
	if minF32(nan, 2) != 2 || maxF32(2, nan) != 2 {
		t.Error("min/max must return the non-NaN operand")
	}
	if !math.Signbit(float64(minF32(0, float32(math.Copysign(0, -1))))) {
		t.Error("min(+0,-0) must be -0")
	}
	if math.Signbit(float64(maxF32(float32(math.Copysign(0, -1)), 0))) {
		t.Error("max(-0,+0) must be +0")
	}
}

// TestIEEEFPResetsMXCSR: workers call ieeeFP on their pinned thread; on a
// thread with FTZ/DAZ set (as -ffast-math programs set them, and as new
// threads inherit them) it restores IEEE denormal behaviour for the fast
// paths, and the restore function puts the caller's mode back.
func TestIEEEFPResetsMXCSR(t *testing.T) {
	if !haveMXCSR {
		t.Skip("no MXCSR on this architecture")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old := getMXCSR()
	defer setMXCSR(old)
	ftz := old | 1<<15 | 1<<6
	setMXCSR(ftz)
	w := testWave(t)
	for l := 0; l < 64; l++ {
		w.v[l] = 1 // the smallest f32 denormal
	}
	o := &op{dst: v(3), src: [3]operand{v(0), v(0)}}
	fastF32(w, o, semantics["v_add_f32"].fn, 0)
	if w.v[3*64] != 0 {
		t.Skipf("FTZ/DAZ had no effect (got %#x); cannot observe the reset", w.v[3*64])
	}
	restore := ieeeFP()
	fastF32(w, o, semantics["v_add_f32"].fn, 0)
	if w.v[3*64] != 2 {
		t.Errorf("after ieeeFP denormal+denormal = %#x, want 0x2", w.v[3*64])
	}
	restore()
	if getMXCSR() != ftz {
		t.Errorf("restore left MXCSR %#x, want %#x", getMXCSR(), ftz)
	}
}
