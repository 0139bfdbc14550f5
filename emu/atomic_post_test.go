package emu

import (
	"sync"
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// llvm-mc-15 -mcpu=gfx90a encodings used by the posted-add tests.
var (
	encAtomicAdd    = []byte{0x00, 0x80, 0x08, 0xdd, 0x00, 0x02, 0x7f, 0x00} // global_atomic_add v[0:1], v2, off
	encAtomicSub    = []byte{0x00, 0x80, 0x0c, 0xdd, 0x00, 0x02, 0x7f, 0x00} // global_atomic_sub v[0:1], v2, off
	encAtomicAddGLC = []byte{0x00, 0x80, 0x09, 0xdd, 0x00, 0x02, 0x7f, 0x03} // global_atomic_add v3, v[0:1], v2, off glc
	encFlatAdd      = []byte{0x00, 0x00, 0x08, 0xdd, 0x00, 0x02, 0x00, 0x00} // flat_atomic_add v[0:1], v2
	encLoadOther    = []byte{0x00, 0x80, 0x50, 0xdc, 0x06, 0x00, 0x7f, 0x04} // global_load_dword v4, v[6:7], off
	encLoadOff8     = []byte{0x08, 0x80, 0x50, 0xdc, 0x00, 0x00, 0x7f, 0x04} // global_load_dword v4, v[0:1], off offset:8
	encStoreOther   = []byte{0x00, 0x80, 0x70, 0xdc, 0x06, 0x02, 0x7f, 0x00} // global_store_dword v[6:7], v2, off
	encWaitcnt      = []byte{0x70, 0x0f, 0x8c, 0xbf}                         // s_waitcnt vmcnt(0)
	encDSWrite      = []byte{0x00, 0x00, 0x1a, 0xd8, 0x07, 0x02, 0x00, 0x00} // ds_write_b32 v7, v2
	encSendmsg      = []byte{0x01, 0x00, 0x90, 0xbf}                         // s_sendmsg sendmsg(MSG_INTERRUPT)
)

// postHarness runs decoded instructions on a bare wave the way the run
// loop (wave.exec1) does: the slow step first when the wave is in a
// special state, then the semantics.
type postHarness struct {
	t  *testing.T
	w  *wave
	tg isa.Target
}

func newPostHarness(t *testing.T) *postHarness {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	return &postHarness{t: t, w: testWave(t), tg: tg}
}

func (h *postHarness) step(enc []byte) {
	h.t.Helper()
	in, err := isa.Decode(h.tg, enc)
	if err != nil {
		h.t.Fatal(err)
	}
	o, err := buildOp(&in)
	if err != nil {
		h.t.Fatal(err)
	}
	if h.w.slow != 0 && h.w.slowStep(o) {
		return
	}
	o.fn(h.w, o)
}

func (h *postHarness) posted() bool { return h.w.slow&slowPosted != 0 }

// setAddrs points v[0:1] of every lane at base + off(l) and sets v2 = val(l).
func (h *postHarness) setAddrs(base uint64, off func(l int) uint64, val func(l int) uint32) {
	for l := 0; l < 64; l++ {
		a := base + off(l)
		h.w.v[l], h.w.v[64+l], h.w.v[128+l] = uint32(a), uint32(a>>32), val(l)
	}
}

// TestPostedAdds: a no-return global add is held by the wave and summed
// per address; LDS writes, s_waitcnt and loads elsewhere leave it held; a
// load reaching the window, a store, a returning atomic and s_sendmsg
// perform it first, so each sees memory as if every lane's add had been
// done in order.
func TestPostedAdds(t *testing.T) {
	h := newPostHarness(t)
	w := h.w
	mem := w.r.dev.cfg.Memory.(*testMem)
	bins := mem.alloc(t, 4096, false)
	other := mem.alloc(t, 4096, false)
	want := make([]uint32, 8)
	h.setAddrs(bins.Base, func(l int) uint64 { return 4 * uint64(l%5) }, func(l int) uint32 { return uint32(l + 1) })
	for l := 0; l < 64; l++ {
		want[l%5] += uint32(l + 1)
	}
	for l := 0; l < 64; l++ { // v[6:7]: the other buffer, v7 also the LDS address
		a := other.Base + 4*uint64(l)
		w.v[6*64+l], w.v[7*64+l] = uint32(a), uint32(a>>32)
	}
	check := func(what string, want []uint32) {
		t.Helper()
		for i, x := range want {
			if got := le.Uint32(bins.Data[4*i:]); got != x {
				t.Errorf("%s: bin %d = %d, want %d", what, i, got, x)
			}
		}
	}
	h.step(encAtomicAdd)
	if !h.posted() {
		t.Fatal("global_atomic_add without glc was not posted")
	}
	check("posted, not yet performed", make([]uint32, 5))
	w.wg.lds = make([]byte, 1<<20) // room for ds_write_b32 at v7's low bits
	h.step(encWaitcnt)
	h.step(encDSWrite)
	le.PutUint32(other.Data[12:], 77)
	h.step(encLoadOther)
	if !h.posted() {
		t.Fatal("s_waitcnt, an LDS write or a load elsewhere performed the posted adds")
	}
	if w.v[4*64+3] != 77 {
		t.Errorf("load elsewhere: lane 3 read %d, want 77", w.v[4*64+3])
	}
	// Reading the bins (8 bytes on) performs the adds before the load.
	h.step(encLoadOff8)
	if h.posted() {
		t.Fatal("a load reaching the window left the adds posted")
	}
	check("after a load of the bins", want)
	for l := 0; l < 64; l++ {
		if got, x := w.v[4*64+l], want[l%5+2]; l%5+2 < 5 && got != x {
			t.Errorf("lane %d loaded %d, want %d", l, got, x)
		}
	}
	// Subtract, then a store anywhere performs it.
	h.step(encAtomicSub)
	h.step(encAtomicSub)
	h.step(encAtomicAdd)
	h.step(encStoreOther)
	if h.posted() {
		t.Fatal("a store left the adds posted")
	}
	check("after add, sub, sub and a store", make([]uint32, 5))
	// A returning add performs the posted ones first: the values it
	// returns include them.
	h.step(encAtomicAdd)
	h.step(encAtomicAddGLC)
	if h.posted() {
		t.Fatal("a returning atomic left the adds posted")
	}
	for l := 0; l < 64; l++ {
		if l < 5 && w.v[3*64+l] != want[l] {
			t.Errorf("glc add, lane %d returned %d, want %d (the posted add's sum)", l, w.v[3*64+l], want[l])
		}
	}
	check("after a posted and a returning add", []uint32{2 * want[0], 2 * want[1], 2 * want[2], 2 * want[3], 2 * want[4]})
	// FLAT adds to global memory post too; s_sendmsg performs them.
	h.step(encFlatAdd)
	if !h.posted() {
		t.Fatal("flat_atomic_add to global memory was not posted")
	}
	h.step(encSendmsg)
	if h.posted() {
		t.Fatal("s_sendmsg left the adds posted")
	}
	check("after a flat add", []uint32{3 * want[0], 3 * want[1], 3 * want[2], 3 * want[3], 3 * want[4]})
}

// TestPostedAddsWindows: a partial EXEC, adds alternating between two
// buffers (each switch performs the other window's sums), a span wider
// than the window (not posted) and the wave leaving the run loop.
func TestPostedAddsWindows(t *testing.T) {
	h := newPostHarness(t)
	w := h.w
	mem := w.r.dev.cfg.Memory.(*testMem)
	a := mem.alloc(t, 8192, false)
	b := mem.alloc(t, 8192, false)
	w.setExec(0xF0F0_0000_0000_1235)
	exec := w.exec()
	wantA, wantB := make([]uint32, 2048), make([]uint32, 2048)
	for round := 0; round < 3; round++ {
		h.setAddrs(a.Base+1020, func(l int) uint64 { return 4 * uint64(l%3) }, func(l int) uint32 { return uint32(l) })
		h.step(encAtomicAdd)
		h.setAddrs(b.Base, func(l int) uint64 { return 4 * uint64(l*7%200) }, func(l int) uint32 { return 1 })
		h.step(encAtomicAdd)
		// 64 lanes 32 bytes apart: 2 KiB, wider than the window.
		h.setAddrs(b.Base+4096, func(l int) uint64 { return 32 * uint64(l) }, func(l int) uint32 { return 3 })
		h.step(encAtomicAdd)
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				wantA[255+l%3] += uint32(l)
				wantB[l*7%200]++
				wantB[1024+8*l] += 3
			}
		}
	}
	if h.posted() {
		w.flushPosted() // as the run loop does when the wave leaves it
	}
	for i := range wantA {
		if got := le.Uint32(a.Data[4*i:]); got != wantA[i] {
			t.Errorf("buffer a dword %d = %d, want %d", i, got, wantA[i])
		}
		if got := le.Uint32(b.Data[4*i:]); got != wantB[i] {
			t.Errorf("buffer b dword %d = %d, want %d", i, got, wantB[i])
		}
	}
}

