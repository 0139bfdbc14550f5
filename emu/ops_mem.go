package emu

// Memory instruction semantics: FLAT, GLOBAL, SCRATCH, MUBUF, SMEM.
//
// Operand conventions (filled by build.go):
//   FLAT/GLOBAL/SCRATCH: src[0] vaddr (VGPR or none), src[1] saddr (SGPR or
//   none), src[2] vdata, dst vdst, offset, flags&fGLC returns atomics' old value.
//   MUBUF: src[0] vaddr, src[1] srsrc (4 SGPRs), src[2] vdata, dst vdata
//   (loads), sdst soffset, offset, flags offen/idxen/glc.
//   SMEM: src[0] sbase, src[1] soffset (or none), dst sdata, src[2] sdata
//   (stores), offset.

const (
	fGLC   = 1 << 0
	fOffen = 1 << 1
	fIdxen = 1 << 2
	fLDS   = 1 << 3
	// fSBuffer marks s_buffer_atomic_* (the base is a V#).
	fSBuffer = 1 << 4
)

func defM(name, types string, fn func(w *wave, o *op)) { def(name, ClassVMEM, types, fn) }

// flatAddrs computes 64-bit flat addresses (vaddr pair + offset).
func (w *wave) flatAddrs(o *op, exec uint64) {
	lo, hi := w.vdst64(&o.src[0])
	off := uint64(int64(o.offset))
	// Every lane, active or not: no branch on EXEC (inactive lanes'
	// addresses are never used).
	for l := range w.addrs {
		w.addrs[l] = (uint64(lo[l]) | uint64(hi[l])<<32) + off
	}
}

// globalAddrs: saddr + zext(vaddr32) + offset, or vaddr pair + offset.
func (w *wave) globalAddrs(o *op, exec uint64) {
	if o.src[1].kind != kSGPR {
		w.flatAddrs(o, exec)
		return
	}
	base := w.sread64(&o.src[1]) + uint64(int64(o.offset))
	v := w.vdst(&o.src[0])
	for l := range w.addrs {
		w.addrs[l] = base + uint64(v[l])
	}
}

// scratchAddrs: private offsets (saddr or vaddr, plus offset) as flat
// addresses in the private aperture.
func (w *wave) scratchAddrs(o *op, exec uint64) {
	off := uint32(o.offset)
	if o.src[1].kind == kSGPR {
		off += w.sread32(&o.src[1])
		if o.src[0].kind == kVGPR {
			// gfx940 SVS mode: saddr + vaddr + offset.
			v := w.vdst(&o.src[0])
			for l := 0; l < 64; l++ {
				if exec>>l&1 != 0 {
					w.addrs[l] = PrivateApertureBase | uint64(v[l]+off)
				}
			}
			return
		}
		a := PrivateApertureBase | uint64(off)
		for l := 0; l < 64; l++ {
			w.addrs[l] = a
		}
		return
	}
	if o.src[0].kind != kVGPR {
		a := PrivateApertureBase | uint64(off)
		for l := 0; l < 64; l++ {
			w.addrs[l] = a
		}
		return
	}
	v := w.vdst(&o.src[0])
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			w.addrs[l] = PrivateApertureBase | uint64(v[l]+off)
		}
	}
}

type addrFn func(w *wave, o *op, exec uint64)

// memLoadOp and memStoreOp build the semantics of FLAT/GLOBAL/SCRATCH
// loads and stores; unit enables the unit-stride fast path (mem_p_unit.go)
// for the segments whose addresses are global.
func memLoadOp(addrs addrFn, unit bool) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		if unit && exec == ^uint64(0) && (w.loadUnit(o) || w.loadGather(o)) {
			return
		}
		addrs(w, o, exec)
		w.memLoad(o, exec, o.imm, &o.dst)
	}
}

func memStoreOp(addrs addrFn, unit bool) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		if unit && exec == ^uint64(0) && (w.storeUnit(o) || w.storeGather(o)) {
			return
		}
		if unit && exec != 0 && w.storeUnitMasked(o, exec) {
			return
		}
		addrs(w, o, exec)
		w.memStore(o, exec, o.imm, &o.src[2])
	}
}

func memAtomicOp(addrs addrFn) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		exec := w.exec()
		addrs(w, o, exec)
		w.atomics(o, exec)
	}
}

