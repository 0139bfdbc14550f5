package emu

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// Unit-stride fast path for FLAT/GLOBAL dword loads and stores (bench
// profile: per-lane address translation dominated the memory-bound
// kernels). When EXEC is all ones and the 64 lane addresses are
// a0 + stride·lane, stride being the access size (4, 8, 12 or 16 bytes),
// the whole access is one range [a0, a0+64·stride) checked once against
// one region and copied with one loop (one memmove for dwords). Anything
// else — partial EXEC, other strides, apertures, ranges crossing regions,
// faults — takes the general path, which gives the same bytes and the
// same faults lane by lane.

// nativeLE reports a little-endian host, where a VGPR's 64 lanes and 256
// bytes of guest memory have the same layout.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// unitStride returns the address of lane 0 when every lane's address is
// lane 0's plus stride·lane, for the FLAT (vaddr pair) or GLOBAL (saddr +
// 32-bit vaddr) addressing of o.
func (w *wave) unitStride(o *op, stride uint32) (uint64, bool) {
	if o.src[0].kind != kVGPR {
		return 0, false
	}
	i := int(o.src[0].idx) << 6
	if o.src[1].kind == kSGPR {
		// saddr + zext(vaddr) + offset: vaddr must not wrap over 32 bits.
		v := (*[64]uint32)(w.v[i : i+64])
		v0 := v[0]
		if uint64(v0)+63*uint64(stride) > 0xFFFF_FFFF {
			return 0, false
		}
		if haveAVX2 {
			if !unitCheckAVX2(v, nil, stride) {
				return 0, false
			}
			return w.sread64(&o.src[1]) + uint64(int64(o.offset)) + uint64(v0), true
		}
		var bad uint32
		step := v0
		for l := 1; l < 64; l++ {
			step += stride
			bad |= v[l] ^ step
		}
		if bad != 0 {
			return 0, false
		}
		return w.sread64(&o.src[1]) + uint64(int64(o.offset)) + uint64(v0), true
	}
	if o.src[1].kind != kNone {
		return 0, false
	}
	lo := (*[64]uint32)(w.v[i : i+64])
	hi := (*[64]uint32)(w.v[i+64 : i+128])
	lo0, hi0 := lo[0], hi[0]
	if uint64(lo0)+63*uint64(stride) > 0xFFFF_FFFF {
		return 0, false
	}
	if haveAVX2 {
		if !unitCheckAVX2(lo, hi, stride) {
			return 0, false
		}
		return (uint64(lo0) | uint64(hi0)<<32) + uint64(int64(o.offset)), true
	}
	var bad uint32
	step := lo0
	for l := 1; l < 64; l++ {
		step += stride
		bad |= (lo[l] ^ step) | (hi[l] ^ hi0)
	}
	if bad != 0 {
		return 0, false
	}
	return (uint64(lo0) | uint64(hi0)<<32) + uint64(int64(o.offset)), true
}

// unitRange returns the n bytes at global address a when they lie inside
// one region (writable if write is set), caching the region in the wave.
func (w *wave) unitRange(a uint64, n int, write bool) ([]byte, bool) {
	end := a + uint64(n)
	if a>>48 != 0 || end < a {
		return nil, false
	}
	if a < w.rbase || end > w.rend || write && w.rro {
		e, ok := w.lookupRegion(a)
		if !ok || end > e.end || write && e.ro {
			return nil, false
		}
		w.rbase, w.rend, w.rdata, w.rro = e.base, e.end, e.data, e.ro
	}
	off := a - w.rbase
	return w.rdata[off : off+uint64(n) : off+uint64(n)], true
}

// loadUnitU8 is loadUnit for zero-extended byte loads (global_load_ubyte
// of consecutive bytes: a histogram's input).
func (w *wave) loadUnitU8(o *op) bool {
	if raceEnabled || o.dst.kind != kVGPR {
		return false
	}
	a0, ok := w.unitStride(o, 1)
	if !ok {
		return false
	}
	p, ok := w.unitRange(a0, 64, false)
	if !ok {
		return false
	}
	if havePrefetch {
		w.stridePrefetch(o, a0, 64)
	}
	b, d := (*[64]byte)(p), w.lanes(&o.dst)
	for l := range d {
		d[l] = uint32(b[l])
	}
	w.loaded += 64
	return true
}

