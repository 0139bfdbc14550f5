#include "textflag.h"

// The 32-bit integer compares of pCmpI32 (valu_p_fast.go) for EXEC all
// ones in AVX2: eight lanes per VPCMPGTD/VPCMPEQD, their sign bits
// gathered by VMOVMSKPS into the lane mask. VPCMPGTD is a signed compare;
// unsigned ones flip both operands' sign bits first (flip 1<<31, 0 for
// signed). The masks are the Go loops' (packLT, packLE, packEQ).

// func icmpAVX2(p int, a, b *[64]uint32, flip uint32) uint64
TEXT ·icmpAVX2(SB), NOSPLIT, $0-40
	MOVQ p+0(FP), AX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVL flip+24(FP), R8
	MOVQ R8, X7
	VPBROADCASTD X7, Y7
	XORQ R9, R9
	XORQ CX, CX
	CMPQ AX, $2
	JEQ eqloop
	CMPQ AX, $1
	JEQ leloop

ltloop:
	VMOVDQU (SI), Y0
	VMOVDQU (DX), Y1
	VPXOR Y7, Y0, Y0
	VPXOR Y7, Y1, Y1
	VPCMPGTD Y0, Y1, Y2
	VMOVMSKPS Y2, BX
	SHLQ CX, BX
	ORQ BX, R9
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $8, CX
	CMPQ CX, $64
	JNE ltloop
	JMP done

leloop:
	VMOVDQU (SI), Y0
	VMOVDQU (DX), Y1
	VPXOR Y7, Y0, Y0
	VPXOR Y7, Y1, Y1
	VPCMPGTD Y1, Y0, Y2
	VMOVMSKPS Y2, BX
	XORQ $0xFF, BX
	SHLQ CX, BX
	ORQ BX, R9
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $8, CX
	CMPQ CX, $64
	JNE leloop
	JMP done

eqloop:
	VMOVDQU (SI), Y0
	VPCMPEQD (DX), Y0, Y2
	VMOVMSKPS Y2, BX
	SHLQ CX, BX
	ORQ BX, R9
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $8, CX
	CMPQ CX, $64
	JNE eqloop

done:
	VZEROUPPER
	MOVQ R9, ret+32(FP)
	RET
