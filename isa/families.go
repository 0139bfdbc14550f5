package isa

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// Per-family field extraction. Bit layouts are the GFX9 ones (AMD "Vega"
// ISA reference, chapter 12 "Microcode Formats"); the opcode tables say
// which operands each opcode has.

// Modifier probe indices; they must match the generator's probe order.
const (
	// SMEM
	smemGLC = 1 << iota
	smemNV
	smemImm // the imm bit is 0 (the probes toggled it from 1)
)

const (
	vop3Abs0 = 1 << iota
	vop3Abs1
	vop3Abs2
	vop3OpSel0
	vop3OpSel1
	vop3OpSel2
	vop3OpSel3
	vop3Clamp
	vop3Neg0
	vop3Neg1
	vop3Neg2
	vop3Omod
	vop3High = 1 << 27 // generated: a v_interp_* row with the high operand (src0 bit 8)
	// sdwaDstFixed (generated, SDWA rows): dst_sel must be DWORD,
	// dst_unused is ignored, and neither is printed (gfx940's
	// v_cvt_*_fp8/bf8_sdwa).
	sdwaDstFixed = 1 << 26
)

const (
	vop3pNegHi0 = 1 << iota
	vop3pNegHi1
	vop3pNegHi2
	vop3pOpSel0
	vop3pOpSel1
	vop3pOpSel2
	vop3pOpSelHi2
	vop3pClamp
	vop3pNeg0
	vop3pNeg1
	vop3pNeg2
	vop3pOpSelHi0
	vop3pOpSelHi1
	opSelHiDefaultZero = 1 << 31
)

const (
	dsGDS = 1 << iota
	dsAcc
	dsOffset
)

const (
	flatGLC = 1 << iota
	flatSLC
	flatNV
	flatSC1
	flatOffset
)

const (
	mubufGLC = 1 << iota
	mubufSLC
	mubufLDS
	mubufSCC
	mubufTFE
	mubufAcc
	mubufOffEn
	mubufIdxEn
	mubufOffset
	mubufVAddr
)

func vbit(f Field) uint16 { return 1 << f }

// checkMods rejects a word whose modifier probes (set: the probes that
// differ from the family's zero word) differ from the opcode's canonical
// word (d.ModSet) in one LLVM rejects.
func checkMods(d *opDesc, set uint32) error {
	if (set^d.ModSet)&d.ModInvalid != 0 {
		return errBadMods
	}
	return nil
}

func decodeSOP(in *Inst, tab *procTable, code []byte, enc Encoding, op, w0 uint32) error {
	d, err := lookup(in, tab, enc, op)
	if err != nil {
		return err
	}
	var f fields
	tmpl := d.Tmpl
	switch enc {
	case EncSOP2:
		f[FieldDst], f[FieldSrc0], f[FieldSrc1] = (w0>>16)&0x7f, w0&0xff, (w0>>8)&0xff
	case EncSOP1:
		f[FieldDst], f[FieldSrc0] = (w0>>16)&0x7f, w0&0xff
	case EncSOPC:
		f[FieldSrc0], f[FieldSrc1] = w0&0xff, (w0>>8)&0xff
	case EncSOPK:
		f[FieldDst], f[FieldSImm16] = (w0>>16)&0x7f, w0&0xffff
	case EncSOPP:
		f[FieldSImm16] = w0 & 0xffff
		if f[FieldSImm16] != 0 {
			tmpl = d.Alts[0]
		}
	}
	in.Mod.Offset = int32(int16(w0))
	return fill(in, d, tmpl, &f, 0, code)
}

// decodeSOPP is decodeSOP for SOPP, the most frequent encoding (s_nop
// padding, s_waitcnt, branches): its templates have only fixed and
// immediate operands, so they are copied without fill's general loop.
func decodeSOPP(in *Inst, tab *procTable, code []byte, w0 uint32) error {
	d, err := lookup(in, tab, EncSOPP, (w0>>16)&0x7f)
	if err != nil {
		return err
	}
	imm := w0 & 0xffff
	tmpl := d.Tmpl
	if imm != 0 {
		tmpl = d.Alts[0]
	}
	in.Mod.Offset = int32(int16(w0))
	if tmpl < 0 || d.ZeroMask != 0 || !tmplPlans[tmpl].imm {
		var f fields
		f[FieldSImm16] = imm
		return fill(in, d, tmpl, &f, 0, code)
	}
	p := &tmplPlans[tmpl]
	n := int(p.n)
	for i := 0; i < n; i++ {
		in.Ops[i] = p.ops[i]
		if p.acts[i].act == actImm {
			in.Ops[i].Value = uint64(imm)
		}
	}
	in.NumOps = uint8(n)
	return nil
}

