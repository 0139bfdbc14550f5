package emu

import (
	"fmt"
	"slices"
	"testing"
)

// TestFastVALUMatchesPrevious runs every handler specialiseP installed and
// the handler it replaced on identical waves, over operand shapes (VGPR,
// SGPR, constant sources; destinations overlapping sources), EXEC all ones
// and partial, and edge values, and requires identical VGPRs, SGPRs and
// EXEC afterwards.
func TestFastVALUMatchesPrevious(t *testing.T) {
	semFor(0)
	g := lcg(3)
	edges := []uint32{0, 1, 2, 31, 32, 63, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xFFFF_FFFE, 0xFFFF_FFFF,
		0x3F80_0000, 0xBF80_0000, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x7F80_0001, 0x0000_0400} // floats: ±1, ±inf, qNaN, sNaN, denormal
	fill := func(w *wave) {
		for i := range w.v {
			if g.next()%4 == 0 {
				w.v[i] = edges[g.next()%uint32(len(edges))]
			} else {
				w.v[i] = g.next()
			}
		}
		for i := 0; i < 100; i++ {
			w.s[i] = edges[g.next()%uint32(len(edges))]
		}
		w.s[20], w.s[21] = g.next(), g.next() // a carry-in / lane mask
		w.s[sVCCLo], w.s[sVCCHi] = g.next(), g.next()
	}
	bin := [][3]operand{{v(0), v(1)}, {s(8), v(1)}, {k(5), v(1)}, {k(0xFFFF_FFF0), v(1)}, {v(1), s(9)}, {v(3), v(3)}}
	cases := map[string][][3]operand{
		"v_mov_b32":     {{v(1)}, {s(8)}, {k(0x3F80_0000)}},
		"v_add_co_u32":  {{v(0), v(1)}, {s(8), v(1)}, {k(0xFFFF_FFFF), v(1)}, {v(1), s(9)}},
		"v_addc_co_u32": {{v(0), v(1), s(20)}, {s(8), v(1), s(sVCCLo)}, {k(0), v(1), s(20)}, {v(2), v(2), s(20)}},
		"v_lshlrev_b64": {{k(2), v(0)}, {k(40), v(4)}, {v(1), v(4)}, {s(8), v(2)}, {k(3), s(8)}},
		"v_lshrrev_b64": {{k(2), v(0)}, {k(40), v(4)}, {v(1), v(4)}, {s(8), v(2)}},
		"v_cndmask_b32": {{v(0), v(1), s(sVCCLo)}, {k(0), k(1), s(20)}, {k(0x3F80_0000), v(1), s(20)}, {v(1), s(8), s(sVCCLo)}},
	}
	for name := range pPrev {
		if _, ok := cases[name]; !ok {
			cases[name] = bin
		}
	}
	dsts := []operand{v(4), v(1), v(5)} // v1 / v5 overlap sources
	execs := []uint64{^uint64(0), 0x0000_FFFF_0F0F_8001, 0}
	a, b := testWave(t), testWave(t)
	for name, shapes := range cases {
		prev, ok := pPrev[name]
		if !ok {
			t.Fatalf("%s: not specialised", name)
		}
		for si, src := range shapes {
			for _, dst := range dsts {
				for _, ex := range execs {
					for _, mod := range []string{"", "clamp", "neg"} {
						o := op{dst: dst, src: src, sdst: s(sVCCLo), clamp: mod == "clamp"}
						if mod == "neg" {
							o.neg = 1
						}
						if name == "v_add_co_u32" || name == "v_addc_co_u32" {
							o.sdst = s(30)
						}
						fill(a)
						copy(b.v, a.v)
						b.s = a.s
						a.setExec(ex)
						b.setExec(ex)
						oa, ob := o, o
						semantics[name].fn(a, &oa)
						prev(b, &ob)
						what := fmt.Sprintf("%s shape %d dst v%d exec %#x %s", name, si, dst.idx, ex, mod)
						if !slices.Equal(a.v, b.v) {
							for i := range a.v {
								if a.v[i] != b.v[i] {
									t.Fatalf("%s: v%d lane %d = %#x, previous handler %#x", what, i/64, i%64, a.v[i], b.v[i])
								}
							}
						}
						if a.s != b.s {
							t.Fatalf("%s: SGPRs differ", what)
						}
					}
				}
			}
		}
	}
}
