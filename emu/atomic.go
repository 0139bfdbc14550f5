package emu

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Atomic operations (op.imm of atomic instructions: aXxx | aWide for 64-bit).
const (
	aSwap = iota
	aCmpSwap
	aAdd
	aSub
	aRsub
	aSMin
	aUMin
	aSMax
	aUMax
	aAnd
	aOr
	aXor
	aInc
	aDec
	aFAdd
	aFMin
	aFMax
	aPkFAdd16
	aMskor
	aWide = 1 << 8
)

// apply32 computes the new value of a 32-bit atomic.
func apply32(op uint32, old, src, cmp uint32) uint32 {
	switch op {
	case aSwap:
		return src
	case aCmpSwap:
		if old == cmp {
			return src
		}
		return old
	case aAdd:
		return old + src
	case aSub:
		return old - src
	case aRsub:
		return src - old
	case aSMin:
		return uint32(min(int32(old), int32(src)))
	case aUMin:
		return min(old, src)
	case aSMax:
		return uint32(max(int32(old), int32(src)))
	case aUMax:
		return max(old, src)
	case aAnd:
		return old & src
	case aOr:
		return old | src
	case aXor:
		return old ^ src
	case aInc:
		if old >= src {
			return 0
		}
		return old + 1
	case aDec:
		if old == 0 || old > src {
			return src
		}
		return old - 1
	case aFAdd:
		return u32(f32(old) + f32(src))
	case aFMin:
		return u32(minF32(f32(old), f32(src)))
	case aFMax:
		return u32(maxF32(f32(old), f32(src)))
	case aPkFAdd16:
		lo := f16from64(f16to64(uint16(old))+f16to64(uint16(src)), 0)
		hi := f16from64(f16to64(uint16(old>>16))+f16to64(uint16(src>>16)), 0)
		return uint32(lo) | uint32(hi)<<16
	case aMskor:
		return old&^cmp | src
	}
	return old
}

func apply64(op uint32, old, src, cmp uint64) uint64 {
	switch op {
	case aSwap:
		return src
	case aCmpSwap:
		if old == cmp {
			return src
		}
		return old
	case aAdd:
		return old + src
	case aSub:
		return old - src
	case aRsub:
		return src - old
	case aSMin:
		return uint64(min(int64(old), int64(src)))
	case aUMin:
		return min(old, src)
	case aSMax:
		return uint64(max(int64(old), int64(src)))
	case aUMax:
		return max(old, src)
	case aAnd:
		return old & src
	case aOr:
		return old | src
	case aXor:
		return old ^ src
	case aInc:
		if old >= src {
			return 0
		}
		return old + 1
	case aDec:
		if old == 0 || old > src {
			return src
		}
		return old - 1
	case aFAdd:
		return u64(f64(old) + f64(src))
	case aFMin:
		return u64(minF64(f64(old), f64(src)))
	case aFMax:
		return u64(maxF64(f64(old), f64(src)))
	case aMskor:
		return old&^cmp | src
	}
	return old
}

// hostAtomic32 performs a 32-bit atomic on host memory with sync/atomic and
// returns the old value.
func hostAtomic32(p []byte, op uint32, src, cmp uint32) uint32 {
	ptr := (*uint32)(unsafe.Pointer(&p[0]))
	switch op {
	case aSwap:
		return atomic.SwapUint32(ptr, src)
	case aAdd:
		return atomic.AddUint32(ptr, src) - src
	case aSub:
		return atomic.AddUint32(ptr, -src) + src
	case aAnd:
		return atomic.AndUint32(ptr, src)
	case aOr:
		return atomic.OrUint32(ptr, src)
	}
	for {
		old := atomic.LoadUint32(ptr)
		n := apply32(op, old, src, cmp)
		if op == aCmpSwap && n == old {
			return old
		}
		if atomic.CompareAndSwapUint32(ptr, old, n) {
			return old
		}
	}
}

