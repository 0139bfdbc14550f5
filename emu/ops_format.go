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
// back (unorm/snorm: clamp, scale, round to nearest even; uscaled/sscaled:
// truncate and clamp; uint/sint: low bits; floats narrower than 32 bits:
// round to nearest even) and write only the format's components.
// Out-of-range components load 0 and are not stored.
//
// Formats: DFMT 8, 16, 8_8, 32, 16_16, 8_8_8_8, 32_32, 16_16_16_16,
// 32_32_32, 32_32_32_32 (components at consecutive addresses), and the
// packed 32-bit formats, whose names list the components from the most
// significant bits down (as Mesa maps R11G11B10_FLOAT to 10_11_11 and
// R10G10B10A2 to 2_10_10_10): 10_11_11 (x bits 10:0, y 21:11, z 31:22),
// 11_11_10 (x 9:0, y 20:10, z 31:21), 10_10_10_2 (x 1:0, y 11:2, z 21:12,
// w 31:22) and 2_10_10_10 (x 9:0, y 19:10, z 29:20, w 31:30), read and
// written as one dword (bounds-checked as one element). FLOAT for the 11-
// and 10-bit components is the unsigned small float of packed R11G11B10F
// (5-bit exponent with bias 15, 6- or 5-bit mantissa, no sign, exponent 31
// for Inf/NaN). FLOAT with 8-bit, 2-bit or the 10_10_10_2 formats' 10-bit
// components, and NFMT 6, fault as not supported.
//
// The d16 forms (buffer_*_format_d16_*, tbuffer_*_format_d16_*; GFX9 packs
// two components per VGPR): component c is in the low (c even) or high half
// of VGPR c/2, and d16_hi_x uses the high half of the one VGPR; a load
// leaves the halves it does not write unchanged (GFX9's d16 loads preserve
// the unused bits). Loads convert each component to 16 bits: formats that
// produce floats give f16 (f32 rounded to nearest even; 16-bit FLOAT is the
// stored bits), uint and sint the low 16 bits of the 32-bit integer; a
// missing w reads f16 1.0 or integer 1. Stores take f16 for float formats
// (converted to f32, then as above) and 16-bit integers (zero- or
// sign-extended) for uint/sint.

// op.imm for format accesses: component count in bits 2:0, fmtTBuffer when
// the format is the instruction's, fmtD16 and fmtD16Hi for the d16 forms,
// and MTBUF's DFMT | NFMT<<4 in bits 15:8.
const (
	fmtTBuffer = 1 << 3
	fmtD16     = 1 << 4
	fmtD16Hi   = 1 << 5
)

// bufFormats maps DFMT to (bits per component, components) for the
// formats whose components sit at consecutive addresses.
var bufFormats = [16][2]uint32{1: {8, 1}, 2: {16, 1}, 3: {8, 2}, 4: {32, 1}, 5: {16, 2}, 10: {8, 4}, 11: {32, 2}, 12: {16, 4}, 13: {32, 3}, 14: {32, 4}}

// packedFormats gives, for the packed DFMTs, each component's width from
// bit 0 up (x first).
var packedFormats = [16][]uint32{6: {11, 11, 10}, 7: {10, 11, 11}, 8: {2, 10, 10, 10}, 9: {10, 10, 10, 2}}

func init() {
	for n, suf := range []string{"x", "xy", "xyz", "xyzw"} {
		for _, pre := range []string{"buffer", "tbuffer"} {
			imm := uint32(n + 1)
			if pre == "tbuffer" {
				imm |= fmtTBuffer
			}
			for _, d16 := range []string{"", "d16_"} {
				i := imm
				if d16 != "" {
					i |= fmtD16
				}
				defM(pre+"_load_format_"+d16+suf, "", formatLoad)
				memImm[pre+"_load_format_"+d16+suf] = i
				defM(pre+"_store_format_"+d16+suf, "", formatStore)
				memImm[pre+"_store_format_"+d16+suf] = i
			}
		}
	}
	for _, name := range []string{"buffer_load_format_d16_hi_x", "buffer_store_format_d16_hi_x"} {
		if name == "buffer_load_format_d16_hi_x" {
			defM(name, "", formatLoad)
		} else {
			defM(name, "", formatStore)
		}
		memImm[name] = 1 | fmtD16 | fmtD16Hi
	}
}