// unitDwords is the number of dwords per lane of a memory kind the fast
// path handles, or 0.
func unitDwords(k uint32) uint32 {
	switch k {
	case mB32:
		return 1
	case mB64:
		return 2
	case mB96:
		return 3
	case mB128:
		return 4
	}
	return 0
}

// loadUnit performs o (a FLAT/GLOBAL load of kind o.imm) through the
// unit-stride fast path, reporting false (having done nothing) when it
// does not apply. The caller has checked that EXEC is all ones.
func (w *wave) loadUnit(o *op) bool {
	if o.imm == mU8 {
		return w.loadUnitU8(o)
	}
	nd := unitDwords(o.imm)

	if nd == 0 || raceEnabled || !nativeLE {
		return false
	}
	stride := 4 * nd
	a0, ok := w.unitStride(o, stride)
	if !ok {
		return false
	}
	p, ok := w.unitRange(a0, int(64*stride), false)
	if !ok {
		return false
	}
	if havePrefetch {
		w.stridePrefetch(o, a0, uint64(64*stride))
	}
	i := int(o.dst.idx) << 6
	var r []uint32
	switch o.dst.kind {
	case kVGPR:
		r = w.v[i : i+64*int(nd)]
	case kAGPR:
		r = w.a[i : i+64*int(nd)]
	default:
		return false
	}
	switch nd {
	case 1:
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&r[0])), 256), p)
	case 2:
		d0, d1 := (*[64]uint32)(r[0:64]), (*[64]uint32)(r[64:128])
		m := (*[64 * 8]byte)(p)
		for l := 0; l < 64; l++ {
			q := m[8*l : 8*l+8 : 8*l+8]
			d0[l] = le.Uint32(q)
			d1[l] = le.Uint32(q[4:])
		}
	case 3:
		d0, d1, d2 := (*[64]uint32)(r[0:64]), (*[64]uint32)(r[64:128]), (*[64]uint32)(r[128:192])
		m := (*[64 * 12]byte)(p)
		for l := 0; l < 64; l++ {
			q := m[12*l : 12*l+12 : 12*l+12]
			d0[l] = le.Uint32(q)
			d1[l] = le.Uint32(q[4:])
			d2[l] = le.Uint32(q[8:])
		}
	case 4:
		d0, d1, d2, d3 := (*[64]uint32)(r[0:64]), (*[64]uint32)(r[64:128]), (*[64]uint32)(r[128:192]), (*[64]uint32)(r[192:256])
		m := (*[64 * 16]byte)(p)
		for l := 0; l < 64; l++ {
			q := m[16*l : 16*l+16 : 16*l+16]
			d0[l] = le.Uint32(q)
			d1[l] = le.Uint32(q[4:])
			d2[l] = le.Uint32(q[8:])
			d3[l] = le.Uint32(q[12:])
		}
	}
	w.loaded += uint64(64 * stride)
	return true
}

// storeUnit is loadUnit for FLAT/GLOBAL stores (data in src[2]).
func (w *wave) storeUnit(o *op) bool {
	nd := unitDwords(o.imm)

	if nd == 0 || raceEnabled || !nativeLE {
		return false
	}
	stride := 4 * nd
	a0, ok := w.unitStride(o, stride)
	if !ok {
		return false
	}
	p, ok := w.unitRange(a0, int(64*stride), true)
	if !ok {
		return false
	}
	src := &o.src[2]
	i := int(src.idx) << 6
	var r []uint32
	switch src.kind {
	case kVGPR:
		r = w.v[i : i+64*int(nd)]
	case kAGPR:
		r = w.a[i : i+64*int(nd)]
	default:
		return false
	}
	switch nd {
	case 1:
		copy(p, unsafe.Slice((*byte)(unsafe.Pointer(&r[0])), 256))
	case 2:
		s0, s1 := (*[64]uint32)(r[0:64]), (*[64]uint32)(r[64:128])
		m := (*[64 * 8]byte)(p)
		for l := 0; l < 64; l++ {
			q := m[8*l : 8*l+8 : 8*l+8]
			le.PutUint32(q, s0[l])
			le.PutUint32(q[4:], s1[l])
		}
		w.lastStoreAddr, w.lastStore = a0, uint64(s0[0])|uint64(s1[0])<<32
	case 3:
		s0, s1, s2 := (*[64]uint32)(r[0:64]), (*[64]uint32)(r[64:128]), (*[64]uint32)(r[128:192])
		m := (*[64 * 12]byte)(p)
		for l := 0; l < 64; l++ {
			q := m[12*l : 12*l+12 : 12*l+12]
			le.PutUint32(q, s0[l])
			le.PutUint32(q[4:], s1[l])
			le.PutUint32(q[8:], s2[l])
		}
	case 4:
		s0, s1, s2, s3 := (*[64]uint32)(r[0:64]), (*[64]uint32)(r[64:128]), (*[64]uint32)(r[128:192]), (*[64]uint32)(r[192:256])
		m := (*[64 * 16]byte)(p)
		for l := 0; l < 64; l++ {
			q := m[16*l : 16*l+16 : 16*l+16]
			le.PutUint32(q, s0[l])
			le.PutUint32(q[4:], s1[l])
			le.PutUint32(q[8:], s2[l])
			le.PutUint32(q[12:], s3[l])
		}
	}
	w.stored += uint64(64 * stride)
	return true
}

