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