// bufFormat returns the access's DFMT and NFMT.
func bufFormat(o *op, v *[4]uint32) (dfmt, nfmt uint32) {
	if o.imm&fmtTBuffer != 0 {
		return o.imm >> 8 & 0xF, o.imm >> 12 & 7
	}
	return v[3] >> 15 & 0xF, v[3] >> 12 & 7
}

// fmtLayout is a format's component layout: bits[c] wide components,
// either packed into one dword (packed) or at byte offsets c·bits/8.
type fmtLayout struct {
	packed bool
	n      uint32
	bits   [4]uint32
	shift  [4]uint32
}

func formatLayout(w *wave, o *op, dfmt, nfmt uint32) (l fmtLayout) {
	if p := packedFormats[dfmt]; p != nil {
		l.packed, l.n = true, uint32(len(p))
		sh := uint32(0)
		for c, b := range p {
			l.bits[c], l.shift[c] = b, sh
			sh += b
		}
		if nfmt == 7 && (dfmt >= 8) {
			formatUnsupported(w, o, dfmt, nfmt)
		}
	} else {
		b, n := bufFormats[dfmt][0], bufFormats[dfmt][1]
		if b == 0 || (nfmt == 7 && b == 8) {
			formatUnsupported(w, o, dfmt, nfmt)
		}
		l.n = n
		for c := uint32(0); c < n; c++ {
			l.bits[c], l.shift[c] = b, c*b/8 // shift holds the byte offset
		}
	}
	if nfmt == 6 {
		formatUnsupported(w, o, dfmt, nfmt)
	}
	return l
}

func formatUnsupported(w *wave, o *op, dfmt, nfmt uint32) {
	name := "buffer"
	if o.imm&fmtTBuffer != 0 {
		name = "tbuffer"
	}
	panic(&Fault{Kind: FaultUnimplemented, PC: w.curPC, Lane: -1,
		Detail: fmt.Sprintf("%s format access with DFMT %d NFMT %d: %v", name, dfmt, nfmt, ErrNotSupported),
		err:    ErrNotSupported})
}

// fmtIsFloat reports whether loads in numeric format nfmt produce floats.
func fmtIsFloat(nfmt uint32) bool { return nfmt <= 3 || nfmt == 7 }

// formatHalf returns the 16-bit register half of a component for the d16
// forms from its 32-bit register value r (see formatToReg); raw is the
// component's stored bits (16-bit FLOAT keeps them).
func formatHalf(r, raw, bits, nfmt uint32) uint32 {
	switch {
	case nfmt == 7 && bits == 16:
		return raw & 0xFFFF
	case fmtIsFloat(nfmt):
		return uint32(f16from64(float64(f32(r)), 0))
	}
	return r & 0xFFFF
}

// formatFromHalf widens a d16 store's 16-bit half h to the 32-bit register
// value regToFormat takes.
func formatFromHalf(h, nfmt uint32) uint32 {
	switch {
	case fmtIsFloat(nfmt):
		return u32(float32(f16to64(uint16(h))))
	case nfmt == 5:
		return uint32(int32(int16(h)))
	}
	return h
}

func formatLoad(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	dfmt, nfmt := bufFormat(o, &v)
	lay := formatLayout(w, o, dfmt, nfmt)
	n := int(o.imm & 7)
	d16, hi := o.imm&fmtD16 != 0, o.imm&fmtD16Hi != 0
	voff, vidx := w.mubufVaddr(o)
	nregs := n
	if d16 {
		nregs = (n + 1) / 2
	}
	d := w.regs(&o.dst, nregs)
	toFloat := fmtIsFloat(nfmt)
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var word uint32
		wordOK := false
		if lay.packed {
			var a uint64
			a, wordOK = w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), 0)
			if wordOK {
				word = w.read(o, l, a, 4)
			}
		}
		for c := 0; c < n; c++ {
			var r, raw uint32
			switch {
			case uint32(c) >= lay.n:
				if c == 3 {
					r, raw = 1, 1
					if toFloat {
						r, raw = 0x3F800000, 0x3C00
					}
				}
			case lay.packed:
				if wordOK {
					raw = word >> lay.shift[c] & (1<<lay.bits[c] - 1)
					r = formatToReg(raw, lay.bits[c], nfmt)
				}
			default:
				bytes := lay.bits[c] / 8
				if a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), lay.shift[c]); ok {
					raw = w.read(o, l, a, int(bytes))
					r = formatToReg(raw, lay.bits[c], nfmt)
				}
			}
			if !d16 {
				d[c][l] = r
				continue
			}
			h := formatHalf(r, raw, lay.bits[c], nfmt)
			if uint32(c) >= lay.n && c == 3 && !toFloat {
				h = 1
			}
			reg := d[c/2]
			if c%2 == 1 || hi {
				reg[l] = reg[l]&0xFFFF | h<<16
			} else {
				reg[l] = reg[l]&0xFFFF0000 | h
			}
		}
	}
}

