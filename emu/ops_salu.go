package emu

import (
	"math/bits"
	"time"
)

func defS(name, types string, fn func(w *wave, o *op)) { def(name, ClassSALU, types, fn) }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// sop2 32-bit: f returns the result and the new SCC (or -1 to leave it).
func sop2(f func(w *wave, a, b uint32) (uint32, int)) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		r, scc := f(w, w.sread32(&o.src[0]), w.sread32(&o.src[1]))
		w.swrite32(&o.dst, r)
		if scc >= 0 {
			w.scc = uint32(scc)
		}
	}
}

func sop2w(f func(w *wave, a, b uint64) (uint64, int)) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		r, scc := f(w, w.sread64(&o.src[0]), w.sread64(&o.src[1]))
		w.swrite64(&o.dst, r)
		if scc >= 0 {
			w.scc = uint32(scc)
		}
	}
}

func nz(v uint32) int   { return int(b2u(v != 0)) }
func nz64(v uint64) int { return int(b2u(v != 0)) }

// sop2 with a 64-bit first source and 32-bit second (shifts, bfe).
func sop2ws(f func(a uint64, b uint32) (uint64, int)) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		r, scc := f(w.sread64(&o.src[0]), w.sread32(&o.src[1]))
		w.swrite64(&o.dst, r)
		if scc >= 0 {
			w.scc = uint32(scc)
		}
	}
}

func sop1(f func(w *wave, a uint32) (uint32, int)) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		r, scc := f(w, w.sread32(&o.src[0]))
		w.swrite32(&o.dst, r)
		if scc >= 0 {
			w.scc = uint32(scc)
		}
	}
}

func sop1w(f func(w *wave, a uint64) (uint64, int)) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		r, scc := f(w, w.sread64(&o.src[0]))
		w.swrite64(&o.dst, r)
		if scc >= 0 {
			w.scc = uint32(scc)
		}
	}
}

// sop1 64-bit source, 32-bit result (bcnt, ff1, flbit).
func sop1w32(f func(a uint64) (uint32, int)) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		r, scc := f(w.sread64(&o.src[0]))
		w.swrite32(&o.dst, r)
		if scc >= 0 {
			w.scc = uint32(scc)
		}
	}
}

func saveexec(f func(s, exec uint64) uint64) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		s := w.sread64(&o.src[0])
		e := w.exec()
		w.swrite64(&o.dst, e)
		n := f(s, e)
		w.setExec(n)
		w.scc = b2u(n != 0)
	}
}

func wrexec(f func(s, exec uint64) uint64) func(w *wave, o *op) {
	return func(w *wave, o *op) {
		n := f(w.sread64(&o.src[0]), w.exec())
		w.setExec(n)
		w.swrite64(&o.dst, n)
		w.scc = b2u(n != 0)
	}
}

func scmp(f func(a, b uint32) bool) func(w *wave, o *op) {
	return func(w *wave, o *op) { w.scc = b2u(f(w.sread32(&o.src[0]), w.sread32(&o.src[1]))) }
}

// sopk compares and arithmetic: o.simm holds the sign-extended immediate,
// o.imm the zero-extended one; src[0] is the SGPR (also the destination).
func scmpk(f func(a uint32, simm int32, imm uint32) bool) func(w *wave, o *op) {
	return func(w *wave, o *op) { w.scc = b2u(f(w.sread32(&o.src[0]), o.simm, o.imm)) }
}

func wqm(v uint64) uint64 {
	var r uint64
	for i := 0; i < 64; i += 4 {
		if v>>i&0xF != 0 {
			r |= 0xF << i
		}
	}
	return r
}

func quadmask(v uint64) uint64 {
	var r uint64
	for i := 0; i < 16; i++ {
		if v>>(4*i)&0xF != 0 {
			r |= 1 << i
		}
	}
	return r
}

// Hardware register ids (GFX9 s_getreg/s_setreg).
const (
	hwMode       = 1
	hwStatus     = 2
	hwTrapsts    = 3
	hwHWID       = 4
	hwGPRAlloc   = 5
	hwLDSAlloc   = 6
	hwIBSts      = 7
	hwSHMemBases = 15
)

