package emu

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// TestUnitStrideMatchesGeneral: the unit-stride fast path (mem_p_unit.go)
// loads and stores exactly the bytes the lane-by-lane path does, for every
// dword width, both GLOBAL addressings, aligned and unaligned bases.
func TestUnitStrideMatchesGeneral(t *testing.T) {
	if raceEnabled {
		t.Skip("the fast path is off under -race")
	}
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 8192, false)
	g := lcg(7)
	for i := range buf.Data {
		buf.Data[i] = byte(g.next())
	}
	kinds := []struct {
		name string
		k    uint32
		nd   int
	}{{"dword", mB32, 1}, {"dwordx2", mB64, 2}, {"dwordx3", mB96, 3}, {"dwordx4", mB128, 4}}
	for _, kd := range kinds {
		for _, saddr := range []bool{false, true} {
			for _, base := range []uint64{0, 6, 4096 - 64*16} {
				stride := uint64(4 * kd.nd)
				a0 := buf.Base + base
				o := &op{dst: v(4), src: [3]operand{v(0), {}, v(12)}, imm: kd.k, offset: 16}
				for l := 0; l < 64; l++ {
					a := a0 + stride*uint64(l)
					if saddr {
						w.v[l] = uint32(a - buf.Base)
					} else {
						w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
					}
				}
				if saddr {
					o.src[1] = s(20)
					w.sets64(20, buf.Base)
				}
				// Load: fast path against the general path.
				clear(w.v[4*64 : 12*64])
				if !w.loadUnit(o) {
					t.Fatalf("%s saddr=%v base=%d: fast path not taken", kd.name, saddr, base)
				}
				fast := append([]uint32(nil), w.v[4*64:(4+kd.nd)*64]...)
				clear(w.v[4*64 : 12*64])
				w.globalAddrs(o, ^uint64(0))
				w.memLoad(o, ^uint64(0), kd.k, &o.dst)
				for i, x := range w.v[4*64 : (4+kd.nd)*64] {
					if fast[i] != x {
						t.Fatalf("%s saddr=%v base=%d: load reg %d lane %d = %#x, want %#x", kd.name, saddr, base, i/64, i%64, fast[i], x)
					}
				}
				// Store: same bytes written.
				for i := 12 * 64; i < 16*64; i++ {
					w.v[i] = uint32(g.next())
				}
				before := append([]byte(nil), buf.Data...)
				if !w.storeUnit(o) {
					t.Fatalf("%s saddr=%v base=%d: store fast path not taken", kd.name, saddr, base)
				}
				fastMem := append([]byte(nil), buf.Data...)
				copy(buf.Data, before)
				w.globalAddrs(o, ^uint64(0))
				w.memStore(o, ^uint64(0), kd.k, &o.src[2])
				if !bytes.Equal(fastMem, buf.Data) {
					t.Fatalf("%s saddr=%v base=%d: stored bytes differ", kd.name, saddr, base)
				}
				if bytes.Equal(before, buf.Data) {
					t.Fatalf("%s: store changed nothing", kd.name)
				}
			}
		}
	}
}

// TestUnitStrideMaskedStore: a unit-stride dword store with EXEC partial
// (storeUnitMasked) writes exactly the active lanes' bytes the lane-by-lane
// path writes, both addressings, aligned and unaligned bases; it declines
// when the lanes are not unit-stride or an inactive lane's address leaves
// the region (the general path then decides).
func TestUnitStrideMaskedStore(t *testing.T) {
	if raceEnabled {
		t.Skip("the fast path is off under -race")
	}
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	g := lcg(11)
	execs := []uint64{1, 1 << 63, 0x5555_5555_5555_5555, 0xF0F0_0000_FFFF_0001, ^uint64(0) >> 1}
	for _, saddr := range []bool{false, true} {
		for _, base := range []uint64{0, 6, 4096 - 256} {
			for _, exec := range execs {
				a0 := buf.Base + base
				o := &op{src: [3]operand{v(0), {}, v(12)}, imm: mB32}
				for l := 0; l < 64; l++ {
					a := a0 + 4*uint64(l)
					if saddr {
						w.v[l] = uint32(a - buf.Base)
					} else {
						w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
					}
					w.v[12*64+l] = g.next()
				}
				if saddr {
					o.src[1] = s(20)
					w.sets64(20, buf.Base)
				}
				for i := range buf.Data {
					buf.Data[i] = byte(g.next())
				}
				before := append([]byte(nil), buf.Data...)
				if !w.storeUnitMasked(o, exec) {
					t.Fatalf("saddr=%v base=%d exec %#x: fast path not taken", saddr, base, exec)
				}
				fastMem := append([]byte(nil), buf.Data...)
				copy(buf.Data, before)
				w.globalAddrs(o, exec)
				w.memStore(o, exec, mB32, &o.src[2])
				if !bytes.Equal(fastMem, buf.Data) {
					t.Fatalf("saddr=%v base=%d exec %#x: stored bytes differ", saddr, base, exec)
				}
			}
		}
	}
	// Declines: lane 5 off the stride; the range past the region's end
	// (only inactive lanes there).
	o := &op{src: [3]operand{v(0), {}, v(12)}, imm: mB32}
	for l := 0; l < 64; l++ {
		a := buf.Base + 4*uint64(l)
		w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
	}
	w.v[5] += 4
	if w.storeUnitMasked(o, 1) {
		t.Error("took a store whose lanes are not unit-stride")
	}
	for l := 0; l < 64; l++ {
		a := buf.Base + 4096 - 128 + 4*uint64(l)
		w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
	}
	if w.storeUnitMasked(o, 1) {
		t.Error("took a store whose inactive lanes leave the region")
	}
}

