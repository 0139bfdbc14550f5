#include "textflag.h"

DATA signbit64<>+0(SB)/8, $0x8000000000000000
GLOBL signbit64<>(SB), RODATA, $8

// func mad64AVX2(dlo, dhi, a, b, clo, chi *[64]uint32) uint64
// v_mad_u64_u32 with EXEC all ones: d = zext(a)*zext(b) + (chi:clo) per
// lane, returning the carry out of the 64-bit addition as a lane mask.
// Eight lanes per iteration: two vectors of four 64-bit lanes (VPMULUDQ,
// VPADDQ), the carry from an unsigned compare of the sum with the product
// (sign bits flipped for VPCMPGTQ), the sums split back into low and high
// dwords (VSHUFPS 0x88/0xDD, then VPERMQ 0xD8 to restore the lane order).
// Every input of the eight lanes is loaded before their outputs are
// stored, so d may alias a source.
TEXT ·mad64AVX2(SB), NOSPLIT, $0-56
	MOVQ dlo+0(FP), DI
	MOVQ dhi+8(FP), R8
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ clo+32(FP), R9
	MOVQ chi+40(FP), R10
	VPBROADCASTQ signbit64<>(SB), Y15
	XORQ R11, R11 // carry mask
	XORQ CX, CX   // lane
loop:
	// Lanes CX..CX+3.
	VPMOVZXDQ (SI), Y0
	VPMOVZXDQ (DX), Y1
	VPMULUDQ  Y1, Y0, Y0
	VPMOVZXDQ (R9), Y2
	VPMOVZXDQ (R10), Y3
	VPSLLQ    $32, Y3, Y3
	VPOR      Y3, Y2, Y2
	VPADDQ    Y2, Y0, Y4
	VPXOR     Y15, Y0, Y0
	VPXOR     Y15, Y4, Y5
	VPCMPGTQ  Y5, Y0, Y5 // product > sum (unsigned): carry
	// Lanes CX+4..CX+7.
	VPMOVZXDQ 16(SI), Y6
	VPMOVZXDQ 16(DX), Y7
	VPMULUDQ  Y7, Y6, Y6
	VPMOVZXDQ 16(R9), Y8
	VPMOVZXDQ 16(R10), Y9
	VPSLLQ    $32, Y9, Y9
	VPOR      Y9, Y8, Y8
	VPADDQ    Y8, Y6, Y10
	VPXOR     Y15, Y6, Y6
	VPXOR     Y15, Y10, Y11
	VPCMPGTQ  Y11, Y6, Y11
	// Carries.
	VMOVMSKPD Y5, AX
	VMOVMSKPD Y11, BX
	SHLQ      $4, BX
	ORQ       BX, AX
	SHLQ      CX, AX
	ORQ       AX, R11
	// Low and high dwords of the eight sums, in lane order.
	VSHUFPS   $0x88, Y10, Y4, Y12
	VSHUFPS   $0xDD, Y10, Y4, Y13
	VPERMQ    $0xD8, Y12, Y12
	VPERMQ    $0xD8, Y13, Y13
	VMOVDQU   Y12, (DI)
	VMOVDQU   Y13, (R8)
	ADDQ      $32, SI
	ADDQ      $32, DX
	ADDQ      $32, R9
	ADDQ      $32, R10
	ADDQ      $32, DI
	ADDQ      $32, R8
	ADDQ      $8, CX
	CMPQ      CX, $64
	JLT       loop
	VZEROUPPER
	MOVQ      R11, ret+48(FP)
	RET
