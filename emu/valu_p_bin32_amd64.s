#include "textflag.h"

// The 32- and 16-bit integer lane loops of pBin32 and pU16 (valu_p_fast.go)
// for EXEC all ones in AVX2, eight lanes per step:
//
//	d[l] = op(a[l], b[l] & bmask) & dmask, shift counts a[l] & smask
//
// with op one of the bin32* numbers (bin32Rsub: b - a) in valu_p_bin32.go. The 32-bit forms
// pass all-ones masks and smask 31; the 16-bit ones dmask 0xFFFF, smask 15
// and, for the right shift, bmask 0xFFFF. VPSLLVD/VPSRLVD/VPSRAVD take the
// masked counts (below 32, as Go's shifts after & 31), VPMULLD keeps the
// low 32 bits of the product: the results are the Go loops' bit for bit.
// d may be a or b (each step loads before it stores).

#define LOADS \
	VMOVDQU (SI), Y0 \
	VMOVDQU (DX), Y1 \
	VPAND Y7, Y1, Y1

#define STORE \
	VPAND Y6, Y2, Y2 \
	VMOVDQU Y2, (DI) \
	ADDQ $32, SI \
	ADDQ $32, DX \
	ADDQ $32, DI \
	DECQ CX

// func bin32AVX2(op int, d, a, b *[64]uint32, bmask, dmask, smask uint32)
TEXT ·bin32AVX2(SB), NOSPLIT, $0-44
	MOVQ op+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVL bmask+32(FP), R8
	MOVQ R8, X7
	VPBROADCASTD X7, Y7
	MOVL dmask+36(FP), R8
	MOVQ R8, X6
	VPBROADCASTD X6, Y6
	MOVL smask+40(FP), R8
	MOVQ R8, X5
	VPBROADCASTD X5, Y5
	MOVQ $8, CX
	CMPQ AX, $0
	JEQ addloop
	CMPQ AX, $1
	JEQ subloop
	CMPQ AX, $2
	JEQ andloop
	CMPQ AX, $3
	JEQ orloop
	CMPQ AX, $4
	JEQ xorloop
	CMPQ AX, $5
	JEQ shlloop
	CMPQ AX, $6
	JEQ shrloop
	CMPQ AX, $7
	JEQ sarloop
	CMPQ AX, $9
	JEQ rsubloop
	JMP mulloop

rsubloop:
	LOADS
	VPSUBD Y0, Y1, Y2
	STORE
	JNZ rsubloop
	JMP done

addloop:
	LOADS
	VPADDD Y1, Y0, Y2
	STORE
	JNZ addloop
	JMP done

subloop:
	LOADS
	VPSUBD Y1, Y0, Y2
	STORE
	JNZ subloop
	JMP done

andloop:
	LOADS
	VPAND Y1, Y0, Y2
	STORE
	JNZ andloop
	JMP done

orloop:
	LOADS
	VPOR Y1, Y0, Y2
	STORE
	JNZ orloop
	JMP done

xorloop:
	LOADS
	VPXOR Y1, Y0, Y2
	STORE
	JNZ xorloop
	JMP done

shlloop:
	LOADS
	VPAND Y5, Y0, Y3
	VPSLLVD Y3, Y1, Y2
	STORE
	JNZ shlloop
	JMP done

shrloop:
	LOADS
	VPAND Y5, Y0, Y3
	VPSRLVD Y3, Y1, Y2
	STORE
	JNZ shrloop
	JMP done

sarloop:
	LOADS
	VPAND Y5, Y0, Y3
	VPSRAVD Y3, Y1, Y2
	STORE
	JNZ sarloop
	JMP done

mulloop:
	LOADS
	VPMULLD Y1, Y0, Y2
	STORE
	JNZ mulloop

done:
	VZEROUPPER
	RET
