package isa

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"
)

// encOps is the number of opcode field values per encoding.
var encOps = [numTableEncodings]int{
	encVOP1SDWA: 256, encVOP1DPP: 256, encVOP2SDWA: 64, encVOP2DPP: 64, encVOPCSDWA: 256, encVOPCDPP: 256,
	EncSOP2: 48, EncSOPK: 32, EncSOP1: 256, EncSOPC: 128, EncSOPP: 128, EncSMEM: 256,
	EncVOP2: 64, EncVOP1: 256, EncVOPC: 256, EncVOP3: 0x380, EncVOP3P: 128, EncDS: 256,
	EncFLAT: 128, EncSCRATCH: 128, EncGLOBAL: 128, EncMUBUF: 128, EncMTBUF: 16, EncMIMG: 256, EncVINTRP: 4, EncEXP: 1,
}

// procTable maps (encoding, opcode field) to gfx9Descs index + 1 for one
// processor: one flat array, encoding e's rows starting at encBase[e].
type procTable struct {
	idx [numTableRows]uint16
}

// encBase is the first procTable.idx row of each encoding; numTableRows
// is the sum of encOps.
var encBase = func() (b [numTableEncodings]int) {
	n := 0
	for e := range b {
		b[e] = n
		n += encOps[e]
	}
	return b
}()

const numTableRows = 256*2 + 64*2 + 256*2 + 48 + 32 + 256 + 128 + 128 + 256 + 64 + 256 + 256 + 0x380 + 128 + 256 +
	128*3 + 128 + 16 + 256 + 4 + 1

var (
	tablesOnce [numProcs]sync.Once
	tables     [numProcs]procTable
)

func tableFor(p Proc) *procTable {
	if t := tableReady[p].Load(); t != nil {
		return t
	}
	tablesOnce[p].Do(func() {
		specsOnce.Do(compileSpecs)
		t := &tables[p]
		for i := range gfx9Descs {
			d := &gfx9Descs[i]
			if d.Procs&(1<<p) != 0 {
				t.idx[encBase[d.Enc]+int(d.Code)] = uint16(i + 1)
			}
		}
		tableReady[p].Store(t)
	})
	return &tables[p]
}

// tableReady publishes each built table, so the hot path is one atomic load.
var tableReady [numProcs]atomic.Pointer[procTable]

var specsOnce sync.Once

// compileSpecs classifies the fixed-text operands of every template once,
// so decoding compares no strings.
func compileSpecs() {
	for i := range gfx9Templates {
		for j := range gfx9Templates[i] {
			s := &gfx9Templates[i][j]
			switch {
			case s.Field == FieldText:
				s.kind = specText
				s.op = Operand{Field: FieldText, Type: s.Type, Count: s.Count}
				if textOperand(&s.op, s.Text) {
					s.kind = specFixed
				}
			case s.Field == FieldSImm16 || s.Field == FieldOffset || isImmType(s.Type):
				s.kind = specImm
			default:
				s.kind = specReg
			}
		}
	}
	for i := range gfx9Templates {
		p := &tmplPlans[i]
		p.imm = true
		for j := range gfx9Templates[i] {
			s := &gfx9Templates[i][j]
			if s.kind == specText {
				continue
			}
			if int(p.n) == MaxOperands || s.Field > FieldUnknown {
				p.bad = true
				break
			}
			op := &p.ops[p.n]
			switch s.kind {
			case specFixed:
				*op = s.op
			case specImm:
				*op = Operand{Kind: KindImm, Field: s.Field, Type: s.Type, Count: s.Count}
				if s.Field != FieldSImm16 {
					p.imm = false
				}
			default:
				*op = Operand{Field: s.Field, Type: s.Type, Count: s.Count}
				p.imm = false
				if s.Field == FieldUnknown {
					p.bad = true
				}
			}
			a := planAct{field: s.Field}
			switch {
			case s.kind == specFixed:
				a.act = actFixed
			case s.kind == specImm:
				a.act = actImm
			case s.Field == FieldLiteral:
				a.act = actLiteral
			case s.File == FileV && s.Type == TypeVGPROnly:
				a.act = actVOnly
			case s.File == FileV:
				a.act = actV
			case s.File == FileA && s.Type == TypeVGPROnly:
				a.act = actAOnly
			case s.File == FileA:
				a.act = actA
			default:
				a.act = actS
			}
			p.acts[p.n] = a
			p.n++
		}
	}
	for i := range gfx9Descs {
		name := gfx9Descs[i].Op.String()
		descMAI[i] = gfx9Descs[i].Enc == EncVOP3P && (strings.HasPrefix(name, "v_mfma") || strings.HasPrefix(name, "v_smfmac"))
		for _, s := range gfx9Templates[gfx9Descs[i].Tmpl] {
			if s.Field == FieldSDst {
				descVOP3B[i] = true
			}
			if s.Type == TypeInterpAttr {
				descInterp[i] = true
			}
		}
	}
}