// TestUnitStrideU8: consecutive zero-extended byte loads through the fast
// path equal the general path's, both addressings, any alignment, and a
// run of bytes crossing the region's end is declined.
func TestUnitStrideU8(t *testing.T) {
	if raceEnabled {
		t.Skip("the fast path is off under -race")
	}
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	g := lcg(11)
	for i := range buf.Data {
		buf.Data[i] = byte(g.next())
	}
	for _, saddr := range []bool{false, true} {
		for _, base := range []uint64{0, 3, 4096 - 64 - 8} {
			o := &op{dst: v(4), src: [3]operand{v(0), {}, v(12)}, imm: mU8, offset: 8}
			setLaneAddrs(w, o, buf, saddr, func(l int) uint64 { return base + uint64(l) })
			what := fmt.Sprintf("saddr=%v base=%d", saddr, base)
			if fast, gen := loadFastAndGeneral(t, w, o, w.loadUnit, what); !slices.Equal(fast, gen) {
				t.Fatalf("%s: fast %#x, general %#x", what, fast[:4], gen[:4])
			}
			if base == 4096-64-8 {
				o.offset = 9 // the last byte would be one past the region
				if w.loadUnit(o) {
					t.Fatal("byte run past the region taken")
				}
			}
		}
	}
}

// TestUnitStrideDeclines: accesses the fast path must leave to the general
// path (a lane out of step, 32-bit wrap of the lane offset, a range running
// off the region, a store to read-only memory) are declined, and the
// general path then faults at the right lane.
func TestUnitStrideDeclines(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	o := &op{dst: v(4), src: [3]operand{v(0), {}, v(4)}, imm: mB32}
	set := func(a0 uint64) {
		for l := 0; l < 64; l++ {
			a := a0 + 4*uint64(l)
			w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
		}
	}
	for _, bit := range []uint32{4, 1 << 20, 1 << 31} {
		set(buf.Base)
		w.v[17] ^= bit
		if w.loadUnit(o) {
			t.Errorf("lane out of step by %#x taken", bit)
		}
		set(buf.Base)
		w.v[64+40] ^= bit
		if w.loadUnit(o) {
			t.Errorf("high half of a lane off by %#x taken", bit)
		}
	}
	set(buf.Base + 4096 - 128) // lanes 32.. past the end
	if w.loadUnit(o) || w.storeUnit(o) {
		t.Error("range past the region taken")
	}
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMemory || f.Lane != 32 || f.Address != buf.Base+4096 {
				t.Errorf("fault: %v", f)
			}
		}()
		exec1(t, w, "global_load_dword", o)
	}()
	// vaddr low halves wrapping over 2^32 with the high half unchanged are
	// not contiguous addresses.
	for l := 0; l < 64; l++ {
		w.v[l], w.v[64+l] = 0xFFFF_FF80+4*uint32(l), 1
	}
	if _, ok := w.unitStride(o, 4); ok {
		t.Error("wrapping low halves taken")
	}
	code := mem.alloc(t, 4096, true)
	set(code.Base)
	if w.storeUnit(o) {
		t.Error("store to read-only memory taken")
	}
	if !w.loadUnit(o) && !raceEnabled {
		t.Error("load from read-only memory declined")
	}
}

