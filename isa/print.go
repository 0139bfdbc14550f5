package isa

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// String returns the instruction as llvm-objdump-15 prints it (without the
// address/encoding comment).
func (in Inst) String() string {
	return string(in.AppendText(make([]byte, 0, 64)))
}

// AppendText appends String's text to b.
func (in *Inst) AppendText(b []byte) []byte {
	if in.desc == 0 {
		return append(b, "<invalid>"...)
	}
	d := &gfx9Descs[in.desc-1]
	b = append(b, in.Op.String()...)
	switch in.Form {
	case FormE32:
		b = append(b, "_e32"...)
	case FormE64:
		b = append(b, "_e64"...)
	case FormSDWA, FormDPP:
		b = append(b, d.Suffix...) // "_sdwa"/"_dpp"; "" for v_nop
	}
	tmpl := in.template(d)
	specs := gfx9Templates[tmpl]
	n := 0
	first := true
	sep := func() {
		if first {
			b = append(b, ' ')
			first = false
		} else {
			b = append(b, ", "...)
		}
	}
	for i := range specs {
		s := &specs[i]
		if s.Field == FieldText {
			if s.kind != specFixed {
				if first {
					b = append(b, ' ')
					first = false
				}
				b = append(b, ' ')
				b = append(b, s.Text...)
				continue
			}
			sep()
			op := &in.Ops[n]
			n++
			if op.Kind == KindOff || op.Kind == KindSpecial {
				if op.Kind == KindVGPR {
					b = appendOperand(b, in, op, n-1)
				} else {
					b = append(b, s.Text...)
				}
				continue
			}
			b = appendOperand(b, in, op, n-1)
			continue
		}
		if s.Type == TypeOffsetHex {
			b = append(b, ' ')
		} else {
			sep()
		}
		b = appendOperand(b, in, &in.Ops[n], n-1)
		n++
		if s.Type == TypeExpTgt {
			first = true // "exp mrt0 v0, ...": the target is followed by a space
		}
	}
	return in.appendMods(b, d)
}

// template returns the template index Decode chose.
func (in *Inst) template(d *opDesc) int16 {
	switch in.Enc {
	case EncSOPP:
		if uint16(in.Mod.Offset) != 0 {
			return d.Alts[0]
		}
	case EncSMEM:
		soe, imm := in.Words[0]&(1<<14) != 0, in.Words[0]&(1<<17) != 0
		switch {
		case soe && imm:
			return d.Alts[0]
		case soe:
			return d.Alts[2]
		case !imm:
			return d.Alts[1]
		}
	case EncFLAT, EncGLOBAL, EncSCRATCH:
		return flatTemplate(d, in.Words[0], in.Words[1])
	case EncMUBUF:
		if in.Words[0]&(1<<16) != 0 {
			return d.Alts[0]
		}
	}
	return d.Tmpl
}

