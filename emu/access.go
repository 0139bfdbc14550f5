package emu

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Memory access for memory instructions. Addresses are flat: bits 63:32
// equal to SharedApertureHi reach LDS, PrivateApertureHi reach the wave's
// swizzled scratch, anything else is global memory checked against the
// registered regions.

var le = binary.LittleEndian

// gbytes returns the n bytes at global address a (a slice starting there),
// faulting if they are not inside one region (or the region is read-only
// and write is set).
func (w *wave) gbytes(o *op, lane int, a uint64, n int, write bool) []byte {
	if a >= w.rbase && a+uint64(n) <= w.rend && a+uint64(n) > a && (!write || !w.rro) {
		return w.rdata[a-w.rbase:]
	}
	return w.gbytesSlow(o, lane, a, n, write)
}

func (w *wave) gbytesSlow(o *op, lane int, a uint64, n int, write bool) []byte {
	e, ok := w.lookupRegion(a)
	if !ok || a+uint64(n) > e.end || a+uint64(n) < a {
		w.fault(o, FaultMemory, lane, a, "address outside every device memory region")
	}
	if write && e.ro {
		w.fault(o, FaultMemory, lane, a, "store to read-only memory (code)")
	}
	w.rbase, w.rend, w.rdata, w.rro = e.base, e.end, e.data, e.ro
	return e.data[a-e.base:]
}

// lookupRegion finds the region holding global address a: among the
// regions the wave used recently in this dispatch (eight: kernels touch
// their buffers, kernarg segment and dispatch packet in turn), the dispatch's scratch,
// then Memory.Lookup (whose result joins the recent ones).
func (w *wave) lookupRegion(a uint64) (regionEntry, bool) {
	for i := range w.rc {
		if e := &w.rc[i]; a-e.base < e.end-e.base {
			return *e, true
		}
	}
	var reg Region
	ok := false
	if s := w.r.scratch; s != nil && a >= s.base && a-s.base < uint64(len(s.data)) {
		reg, ok = Region{Base: s.base, Data: s.data}, true
	} else {
		reg, ok = w.r.dev.cfg.Memory.Lookup(a)
	}
	if !ok {
		return regionEntry{}, false
	}
	e := regionEntry{base: reg.Base, end: reg.Base + uint64(len(reg.Data)), data: reg.Data, ro: reg.ReadOnly}
	w.rc[w.rcNext] = e
	w.rcNext = (w.rcNext + 1) % len(w.rc)
	return e, true
}

func ld32(p []byte) uint32 {
	if raceEnabled && len(p) >= 4 && uintptr(unsafe.Pointer(&p[0]))&3 == 0 {
		return atomic.LoadUint32((*uint32)(unsafe.Pointer(&p[0])))
	}
	return le.Uint32(p)
}

func st32(p []byte, v uint32) {
	if raceEnabled && len(p) >= 4 && uintptr(unsafe.Pointer(&p[0]))&3 == 0 {
		atomic.StoreUint32((*uint32)(unsafe.Pointer(&p[0])), v)
		return
	}
	le.PutUint32(p, v)
}

// scratchAddr returns the global address of private offset off for a lane:
// FLAT_SCRATCH plus the swizzle of element size 4, index stride 64.
func (w *wave) scratchAddr(lane int, off uint32) uint64 {
	base := w.s64(sFlatScrLo)
	return base + uint64(off&^3)*64 + uint64(lane)*4 + uint64(off&3)
}

// lds returns the LDS bytes at offset off, or nil when out of range (reads
// give 0, writes are dropped) unless FaultOnLDSRange is set.
func (w *wave) ldsBytes(o *op, lane int, off uint32, n int) []byte {
	lds := w.wg.lds
	if uint64(off)+uint64(n) > uint64(len(lds)) {
		if w.r.dev.cfg.FaultOnLDSRange {
			w.fault(o, FaultMemory, lane, SharedApertureBase|uint64(off), "LDS access out of range")
		}
		return nil
	}
	return lds[off:]
}

// read returns n (1, 2 or 4) bytes at flat address a, zero-extended.
// Dwords inside LDS (the DS instructions' usual case) take a path small
// enough to inline.
func (w *wave) read(o *op, lane int, a uint64, n int) uint32 {
	if lds, off := w.wg.lds, uint32(a); n == 4 && uint32(a>>32) == SharedApertureHi && int(off) <= len(lds)-4 {
		return ld32(lds[off:])
	}
	return w.readSlow(o, lane, a, n)
}