// atomics runs o.imm's atomic for every active lane at w.addrs. Data for
// cmpswap is {src, cmp} (FLAT/GLOBAL/MUBUF order).
func (w *wave) atomics(o *op, exec uint64) {
	op := o.imm
	wide := op&aWide != 0
	nd := 1
	if wide {
		nd = 2
	}
	if op&^aWide == aCmpSwap {
		nd *= 2
	}
	s := w.regs(&o.src[2], nd)
	ret := o.flags&fGLC != 0
	var d [4][]uint32
	if ret {
		d = w.regs(&o.dst, nd/map2(op&^aWide == aCmpSwap))
	}
	if base := op &^ aWide; !wide && (base == aAdd || base == aSub) {
		if o.post == postAdd && w.postAdd(exec, s[0], base == aSub) {
			return
		}
		if w.slow&slowPosted != 0 {
			w.flushPosted()
		}
		var r []uint32
		if ret {
			r = d[0]
		}
		if w.addCombined(o, exec, s[0], r, base == aSub) {
			return
		}
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var src, cmp uint64
		if wide {
			src = uint64(s[0][l]) | uint64(s[1][l])<<32
			if op&^aWide == aCmpSwap {
				cmp = uint64(s[2][l]) | uint64(s[3][l])<<32
			}
		} else {
			src = uint64(s[0][l])
			if op&^aWide == aCmpSwap {
				cmp = uint64(s[1][l])
			}
		}
		old := w.atomicLane(o, l, w.addrs[l], op, src, cmp)
		if ret {
			d[0][l] = uint32(old)
			if wide {
				d[1][l] = uint32(old >> 32)
			}
		}
	}
}

func map2(b bool) int {
	if b {
		return 2
	}
	return 1
}

// mubufAddr computes the address of byte offset j of the access for lane l
// through the V# in v (GFX9 buffer addressing), and whether it is in range.
func (w *wave) mubufAddr(o *op, v *[4]uint32, l int, voff, vidx uint32, j uint32) (uint64, bool) {
	base := uint64(v[0]) | uint64(v[1]&0xFFFF)<<32
	stride := v[1] >> 16 & 0x3FFF
	swizzle := v[1]>>31 != 0
	numRecords := v[2]
	elemSize := uint32(2) << (v[3] >> 19 & 3)  // 2, 4, 8, 16
	idxStride := uint32(8) << (v[3] >> 21 & 3) // 8, 16, 32, 64
	addTID := v[3]>>23&1 != 0
	soff := w.sread32(&o.sdst)
	offset := uint32(o.offset) + j
	if o.flags&fOffen != 0 {
		offset += voff
	}
	var index uint32
	if o.flags&fIdxen != 0 {
		index = vidx
	}
	if addTID {
		index += uint32(l)
	}
	// Range checking (GFX9): by index when the stride is non-zero and
	// indexing is used, else by byte offset.
	inRange := true
	if stride == 0 || !(o.flags&fIdxen != 0 || addTID) {
		inRange = offset < numRecords || (swizzle && addTID)
	} else {
		inRange = index < numRecords
	}
	var boff uint64
	if swizzle {
		boff = (uint64(index/idxStride)*uint64(stride)+uint64(offset/elemSize)*uint64(elemSize))*uint64(idxStride) +
			uint64(index%idxStride)*uint64(elemSize) + uint64(offset%elemSize)
	} else {
		boff = uint64(offset) + uint64(stride)*uint64(index)
	}
	return base + uint64(soff) + boff, inRange
}

func (w *wave) vsharp(o *op) (v [4]uint32) {
	i := o.src[1].idx
	copy(v[:], w.s[i:i+4])
	return
}

// mubufVaddr returns the per-lane offset and index VGPRs.
func (w *wave) mubufVaddr(o *op) (voff, vidx []uint32) {
	if o.src[0].kind != kVGPR {
		return nil, nil
	}
	r := o.src[0]
	switch {
	case o.flags&fIdxen != 0 && o.flags&fOffen != 0:
		vidx = w.vdst(&r)
		r.idx++
		voff = w.vdst(&r)
	case o.flags&fIdxen != 0:
		vidx = w.vdst(&r)
	case o.flags&fOffen != 0:
		voff = w.vdst(&r)
	}
	return
}

func lane32(s []uint32, l int) uint32 {
	if s == nil {
		return 0
	}
	return s[l]
}

func mubufLoad(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	voff, vidx := w.mubufVaddr(o)
	k := o.imm
	d := w.regs(&o.dst, dwords(k))
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		switch k {
		case mU8, mI8, mU16, mI16, mD16, mD16Hi, mD16U8, mD16U8Hi, mD16I8, mD16I8Hi:
			n := 1
			if k == mU16 || k == mI16 || k == mD16 || k == mD16Hi {
				n = 2
			}
			a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), 0)
			var x uint32
			if ok {
				x = w.read(o, l, a, n)
			}
			switch k {
			case mU8, mU16:
				d[0][l] = x
			case mI8:
				d[0][l] = uint32(int8(x))
			case mI16:
				d[0][l] = uint32(int16(x))
			case mD16, mD16U8:
				d[0][l] = d[0][l]&0xFFFF0000 | x
			case mD16Hi, mD16U8Hi:
				d[0][l] = d[0][l]&0xFFFF | x<<16
			case mD16I8:
				d[0][l] = d[0][l]&0xFFFF0000 | uint32(uint16(int8(x)))
			case mD16I8Hi:
				d[0][l] = d[0][l]&0xFFFF | uint32(uint16(int8(x)))<<16
			}
		default:
			for i := 0; i < dwords(k); i++ {
				a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), uint32(4*i))
				if ok {
					d[i][l] = w.read(o, l, a, 4)
				} else {
					d[i][l] = 0
				}
			}
		}
	}
}