// tmplPlan is a template compiled for fill: the operands with everything
// known from the template already set (fixed operands complete), copied in
// one assignment, and what to do for each of them.
type tmplPlan struct {
	ops  [MaxOperands]Operand
	acts [MaxOperands]planAct
	n    uint8
	bad  bool // an operand of an unknown field (LLVM printed something the generator could not place)
	imm  bool // only fixed and immediate operands (decodeSOPP's fast path)
}

type planAct struct {
	act   uint8 // what fill does: actFixed, actImm, ...
	field Field
}

// Plan actions: the operand kind, register file and field decide them once
// per template.
const (
	actFixed   = iota // fixed text operand: the prototype is complete
	actImm            // an immediate field
	actLiteral        // the mandatory trailing literal
	actS              // a 9-bit source or scalar field: resolveSrc
	actVOnly          // a 9-bit field that always names a VGPR (low 8 bits)
	actV              // a VGPR field (8-bit, or 9-bit where codes below 256 are sources)
	actAOnly          // AGPR-only field
	actA              // an AGPR field
)

var tmplPlans [len(gfx9Templates)]tmplPlan

// errorsByMsg are preallocated so the decoder never allocates, even for bad
// input. DecodeRange attaches offsets.
var (
	errShort     = &DecodeError{Msg: "truncated instruction", Err: ErrInvalidEncoding}
	errUnknownOp = &DecodeError{Msg: "unknown opcode", Err: ErrInvalidEncoding}
	errBadMods   = &DecodeError{Msg: "modifier bits not valid for this opcode", Err: ErrInvalidEncoding}
	errBadOp     = &DecodeError{Msg: "invalid operand", Err: ErrInvalidEncoding}
	errProc      = &DecodeError{Msg: "processor not supported", Err: ErrNotSupported}
	errLiteral   = &DecodeError{Msg: "literal constant not allowed in this encoding", Err: ErrInvalidEncoding}
)

// Decode decodes the instruction at the start of code for target t. The
// error, if any, wraps ErrInvalidEncoding (LLVM would print <unknown>) or
// ErrNotSupported, and its offset is 0; Decode never allocates.
func Decode(t Target, code []byte) (Inst, error) {
	var in Inst
	err := decodeInto(&in, t, code)
	return in, err
}

// DecodeInto is Decode writing into *in, for callers filling dense tables.
func DecodeInto(in *Inst, t Target, code []byte) error {
	return decodeInto(in, t, code)
}