func appendOperand(b []byte, in *Inst, op *Operand, idx int) []byte {
	neg, abs := false, false
	if op.Field >= FieldSrc0 && op.Field <= FieldSrc2 {
		i := op.Field - FieldSrc0
		switch {
		case in.Form == FormSDWA || in.Form == FormDPP:
			neg = in.Mod.Neg&(1<<i) != 0
			abs = in.Mod.Abs&(1<<i) != 0
			if in.Mod.Flags&(FlagSext0<<i) != 0 {
				b = append(b, "sext("...)
				b = appendOperand(b, &Inst{Enc: EncVOP1, desc: in.desc}, op, idx)
				return append(b, ')')
			}
		case in.Enc == EncVOP3:
			neg = in.Mod.Neg&(1<<i) != 0
			abs = in.Mod.Abs&(1<<i) != 0
		case in.Enc == EncVOP3P:
			if isMix(in) {
				// v_mad_mix*/v_fma_mix*: neg_lo is neg, neg_hi is abs.
				neg = in.Mod.Neg&(1<<i) != 0
				abs = in.Mod.NegHi&(1<<i) != 0
			}
		}
	}
	negParen := false
	if neg {
		i := op.Field - FieldSrc0
		d := &gfx9Descs[in.desc-1]
		switch {
		case d.ModPrint&(1<<(28+i)) != 0:
			b = append(b, "sext("...)
			negParen = true
		case !abs && (op.Kind == KindInline || op.Kind == KindLiteral || op.Kind == KindBadImm):
			b = append(b, "neg("...)
			negParen = true
		default:
			b = append(b, '-')
		}
	}
	if abs {
		b = append(b, '|')
	}
	switch op.Kind {
	case KindSGPR:
		b = appendReg(b, "s", op.Reg, op.Count)
	case KindVGPR:
		b = appendReg(b, "v", op.Reg, op.Count)
	case KindAGPR:
		b = appendReg(b, "a", op.Reg, op.Count)
	case KindTTMP:
		b = appendReg(b, "ttmp", op.Reg, op.Count)
	case KindSpecial:
		b = append(b, specialName(op.Reg, op.Count)...)
	case KindOff:
		b = append(b, "off"...)
	case KindBadImm:
		b = append(b, "/*invalid immediate*/"...)
	case KindInline, KindLiteral:
		if op.Field == FieldLiteral && in.Enc != EncSOPK {
			b = appendHex(b, op.Value) // LLVM prints the K constant in hex
			break
		}
		b = appendConst(b, op)
	case KindImm:
		b = appendImm(b, in, op)
	}
	if abs {
		b = append(b, '|')
	}
	if negParen {
		b = append(b, ')')
	}
	return b
}

func appendReg(b []byte, prefix string, reg uint16, count uint8) []byte {
	b = append(b, prefix...)
	if count <= 1 {
		return strconv.AppendUint(b, uint64(reg), 10)
	}
	b = append(b, '[')
	b = strconv.AppendUint(b, uint64(reg), 10)
	b = append(b, ':')
	b = strconv.AppendUint(b, uint64(reg)+uint64(count)-1, 10)
	return append(b, ']')
}

func specialName(code uint16, count uint8) string {
	wide := count >= 2
	switch code {
	case SrcFlatScratchLo:
		if wide {
			return "flat_scratch"
		}
		return "flat_scratch_lo"
	case SrcFlatScratchHi:
		return "flat_scratch_hi"
	case SrcXnackMaskLo:
		if wide {
			return "xnack_mask"
		}
		return "xnack_mask_lo"
	case SrcXnackMaskHi:
		return "xnack_mask_hi"
	case SrcVCCLo:
		if wide {
			return "vcc"
		}
		return "vcc_lo"
	case SrcVCCHi:
		return "vcc_hi"
	case SrcM0:
		return "m0"
	case 125:
		return "null"
	case SrcExecLo:
		if wide {
			return "exec"
		}
		return "exec_lo"
	case SrcExecHi:
		return "exec_hi"
	case SrcSharedBase:
		return "src_shared_base"
	case SrcSharedLimit:
		return "src_shared_limit"
	case SrcPrivateBase:
		return "src_private_base"
	case SrcPrivateLimit:
		return "src_private_limit"
	case SrcPopsExitingWaveID:
		return "src_pops_exiting_wave_id"
	case SrcVCCZ:
		return "src_vccz"
	case SrcExecZ:
		return "src_execz"
	case SrcSCC:
		return "src_scc"
	case SrcLDSDirect:
		return "src_lds_direct"
	}
	return "<bad>"
}

