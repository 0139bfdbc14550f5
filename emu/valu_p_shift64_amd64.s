#include "textflag.h"

// The uniform-amount 64-bit shifts of pShift64 (v_lshlrev_b64,
// v_lshrrev_b64) for EXEC all ones (valu_p_fast.go), eight lanes per step
// with AVX2 on the structure-of-arrays halves. With s the amount (0-63),
// c1 = s, c2 = 32-s and c3 = s-32 (both as unsigned 64-bit counts, so a
// negative one is huge) and shifts by 32 or more giving 0 (VPSLLD/VPSRLD):
//   left:  lo' = lo<<c1, hi' = hi<<c1 | lo>>c2 | lo<<c3
//   right: hi' = hi>>c1, lo' = lo>>c1 | hi<<c2 | hi>>c3
// Each step loads its lanes' two halves before storing, so the destination
// pair may overlap the source pair.

// func shl64SAVX2(dlo, dhi, blo, bhi *[64]uint32, c1, c2, c3 uint64)
TEXT ·shl64SAVX2(SB), NOSPLIT, $0-56
	MOVQ dlo+0(FP), DI
	MOVQ dhi+8(FP), R9
	MOVQ blo+16(FP), SI
	MOVQ bhi+24(FP), DX
	MOVQ c1+32(FP), X10
	MOVQ c2+40(FP), X11
	MOVQ c3+48(FP), X12
	XORQ CX, CX
shlloop:
	VMOVDQU (SI)(CX*1), Y0
	VMOVDQU (DX)(CX*1), Y1
	VPSLLD X10, Y0, Y2
	VPSLLD X10, Y1, Y3
	VPSRLD X11, Y0, Y4
	VPOR Y4, Y3, Y3
	VPSLLD X12, Y0, Y4
	VPOR Y4, Y3, Y3
	VMOVDQU Y2, (DI)(CX*1)
	VMOVDQU Y3, (R9)(CX*1)
	ADDQ $32, CX
	CMPQ CX, $256
	JLT shlloop
	VZEROUPPER
	RET

// func shr64SAVX2(dlo, dhi, blo, bhi *[64]uint32, c1, c2, c3 uint64)
TEXT ·shr64SAVX2(SB), NOSPLIT, $0-56
	MOVQ dlo+0(FP), DI
	MOVQ dhi+8(FP), R9
	MOVQ blo+16(FP), SI
	MOVQ bhi+24(FP), DX
	MOVQ c1+32(FP), X10
	MOVQ c2+40(FP), X11
	MOVQ c3+48(FP), X12
	XORQ CX, CX
shrloop:
	VMOVDQU (SI)(CX*1), Y0
	VMOVDQU (DX)(CX*1), Y1
	VPSRLD X10, Y1, Y3
	VPSRLD X10, Y0, Y2
	VPSLLD X11, Y1, Y4
	VPOR Y4, Y2, Y2
	VPSRLD X12, Y1, Y4
	VPOR Y4, Y2, Y2
	VMOVDQU Y2, (DI)(CX*1)
	VMOVDQU Y3, (R9)(CX*1)
	ADDQ $32, CX
	CMPQ CX, $256
	JLT shrloop
	VZEROUPPER
	RET