func decodeInto(in *Inst, t Target, code []byte) error {
	// Reset only what decoding writes conditionally; operands are
	// overwritten as they are filled and Ops beyond NumOps are unspecified.
	in.Op, in.Enc, in.Form, in.Len, in.NumOps, in.desc = 0, 0, 0, 0, 0, 0
	in.Mod = Modifiers{}
	in.Words = [3]uint32{}
	in.Target = t
	if t.Proc >= numProcs {
		return errProc
	}
	if len(code) < 4 {
		return errShort
	}
	w0 := binary.LittleEndian.Uint32(code)
	in.Words[0] = w0
	in.Len = 4
	tab := tableFor(t.Proc)
	switch {
	case w0>>31 == 0:
		switch w0 >> 25 {
		case 0x3f:
			return decodeVOP1(in, tab, code, w0)
		case 0x3e:
			return decodeVOPC(in, tab, code, w0)
		}
		return decodeVOP2(in, tab, code, w0)
	case w0>>30 == 2:
		switch w0 >> 23 {
		case 0x17d:
			return decodeSOP(in, tab, code, EncSOP1, (w0>>8)&0xff, w0)
		case 0x17e:
			return decodeSOP(in, tab, code, EncSOPC, (w0>>16)&0x7f, w0)
		case 0x17f:
			return decodeSOPP(in, tab, code, w0)
		}
		if w0>>28 == 0xb {
			return decodeSOP(in, tab, code, EncSOPK, (w0>>23)&0x1f, w0)
		}
		return decodeSOP(in, tab, code, EncSOP2, (w0>>23)&0x7f, w0)
	}
	if w0>>26 == 0x35 {
		return decodeVINTRP(in, tab, w0)
	}
	if len(code) < 8 {
		return errShort
	}
	w1 := binary.LittleEndian.Uint32(code[4:])
	in.Words[1] = w1
	in.Len = 8
	switch w0 >> 26 {
	case 0x30:
		return decodeSMEM(in, tab, w0, w1)
	case 0x34:
		if w0>>23 == 0x1a7 {
			return decodeVOP3P(in, tab, w0, w1)
		}
		return decodeVOP3(in, tab, w0, w1)
	case 0x36:
		return decodeDS(in, tab, w0, w1)
	case 0x37:
		return decodeFLAT(in, tab, w0, w1)
	case 0x38:
		return decodeMUBUF(in, tab, w0, w1)
	case 0x3a:
		return decodeMTBUF(in, tab, w0, w1)
	case 0x31:
		return decodeEXP(in, tab, w0, w1)
	case 0x3c:
		return decodeMIMG(in, tab, w0, w1)
	}
	return errUnknownOp
}

func lookup(in *Inst, tab *procTable, enc Encoding, code uint32) (*opDesc, error) {
	if code >= uint32(encOps[enc]) {
		return nil, errUnknownOp
	}
	i := tab.idx[encBase[enc]+int(code)]
	if i == 0 {
		return nil, errUnknownOp
	}
	d := &gfx9Descs[i-1]
	in.desc = i
	in.Op = d.Op
	in.Enc = enc
	if enc >= numEncodings {
		in.Enc, in.Form = extEnc[enc-numEncodings], extForm[enc-numEncodings]
	}
	return d, nil
}

// extEnc and extForm are the Inst encoding and form of the SDWA/DPP table
// encodings.
var (
	extEnc  = [numTableEncodings - numEncodings]Encoding{EncVOP1, EncVOP1, EncVOP2, EncVOP2, EncVOPC, EncVOPC}
	extForm = [numTableEncodings - numEncodings]Form{FormSDWA, FormDPP, FormSDWA, FormDPP, FormSDWA, FormDPP}
)

// fields holds the raw values of an instruction's register/immediate fields,
// as 9-bit source codes where applicable (VGPR n = 256+n).
type fields [FieldUnknown + 1]uint32

// code is the instruction's bytes when the encoding allows a literal (code
// 255, read from code[in.Len:]), nil otherwise. vmask marks fields that are
// 8-bit VGPR fields (the others hold source codes). Data registers that are
// AGPRs (gfx90a acc bits) are switched by the callers after fill.
func fill(in *Inst, d *opDesc, tmpl int16, f *fields, vmask uint16, code []byte) error {
	litOK := code != nil
	if tmpl < 0 {
		return errBadOp
	}
	for z := d.ZeroMask; z != 0; z &= z - 1 {
		if f[bits.TrailingZeros32(z)] != 0 {
			return errBadOp
		}
	}
	p := &tmplPlans[tmpl]
	if p.bad {
		return errBadOp
	}
	n := int(p.n)
	for i := 0; i < n; i++ {
		s := &p.acts[i]
		op := &in.Ops[i]
		*op = p.ops[i]
		v := f[s.field]
		switch s.act {
		case actFixed:
		case actImm:
			op.Value = uint64(v)
			if s.field == FieldOffset && in.Enc == EncSMEM {
				op.Value = uint64(int64(int32(v<<11) >> 11)) // 21-bit signed
			}
		case actLiteral:
			// The mandatory literal (v_madmk/madak K, s_setreg_imm32) is
			// shared with a source that already read one.
			if in.Len == 4 {
				if len(code) < 8 {
					return errShort
				}
				in.Words[1] = binary.LittleEndian.Uint32(code[4:])
				in.Len = 8
			}
			op.Kind = KindLiteral
			op.Value = uint64(in.Words[1])
		case actS:
			if err := resolveSrc(in, op, v, code, litOK); err != nil {
				return err
			}
		case actVOnly:
			op.Kind = KindVGPR
			op.Reg = uint16(v & 0xff)
		case actV:
			v += uint32(vmask>>s.field&1) << 8 // an 8-bit VGPR field
			if v < 256 {
				// A VGPR-only field holding a scalar code: the field is a
				// 9-bit source printed as VGPR in the marker probe.
				if err := resolveSrc(in, op, v, code, litOK); err != nil {
					return err
				}
				break
			}
			op.Kind = KindVGPR
			op.Reg = uint16(v - 256)
			if int(op.Reg)+int(op.Count) > 256 {
				return errBadOp
			}
		case actAOnly:
			op.Kind = KindAGPR
			op.Reg = uint16(v & 0xff)
		case actA:
			v += uint32(vmask>>s.field&1) << 8
			if v < 256 && s.field >= FieldSrc0 && s.field <= FieldSrc2 {
				if err := resolveSrc(in, op, v, code, litOK); err != nil {
					return err
				}
				break
			}
			op.Kind = KindAGPR
			op.Reg = uint16(v & 0xff)
			if int(op.Reg)+int(op.Count) > 256 {
				return errBadOp
			}
		}
	}
	in.NumOps = uint8(n)
	return nil
}

