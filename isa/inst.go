package isa

// MaxOperands is the most operands an Inst holds.
const MaxOperands = 6

// OperandKind is what an operand refers to.
type OperandKind uint8

const (
	KindNone    OperandKind = iota
	KindSGPR                // scalar registers s[Reg : Reg+Count-1]
	KindVGPR                // vector registers v[Reg : Reg+Count-1]
	KindAGPR                // accumulation registers a[Reg : Reg+Count-1]
	KindTTMP                // trap temporaries ttmp[Reg : Reg+Count-1]
	KindSpecial             // a special register; Reg is its source-operand code (SrcVCCLo, SrcExecLo, SrcM0, ...)
	KindInline              // inline constant; Reg is its source code, Value the resolved bits for Type
	KindLiteral             // 32-bit literal following the instruction; Value holds it (raw 32 bits)
	KindImm                 // an immediate field (simm16, SMEM offset); Value holds it
	KindOff                 // "off": no register (FLAT saddr, MUBUF vaddr)
	KindBadImm              // a constant code in a register-only field (LLVM: /*invalid immediate*/)
)

// Source-operand codes of special registers and constants (the 9-bit SRC
// field of GFX9 encodings; the same codes appear in 7/8-bit SDST/SSRC).
const (
	SrcFlatScratchLo     = 102
	SrcFlatScratchHi     = 103
	SrcXnackMaskLo       = 104
	SrcXnackMaskHi       = 105
	SrcVCCLo             = 106
	SrcVCCHi             = 107
	SrcTTMP0             = 108
	SrcM0                = 124
	SrcExecLo            = 126
	SrcExecHi            = 127
	SrcZero              = 128
	SrcSharedBase        = 235
	SrcSharedLimit       = 236
	SrcPrivateBase       = 237
	SrcPrivateLimit      = 238
	SrcPopsExitingWaveID = 239
	SrcVCCZ              = 251
	SrcExecZ             = 252
	SrcSCC               = 253
	SrcLDSDirect         = 254
	SrcLiteral           = 255
	SrcVGPR0             = 256
)

// Operand is one resolved operand of an instruction.
type Operand struct {
	Kind  OperandKind
	Field Field       // encoding field it came from
	Type  OperandType // how constants are interpreted
	Count uint8       // registers (dwords) spanned
	Reg   uint16      // register index or source code (see Kind)
	Value uint64      // constant/literal/immediate value
}

// Modifier flag bits (Modifiers.Flags).
const (
	FlagClamp     uint32 = 1 << iota
	FlagGLC              // glc (gfx940: sc0)
	FlagSLC              // slc (gfx940: nt)
	FlagSCC              // gfx90a scc / gfx940 sc1
	FlagNV               // SMEM/FLAT nv
	FlagGDS              // DS gds
	FlagLDS              // MUBUF/FLAT lds
	FlagTFE              // MUBUF tfe
	FlagOffEn            // MUBUF offen
	FlagIdxEn            // MUBUF idxen
	FlagAcc              // data registers are AGPRs (gfx90a DS/FLAT/MUBUF acc bit)
	FlagBoundCtrl        // DPP bound_ctrl
	FlagSext0            // SDWA sext on src0
	FlagSext1            // SDWA sext on src1
	FlagDone             // EXP done
	FlagCompr            // EXP compr (sources are packed 16-bit pairs)
	FlagVM               // EXP vm
	FlagUnorm            // MIMG unorm
	FlagDA               // MIMG da
	FlagA16              // MIMG r128/a16 bit (LLVM 15 prints a16 on GFX9)
	FlagLWE              // MIMG lwe
	FlagD16              // MIMG d16
)

// Modifiers holds an instruction's modifier fields. Per-source bit sets use
// bit i for source i.
type Modifiers struct {
	Flags   uint32
	Abs     uint8 // VOP3 abs / SDWA abs
	Neg     uint8 // VOP3 neg, VOP3P neg_lo
	NegHi   uint8 // VOP3P neg_hi
	OpSel   uint8 // VOP3 op_sel (bit 3 = dst) / VOP3P op_sel
	OpSelHi uint8 // VOP3P op_sel_hi
	Omod    uint8 // 0 none, 1 mul:2, 2 mul:4, 3 div:2
	Offset  int32 // memory offset (DS offset or offset0, FLAT/MUBUF/SMEM offset)
	Offset1 uint8 // DS offset1
	Format  uint8 // MTBUF dfmt | nfmt<<4
	// SDWA
	DstSel, DstUnused, Src0Sel, Src1Sel uint8
	// DPP
	// MAI (MFMA)
	CBSZ, ABID, BLGP  uint8
	DPPCtrl           uint16
	RowMask, BankMask uint8
	DMask             uint8 // MIMG dmask (enabled components)
}

// Inst is one decoded instruction. It is a plain value: decoding allocates
// nothing, and an Inst may be copied and stored in dense tables.
type Inst struct {
	Op     Opcode
	Enc    Encoding
	Form   Form
	Len    uint8 // bytes, including a literal
	NumOps uint8
	Target Target
	Ops    [MaxOperands]Operand
	Mod    Modifiers
	Words  [3]uint32 // the raw instruction words (Len/4 of them)
	desc   uint16    // gfx9Descs index + 1 (0: none)
}

// Operands returns the operands in LLVM's printing order (destinations first).
func (in *Inst) Operands() []Operand { return in.Ops[:in.NumOps] }

// BranchTarget returns the destination of a PC-relative branch (s_branch,
// s_cbranch_*) located at addr: addr + 4 + 4*simm16. ok is false for other
// instructions.
func (in *Inst) BranchTarget(addr uint64) (target uint64, ok bool) {
	if in.Enc != EncSOPP {
		return 0, false
	}
	for _, op := range in.Ops[:in.NumOps] {
		if op.Type == TypeBranch {
			return addr + 4 + uint64(int64(int16(op.Value))*4), true
		}
	}
	return 0, false
}
