#include "textflag.h"

// func f32FmaAVX2(d, a, b, c *[64]float32)
// d[l] = fma(a[l], b[l], c[l]) for 64 lanes with VFMADD213PS: the IEEE
// fused multiply-add rounded once, under the worker's MXCSR (round to
// nearest, no flushing), as fma32 computes it in software. The operand
// order (a, b, c) is the order in which a NaN source is returned.
TEXT ·f32FmaAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), CX
	MOVQ $8, BX
loop:
	VMOVUPS (SI), Y0
	VMOVUPS (DX), Y1
	VMOVUPS (CX), Y2
	// Y0 = Y1*Y0 + Y2 (Intel: VFMADD213PS ymm0, ymm1, ymm2)
	VFMADD213PS Y2, Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, CX
	ADDQ $32, DI
	DECQ BX
	JNZ  loop
	VZEROUPPER
	RET

// func cpuHasFMA() bool: CPUID.1:ECX.FMA[bit 12].
TEXT ·cpuHasFMA(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $12, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET
