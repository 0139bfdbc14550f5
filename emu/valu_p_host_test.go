package emu

import (
	"math"
	"runtime"
	"testing"
)

// TestUnaryF32AllMatchesGo: the default build's v_rcp/v_rsq/v_sqrt lane loop
// (AVX assembly on amd64) gives the scalar Go loop's bits for every kind, on
// random bit patterns and the special values (zeros, denormals, infinities,
// negatives, quiet and signalling NaNs), under the host's default MXCSR and
// with FTZ/DAZ and each rounding mode set.
func TestUnaryF32AllMatchesGo(t *testing.T) {
	if !haveAVX {
		t.Skip("no AVX: unaryF32AllHost is unaryF32AllGo")
	}
	specials := []uint32{
		0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
		0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
		0x7F800001, 0xFFA12345, 0x7FBFFFFF, 0x3F800000, 0xBF800000, 0x40800000,
		0x3C23D70A, 0x0D800000, 0x71800000, 0x58800000,
	}
	var a, want, got [64]uint32
	g := lcg(7)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old := getMXCSR()
	defer setMXCSR(old)
	// Default (round to nearest), FTZ|DAZ, round down, up, toward zero.
	for _, m := range []uint32{old, old | 0x8040, old&^0x6000 | 0x2000, old&^0x6000 | 0x4000, old | 0x6000} {
		for round := 0; round < 400; round++ {
			for l := range a {
				switch {
				case round == 0 && l < len(specials):
					a[l] = specials[l]
				case round%3 == 1:
					a[l] = uint32(g.next()) // any bits
				default:
					// normal positive values near the rsq inputs of n-body
					a[l] = 0x3C000000 + uint32(g.next())%0x0A000000
				}
			}
			for kind := 0; kind < 3; kind++ {
				setMXCSR(m)
				unaryF32AllGo(kind, &want, &a)
				unaryF32AllHost(kind, &got, &a)
				// In place (v_rsq_f32 v11, v11).
				inPlace := a
				unaryF32AllHost(kind, &inPlace, &inPlace)
				setMXCSR(old)
				for l := range a {
					if got[l] != want[l] || inPlace[l] != want[l] {
						t.Fatalf("mxcsr %#x kind %d lane %d: input %#08x: got %#08x (in place %#08x), want %#08x",
							m, kind, l, a[l], got[l], inPlace[l], want[l])
					}
				}
			}
		}
	}
	// The values themselves: 1/sqrt(4) = 0.5, 1/4, sqrt(4) = 2.
	for l := range a {
		a[l] = math.Float32bits(4)
	}
	for kind, w := range []float32{0.25, 0.5, 2} {
		unaryF32AllHost(kind, &got, &a)
		if got[63] != math.Float32bits(w) {
			t.Errorf("kind %d of 4 = %v, want %v", kind, math.Float32frombits(got[63]), w)
		}
	}
}