// TestPostedAddsFaults: a misaligned or unmapped lane is not posted; the
// lane-by-lane path faults on it as before, after performing what was
// posted.
func TestPostedAddsFaults(t *testing.T) {
	for _, c := range []struct {
		name string
		addr func(base uint64) uint64
		kind FaultKind
	}{
		{"misaligned", func(base uint64) uint64 { return base + 6 }, FaultMisaligned},
		{"unmapped", func(uint64) uint64 { return 0x10 }, FaultMemory},
	} {
		h := newPostHarness(t)
		w := h.w
		buf := w.r.dev.cfg.Memory.(*testMem).alloc(t, 4096, false)
		h.setAddrs(buf.Base, func(int) uint64 { return 0 }, func(int) uint32 { return 1 })
		h.step(encAtomicAdd)
		w.v[9], w.v[64+9] = uint32(c.addr(buf.Base)), uint32(c.addr(buf.Base)>>32)
		func() {
			defer func() {
				f, _ := recover().(*Fault)
				if f == nil || f.Kind != c.kind || f.Lane != 9 {
					t.Errorf("%s: fault %v, want %v at lane 9", c.name, f, c.kind)
				}
			}()
			h.step(encAtomicAdd)
		}()
		if got := le.Uint32(buf.Data); got != 64+9 {
			t.Errorf("%s: dword 0 = %d, want 73 (64 posted, then lanes 0-8 before the fault)", c.name, got)
		}
	}
}

