package emu

import (
	"math/bits"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Posted atomic adds.
//
// A 32-bit global atomic add or subtract whose old value is not returned
// (no GLC) is a write the wave cannot observe by itself, and the hardware
// performs it some time later, in L2: until the wave waits for it, orders
// it with a fence, or reads the address, nothing says when. The emulator
// uses that latitude. postAdd keeps such adds in the wave, summed by
// address in a 1 KiB window (postedAdds), and flushPosted performs the sums
// with one host atomic per address:
//
//   - before the wave's next instruction that could observe or publish
//     them (postCheck): a load from global memory whose addresses reach the
//     window, any store, any other atomic, a scalar memory instruction,
//     s_sendmsg, s_trap;
//   - when the wave leaves the run loop (s_barrier, s_endpgm, s_sleep, the
//     switch interval, a fault): no other wave of the worker runs, and no
//     other worker learns anything from this wave, in between.
//
// LDS instructions need no flush: only waves of the same workgroup read
// LDS, and they run on this worker after the wave leaves the run loop. A
// fence (s_waitcnt, buffer_wbl2) orders the adds only against the wave's
// later stores and atomics, which flush first. Every add is done before
// the dispatch ends, and memory ends exactly as with one atomic per lane;
// other workers may see a sum of several adds arrive at once, as they may
// see several waves' adds land together on the hardware.
//
// A histogram's loop of loads and adds then costs one host atomic per bin
// per 2048 instructions rather than one per bin per add. bench histogram,
// large (5 alternated pairs): one worker 1.20 s -> 0.65 s, two workers
// 0.89 s -> 0.34 s, so two workers went from 1.35x one worker (they fought
// over the bins' 16 cache lines) to 1.92x.

// op.post: what a wave holding posted adds does before the op.
const (
	postFlush      = iota // flush the posted adds first
	postKeep              // nothing: the op neither observes nor publishes global memory
	postLoadGlobal        // a GLOBAL load: flush when its addresses reach the window
	postLoadFlat          // a FLAT load: the same
	postAdd               // a postable add (atomics decides)
)

// postKind classifies an instruction for postCheck by class and name.
func postKind(name string, class uint8, glc bool) uint8 {
	switch class {
	case ClassLDS:
		if strings.HasPrefix(name, "ds_gws_") {
			// A GWS barrier or semaphore publishes the wave's earlier
			// stores to the waves it releases, on any worker.
			return postFlush
		}
		return postKeep
	case ClassSALU, ClassVALU:
		return postKeep
	case ClassBranch:
		if name == "s_trap" {
			return postFlush
		}
		return postKeep // s_barrier and s_endpgm leave the run loop, which flushes
	case ClassOther:
		switch name {
		case "s_nop", "s_waitcnt", "s_setprio", "s_sleep":
			return postKeep
		}
	case ClassVMEM:
		switch {
		case strings.Contains(name, "addtid"):
			// Addressed by lane id, not vaddr: flush.
		case strings.HasPrefix(name, "global_load_"):
			return postLoadGlobal
		case strings.HasPrefix(name, "flat_load_"):
			return postLoadFlat
		case strings.HasPrefix(name, "scratch_load_"):
			return postKeep // the private aperture: never the window
		case !glc && (name == "global_atomic_add" || name == "global_atomic_sub" ||
			name == "flat_atomic_add" || name == "flat_atomic_sub"):
			return postAdd
		}
	}
	return postFlush
}

// postedAdds are a wave's posted atomic adds: sums by dword offset in the
// window [lo, end) of one writable region, mem being its host bytes. The
// sums are kept in four copies, by lane modulo 4, so that lanes adding to
// the same dword (a skewed histogram) do not wait for each other's
// store; first..last are the dword offsets that may hold a sum.
type postedAdds struct {
	lo, end     uint64
	mem         []byte
	first, last uint32
	sums        [4][combWindow / 4]uint32 // zero outside first..last
}

// postAdd posts a 32-bit atomic add (sub: subtract) of every active lane,
// as postedAdds describes. It reports false, having done nothing, when a
// lane's address is outside global memory or misaligned or the lanes span
// more than the window: the caller then runs the atomics lane by lane (and
// reports any fault).
func (w *wave) postAdd(exec uint64, src []uint32, sub bool) bool {
	if exec == 0 {
		return false
	}
	lo, hi, or := ^uint64(0), uint64(0), uint64(0)
	if exec == ^uint64(0) {
		for _, a := range &w.addrs {
			lo, hi, or = min(lo, a), max(hi, a), or|a
		}
	} else {
		for m := exec; m != 0; m &= m - 1 {
			a := w.addrs[bits.TrailingZeros64(m)]
			lo, hi, or = min(lo, a), max(hi, a), or|a
		}
	}
	if or&3 != 0 || hi-lo >= combWindow {
		return false
	}
	if ap := uint32(lo >> 32); ap >= SharedApertureHi {
		return false // the LDS or private aperture (they lie above user addresses)
	}
	p := &w.post
	if w.slow&slowPosted == 0 || lo < p.lo || hi+4 > p.end {
		if w.slow&slowPosted != 0 {
			w.flushPosted()
		}
		if !w.postWindow(lo, hi+4) {
			return false
		}
	}
	first, last := uint32(lo-p.lo)>>2, uint32(hi-p.lo)>>2
	if w.slow&slowPosted != 0 {
		first, last = min(first, p.first), max(last, p.last)
	}
	p.first, p.last = first, last
	var neg uint32 // v ^ neg - neg: v, or -v for sub
	if sub {
		neg = ^uint32(0)
	}
	if exec == ^uint64(0) {
		src := src[:64]
		for l := 0; l < 64; l += 4 {
			for k := 0; k < 4; k++ {
				i := (w.addrs[l+k] - p.lo) >> 2 & (combWindow/4 - 1)
				p.sums[k][i] += src[l+k] ^ neg - neg
			}
		}
	} else {
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			i := (w.addrs[l] - p.lo) >> 2 & (combWindow/4 - 1)
			p.sums[l&3][i] += src[l] ^ neg - neg
		}
	}
	w.slow |= slowPosted
	return true
}