func (w *wave) readSlow(o *op, lane int, a uint64, n int) uint32 {
	switch uint32(a >> 32) {
	case SharedApertureHi:
		p := w.ldsBytes(o, lane, uint32(a), n)
		if p == nil {
			return 0
		}
		return loadN(p, n)
	case PrivateApertureHi:
		off := uint32(a)
		if off&3 == 0 || n == 1 || (n == 2 && off&3 != 3) {
			return loadN(w.gbytes(o, lane, w.scratchAddr(lane, off), n, false), n)
		}
		var v uint32
		for i := 0; i < n; i++ {
			v |= uint32(w.gbytes(o, lane, w.scratchAddr(lane, off+uint32(i)), 1, false)[0]) << (8 * i)
		}
		return v
	}
	w.loaded += uint64(n)
	return loadN(w.gbytes(o, lane, a, n, false), n)
}

// write stores the low n bytes of v at flat address a (LDS dwords
// inline, as in read).
func (w *wave) write(o *op, lane int, a uint64, n int, v uint32) {
	if lds, off := w.wg.lds, uint32(a); n == 4 && uint32(a>>32) == SharedApertureHi && int(off) <= len(lds)-4 {
		st32(lds[off:], v)
		return
	}
	w.writeSlow(o, lane, a, n, v)
}

func (w *wave) writeSlow(o *op, lane int, a uint64, n int, v uint32) {
	switch uint32(a >> 32) {
	case SharedApertureHi:
		if p := w.ldsBytes(o, lane, uint32(a), n); p != nil {
			storeN(p, n, v)
		}
		return
	case PrivateApertureHi:
		off := uint32(a)
		if off&3 == 0 || n == 1 || (n == 2 && off&3 != 3) {
			storeN(w.gbytes(o, lane, w.scratchAddr(lane, off), n, true), n, v)
			return
		}
		for i := 0; i < n; i++ {
			w.gbytes(o, lane, w.scratchAddr(lane, off+uint32(i)), 1, true)[0] = byte(v >> (8 * i))
		}
		return
	}
	w.stored += uint64(n)
	storeN(w.gbytes(o, lane, a, n, true), n, v)
}

func loadN(p []byte, n int) uint32 {
	switch n {
	case 1:
		return uint32(p[0])
	case 2:
		return uint32(le.Uint16(p))
	}
	return ld32(p)
}

func storeN(p []byte, n int, v uint32) {
	switch n {
	case 1:
		p[0] = byte(v)
	case 2:
		le.PutUint16(p, uint16(v))
	default:
		st32(p, v)
	}
}

// Memory data kinds (op.imm of memory instructions).
const (
	mU8 = iota
	mI8
	mU16
	mI16
	mB32
	mB64
	mB96
	mB128
	mD16U8   // ubyte_d16: low half
	mD16U8Hi // ubyte_d16_hi
	mD16I8
	mD16I8Hi
	mD16    // short_d16
	mD16Hi  // short_d16_hi
	mSt8Hi  // store byte_d16_hi
	mSt16Hi // store short_d16_hi
)

// dwords is the number of data VGPRs of kind k.
func dwords(k uint32) int {
	switch k {
	case mB64:
		return 2
	case mB96:
		return 3
	case mB128:
		return 4
	}
	return 1
}

// loadLane performs the load of kind k for one lane at flat address a into
// the data registers d (d[i] is the i-th VGPR's lanes).
func (w *wave) loadLane(o *op, l int, a uint64, k uint32, d *[4][]uint32) {
	switch k {
	case mU8:
		d[0][l] = w.read(o, l, a, 1)
	case mI8:
		d[0][l] = uint32(int8(w.read(o, l, a, 1)))
	case mU16:
		d[0][l] = w.read(o, l, a, 2)
	case mI16:
		d[0][l] = uint32(int16(w.read(o, l, a, 2)))
	case mD16U8:
		d[0][l] = d[0][l]&0xFFFF0000 | w.read(o, l, a, 1)
	case mD16U8Hi:
		d[0][l] = d[0][l]&0xFFFF | w.read(o, l, a, 1)<<16
	case mD16I8:
		d[0][l] = d[0][l]&0xFFFF0000 | uint32(uint16(int8(w.read(o, l, a, 1))))
	case mD16I8Hi:
		d[0][l] = d[0][l]&0xFFFF | uint32(uint16(int8(w.read(o, l, a, 1))))<<16
	case mD16:
		d[0][l] = d[0][l]&0xFFFF0000 | w.read(o, l, a, 2)
	case mD16Hi:
		d[0][l] = d[0][l]&0xFFFF | w.read(o, l, a, 2)<<16
	default:
		for i := 0; i < dwords(k); i++ {
			d[i][l] = w.read(o, l, a+uint64(4*i), 4)
		}
	}
}