func (w *wave) getHW(id uint32) uint32 {
	switch id {
	case hwMode:
		return w.mode
	case hwStatus:
		st := w.scc & 1
		if w.exec() == 0 {
			st |= 1 << 9 // EXECZ
		}
		if w.vcc() == 0 {
			st |= 1 << 10 // VCCZ
		}
		return st
	case hwTrapsts:
		return w.trapsts
	case hwHWID:
		// wave_id[3:0], simd_id[5:4], pipe_id[7:6], cu_id[11:8], sh_id[12], se_id[14:13].
		return uint32(w.id&15) | uint32(w.id>>4&3)<<4 | uint32(w.slot&15)<<8
	case hwGPRAlloc:
		return uint32(len(w.v)/64/4-1)<<8 | 0
	case hwLDSAlloc:
		return uint32(len(w.wg.lds)/512) << 12
	case hwIBSts:
		return 0
	case hwSHMemBases:
		// private_base[15:0], shared_base[31:16]: aperture address bits 63:48.
		return uint32(PrivateApertureBase>>48) | uint32(SharedApertureBase>>48)<<16
	}
	return 0
}

func (w *wave) setHW(id, v, mask uint32) {
	switch id {
	case hwMode:
		w.mode = w.mode&^mask | v&mask
	case hwTrapsts:
		w.trapsts = w.trapsts&^mask | v&mask
	}
}

// hwreg decodes a SOPK hwreg immediate: id [5:0], offset [10:6], size-1 [15:11].
func hwreg(imm uint32) (id, off, size uint32) {
	return imm & 0x3F, imm >> 6 & 0x1F, imm>>11&0x1F + 1
}