// postWindow opens the posting window for addresses in [lo, end): the
// aligned kilobyte holding lo when [lo, end) fits in it (a histogram's bins
// then share one window whichever bin comes first), else the kilobyte from
// lo, either cut at the end of lo's region.
func (w *wave) postWindow(lo, end uint64) bool {
	e, ok := w.lookupRegion(lo)
	if !ok || e.ro || end > e.end {
		return false
	}
	b := lo &^ (combWindow - 1)
	if b < e.base || end > b+combWindow {
		b = lo
	}
	p := &w.post
	p.lo, p.end = b, min(b+combWindow, e.end)
	p.mem = e.data[p.lo-e.base : p.end-e.base]
	return true
}

// flushPosted performs the posted adds, one host atomic per address.
func (w *wave) flushPosted() {
	p := &w.post
	s := &p.sums
	for i := p.first; i <= p.last; i++ {
		if v := s[0][i] + s[1][i] + s[2][i] + s[3][i]; v != 0 {
			atomic.AddUint32((*uint32)(unsafe.Pointer(&p.mem[4*i])), v)
		}
		s[0][i], s[1][i], s[2][i], s[3][i] = 0, 0, 0, 0
	}
	p.mem = nil
	w.slow &^= slowPosted
}

// postCheck flushes the posted adds when o could observe or publish them
// (o.post). Loads are let through when none of their active lanes'
// addresses (up to 16 bytes on) reaches the window.
func (w *wave) postCheck(o *op) {
	switch o.post {
	case postKeep, postAdd:
		return
	case postLoadGlobal, postLoadFlat:
		exec := w.exec()
		if exec == 0 {
			return
		}
		var lo, hi uint64
		if exec == ^uint64(0) && haveAVX2 && o.post == postLoadGlobal && o.src[1].kind == kSGPR && o.src[0].kind == kVGPR {
			// saddr + zero-extended vaddr: the range is the base plus
			// the vaddr's minimum and maximum (a histogram's byte loads
			// pass here every iteration).
			base := w.sread64(&o.src[1]) + uint64(int64(o.offset))
			mn, mx := minmaxU32AVX2((*[64]uint32)(w.vdst(&o.src[0])))
			lo, hi = base+uint64(mn), base+uint64(mx)
		} else {
			if o.post == postLoadGlobal {
				w.globalAddrs(o, exec)
			} else {
				w.flatAddrs(o, exec)
			}
			lo, hi = ^uint64(0), 0
			for m := exec; m != 0; m &= m - 1 {
				a := w.addrs[bits.TrailingZeros64(m)]
				lo, hi = min(lo, a), max(hi, a)
			}
		}
		if hi < hi+16 && (hi+16 <= w.post.lo || lo >= w.post.end) {
			return
		}
	}
	w.flushPosted()
}
