//go:build amd64

package emu

import (
	"math/bits"
	"math/rand"
	"testing"
)

// TestMad64AVX2: the AVX2 v_mad_u64_u32 loop gives the Go loop's sums and
// carry mask for random operands, operands at the extremes (carries out of
// both halves) and with the destination aliasing its sources.
func TestMad64AVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewSource(3))
	pick := func() uint32 {
		switch rng.Intn(4) {
		case 0:
			return 0xFFFF_FFFF - uint32(rng.Intn(3))
		case 1:
			return uint32(rng.Intn(3))
		}
		return rng.Uint32()
	}
	ref := func(a, b, cl, ch *[64]uint32) (lo, hi [64]uint32, cout uint64) {
		for l := range lo {
			s, c := bits.Add64(uint64(a[l])*uint64(b[l]), uint64(cl[l])|uint64(ch[l])<<32, 0)
			lo[l], hi[l] = uint32(s), uint32(s>>32)
			cout |= c << l
		}
		return
	}
	for iter := 0; iter < 20000; iter++ {
		var a, b, cl, ch, dlo, dhi [64]uint32
		for l := range a {
			a[l], b[l], cl[l], ch[l] = pick(), pick(), pick(), pick()
		}
		wlo, whi, wc := ref(&a, &b, &cl, &ch)
		switch iter % 3 {
		case 0:
			if c := mad64AVX2(&dlo, &dhi, &a, &b, &cl, &ch); c != wc || dlo != wlo || dhi != whi {
				t.Fatalf("iteration %d: carry %#x want %#x, or the sums differ", iter, c, wc)
			}
		case 1: // d is c (v[0:1] = a*b + v[0:1])
			if c := mad64AVX2(&cl, &ch, &a, &b, &cl, &ch); c != wc || cl != wlo || ch != whi {
				t.Fatalf("iteration %d (d = c): carry %#x want %#x, or the sums differ", iter, c, wc)
			}
		case 2: // d's low half is a, its high half b
			if c := mad64AVX2(&a, &b, &a, &b, &cl, &ch); c != wc || a != wlo || b != whi {
				t.Fatalf("iteration %d (d = a:b): carry %#x want %#x, or the sums differ", iter, c, wc)
			}
		}
	}
}
