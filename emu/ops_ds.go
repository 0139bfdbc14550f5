package emu

import "strings"

// LDS (DS) semantics. Operands: src[0] address VGPR, src[1] data0, src[2]
// data1, dst vdst; offset (16-bit) or offset0 in offset and offset1 in off1
// for the two-address forms; op.imm is the data kind or atomic op.

func defD(name, types string, fn func(w *wave, o *op)) { def(name, ClassLDS, types, fn) }

func (w *wave) dsAddrs(o *op, exec uint64, off uint32) {
	v := w.vsrc(&o.src[0], &w.tmp[0])
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			w.addrs[l] = SharedApertureBase | uint64(v[l]+off)
		}
	}
}

func dsRead(w *wave, o *op) {
	exec := w.exec()
	w.dsAddrs(o, exec, uint32(o.offset))
	k := o.imm
	d := w.regs(&o.dst, dwords(k))
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			w.loadLane(o, l, w.addrs[l], k, &d)
		}
	}
}

func dsWrite(w *wave, o *op) {
	exec := w.exec()
	w.dsAddrs(o, exec, uint32(o.offset))
	k := o.imm
	s := w.regs(&o.src[1], dwords(k))
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			w.storeLane(o, l, w.addrs[l], k, &s)
		}
	}
}

// ds_read2/write2: o.imm = element dwords (1 or 2) | scale<<4 (1 or 64);
// offset0 is the low byte of the decoder's combined offset field.
func dsRead2(w *wave, o *op) {
	exec := w.exec()
	nd := int(o.imm & 0xF)
	scale := uint32(o.imm>>4) * uint32(4*nd)
	v := w.vsrc(&o.src[0], &w.tmp[0])
	d := w.regs(&o.dst, 2*nd)
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		a0 := SharedApertureBase | uint64(v[l]+uint32(o.offset)&0xFF*scale)
		a1 := SharedApertureBase | uint64(v[l]+uint32(o.off1)*scale)
		for i := 0; i < nd; i++ {
			d[i][l] = w.read(o, l, a0+uint64(4*i), 4)
		}
		for i := 0; i < nd; i++ {
			d[nd+i][l] = w.read(o, l, a1+uint64(4*i), 4)
		}
	}
}

func dsWrite2(w *wave, o *op) {
	exec := w.exec()
	nd := int(o.imm & 0xF)
	scale := uint32(o.imm>>4) * uint32(4*nd)
	v := w.vsrc(&o.src[0], &w.tmp[0])
	s0 := w.regs(&o.src[1], nd)
	s1 := w.regs(&o.src[2], nd)
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		a0 := SharedApertureBase | uint64(v[l]+uint32(o.offset)&0xFF*scale)
		a1 := SharedApertureBase | uint64(v[l]+uint32(o.off1)*scale)
		for i := 0; i < nd; i++ {
			w.write(o, l, a0+uint64(4*i), 4, s0[i][l])
		}
		for i := 0; i < nd; i++ {
			w.write(o, l, a1+uint64(4*i), 4, s1[i][l])
		}
	}
}

// dsAtomic: data0 is the source (or the compare value for cmpst, the mask
// for mskor), data1 the new value for cmpst / the or-value for mskor.
func dsAtomic(w *wave, o *op) {
	exec := w.exec()
	w.dsAddrs(o, exec, uint32(o.offset))
	op := o.imm &^ (1 << 9)
	ret := o.imm&(1<<9) != 0
	wide := op&aWide != 0
	nd := 1
	if wide {
		nd = 2
	}
	base := op &^ aWide
	two := base == aCmpSwap || base == aMskor
	s0 := w.regs(&o.src[1], nd)
	var s1 [4][]uint32
	if two {
		s1 = w.regs(&o.src[2], nd)
	}
	var d [4][]uint32
	if ret {
		d = w.regs(&o.dst, nd)
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x := uint64(s0[0][l])
		if wide {
			x |= uint64(s0[1][l]) << 32
		}
		var y uint64
		if two {
			y = uint64(s1[0][l])
			if wide {
				y |= uint64(s1[1][l]) << 32
			}
		}
		var old uint64
		switch base {
		case aCmpSwap: // MEM = (MEM == data0) ? data1 : MEM
			old = w.atomicLane(o, l, w.addrs[l], op, y, x)
		case aMskor: // MEM = (MEM & ~data0) | data1
			old = w.atomicLane(o, l, w.addrs[l], op, y, x)
		default:
			old = w.atomicLane(o, l, w.addrs[l], op, x, 0)
		}
		if ret {
			d[0][l] = uint32(old)
			if wide {
				d[1][l] = uint32(old >> 32)
			}
		}
	}
}

