package isa

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidEncoding is wrapped by every error Decode returns for words that
// are not a valid instruction for the target (LLVM's "<unknown>").
var ErrInvalidEncoding = errors.New("invalid instruction encoding")

// ErrNotSupported is wrapped by errors for valid inputs this package cannot
// handle yet (an encoding family or processor without tables).
var ErrNotSupported = errors.New("not supported")

// DecodeError reports an undecodable instruction at a byte offset.
type DecodeError struct {
	Off int64  // byte offset of the instruction within the decoded range
	Msg string // what is wrong
	Err error  // ErrInvalidEncoding or ErrNotSupported
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("isa: offset %#x: %s", e.Off, e.Msg)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Opcode names one instruction, independent of the encoding it came in
// (V_ADD_F32 is the same Opcode in its _e32, _e64, SDWA and DPP forms).
// The constants are generated from LLVM's mnemonics.
type Opcode uint16

// String returns LLVM's lower-case mnemonic without an _e32/_e64 suffix.
func (o Opcode) String() string {
	if int(o) < len(opcodeNames) {
		return opcodeNames[o]
	}
	return fmt.Sprintf("Opcode(%d)", uint16(o))
}

// NumOpcodes is one more than the largest Opcode value; tables indexed by
// Opcode (the emulator's semantics table) have this length.
const NumOpcodes = len(opcodeNames)

// Encoding is an instruction encoding family.
type Encoding uint8

// Encoding families. SDWA and DPP are forms (Inst.Form) of VOP1/VOP2/VOPC.
const (
	EncInvalid Encoding = iota
	EncSOP2
	EncSOPK
	EncSOP1
	EncSOPC
	EncSOPP
	EncSMEM
	EncVOP2
	EncVOP1
	EncVOPC
	EncVOP3
	EncVOP3P
	EncDS
	EncFLAT
	EncSCRATCH
	EncGLOBAL
	EncMUBUF
	EncMTBUF
	EncMIMG
	EncVINTRP
	EncEXP
	numEncodings
)

// Table-only encodings: the SDWA and DPP forms of VOP1/VOP2/VOPC have their
// own generated rows (validity, operands and modifiers differ from _e32).
// An Inst decoded from them has Enc EncVOP1/2/C and Form FormSDWA/FormDPP.
const (
	encVOP1SDWA = numEncodings + iota
	encVOP1DPP
	encVOP2SDWA
	encVOP2DPP
	encVOPCSDWA
	encVOPCDPP
	numTableEncodings
)

var encNames = [...]string{"invalid", "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF", "MTBUF", "MIMG", "VINTRP", "EXP"}

func (e Encoding) String() string {
	if int(e) < len(encNames) {
		return encNames[e]
	}
	return fmt.Sprintf("Encoding(%d)", uint8(e))
}

// Form distinguishes the variants of one encoding that LLVM prints with
// different mnemonic suffixes.
type Form uint8

const (
	FormNone Form = iota // no suffix (SOP*, VOP3-only, memory, ...)
	FormE32              // VOP1/VOP2/VOPC: "_e32"
	FormE64              // VOP3 encoding of a VOP1/VOP2/VOPC opcode: "_e64"
	FormSDWA             // "_sdwa"
	FormDPP              // "_dpp"
)

// Field says which encoding field an operand was decoded from.
type Field uint8

const (
	FieldText      Field = iota // fixed text (LLVM prints it verbatim: "vcc", "off", ...)
	FieldDst                    // vdst / sdst / sdata / vdata
	FieldSrc0                   // src0 / ssrc0 / vaddr / addr
	FieldSrc1                   // src1 / vsrc1 / data0 / data
	FieldSrc2                   // src2 / data1
	FieldBase                   // sbase / srsrc / saddr
	FieldSOff                   // soffset
	FieldSDst                   // VOP3B carry/compare sdst
	FieldSImm16                 // SOPP/SOPK simm16
	FieldOffset                 // SMEM offset
	FieldLiteral                // trailing 32-bit literal
	FieldDstSel                 // SDWA dst_sel
	FieldDstUnused              // SDWA dst_unused
	FieldSrc0Sel                // SDWA src0_sel
	FieldSrc1Sel                // SDWA src1_sel
	FieldSrc3                   // EXP vsrc3
	FieldUnknown
)

// File is the register file a template operand names.
type File uint8

const (
	FileS File = iota // scalar: any 9-bit source (SGPR, special, constant, VGPR)
	FileV             // vector register
	FileA             // accumulation register (gfx908+)
)

// OperandType says how an operand's value (constant or immediate) is
// interpreted and printed.
type OperandType uint8

const (
	TypeB32         OperandType = iota // 32-bit integer or float
	TypeB64                            // 64-bit integer
	TypeF64                            // 64-bit float (literal is the high half)
	TypeF16                            // 16-bit float
	TypeI16                            // 16-bit integer
	TypeV2F16                          // packed 2 x f16
	TypeV2I16                          // packed 2 x i16
	TypeV2F32                          // packed 2 x f32 (gfx90a v_pk_*_f32)
	TypeHWReg                          // simm16 is hwreg(id, offset, size)
	TypeSendMsg                        // simm16 is sendmsg(msg, op, stream)
	TypeGPRIdx                         // simm16 is gpr_idx(...)
	TypeWaitcnt                        // simm16 is vmcnt/expcnt/lgkmcnt
	TypeHex16                          // simm16 printed in hex
	TypeDec16                          // simm16 printed in unsigned decimal
	TypeBranch                         // simm16 is a signed dword branch offset
	TypeHex                            // SMEM offset printed in hex
	TypeOffsetHex                      // SMEM offset printed as offset:0x..
	TypeRegOnly                        // a register-only source: constants print as /*invalid immediate*/
	TypeVGPROnly                       // a 9-bit source field that always names a VGPR (low 8 bits)
	TypeU16                            // SOPP simm16: inline-range values in decimal, others in hex
	TypeF16Lit                         // f16 whose literals LLVM prints as 16-bit hex (inline constants as floats)
	TypeAttr                           // VINTRP attr<<2 | attrchan, printed attrN.[xyzw]
	TypeInterpParam                    // VINTRP v_interp_mov source: p10, p20, p0
	TypeExpTgt                         // EXP target: mrt0-7, mrtz, null, pos0-3, param0-31
	TypeInterpAttr                     // VOP3 v_interp_* src0 field: high[8] attrchan[7:6] attr[5:0], printed attrN.[xyzw]
)

// isImmType reports the operand types that are immediates, not registers.
func isImmType(t OperandType) bool {
	return t >= TypeHWReg && t <= TypeOffsetHex || t == TypeU16 || t == TypeAttr || t == TypeInterpParam || t == TypeExpTgt || t == TypeInterpAttr
}

// operandSpec is one operand of a generated template.
type operandSpec struct {
	Field Field
	File  File
	Count uint8
	Type  OperandType
	Text  string
	kind  uint8   // specText/specFixed/specImm/specReg, set by compileSpecs
	op    Operand // specFixed: the operand Text names ("vcc", "off", ...)
}

const (
	specReg   = iota // a register/source field
	specText         // modifier text, printed only
	specFixed        // fixed register text ("vcc", "off")
	specImm          // an immediate field
)

// opDesc is one generated table row: an opcode field value of an encoding,
// the processors it exists on, and what LLVM prints for it.
type opDesc struct {
	// The fields decoding reads come first, so that they share a cache
	// line; Suffix is only compared with "" and printed.
	Enc        Encoding
	Code       uint16
	Procs      uint16
	Op         Opcode
	Tmpl       int16    // gfx9Templates index
	ZeroMask   uint32   // bit Field: register fields that must be zero
	ModPrint   uint32   // modifier probes that change the text
	ModInvalid uint32   // modifier probes LLVM rejects
	ModSet     uint32   // modifier probes applied to the opcode's canonical word: flags fixed for it (ds_gws_* gds, s_memtime imm = 0)
	Alts       [7]int16 // alternative layouts (SOPP nonzero, SMEM soe/sgpr, FLAT glc/lds/saddr, MUBUF lds)
	Counts     int16    // MIMG: gfx9MIMGCounts index (data registers per dmask/tfe/d16), -1 otherwise
	Suffix     string
}

// descVOP3B marks the rows whose template has a VOP3B sdst, descMAI the
// matrix (v_mfma*, v_smfmac*) rows of VOP3P, descInterp the VOP3-encoded
// v_interp_* rows (compileSpecs).
var descVOP3B, descMAI, descInterp [len(gfx9Descs)]bool

// Proc is a GFX9 processor.
type Proc uint8

// Processors, in the generator's order.
const (
	ProcGFX900 Proc = iota
	ProcGFX902
	ProcGFX904
	ProcGFX906
	ProcGFX908
	ProcGFX909
	ProcGFX90A
	ProcGFX90C
	ProcGFX940
	ProcGFX941
	ProcGFX942
	numProcs
)

var procNames = [...]string{"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940", "gfx941", "gfx942"}

func (p Proc) String() string {
	if int(p) < len(procNames) {
		return procNames[p]
	}
	return fmt.Sprintf("Proc(%d)", uint8(p))
}

// Target selects the processor whose instruction set Decode uses. The zero
// Target is gfx900.
type Target struct {
	Proc Proc
}

// LookupTarget returns the Target for a processor name ("gfx90a"); a target
// ID's feature suffix (":sramecc+:xnack-") is ignored. Processors outside
// GFX9 return an error wrapping ErrNotSupported.
func LookupTarget(name string) (Target, error) {
	n, _, _ := strings.Cut(name, ":")
	n = strings.TrimPrefix(n, "amdgcn-amd-amdhsa--")
	for i, p := range procNames {
		if p == n {
			return Target{Proc(i)}, nil
		}
	}
	return Target{}, fmt.Errorf("isa: processor %q: %w (GFX9 processors only)", name, ErrNotSupported)
}

// String returns the processor name.
func (t Target) String() string { return t.Proc.String() }

// isGFX940 reports the gfx94x processors (sc0/sc1/nt cache bits).
func (t Target) isGFX940() bool { return t.Proc >= ProcGFX940 }
