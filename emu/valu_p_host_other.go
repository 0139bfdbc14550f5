//go:build !amd64

package emu

// Without the amd64 assembly the default build's lane loops are the Go ones.

const haveAVX = false

const haveFMA = false

func mad64AVX2(dlo, dhi, a, b, clo, chi *[64]uint32) uint64 { panic("emu: no AVX2") }

func f32FmaAVX2(d, a, b, c *[64]float32) { panic("emu: no FMA") }

func unaryF32AllHost(kind int, d, a *[64]uint32)             { unaryF32AllGo(kind, d, a) }
func f32AddVVHost(d, a, b *[64]float32)                      { f32AddVVGo(d, a, b) }
func f32AddSVHost(d *[64]float32, s float32, b *[64]float32) { f32AddSVGo(d, s, b) }
func f32MulVVHost(d, a, b *[64]float32)                      { f32MulVVGo(d, a, b) }
func f32MulSVHost(d *[64]float32, s float32, b *[64]float32) { f32MulSVGo(d, s, b) }
func f32SubVVHost(d, a, b *[64]float32)                      { f32SubVVGo(d, a, b) }
func f32SubSVHost(d *[64]float32, s float32, b *[64]float32) { f32SubSVGo(d, s, b) }

// Never called without AVX (haveAVX is false).
func fpackVVAVX(pred int, a, b *[64]float32) uint64         { panic("emu: no AVX") }
func fpackVSAVX(pred int, a *[64]float32, s float32) uint64 { panic("emu: no AVX") }
func fpackSVAVX(pred int, s float32, b *[64]float32) uint64 { panic("emu: no AVX") }

const haveAVX2 = false

func cndmaskVVAVX2(d, a, b *[64]uint32, m uint64)                    { panic("emu: no AVX2") }
func cndmaskSVAVX2(d *[64]uint32, a uint32, b *[64]uint32, m uint64) { panic("emu: no AVX2") }
func cndmaskVSAVX2(d, a *[64]uint32, b uint32, m uint64)             { panic("emu: no AVX2") }

func addcoVVAVX2(d, a, b *[64]uint32, cin uint64) uint64                    { panic("emu: no AVX2") }
func addcoSVAVX2(d *[64]uint32, a uint32, b *[64]uint32, cin uint64) uint64 { panic("emu: no AVX2") }
func shl64SAVX2(dlo, dhi, blo, bhi *[64]uint32, c1, c2, c3 uint64)          { panic("emu: no AVX2") }
func shr64SAVX2(dlo, dhi, blo, bhi *[64]uint32, c1, c2, c3 uint64)          { panic("emu: no AVX2") }
func minmaxU32AVX2(v *[64]uint32) (mn, mx uint32)                           { panic("emu: no AVX2") }
func gatherDAVX2(d *[64]uint32, p *byte, v *[64]uint32, mn uint32)          { panic("emu: no AVX2") }
func unitCheckAVX2(lo, hi *[64]uint32, stride uint32) bool                  { panic("emu: no AVX2") }
func bcast32AVX2(d *[64]uint32, s uint32)                                   { panic("emu: no AVX2") }
func bin32AVX2(op int, d, a, b *[64]uint32, bmask, dmask, smask uint32)     { panic("emu: no AVX2") }
func icmpAVX2(p int, a, b *[64]uint32, flip uint32) uint64                  { panic("emu: no AVX2") }
func dsRead2AVX2(d0, d1 *[64]uint32, lds *byte, v *[64]uint32, off0, off1, limit uint32) bool {
	panic("emu: no AVX2")
}