// appendConst prints an inline constant or literal the way LLVM's
// AMDGPUInstPrinter::printImmediate{16,32,64} does: small integers in
// decimal, the inline float values by name, anything else in hex.
func appendConst(b []byte, op *Operand) []byte {
	v := op.Value
	switch op.Type {
	case TypeF16Lit:
		// AMDGPUInstPrinter::printImmediate16 on the 32-bit literal: the
		// low half as int16 in decimal if inline-range, the f16 constant
		// names only if the whole literal equals them (0x4000 is 2.0,
		// 0x13800 is 0x3800), else the low half in hex.
		if op.Kind == KindLiteral && v > 0xffff {
			v &= 0xffff
			if s := int16(v); s >= -16 && s <= 64 {
				return strconv.AppendInt(b, int64(s), 10)
			}
			return appendHex(b, v)
		}
		fallthrough
	case TypeF16, TypeV2F16:
		v &= 0xffff
		if s := int16(v); s >= -16 && s <= 64 {
			return strconv.AppendInt(b, int64(s), 10)
		}
		for i, f := range inlineF16 {
			if uint16(v) == f {
				return append(b, inlineNames32[i]...)
			}
		}
		return appendHex(b, v)
	case TypeI16, TypeV2I16:
		v &= 0xffff
		if s := int16(v); s >= -16 && s <= 64 {
			return strconv.AppendInt(b, int64(s), 10)
		}
		return appendHex(b, v)
	case TypeB64, TypeF64, TypeV2F32:
		if op.Kind == KindLiteral {
			if v <= 64 {
				return strconv.AppendUint(b, v, 10)
			}
			return appendHex(b, v)
		}
		if s := int64(v); s >= -16 && s <= 64 {
			return strconv.AppendInt(b, s, 10)
		}
		if v == 0x3fc45f306dc9c882 {
			if op.Type == TypeV2F32 {
				// Packed f32 operands print 1/(2*pi) as the f32 name
				// (llvm-objdump-15: v_pk_fma_f32 v[0:1], 0.15915494, ...).
				return append(b, "0.15915494"...)
			}
			return append(b, "0.15915494309189532"...)
		}
		for i, f := range inlineF32[:8] {
			if v == math.Float64bits(float64(math.Float32frombits(f))) {
				return append(b, inlineNames32[i]...)
			}
		}
		return appendHex(b, v)
	}
	v &= 0xffffffff
	if s := int32(v); s >= -16 && s <= 64 {
		return strconv.AppendInt(b, int64(s), 10)
	}
	for i, f := range inlineF32 {
		if uint32(v) == f {
			return append(b, inlineNames32[i]...)
		}
	}
	return appendHex(b, v)
}

var inlineNames32 = [9]string{"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494"}

func appendHex(b []byte, v uint64) []byte {
	b = append(b, "0x"...)
	return strconv.AppendUint(b, v, 16)
}

func appendImm(b []byte, in *Inst, op *Operand) []byte {
	v := op.Value
	switch op.Type {
	case TypeHex16:
		return appendHex(b, v&0xffff)
	case TypeBranch:
		return strconv.AppendUint(b, v&0xffff, 10)
	case TypeDec16:
		return strconv.AppendUint(b, v&0xffff, 10)
	case TypeU16:
		// AMDGPUInstPrinter::printU16ImmOperand → printImmediateInt16 on
		// the zero-extended value: 0-64 in decimal, all others (also
		// 0xfff0-0xffff, negative as int16) in hex: s_trap 0xfff9.
		if v&0xffff <= 64 {
			return strconv.AppendUint(b, v&0xffff, 10)
		}
		return appendHex(b, v&0xffff)
	case TypeHex:
		return appendSignedHex(b, int64(v))
	case TypeOffsetHex:
		b = append(b, "offset:"...)
		return appendSignedHex(b, int64(v))
	case TypeWaitcnt:
		return appendWaitcnt(b, uint32(v))
	case TypeHWReg:
		return appendHWReg(b, uint32(v), in.Target.Proc)
	case TypeSendMsg:
		return appendSendMsg(b, uint32(v))
	case TypeGPRIdx:
		return appendGPRIdx(b, uint32(v))
	case TypeExpTgt:
		return append(b, expTargets[v&63]...)
	case TypeAttr:
		// AMDGPUInstPrinter::printInterpAttr and printInterpAttrChan.
		b = append(b, "attr"...)
		b = strconv.AppendUint(b, (v>>2)&0x3f, 10)
		return append(b, '.', "xyzw"[v&3])
	case TypeInterpAttr:
		b = append(b, "attr"...)
		b = strconv.AppendUint(b, v&0x3f, 10)
		return append(b, '.', "xyzw"[(v>>6)&3])
	case TypeInterpParam:
		// AMDGPUInstPrinter::printInterpSlot.
		switch v {
		case 0:
			return append(b, "p10"...)
		case 1:
			return append(b, "p20"...)
		case 2:
			return append(b, "p0"...)
		}
		b = append(b, "invalid_param_"...)
		return strconv.AppendUint(b, v, 10)
	}
	return strconv.AppendUint(b, v, 10)
}