// dsSwizzle: ds_swizzle_b32 vdst, vaddr — the data is the address operand.
func dsSwizzle(w *wave, o *op) {
	exec := w.exec()
	src := w.vsrc(&o.src[0], &w.tmp[0])
	var tmp [64]uint32
	off := uint32(o.offset)
	for l := 0; l < 64; l++ {
		var s int
		if off&0x8000 != 0 {
			s = l&^3 | int(off>>(2*(uint(l)&3))&3)
		} else {
			and, or, xor := int(off&0x1F), int(off>>5&0x1F), int(off>>10&0x1F)
			s = l&^31 | ((l&31)&and | or) ^ xor
		}
		tmp[l] = src[s]
	}
	d := w.vdst(&o.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			d[l] = tmp[l]
		}
	}
}

func dsPermute(w *wave, o *op) {
	exec := w.exec()
	addr := w.vsrc(&o.src[0], &w.tmp[0])
	src := w.vsrc(&o.src[1], &w.tmp[1])
	var tmp [64]uint32
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			tmp[(addr[l]+uint32(o.offset))/4%64] = src[l]
		}
	}
	d := w.vdst(&o.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			d[l] = tmp[l]
		}
	}
}

func dsBpermute(w *wave, o *op) {
	exec := w.exec()
	addr := w.vsrc(&o.src[0], &w.tmp[0])
	src := w.vsrc(&o.src[1], &w.tmp[1])
	var tmp [64]uint32
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			tmp[l] = src[(addr[l]+uint32(o.offset))/4%64]
		}
	}
	d := w.vdst(&o.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			d[l] = tmp[l]
		}
	}
}

// ds_append / ds_consume: a wave-wide counter in LDS at M0[15:0] + offset.
func dsAppend(w *wave, o *op) {
	exec := w.exec()
	a := w.s[sM0]&0xFFFF + uint32(o.offset)
	p := w.ldsBytes(o, -1, a, 4)
	var old uint32
	if p != nil {
		old = le.Uint32(p)
		n := uint32(popcount(exec))
		if o.imm == 1 {
			le.PutUint32(p, old-n)
		} else {
			le.PutUint32(p, old+n)
		}
	}
	d := w.vdst(&o.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			d[l] = old
		}
	}
}

// ds_read_addtid_b32 / ds_write_addtid_b32 (MI100/MI200 ISA guides, DS
// opcodes): no address VGPR; lane l accesses the dword at LDS address
// {OFFSET1, OFFSET0} + M0[15:0] + 4·l.
func dsAddTID(w *wave, o *op) {
	exec := w.exec()
	base := uint32(o.offset)&0xFFFF + w.s[sM0]&0xFFFF
	write := o.imm == 1
	var d []uint32
	if write {
		d = w.vsrc(&o.src[1], &w.tmp[1])
	} else {
		d = w.vdst(&o.dst)
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		a := SharedApertureBase | uint64(base+4*uint32(l))
		if write {
			w.write(o, l, a, 4, d[l])
		} else {
			d[l] = w.read(o, l, a, 4)
		}
	}
}