func mubufStore(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	voff, vidx := w.mubufVaddr(o)
	k := o.imm
	s := w.regs(&o.src[2], dwords(k))
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		switch k {
		case mU8, mU16, mSt8Hi, mSt16Hi:
			n, x := 1, s[0][l]
			if k == mU16 || k == mSt16Hi {
				n = 2
			}
			if k == mSt8Hi || k == mSt16Hi {
				x >>= 16
			}
			if a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), 0); ok {
				w.write(o, l, a, n, x)
			}
		default:
			for i := 0; i < dwords(k); i++ {
				if a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), uint32(4*i)); ok {
					w.write(o, l, a, 4, s[i][l])
				}
			}
		}
	}
}

func mubufAtomic(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	voff, vidx := w.mubufVaddr(o)
	run := exec
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), 0)
		if !ok {
			run &^= 1 << l
		}
		w.addrs[l] = a
	}
	w.atomics(o, run)
}

// SMEM.

func smemAddr(w *wave, o *op) uint64 {
	a := w.sread64(&o.src[0]) + uint64(int64(o.offset))
	if o.src[1].kind != kNone {
		a += uint64(w.sread32(&o.src[1]))
	}
	return a &^ 3
}

func sLoad(w *wave, o *op) {
	n := int(o.imm)
	a := smemAddr(w, o)
	p := w.gbytes(o, -1, a, 4*n, false)
	for i := 0; i < n; i++ {
		w.s[int(o.dst.idx)+i] = ld32(p[4*i:])
	}
}

func sBufferLoad(w *wave, o *op) {
	n := int(o.imm)
	i := o.src[0].idx
	base := uint64(w.s[i]) | uint64(w.s[i+1]&0xFFFF)<<32
	numRecords := w.s[i+2]
	off := uint32(o.offset)
	if o.src[1].kind != kNone {
		off += w.sread32(&o.src[1])
	}
	off &^= 3
	for k := 0; k < n; k++ {
		o2 := off + uint32(4*k)
		var v uint32
		if o2 < numRecords {
			v = ld32(w.gbytes(o, -1, base+uint64(o2), 4, false))
		}
		w.s[int(o.dst.idx)+k] = v
	}
}

func sStore(w *wave, o *op) {
	n := int(o.imm)
	a := smemAddr(w, o)
	p := w.gbytes(o, -1, a, 4*n, true)
	for i := 0; i < n; i++ {
		st32(p[4*i:], w.s[int(o.src[2].idx)+i])
	}
}

var memKinds = map[string]uint32{
	"ubyte": mU8, "sbyte": mI8, "ushort": mU16, "sshort": mI16,
	"dword": mB32, "dwordx2": mB64, "dwordx3": mB96, "dwordx4": mB128,
	"ubyte_d16": mD16U8, "ubyte_d16_hi": mD16U8Hi, "sbyte_d16": mD16I8, "sbyte_d16_hi": mD16I8Hi,
	"short_d16": mD16, "short_d16_hi": mD16Hi,
}

var storeKinds = map[string]uint32{
	"byte": mU8, "byte_d16_hi": mSt8Hi, "short": mU16, "short_d16_hi": mSt16Hi,
	"dword": mB32, "dwordx2": mB64, "dwordx3": mB96, "dwordx4": mB128,
}

var atomicKinds = map[string]uint32{
	"swap": aSwap, "cmpswap": aCmpSwap, "add": aAdd, "sub": aSub, "smin": aSMin, "umin": aUMin,
	"smax": aSMax, "umax": aUMax, "and": aAnd, "or": aOr, "xor": aXor, "inc": aInc, "dec": aDec,
}

// memImm maps memory mnemonics to their data kind (op.imm); build.go reads it.
var memImm = map[string]uint32{}