// TestGatherMatchesGeneral: the gather fast path (any lane addresses in
// one region, EXEC all ones) loads and stores what the lane-by-lane path
// does: rows of a 2D workgroup, reversed lanes, repeated addresses (the
// highest lane's store remains), unaligned addresses, both addressings.
func TestGatherMatchesGeneral(t *testing.T) {
	if raceEnabled {
		t.Skip("the fast path is off under -race")
	}
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 16384, false)
	g := lcg(9)
	for i := range buf.Data {
		buf.Data[i] = byte(g.next())
	}
	patterns := map[string]func(l int) uint64{
		"rows":      func(l int) uint64 { return uint64(l/16)*4096 + uint64(l%16)*4 + 100 },
		"reversed":  func(l int) uint64 { return uint64(63-l) * 4 },
		"repeats":   func(l int) uint64 { return uint64(l%5) * 8 },
		"unaligned": func(l int) uint64 { return uint64(l)*13 + 1 },
	}
	for name, at := range patterns {
		for _, saddr := range []bool{false, true} {
			o := &op{dst: v(4), src: [3]operand{v(0), {}, v(5)}, imm: mB32, offset: 8}
			setLaneAddrs(w, o, buf, saddr, at)
			for l := 0; l < 64; l++ {
				w.v[5*64+l] = g.next()
			}
			what := fmt.Sprintf("%s saddr=%v", name, saddr)
			if fast, gen := loadFastAndGeneral(t, w, o, w.loadGather, what); !slices.Equal(fast, gen) {
				t.Fatalf("%s: gather load differs", what)
			}
			before := append([]byte(nil), buf.Data...)
			if !w.storeGather(o) {
				t.Fatalf("%s saddr=%v: gather store not taken", name, saddr)
			}
			fastMem := append([]byte(nil), buf.Data...)
			copy(buf.Data, before)
			w.globalAddrs(o, ^uint64(0))
			w.memStore(o, ^uint64(0), mB32, &o.src[2])
			if !bytes.Equal(fastMem, buf.Data) {
				t.Fatalf("%s saddr=%v: gather store differs", name, saddr)
			}
		}
	}
	// The loaded register may be the offset register (global_load_dword
	// v0, v0, s[..]): every lane's offset is read before it is written.
	for l := 0; l < 64; l++ {
		w.v[l] = uint32(l*52+8) ^ uint32(l&3)<<2
	}
	offs := append([]uint32(nil), w.v[:64]...)
	w.sets64(20, buf.Base)
	o := &op{dst: v(0), src: [3]operand{v(0), s(20), v(5)}, imm: mB32}
	if !w.loadGather(o) {
		t.Fatal("gather load into its offset register not taken")
	}
	for l, off := range offs {
		if want := le.Uint32(buf.Data[off:]); w.v[l] != want {
			t.Fatalf("load into the offset register, lane %d: %#x, want %#x", l, w.v[l], want)
		}
	}
	// A range leaving the region is declined; the general path faults at
	// the first lane outside.
	o = &op{dst: v(4), src: [3]operand{v(0), {}, v(5)}, imm: mB32}
	for l := 0; l < 64; l++ {
		a := buf.Base + uint64(l)*4
		if l == 40 {
			a = buf.Base + 16384
		}
		w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
	}
	if w.loadGather(o) || w.storeGather(o) {
		t.Fatal("gather past the region taken")
	}
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMemory || f.Lane != 40 {
				t.Errorf("fault: %v", f)
			}
		}()
		exec1(t, w, "global_load_dword", o)
	}()
}

// TestRecentRegions: the wave's recent-region cache finds each of more
// regions than it holds (evicting round robin), and a wave returned to the
// device's pool forgets them, so the next dispatch looks regions up again.
func TestRecentRegions(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	var regs []Region
	for i := 0; i < len(w.rc)+3; i++ {
		regs = append(regs, mem.alloc(t, 4096, i == 5))
	}
	for round := 0; round < 2; round++ {
		for i, r := range regs {
			e, ok := w.lookupRegion(r.Base + 100)
			if !ok || e.base != r.Base || e.end != r.Base+4096 || e.ro != (i == 5) || &e.data[0] != &r.Data[0] {
				t.Fatalf("region %d: %+v %v", i, e, ok)
			}
		}
	}
	if _, ok := w.lookupRegion(regs[0].Base + 4096*64); ok {
		t.Error("an address outside every region was found")
	}
	g := w.wg
	g.waves = []*wave{w}
	w.r.dev.putWorkgroup(g)
	for _, e := range w.rc {
		if e.data != nil || e.end != 0 {
			t.Error("pooled wave kept its regions")
		}
	}
	if w.rdata != nil || w.rend != 0 {
		t.Error("pooled wave kept its current region")
	}
}