func hostAtomic64(p []byte, op uint32, src, cmp uint64) uint64 {
	ptr := (*uint64)(unsafe.Pointer(&p[0]))
	switch op {
	case aSwap:
		return atomic.SwapUint64(ptr, src)
	case aAdd:
		return atomic.AddUint64(ptr, src) - src
	case aSub:
		return atomic.AddUint64(ptr, -src) + src
	case aAnd:
		return atomic.AndUint64(ptr, src)
	case aOr:
		return atomic.OrUint64(ptr, src)
	}
	for {
		old := atomic.LoadUint64(ptr)
		n := apply64(op, old, src, cmp)
		if op == aCmpSwap && n == old {
			return old
		}
		if atomic.CompareAndSwapUint64(ptr, old, n) {
			return old
		}
	}
}

// atomicLane performs atomic op (with aWide for 64 bits) at flat address a
// for one lane and returns the old value. Global memory uses host atomics;
// LDS and scratch belong to one goroutine and use plain accesses.
func (w *wave) atomicLane(o *op, l int, a uint64, op uint32, src, cmp uint64) uint64 {
	wide := op&aWide != 0
	op &^= aWide
	n := 4
	if wide {
		n = 8
	}
	if a&uint64(n-1) != 0 {
		w.fault(o, FaultMisaligned, l, a, "misaligned atomic")
	}
	var p []byte
	plain := true
	switch uint32(a >> 32) {
	case SharedApertureHi:
		p = w.ldsBytes(o, l, uint32(a), n)
		if p == nil {
			return 0
		}
	case PrivateApertureHi:
		p = w.gbytes(o, l, w.scratchAddr(l, uint32(a)), n, true)
		if wide {
			// 64-bit scratch atomics span two swizzled dwords.
			lo := w.gbytes(o, l, w.scratchAddr(l, uint32(a)), 4, true)
			hi := w.gbytes(o, l, w.scratchAddr(l, uint32(a)+4), 4, true)
			old := uint64(le.Uint32(lo)) | uint64(le.Uint32(hi))<<32
			nv := apply64(op, old, src, cmp)
			le.PutUint32(lo, uint32(nv))
			le.PutUint32(hi, uint32(nv>>32))
			return old
		}
	default:
		p = w.gbytes(o, l, a, n, true)
		plain = false
	}
	if plain {
		if wide {
			old := le.Uint64(p)
			le.PutUint64(p, apply64(op, old, src, cmp))
			return old
		}
		old := le.Uint32(p)
		le.PutUint32(p, apply32(op, old, uint32(src), uint32(cmp)))
		return uint64(old)
	}
	if wide {
		return hostAtomic64(p, op, src, cmp)
	}
	return uint64(hostAtomic32(p, op, uint32(src), uint32(cmp)))
}

// addCombined runs a 32-bit atomic add (sub: subtract) of every active
// lane on global memory with one host atomic per distinct address: the
// lanes sharing an address add their sources up first. Memory ends the
// same as with one atomic per lane, and the values returned (ret) are
// those of the lanes running one after another in lane order, an order the
// hardware may choose (that no other wave's atomic comes between them is
// not guaranteed by hardware, nor excluded). Histograms and counters, where
// many lanes hit a few addresses, then cost one contended cache line
// transfer per address instead of one per lane.
//
// When the lanes' addresses lie within a 1 KiB window (a histogram's bins,
// one counter) the sums are indexed by offset in the window, which costs
// less than one uncontended atomic per lane. Otherwise the lanes are
// grouped through a hash table, which pays only when atomics contend: with
// one worker addCombined then declines.
//
// It reports false, having done nothing, when it declines, when some
// lane's address is in the LDS or private aperture or when an address is
// misaligned or outside the device's memory (the lane-by-lane path then
// reports the fault of the first such lane).
func (w *wave) addCombined(o *op, exec uint64, src []uint32, ret []uint32, sub bool) bool {
	lo, hi, or := ^uint64(0), uint64(0), uint64(0)
	for m := exec; m != 0; m &= m - 1 {
		a := w.addrs[bits.TrailingZeros64(m)]
		lo, hi, or = min(lo, a), max(hi, a), or|a
		if ap := uint32(a >> 32); ap == SharedApertureHi || ap == PrivateApertureHi {
			return false
		}
	}
	if or&3 != 0 || exec == 0 {
		return false
	}
	if hi-lo < combWindow {
		return w.addWindow(exec, lo, hi, src, ret, sub)
	}
	if w.r.workers < 2 {
		return false
	}
	c := &w.comb
	clear(c.table[:])
	table, gaddr, gptr, gsum, group := &c.table, &c.gaddr, &c.gptr, &c.gsum, &c.group
	var ng uint8
	for m := exec; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		a := w.addrs[l]
		h := uint32(a>>2^a>>9) & (combTable - 1)
		for {
			g := table[h]
			if g == 0 {
				p := w.window(a, a+4)
				if p == nil {
					return false
				}
				gaddr[ng], gptr[ng], gsum[ng] = a, (*uint32)(unsafe.Pointer(&p[0])), 0
				ng++
				table[h] = ng
				g = ng
			} else if gaddr[g-1] != a {
				h = (h + 1) & (combTable - 1)
				continue
			}
			group[l] = g - 1
			gsum[g-1] += src[l]
			break
		}
	}
	base := &c.base
	for g := uint8(0); g < ng; g++ {
		v := gsum[g]
		if sub {
			v = -v
		}
		base[g] = atomic.AddUint32(gptr[g], v) - v
	}
	if ret != nil {
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			g, v := group[l], src[l] // ret may be src's register
			ret[l] = base[g]
			if sub {
				base[g] -= v
			} else {
				base[g] += v
			}
		}
	}
	return true
}

