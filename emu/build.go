package emu

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/rocpu/rocpu/isa"
)

// The semantics table indexed by isa opcode, built once from the
// mnemonic-keyed definitions.
// It is filled on first use, after every file's init has defined its
// semantics.
var (
	semByOp   [isa.NumOpcodes]*semantic
	semByOnce sync.Once
)

func semFor(op isa.Opcode) *semantic {
	semByOnce.Do(func() {
		specialiseHot()
		for i := 0; i < isa.NumOpcodes; i++ {
			if s, ok := semantics[isa.Opcode(i).String()]; ok {
				s := s
				semByOp[i] = &s
			}
		}
	})
	if int(op) >= len(semByOp) {
		return nil
	}
	return semByOp[op]
}

// Implemented reports whether the engine has semantics for opcode op.
func Implemented(op isa.Opcode) bool { return semFor(op) != nil }

func init() {
	decodeOp = func(t *codeTable, pc uint64) (*op, error) {
		var in isa.Inst
		target, _ := t.target.(isa.Target)
		if err := isa.DecodeInto(&in, target, t.data[pc-t.base:]); err != nil {
			if errors.Is(err, isa.ErrNotSupported) {
				return nil, fmt.Errorf("%w (%w)", err, ErrNotSupported)
			}
			return nil, err
		}
		return buildOp(&in)
	}
	instLen = func(target any, b []byte) int {
		t, _ := target.(isa.Target)
		var in isa.Inst
		if err := isa.DecodeInto(&in, t, b); err != nil {
			return 0
		}
		return int(in.Len)
	}
	lookupTarget = func(name string) (any, error) { return isa.LookupTarget(name) }
	decoderInstalled = true
	disasm = func(target any, b []byte) string {
		t, _ := target.(isa.Target)
		in, err := isa.Decode(t, b)
		if err != nil {
			if len(b) >= 4 {
				return fmt.Sprintf("<unknown> %08x", le.Uint32(b))
			}
			return "<unknown>"
		}
		return in.String()
	}
}

// notImplemented is the error for an instruction without semantics.
func notImplemented(in *isa.Inst, why string) error {
	words := make([]string, 0, 3)
	for i := 0; i < int(in.Len)/4 && i < 3; i++ {
		words = append(words, fmt.Sprintf("%08x", in.Words[i]))
	}
	msg := fmt.Sprintf("%s (%s encoding %s)", in.Op, in.Enc, strings.Join(words, " "))
	if why != "" {
		msg += ": " + why
	}
	return fmt.Errorf("%s: %w", msg, ErrNotSupported)
}

// conv converts a decoded operand for a source of type typ.
func conv(d *isa.Operand, typ byte) operand {
	switch d.Kind {
	case isa.KindSGPR:
		return operand{kind: kSGPR, idx: d.Reg}
	case isa.KindTTMP:
		return operand{kind: kSGPR, idx: sTTMP0 + d.Reg}
	case isa.KindSpecial:
		if d.Reg < sNumRegs {
			return operand{kind: kSGPR, idx: d.Reg}
		}
		o, _ := constOperand(int(d.Reg), 0, typ)
		return o
	case isa.KindVGPR:
		return operand{kind: kVGPR, idx: d.Reg}
	case isa.KindAGPR:
		return operand{kind: kAGPR, idx: d.Reg}
	case isa.KindInline:
		o, ok := constOperand(int(d.Reg), 0, typ)
		if !ok {
			return operand{kind: kConst, val: d.Value}
		}
		return o
	case isa.KindLiteral:
		o, _ := constOperand(255, uint32(d.Value), typ)
		return o
	case isa.KindImm:
		return operand{kind: kConst, val: d.Value}
	}
	return operand{}
}

func typeAt(types string, i int) byte {
	if i < len(types) {
		return types[i]
	}
	return tI32
}

