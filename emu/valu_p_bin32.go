package emu

// The ops of bin32AVX2 (valu_p_bin32_amd64.s): d = op(a, b & bmask) &
// dmask, shift counts a & smask.
const (
	bin32Add = iota
	bin32Sub
	bin32And
	bin32Or
	bin32Xor
	bin32Shl
	bin32Shr
	bin32Sar
	bin32Mul
	bin32Rsub // d = b - a (v_subrev_u32)
)

// The compares of icmpAVX2 (valu_p_icmp_amd64.s): a < b, a <= b, a == b.
const (
	icmpLT = iota
	icmpLE
	icmpEQ
)

// bin32Of maps pBin32's kinds (the fastU32 numbering) to bin32AVX2's ops.
var bin32Of = [...]int{bAdd: bin32Add, bLshl: bin32Shl, bAnd: bin32And, 3: -1, bOr: bin32Or, bXor: bin32Xor,
	bSub: bin32Sub, bLshr: bin32Shr, bAshr: bin32Sar, bMul: bin32Mul}

// u16Of maps pU16's kinds to bin32AVX2's ops (with the 16-bit masks).
var u16Of = [...]int{uAdd16: bin32Add, uSub16: bin32Sub, uMul16: bin32Mul, uLshl16: bin32Shl, uLshr16: bin32Shr}