// TestPostedAddsConcurrent: waves on several goroutines posting to the
// same bins and performing their sums lose no update (run under -race
// too).
func TestPostedAddsConcurrent(t *testing.T) {
	h0 := newPostHarness(t)
	mem := h0.w.r.dev.cfg.Memory.(*testMem)
	bins := mem.alloc(t, 4096, false)
	const workers, iters = 4, 300
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		h := newPostHarness(t)
		h.w.r.dev.cfg.Memory = mem
		h.setAddrs(bins.Base, func(l int) uint64 { return 4 * uint64(l*l%256) }, func(l int) uint32 { return uint32(l + 1) })
		in, err := isa.Decode(h.tg, encAtomicAdd)
		if err != nil {
			t.Fatal(err)
		}
		o, err := buildOp(&in)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < iters; i++ {
				o.fn(h.w, o)
				if i%7 == 6 {
					h.w.flushPosted()
				}
			}
			h.w.flushPosted()
		}()
	}
	wg.Wait()
	want := make([]uint32, 256)
	for l := 0; l < 64; l++ {
		want[l*l%256] += uint32(l+1) * workers * iters
	}
	for i, x := range want {
		if got := le.Uint32(bins.Data[4*i:]); got != x {
			t.Errorf("bin %d = %d, want %d", i, got, x)
		}
	}
}

// TestPostedAddsSaddrLoad: a GLOBAL load with an SGPR base and a 32-bit
// vaddr (the range from the vaddr's minimum and maximum) lets posted adds
// stay when it reads elsewhere and performs them first when it reaches
// them.
func TestPostedAddsSaddrLoad(t *testing.T) {
	encLoadSaddr := []byte{0x00, 0x80, 0x50, 0xdc, 0x05, 0x00, 0x02, 0x04} // global_load_dword v4, v5, s[2:3]
	h := newPostHarness(t)
	w := h.w
	mem := w.r.dev.cfg.Memory.(*testMem)
	bins := mem.alloc(t, 4096, false)
	other := mem.alloc(t, 4096, false)
	h.setAddrs(bins.Base, func(l int) uint64 { return 4 * uint64(l%5) }, func(int) uint32 { return 2 })
	h.step(encAtomicAdd)
	// Elsewhere: other[4·l].
	w.s[2], w.s[3] = uint32(other.Base), uint32(other.Base>>32)
	for l := 0; l < 64; l++ {
		w.v[5*64+l] = 4 * uint32(l)
		le.PutUint32(other.Data[4*l:], uint32(1000+l))
	}
	h.step(encLoadSaddr)
	if !h.posted() || w.v[4*64+9] != 1009 {
		t.Fatalf("a load elsewhere: posted %v, lane 9 read %d (want 1009)", h.posted(), w.v[4*64+9])
	}
	// The bins through a base 64 bytes below them (only the base plus the
	// vaddr is an address): the range reaches the bins, so the adds go
	// first and the load sees them.
	w.s[2], w.s[3] = uint32(bins.Base-64), uint32((bins.Base-64)>>32)
	for l := 0; l < 64; l++ {
		w.v[5*64+l] = 64 + 4*uint32(l%5)
	}
	h.step(encLoadSaddr)
	if h.posted() {
		t.Fatal("a load reaching the window left the adds posted")
	}
	for l := 0; l < 5; l++ {
		want := uint32(0)
		for k := l; k < 64; k += 5 {
			want += 2
		}
		if w.v[4*64+l] != want {
			t.Errorf("lane %d read bin %d = %d, want %d", l, l, w.v[4*64+l], want)
		}
	}
}