// TestF32LoopsHostMatchGo: the default build's f32 add/mul/sub lane loops
// (AVX assembly on amd64) give the unrolled Go loops' bits, for vector and
// scalar first operands, in place as well, under each MXCSR mode. Lanes
// where both operands are NaN are left out: which payload SSE returns
// follows the compiler's operand order (TestLaneLoopsMatchScalar).
func TestF32LoopsHostMatchGo(t *testing.T) {
	if !haveAVX {
		t.Skip("no AVX: the host loops are the Go loops")
	}
	edges := []uint32{0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0xBF800000,
		0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC01234, 0x7F800001, 0x34000000, 0x5F000000}
	vv := []struct {
		name      string
		host, ref func(d, a, b *[64]float32)
	}{
		{"add", f32AddVVHost, f32AddVVGo}, {"mul", f32MulVVHost, f32MulVVGo}, {"sub", f32SubVVHost, f32SubVVGo},
	}
	sv := []struct {
		name      string
		host, ref func(d *[64]float32, s float32, b *[64]float32)
	}{
		{"add", f32AddSVHost, f32AddSVGo}, {"mul", f32MulSVHost, f32MulSVGo}, {"sub", f32SubSVHost, f32SubSVGo},
	}
	g := lcg(13)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old := getMXCSR()
	defer setMXCSR(old)
	var a, b, want, got, inPlace [64]uint32
	for _, m := range []uint32{old, old | 0x8040, old&^0x6000 | 0x2000, old&^0x6000 | 0x4000, old | 0x6000} {
		for round := 0; round < 200; round++ {
			for l := range a {
				a[l], b[l] = g.next(), g.next()
				if g.next()%3 == 0 {
					a[l] = edges[g.next()%uint32(len(edges))]
				}
				if g.next()%3 == 0 {
					b[l] = edges[g.next()%uint32(len(edges))]
				}
			}
			fa, fb := f32Lanes(a[:]), f32Lanes(b[:])
			s := fa[round%64]
			cmp := func(what string, x func(l int) uint32) {
				t.Helper()
				for l := range a {
					if isNaN32(x(l)) && isNaN32(b[l]) {
						continue
					}
					if got[l] != want[l] || inPlace[l] != want[l] {
						t.Fatalf("mxcsr %#x %s lane %d (%#08x, %#08x): got %#08x (in place %#08x), want %#08x",
							m, what, l, x(l), b[l], got[l], inPlace[l], want[l])
					}
				}
			}
			for _, c := range vv {
				setMXCSR(m)
				c.ref(f32Lanes(want[:]), fa, fb)
				c.host(f32Lanes(got[:]), fa, fb)
				inPlace = a
				c.host(f32Lanes(inPlace[:]), f32Lanes(inPlace[:]), fb)
				setMXCSR(old)
				cmp(c.name+" vv", func(l int) uint32 { return a[l] })
			}
			for _, c := range sv {
				setMXCSR(m)
				c.ref(f32Lanes(want[:]), s, fb)
				c.host(f32Lanes(got[:]), s, fb)
				inPlace = b
				c.host(f32Lanes(inPlace[:]), s, f32Lanes(inPlace[:]))
				setMXCSR(old)
				cmp(c.name+" sv", func(int) uint32 { return math.Float32bits(s) })
			}
		}
	}
	// The values themselves: 1.5+2.5, 1.5*2.5, 1.5-2.5 on the last lane.
	for l := range a {
		a[l], b[l] = math.Float32bits(1.5), math.Float32bits(2.5)
	}
	for i, w := range []float32{4, 3.75, -1} {
		vv[i].host(f32Lanes(got[:]), f32Lanes(a[:]), f32Lanes(b[:]))
		if got[63] != math.Float32bits(w) {
			t.Errorf("%s: %v, want %v", vv[i].name, math.Float32frombits(got[63]), w)
		}
		sv[i].host(f32Lanes(got[:]), 1.5, f32Lanes(b[:]))
		if got[0] != math.Float32bits(w) {
			t.Errorf("%s sv: %v, want %v", sv[i].name, math.Float32frombits(got[0]), w)
		}
	}
}