func decodeSMEM(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncSMEM, (w0>>18)&0xff)
	if err != nil {
		return err
	}
	var set uint32
	if w0&(1<<16) != 0 {
		set |= smemGLC
	}
	if w0&(1<<15) != 0 {
		set |= smemNV
	}
	if w0&(1<<17) == 0 {
		set |= smemImm
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	if d.ModPrint&smemGLC != 0 && set&smemGLC != 0 {
		in.Mod.Flags |= FlagGLC
	}
	if d.ModPrint&smemNV != 0 && set&smemNV != 0 {
		in.Mod.Flags |= FlagNV
	}
	var f fields
	f[FieldDst] = (w0 >> 6) & 0x7f
	f[FieldBase] = (w0 & 0x3f) * 2
	imm, soe := w0&(1<<17) != 0, w0&(1<<14) != 0
	tmpl := d.Tmpl
	switch {
	case soe && imm:
		tmpl = d.Alts[0]
		f[FieldSOff] = w1 >> 25
		f[FieldOffset] = w1 & 0x1fffff
	case soe:
		tmpl = d.Alts[2]
		f[FieldSOff] = w1 >> 25
	case imm:
		f[FieldOffset] = w1 & 0x1fffff
	default:
		tmpl = d.Alts[1]
		f[FieldSOff] = w1 & 0x7f
	}
	if tmpl < 0 {
		return errBadOp
	}
	in.Mod.Offset = int32(f[FieldOffset]<<11) >> 11
	return fill(in, d, tmpl, &f, 0, nil)
}

func decodeVOP2(in *Inst, tab *procTable, code []byte, w0 uint32) error {
	if s := w0 & 0x1ff; s == 0xf9 || s == 0xfa {
		return decodeExt(in, tab, code, encVOP2SDWA, (w0>>25)&0x3f, w0)
	}
	d, err := lookup(in, tab, EncVOP2, (w0>>25)&0x3f)
	if err != nil {
		return err
	}
	if d.Suffix != "" {
		in.Form = FormE32
	}
	var f fields
	f[FieldDst] = (w0 >> 17) & 0xff
	f[FieldSrc0] = w0 & 0x1ff
	f[FieldSrc1] = (w0 >> 9) & 0xff
	return fill(in, d, d.Tmpl, &f, vbit(FieldDst)|vbit(FieldSrc1), code)
}

func decodeVOP1(in *Inst, tab *procTable, code []byte, w0 uint32) error {
	if s := w0 & 0x1ff; s == 0xf9 || s == 0xfa {
		return decodeExt(in, tab, code, encVOP1SDWA, (w0>>9)&0xff, w0)
	}
	d, err := lookup(in, tab, EncVOP1, (w0>>9)&0xff)
	if err != nil {
		return err
	}
	return decodeVOP1Plain(in, d, code, w0)
}

// vop1Src0Ignorable reports a VOP1 row whose src0 always names a VGPR or
// that has no src0.
func vop1Src0Ignorable(d *opDesc) bool {
	for _, s := range gfx9Templates[d.Tmpl] {
		if s.Field == FieldSrc0 {
			return s.Type == TypeVGPROnly
		}
	}
	return true
}

func decodeVOP1Plain(in *Inst, d *opDesc, code []byte, w0 uint32) error {
	if d.Suffix != "" {
		in.Form = FormE32
	}
	var f fields
	f[FieldDst] = (w0 >> 17) & 0xff
	f[FieldSrc0] = w0 & 0x1ff
	return fill(in, d, d.Tmpl, &f, vbit(FieldDst), code)
}

func decodeVOPC(in *Inst, tab *procTable, code []byte, w0 uint32) error {
	if s := w0 & 0x1ff; s == 0xf9 || s == 0xfa {
		return decodeExt(in, tab, code, encVOPCSDWA, (w0>>17)&0xff, w0)
	}
	d, err := lookup(in, tab, EncVOPC, (w0>>17)&0xff)
	if err != nil {
		return err
	}
	if d.Suffix != "" {
		in.Form = FormE32
	}
	var f fields
	f[FieldSrc0] = w0 & 0x1ff
	f[FieldSrc1] = (w0 >> 9) & 0xff
	return fill(in, d, d.Tmpl, &f, vbit(FieldSrc1), code)
}

