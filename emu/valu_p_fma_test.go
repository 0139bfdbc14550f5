//go:build amd64

package emu

import (
	"math"
	"math/rand"
	"testing"
)

// TestFmaAVX2MatchesFma32: the host's VFMADD213PS gives the bits fma32
// computes in software (round to nearest, denormals kept, as fastF32
// requires) for random operands across the exponent range, cancellations,
// exact midpoints of the f32 grid, denormal results, infinities and single
// NaN operands (whose payload the result keeps); with two or more NaN
// operands both must give a NaN.
func TestFmaAVX2MatchesFma32(t *testing.T) {
	if !haveFMA {
		t.Skip("no FMA on this CPU")
	}
	rng := rand.New(rand.NewSource(1))
	special := []uint32{0, 0x8000_0000, 1, 0x8000_0001, 0x007F_FFFF, 0x0080_0000, 0x3F80_0000, 0xBF80_0000,
		0x7F7F_FFFF, 0xFF7F_FFFF, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0001, 0xFFA0_0002, 0x3400_0000, 0x3380_0000}
	rnd32 := func() uint32 {
		switch rng.Intn(4) {
		case 0:
			return special[rng.Intn(len(special))]
		case 1: // near 1: products and sums land on midpoints often
			return 0x3F80_0000 | rng.Uint32()&0x0000_00FF | uint32(rng.Intn(2))<<31
		case 2: // small exponents: denormal results
			return uint32(rng.Intn(0x0100_0000)) | uint32(rng.Intn(2))<<31
		}
		return rng.Uint32()
	}
	var a, b, c, got [64]float32
	for iter := 0; iter < 20000; iter++ {
		for l := range a {
			a[l], b[l], c[l] = math.Float32frombits(rnd32()), math.Float32frombits(rnd32()), math.Float32frombits(rnd32())
			if l%4 == 3 { // cancellation: c ≈ -a·b
				c[l] = -a[l] * b[l]
				if rng.Intn(2) == 0 {
					c[l] = math.Float32frombits(math.Float32bits(c[l]) + 1)
				}
			}
		}
		f32FmaAVX2(&got, &a, &b, &c)
		for l := range a {
			want := fma32(a[l], b[l], c[l], rndNearest)
			g, w := math.Float32bits(got[l]), math.Float32bits(want)
			nans := 0
			for _, x := range []float32{a[l], b[l], c[l]} {
				if x != x {
					nans++
				}
			}
			if g == w || nans >= 2 && got[l] != got[l] && want != want {
				continue
			}
			t.Fatalf("fma(%#x, %#x, %#x): AVX2 %#x, fma32 %#x", math.Float32bits(a[l]), math.Float32bits(b[l]), math.Float32bits(c[l]), g, w)
		}
	}
	// In place: d is c (v_fmac_f32).
	for l := range a {
		a[l], b[l], c[l] = float32(l)+0.5, 3, float32(-l)
	}
	f32FmaAVX2(&c, &a, &b, &c)
	for l := range c {
		if want := fma32(float32(l)+0.5, 3, float32(-l), rndNearest); c[l] != want {
			t.Fatalf("in place, lane %d: %v, want %v", l, c[l], want)
		}
	}
}