func appendSignedHex(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	return appendHex(b, uint64(v))
}

func appendWaitcnt(b []byte, v uint32) []byte {
	vm := v&0xf | (v>>14&3)<<4
	exp := (v >> 4) & 7
	lgkm := (v >> 8) & 0xf
	all := vm == 63 && exp == 7 && lgkm == 15
	space := false
	put := func(name string, n uint32) {
		if space {
			b = append(b, ' ')
		}
		b = append(b, name...)
		b = append(b, '(')
		b = strconv.AppendUint(b, uint64(n), 10)
		b = append(b, ')')
		space = true
	}
	if all || vm != 63 {
		put("vmcnt", vm)
	}
	if all || exp != 7 {
		put("expcnt", exp)
	}
	if all || lgkm != 15 {
		put("lgkmcnt", lgkm)
	}
	return b
}

// hwregName is one generated hwreg id name and the processors using it.
type hwregName struct {
	ID    uint8
	Procs uint16
	Name  string
}

func appendHWReg(b []byte, v uint32, p Proc) []byte {
	id, off, size := v&0x3f, (v>>6)&0x1f, (v>>11)&0x1f+1
	b = append(b, "hwreg("...)
	name := ""
	for _, h := range gfx9HWRegs {
		if uint32(h.ID) == id && h.Procs&(1<<p) != 0 {
			name = h.Name
		}
	}
	if name != "" {
		b = append(b, name...)
	} else {
		b = strconv.AppendUint(b, uint64(id), 10)
	}
	if off != 0 || size != 32 {
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(off), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(size), 10)
	}
	return append(b, ')')
}

var msgNames = map[uint32]string{1: "MSG_INTERRUPT", 2: "MSG_GS", 3: "MSG_GS_DONE", 4: "MSG_SAVEWAVE",
	5: "MSG_STALL_WAVE_GEN", 6: "MSG_HALT_WAVES", 7: "MSG_ORDERED_PS_DONE", 8: "MSG_EARLY_PRIM_DEALLOC",
	9: "MSG_GS_ALLOC_REQ", 10: "MSG_GET_DOORBELL", 15: "MSG_SYSMSG"}

var gsOpNames = [4]string{"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"}
var sysOpNames = map[uint32]string{1: "SYSMSG_OP_ECC_ERR_INTERRUPT", 2: "SYSMSG_OP_REG_RD", 3: "SYSMSG_OP_HOST_TRAP_ACK", 4: "SYSMSG_OP_TTRACE_PC"}

// appendSendMsg follows AMDGPUInstPrinter::printSendMsg (LLVM 15): the
// symbolic form when id, operation and stream are valid (other bits are
// ignored), else the numeric form when it re-encodes to the same value,
// else the raw decimal value.
func appendSendMsg(b []byte, v uint32) []byte {
	msg, op, stream := v&0xf, (v>>4)&7, (v>>8)&3
	name, ok := msgNames[msg]
	valid := ok
	if valid {
		switch msg {
		case 2, 3: // MSG_GS, MSG_GS_DONE
			valid = op < 4 && (op != 0 || msg == 3) && (op != 0 || stream == 0)
		case 15: // MSG_SYSMSG
			_, valid = sysOpNames[op]
			valid = valid && stream == 0
		default:
			valid = op == 0 && stream == 0
		}
	}
	if !valid {
		if v&^0x37f != 0 {
			return strconv.AppendUint(b, uint64(v), 10)
		}
		b = append(b, "sendmsg("...)
		b = strconv.AppendUint(b, uint64(msg), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(op), 10)
		b = append(b, ", "...)
		b = strconv.AppendUint(b, uint64(stream), 10)
		return append(b, ')')
	}
	b = append(b, "sendmsg("...)
	b = append(b, name...)
	switch msg {
	case 2, 3:
		b = append(b, ", "...)
		b = append(b, gsOpNames[op]...)
		if op != 0 {
			b = append(b, ", "...)
			b = strconv.AppendUint(b, uint64(stream), 10)
		}
	case 15:
		b = append(b, ", "...)
		b = append(b, sysOpNames[op]...)
	}
	return append(b, ')')
}