// storeUnitMasked is storeUnit for a dword store with EXEC partial, the
// store of a divergent branch (bitonic's swap): the 64 lane addresses,
// inactive lanes' included, must still be unit-stride and lie in one
// writable region; only the active lanes are written. Otherwise the
// general path runs (and reports any fault of an active lane).
func (w *wave) storeUnitMasked(o *op, exec uint64) bool {
	if o.imm != mB32 || raceEnabled || !nativeLE {
		return false
	}
	src := &o.src[2]
	i := int(src.idx) << 6
	var r *[64]uint32
	switch src.kind {
	case kVGPR:
		r = (*[64]uint32)(w.v[i : i+64])
	case kAGPR:
		r = (*[64]uint32)(w.a[i : i+64])
	default:
		return false
	}
	a0, ok := w.unitStride(o, 4)
	if !ok {
		return false
	}
	p, ok := w.unitRange(a0, 256, true)
	if !ok {
		return false
	}
	q := (*[256]byte)(p)
	for m := exec; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m) & 63
		le.PutUint32(q[4*l:], r[l])
	}
	w.stored += 4 * uint64(bits.OnesCount64(exec))
	return true
}

// gatherAddrs computes the 64 lane addresses of a FLAT/GLOBAL access into
// w.addrs (EXEC all ones) and returns their minimum and maximum.
func (w *wave) gatherAddrs(o *op) (lo, hi uint64, ok bool) {
	if o.src[0].kind != kVGPR {
		return 0, 0, false
	}
	i := int(o.src[0].idx) << 6
	lo = ^uint64(0)
	addrs := &w.addrs
	switch o.src[1].kind {
	case kSGPR:
		base := w.sread64(&o.src[1]) + uint64(int64(o.offset))
		v := (*[64]uint32)(w.v[i : i+64])
		for l := range addrs {
			a := base + uint64(v[l])
			addrs[l] = a
			lo, hi = min(lo, a), max(hi, a)
		}
	case kNone:
		off := uint64(int64(o.offset))
		vlo, vhi := (*[64]uint32)(w.v[i:i+64]), (*[64]uint32)(w.v[i+64:i+128])
		for l := range addrs {
			a := (uint64(vlo[l]) | uint64(vhi[l])<<32) + off
			addrs[l] = a
			lo, hi = min(lo, a), max(hi, a)
		}
	default:
		return 0, 0, false
	}
	return lo, hi, true
}

// loadGather is the fast path for a FLAT/GLOBAL dword load with EXEC all
// ones whose lanes are not in unit stride: one pass computes the addresses
// and their range, which is checked once against one region; a second
// pass loads. It reports false (having written no register) otherwise.
func (w *wave) loadGather(o *op) bool {
	if o.imm != mB32 || raceEnabled || o.dst.kind != kVGPR {
		return false
	}
	if haveAVX2 && w.loadGatherAVX2(o) {
		return true
	}
	lo, hi, ok := w.gatherAddrs(o)
	if !ok || hi-lo > 1<<40 {
		return false
	}
	p, ok := w.unitRange(lo, int(hi-lo)+4, false)
	if !ok {
		return false
	}
	d := w.lanes(&o.dst)
	for l := range d {
		d[l] = le.Uint32(p[w.addrs[l]-lo:])
	}
	w.loaded += 64 * 4
	return true
}

