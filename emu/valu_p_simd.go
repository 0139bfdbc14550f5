//go:build goexperiment.simd && amd64

package emu

import "simd/archsimd"

// Built with GOEXPERIMENT=simd on amd64: the f32 lane loops use AVX-512
// (16 lanes per instruction) when the CPU has it, else the unrolled Go
// loops. The vector instructions are the packed forms of the scalar SSE
// ones Go emits (VADDPS/VMULPS/VSUBPS, VSQRTPD/VDIVPD, VCVTPS2PD/VCVTPD2PS),
// each IEEE-rounded under the worker thread's MXCSR (round to nearest, no
// flushing: ieeeFP), so every lane's bits are those of the scalar path.
// Which NaN an instruction returns when both operands are NaNs depends on
// operand order, which the compiler may swap for commutative operations: a
// NaN uniform operand therefore takes the Go loop (TestLaneLoopsMatchScalar
// pins the results against the loops these replaced).

const simdLanes = true

var useAVX512 = archsimd.X86.AVX512()

func f32AddVV(d, a, b *[64]float32) {
	if !useAVX512 {
		f32AddVVGo(d, a, b)
		return
	}
	for l := 0; l < 64; l += 16 {
		x := archsimd.LoadFloat32x16((*[16]float32)(a[l : l+16]))
		y := archsimd.LoadFloat32x16((*[16]float32)(b[l : l+16]))
		x.Add(y).Store((*[16]float32)(d[l : l+16]))
	}
}

func f32AddSV(d *[64]float32, s float32, b *[64]float32) {
	if !useAVX512 || s != s {
		f32AddSVGo(d, s, b)
		return
	}
	x := archsimd.BroadcastFloat32x16(s)
	for l := 0; l < 64; l += 16 {
		y := archsimd.LoadFloat32x16((*[16]float32)(b[l : l+16]))
		x.Add(y).Store((*[16]float32)(d[l : l+16]))
	}
}

func f32MulVV(d, a, b *[64]float32) {
	if !useAVX512 {
		f32MulVVGo(d, a, b)
		return
	}
	for l := 0; l < 64; l += 16 {
		x := archsimd.LoadFloat32x16((*[16]float32)(a[l : l+16]))
		y := archsimd.LoadFloat32x16((*[16]float32)(b[l : l+16]))
		x.Mul(y).Store((*[16]float32)(d[l : l+16]))
	}
}

func f32MulSV(d *[64]float32, s float32, b *[64]float32) {
	if !useAVX512 || s != s {
		f32MulSVGo(d, s, b)
		return
	}
	x := archsimd.BroadcastFloat32x16(s)
	for l := 0; l < 64; l += 16 {
		y := archsimd.LoadFloat32x16((*[16]float32)(b[l : l+16]))
		x.Mul(y).Store((*[16]float32)(d[l : l+16]))
	}
}

func f32SubVV(d, a, b *[64]float32) {
	if !useAVX512 {
		f32SubVVGo(d, a, b)
		return
	}
	for l := 0; l < 64; l += 16 {
		x := archsimd.LoadFloat32x16((*[16]float32)(a[l : l+16]))
		y := archsimd.LoadFloat32x16((*[16]float32)(b[l : l+16]))
		x.Sub(y).Store((*[16]float32)(d[l : l+16]))
	}
}

func f32SubSV(d *[64]float32, s float32, b *[64]float32) {
	if !useAVX512 || s != s {
		f32SubSVGo(d, s, b)
		return
	}
	x := archsimd.BroadcastFloat32x16(s)
	for l := 0; l < 64; l += 16 {
		y := archsimd.LoadFloat32x16((*[16]float32)(b[l : l+16]))
		x.Sub(y).Store((*[16]float32)(d[l : l+16]))
	}
}

// unaryF32All computes v_rcp_f32 (kind 0), v_rsq_f32 (1) or v_sqrt_f32
// (2) for all 64 lanes in float64 and rounds once to float32, eight lanes
// per step.
func unaryF32All(kind int, d, a *[64]uint32) {
	if !useAVX512 {
		unaryF32AllGo(kind, d, a)
		return
	}
	fa, fd := f32Lanes(a[:]), f32Lanes(d[:])
	one := archsimd.BroadcastFloat64x8(1)
	for l := 0; l < 64; l += 8 {
		x := archsimd.LoadFloat32x8((*[8]float32)(fa[l : l+8])).ConvertToFloat64()
		var r archsimd.Float64x8
		switch kind {
		case 0:
			r = one.Div(x)
		case 1:
			r = one.Div(x.Sqrt())
		default:
			r = x.Sqrt()
		}
		r.ConvertToFloat32().Store((*[8]float32)(fd[l : l+8]))
	}
}