func decodeVOP3(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncVOP3, (w0>>16)&0x3ff)
	if err != nil {
		return err
	}
	if d.Suffix != "" {
		in.Form = FormE64
	}
	vop3b := descVOP3B[in.desc-1]
	set := (w0>>8)&0xff | ((w1>>29)&7)<<8
	if (w1>>27)&3 != 0 {
		set |= vop3Omod
	}
	if vop3b {
		set &^= 0x7f // bits 14:8 are sdst
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	set &= d.ModPrint | d.ModSet
	m := &in.Mod
	m.Abs = uint8(set & 7)
	m.OpSel = uint8(set>>3) & 0xf
	m.Neg = uint8(set>>8) & 7
	if set&vop3Clamp != 0 {
		m.Flags |= FlagClamp
	}
	if set&vop3Omod != 0 {
		m.Omod = uint8(w1>>27) & 3
	}
	var f fields
	f[FieldDst] = w0 & 0xff
	f[FieldSDst] = (w0 >> 8) & 0x7f
	f[FieldSrc0] = w1 & 0x1ff
	f[FieldSrc1] = (w1 >> 9) & 0x1ff
	f[FieldSrc2] = (w1 >> 18) & 0x1ff
	if descInterp[in.desc-1] && f[FieldSrc0]&0x100 != 0 && d.ModPrint&vop3High == 0 {
		return errBadOp // VOP3Interp_vi: Inst{40} is 0 without a high operand
	}
	return fill(in, d, d.Tmpl, &f, vbit(FieldDst), nil)
}

func decodeVOP3P(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncVOP3P, (w0>>16)&0x7f)
	if err != nil {
		return err
	}
	set := (w0>>8)&0xff | ((w1>>29)&7)<<8 | ((w1>>27)&3)<<11
	set ^= vop3pOpSelHi0 | vop3pOpSelHi1 | vop3pOpSelHi2 // the probes cleared them
	if err := checkMods(d, set); err != nil {
		// MAI rows: the same bits are cbsz/abid/acc/blgp; v_smfmac_*
		// has blgp fixed to 0 (VOP3Pe_SMFMAC), which the probes record.
		return err
	}
	if descMAI[in.desc-1] {
		return decodeMAI(in, d, w0, w1)
	}
	m := &in.Mod
	m.NegHi = uint8(w0>>8) & 7
	m.OpSel = uint8(w0>>11) & 7
	m.OpSelHi = uint8(w1>>27)&3 | uint8(w0>>12)&4
	m.Neg = uint8(w1>>29) & 7
	if w0&(1<<15) != 0 && d.ModPrint&vop3pClamp != 0 {
		m.Flags |= FlagClamp
	}
	var f fields
	f[FieldDst] = w0 & 0xff
	f[FieldSrc0] = w1 & 0x1ff
	f[FieldSrc1] = (w1 >> 9) & 0x1ff
	f[FieldSrc2] = (w1 >> 18) & 0x1ff
	return fill(in, d, d.Tmpl, &f, vbit(FieldDst), nil)
}

func decodeDS(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncDS, (w0>>17)&0xff)
	if err != nil {
		return err
	}
	var set uint32
	if w0&(1<<16) != 0 {
		set |= dsGDS
	}
	if w0&(1<<25) != 0 {
		set |= dsAcc
	}
	if w0&0xffff != 0 {
		set |= dsOffset
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	set &= d.ModPrint | d.ModSet
	if set&dsGDS != 0 {
		in.Mod.Flags |= FlagGDS
	}
	acc := set&dsAcc != 0
	if acc {
		in.Mod.Flags |= FlagAcc
	}
	if set&dsOffset != 0 {
		in.Mod.Offset = int32(w0 & 0xffff)
		in.Mod.Offset1 = uint8(w0 >> 8)
	}
	var f fields
	f[FieldDst] = w1 >> 24
	f[FieldSrc0] = w1 & 0xff
	f[FieldSrc1] = (w1 >> 8) & 0xff
	f[FieldSrc2] = (w1 >> 16) & 0xff
	if err := fill(in, d, d.Tmpl, &f, vbit(FieldDst)|vbit(FieldSrc0)|vbit(FieldSrc1)|vbit(FieldSrc2), nil); err != nil {
		return err
	}
	if acc {
		// The address (Src0) stays a VGPR, except in ds_gws_*, whose
		// data0 operand sits in the address field (DS_Real:
		// Inst{39-32} is data0 when the opcode has gws_data0).
		gws := gwsData(in.Op)
		for i := range in.Ops[:in.NumOps] {
			if o := &in.Ops[i]; o.Kind == KindVGPR && (o.Field != FieldSrc0 || gws) {
				o.Kind = KindAGPR
			}
		}
	}
	return nil
}

// gwsData reports the ds_gws_* opcodes with a data0 operand.
func gwsData(op Opcode) bool {
	return op == DS_GWS_INIT || op == DS_GWS_SEMA_BR || op == DS_GWS_BARRIER
}