// loadGatherAVX2 is loadGather with AVX2 when the lanes' addresses are
// one 64-bit base plus 32-bit offsets less than 2 GiB apart: an SGPR base
// with VGPR offsets, or VGPR address pairs whose high halves are all equal.
// It reports false (having written no register) otherwise.
func (w *wave) loadGatherAVX2(o *op) bool {
	if o.src[0].kind != kVGPR {
		return false
	}
	i := int(o.src[0].idx) << 6
	vlo := (*[64]uint32)(w.v[i : i+64])
	var base uint64
	switch o.src[1].kind {
	case kSGPR:
		base = w.sread64(&o.src[1]) + uint64(int64(o.offset))
	case kNone:
		hmn, hmx := minmaxU32AVX2((*[64]uint32)(w.v[i+64 : i+128]))
		if hmn != hmx {
			return false
		}
		base = uint64(hmn)<<32 + uint64(int64(o.offset))
	default:
		return false
	}
	mn, mx := minmaxU32AVX2(vlo)
	if mx-mn >= 1<<31 {
		return false
	}
	p, ok := w.unitRange(base+uint64(mn), int(mx-mn)+4, false)
	if !ok {
		return false
	}
	gatherDAVX2(w.lanes(&o.dst), &p[0], vlo, mn)
	w.loaded += 64 * 4
	return true
}

// storeGather is loadGather for dword stores: lanes store in ascending
// order, so of two lanes with one address the higher one's data remains,
// as on the general path.
func (w *wave) storeGather(o *op) bool {
	if o.imm != mB32 || raceEnabled || o.src[2].kind != kVGPR {
		return false
	}
	lo, hi, ok := w.gatherAddrs(o)
	if !ok || hi-lo > 1<<40 {
		return false
	}
	p, ok := w.unitRange(lo, int(hi-lo)+4, true)
	if !ok {
		return false
	}
	s := w.lanes(&o.src[2])
	for l := range s {
		le.PutUint32(p[w.addrs[l]-lo:], s[l])
	}
	w.stored += 64 * 4
	return true
}

// stridePrefetch follows the addresses of a wave's unit-stride load
// instruction o (n bytes from a0, just checked against the wave's current
// region). When the last two steps were equal — a grid-stride loop,
// for (i = id; i < n; i += global size), the usual way a HIP or OpenCL
// kernel covers an array larger than its grid — it prefetches the bytes
// the loop will load pfAhead steps on, if they are in the same region. A
// wave runs many iterations of such a loop in a row, and each iteration's
// 256 bytes lie in another page (dot large: 64 KiB apart), which the
// host's own prefetchers, seeing one load instruction serve every wave and
// kernel, do not foresee. A prefetch changes no memory and never faults.
func (w *wave) stridePrefetch(o *op, a0, n uint64) {
	e := &w.pf[(o.pc>>2)&uint64(len(w.pf)-1)]
	if next, ok := e.observe(o.pc, a0, n, w.rbase, w.rend); ok {
		prefetchLines(unsafe.Pointer(&w.rdata[next-w.rbase]), uintptr(n))
	}
}

// observe records that the load at pc read n bytes from a0 and returns
// the address to prefetch, if any: pfAhead steps on when the last two
// steps were equal and at least pfMinStep long, and the n bytes there lie
// in the region [base, end).
func (e *pfEntry) observe(pc, a0, n, base, end uint64) (uint64, bool) {
	if e.pc != pc {
		e.pc, e.last, e.step = pc, a0, 0
		return 0, false
	}
	d := a0 - e.last
	e.last, e.step, d = a0, d, d-e.step // d: 0 when the step repeats
	mag := e.step
	if int64(mag) < 0 {
		mag = -mag
	}
	if d != 0 || mag < pfMinStep {
		return 0, false
	}
	next := a0 + pfAhead*e.step
	if next-base >= end-base || end-next < n {
		return 0, false
	}
	return next, true
}

// pfAhead is how many steps ahead stridePrefetch fetches. Steps shorter
// than pfMinStep (a page) are left to the host's prefetchers: they are
// what consecutive workgroups run by one wave object make in a streaming
// kernel (vector_add: 1 KiB), which those follow well.
const (
	pfAhead   = 2
	pfMinStep = 4096
)

// pfEntry is what stridePrefetch knows of one load instruction.
type pfEntry struct {
	pc, last, step uint64
}