func init() {
	defD("ds_read_addtid_b32", "", dsAddTID)
	defD("ds_write_addtid_b32", "", dsAddTID)
	memImm["ds_write_addtid_b32"] = 1
	for k, v := range map[string]uint32{"b32": mB32, "b64": mB64, "b96": mB96, "b128": mB128, "u8": mU8, "i8": mI8,
		"u16": mU16, "i16": mI16, "u8_d16": mD16U8, "u8_d16_hi": mD16U8Hi, "i8_d16": mD16I8, "i8_d16_hi": mD16I8Hi,
		"u16_d16": mD16, "u16_d16_hi": mD16Hi} {
		defD("ds_read_"+k, "", dsRead)
		memImm["ds_read_"+k] = v
	}
	for k, v := range map[string]uint32{"b8": mU8, "b16": mU16, "b32": mB32, "b64": mB64, "b96": mB96, "b128": mB128,
		"b8_d16_hi": mSt8Hi, "b16_d16_hi": mSt16Hi} {
		defD("ds_write_"+k, "", dsWrite)
		memImm["ds_write_"+k] = v
	}
	for n, imm := range map[string]uint32{"ds_read2_b32": 1 | 1<<4, "ds_read2st64_b32": 1 | 64<<4,
		"ds_read2_b64": 2 | 1<<4, "ds_read2st64_b64": 2 | 64<<4} {
		defD(n, "", dsRead2)
		memImm[n] = imm
		wn := strings.Replace(n, "read", "write", 1)
		defD(wn, "", dsWrite2)
		memImm[wn] = imm
	}
	type at struct {
		name string
		op   uint32
	}
	ops32 := []at{{"add_u32", aAdd}, {"sub_u32", aSub}, {"rsub_u32", aRsub}, {"inc_u32", aInc}, {"dec_u32", aDec},
		{"min_i32", aSMin}, {"max_i32", aSMax}, {"min_u32", aUMin}, {"max_u32", aUMax}, {"and_b32", aAnd},
		{"or_b32", aOr}, {"xor_b32", aXor}, {"mskor_b32", aMskor}, {"cmpst_b32", aCmpSwap}, {"cmpst_f32", aCmpSwap},
		{"min_f32", aFMin}, {"max_f32", aFMax}, {"add_f32", aFAdd},
		{"add_u64", aAdd | aWide}, {"sub_u64", aSub | aWide}, {"rsub_u64", aRsub | aWide}, {"inc_u64", aInc | aWide},
		{"dec_u64", aDec | aWide}, {"min_i64", aSMin | aWide}, {"max_i64", aSMax | aWide}, {"min_u64", aUMin | aWide},
		{"max_u64", aUMax | aWide}, {"and_b64", aAnd | aWide}, {"or_b64", aOr | aWide}, {"xor_b64", aXor | aWide},
		{"mskor_b64", aMskor | aWide}, {"cmpst_b64", aCmpSwap | aWide}, {"cmpst_f64", aCmpSwap | aWide},
		{"min_f64", aFMin | aWide}, {"max_f64", aFMax | aWide}, {"add_f64", aFAdd | aWide}}
	for _, a := range ops32 {
		defD("ds_"+a.name, "", dsAtomic)
		memImm["ds_"+a.name] = a.op
		i := strings.LastIndexByte(a.name, '_')
		rn := "ds_" + a.name[:i] + "_rtn" + a.name[i:]
		defD(rn, "", dsAtomic)
		memImm[rn] = a.op | 1<<9
	}
	defD("ds_wrxchg_rtn_b32", "", dsAtomic)
	memImm["ds_wrxchg_rtn_b32"] = aSwap | 1<<9
	defD("ds_wrxchg_rtn_b64", "", dsAtomic)
	memImm["ds_wrxchg_rtn_b64"] = aSwap | aWide | 1<<9
	defD("ds_swizzle_b32", "", dsSwizzle)
	defD("ds_permute_b32", "", dsPermute)
	defD("ds_bpermute_b32", "", dsBpermute)
	defD("ds_append", "", dsAppend)
	defD("ds_consume", "", dsAppend)
	memImm["ds_consume"] = 1
	defD("ds_nop", "", opNop)
}
