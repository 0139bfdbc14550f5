package emu

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// TestFastDSMatchesPrevious runs the LDS fast paths and the ops_ds.go
// handlers they fall back to on identical waves and LDS contents: in-range
// random, repeated and unaligned offsets, offsets that wrap, accesses
// running past the end (which must take the general path's 0 / dropped
// write), EXEC all ones and partial.
func TestFastDSMatchesPrevious(t *testing.T) {
	semFor(0)
	g := lcg(5)
	a, b := testWave(t), testWave(t)
	addrs := map[string]func(l int) uint32{
		"random":    func(l int) uint32 { return g.next() % 3800 },
		"repeats":   func(l int) uint32 { return uint32(l%3) * 4 },
		"unaligned": func(l int) uint32 { return uint32(l)*7 + 1 },
		"past end":  func(l int) uint32 { return 4096 - 256 + uint32(l)*4 },
		"wraps":     func(l int) uint32 { return 0xFFFF_FFF0 + uint32(l)*4 },
	}
	ops := []struct {
		name string
		o    op
	}{
		{"ds_read_b32", op{dst: v(4), src: [3]operand{v(0)}, imm: mB32, offset: 12}},
		{"ds_read_b64", op{dst: v(4), src: [3]operand{v(0)}, imm: mB64, offset: 40}},
		{"ds_read_b32", op{dst: v(0), src: [3]operand{v(0)}, imm: mB32}},
		{"ds_write_b32", op{src: [3]operand{v(0), v(2)}, imm: mB32, offset: 8}},
		{"ds_write_b64", op{src: [3]operand{v(0), v(2)}, imm: mB64, offset: 4}},
		{"ds_read2_b32", op{dst: v(4), src: [3]operand{v(0)}, imm: 1 | 1<<4, offset: 3, off1: 17}},
		{"ds_read2st64_b32", op{dst: v(0), src: [3]operand{v(0)}, imm: 1 | 64<<4, offset: 1, off1: 2}},
		{"ds_write2_b32", op{src: [3]operand{v(0), v(2), v(3)}, imm: 1 | 1<<4, offset: 0, off1: 1}},
		{"ds_write2st64_b32", op{src: [3]operand{v(0), v(2), v(3)}, imm: 1 | 64<<4, offset: 2, off1: 0}},
	}
	for _, c := range ops {
		prev := pPrev[c.name]
		if prev == nil {
			t.Fatalf("%s: not specialised", c.name)
		}
		for an, at := range addrs {
			for _, ex := range []uint64{^uint64(0), 0xF0F0_0000_FFFF_0001} {
				for i := range a.v {
					a.v[i] = g.next()
				}
				for l := 0; l < 64; l++ {
					a.v[l] = at(l)
				}
				for i := range a.wg.lds {
					a.wg.lds[i] = byte(g.next())
				}
				copy(b.v, a.v)
				copy(b.wg.lds, a.wg.lds)
				a.setExec(ex)
				b.setExec(ex)
				oa, ob := c.o, c.o
				what := fmt.Sprintf("%s %s exec %#x", c.name, an, ex)
				fa, fb := catchFault(func() { semantics[c.name].fn(a, &oa) }), catchFault(func() { prev(b, &ob) })
				if fmt.Sprint(fa) != fmt.Sprint(fb) {
					t.Fatalf("%s: fault %v, previous handler %v", what, fa, fb)
				}
				if !slices.Equal(a.v, b.v) {
					t.Fatalf("%s: registers differ", what)
				}
				if !bytes.Equal(a.wg.lds, b.wg.lds) {
					t.Fatalf("%s: LDS differs", what)
				}
			}
		}
	}
}

// catchFault runs f and returns the *Fault it panics with, or nil.
func catchFault(f func()) (fault *Fault) {
	defer func() {
		if e := recover(); e != nil {
			fault = e.(*Fault)
		}
	}()
	f()
	return nil
}