func appendGPRIdx(b []byte, v uint32) []byte {
	if v > 15 {
		return appendHex(b, uint64(v))
	}
	b = append(b, "gpr_idx("...)
	first := true
	for i, n := range [4]string{"SRC0", "SRC1", "SRC2", "DST"} {
		if v&(1<<i) != 0 {
			if !first {
				b = append(b, ',')
			}
			b = append(b, n...)
			first = false
		}
	}
	return append(b, ')')
}

func appendBits(b []byte, name string, v uint8, n int) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, ":["...)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '0'+(v>>i)&1)
	}
	return append(b, ']')
}

// numSrcs counts source operands (for op_sel/neg_lo arrays).
func (in *Inst) numSrcs() int {
	n := 0
	for _, o := range in.Ops[:in.NumOps] {
		if o.Field >= FieldSrc0 && o.Field <= FieldSrc2 {
			n++
		}
	}
	return n
}

func (in *Inst) appendMods(b []byte, d *opDesc) []byte {
	m := &in.Mod
	gfx940 := in.Target.isGFX940()
	cpol := func(b []byte, smem bool) []byte {
		if m.Flags&FlagGLC != 0 {
			if gfx940 && !smem {
				b = append(b, " sc0"...)
			} else {
				b = append(b, " glc"...)
			}
		}
		if m.Flags&FlagSLC != 0 {
			if gfx940 {
				b = append(b, " nt"...)
			} else {
				b = append(b, " slc"...)
			}
		}
		if m.Flags&FlagSCC != 0 {
			if gfx940 {
				b = append(b, " sc1"...)
			} else {
				b = append(b, " scc"...)
			}
		}
		return b
	}
	switch {
	case in.Form == FormSDWA && in.NumOps == 0:
		// v_nop_sdwa prints as "v_nop", without selects.
	case in.Form == FormSDWA:
		if m.Flags&FlagClamp != 0 {
			b = append(b, " clamp"...)
		}
		b = appendOmod(b, m.Omod)
		hasDst, hasSrc1 := false, false
		for _, o := range in.Ops[:in.NumOps] {
			hasDst = hasDst || o.Field == FieldDst
			hasSrc1 = hasSrc1 || o.Field == FieldSrc1
		}
		if hasDst && d.ModPrint&sdwaDstFixed == 0 {
			b = append(b, " dst_sel:"...)
			b = append(b, sdwaSel[m.DstSel]...)
			b = append(b, " dst_unused:"...)
			b = append(b, [...]string{"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"}[m.DstUnused&3]...)
		}
		b = append(b, " src0_sel:"...)
		b = append(b, sdwaSel[m.Src0Sel]...)
		if hasSrc1 {
			b = append(b, " src1_sel:"...)
			b = append(b, sdwaSel[m.Src1Sel]...)
		}
		return b
	case in.Form == FormDPP:
		return in.appendDPP(b)
	}
	switch in.Enc {
	case EncVOP3:
		if descInterp[in.desc-1] && d.ModPrint&vop3High != 0 {
			for _, o := range in.Ops[:in.NumOps] {
				if o.Type == TypeInterpAttr && o.Value&0x100 != 0 {
					b = append(b, " high"...)
				}
			}
		}
		if m.OpSel != 0 {
			// op_sel:[src0,...,dst]: the destination bit is bit 3.
			n := in.numSrcs()
			if n < 3 && d.ModPrint&(1<<5) != 0 {
				// The OPSEL2 probe changed LLVM's text: the opcode has a
				// hidden third source (gfx940 v_cvt_sr_*8_f32 vdst_in),
				// and LLVM prints all four bits.
				n = 3
			}
			v := m.OpSel&(1<<n-1) | (m.OpSel>>3&1)<<n
			b = appendBits(b, "op_sel", v, n+1)
		}
		if m.Flags&FlagClamp != 0 {
			b = append(b, " clamp"...)
		}
		b = appendOmod(b, m.Omod)
	case EncVOP3P:
		if descMAI[in.desc-1] {
			blgp := m.BLGP
			if in.Target.isGFX940() && strings.HasPrefix(in.Op.String(), "v_mfma_f64") {
				blgp = 0 // f64 MFMA: the blgp bits are neg:[src0,src1,src2]
			}
			for _, x := range [...]struct {
				name string
				v    uint8
			}{{" cbsz:", m.CBSZ}, {" abid:", m.ABID}, {" blgp:", blgp}} {
				if x.v != 0 {
					b = append(b, x.name...)
					b = strconv.AppendUint(b, uint64(x.v), 10)
				}
			}
			if blgp != m.BLGP && m.BLGP != 0 {
				b = appendBits(b, "neg", m.BLGP, 3)
			}
			return b
		}
		n := in.numSrcs()
		mask := uint8(1)<<n - 1
		if m.OpSel&mask != 0 {
			b = appendBits(b, "op_sel", m.OpSel, n)
		}
		def := mask
		if d.ModPrint&opSelHiDefaultZero != 0 {
			def = 0
		}
		// op_sel_hi is printed only by opcodes whose probes showed it
		// (v_accvgpr_read/write ignore the bits).
		if m.OpSelHi&mask != def && d.ModPrint&(vop3pOpSelHi0|vop3pOpSelHi1|vop3pOpSelHi2) != 0 {
			b = appendBits(b, "op_sel_hi", m.OpSelHi, n)
		}
		if !isMix(in) {
			if m.Neg&mask != 0 {
				b = appendBits(b, "neg_lo", m.Neg, n)
			}
			if m.NegHi&mask != 0 {
				b = appendBits(b, "neg_hi", m.NegHi, n)
			}
		}
		if m.Flags&FlagClamp != 0 {
			b = append(b, " clamp"...)
		}
	case EncSMEM:
		b = cpol(b, true)
		if m.Flags&FlagNV != 0 {
			b = append(b, " nv"...)
		}
	case EncDS:
		if in.Op == DS_SWIZZLE_B32 && m.Offset != 0 {
			b = appendSwizzle(b, uint16(m.Offset))
		} else if isDS2(in.Op) {
			if o0 := uint8(m.Offset); o0 != 0 {
				b = append(b, " offset0:"...)
				b = strconv.AppendUint(b, uint64(o0), 10)
			}
			if m.Offset1 != 0 {
				b = append(b, " offset1:"...)
				b = strconv.AppendUint(b, uint64(m.Offset1), 10)
			}
		} else if m.Offset != 0 {
			b = append(b, " offset:"...)
			b = strconv.AppendInt(b, int64(m.Offset), 10)
		}
		if m.Flags&FlagGDS != 0 {
			b = append(b, " gds"...)
		}
	case EncFLAT, EncGLOBAL, EncSCRATCH:
		if m.Offset != 0 {
			b = append(b, " offset:"...)
			b = strconv.AppendInt(b, int64(m.Offset), 10)
		}
		b = cpol(b, false)
		if m.Flags&FlagLDS != 0 && !gfx940 {
			b = append(b, " lds"...)
		}
		if m.Flags&FlagNV != 0 {
			b = append(b, " nv"...)
		}
	case EncMIMG:
		// The MIMG asm string: dmask unorm cpol r128(a16) tfe lwe da d16.
		if m.DMask != 0 {
			b = append(b, " dmask:"...)
			b = appendHex(b, uint64(m.DMask))
		}
		if m.Flags&FlagUnorm != 0 {
			b = append(b, " unorm"...)
		}
		b = cpol(b, false)
		for _, x := range [...]struct {
			flag uint32
			text string
		}{{FlagA16, " a16"}, {FlagTFE, " tfe"}, {FlagLWE, " lwe"}, {FlagDA, " da"}, {FlagD16, " d16"}} {
			if m.Flags&x.flag != 0 {
				b = append(b, x.text...)
			}
		}
	case EncEXP:
		// AMDGPUInstPrinter prints done, compr and vm in this order.
		if m.Flags&FlagDone != 0 {
			b = append(b, " done"...)
		}
		if m.Flags&FlagCompr != 0 {
			b = append(b, " compr"...)
		}
		if m.Flags&FlagVM != 0 {
			b = append(b, " vm"...)
		}
	case EncMUBUF, EncMTBUF:
		if in.Enc == EncMTBUF && mtbufFormats[m.Format] != "" {
			b = append(b, ' ')
			b = append(b, mtbufFormats[m.Format]...)
		}
		if m.Flags&FlagIdxEn != 0 {
			b = append(b, " idxen"...)
		}
		if m.Flags&FlagOffEn != 0 {
			b = append(b, " offen"...)
		}
		if m.Offset != 0 {
			b = append(b, " offset:"...)
			b = strconv.AppendInt(b, int64(m.Offset), 10)
		}
		// buffer_store_lds_dword's asm string has a fixed "lds" before
		// the cache bits; the lds bit of the other opcodes follows them.
		ldsFixed := in.Op == BUFFER_STORE_LDS_DWORD
		if ldsFixed {
			b = append(b, " lds"...)
		}
		b = cpol(b, false)
		if m.Flags&FlagLDS != 0 && !ldsFixed {
			b = append(b, " lds"...)
		}
		if m.Flags&FlagTFE != 0 && m.Flags&FlagLDS == 0 {
			b = append(b, " tfe"...)
		}
	}
	return b
}