func decodeFLAT(in *Inst, tab *procTable, w0, w1 uint32) error {
	seg := (w0 >> 14) & 3
	enc := [4]Encoding{EncFLAT, EncSCRATCH, EncGLOBAL, EncInvalid}[seg]
	if enc == EncInvalid {
		return errUnknownOp
	}
	d, err := lookup(in, tab, enc, (w0>>18)&0x7f)
	if err != nil {
		return err
	}
	var set uint32
	if w0&(1<<16) != 0 {
		set |= flatGLC
	}
	if w0&(1<<17) != 0 {
		set |= flatSLC
	}
	if w1&(1<<23) != 0 {
		set |= flatNV
	}
	if w0&(1<<25) != 0 {
		set |= flatSC1
	}
	off := w0 & 0x1fff
	if off != 0 {
		set |= flatOffset
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	set &= d.ModPrint | d.ModSet
	m := &in.Mod
	if set&flatGLC != 0 {
		m.Flags |= FlagGLC
	}
	if set&flatSLC != 0 {
		m.Flags |= FlagSLC
	}
	if set&flatSC1 != 0 {
		m.Flags |= FlagSCC
	}
	acc := false
	if set&flatNV != 0 {
		if in.Target.Proc >= ProcGFX90A && in.Target.Proc != ProcGFX90C {
			acc = true
			m.Flags |= FlagAcc
		} else {
			m.Flags |= FlagNV
		}
	}
	if set&flatOffset == 0 {
		off = 0
	}
	if enc == EncFLAT {
		m.Offset = int32(off)
	} else {
		m.Offset = int32(off<<19) >> 19
	}
	saddr := (w1 >> 16) & 0x7f
	lds := w0&(1<<13) != 0
	if lds && w1&(1<<23) != 0 && !in.Target.isGFX940() {
		// An LDS load has no data register for nv/acc to qualify; LLVM
		// rejects the bit (the modifier probes ran on the non-LDS layout).
		return errBadOp
	}
	tmpl := flatTemplate(d, w0, w1)
	if lds {
		m.Flags |= FlagLDS
	}
	var f fields
	f[FieldDst] = w1 >> 24
	f[FieldSrc0] = w1 & 0xff
	f[FieldSrc1] = (w1 >> 8) & 0xff
	f[FieldBase] = saddr
	if err := fill(in, d, tmpl, &f, vbit(FieldDst)|vbit(FieldSrc0)|vbit(FieldSrc1), nil); err != nil {
		return err
	}
	if acc {
		for i := range in.Ops[:in.NumOps] {
			if o := &in.Ops[i]; o.Kind == KindVGPR && o.Field != FieldSrc0 {
				o.Kind = KindAGPR
			}
		}
	}
	return nil
}

func decodeMUBUF(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncMUBUF, (w0>>18)&0x7f)
	if err != nil {
		return err
	}
	var set uint32
	for i, b := range [...]struct{ w, bit uint32 }{{0, 14}, {0, 17}, {0, 16}, {0, 15}, {1, 23}, {1, 21}, {0, 12}, {0, 13}} {
		word := w0
		if b.w == 1 {
			word = w1
		}
		if word&(1<<b.bit) != 0 {
			set |= 1 << i
		}
	}
	if w0&0xfff != 0 {
		set |= mubufOffset
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	set &= d.ModPrint | d.ModSet
	m := &in.Mod
	acc := false
	for _, x := range [...]struct{ probe, flag uint32 }{{mubufGLC, FlagGLC}, {mubufSLC, FlagSLC}, {mubufLDS, FlagLDS}, {mubufSCC, FlagSCC}, {mubufOffEn, FlagOffEn}, {mubufIdxEn, FlagIdxEn}} {
		if set&x.probe != 0 {
			m.Flags |= x.flag
		}
	}
	if set&mubufTFE != 0 {
		if in.Target.Proc >= ProcGFX90A && in.Target.Proc != ProcGFX90C {
			acc = true
			m.Flags |= FlagAcc
		} else {
			m.Flags |= FlagTFE
		}
	}
	if set&mubufOffset != 0 {
		m.Offset = int32(w0 & 0xfff)
	}
	var f fields
	f[FieldDst] = (w1 >> 8) & 0xff
	f[FieldBase] = ((w1 >> 16) & 0x1f) * 4
	f[FieldSOff] = w1 >> 24
	if m.Flags&(FlagOffEn|FlagIdxEn) == 0 && w1&0xff != 0 && d.ModInvalid&mubufVAddr != 0 {
		return errBadOp
	}
	tmpl := d.Tmpl
	if w0&(1<<16) != 0 {
		tmpl = d.Alts[0]
	}
	if err := fill(in, d, tmpl, &f, vbit(FieldDst), nil); err != nil {
		return err
	}
	// vaddr replaces "off" when offen/idxen is set.
	n := 0
	if m.Flags&FlagOffEn != 0 {
		n++
	}
	if m.Flags&FlagIdxEn != 0 {
		n++
	}
	if n > 0 {
		for i := range in.Ops[:in.NumOps] {
			if o := &in.Ops[i]; o.Kind == KindOff {
				*o = Operand{Kind: KindVGPR, Field: FieldSrc0, Count: uint8(n), Reg: uint16(w1 & 0xff)}
				if int(o.Reg)+n > 256 {
					return errBadOp
				}
			}
		}
	}
	if acc {
		for i := range in.Ops[:in.NumOps] {
			if o := &in.Ops[i]; o.Kind == KindVGPR && o.Field == FieldDst {
				o.Kind = KindAGPR
			}
		}
	}
	return nil
}

// SDWA modifier probe order (generator): VOPC has only the first eight.
const (
	sdwaSext0 = 1 << iota
	sdwaNeg0
	sdwaAbs0
	sdwaS0
	sdwaSext1
	sdwaNeg1
	sdwaAbs1
	sdwaS1
	sdwaClamp
	sdwaOmod
)

// DPP modifier probe order.
const (
	dppBound = 1 << iota
	dppNeg0
	dppAbs0
	dppNeg1
	dppAbs1
)

// decodeExt decodes the SDWA (src0 = 0xF9) and DPP (src0 = 0xFA) forms;
// sdwaEnc is the family's SDWA table encoding (DPP is the next one).
func decodeExt(in *Inst, tab *procTable, code []byte, sdwaEnc Encoding, op, w0 uint32) error {
	err := decodeExt1(in, tab, code, sdwaEnc, op, w0)
	if err == nil || sdwaEnc != encVOP1SDWA || err == errShort {
		return err
	}
	// LLVM tries the 32-bit table after the 64-bit SDWA/DPP ones fail. An
	// opcode whose src0 is a plain VGPR field (v_swap_b32) or that has no
	// src0 (v_nop) then decodes as _e32, where 0xf9/0xfa name v249/v250 or
	// nothing.
	in.Words[1], in.Len = 0, 4
	in.Form, in.Mod = FormNone, Modifiers{}
	if pd, perr := lookup(in, tab, EncVOP1, op); perr == nil && vop1Src0Ignorable(pd) {
		return decodeVOP1Plain(in, pd, code, w0)
	}
	in.Op, in.Enc, in.desc = 0, 0, 0
	return err
}

func decodeExt1(in *Inst, tab *procTable, code []byte, sdwaEnc Encoding, op, w0 uint32) error {
	if len(code) < 8 {
		return errShort
	}
	w1 := binary.LittleEndian.Uint32(code[4:])
	in.Words[1] = w1
	in.Len = 8
	dpp := w0&0x1ff == 0xfa
	enc := sdwaEnc
	if dpp {
		enc++
	}
	d, err := lookup(in, tab, enc, op)
	if err != nil {
		return err
	}
	var f fields
	f[FieldDst] = (w0 >> 17) & 0xff
	f[FieldSrc1] = 256 + (w0>>9)&0xff
	f[FieldSrc0] = 256 + w1&0xff
	m := &in.Mod
	vmask := vbit(FieldDst)
	if sdwaEnc == encVOPCSDWA {
		f[FieldSrc1] = 256 + (w0>>9)&0xff
		vmask = 0
	}
	// The VGPR fields hold 256 + register; a field that must be zero
	// (v_nop has no sources) is checked on the raw register number.
	if d.ZeroMask&(1<<FieldSrc0) != 0 {
		if w1&0xff != 0 {
			return errBadOp
		}
		f[FieldSrc0] = 0
	}
	if d.ZeroMask&(1<<FieldSrc1) != 0 {
		if (w0>>9)&0xff != 0 {
			return errBadOp
		}
		f[FieldSrc1] = 0
	}
	if dpp {
		var set uint32
		for i := uint32(0); i < 5; i++ {
			if w1&(1<<(19+i)) != 0 {
				set |= 1 << i
			}
		}
		if err := checkMods(d, set); err != nil {
			return err
		}
		set &= d.ModPrint | d.ModSet
		if set&dppBound != 0 {
			m.Flags |= FlagBoundCtrl
		}
		m.Neg = uint8(set>>1)&1 | uint8(set>>2)&2
		m.Abs = uint8(set>>2)&1 | uint8(set>>3)&2
		m.DPPCtrl = uint16(w1>>8) & 0x1ff
		m.BankMask = uint8(w1>>24) & 0xf
		m.RowMask = uint8(w1 >> 28)
		return fill(in, d, d.Tmpl, &f, vmask, nil)
	}
	var set uint32
	for i, b := range [...]uint32{19, 20, 21, 23, 27, 28, 29, 31, 13, 14} {
		if w1&(1<<b) != 0 {
			set |= 1 << i
		}
	}
	if sdwaEnc != encVOPCSDWA && (w1>>14)&3 != 0 {
		set |= sdwaOmod
	}
	if sdwaEnc == encVOPCSDWA {
		set &^= sdwaClamp | sdwaOmod // sdst bits
		f[FieldSDst] = SrcVCCLo
		if w1&(1<<15) != 0 {
			f[FieldSDst] = (w1 >> 8) & 0x7f
		}
	} else {
		f[FieldDstSel] = (w1 >> 8) & 7
		f[FieldDstUnused] = (w1 >> 11) & 3
	}
	f[FieldSrc0Sel] = (w1 >> 16) & 7
	f[FieldSrc1Sel] = (w1 >> 24) & 7
	if err := checkMods(d, set); err != nil {
		return err
	}
	// Sext/neg/abs bits and the selects of operands the opcode lacks must
	// be zero (they are in d.ModInvalid / d.ZeroMask).
	set &= d.ModPrint | d.ModSet
	if set&sdwaS0 != 0 {
		f[FieldSrc0] -= 256
	}
	if set&sdwaS1 != 0 {
		f[FieldSrc1] -= 256
	}
	if set&sdwaSext0 != 0 {
		m.Flags |= FlagSext0
	}
	if set&sdwaSext1 != 0 {
		m.Flags |= FlagSext1
	}
	m.Neg = uint8(set>>1)&1 | uint8(set>>4)&2
	m.Abs = uint8(set>>2)&1 | uint8(set>>5)&2
	if set&sdwaClamp != 0 {
		m.Flags |= FlagClamp
	}
	if set&sdwaOmod != 0 {
		m.Omod = uint8(w1>>14) & 3
	}
	m.DstSel = uint8(f[FieldDstSel])
	m.DstUnused = uint8(f[FieldDstUnused])
	m.Src0Sel = uint8(f[FieldSrc0Sel])
	m.Src1Sel = uint8(f[FieldSrc1Sel])
	if m.DstSel > 6 || m.Src0Sel > 6 || m.Src1Sel > 6 {
		return errBadOp
	}
	zero := d.ZeroMask
	if d.ModPrint&sdwaDstFixed != 0 {
		if m.DstSel != 6 {
			return errBadOp
		}
		m.DstUnused = 0
	}
	var fz fields
	fz[FieldDstSel], fz[FieldDstUnused], fz[FieldSrc0Sel], fz[FieldSrc1Sel] = f[FieldDstSel], f[FieldDstUnused], f[FieldSrc0Sel], f[FieldSrc1Sel]
	for _, x := range [...]Field{FieldDstSel, FieldDstUnused, FieldSrc0Sel, FieldSrc1Sel} {
		if zero&(1<<x) != 0 && fz[x] != 0 {
			return errBadOp
		}
	}
	return fill(in, d, d.Tmpl, &f, vmask, nil)
}

// flatTemplate picks the FLAT layout: glc (returning atomics), lds and a
// used saddr each change the operand list.
func flatTemplate(d *opDesc, w0, w1 uint32) int16 {
	i := 0
	off := uint32(0x7f) // GLOBAL/SCRATCH: saddr "off"
	if (w0>>14)&3 == 0 {
		off = 0 // FLAT: no saddr, the field must be 0
	}
	if (w1>>16)&0x7f != off {
		i |= 1
	}
	if w0&(1<<13) != 0 {
		i |= 2
	}
	if w0&(1<<16) != 0 {
		i |= 4
	}
	if i == 0 {
		return d.Tmpl
	}
	return d.Alts[i-1]
}

// decodeMAI decodes the matrix (MFMA) instructions of gfx908+: cbsz [10:8],
// abid [14:11], acc_cd [15] (gfx90a+: vdst and src2 are AGPRs; gfx908:
// always), src0/src1 AGPR selects [59]/[60], blgp [63:61].
func decodeMAI(in *Inst, d *opDesc, w0, w1 uint32) error {
	m := &in.Mod
	m.CBSZ = uint8(w0>>8) & 7
	m.ABID = uint8(w0>>11) & 0xf
	m.BLGP = uint8(w1 >> 29)
	// acc_cd, or an opcode whose destination is always AGPRs (gfx908, and
	// gfx940's legacy MFMA encodings): the generated template says so.
	accCD := w0&(1<<15) != 0 || gfx9Templates[d.Tmpl][0].File == FileA
	if accCD {
		m.Flags |= FlagAcc
	}
	var f fields
	f[FieldDst] = w0 & 0xff
	f[FieldSrc0] = w1 & 0x1ff
	f[FieldSrc1] = (w1 >> 9) & 0x1ff
	f[FieldSrc2] = (w1 >> 18) & 0x1ff
	if err := fill(in, d, d.Tmpl, &f, vbit(FieldDst), nil); err != nil {
		return err
	}
	for i := range in.Ops[:in.NumOps] {
		o := &in.Ops[i]
		if o.Field >= FieldSrc0 && o.Field <= FieldSrc2 && f[o.Field] < 256 {
			// A scalar register or constant in a 9-bit source. LLVM has no
			// 32-register SGPR class and prints one register then.
			if o.Count > 16 {
				o.Count = 1
			}
			if err := resolveSrc(in, o, f[o.Field], nil, false); err != nil {
				return err
			}
			continue
		}
		if o.Kind != KindVGPR && o.Kind != KindAGPR {
			continue
		}
		agpr := false
		switch o.Field {
		case FieldDst:
			agpr = accCD
		case FieldSrc2:
			// v_smfmac* take a VGPR index in src2.
			agpr = accCD && !strings.HasPrefix(in.Op.String(), "v_smfmac")
		case FieldSrc0:
			agpr = w1&(1<<27) != 0
		case FieldSrc1:
			agpr = w1&(1<<28) != 0
		}
		if agpr {
			o.Kind = KindAGPR
		} else {
			o.Kind = KindVGPR
		}
	}
	return nil
}

// MTBUF modifier probe order (generator).
const (
	mtbufGLC = 1 << iota
	mtbufSLC
	mtbufTFE
	mtbufOffEn
	mtbufIdxEn
	mtbufOffset
	mtbufVAddr
	mtbufSCC
)

func decodeMTBUF(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncMTBUF, (w0>>15)&0xf)
	if err != nil {
		return err
	}
	var set uint32
	if w1&(1<<21) != 0 {
		set |= mtbufSCC
	}
	for i, b := range [...]struct{ w, bit uint32 }{{0, 14}, {1, 22}, {1, 23}, {0, 12}, {0, 13}} {
		word := w0
		if b.w == 1 {
			word = w1
		}
		if word&(1<<b.bit) != 0 {
			set |= 1 << i
		}
	}
	if w0&0xfff != 0 {
		set |= mtbufOffset
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	format := (w0 >> 19) & 0x7f
	if mtbufFormats[format] == "<invalid>" {
		return errBadOp
	}
	set &= d.ModPrint | d.ModSet
	m := &in.Mod
	for _, x := range [...]struct{ probe, flag uint32 }{{mtbufGLC, FlagGLC}, {mtbufSLC, FlagSLC}, {mtbufSCC, FlagSCC}, {mtbufOffEn, FlagOffEn}, {mtbufIdxEn, FlagIdxEn}} {
		if set&x.probe != 0 {
			m.Flags |= x.flag
		}
	}
	acc := false
	if set&mtbufTFE != 0 {
		if in.Target.Proc >= ProcGFX90A && in.Target.Proc != ProcGFX90C {
			acc = true
			m.Flags |= FlagAcc
		} else {
			m.Flags |= FlagTFE
		}
	}
	if set&mtbufOffset != 0 {
		m.Offset = int32(w0 & 0xfff)
	}
	m.Format = uint8(format)
	var f fields
	f[FieldDst] = (w1 >> 8) & 0xff
	f[FieldBase] = ((w1 >> 16) & 0x1f) * 4
	f[FieldSOff] = w1 >> 24
	if m.Flags&(FlagOffEn|FlagIdxEn) == 0 && w1&0xff != 0 && d.ModInvalid&mtbufVAddr != 0 {
		return errBadOp
	}
	if err := fill(in, d, d.Tmpl, &f, vbit(FieldDst), nil); err != nil {
		return err
	}
	n := 0
	if m.Flags&FlagOffEn != 0 {
		n++
	}
	if m.Flags&FlagIdxEn != 0 {
		n++
	}
	for i := range in.Ops[:in.NumOps] {
		o := &in.Ops[i]
		if o.Kind == KindOff && n > 0 {
			*o = Operand{Kind: KindVGPR, Field: FieldSrc0, Count: uint8(n), Reg: uint16(w1 & 0xff)}
			if int(o.Reg)+n > 256 {
				return errBadOp
			}
		}
		if acc && o.Kind == KindVGPR && o.Field == FieldDst {
			o.Kind = KindAGPR
		}
	}
	return nil
}

// decodeVINTRP decodes the 32-bit VINTRP encoding:
// vdst[25:18] op[17:16] attr[15:10] attrchan[9:8] vsrc[7:0].
func decodeVINTRP(in *Inst, tab *procTable, w0 uint32) error {
	d, err := lookup(in, tab, EncVINTRP, (w0>>16)&3)
	if err != nil {
		return err
	}
	if d.Suffix != "" {
		in.Form = FormE32
	}
	var f fields
	f[FieldDst] = (w0 >> 18) & 0xff
	f[FieldSrc0] = w0 & 0xff
	f[FieldSImm16] = (w0 >> 8) & 0xff
	return fill(in, d, d.Tmpl, &f, vbit(FieldDst)|vbit(FieldSrc0), nil)
}

// decodeEXP decodes EXP: word 0 vm[12] done[11] compr[10] target[9:4]
// en[3:0], word 1 vsrc3..vsrc0. Source slot N prints vsrcN, or with compr
// vsrc(N/2) (AMDGPUInstPrinter::printExpSrcN); a slot whose en bit is clear
// is an "off" operand.
func decodeEXP(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncEXP, 0)
	if err != nil {
		return err
	}
	compr := w0&(1<<10) != 0
	var f fields
	f[FieldSImm16] = (w0 >> 4) & 0x3f
	for n, fl := range [4]Field{FieldSrc0, FieldSrc1, FieldSrc2, FieldSrc3} {
		k := n
		if compr {
			k = n / 2
		}
		f[fl] = (w1 >> (8 * k)) & 0xff
	}
	if w0&(1<<11) != 0 {
		in.Mod.Flags |= FlagDone
	}
	if compr {
		in.Mod.Flags |= FlagCompr
	}
	if w0&(1<<12) != 0 {
		in.Mod.Flags |= FlagVM
	}
	vm := vbit(FieldSrc0) | vbit(FieldSrc1) | vbit(FieldSrc2) | vbit(FieldSrc3)
	if err := fill(in, d, d.Tmpl, &f, vm, nil); err != nil {
		return err
	}
	en := w0 & 0xf
	for i := 0; i < int(in.NumOps); i++ {
		op := &in.Ops[i]
		n := -1
		switch op.Field {
		case FieldSrc0, FieldSrc1, FieldSrc2:
			n = int(op.Field - FieldSrc0)
		case FieldSrc3:
			n = 3
		}
		if n >= 0 && en&(1<<n) == 0 {
			*op = Operand{Kind: KindOff, Field: op.Field}
		}
	}
	return nil
}