// TestFpackAVXMatchesGo: the AVX compare-to-mask loops give the Go loops'
// masks for ==, <, <= with vector/vector, vector/scalar and scalar/vector
// operands, on random bits and specials (NaN, ±0, denormals, infinities),
// with and without DAZ.
func TestFpackAVXMatchesGo(t *testing.T) {
	if !haveAVX {
		t.Skip("no AVX")
	}
	edges := []uint32{0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0xBF800000,
		0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC01234, 0x7F800001}
	vv := []func(a, b *[64]float32) uint64{fpackEQVV, fpackLTVV, fpackLEVV}
	vs := []func(a *[64]float32, s float32) uint64{fpackEQVS, fpackLTVS, fpackLEVS}
	sv := []func(s float32, b *[64]float32) uint64{fpackEQSV, fpackLTSV, fpackLESV}
	g := lcg(17)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old := getMXCSR()
	defer setMXCSR(old)
	var a, b [64]uint32
	for _, m := range []uint32{old, old | 0x8040} {
		for round := 0; round < 300; round++ {
			for l := range a {
				a[l], b[l] = g.next(), g.next()
				switch g.next() % 4 {
				case 0:
					a[l] = edges[g.next()%uint32(len(edges))]
				case 1:
					b[l] = a[l] // equal operands
				case 2:
					b[l] = edges[g.next()%uint32(len(edges))]
				}
			}
			fa, fb := f32Lanes(a[:]), f32Lanes(b[:])
			s := fa[round%64]
			for pred := 0; pred < 3; pred++ {
				setMXCSR(m)
				w1, g1 := vv[pred](fa, fb), fpackVVAVX(pred, fa, fb)
				w2, g2 := vs[pred](fa, s), fpackVSAVX(pred, fa, s)
				w3, g3 := sv[pred](s, fb), fpackSVAVX(pred, s, fb)
				setMXCSR(old)
				if w1 != g1 || w2 != g2 || w3 != g3 {
					t.Fatalf("mxcsr %#x pred %d round %d: vv %#x want %#x, vs %#x want %#x, sv %#x want %#x",
						m, pred, round, g1, w1, g2, w2, g3, w3)
				}
			}
		}
	}
	// The values themselves: lanes 0..63 hold l, compared with 5.
	for l := range a {
		a[l] = math.Float32bits(float32(l))
	}
	fa := f32Lanes(a[:])
	if r := fpackVSAVX(1, fa, 5); r != 0x1F {
		t.Errorf("l < 5: %#x, want 0x1f", r)
	}
	if r := fpackSVAVX(2, 5, fa); r != ^uint64(0x1F) {
		t.Errorf("5 <= l: %#x, want %#x", r, ^uint64(0x1F))
	}
	if r := fpackVVAVX(0, fa, fa); r != ^uint64(0) {
		t.Errorf("l == l: %#x, want all ones", r)
	}
}