func (w *wave) storeLane(o *op, l int, a uint64, k uint32, s *[4][]uint32) {
	switch k {
	case mU8, mI8:
		w.write(o, l, a, 1, s[0][l])
	case mSt8Hi:
		w.write(o, l, a, 1, s[0][l]>>16)
	case mU16, mI16:
		w.write(o, l, a, 2, s[0][l])
	case mSt16Hi:
		w.write(o, l, a, 2, s[0][l]>>16)
	default:
		for i := 0; i < dwords(k); i++ {
			w.write(o, l, a+uint64(4*i), 4, s[i][l])
		}
	}
}

// regs returns n consecutive VGPRs starting at operand r.
func (w *wave) regs(r *operand, n int) (d [4][]uint32) {
	for i := 0; i < n && i < 4; i++ {
		rr := *r
		rr.idx += uint16(i)
		d[i] = w.vdst(&rr)
	}
	return
}

// fastGlobal reports whether every active lane's access [addrs[l],
// addrs[l]+n) lies in one global region, loading it into the wave's cache,
// so the caller may index w.rdata directly.
func (w *wave) fastGlobal(o *op, exec uint64, n int, write bool) bool {
	if exec == 0 {
		return false
	}
	lo, hi := ^uint64(0), uint64(0)
	for m := exec; m != 0; m &= m - 1 { // active lanes only, no branch per lane
		a := w.addrs[bits.TrailingZeros64(m)]
		lo = min(lo, a)
		hi = max(hi, a)
	}
	if lo>>48 != 0 || hi>>48 != 0 || hi+uint64(n) < hi {
		return false
	}
	if lo >= w.rbase && hi+uint64(n) <= w.rend && (!write || !w.rro) {
		return true
	}
	e, ok := w.lookupRegion(lo)
	if !ok || hi+uint64(n) > e.end || write && e.ro {
		return false
	}
	w.rbase, w.rend, w.rdata, w.rro = e.base, e.end, e.data, e.ro
	return true
}

// memLoad loads kind k for every active lane from w.addrs into dst.
func (w *wave) memLoad(o *op, exec uint64, k uint32, dst *operand) {
	d := w.regs(dst, dwords(k))
	n := 4 * dwords(k)
	if (k == mB32 || k == mB64 || k == mB96 || k == mB128) && w.fastGlobal(o, exec, n, false) {
		base, data := w.rbase, w.rdata
		nd := dwords(k)
		for m := exec; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			p := data[w.addrs[l]-base:]
			for i := 0; i < nd; i++ {
				d[i][l] = ld32(p[4*i:])
			}
		}
		w.loaded += uint64(n * popcount(exec))
		return
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			w.loadLane(o, l, w.addrs[l], k, &d)
		}
	}
}

func (w *wave) memStore(o *op, exec uint64, k uint32, src *operand) {
	s := w.regs(src, dwords(k))
	n := 4 * dwords(k)
	if (k == mB32 || k == mB64 || k == mB96 || k == mB128) && w.fastGlobal(o, exec, n, true) {
		base, data := w.rbase, w.rdata
		nd := dwords(k)
		for m := exec; m != 0; m &= m - 1 { // in ascending lane order
			l := bits.TrailingZeros64(m)
			p := data[w.addrs[l]-base:]
			for i := 0; i < nd; i++ {
				st32(p[4*i:], s[i][l])
			}
		}
		w.stored += uint64(n * popcount(exec))
		if k == mB64 {
			l := lowestLane(exec)
			w.lastStoreAddr, w.lastStore = w.addrs[l], uint64(s[0][l])|uint64(s[1][l])<<32
		}
		return
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			w.storeLane(o, l, w.addrs[l], k, &s)
		}
	}
}