// MIMG modifier probe order (generator).
const (
	mimgUnorm = 1 << iota
	mimgGLC
	mimgDA
	mimgR128
	mimgTFE
	mimgLWE
	mimgSLC
	mimgSCC
	mimgD16
	mimgW0Unused
	mimgW1Unused
)

// decodeMIMG decodes the GFX9 MIMG encoding (LLVM MIMGe_gfx6789 and
// MIMGe_gfx90a): word 0 slc[25] op[24:18] lwe[17] tfe[16] (gfx90a: acc)
// r128/a16[15] da[14] glc[13] unorm[12] dmask[11:8] scc[7] op7[0]; word 1
// d16[31] ssamp[25:21] srsrc[20:16] vdata[15:8] vaddr[7:0].
//
// The number of data registers follows dmask, tfe and d16 as LLVM's
// AMDGPUDisassembler::convertMIMGInst computes it; the generated
// gfx9MIMGCounts row gives it per opcode. When the wider tuple would run
// past v255, LLVM keeps the register class of the decoded (narrowest)
// variant, so the template's count stays.
func decodeMIMG(in *Inst, tab *procTable, w0, w1 uint32) error {
	d, err := lookup(in, tab, EncMIMG, (w0>>18)&0x7f|(w0&1)<<7)
	if err != nil {
		return err
	}
	set := (w0>>12)&0x3f | (w0>>25&1)<<6 | (w0>>7&1)<<7 | (w1>>31)<<8
	if w0&0x7e != 0 {
		set |= mimgW0Unused
	}
	if w1&(0x1f<<26) != 0 {
		set |= mimgW1Unused
	}
	if err := checkMods(d, set); err != nil {
		return err
	}
	dmask := (w0 >> 8) & 0xf
	k := uint32(0)
	if dmask != 0 {
		k = uint32(bits.OnesCount32(dmask)) - 1
	}
	k |= (w0>>16&1)<<2 | (w1>>31)<<3
	count := gfx9MIMGCounts[d.Counts][k]
	if count == 0 {
		return errBadOp
	}
	set &= d.ModPrint | d.ModSet
	m := &in.Mod
	m.DMask = uint8(dmask)
	for _, x := range [...]struct{ probe, flag uint32 }{{mimgUnorm, FlagUnorm}, {mimgGLC, FlagGLC}, {mimgDA, FlagDA},
		{mimgR128, FlagA16}, {mimgLWE, FlagLWE}, {mimgSLC, FlagSLC}, {mimgSCC, FlagSCC}, {mimgD16, FlagD16}} {
		if set&x.probe != 0 {
			m.Flags |= x.flag
		}
	}
	acc := false
	if set&mimgTFE != 0 {
		if in.Target.Proc >= ProcGFX90A && in.Target.Proc != ProcGFX90C {
			acc = true
			m.Flags |= FlagAcc
		} else {
			m.Flags |= FlagTFE
		}
	}
	var f fields
	f[FieldDst] = (w1 >> 8) & 0xff
	f[FieldSrc0] = w1 & 0xff
	f[FieldBase] = ((w1 >> 16) & 0x1f) * 4
	f[FieldSrc1] = ((w1 >> 21) & 0x1f) * 4
	if err := fill(in, d, d.Tmpl, &f, vbit(FieldDst)|vbit(FieldSrc0), nil); err != nil {
		return err
	}
	for i := range in.Ops[:in.NumOps] {
		o := &in.Ops[i]
		if o.Field != FieldDst || o.Kind != KindVGPR {
			continue
		}
		if int(o.Reg)+int(count) <= 256 {
			o.Count = count
		}
		if acc {
			o.Kind = KindAGPR
		}
	}
	return nil
}
