#include "textflag.h"

// The default-build lane loops of v_rcp_f32, v_rsq_f32 and v_sqrt_f32 for
// EXEC all ones (valu_p_rsq_amd64.go): four lanes per AVX instruction. Each
// lane is the same IEEE sequence as the scalar Go loop (CVTSS2SD, SQRTSD,
// DIVSD, CVTSD2SS under the same MXCSR), so the results are bit-identical;
// only the divider's throughput per lane changes.

DATA rsqOne<>+0(SB)/8, $1.0
GLOBL rsqOne<>(SB), RODATA|NOPTR, $8

// func unaryF32AllAVX(kind int, d, a *[64]uint32)
TEXT ·unaryF32AllAVX(SB), NOSPLIT, $0-24
	MOVQ kind+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	XORQ CX, CX
	VBROADCASTSD rsqOne<>(SB), Y2
	CMPQ AX, $0
	JEQ  rcp
	CMPQ AX, $1
	JEQ  rsq

sqrt:
	VCVTPS2PD (SI)(CX*1), Y0
	VCVTPS2PD 16(SI)(CX*1), Y1
	VSQRTPD   Y0, Y0
	VSQRTPD   Y1, Y1
	VCVTPD2PSY Y0, X0
	VCVTPD2PSY Y1, X1
	VMOVUPS   X0, (DI)(CX*1)
	VMOVUPS   X1, 16(DI)(CX*1)
	ADDQ      $32, CX
	CMPQ      CX, $256
	JLT       sqrt
	VZEROUPPER
	RET

rcp:
	VCVTPS2PD (SI)(CX*1), Y0
	VCVTPS2PD 16(SI)(CX*1), Y1
	VDIVPD    Y0, Y2, Y0
	VDIVPD    Y1, Y2, Y1
	VCVTPD2PSY Y0, X0
	VCVTPD2PSY Y1, X1
	VMOVUPS   X0, (DI)(CX*1)
	VMOVUPS   X1, 16(DI)(CX*1)
	ADDQ      $32, CX
	CMPQ      CX, $256
	JLT       rcp
	VZEROUPPER
	RET

rsq:
	VCVTPS2PD (SI)(CX*1), Y0
	VCVTPS2PD 16(SI)(CX*1), Y1
	VSQRTPD   Y0, Y0
	VSQRTPD   Y1, Y1
	VDIVPD    Y0, Y2, Y0
	VDIVPD    Y1, Y2, Y1
	VCVTPD2PSY Y0, X0
	VCVTPD2PSY Y1, X1
	VMOVUPS   X0, (DI)(CX*1)
	VMOVUPS   X1, 16(DI)(CX*1)
	ADDQ      $32, CX
	CMPQ      CX, $256
	JLT       rsq
	VZEROUPPER
	RET

// func cpuHasAVX() bool: CPUID.1:ECX has OSXSAVE (bit 27) and AVX (bit 28),
// and the OS saves the XMM and YMM state (XCR0 bits 1 and 2).
TEXT ·cpuHasAVX(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE  no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVB $1, ret+0(FP)
	RET
no:
	MOVB $0, ret+0(FP)
	RET
