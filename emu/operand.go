package emu

// Source operand types, used to materialise inline constants and literals
// in the width and format the instruction reads.
const (
	tI32  = 'i' // 32-bit integer (also b32)
	tF32  = 'f'
	tI64  = 'I'
	tF64  = 'F'
	tF16  = 'h'
	tI16  = 's'
	tPF16 = 'p' // packed 2 x f16
	tPI16 = 'q' // packed 2 x i16
	tPF32 = 'P' // packed 2 x f32 (a 64-bit register pair)
)

// inline float constants 240..248 in each format.
var (
	inlineF32 = [9]uint32{0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0x40800000, 0xC0800000, 0x3E22F983}
	inlineF64 = [9]uint64{0x3FE0000000000000, 0xBFE0000000000000, 0x3FF0000000000000, 0xBFF0000000000000, 0x4000000000000000, 0xC000000000000000, 0x4010000000000000, 0xC010000000000000, 0x3FC45F306DC9C882}
	inlineF16 = [9]uint16{0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118}
)

// constOperand materialises scalar operand code c (128..255; literal is the
// instruction's literal for 255) for a source of type t. ok is false for
// codes that are not constants.
func constOperand(c int, literal uint32, t byte) (operand, bool) {
	var iv int64
	switch {
	case c >= 128 && c <= 192:
		iv = int64(c - 128)
	case c >= 193 && c <= 208:
		iv = -int64(c - 192)
	case c >= 240 && c <= 248:
		i := c - 240
		switch t {
		case tF64, tI64:
			return operand{kind: kConst, val: inlineF64[i]}, true
		case tF16, tI16:
			return operand{kind: kConst, val: uint64(inlineF16[i])}, true
		case tPF16, tPI16:
			// Packed operands read inline constants splat to both halves.
			return operand{kind: kConst, val: uint64(inlineF16[i]) * 0x10001}, true
		case tPF32:
			return operand{kind: kConst, val: uint64(inlineF32[i]) * 0x1_0000_0001}, true
		}
		return operand{kind: kConst, val: uint64(inlineF32[i])}, true
	case c == 255:
		switch t {
		case tF64:
			return operand{kind: kConst, val: uint64(literal) << 32}, true
		case tF16, tI16:
			return operand{kind: kConst, val: uint64(literal & 0xFFFF)}, true
		case tPF32:
			return operand{kind: kConst, val: uint64(literal) * 0x1_0000_0001}, true
		}
		return operand{kind: kConst, val: uint64(literal)}, true
	case c == 235: // src_shared_base
		return operand{kind: kConst, val: SharedApertureBase}, true
	case c == 236: // src_shared_limit
		return operand{kind: kConst, val: SharedApertureBase | apertureLimitLow}, true
	case c == 237:
		return operand{kind: kConst, val: PrivateApertureBase}, true
	case c == 238:
		return operand{kind: kConst, val: PrivateApertureBase | apertureLimitLow}, true
	case c == 239: // pops_exiting_wave_id
		return operand{kind: kConst, val: 0}, true
	case c == 251:
		return operand{kind: kVCCZ}, true
	case c == 252:
		return operand{kind: kEXECZ}, true
	case c == 253:
		return operand{kind: kSCC}, true
	case c == 254:
		return operand{kind: kLDSDirect}, true
	default:
		return operand{}, false
	}
	switch t {
	case tI64, tF64:
		return operand{kind: kConst, val: uint64(iv)}, true
	case tI16, tF16:
		return operand{kind: kConst, val: uint64(uint16(iv))}, true
	case tPI16, tPF16:
		return operand{kind: kConst, val: uint64(uint16(iv)) * 0x10001}, true
	case tPF32:
		return operand{kind: kConst, val: uint64(uint32(iv)) * 0x1_0000_0001}, true
	}
	return operand{kind: kConst, val: uint64(uint32(iv))}, true
}

