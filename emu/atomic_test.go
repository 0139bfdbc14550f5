package emu

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestAtomicAddCombined checks the one-atomic-per-address paths of 32-bit
// global add and sub (addCombined: by offset in a 1 KiB window, and by
// hash with two workers) and the lane-by-lane path they fall back to
// against lane-by-lane host atomics: random lane addresses among a few
// dwords, random EXEC masks, with and without returned values, and with
// the returned values written over the source register.
func TestAtomicAddCombined(t *testing.T) {
	for _, c := range []struct {
		name    string
		stride  uint64
		workers int
	}{{"window", 4, 1}, {"window-edge", 60, 2}, {"hash", 1028, 2}, {"per-lane", 1028, 1}} {
		t.Run(c.name, func(t *testing.T) { testAddCombined(t, c.stride, c.workers) })
	}
}

func testAddCombined(t *testing.T, stride uint64, workers int) {
	w := testWave(t)
	w.r.workers = workers
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 16*int(stride), false)
	ref := make([]byte, len(buf.Data))
	rng := rand.New(rand.NewPCG(1, stride))
	for iter := 0; iter < 2000; iter++ {
		for i := range 16 {
			v := rng.Uint32()
			le.PutUint32(buf.Data[stride*uint64(i):], v)
			le.PutUint32(ref[stride*uint64(i):], v)
		}
		nAddr := 1 + rng.IntN(16)
		exec := rng.Uint64()
		if iter%4 == 0 {
			exec = ^uint64(0)
		}
		w.setExec(exec)
		sub := iter%3 == 1
		ret := iter%2 == 0
		alias := ret && iter%4 == 2
		src := make([]uint32, 64)
		for l := 0; l < 64; l++ {
			a := buf.Base + stride*uint64(rng.IntN(nAddr))
			w.v[l], w.v[64+l] = uint32(a), uint32(a>>32)
			src[l] = rng.Uint32() >> rng.IntN(32)
			w.v[128+l] = src[l]
			w.v[192+l] = 0xDEAD
		}
		name, kind := "global_atomic_add", uint32(aAdd)
		if sub {
			name, kind = "global_atomic_sub", aSub
		}
		o := &op{dst: v(3), src: [3]operand{v(0), {}, v(2)}, imm: kind}
		if alias {
			o.dst = v(2)
		}
		if ret {
			o.flags |= fGLC
		}
		exec1(t, w, name, o)
		var want [64]uint32
		for l := 0; l < 64; l++ {
			if exec>>l&1 == 0 {
				continue
			}
			off := (uint64(w.v[l]) | uint64(w.v[64+l])<<32) - buf.Base
			want[l] = hostAtomic32(ref[off:], kind, src[l], 0)
		}
		for i := range uint64(16) {
			if g, r := le.Uint32(buf.Data[stride*i:]), le.Uint32(ref[stride*i:]); g != r {
				t.Fatalf("iter %d (sub %v): dword %d = %#x, want %#x", iter, sub, i, g, r)
			}
		}
		dst := 3
		if alias {
			dst = 2
		}
		for l := 0; l < 64; l++ {
			got := w.v[dst*64+l]
			switch {
			case exec>>l&1 == 0 && alias && got != src[l]:
				t.Fatalf("iter %d: inactive lane %d source changed to %#x", iter, l, got)
			case exec>>l&1 == 0 && !alias && got != 0xDEAD:
				t.Fatalf("iter %d: inactive lane %d written (%#x)", iter, l, got)
			case exec>>l&1 != 0 && ret && got != want[l]:
				t.Fatalf("iter %d (sub %v alias %v): lane %d returned %#x, want %#x", iter, sub, alias, l, got, want[l])
			case exec>>l&1 != 0 && !ret && !alias && got != 0xDEAD:
				t.Fatalf("iter %d: no-return atomic wrote lane %d", iter, l)
			}
		}
	}
}

// TestAtomicAddCombinedFault: a lane outside device memory faults as it
// does lane by lane, naming the first such lane, in either combining path.
func TestAtomicAddCombinedFault(t *testing.T) {
	w := testWave(t)
	w.r.workers = 2
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 64, false)
	w.setExec(0b111)
	for l := 0; l < 3; l++ {
		a := buf.Base
		if l == 2 {
			a = 0x10 // unmapped
		}
		w.v[l], w.v[64+l], w.v[128+l] = uint32(a), uint32(a>>32), 5
	}
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMemory || f.Lane != 2 || f.Address != 0x10 {
				t.Errorf("fault %v, want a memory fault at lane 2", f)
			}
		}()
		exec1(t, w, "global_atomic_add", &op{src: [3]operand{v(0), {}, v(2)}, imm: aAdd})
	}()
	// Misaligned, inside the window path's span.
	w.v[2], w.v[66] = uint32(buf.Base+6), uint32(buf.Base>>32)
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMisaligned || f.Lane != 2 {
				t.Errorf("fault %v, want a misaligned fault at lane 2", f)
			}
		}()
		exec1(t, w, "global_atomic_add", &op{src: [3]operand{v(0), {}, v(2)}, imm: aAdd})
	}()
}

// TestAtomicAddCombinedConcurrent: waves on several goroutines adding to
// the same few dwords lose no update (run under -race too).
func TestAtomicAddCombinedConcurrent(t *testing.T) {
	w0 := testWave(t)
	mem := w0.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 64, false)
	const workers, iters = 4, 500
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		w := testWave(t)
		w.r.dev.cfg.Memory = mem
		for l := 0; l < 64; l++ {
			a := buf.Base + 4*uint64(l%5)
			w.v[l], w.v[64+l], w.v[128+l] = uint32(a), uint32(a>>32), uint32(l+1)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &op{src: [3]operand{v(0), {}, v(2)}, imm: aAdd, fn: semantics["global_atomic_add"].fn, n: 4}
			for i := 0; i < iters; i++ {
				o.fn(w, o)
			}
		}()
	}
	wg.Wait()
	for i := 0; i < 5; i++ {
		var want uint32
		for l := i; l < 64; l += 5 {
			want += uint32(l+1) * workers * iters
		}
		if got := le.Uint32(buf.Data[4*i:]); got != want {
			t.Errorf("dword %d = %d, want %d", i, got, want)
		}
	}
}