var (
	carryOut = map[string]bool{"v_add_co_u32": true, "v_sub_co_u32": true, "v_subrev_co_u32": true,
		"v_addc_co_u32": true, "v_subb_co_u32": true, "v_subbrev_co_u32": true, "v_div_scale_f32": true, "v_div_scale_f64": true,
		"v_mad_u64_u32": true, "v_mad_i64_i32": true}
	carryIn    = map[string]bool{"v_addc_co_u32": true, "v_subb_co_u32": true, "v_subbrev_co_u32": true, "v_cndmask_b32": true}
	accumulate = map[string]bool{"v_mac_f32": true, "v_fmac_f32": true, "v_mac_f16": true, "v_fmac_f16": true,
		"v_mac_legacy_f32": true, "v_fmac_f64": true, "v_dot2c_f32_f16": true, "v_dot4c_i32_i8": true, "v_pk_fmac_f16": true}
)

// buildOp resolves a decoded instruction into an op.
func buildOp(in *isa.Inst) (*op, error) {
	name := in.Op.String()
	sem := semFor(in.Op)
	if sem == nil {
		return nil, notImplemented(in, "")
	}
	o := &op{fn: sem.fn, n: in.Len, class: sem.class}
	m := &in.Mod
	o.post = postKind(name, sem.class, m.Flags&isa.FlagGLC != 0)
	o.neg, o.abs, o.opsel, o.opselh = m.Neg, m.Abs, m.OpSel, m.OpSelHi
	if in.Enc == isa.EncVOP3P {
		o.abs = m.NegHi // VOP3P has no abs; runners read neg_hi from o.abs
	}
	o.clamp = m.Flags&isa.FlagClamp != 0
	o.omod = m.Omod
	o.offset = m.Offset
	o.off1 = int32(m.Offset1)
	if m.Flags&isa.FlagGLC != 0 {
		o.flags |= fGLC
	}
	if m.Flags&isa.FlagOffEn != 0 {
		o.flags |= fOffen
	}
	if m.Flags&isa.FlagIdxEn != 0 {
		o.flags |= fIdxen
	}
	if m.Flags&isa.FlagLDS != 0 && in.Enc == isa.EncSCRATCH && in.Target.Proc >= isa.ProcGFX940 {
		// Bit 13 of gfx940 SCRATCH is SVE (saddr + vaddr addressing), not LDS.
		m.Flags &^= isa.FlagLDS
	}
	if strings.HasPrefix(name, "v_mfma") || strings.HasPrefix(name, "v_smfmac") {
		o.imm = uint32(m.CBSZ) | uint32(m.ABID)<<4 | uint32(m.BLGP)<<8 // read by ops_mfma.go
	}
	if m.Flags&(isa.FlagLDS|isa.FlagGDS) != 0 && !strings.HasPrefix(name, "ds_gws_") {
		// ds_gws_* exist only with gds set (gws.go); other GDS forms and
		// LDS-direct loads are not implemented.
		return nil, notImplemented(in, "lds/gds forms")
	}
	var dst, sdst, base, soff, simm, lit, offImm *isa.Operand
	var src [3]*isa.Operand
	for i := 0; i < int(in.NumOps); i++ {
		d := &in.Ops[i]
		switch d.Field {
		case isa.FieldDst:
			dst = d
		case isa.FieldSrc0:
			src[0] = d
		case isa.FieldSrc1:
			src[1] = d
		case isa.FieldSrc2:
			src[2] = d
		case isa.FieldBase:
			base = d
		case isa.FieldSOff:
			soff = d
		case isa.FieldSDst:
			sdst = d
		case isa.FieldSImm16:
			simm = d
		case isa.FieldLiteral:
			lit = d
		case isa.FieldOffset:
			offImm = d
		}
	}
	setSrc := func(i int, d *isa.Operand) {
		if d != nil {
			o.src[i] = conv(d, typeAt(sem.types, i))
		}
	}
	if dst != nil {
		o.dst = conv(dst, tI32)
	}
	if simm != nil {
		o.imm = uint32(simm.Value) & 0xFFFF
		o.simm = int32(int16(o.imm))
	}
	if k, ok := memImm[name]; ok {
		o.imm = k
		if k&fmtTBuffer != 0 {
			o.imm |= uint32(m.Format) << 8
		}
	}

	switch in.Enc {
	case isa.EncSOP1, isa.EncSOP2, isa.EncSOPC:
		setSrc(0, src[0])
		setSrc(1, src[1])
		if name == "s_movrels_b32" || name == "s_movrels_b64" {
			o.src[0] = operand{kind: kSGPR, idx: src[0].Reg}
		}
	case isa.EncSOPK:
		switch {
		case strings.HasPrefix(name, "s_cmpk_"):
			o.src[0] = o.dst
			if dst == nil && src[0] != nil {
				o.src[0] = conv(src[0], tI32)
			}
		case name == "s_setreg_b32":
			o.src[0] = o.dst
			if src[0] != nil {
				o.src[0] = conv(src[0], tI32)
			}
		case name == "s_setreg_imm32_b32":
			if lit != nil {
				o.src[0] = operand{kind: kConst, val: lit.Value}
			}
		}
	case isa.EncSOPP:
	case isa.EncSMEM:
		if base != nil {
			o.src[0] = conv(base, tI32)
		}
		if offImm != nil {
			if offImm.Kind == isa.KindImm {
				o.offset = int32(offImm.Value)
			} else {
				o.src[1] = conv(offImm, tI32)
			}
		}
		if soff != nil {
			o.src[1] = conv(soff, tI32)
		}
		if strings.HasPrefix(name, "s_store") || strings.HasPrefix(name, "s_atomic_") || strings.HasPrefix(name, "s_buffer_atomic_") {
			o.src[2] = o.dst
		}
		if strings.HasPrefix(name, "s_buffer_atomic_") {
			o.flags |= fSBuffer
		}
	case isa.EncVOP1, isa.EncVOP2, isa.EncVOPC, isa.EncVOP3, isa.EncVOP3P:
		for i := 0; i < 3; i++ {
			setSrc(i, src[i])
		}
		if sdst != nil {
			o.sdst = conv(sdst, tI32)
		}
		switch {
		case strings.HasPrefix(name, "v_madmk_") || strings.HasPrefix(name, "v_fmamk_"):
			// v_madmk dst, src0, K, src1: dst = src0*K + src1.
			o.src[2] = o.src[1]
			if lit != nil {
				o.src[1], _ = constOperand(255, uint32(lit.Value), typeAt(sem.types, 1))
			}
		case strings.HasPrefix(name, "v_madak_") || strings.HasPrefix(name, "v_fmaak_"):
			if lit != nil {
				o.src[2], _ = constOperand(255, uint32(lit.Value), typeAt(sem.types, 2))
			}
		}
		if in.Enc == isa.EncVOPC {
			// e32 compares write VCC; GFX9 SDWA compares may name an SGPR pair.
			o.sdst = operand{kind: kSGPR, idx: sVCCLo}
			if sdst != nil {
				o.sdst = conv(sdst, tI32)
			} else if dst != nil && dst.Kind != isa.KindVGPR && dst.Kind != isa.KindNone {
				o.sdst = conv(dst, tI32)
			}
		} else if strings.HasPrefix(name, "v_cmp") && in.Enc == isa.EncVOP3 && sdst == nil {
			o.sdst = o.dst
		}
		if carryOut[name] && o.sdst.kind == kNone {
			o.sdst = operand{kind: kSGPR, idx: sVCCLo}
		}
		if carryIn[name] && o.src[2].kind == kNone {
			o.src[2] = operand{kind: kSGPR, idx: sVCCLo}
		}
		if accumulate[name] {
			o.src[2] = o.dst
		}
		if name == "v_readfirstlane_b32" && o.dst.kind == kVGPR {
			// The VOP1 vdst field of v_readfirstlane names an SGPR.
			o.dst.kind = kSGPR
		}
		if name == "v_swap_b32" {
			o.src[0] = conv(src[0], tI32)
		}
		switch in.Form {
		case isa.FormDPP:
			return wrapDPP(in, o)
		case isa.FormSDWA:
			return wrapSDWA(in, o, name)
		}
	case isa.EncDS:
		for i := 0; i < 3; i++ {
			setSrc(i, src[i])
		}
	case isa.EncFLAT, isa.EncGLOBAL, isa.EncSCRATCH:
		setSrc(0, src[0])
		setSrc(2, src[1]) // vdata
		if base != nil {
			o.src[1] = conv(base, tI32)
		}
	case isa.EncMUBUF, isa.EncMTBUF:
		setSrc(0, src[0])
		if base != nil {
			o.src[1] = conv(base, tI32)
		}
		if soff != nil {
			o.sdst = conv(soff, tI32)
		}
		o.src[2] = o.dst // vdata is the store data and the atomic source
		if src[1] != nil && dst == nil {
			o.src[2] = conv(src[1], tI32)
			o.dst = o.src[2]
		}
	case isa.EncMIMG:
		// ops_image.go: src[0] vaddr, src[1] srsrc (T#), src[2] ssamp
		// (S#), dst vdata (loaded, or stored); imm dmask | imgUnorm.
		for _, x := range [...]struct {
			flag uint32
			what string
		}{{isa.FlagD16, "d16"}, {isa.FlagA16, "a16"}, {isa.FlagTFE, "tfe"}, {isa.FlagLWE, "lwe"}} {
			if m.Flags&x.flag != 0 {
				return nil, notImplemented(in, "image "+x.what)
			}
		}
		if m.DMask == 0 {
			// GFX9 still returns one register for a zero dmask; what it
			// holds is not documented.
			return nil, notImplemented(in, "image dmask 0")
		}
		setSrc(0, src[0])
		if base != nil {
			o.src[1] = conv(base, tI32)
		}
		if src[1] != nil {
			o.src[2] = conv(src[1], tI32)
		}
		o.imm = uint32(m.DMask)
		if m.Flags&isa.FlagUnorm != 0 {
			o.imm |= imgUnorm
		}
		if strings.HasSuffix(name, "_mip") {
			o.flags |= fImgMip
		}
	default:
		return nil, notImplemented(in, "encoding not implemented")
	}
	return o, nil
}

