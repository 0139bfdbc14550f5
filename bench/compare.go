package bench

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// ulpDiff returns how far apart a and b are in units in the last place of
// the larger magnitude, or of floor when both are smaller than it. NaNs
// compare equal to NaNs only; an infinity against a finite value is
// infinitely far.
func ulpDiff(a, b, floor float32) float64 {
	if math.Float32bits(a) == math.Float32bits(b) {
		return 0
	}
	an, bn := a != a, b != b
	if an || bn {
		if an && bn {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	m := max(float32(math.Abs(float64(a))), float32(math.Abs(float64(b))), floor)
	ulp := float64(math.Nextafter32(m, float32(math.Inf(1))) - m)
	return math.Abs(float64(a)-float64(b)) / ulp
}

// compare checks the outputs of the two sides for buffer bf: it returns
// the largest difference in ULPs (0 when exact) and an error when they
// differ beyond what b allows.
func compare(b *Benchmark, bf *Buffer, x, y []byte) (float64, error) {
	if len(x) != len(y) {
		return 0, fmt.Errorf("%s: %d vs %d bytes", bf.Name, len(x), len(y))
	}
	switch bf.Check {
	case Exact:
		if !bytes.Equal(x, y) {
			i := 0
			for x[i] == y[i] {
				i++
			}
			return math.Inf(1), fmt.Errorf("%s differs at byte %d", bf.Name, i)
		}
	case Float32:
		worst, at := 0.0, -1
		for i := 0; i+4 <= len(x); i += 4 {
			a := math.Float32frombits(binary.LittleEndian.Uint32(x[i:]))
			c := math.Float32frombits(binary.LittleEndian.Uint32(y[i:]))
			if d := ulpDiff(a, c, b.ULPFloor); d > worst {
				worst, at = d, i/4
			}
		}
		if worst > float64(b.MaxULP) {
			a := math.Float32frombits(binary.LittleEndian.Uint32(x[4*at:]))
			c := math.Float32frombits(binary.LittleEndian.Uint32(y[4*at:]))
			return worst, fmt.Errorf("%s[%d]: %g vs %g, %.0f ULP apart (bound %d)", bf.Name, at, a, c, worst, b.MaxULP)
		}
		return worst, nil
	}
	return 0, nil
}
