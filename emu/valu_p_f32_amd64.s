#include "textflag.h"

// The default build's f32 lane loops for EXEC all ones (valu_p_f32_amd64.go):
// eight lanes per AVX instruction. VADDPS/VSUBPS/VMULPS are the same IEEE
// operations as the scalar ADDSS/SUBSS/MULSS of the Go loops, under the same
// MXCSR, so the results are bit-identical.

// F32VV(name, op): d[l] = a[l] op b[l] for 64 lanes.
#define F32VV(name, op) \
TEXT name(SB), NOSPLIT, $0-24 \
	MOVQ d+0(FP), DI \
	MOVQ a+8(FP), SI \
	MOVQ b+16(FP), DX \
	VMOVUPS 0(SI), Y0 \
	VMOVUPS 32(SI), Y1 \
	VMOVUPS 64(SI), Y2 \
	VMOVUPS 96(SI), Y3 \
	op 0(DX), Y0, Y0 \
	op 32(DX), Y1, Y1 \
	op 64(DX), Y2, Y2 \
	op 96(DX), Y3, Y3 \
	VMOVUPS 128(SI), Y4 \
	VMOVUPS 160(SI), Y5 \
	VMOVUPS 192(SI), Y6 \
	VMOVUPS 224(SI), Y7 \
	op 128(DX), Y4, Y4 \
	op 160(DX), Y5, Y5 \
	op 192(DX), Y6, Y6 \
	op 224(DX), Y7, Y7 \
	VMOVUPS Y0, 0(DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI) \
	VMOVUPS Y4, 128(DI) \
	VMOVUPS Y5, 160(DI) \
	VMOVUPS Y6, 192(DI) \
	VMOVUPS Y7, 224(DI) \
	VZEROUPPER \
	RET

// F32SV(name, op): d[l] = s op b[l] for 64 lanes (s broadcast).
#define F32SV(name, op) \
TEXT name(SB), NOSPLIT, $0-24 \
	MOVQ d+0(FP), DI \
	VBROADCASTSS s+8(FP), Y8 \
	MOVQ b+16(FP), DX \
	op 0(DX), Y8, Y0 \
	op 32(DX), Y8, Y1 \
	op 64(DX), Y8, Y2 \
	op 96(DX), Y8, Y3 \
	op 128(DX), Y8, Y4 \
	op 160(DX), Y8, Y5 \
	op 192(DX), Y8, Y6 \
	op 224(DX), Y8, Y7 \
	VMOVUPS Y0, 0(DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI) \
	VMOVUPS Y4, 128(DI) \
	VMOVUPS Y5, 160(DI) \
	VMOVUPS Y6, 192(DI) \
	VMOVUPS Y7, 224(DI) \
	VZEROUPPER \
	RET

// func f32AddVVAVX(d, a, b *[64]float32)
F32VV(·f32AddVVAVX, VADDPS)
// func f32MulVVAVX(d, a, b *[64]float32)
F32VV(·f32MulVVAVX, VMULPS)
// func f32SubVVAVX(d, a, b *[64]float32)
F32VV(·f32SubVVAVX, VSUBPS)
// func f32AddSVAVX(d *[64]float32, s float32, b *[64]float32)
F32SV(·f32AddSVAVX, VADDPS)
// func f32MulSVAVX(d *[64]float32, s float32, b *[64]float32)
F32SV(·f32MulSVAVX, VMULPS)
// func f32SubSVAVX(d *[64]float32, s float32, b *[64]float32)
F32SV(·f32SubSVAVX, VSUBPS)