// addWindow is addCombined for addresses in [lo, hi] (hi-lo < combWindow,
// dword aligned): sums indexed by dword offset, a bit per dword used.
func (w *wave) addWindow(exec uint64, lo, hi uint64, src []uint32, ret []uint32, sub bool) bool {
	p := w.window(lo, hi+4)
	if p == nil {
		return false
	}
	c := &w.comb
	sums := &c.sums
	var used [combWindow / 4 / 64]uint64
	for m := exec; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		i := (w.addrs[l] - lo) >> 2 & (combWindow/4 - 1)
		sums[i] += src[l]
		used[i>>6] |= 1 << (i & 63)
	}
	for k, u := range used {
		for ; u != 0; u &= u - 1 {
			i := k<<6 | bits.TrailingZeros64(u)
			v := sums[i]
			if sub {
				v = -v
			}
			sums[i] = atomic.AddUint32((*uint32)(unsafe.Pointer(&p[4*i])), v) - v
		}
	}
	if ret != nil {
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			i, v := (w.addrs[l]-lo)>>2&(combWindow/4-1), src[l] // ret may be src's register
			ret[l] = sums[i]
			if sub {
				sums[i] -= v
			} else {
				sums[i] += v
			}
		}
	}
	for k, u := range used {
		for ; u != 0; u &= u - 1 {
			sums[k<<6|bits.TrailingZeros64(u)] = 0
		}
	}
	return true
}

// window returns the writable device memory from lo up to end, or nil
// when it is not inside one writable region.
func (w *wave) window(lo, end uint64) []byte {
	if lo >= w.rbase && end <= w.rend && end > lo && !w.rro {
		return w.rdata[lo-w.rbase : end-w.rbase]
	}
	e, ok := w.lookupRegion(lo)
	if !ok || end > e.end || end <= lo || e.ro {
		return nil
	}
	w.rbase, w.rend, w.rdata, w.rro = e.base, e.end, e.data, e.ro
	return e.data[lo-e.base : end-e.base]
}

// combWindow is the span of addresses (bytes, a power of two) addWindow
// combines by offset.
const combWindow = 1024

// combTable is the size of addCombined's address hash table: a power of
// two, more than 64 lanes.
const combTable = 128

// combineScratch is addCombined's working memory, kept in the wave so a
// call clears only the hash table.
type combineScratch struct {
	table [combTable]uint8 // group+1 by hashed address, 0 empty
	gaddr [64]uint64       // each group's address, host pointer and sum
	gptr  [64]*uint32
	gsum  [64]uint32
	base  [64]uint32 // the group's value before the lane being returned
	group [64]uint8  // each lane's group
	// addWindow's sums by dword offset, all zero between calls
	sums [combWindow / 4]uint32
}