// scalarOperand resolves scalar operand code c (0..255) for type t.
func scalarOperand(c int, literal uint32, t byte) (operand, bool) {
	if c >= 0 && c < sNumRegs && c != 125 {
		return operand{kind: kSGPR, idx: uint16(c)}, true
	}
	return constOperand(c, literal, t)
}

// sread32 reads a scalar source as 32 bits.
func (w *wave) sread32(s *operand) uint32 {
	switch s.kind {
	case kSGPR:
		return w.s[s.idx]
	case kConst:
		// 64-bit constants (src_*_base) read as 32 bits give the low half.
		return uint32(s.val)
	case kSCC:
		return w.scc
	case kVCCZ:
		if w.vcc() == 0 {
			return 1
		}
		return 0
	case kEXECZ:
		if w.exec() == 0 {
			return 1
		}
		return 0
	case kVGPR:
		return w.v[int(s.idx)<<6] // lane 0 (only reached by misuse)
	}
	return 0
}

// sread64 reads a scalar source as 64 bits (an aligned SGPR pair).
func (w *wave) sread64(s *operand) uint64 {
	switch s.kind {
	case kSGPR:
		return uint64(w.s[s.idx]) | uint64(w.s[s.idx+1])<<32
	case kConst:
		return s.val
	}
	return uint64(w.sread32(s))
}

// swrite32 writes a scalar destination.
func (w *wave) swrite32(d *operand, v uint32) {
	if d.kind == kSGPR {
		w.s[d.idx] = v
	}
}

func (w *wave) swrite64(d *operand, v uint64) {
	if d.kind == kSGPR {
		w.s[d.idx] = uint32(v)
		w.s[d.idx+1] = uint32(v >> 32)
	}
}

// vsrc returns the 64 lanes of a 32-bit vector source: a VGPR's lanes, or
// a scalar broadcast into buf.
func (w *wave) vsrc(s *operand, buf *[64]uint32) []uint32 {
	switch s.kind {
	case kVGPR:
		i := int(s.idx) << 6
		return w.v[i : i+64 : i+64]
	case kAGPR:
		i := int(s.idx) << 6
		return w.a[i : i+64 : i+64]
	case kTmp:
		return w.tmp[s.idx][:]
	}
	v := w.sread32(s)
	if haveAVX2 {
		// Generic and 16-bit paths read inline constants this way once
		// per instruction (stencil: 10% of its profile as a Go loop).
		bcast32AVX2(buf, v)
		return buf[:]
	}
	for l := range buf {
		buf[l] = v
	}
	return buf[:]
}

// vsrc64 returns the low and high halves of a 64-bit vector source.
func (w *wave) vsrc64(s *operand, blo, bhi *[64]uint32) (lo, hi []uint32) {
	switch s.kind {
	case kVGPR:
		i := int(s.idx) << 6
		return w.v[i : i+64 : i+64], w.v[i+64 : i+128 : i+128]
	case kAGPR:
		i := int(s.idx) << 6
		return w.a[i : i+64 : i+64], w.a[i+64 : i+128 : i+128]
	}
	v := w.sread64(s)
	l32, h32 := uint32(v), uint32(v>>32)
	if haveAVX2 {
		bcast32AVX2(blo, l32)
		bcast32AVX2(bhi, h32)
		return blo[:], bhi[:]
	}
	for l := range blo {
		blo[l] = l32
		bhi[l] = h32
	}
	return blo[:], bhi[:]
}

// vdst returns the lanes of a vector destination register.
func (w *wave) vdst(d *operand) []uint32 {
	i := int(d.idx) << 6
	if d.kind == kAGPR {
		return w.a[i : i+64 : i+64]
	}
	if d.kind == kTmp {
		return w.tmp[d.idx][:]
	}
	return w.v[i : i+64 : i+64]
}

func (w *wave) vdst64(d *operand) (lo, hi []uint32) {
	i := int(d.idx) << 6
	if d.kind == kAGPR {
		return w.a[i : i+64 : i+64], w.a[i+64 : i+128 : i+128]
	}
	return w.v[i : i+64 : i+64], w.v[i+64 : i+128 : i+128]
}
