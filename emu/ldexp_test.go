package emu

import (
	"math"
	"math/rand"
	"testing"
)

// TestLdexp32: a·2^e by multiplication gives the bits of math.Ldexp
// rounded to f32, for random and special operands (zeros, denormals,
// infinities, NaN payloads) and exponents beyond the clamp.
func TestLdexp32(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	special := []uint32{0, 0x8000_0000, 1, 0x8040_0000, 0x007F_FFFF, 0x0080_0000, 0x7F7F_FFFF, 0x7F80_0000, 0xFF80_0000, 0x7FC0_1234, 0x7FA0_0001}
	ref := func(a float32, e int32) float32 {
		e = max(min(e, 300), -300)
		return float32(math.Ldexp(float64(a), int(e)))
	}
	for i := 0; i < 1_000_000; i++ {
		bits := rng.Uint32()
		if i%8 == 0 {
			bits = special[rng.Intn(len(special))]
		}
		a := math.Float32frombits(bits)
		e := int32(rng.Intn(700) - 350)
		if i%16 == 1 {
			e = int32(rng.Uint32())
		}
		got, want := ldexp32(a, e), ref(a, e)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("ldexp32(%#x, %d) = %#x, want %#x", bits, e, math.Float32bits(got), math.Float32bits(want))
		}
	}
}
