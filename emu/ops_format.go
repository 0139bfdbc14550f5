package emu

import (
	"fmt"
	"math"
)

// MUBUF buffer_{load,store}_format_* and MTBUF tbuffer_{load,store}_format_*
// (Vega ISA reference guide, "Buffer Instructions" and the buffer resource
// descriptor): the data format (DFMT) and numeric format (NFMT) come from
// the V# (word 3: NUM_FORMAT bits 14:12, DATA_FORMAT bits 18:15) for MUBUF
// and from the instruction for MTBUF. Each of the instruction's 1-4
// components is one element of the format: loads convert it to a 32-bit
// register (unorm/snorm/uscaled/sscaled/float to f32; uint/sint
// zero/sign-extended); components beyond the format's count read 0 for
// x, y, z and 1 (1.0 for float-producing formats) for w. Stores convert
// back (unorm/snorm: clamp, scale, round to nearest even; uint/sint: low
// bits; 16-bit float: f32 to f16 rounded to nearest even) and write only the
// format's components. Out-of-range components load 0 and are not stored.
// Formats implemented: DFMT 8, 16, 8_8, 32, 16_16, 8_8_8_8, 32_32,
// 16_16_16_16, 32_32_32, 32_32_32_32; packed formats (10_11_11,
// 2_10_10_10, …) fault as not supported. The d16 forms are not implemented.

// op.imm for format accesses: component count in bits 2:0, fmtTBuffer when
// the format is the instruction's, and MTBUF's DFMT | NFMT<<4 in bits 15:8.
const fmtTBuffer = 1 << 3

// bufFormats maps DFMT to (bits per component, components).
var bufFormats = [16][2]uint32{1: {8, 1}, 2: {16, 1}, 3: {8, 2}, 4: {32, 1}, 5: {16, 2}, 10: {8, 4}, 11: {32, 2}, 12: {16, 4}, 13: {32, 3}, 14: {32, 4}}

func init() {
	for n, suf := range []string{"x", "xy", "xyz", "xyzw"} {
		for _, pre := range []string{"buffer", "tbuffer"} {
			imm := uint32(n + 1)
			if pre == "tbuffer" {
				imm |= fmtTBuffer
			}
			defM(pre+"_load_format_"+suf, "", formatLoad)
			memImm[pre+"_load_format_"+suf] = imm
			defM(pre+"_store_format_"+suf, "", formatStore)
			memImm[pre+"_store_format_"+suf] = imm
		}
	}
}

// bufFormat returns the access's DFMT and NFMT.
func bufFormat(o *op, v *[4]uint32) (dfmt, nfmt uint32) {
	if o.imm&fmtTBuffer != 0 {
		return o.imm >> 8 & 0xF, o.imm >> 12 & 7
	}
	return v[3] >> 15 & 0xF, v[3] >> 12 & 7
}

func formatCheck(w *wave, o *op, dfmt, nfmt uint32) {
	if bufFormats[dfmt][0] == 0 || nfmt == 6 || (nfmt == 7 && bufFormats[dfmt][0] == 8) {
		name := "buffer"
		if o.imm&fmtTBuffer != 0 {
			name = "tbuffer"
		}
		panic(&Fault{Kind: FaultUnimplemented, PC: w.curPC, Lane: -1,
			Detail: fmt.Sprintf("%s format access with DFMT %d NFMT %d: %v", name, dfmt, nfmt, ErrNotSupported),
			err:    ErrNotSupported})
	}
}

func formatLoad(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	dfmt, nfmt := bufFormat(o, &v)
	formatCheck(w, o, dfmt, nfmt)
	bits, ncomp := bufFormats[dfmt][0], bufFormats[dfmt][1]
	n := int(o.imm & 7)
	voff, vidx := w.mubufVaddr(o)
	d := w.regs(&o.dst, n)
	toFloat := nfmt <= 3 || nfmt == 7
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		for c := 0; c < n; c++ {
			if uint32(c) >= ncomp {
				d[c][l] = 0
				if c == 3 {
					d[c][l] = 1
					if toFloat {
						d[c][l] = 0x3F800000
					}
				}
				continue
			}
			a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), uint32(c)*bits/8)
			if !ok {
				d[c][l] = 0
				continue
			}
			d[c][l] = formatToReg(w.read(o, l, a, int(bits/8)), bits, nfmt)
		}
	}
}

func formatStore(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	dfmt, nfmt := bufFormat(o, &v)
	formatCheck(w, o, dfmt, nfmt)
	bits, ncomp := bufFormats[dfmt][0], bufFormats[dfmt][1]
	n := min(int(o.imm&7), int(ncomp))
	voff, vidx := w.mubufVaddr(o)
	s := w.regs(&o.src[2], n)
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		for c := 0; c < n; c++ {
			if a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), uint32(c)*bits/8); ok {
				w.write(o, l, a, int(bits/8), regToFormat(s[c][l], bits, nfmt))
			}
		}
	}
}

// formatToReg converts one component of bits bits in numeric format nfmt
// to its 32-bit register value.
func formatToReg(x, bits, nfmt uint32) uint32 {
	max := uint32(1)<<bits - 1
	if bits == 32 {
		max = math.MaxUint32
	}
	sext := int32(x<<(32-bits)) >> (32 - bits)
	switch nfmt {
	case 0: // unorm
		return u32(float32(float64(x) / float64(max)))
	case 1: // snorm
		return u32(float32(math.Max(float64(sext)/float64(max>>1), -1)))
	case 2: // uscaled
		return u32(float32(x))
	case 3: // sscaled
		return u32(float32(sext))
	case 5: // sint
		return uint32(sext)
	case 7: // float
		if bits == 16 {
			return u32(float32(f16to64(uint16(x))))
		}
		return x
	}
	return x // uint
}

// regToFormat converts a 32-bit register value to one component.
func regToFormat(r, bits, nfmt uint32) uint32 {
	mask := uint32(1)<<bits - 1
	if bits == 32 {
		mask = math.MaxUint32
	}
	f := float64(f32(r))
	switch nfmt {
	case 0:
		if !(f > 0) {
			return 0
		}
		return uint32(math.RoundToEven(math.Min(f, 1) * float64(mask)))
	case 1:
		if f != f {
			return 0
		}
		h := float64(mask >> 1)
		return uint32(int32(math.RoundToEven(math.Max(math.Min(f, 1), -1)*h))) & mask
	case 2:
		return uint32(math.Min(math.Max(math.Trunc(f), 0), float64(mask))) & mask
	case 3:
		h := float64(mask >> 1)
		if f != f {
			return 0
		}
		return uint32(int32(math.Min(math.Max(math.Trunc(f), -h-1), h))) & mask
	case 7:
		if bits == 16 {
			return uint32(f16from64(f, 0))
		}
		return r
	}
	return r & mask
}