// TestPK32VV: v_pk_add_f32 and v_pk_mul_f32 through the engine's handler
// (pk32VV for VGPR operands) give each result half from the halves op_sel
// and op_sel_hi choose, for every op_sel combination and for destinations
// overlapping the sources (those whose high-half source is the destination's
// low register go the per-lane way), compared with per-lane Go arithmetic
// on the registers as they were before the instruction.
func TestPK32VV(t *testing.T) {
	semFor(0)
	mem := &testMem{}
	d, err := NewDevice(DefaultGFX90A(mem))
	if err != nil {
		t.Fatal(err)
	}
	w := &wave{r: &run{dev: d, k: &Dispatch{}}, wg: &workgroup{}, v: make([]uint32, 16*64)}
	w.setExec(^uint64(0))
	w.mode = 0xF0
	g := lcg(19)
	for _, name := range []string{"v_pk_add_f32", "v_pk_mul_f32"} {
		fn := semantics[name].fn
		for dst := 0; dst < 6; dst++ {
			for sa := 0; sa < 6; sa++ {
				for sb := 0; sb < 6; sb += 2 {
					for sel := 0; sel < 16; sel++ {
						for i := range w.v {
							w.v[i] = 0x3E000000 + g.next()%0x02000000 // normal values in [0.125, 0.5)
						}
						before := append([]uint32(nil), w.v...)
						o := op{dst: v(uint16(dst)), src: [3]operand{v(uint16(sa)), v(uint16(sb))},
							opsel: uint8(sel & 3), opselh: uint8(sel >> 2)}
						o.fn = fn
						fn(w, &o)
						for h := 0; h < 2; h++ {
							s := o.opsel
							if h == 1 {
								s = o.opselh
							}
							ra, rb := sa+int(s&1), sb+int(s>>1&1)
							for l := 0; l < 64; l++ {
								x, y := math.Float32frombits(before[ra*64+l]), math.Float32frombits(before[rb*64+l])
								r := x + y
								if name == "v_pk_mul_f32" {
									r = x * y
								}
								if got := w.v[(dst+h)*64+l]; got != math.Float32bits(r) {
									t.Fatalf("%s v[%d:%d], v[%d:%d], v[%d:%d] op_sel %d op_sel_hi %d: half %d lane %d = %#x, want %#x",
										name, dst, dst+1, sa, sa+1, sb, sb+1, sel&3, sel>>2, h, l, got, math.Float32bits(r))
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestCndmaskAVX2: the AVX2 v_cndmask_b32 loops take src1 where the mask
// bit is set and src0 elsewhere, for vector/vector, uniform/vector and
// vector/uniform sources, masks of all zeros, all ones and random bits, and
// a destination that is one of the sources.
func TestCndmaskAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	g := lcg(23)
	var a, b, got, inPlace [64]uint32
	for round := 0; round < 300; round++ {
		for l := range a {
			a[l], b[l] = g.next(), g.next()
		}
		m := uint64(g.next())<<32 | uint64(g.next())
		switch round {
		case 0:
			m = 0
		case 1:
			m = ^uint64(0)
		case 2:
			m = 1<<63 | 1
		}
		sa, sb := g.next(), g.next()
		want := func(x func(l int) uint32, y func(l int) uint32) func(l int) uint32 {
			return func(l int) uint32 {
				if m>>l&1 != 0 {
					return y(l)
				}
				return x(l)
			}
		}
		va := func(l int) uint32 { return a[l] }
		vb := func(l int) uint32 { return b[l] }
		ua := func(int) uint32 { return sa }
		ub := func(int) uint32 { return sb }
		check := func(what string, w func(l int) uint32) {
			t.Helper()
			for l := range got {
				if got[l] != w(l) || inPlace[l] != w(l) {
					t.Fatalf("%s mask %#x lane %d: %#x (in place %#x), want %#x", what, m, l, got[l], inPlace[l], w(l))
				}
			}
		}
		cndmaskVVAVX2(&got, &a, &b, m)
		inPlace = b
		cndmaskVVAVX2(&inPlace, &a, &inPlace, m)
		check("vv", want(va, vb))
		cndmaskSVAVX2(&got, sa, &b, m)
		inPlace = b
		cndmaskSVAVX2(&inPlace, sa, &inPlace, m)
		check("sv", want(ua, vb))
		cndmaskVSAVX2(&got, &a, sb, m)
		inPlace = a
		cndmaskVSAVX2(&inPlace, &inPlace, sb, m)
		check("vs", want(va, ub))
	}
}

// TestAddcoAVX2: the AVX2 add with carry of pAddCo against the 33-bit sums
// lane by lane: edge values, carry-in masks of zeros, ones and random bits,
// uniform and vector first sources, and a destination that is a source.
func TestAddcoAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	g := lcg(29)
	edges := []uint32{0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF}
	var a, b, got, inPlace [64]uint32
	for round := 0; round < 400; round++ {
		for l := range a {
			a[l], b[l] = g.next(), g.next()
			if g.next()%3 == 0 {
				a[l] = edges[g.next()%uint32(len(edges))]
			}
			if g.next()%3 == 0 {
				b[l] = edges[g.next()%uint32(len(edges))]
			}
		}
		cin := uint64(g.next())<<32 | uint64(g.next())
		switch round % 4 {
		case 0:
			cin = 0
		case 1:
			cin = ^uint64(0)
		}
		sa := edges[round%len(edges)]
		check := func(what string, x func(l int) uint32, cout uint64) {
			t.Helper()
			for l := range got {
				s := uint64(x(l)) + uint64(b[l]) + cin>>l&1
				if got[l] != uint32(s) || inPlace[l] != uint32(s) || cout>>l&1 != s>>32 {
					t.Fatalf("%s cin %#x lane %d: %#x (in place %#x) carry %d, want %#x carry %d",
						what, cin, l, got[l], inPlace[l], cout>>l&1, uint32(s), s>>32)
				}
			}
		}
		c := addcoVVAVX2(&got, &a, &b, cin)
		inPlace = b
		if c2 := addcoVVAVX2(&inPlace, &a, &inPlace, cin); c2 != c {
			t.Fatalf("in place carry %#x, want %#x", c2, c)
		}
		check("vv", func(l int) uint32 { return a[l] }, c)
		c = addcoSVAVX2(&got, sa, &b, cin)
		inPlace = b
		addcoSVAVX2(&inPlace, sa, &inPlace, cin)
		check("sv", func(int) uint32 { return sa }, c)
	}
}

// TestShift64AVX2: the AVX2 uniform 64-bit shifts against Go's for every
// amount 0-63, with the destination pair equal to, overlapping by one
// register, or apart from the source pair.
func TestShift64AVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	g := lcg(31)
	var regs [4][64]uint32 // v0..v3
	for sh := uint32(0); sh < 64; sh++ {
		for _, right := range []bool{false, true} {
			for _, shape := range []struct{ src, dst int }{{0, 2}, {0, 0}, {0, 1}, {1, 0}} {
				for r := range regs {
					for l := range regs[r] {
						regs[r][l] = g.next()
					}
				}
				var want [2][64]uint32
				for l := 0; l < 64; l++ {
					x := uint64(regs[shape.src][l]) | uint64(regs[shape.src+1][l])<<32
					if right {
						x >>= sh
					} else {
						x <<= sh
					}
					want[0][l], want[1][l] = uint32(x), uint32(x>>32)
				}
				c1, c2, c3 := uint64(sh), uint64(32-int64(sh)), uint64(int64(sh)-32)
				d, s := shape.dst, shape.src
				if right {
					shr64SAVX2(&regs[d], &regs[d+1], &regs[s], &regs[s+1], c1, c2, c3)
				} else {
					shl64SAVX2(&regs[d], &regs[d+1], &regs[s], &regs[s+1], c1, c2, c3)
				}
				if regs[d] != want[0] || regs[d+1] != want[1] {
					t.Fatalf("shift %d right %v src v%d dst v%d: got lo %#x hi %#x, want %#x %#x",
						sh, right, s, d, regs[d][0], regs[d+1][0], want[0][0], want[1][0])
				}
			}
		}
	}
}

// TestUnitCheckAVX2: the AVX2 unit-stride test accepts exactly the lane
// arrays the Go loop accepts: strides 0-16, a start near 2^32 (the sum
// wraps), one lane off in each position, one high half differing.
func TestUnitCheckAVX2(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	goCheck := func(lo, hi *[64]uint32, stride uint32) bool {
		var bad uint32
		for l := 1; l < 64; l++ {
			bad |= lo[l] ^ (lo[0] + uint32(l)*stride)
			if hi != nil {
				bad |= hi[l] ^ hi[0]
			}
		}
		return bad == 0
	}
	g := lcg(37)
	var lo, hi [64]uint32
	for _, stride := range []uint32{0, 1, 2, 4, 8, 12, 16} {
		for _, start := range []uint32{0, 100, 0xFFFF_FF00, g.next()} {
			for bad := -1; bad < 64; bad++ {
				for l := range lo {
					lo[l] = start + uint32(l)*stride
					hi[l] = 7
				}
				for _, which := range []int{0, 1} {
					lo2, hi2 := lo, hi
					if bad >= 0 && which == 0 {
						lo2[bad] ^= 1 << (g.next() % 32)
					} else if bad >= 0 {
						hi2[bad]++
					}
					for _, h := range []*[64]uint32{nil, &hi2} {
						if got, want := unitCheckAVX2(&lo2, h, stride), goCheck(&lo2, h, stride); got != want {
							t.Fatalf("stride %d start %#x lane %d (hi %v, which %d): AVX2 %v, Go %v", stride, start, bad, h != nil, which, got, want)
						}
					}
				}
			}
		}
	}
}