// setLaneAddrs points o's 64 lanes at region offsets at(l) of buf: an SGPR
// base (s20) with VGPR offsets in v0 when saddr is set, else VGPR address
// pairs in v0:v1.
func setLaneAddrs(w *wave, o *op, buf Region, saddr bool, at func(l int) uint64) {
	for l := 0; l < 64; l++ {
		a := buf.Base + at(l)
		if saddr {
			w.v[l] = uint32(at(l))
		} else {
			w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
		}
	}
	if saddr {
		o.src[1] = s(20)
		w.sets64(20, buf.Base)
	}
}

// loadFastAndGeneral runs the fast load path fast (failing the test if it
// declines), then the general path, into v4, and returns both results.
func loadFastAndGeneral(t *testing.T, w *wave, o *op, fast func(o *op) bool, what string) (f, g []uint32) {
	t.Helper()
	clear(w.v[4*64 : 5*64])
	if !fast(o) {
		t.Fatalf("%s: fast path not taken", what)
	}
	f = append([]uint32(nil), w.v[4*64:5*64]...)
	clear(w.v[4*64 : 5*64])
	w.globalAddrs(o, ^uint64(0))
	w.memLoad(o, ^uint64(0), o.imm, &o.dst)
	return f, w.v[4*64 : 5*64]
}

// TestStridePrefetchTarget: a load's third access at a repeated step of a
// page or more asks for the bytes two steps on, inside the region only;
// short steps, changed steps and another instruction reset or skip it.
func TestStridePrefetchTarget(t *testing.T) {
	const base, end, n = 0x10000, 0x10000 + 1<<20, 256
	var e pfEntry
	type step struct {
		pc, a    uint64
		want     uint64
		prefetch bool
	}
	for i, s := range []step{
		{0x100, 0x10000, 0, false},           // first sight
		{0x100, 0x20000, 0, false},           // one step of 64 KiB
		{0x100, 0x30000, 0x50000, true},      // the step repeats: two steps on
		{0x100, 0x40000, 0x60000, true},      //
		{0x100, 0x48000, 0, false},           // a different step
		{0x100, 0x50000, 0x60000, true},      // 32 KiB, twice
		{0x100, 0x100000 - 0x8000, 0, false}, // step changes
		{0x200, 0x10000, 0, false},           // another instruction
		{0x200, 0x10400, 0, false},           // 1 KiB steps: the host's prefetchers'
		{0x200, 0x10800, 0, false},           //
		{0x300, 0x10000 + 0xE0000, 0, false},
		{0x300, 0x10000 + 0xF0000, 0, false},
		{0x300, 0x10000 + 0x100000 - n, 0, false}, // step 64 KiB - 256: next beyond the region
		{0x400, 0x80000, 0, false},
		{0x400, 0x70000, 0, false},
		{0x400, 0x60000, 0x40000, true}, // a negative step
	} {
		got, ok := e.observe(s.pc, s.a, n, base, end)
		if ok != s.prefetch || ok && got != s.want {
			t.Errorf("access %d (pc %#x, %#x): prefetch %v at %#x, want %v at %#x", i, s.pc, s.a, ok, got, s.prefetch, s.want)
		}
	}
	// At the region's end: the n bytes two steps on must fit.
	e = pfEntry{}
	x := uint64(end - 4*0x1000 - n/2) // two steps on: n/2 bytes before the end
	for _, a := range []uint64{x, x + 0x1000} {
		e.observe(0x500, a, n, base, end)
	}
	if got, ok := e.observe(0x500, x+0x2000, n, base, end); ok {
		t.Errorf("prefetch of %d bytes at %#x, past the region's end %#x", n, got, uint64(end))
	}
	e = pfEntry{}
	for _, a := range []uint64{end - 5*0x1000 - n, end - 4*0x1000 - n} {
		e.observe(0x500, a, n, base, end)
	}
	if got, ok := e.observe(0x500, end-3*0x1000-n, n, base, end); !ok || got != end-0x1000-n {
		t.Errorf("prefetch %v at %#x, want the last n bytes before the end %#x", ok, got, end-0x1000-n)
	}
}