func init() {
	// SOP2.
	defS("s_add_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { s, c := bits.Add32(a, b, 0); return s, int(c) }))
	defS("s_sub_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { s, c := bits.Sub32(a, b, 0); return s, int(c) }))
	defS("s_addc_u32", "ii", sop2(func(w *wave, a, b uint32) (uint32, int) { s, c := bits.Add32(a, b, w.scc); return s, int(c) }))
	defS("s_subb_u32", "ii", sop2(func(w *wave, a, b uint32) (uint32, int) { s, c := bits.Sub32(a, b, w.scc); return s, int(c) }))
	defS("s_add_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		s := a + b
		return s, int(b2u((a>>31 == b>>31) && s>>31 != a>>31))
	}))
	defS("s_sub_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		s := a - b
		return s, int(b2u((a>>31 != b>>31) && s>>31 != a>>31))
	}))
	defS("s_min_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		if int32(a) < int32(b) {
			return a, 1
		}
		return b, 0
	}))
	defS("s_min_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		if a < b {
			return a, 1
		}
		return b, 0
	}))
	defS("s_max_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		if int32(a) > int32(b) {
			return a, 1
		}
		return b, 0
	}))
	defS("s_max_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		if a > b {
			return a, 1
		}
		return b, 0
	}))
	defS("s_cselect_b32", "ii", sop2(func(w *wave, a, b uint32) (uint32, int) {
		if w.scc != 0 {
			return a, -1
		}
		return b, -1
	}))
	defS("s_cselect_b64", "II", sop2w(func(w *wave, a, b uint64) (uint64, int) {
		if w.scc != 0 {
			return a, -1
		}
		return b, -1
	}))
	for _, b := range []struct {
		name string
		f    func(a, b uint64) uint64
	}{
		{"and", func(a, b uint64) uint64 { return a & b }},
		{"or", func(a, b uint64) uint64 { return a | b }},
		{"xor", func(a, b uint64) uint64 { return a ^ b }},
		{"andn2", func(a, b uint64) uint64 { return a &^ b }},
		{"orn2", func(a, b uint64) uint64 { return a | ^b }},
		{"nand", func(a, b uint64) uint64 { return ^(a & b) }},
		{"nor", func(a, b uint64) uint64 { return ^(a | b) }},
		{"xnor", func(a, b uint64) uint64 { return ^(a ^ b) }},
	} {
		f := b.f
		defS("s_"+b.name+"_b32", "ii", sop2(func(_ *wave, x, y uint32) (uint32, int) {
			r := uint32(f(uint64(x), uint64(y)))
			return r, nz(r)
		}))
		defS("s_"+b.name+"_b64", "II", sop2w(func(_ *wave, x, y uint64) (uint64, int) { r := f(x, y); return r, nz64(r) }))
	}
	defS("s_lshl_b32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { r := a << (b & 31); return r, nz(r) }))
	defS("s_lshr_b32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { r := a >> (b & 31); return r, nz(r) }))
	defS("s_ashr_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { r := uint32(int32(a) >> (b & 31)); return r, nz(r) }))
	defS("s_lshl_b64", "Ii", sop2ws(func(a uint64, b uint32) (uint64, int) { r := a << (b & 63); return r, nz64(r) }))
	defS("s_lshr_b64", "Ii", sop2ws(func(a uint64, b uint32) (uint64, int) { r := a >> (b & 63); return r, nz64(r) }))
	defS("s_ashr_i64", "Ii", sop2ws(func(a uint64, b uint32) (uint64, int) { r := uint64(int64(a) >> (b & 63)); return r, nz64(r) }))
	defS("s_bfm_b32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { return (1<<(a&31) - 1) << (b & 31), -1 }))
	defS("s_bfm_b64", "ii", func(w *wave, o *op) {
		a, b := w.sread32(&o.src[0]), w.sread32(&o.src[1])
		w.swrite64(&o.dst, (1<<(a&63)-1)<<(b&63))
	})
	defS("s_mul_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { return a * b, -1 }))
	defS("s_mul_hi_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { return uint32(uint64(a) * uint64(b) >> 32), -1 }))
	defS("s_mul_hi_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		return uint32(int64(int32(a)) * int64(int32(b)) >> 32), -1
	}))
	defS("s_bfe_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		r := bfe(a, b&31, b>>16&0x7F)
		if b>>16&0x7F >= 32 {
			r = a >> (b & 31)
		}
		return r, nz(r)
	}))
	defS("s_bfe_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		off, width := b&31, b>>16&0x7F
		var r uint32
		switch {
		case width == 0:
			r = 0
		case width >= 32:
			r = uint32(int32(a) >> off)
		default:
			r = bfeI(a, off, width)
		}
		return r, nz(r)
	}))
	defS("s_bfe_u64", "Ii", sop2ws(func(a uint64, b uint32) (uint64, int) {
		off, width := b&63, b>>16&0x7F
		r := a >> off
		if width < 64 {
			r &= 1<<width - 1
		}
		return r, nz64(r)
	}))
	defS("s_bfe_i64", "Ii", sop2ws(func(a uint64, b uint32) (uint64, int) {
		off, width := b&63, b>>16&0x7F
		var r uint64
		if width != 0 {
			r = a >> off
			if width < 64 {
				r &= 1<<width - 1
				if r>>(width-1)&1 != 0 {
					r |= ^uint64(0) << width
				}
			}
		}
		return r, nz64(r)
	}))
	defS("s_absdiff_i32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
		d := int32(a) - int32(b)
		if d < 0 {
			d = -d
		}
		return uint32(d), nz(uint32(d))
	}))
	for n := 1; n <= 4; n++ {
		n := n
		defS("s_lshl"+itoa(n)+"_add_u32", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) {
			s := uint64(a)<<n + uint64(b)
			return uint32(s), int(b2u(s>>32 != 0))
		}))
	}
	defS("s_pack_ll_b32_b16", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { return a&0xFFFF | b<<16, -1 }))
	defS("s_pack_lh_b32_b16", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { return a&0xFFFF | b&0xFFFF0000, -1 }))
	defS("s_pack_hh_b32_b16", "ii", sop2(func(_ *wave, a, b uint32) (uint32, int) { return a>>16 | b&0xFFFF0000, -1 }))

	// SOP1.
	defS("s_mov_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return a, -1 }))
	defS("s_mov_b64", "I", sop1w(func(_ *wave, a uint64) (uint64, int) { return a, -1 }))
	defS("s_cmov_b32", "i", func(w *wave, o *op) {
		if w.scc != 0 {
			w.swrite32(&o.dst, w.sread32(&o.src[0]))
		}
	})
	defS("s_cmov_b64", "I", func(w *wave, o *op) {
		if w.scc != 0 {
			w.swrite64(&o.dst, w.sread64(&o.src[0]))
		}
	})
	defS("s_not_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return ^a, nz(^a) }))
	defS("s_not_b64", "I", sop1w(func(_ *wave, a uint64) (uint64, int) { return ^a, nz64(^a) }))
	defS("s_wqm_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { r := uint32(wqm(uint64(a))); return r, nz(r) }))
	defS("s_wqm_b64", "I", sop1w(func(_ *wave, a uint64) (uint64, int) { r := wqm(a); return r, nz64(r) }))
	defS("s_quadmask_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { r := uint32(quadmask(uint64(a))); return r, nz(r) }))
	defS("s_quadmask_b64", "I", sop1w(func(_ *wave, a uint64) (uint64, int) { r := quadmask(a); return r, nz64(r) }))
	defS("s_brev_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return bits.Reverse32(a), -1 }))
	defS("s_brev_b64", "I", sop1w(func(_ *wave, a uint64) (uint64, int) { return bits.Reverse64(a), -1 }))
	defS("s_bcnt0_i32_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { r := uint32(32 - bits.OnesCount32(a)); return r, nz(r) }))
	defS("s_bcnt0_i32_b64", "I", sop1w32(func(a uint64) (uint32, int) { r := uint32(64 - bits.OnesCount64(a)); return r, nz(r) }))
	defS("s_bcnt1_i32_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { r := uint32(bits.OnesCount32(a)); return r, nz(r) }))
	defS("s_bcnt1_i32_b64", "I", sop1w32(func(a uint64) (uint32, int) { r := uint32(bits.OnesCount64(a)); return r, nz(r) }))
	defS("s_ff0_i32_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return ffbl32(^a), -1 }))
	defS("s_ff0_i32_b64", "I", sop1w32(func(a uint64) (uint32, int) { return ffbl64(^a), -1 }))
	defS("s_ff1_i32_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return ffbl32(a), -1 }))
	defS("s_ff1_i32_b64", "I", sop1w32(func(a uint64) (uint32, int) { return ffbl64(a), -1 }))
	defS("s_flbit_i32_b32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return ffbh32(a), -1 }))
	defS("s_flbit_i32_b64", "I", sop1w32(func(a uint64) (uint32, int) {
		if a == 0 {
			return 0xFFFFFFFF, -1
		}
		return uint32(bits.LeadingZeros64(a)), -1
	}))
	defS("s_flbit_i32", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return ffbhI32(a), -1 }))
	defS("s_flbit_i32_i64", "I", sop1w32(func(a uint64) (uint32, int) {
		if a == 0 || a == ^uint64(0) {
			return 0xFFFFFFFF, -1
		}
		if int64(a) < 0 {
			a = ^a
		}
		return uint32(bits.LeadingZeros64(a)), -1
	}))
	defS("s_sext_i32_i8", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return uint32(int8(a)), -1 }))
	defS("s_sext_i32_i16", "i", sop1(func(_ *wave, a uint32) (uint32, int) { return uint32(int16(a)), -1 }))
	defS("s_abs_i32", "i", sop1(func(_ *wave, a uint32) (uint32, int) {
		if int32(a) < 0 {
			a = -a
		}
		return a, nz(a)
	}))
	defS("s_bitset0_b32", "i", func(w *wave, o *op) { w.s[o.dst.idx] &^= 1 << (w.sread32(&o.src[0]) & 31) })
	defS("s_bitset1_b32", "i", func(w *wave, o *op) { w.s[o.dst.idx] |= 1 << (w.sread32(&o.src[0]) & 31) })
	defS("s_bitset0_b64", "i", func(w *wave, o *op) {
		w.swrite64(&o.dst, w.sread64(&o.dst)&^(1<<(w.sread32(&o.src[0])&63)))
	})
	defS("s_bitset1_b64", "i", func(w *wave, o *op) {
		w.swrite64(&o.dst, w.sread64(&o.dst)|1<<(w.sread32(&o.src[0])&63))
	})
	defS("s_bitreplicate_b64_b32", "i", func(w *wave, o *op) {
		a := w.sread32(&o.src[0])
		var r uint64
		for i := 0; i < 32; i++ {
			r |= uint64(a>>i&1) * 3 << (2 * i)
		}
		w.swrite64(&o.dst, r)
	})
	defS("s_and_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return s & e }))
	defS("s_or_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return s | e }))
	defS("s_xor_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return s ^ e }))
	defS("s_andn2_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return s &^ e }))
	defS("s_orn2_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return s | ^e }))
	defS("s_nand_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return ^(s & e) }))
	defS("s_nor_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return ^(s | e) }))
	defS("s_xnor_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return ^(s ^ e) }))
	defS("s_andn1_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return ^s & e }))
	defS("s_orn1_saveexec_b64", "I", saveexec(func(s, e uint64) uint64 { return ^s | e }))
	defS("s_andn1_wrexec_b64", "I", wrexec(func(s, e uint64) uint64 { return ^s & e }))
	defS("s_andn2_wrexec_b64", "I", wrexec(func(s, e uint64) uint64 { return s &^ e }))
	defS("s_movrels_b32", "i", func(w *wave, o *op) { w.swrite32(&o.dst, w.s[(uint32(o.src[0].idx)+w.s[sM0])&127]) })
	defS("s_movrels_b64", "I", func(w *wave, o *op) {
		i := (uint32(o.src[0].idx) + w.s[sM0]) & 127
		w.swrite64(&o.dst, uint64(w.s[i])|uint64(w.s[(i+1)&127])<<32)
	})
	defS("s_movreld_b32", "i", func(w *wave, o *op) { w.s[(uint32(o.dst.idx)+w.s[sM0])&127] = w.sread32(&o.src[0]) })
	defS("s_movreld_b64", "I", func(w *wave, o *op) {
		i := (uint32(o.dst.idx) + w.s[sM0]) & 127
		v := w.sread64(&o.src[0])
		w.s[i], w.s[(i+1)&127] = uint32(v), uint32(v>>32)
	})

	// Program counter.
	def("s_getpc_b64", ClassBranch, "", func(w *wave, o *op) { w.swrite64(&o.dst, w.pc) })
	def("s_setpc_b64", ClassBranch, "I", func(w *wave, o *op) { w.jump(o, w.sread64(&o.src[0])) })
	def("s_swappc_b64", ClassBranch, "I", func(w *wave, o *op) {
		t := w.sread64(&o.src[0])
		w.swrite64(&o.dst, w.pc)
		w.jump(o, t)
	})
	def("s_call_b64", ClassBranch, "", func(w *wave, o *op) {
		w.swrite64(&o.dst, w.pc)
		w.branch(o)
	})

	// SOPC.
	defS("s_cmp_eq_i32", "ii", scmp(func(a, b uint32) bool { return a == b }))
	defS("s_cmp_lg_i32", "ii", scmp(func(a, b uint32) bool { return a != b }))
	defS("s_cmp_gt_i32", "ii", scmp(func(a, b uint32) bool { return int32(a) > int32(b) }))
	defS("s_cmp_ge_i32", "ii", scmp(func(a, b uint32) bool { return int32(a) >= int32(b) }))
	defS("s_cmp_lt_i32", "ii", scmp(func(a, b uint32) bool { return int32(a) < int32(b) }))
	defS("s_cmp_le_i32", "ii", scmp(func(a, b uint32) bool { return int32(a) <= int32(b) }))
	defS("s_cmp_eq_u32", "ii", scmp(func(a, b uint32) bool { return a == b }))
	defS("s_cmp_lg_u32", "ii", scmp(func(a, b uint32) bool { return a != b }))
	defS("s_cmp_gt_u32", "ii", scmp(func(a, b uint32) bool { return a > b }))
	defS("s_cmp_ge_u32", "ii", scmp(func(a, b uint32) bool { return a >= b }))
	defS("s_cmp_lt_u32", "ii", scmp(func(a, b uint32) bool { return a < b }))
	defS("s_cmp_le_u32", "ii", scmp(func(a, b uint32) bool { return a <= b }))
	defS("s_cmp_eq_u64", "II", func(w *wave, o *op) { w.scc = b2u(w.sread64(&o.src[0]) == w.sread64(&o.src[1])) })
	defS("s_cmp_lg_u64", "II", func(w *wave, o *op) { w.scc = b2u(w.sread64(&o.src[0]) != w.sread64(&o.src[1])) })
	defS("s_bitcmp0_b32", "ii", scmp(func(a, b uint32) bool { return a>>(b&31)&1 == 0 }))
	defS("s_bitcmp1_b32", "ii", scmp(func(a, b uint32) bool { return a>>(b&31)&1 == 1 }))
	defS("s_bitcmp0_b64", "Ii", func(w *wave, o *op) { w.scc = b2u(w.sread64(&o.src[0])>>(w.sread32(&o.src[1])&63)&1 == 0) })
	defS("s_bitcmp1_b64", "Ii", func(w *wave, o *op) { w.scc = b2u(w.sread64(&o.src[0])>>(w.sread32(&o.src[1])&63)&1 == 1) })

	// SOPK.
	defS("s_movk_i32", "", func(w *wave, o *op) { w.swrite32(&o.dst, uint32(o.simm)) })
	defS("s_cmovk_i32", "", func(w *wave, o *op) {
		if w.scc != 0 {
			w.swrite32(&o.dst, uint32(o.simm))
		}
	})
	defS("s_cmpk_eq_i32", "i", scmpk(func(a uint32, s int32, _ uint32) bool { return int32(a) == s }))
	defS("s_cmpk_lg_i32", "i", scmpk(func(a uint32, s int32, _ uint32) bool { return int32(a) != s }))
	defS("s_cmpk_gt_i32", "i", scmpk(func(a uint32, s int32, _ uint32) bool { return int32(a) > s }))
	defS("s_cmpk_ge_i32", "i", scmpk(func(a uint32, s int32, _ uint32) bool { return int32(a) >= s }))
	defS("s_cmpk_lt_i32", "i", scmpk(func(a uint32, s int32, _ uint32) bool { return int32(a) < s }))
	defS("s_cmpk_le_i32", "i", scmpk(func(a uint32, s int32, _ uint32) bool { return int32(a) <= s }))
	defS("s_cmpk_eq_u32", "i", scmpk(func(a uint32, _ int32, u uint32) bool { return a == u }))
	defS("s_cmpk_lg_u32", "i", scmpk(func(a uint32, _ int32, u uint32) bool { return a != u }))
	defS("s_cmpk_gt_u32", "i", scmpk(func(a uint32, _ int32, u uint32) bool { return a > u }))
	defS("s_cmpk_ge_u32", "i", scmpk(func(a uint32, _ int32, u uint32) bool { return a >= u }))
	defS("s_cmpk_lt_u32", "i", scmpk(func(a uint32, _ int32, u uint32) bool { return a < u }))
	defS("s_cmpk_le_u32", "i", scmpk(func(a uint32, _ int32, u uint32) bool { return a <= u }))
	defS("s_addk_i32", "", func(w *wave, o *op) {
		a := w.sread32(&o.dst)
		b := uint32(o.simm)
		s := a + b
		w.scc = b2u((a>>31 == b>>31) && s>>31 != a>>31)
		w.swrite32(&o.dst, s)
	})
	defS("s_mulk_i32", "", func(w *wave, o *op) { w.swrite32(&o.dst, w.sread32(&o.dst)*uint32(o.simm)) })
	defS("s_getreg_b32", "", func(w *wave, o *op) {
		id, off, size := hwreg(o.imm)
		v := w.getHW(id) >> off
		if size < 32 {
			v &= 1<<size - 1
		}
		w.swrite32(&o.dst, v)
	})
	defS("s_setreg_b32", "i", func(w *wave, o *op) {
		id, off, size := hwreg(o.imm)
		mask := uint32(0xFFFFFFFF)
		if size < 32 {
			mask = 1<<size - 1
		}
		w.setHW(id, w.sread32(&o.src[0])<<off, mask<<off)
	})
	defS("s_setreg_imm32_b32", "i", func(w *wave, o *op) {
		id, off, size := hwreg(o.imm)
		mask := uint32(0xFFFFFFFF)
		if size < 32 {
			mask = 1<<size - 1
		}
		w.setHW(id, w.sread32(&o.src[0])<<off, mask<<off)
	})

	// SOPP.
	def("s_endpgm", ClassBranch, "", opEndpgm)
	def("s_barrier", ClassBranch, "", opBarrier)
	def("s_branch", ClassBranch, "", opBranch)
	def("s_cbranch_scc0", ClassBranch, "", opCbranchSCC0)
	def("s_cbranch_scc1", ClassBranch, "", opCbranchSCC1)
	def("s_cbranch_vccz", ClassBranch, "", opCbranchVCCZ)
	def("s_cbranch_vccnz", ClassBranch, "", opCbranchVCCNZ)
	def("s_cbranch_execz", ClassBranch, "", opCbranchEXECZ)
	def("s_cbranch_execnz", ClassBranch, "", opCbranchEXECNZ)
	def("s_trap", ClassBranch, "", opTrap)
	def("s_sleep", ClassOther, "", opSleep)
	for _, n := range []string{"s_nop", "s_waitcnt", "s_setprio", "s_icache_inv", "s_incperflevel", "s_decperflevel",
		"s_ttracedata", "s_setkill", "s_sethalt", "s_wakeup"} {
		def(n, ClassOther, "", opNop)
	}
	// GPR index mode (execIndexed).
	defS("s_set_gpr_idx_on", "ii", func(w *wave, o *op) {
		w.s[sM0] = w.s[sM0]&^0xF0FF | w.sread32(&o.src[0])&0xFF | (w.sread32(&o.src[1])&0xF)<<12
		w.slow |= slowGPRIdx
	})
	defS("s_set_gpr_idx_off", "", func(w *wave, o *op) { w.slow &^= slowGPRIdx })
	defS("s_set_gpr_idx_idx", "i", func(w *wave, o *op) { w.s[sM0] = w.s[sM0]&^0xFF | w.sread32(&o.src[0])&0xFF })
	defS("s_set_gpr_idx_mode", "", func(w *wave, o *op) { w.s[sM0] = w.s[sM0]&^0xF000 | (o.imm&0xF)<<12 })
	def("s_sendmsg", ClassOther, "", opSendmsg)
	def("s_sendmsghalt", ClassOther, "", opSendmsg)
	def("s_memtime", ClassSMEM, "", func(w *wave, o *op) { w.swrite64(&o.dst, uint64(time.Since(clockBase))) })
	def("s_memrealtime", ClassSMEM, "", func(w *wave, o *op) { w.swrite64(&o.dst, uint64(time.Since(clockBase)/10)) })
	for _, n := range []string{"s_dcache_inv", "s_dcache_wb", "s_dcache_inv_vol", "s_dcache_wb_vol"} {
		def(n, ClassSMEM, "", opNop)
	}
}

// clockBase anchors s_memtime (1 GHz) and s_memrealtime (100 MHz).
var clockBase = time.Now()

func ffbl64(v uint64) uint32 {
	if v == 0 {
		return 0xFFFFFFFF
	}
	return uint32(bits.TrailingZeros64(v))
}

// jump sets the PC for s_setpc/s_swappc; the target must be 4-byte aligned.
func (w *wave) jump(o *op, t uint64) {
	if t&3 != 0 {
		w.fault(o, FaultMemory, -1, t, "branch target not 4-byte aligned")
	}
	w.pc = t
	if t < w.code.base || t-w.code.base >= w.code.size {
		// A call into another code object's region.
		tab, err := w.r.dev.codeTableFor(t)
		if err != nil {
			w.fault(o, FaultMemory, -1, t, "branch target outside device memory")
		}
		w.code = tab
	}
	if t <= o.pc && w.since >= w.r.dev.cfg.SwitchInterval {
		w.yield = true
		w.spin = true
	}
}

// Interrupt is what a wave's s_sendmsg(MSG_INTERRUPT) carries to the
// runtime (DESIGN.md "Signals and waking"): M0's low 8 bits, and the last
// 64-bit value the wave stored and where (ockl stores the signal's event id
// to its mailbox just before the message).
type Interrupt struct {
	M0           uint32
	MailboxAddr  uint64
	MailboxValue uint64
}

// opSendmsg handles s_sendmsg: MSG_INTERRUPT (1) calls Config.OnInterrupt;
// other messages have no effect on a compute-only device.
func opSendmsg(w *wave, o *op) {
	if o.simm&0xF == 1 {
		if f := w.r.dev.cfg.OnInterrupt; f != nil {
			f(Interrupt{M0: w.s[sM0] & 0xFF, MailboxAddr: w.lastStoreAddr, MailboxValue: w.lastStore})
		}
	}
}