func init() {
	segs := []struct {
		prefix string
		addrs  addrFn
	}{
		{"flat_", (*wave).flatAddrs},
		{"global_", (*wave).globalAddrs},
		{"scratch_", (*wave).scratchAddrs},
	}
	for _, sg := range segs {
		for k, v := range memKinds {
			n := sg.prefix + "load_" + k
			defM(n, "", memLoadOp(sg.addrs, sg.prefix != "scratch_"))
			memImm[n] = v
		}
		for k, v := range storeKinds {
			n := sg.prefix + "store_" + k
			defM(n, "", memStoreOp(sg.addrs, sg.prefix != "scratch_"))
			memImm[n] = v
		}
		if sg.prefix == "scratch_" {
			continue
		}
		for k, v := range atomicKinds {
			for _, wide := range []bool{false, true} {
				n := sg.prefix + "atomic_" + k
				imm := v
				if wide {
					n += "_x2"
					imm |= aWide
				}
				defM(n, "", memAtomicOp(sg.addrs))
				memImm[n] = imm
			}
		}
		for n, imm := range map[string]uint32{"atomic_add_f64": aFAdd | aWide, "atomic_min_f64": aFMin | aWide,
			"atomic_max_f64": aFMax | aWide, "atomic_add_f32": aFAdd, "atomic_pk_add_f16": aPkFAdd16} {
			if sg.prefix == "flat_" && (n == "atomic_add_f32" || n == "atomic_pk_add_f16") {
				continue
			}
			defM(sg.prefix+n, "", memAtomicOp(sg.addrs))
			memImm[sg.prefix+n] = imm
		}
	}
	for k, v := range memKinds {
		defM("buffer_load_"+k, "", mubufLoad)
		memImm["buffer_load_"+k] = v
	}
	for k, v := range storeKinds {
		defM("buffer_store_"+k, "", mubufStore)
		memImm["buffer_store_"+k] = v
	}
	for k, v := range atomicKinds {
		defM("buffer_atomic_"+k, "", mubufAtomic)
		memImm["buffer_atomic_"+k] = v
		defM("buffer_atomic_"+k+"_x2", "", mubufAtomic)
		memImm["buffer_atomic_"+k+"_x2"] = v | aWide
	}
	for n, imm := range map[string]uint32{"buffer_atomic_add_f32": aFAdd, "buffer_atomic_pk_add_f16": aPkFAdd16,
		"buffer_atomic_add_f64": aFAdd | aWide, "buffer_atomic_min_f64": aFMin | aWide, "buffer_atomic_max_f64": aFMax | aWide} {
		defM(n, "", mubufAtomic)
		memImm[n] = imm
	}
	for _, n := range []string{"buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbl2", "buffer_invl2"} {
		defM(n, "", opNop)
	}
	for n, d := range map[string]uint32{"dword": 1, "dwordx2": 2, "dwordx4": 4, "dwordx8": 8, "dwordx16": 16} {
		def("s_load_"+n, ClassSMEM, "", sLoad)
		memImm["s_load_"+n] = d
		def("s_buffer_load_"+n, ClassSMEM, "", sBufferLoad)
		memImm["s_buffer_load_"+n] = d
		if d <= 4 {
			def("s_store_"+n, ClassSMEM, "", sStore)
			memImm["s_store_"+n] = d
		}
	}
}

// Scalar atomics (GFX9 SMEM s_atomic_* and s_buffer_atomic_*): one atomic
// on the scalar address (s_buffer_: the V#'s base + offset, skipped when
// the offset is not below NUM_RECORDS), data in SDATA (cmpswap: data then
// compare value), the old value returned to SDATA with GLC.
func sAtomic(w *wave, o *op) {
	var a uint64
	if o.flags&fSBuffer != 0 {
		i := o.src[0].idx
		base := uint64(w.s[i]) | uint64(w.s[i+1]&0xFFFF)<<32
		off := uint32(o.offset)
		if o.src[1].kind != kNone {
			off += w.sread32(&o.src[1])
		}
		if off >= w.s[i+2] {
			return
		}
		a = base + uint64(off)
	} else {
		a = w.sread64(&o.src[0]) + uint64(int64(o.offset))
		if o.src[1].kind != kNone {
			a += uint64(w.sread32(&o.src[1]))
		}
	}
	op := o.imm
	d := int(o.src[2].idx)
	src, cmp := uint64(w.s[d]), uint64(0)
	wide := op&aWide != 0
	if wide {
		src |= uint64(w.s[d+1]) << 32
	}
	if op&^aWide == aCmpSwap {
		if wide {
			cmp = uint64(w.s[d+2]) | uint64(w.s[d+3])<<32
		} else {
			cmp = uint64(w.s[d+1])
		}
	}
	old := w.atomicLane(o, -1, a, op, src, cmp)
	if o.flags&fGLC != 0 {
		w.s[d] = uint32(old)
		if wide {
			w.s[d+1] = uint32(old >> 32)
		}
	}
}

func init() {
	for k, v := range atomicKinds {
		for _, pre := range []string{"s_atomic_", "s_buffer_atomic_"} {
			def(pre+k, ClassSMEM, "", sAtomic)
			memImm[pre+k] = v
			def(pre+k+"_x2", ClassSMEM, "", sAtomic)
			memImm[pre+k+"_x2"] = v | aWide
		}
	}
}
