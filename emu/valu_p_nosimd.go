//go:build !(goexperiment.simd && amd64)

package emu

// The default build: the f32 lane loops are AVX assembly on amd64 CPUs that
// have it (valu_p_f32_amd64.s), else the unrolled Go loops of valu_p_fast.go
// (valu_p_simd.go has the GOEXPERIMENT=simd versions).

const simdLanes = false

func f32AddVV(d, a, b *[64]float32)                      { f32AddVVHost(d, a, b) }
func f32AddSV(d *[64]float32, s float32, b *[64]float32) { f32AddSVHost(d, s, b) }
func f32MulVV(d, a, b *[64]float32)                      { f32MulVVHost(d, a, b) }
func f32MulSV(d *[64]float32, s float32, b *[64]float32) { f32MulSVHost(d, s, b) }
func f32SubVV(d, a, b *[64]float32)                      { f32SubVVHost(d, a, b) }
func f32SubSV(d *[64]float32, s float32, b *[64]float32) { f32SubSVHost(d, s, b) }

// unaryF32All is unaryF32Fast's loop for EXEC all ones (AVX assembly on
// amd64 when the CPU has it); the SIMD build replaces it.
func unaryF32All(kind int, d, a *[64]uint32) { unaryF32AllHost(kind, d, a) }