// textOperand turns fixed template text that names a register into an
// operand, so the emulator sees implicit vcc, exec and "off" operands.
func textOperand(op *Operand, text string) bool {
	switch text {
	case "vcc":
		op.Kind, op.Reg, op.Count = KindSpecial, SrcVCCLo, 2
	case "vcc_lo":
		op.Kind, op.Reg, op.Count = KindSpecial, SrcVCCLo, 1
	case "exec":
		op.Kind, op.Reg, op.Count = KindSpecial, SrcExecLo, 2
	case "m0":
		op.Kind, op.Reg, op.Count = KindSpecial, SrcM0, 1
	case "off":
		op.Kind = KindOff
	default:
		return false
	}
	return true
}

// resolveSrc resolves a 9-bit source code into op.
func resolveSrc(in *Inst, op *Operand, v uint32, code []byte, litOK bool) error {
	if v <= 101 && op.Count == 1 {
		op.Kind = KindSGPR // the common case: one SGPR
		op.Reg = uint16(v)
		return nil
	}
	if v-128 <= 208-128 && op.Field != FieldDst && op.Field != FieldSDst && op.Type != TypeRegOnly {
		// The next most common: an inline integer constant (the general
		// switch below gives the same result).
		op.Kind = KindInline
		op.Reg = uint16(v)
		iv := int64(v) - 128
		if v > 192 {
			iv = 192 - int64(v)
		}
		op.Value = inlineInt(iv, op.Type)
		return nil
	}
	op.Reg = uint16(v)
	if v <= 101 && op.Count > 16 {
		op.Count = 1 // LLVM has no 32-register SGPR class; it prints one register
	}
	// LLVM aligns scalar tuples down (createSRegOperand: 64-bit to 2,
	// wider to 4 registers).
	align := uint32(0)
	switch {
	case op.Count == 2:
		align = 1
	case op.Count > 2:
		align = 3
	}
	switch {
	case v <= 101:
		op.Kind = KindSGPR
		v &^= align
		op.Reg = uint16(v)
		if int(v)+int(op.Count) > 104 {
			return errBadOp // beyond LLVM's SGPR tuple classes (s[100:103] is the last quad)
		}
	case v >= 256:
		op.Kind = KindVGPR
		op.Reg = uint16(v - 256)
		if int(op.Reg)+int(op.Count) > 256 {
			return errBadOp
		}
	case v >= 108 && v <= 123:
		op.Kind = KindTTMP
		if op.Count > 16 && in.Enc == EncVOP3P {
			// LLVM has no 1024-bit TTMP class (getTtmpClassId falls back
			// to TTMP_32): it prints one register. 512-bit sources use
			// TTMP_512, whose only tuple is ttmp[0:15] (createSRegOperand
			// shifts the index by 2, so ttmp0-3 print as ttmp[0:15]).
			op.Count = 1
			align = 0
		}
		op.Reg = uint16((v - 108) &^ align)
		if int(op.Reg)+int(op.Count) > 16 {
			return errBadOp
		}
	case v == 102 || v == 104 || v == 106 || v == 126:
		op.Kind = KindSpecial
		if op.Count > 4 {
			if in.Enc != EncVOP3P {
				return errBadOp
			}
			op.Count = 2 // MFMA src2: LLVM prints the 64-bit name
		}
	case v == 125: // "null"
		op.Kind = KindSpecial
		if op.Count > 4 && in.Enc != EncVOP3P {
			// No 256/512-bit special register class (s_load_dwordx8 null
			// is invalid); an MFMA src2 of any width prints null.
			return errBadOp
		}
	case v == 254 && op.Count > 1:
		return errBadOp // lds_direct is 32 bits
	case v == 103 || v == 105 || v == 107 || v == 124 || v == 127:
		op.Kind = KindSpecial
		if op.Count > 1 {
			return errBadOp
		}
	case (op.Field == FieldDst || op.Field == FieldSDst || op.Type == TypeRegOnly) && (v >= 128 && v <= 208 || v >= 240 && v <= 248):
		op.Kind = KindBadImm // LLVM prints /*invalid immediate*/
	case v >= 128 && v <= 208:
		op.Kind = KindInline
		iv := int64(v) - 128
		if v > 192 {
			iv = 192 - int64(v)
		}
		op.Value = inlineInt(iv, op.Type)
	case v >= 240 && v <= 248:
		op.Kind = KindInline
		op.Value = inlineFloat(v, op.Type)
	case v >= 235 && v <= 239, v >= 251 && v <= 254:
		op.Kind = KindSpecial
	case v == 255:
		if !litOK {
			return errLiteral
		}
		// One literal per instruction, shared by all sources that use it.
		if in.Len == 4 || (in.Len == 8 && in.Enc >= EncVOP3) {
			if len(code) < int(in.Len)+4 {
				return errShort
			}
			in.Words[in.Len/4] = binary.LittleEndian.Uint32(code[in.Len:])
			in.Len += 4
		}
		op.Kind = KindLiteral
		op.Value = uint64(in.Words[in.Len/4-1])
		if op.Type == TypeRegOnly || op.Field == FieldDst || op.Field == FieldSDst {
			// A register-only source (or an SGPR destination in an 8-bit
			// vdst field) still consumes the literal dword, but LLVM
			// prints it as /*invalid immediate*/
			// (v_readfirstlane_b32 s2, 0x1).
			op.Kind = KindBadImm
		}
	default:
		return errBadOp
	}
	return nil
}