func formatStore(w *wave, o *op) {
	exec := w.exec()
	v := w.vsharp(o)
	dfmt, nfmt := bufFormat(o, &v)
	lay := formatLayout(w, o, dfmt, nfmt)
	n := min(int(o.imm&7), int(lay.n))
	d16, hi := o.imm&fmtD16 != 0, o.imm&fmtD16Hi != 0
	voff, vidx := w.mubufVaddr(o)
	nregs := n
	if d16 {
		nregs = (n + 1) / 2
	}
	s := w.regs(&o.src[2], nregs)
	comp := func(c, l int) uint32 {
		if !d16 {
			return s[c][l]
		}
		x := s[c/2][l]
		if c%2 == 1 || hi {
			x >>= 16
		}
		return formatFromHalf(x&0xFFFF, nfmt)
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		if lay.packed {
			a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), 0)
			if !ok {
				continue
			}
			word := uint32(0)
			if n < int(lay.n) {
				// Components the instruction does not write keep their
				// stored bits (the dword is read, merged and written back).
				word = w.read(o, l, a, 4)
			}
			for c := 0; c < n; c++ {
				m := uint32(1)<<lay.bits[c] - 1
				word = word&^(m<<lay.shift[c]) | regToFormat(comp(c, l), lay.bits[c], nfmt)<<lay.shift[c]
			}
			w.write(o, l, a, 4, word)
			continue
		}
		for c := 0; c < n; c++ {
			if a, ok := w.mubufAddr(o, &v, l, lane32(voff, l), lane32(vidx, l), lay.shift[c]); ok {
				w.write(o, l, a, int(lay.bits[c]/8), regToFormat(comp(c, l), lay.bits[c], nfmt))
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
		switch bits {
		case 16:
			return u32(float32(f16to64(uint16(x))))
		case 11, 10:
			return u32(float32(ufloatTo64(x, bits-5)))
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
		switch bits {
		case 16:
			return uint32(f16from64(f, 0))
		case 11, 10:
			return ufloatFrom64(f, bits-5)
		}
		return r
	}
	return r & mask
}

// ufloatTo64 decodes an unsigned small float (packed R11G11B10F): 5-bit
// exponent with bias 15 above mbits of mantissa; exponent 0 is subnormal,
// 31 is Inf (mantissa 0) or NaN.
func ufloatTo64(x, mbits uint32) float64 {
	e := x >> mbits & 31
	m := float64(x & (1<<mbits - 1))
	switch e {
	case 0:
		return math.Ldexp(m, -14-int(mbits))
	case 31:
		if m == 0 {
			return math.Inf(1)
		}
		return math.NaN()
	}
	return math.Ldexp(m+float64(int(1)<<mbits), int(e)-15-int(mbits))
}

// ufloatFrom64 encodes f as an unsigned small float, rounding to nearest
// even: negative values and -0 give 0, NaN the quiet NaN pattern (all
// exponent and mantissa bits set), values beyond the largest finite value
// round to Inf as IEEE rounding does.
func ufloatFrom64(f float64, mbits uint32) uint32 {
	switch {
	case f != f:
		return 31<<mbits | (1<<mbits - 1)
	case !(f > 0):
		return 0
	case math.IsInf(f, 1):
		return 31 << mbits
	}
	fr, exp := math.Frexp(f) // f = fr · 2^exp, fr in [0.5, 1)
	e := exp - 1 + 15        // biased exponent of 1.m form
	if e < 1 {
		// Subnormal: units of 2^(-14-mbits).
		q := uint32(math.RoundToEven(math.Ldexp(f, 14+int(mbits))))
		return q // q == 1<<mbits rounds up to the smallest normal, same bits
	}
	q := uint64(math.RoundToEven(math.Ldexp(fr, int(mbits)+1))) // in [2^mbits, 2^(mbits+1)]
	if q == 1<<(mbits+1) {
		q >>= 1
		e++
	}
	if e >= 31 {
		return 31 << mbits
	}
	return uint32(e)<<mbits | uint32(q)&(1<<mbits-1)
}
