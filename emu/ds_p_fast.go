package emu

// Fast paths for the LDS dword loads and stores (bench profile: matmul
// spent half its time in ds_read2_b32 going lane by lane through the flat
// read path). With EXEC all ones, one pass computes every lane's LDS
// offsets and their maximum; when every access lies inside the LDS, a
// second pass moves the dwords. Anything else — partial EXEC, an access
// out of range (which reads 0 / drops the write, or faults with
// FaultOnLDSRange), other data kinds — runs the handler in ops_ds.go,
// which stays the definition of the semantics.

// dsOffsets fills offs with v[l]+off (32-bit wrap, as the DS address
// computation) and reports whether every [offs[l], offs[l]+n) is inside
// the LDS.
func (w *wave) dsOffsets(v *[64]uint32, off uint32, n uint32, offs *[64]uint32) bool {
	var hi uint32
	for l := range offs {
		a := v[l] + off
		offs[l] = a
		hi = max(hi, a)
	}
	return uint64(hi)+uint64(n) <= uint64(len(w.wg.lds))
}

// pDSRead is ds_read_b32/b64 (o.imm mB32 or mB64).
func pDSRead(w *wave, o *op, generic func(w *wave, o *op)) {
	nd := 0
	switch o.imm {
	case mB32:
		nd = 1
	case mB64:
		nd = 2
	}
	if nd == 0 || !allOnes(w) || o.dst.kind != kVGPR || !isVec(o.src[0].kind) {
		generic(w, o)
		return
	}
	var offs [64]uint32
	if !w.dsOffsets(w.lanes(&o.src[0]), uint32(o.offset), uint32(4*nd), &offs) {
		generic(w, o)
		return
	}
	lds := w.wg.lds
	i := int(o.dst.idx) << 6
	d0 := (*[64]uint32)(w.v[i : i+64])
	if nd == 1 {
		for l, a := range offs {
			d0[l] = ld32(lds[a:])
		}
		return
	}
	d1 := (*[64]uint32)(w.v[i+64 : i+128])
	for l, a := range offs {
		d0[l] = ld32(lds[a:])
		d1[l] = ld32(lds[a+4:])
	}
}

// pDSWrite is ds_write_b32/b64 (data in src[1]); lanes store in ascending
// order as on the general path.
func pDSWrite(w *wave, o *op, generic func(w *wave, o *op)) {
	nd := 0
	switch o.imm {
	case mB32:
		nd = 1
	case mB64:
		nd = 2
	}
	if nd == 0 || !allOnes(w) || o.src[1].kind != kVGPR || !isVec(o.src[0].kind) {
		generic(w, o)
		return
	}
	var offs [64]uint32
	if !w.dsOffsets(w.lanes(&o.src[0]), uint32(o.offset), uint32(4*nd), &offs) {
		generic(w, o)
		return
	}
	lds := w.wg.lds
	i := int(o.src[1].idx) << 6
	s0 := (*[64]uint32)(w.v[i : i+64])
	if nd == 1 {
		for l, a := range offs {
			st32(lds[a:], s0[l])
		}
		return
	}
	s1 := (*[64]uint32)(w.v[i+64 : i+128])
	for l, a := range offs {
		st32(lds[a:], s0[l])
		st32(lds[a+4:], s1[l])
	}
}

// pDSRead2 is ds_read2(st64)_b32 (o.imm 1 | scale<<4): two dwords per
// lane at offset0·scale and offset1·scale, into dst and dst+1.
func pDSRead2(w *wave, o *op, generic func(w *wave, o *op)) {
	if o.imm&0xF != 1 || !allOnes(w) || o.dst.kind != kVGPR || !isVec(o.src[0].kind) {
		generic(w, o)
		return
	}
	scale := uint32(o.imm>>4) * 4
	v := w.lanes(&o.src[0])
	lds := w.wg.lds
	i := int(o.dst.idx) << 6
	d0, d1 := (*[64]uint32)(w.v[i:i+64]), (*[64]uint32)(w.v[i+64:i+128])
	if haveAVX2 && !raceEnabled && len(lds) >= 4 && len(lds) <= 1<<31 {
		// Both offset sets range-checked, then gathered (VPGATHERDD).
		if dsRead2AVX2(d0, d1, &lds[0], v, uint32(o.offset)&0xFF*scale, uint32(o.off1)*scale, uint32(len(lds)-4)) {
			return
		}
		generic(w, o)
		return
	}
	var offs0, offs1 [64]uint32
	if !w.dsOffsets(v, uint32(o.offset)&0xFF*scale, 4, &offs0) || !w.dsOffsets(v, uint32(o.off1)*scale, 4, &offs1) {
		generic(w, o)
		return
	}
	for l := range d0 {
		d0[l] = ld32(lds[offs0[l]:])
		d1[l] = ld32(lds[offs1[l]:])
	}
}

// pDSWrite2 is ds_write2(st64)_b32: data0 (src[1]) at offset0·scale, then
// data1 (src[2]) at offset1·scale, lane by lane in ascending order.
func pDSWrite2(w *wave, o *op, generic func(w *wave, o *op)) {
	if o.imm&0xF != 1 || !allOnes(w) || o.src[1].kind != kVGPR || o.src[2].kind != kVGPR || !isVec(o.src[0].kind) {
		generic(w, o)
		return
	}
	scale := uint32(o.imm>>4) * 4
	v := w.lanes(&o.src[0])
	var offs0, offs1 [64]uint32
	if !w.dsOffsets(v, uint32(o.offset)&0xFF*scale, 4, &offs0) || !w.dsOffsets(v, uint32(o.off1)*scale, 4, &offs1) {
		generic(w, o)
		return
	}
	lds := w.wg.lds
	s0, s1 := w.lanes(&o.src[1]), w.lanes(&o.src[2])
	for l := range s0 {
		st32(lds[offs0[l]:], s0[l])
		st32(lds[offs1[l]:], s1[l])
	}
}

// specialiseDS installs the LDS fast paths (called by specialiseP).
func specialiseDS(over func(name string, f func(prev func(w *wave, o *op)) func(w *wave, o *op))) {
	for _, n := range []string{"ds_read_b32", "ds_read_b64"} {
		over(n, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pDSRead(w, o, prev) }
		})
	}
	for _, n := range []string{"ds_write_b32", "ds_write_b64"} {
		over(n, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pDSWrite(w, o, prev) }
		})
	}
	for _, n := range []string{"ds_read2_b32", "ds_read2st64_b32"} {
		over(n, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pDSRead2(w, o, prev) }
		})
	}
	for _, n := range []string{"ds_write2_b32", "ds_write2st64_b32"} {
		over(n, func(prev func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { pDSWrite2(w, o, prev) }
		})
	}
}