func inlineInt(v int64, t OperandType) uint64 {
	switch t {
	case TypeF16, TypeF16Lit, TypeI16, TypeV2F16, TypeV2I16:
		return uint64(uint16(v))
	case TypeB64, TypeF64, TypeV2F32:
		return uint64(v)
	}
	return uint64(uint32(v))
}

var inlineF32 = [9]uint32{0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983}
var inlineF16 = [9]uint16{0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118}

func inlineFloat(v uint32, t OperandType) uint64 {
	i := v - 240
	switch t {
	case TypeF16, TypeF16Lit, TypeI16, TypeV2F16, TypeV2I16:
		return uint64(inlineF16[i])
	case TypeB64, TypeF64, TypeV2F32:
		if i == 8 {
			return 0x3fc45f306dc9c882
		}
		return math.Float64bits(float64(math.Float32frombits(inlineF32[i])))
	}
	return uint64(inlineF32[i])
}

// DecodeRange decodes every instruction of code in order, calling f with
// each instruction's byte offset. An undecodable word is reported to f as a
// *DecodeError with its offset (wrapping ErrInvalidEncoding or
// ErrNotSupported) and decoding continues 4 bytes later, as llvm-objdump
// does. Returning false from f stops early.
func DecodeRange(t Target, code []byte, f func(off int, in *Inst, err error) bool) {
	var in Inst
	for off := 0; off+4 <= len(code); {
		err := decodeInto(&in, t, code[off:])
		if err != nil {
			de := *err.(*DecodeError)
			de.Off = int64(off)
			if !f(off, &in, &de) {
				return
			}
			off += 4
			continue
		}
		if !f(off, &in, nil) {
			return
		}
		off += int(in.Len)
	}
}