func wrapDPP(in *isa.Inst, inner *op) (*op, error) {
	a := &dppAux{inner: inner, src: inner.src[0], ctrl: in.Mod.DPPCtrl, rowMask: in.Mod.RowMask, bank: in.Mod.BankMask,
		bound: in.Mod.Flags&isa.FlagBoundCtrl != 0, writesExec: strings.HasPrefix(in.Op.String(), "v_cmpx")}
	if dppLane(a.ctrl, 0) == -2 {
		return nil, notImplemented(in, fmt.Sprintf("dpp_ctrl %#x", a.ctrl))
	}
	inner.src[0] = operand{kind: kTmp, idx: 6}
	o := &op{fn: execDPP, n: inner.n, class: inner.class, post: inner.post, aux: &opAux{dpp: a}}
	return o, nil
}

func wrapSDWA(in *isa.Inst, inner *op, name string) (*op, error) {
	m := &in.Mod
	a := &sdwaAux{inner: inner, src: [2]operand{inner.src[0], inner.src[1]}, sel: [2]uint8{m.Src0Sel, m.Src1Sel},
		sext: [2]bool{m.Flags&isa.FlagSext0 != 0, m.Flags&isa.FlagSext1 != 0}, dst: inner.dst,
		dstSel: m.DstSel, dstUnused: m.DstUnused, vopc: in.Enc == isa.EncVOPC || strings.HasPrefix(name, "v_cmp")}
	inner.src[0] = operand{kind: kTmp, idx: 6}
	if inner.src[1].kind != kNone {
		inner.src[1] = operand{kind: kTmp, idx: 7}
	}
	if !a.vopc {
		inner.dst = operand{kind: kTmp, idx: 8}
		if accumulate[name] {
			inner.src[2] = a.dst
		}
	}
	return &op{fn: execSDWA, n: inner.n, class: inner.class, post: inner.post, aux: &opAux{sdwa: a}}, nil
}