// isDS2 reports the DS opcodes with two 8-bit offsets.
func isDS2(op Opcode) bool {
	s := op.String()
	for i := 1; i+1 < len(s); i++ {
		if s[i] == '2' && (s[i-1] == 'e' || s[i-1] == 'd' || s[i-1] == 'g') {
			// write2, read2, wrxchg2 (…g2), write2st64 …
			return true
		}
	}
	return false
}

// isMix reports v_mad_mix*/v_fma_mix* (op_sel_hi defaults to 0; neg_hi is abs).
func isMix(in *Inst) bool {
	return in.desc != 0 && gfx9Descs[in.desc-1].ModPrint&opSelHiDefaultZero != 0
}

var sdwaSel = [8]string{"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", ""}

func appendOmod(b []byte, omod uint8) []byte {
	switch omod {
	case 1:
		b = append(b, " mul:2"...)
	case 2:
		b = append(b, " mul:4"...)
	case 3:
		b = append(b, " div:2"...)
	}
	return b
}

// appendDPP prints dpp_ctrl, row_mask, bank_mask and bound_ctrl as LLVM 15's
// AMDGPUInstPrinter::printDPPCtrl does for GFX9.
func (in *Inst) appendDPP(b []byte) []byte {
	m := &in.Mod
	c := uint32(m.DPPCtrl)
	gfx90a := in.Target.Proc >= ProcGFX90A && in.Target.Proc != ProcGFX90C
	// LLVM's isDPP64BitDPPControl check applies to opcodes with a 64-bit
	// src0 (DPP64 on gfx90a).
	wide := false
	for _, o := range in.Ops[:in.NumOps] {
		wide = wide || o.Field == FieldSrc0 && o.Count == 2
	}
	b = append(b, ' ')
	num := func(name string, v uint32) {
		b = append(b, name...)
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	switch {
	case wide && gfx90a && !(c >= 0x150 && c <= 0x15f):
		b = append(b, " /* 64 bit dpp only supports row_newbcast */"...)
	case c <= 0xff:
		b = append(b, "quad_perm:["...)
		for i := 0; i < 4; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, byte('0'+(c>>(2*i))&3))
		}
		b = append(b, ']')
	case c >= 0x101 && c <= 0x10f:
		num("row_shl:", c-0x100)
	case c >= 0x111 && c <= 0x11f:
		num("row_shr:", c-0x110)
	case c >= 0x121 && c <= 0x12f:
		num("row_ror:", c-0x120)
	case c == 0x130:
		b = append(b, "wave_shl:1"...)
	case c == 0x134:
		b = append(b, "wave_rol:1"...)
	case c == 0x138:
		b = append(b, "wave_shr:1"...)
	case c == 0x13c:
		b = append(b, "wave_ror:1"...)
	case c == 0x140:
		b = append(b, "row_mirror"...)
	case c == 0x141:
		b = append(b, "row_half_mirror"...)
	case c == 0x142:
		b = append(b, "row_bcast:15"...)
	case c == 0x143:
		b = append(b, "row_bcast:31"...)
	case c >= 0x150 && c <= 0x15f:
		if gfx90a {
			num("row_newbcast:", c-0x150)
		} else {
			b = append(b, " /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */"...)
		}
	case c >= 0x160 && c <= 0x16f:
		b = append(b, "/* row_xmask is not supported on ASICs earlier than GFX10 */"...)
	default:
		b = append(b, "/* Invalid dpp_ctrl value */"...)
	}
	b = append(b, " row_mask:0x"...)
	b = strconv.AppendUint(b, uint64(m.RowMask), 16)
	b = append(b, " bank_mask:0x"...)
	b = strconv.AppendUint(b, uint64(m.BankMask), 16)
	if m.Flags&FlagBoundCtrl != 0 {
		b = append(b, " bound_ctrl:1"...)
	}
	return b
}

