#include "textflag.h"

// The 32-bit add with carry-in and carry-out of pAddCo (v_add_co_u32,
// v_addc_co_u32) for EXEC all ones (valu_p_fast.go), eight lanes per step
// with AVX2: s = a + b + cin per lane, carry out when the 33-bit sum
// overflows. Unsigned compares are signed compares of sign-flipped values:
// a + b carries iff (a+b) < a; adding the carry-in bit c carries iff
// (s+c) < c. The two cannot both happen. Bit-identical to the Go loops.

DATA addcoSign<>+0(SB)/4, $0x80000000
DATA addcoSign<>+4(SB)/4, $0x80000000
DATA addcoSign<>+8(SB)/4, $0x80000000
DATA addcoSign<>+12(SB)/4, $0x80000000
DATA addcoSign<>+16(SB)/4, $0x80000000
DATA addcoSign<>+20(SB)/4, $0x80000000
DATA addcoSign<>+24(SB)/4, $0x80000000
DATA addcoSign<>+28(SB)/4, $0x80000000
GLOBL addcoSign<>(SB), RODATA|NOPTR, $32

DATA addcoBits<>+0(SB)/4, $1
DATA addcoBits<>+4(SB)/4, $2
DATA addcoBits<>+8(SB)/4, $4
DATA addcoBits<>+12(SB)/4, $8
DATA addcoBits<>+16(SB)/4, $16
DATA addcoBits<>+20(SB)/4, $32
DATA addcoBits<>+24(SB)/4, $64
DATA addcoBits<>+28(SB)/4, $128
GLOBL addcoBits<>(SB), RODATA|NOPTR, $32

// addcoStep adds the eight lanes of Y0 and (DX) plus the carry-in bits
// R8>>CX into (DI) and ORs their carries, shifted by CX, into AX.
#define addcoStep \
	VPADDD (DX), Y0, Y1 \
	VPXOR Y5, Y0, Y2 \
	VPXOR Y5, Y1, Y3 \
	VPCMPGTD Y3, Y2, Y2 \
	MOVQ R8, BX \
	SHRQ CX, BX \
	ANDQ $0xFF, BX \
	VMOVD BX, X4 \
	VPBROADCASTD X4, Y4 \
	VPAND Y6, Y4, Y4 \
	VPCMPEQD Y6, Y4, Y4 \
	VPSRLD $31, Y4, Y4 \
	VPADDD Y4, Y1, Y1 \
	VPXOR Y5, Y4, Y4 \
	VPXOR Y5, Y1, Y3 \
	VPCMPGTD Y3, Y4, Y4 \
	VPOR Y4, Y2, Y2 \
	VMOVDQU Y1, (DI) \
	VMOVMSKPS Y2, BX \
	SHLQ CX, BX \
	ORQ BX, AX

// addcoStep0 is addcoStep without carry-in bits (R8 == 0).
#define addcoStep0 \
	VPADDD (DX), Y0, Y1 \
	VPXOR Y5, Y0, Y2 \
	VPXOR Y5, Y1, Y3 \
	VPCMPGTD Y3, Y2, Y2 \
	VMOVDQU Y1, (DI) \
	VMOVMSKPS Y2, BX \
	SHLQ CX, BX \
	ORQ BX, AX

// func addcoVVAVX2(d, a, b *[64]uint32, cin uint64) uint64
TEXT ·addcoVVAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ cin+24(FP), R8
	VMOVDQU addcoSign<>(SB), Y5
	VMOVDQU addcoBits<>(SB), Y6
	XORQ AX, AX
	XORQ CX, CX
	TESTQ R8, R8
	JZ vvloop0
vvloop:
	VMOVDQU (SI), Y0
	addcoStep
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT vvloop
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET
vvloop0:
	VMOVDQU (SI), Y0
	addcoStep0
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT vvloop0
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

// func addcoSVAVX2(d *[64]uint32, a uint32, b *[64]uint32, cin uint64) uint64
TEXT ·addcoSVAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVL a+8(FP), BX
	MOVQ b+16(FP), DX
	MOVQ cin+24(FP), R8
	VMOVD BX, X7
	VPBROADCASTD X7, Y7
	VMOVDQU addcoSign<>(SB), Y5
	VMOVDQU addcoBits<>(SB), Y6
	XORQ AX, AX
	XORQ CX, CX
	TESTQ R8, R8
	JZ svloop0
svloop:
	VMOVDQA Y7, Y0
	addcoStep
	ADDQ $32, DX
	ADDQ $32, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT svloop
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET
svloop0:
	VMOVDQA Y7, Y0
	addcoStep0
	ADDQ $32, DX
	ADDQ $32, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT svloop0
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

// func bcast32AVX2(d *[64]uint32, s uint32)
// d[l] = s for every lane (v_mov_b32 of a uniform value).
TEXT ·bcast32AVX2(SB), NOSPLIT, $0-12
	MOVQ d+0(FP), DI
	MOVL s+8(FP), AX
	VMOVD AX, X0
	VPBROADCASTD X0, Y0
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y0, 32(DI)
	VMOVDQU Y0, 64(DI)
	VMOVDQU Y0, 96(DI)
	VMOVDQU Y0, 128(DI)
	VMOVDQU Y0, 160(DI)
	VMOVDQU Y0, 192(DI)
	VMOVDQU Y0, 224(DI)
	VZEROUPPER
	RET
