#include "textflag.h"

// The gathered dword loads of loadGather (mem_p_unit.go) with AVX2: the
// range of the lanes' 32-bit offsets (VPMINUD/VPMAXUD), then VPGATHERDD of
// eight lanes per step from one checked byte range.

// func minmaxU32AVX2(v *[64]uint32) (mn, mx uint32)
TEXT ·minmaxU32AVX2(SB), NOSPLIT, $0-16
	MOVQ v+0(FP), SI
	VMOVDQU (SI), Y0
	VMOVDQA Y0, Y1
	VPMINUD 32(SI), Y0, Y0
	VPMAXUD 32(SI), Y1, Y1
	VPMINUD 64(SI), Y0, Y0
	VPMAXUD 64(SI), Y1, Y1
	VPMINUD 96(SI), Y0, Y0
	VPMAXUD 96(SI), Y1, Y1
	VPMINUD 128(SI), Y0, Y0
	VPMAXUD 128(SI), Y1, Y1
	VPMINUD 160(SI), Y0, Y0
	VPMAXUD 160(SI), Y1, Y1
	VPMINUD 192(SI), Y0, Y0
	VPMAXUD 192(SI), Y1, Y1
	VPMINUD 224(SI), Y0, Y0
	VPMAXUD 224(SI), Y1, Y1
	VEXTRACTI128 $1, Y0, X2
	VPMINUD X2, X0, X0
	VPSHUFD $0x4E, X0, X2
	VPMINUD X2, X0, X0
	VPSHUFD $0xB1, X0, X2
	VPMINUD X2, X0, X0
	VMOVD X0, AX
	VEXTRACTI128 $1, Y1, X2
	VPMAXUD X2, X1, X1
	VPSHUFD $0x4E, X1, X2
	VPMAXUD X2, X1, X1
	VPSHUFD $0xB1, X1, X2
	VPMAXUD X2, X1, X1
	VMOVD X1, BX
	VZEROUPPER
	MOVL AX, mn+8(FP)
	MOVL BX, mx+12(FP)
	RET

// func gatherDAVX2(d *[64]uint32, p *byte, v *[64]uint32, mn uint32)
// d[l] = the dword at p + v[l] - mn (v[l] - mn < 2^31).
TEXT ·gatherDAVX2(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ v+16(FP), DX
	MOVL mn+24(FP), AX
	VMOVD AX, X7
	VPBROADCASTD X7, Y7
	XORQ CX, CX
gloop:
	VMOVDQU (DX)(CX*1), Y0
	VPSUBD Y7, Y0, Y0
	VPCMPEQD Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPGATHERDD Y1, (SI)(Y0*1), Y2
	VMOVDQU Y2, (DI)(CX*1)
	ADDQ $32, CX
	CMPQ CX, $256
	JLT gloop
	VZEROUPPER
	RET

DATA unitIota<>+0(SB)/4, $0
DATA unitIota<>+4(SB)/4, $1
DATA unitIota<>+8(SB)/4, $2
DATA unitIota<>+12(SB)/4, $3
DATA unitIota<>+16(SB)/4, $4
DATA unitIota<>+20(SB)/4, $5
DATA unitIota<>+24(SB)/4, $6
DATA unitIota<>+28(SB)/4, $7
GLOBL unitIota<>(SB), RODATA|NOPTR, $32

// func unitCheckAVX2(lo, hi *[64]uint32, stride uint32) bool
// Whether lo[l] == lo[0] + l*stride (mod 2^32) for every lane and, when hi
// is not nil, hi[l] == hi[0]: unitStride's test, eight lanes per step.
TEXT ·unitCheckAVX2(SB), NOSPLIT, $0-25
	MOVQ lo+0(FP), SI
	MOVQ hi+8(FP), DX
	MOVL stride+16(FP), AX
	VMOVD AX, X6
	VPBROADCASTD X6, Y6
	VMOVDQU unitIota<>(SB), Y5
	VPMULLD Y6, Y5, Y5
	VPBROADCASTD (SI), Y4
	VPADDD Y5, Y4, Y4
	VPSLLD $3, Y6, Y6
	VPXOR Y3, Y3, Y3
	XORQ CX, CX
uloop:
	VMOVDQU (SI)(CX*1), Y0
	VPXOR Y4, Y0, Y0
	VPOR Y0, Y3, Y3
	VPADDD Y6, Y4, Y4
	ADDQ $32, CX
	CMPQ CX, $256
	JLT uloop
	TESTQ DX, DX
	JZ udone
	VPBROADCASTD (DX), Y4
	XORQ CX, CX
hloop:
	VMOVDQU (DX)(CX*1), Y0
	VPXOR Y4, Y0, Y0
	VPOR Y0, Y3, Y3
	ADDQ $32, CX
	CMPQ CX, $256
	JLT hloop
udone:
	VPTEST Y3, Y3
	SETEQ AX
	VZEROUPPER
	MOVB AX, ret+24(FP)
	RET

// func dsRead2AVX2(d0, d1 *[64]uint32, lds *byte, v *[64]uint32, off0, off1, limit uint32) bool
// ds_read2_b32 with EXEC all ones: the byte offsets v[l]+off0 and v[l]+off1
// (32-bit wrap, as the DS address computation) must all be at most limit
// (the LDS size minus 4), else it returns false having written nothing;
// then d0[l], d1[l] are the dwords at those offsets (VPGATHERDD).
TEXT ·dsRead2AVX2(SB), NOSPLIT, $0-49
	MOVQ d0+0(FP), DI
	MOVQ d1+8(FP), R9
	MOVQ lds+16(FP), SI
	MOVQ v+24(FP), DX
	MOVL off0+32(FP), AX
	VMOVD AX, X6
	VPBROADCASTD X6, Y6
	MOVL off1+36(FP), AX
	VMOVD AX, X7
	VPBROADCASTD X7, Y7
	VPXOR Y5, Y5, Y5
	XORQ CX, CX
dsmax:
	VMOVDQU (DX)(CX*1), Y0
	VPADDD Y6, Y0, Y1
	VPADDD Y7, Y0, Y2
	VPMAXUD Y1, Y5, Y5
	VPMAXUD Y2, Y5, Y5
	ADDQ $32, CX
	CMPQ CX, $256
	JLT dsmax
	VEXTRACTI128 $1, Y5, X1
	VPMAXUD X1, X5, X5
	VPSHUFD $0x4E, X5, X1
	VPMAXUD X1, X5, X5
	VPSHUFD $0xB1, X5, X1
	VPMAXUD X1, X5, X5
	VMOVD X5, AX
	MOVL limit+40(FP), BX
	CMPL AX, BX
	JHI dsfail
	XORQ CX, CX
dsload:
	VMOVDQU (DX)(CX*1), Y0
	VPADDD Y6, Y0, Y1
	VPADDD Y7, Y0, Y2
	VPCMPEQD Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPGATHERDD Y3, (SI)(Y1*1), Y4
	VPCMPEQD Y3, Y3, Y3
	VPXOR Y8, Y8, Y8
	VPGATHERDD Y3, (SI)(Y2*1), Y8
	VMOVDQU Y4, (DI)(CX*1)
	VMOVDQU Y8, (R9)(CX*1)
	ADDQ $32, CX
	CMPQ CX, $256
	JLT dsload
	VZEROUPPER
	MOVB $1, ret+48(FP)
	RET
dsfail:
	VZEROUPPER
	MOVB $0, ret+48(FP)
	RET