// appendSwizzle prints a ds_swizzle_b32 offset the way LLVM 15's
// AMDGPUInstPrinter::printSwizzle does: QUAD_PERM when bit 15 is set, else
// the bitmask form recognised as SWAP, REVERSE or BROADCAST when it can be.
func appendSwizzle(b []byte, v uint16) []byte {
	if v&0xff00 != 0x8000 && v&0x8000 != 0 {
		// Neither QUAD_PERM (0x80xx) nor BITMASK_PERM (bit 15 clear).
		b = append(b, " offset:"...)
		return strconv.AppendUint(b, uint64(v), 10)
	}
	b = append(b, " offset:swizzle("...)
	dec := func(x uint16) { b = strconv.AppendUint(b, uint64(x), 10) }
	if v&0x8000 != 0 {
		b = append(b, "QUAD_PERM"...)
		for i := 0; i < 4; i++ {
			b = append(b, ',')
			dec(v & 3)
			v >>= 2
		}
		return append(b, ')')
	}
	and, or, xor := v&0x1f, (v>>5)&0x1f, (v>>10)&0x1f
	switch {
	case and == 0x1f && or == 0 && bits.OnesCount16(xor) == 1:
		b = append(b, "SWAP,"...)
		dec(xor)
	case and == 0x1f && or == 0 && xor > 0 && (xor+1)&xor == 0:
		b = append(b, "REVERSE,"...)
		dec(xor + 1)
	default:
		group := 0x1f - and + 1
		if group > 1 && group&(group-1) == 0 && or < group && xor == 0 {
			b = append(b, "BROADCAST,"...)
			dec(group)
			b = append(b, ',')
			dec(or)
			break
		}
		b = append(b, "BITMASK_PERM,\""...)
		for m := uint16(0x10); m > 0; m >>= 1 {
			switch {
			// A bit whose and and or masks are both set is a constant
			// (or^xor), as llvm-objdump-15 prints it ("11p01" for 0x0325).
			case and&m != 0 && or&m == 0 && xor&m != 0:
				b = append(b, 'i')
			case and&m != 0 && or&m == 0:
				b = append(b, 'p')
			case (or^xor)&m != 0:
				b = append(b, '1')
			default:
				b = append(b, '0')
			}
		}
		b = append(b, '"')
	}
	return append(b, ')')
}
