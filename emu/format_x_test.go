package emu

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// formatRig is a wave with a 256-byte buffer behind the V# in s[8:11] and
// per-lane byte offsets in v0 (lane 0: 0, lane 1: 16).
type formatRig struct {
	t   *testing.T
	w   *wave
	buf Region
}

func newFormatRig(t *testing.T) *formatRig {
	w := testWave(t)
	buf := w.r.dev.cfg.Memory.(*testMem).alloc(t, 256, false)
	w.setExec(0x3)
	w.v[0], w.v[1] = 0, 16
	return &formatRig{t, w, buf}
}

func (r *formatRig) vsharp(dfmt, nfmt uint32) {
	r.w.s[8], r.w.s[9], r.w.s[10], r.w.s[11] = uint32(r.buf.Base), uint32(r.buf.Base>>32)&0xFFFF, 256, dfmt<<15|nfmt<<12
}

// load runs a format load into v[4:7] (preset to fill) and returns lane 0's
// registers.
func (r *formatRig) load(name string, imm, fill uint32) [4]uint32 {
	for i := 4; i < 8; i++ {
		r.w.v[i*64], r.w.v[i*64+1] = fill, fill
	}
	exec1(r.t, r.w, name, &op{dst: v(4), src: [3]operand{v(0), s(8)}, sdst: k(0), flags: fOffen, imm: imm})
	var out [4]uint32
	for c := range out {
		out[c] = r.w.v[(4+c)*64]
	}
	return out
}

// store runs a format store from v[8:11] (lane 0's values; lane 1 stores
// at offset 16).
func (r *formatRig) store(name string, imm uint32, vals ...uint32) {
	for i, x := range vals {
		r.w.v[(8+i)*64], r.w.v[(8+i)*64+1] = x, x
	}
	exec1(r.t, r.w, name, &op{src: [3]operand{v(0), s(8), v(8)}, sdst: k(0), flags: fOffen, imm: imm})
}

func fbits(x float64) uint32 { return math.Float32bits(float32(x)) }

// TestBufferFormatsPacked: the packed formats, component by component, with
// values worked out from the formats' definitions (MSB-first names; the
// 11/10-bit floats of R11G11B10F: 1.0 = exponent 15 = 0x3C0 in 11 bits,
// 0x1E0 in 10).
func TestBufferFormatsPacked(t *testing.T) {
	r := newFormatRig(t)
	le := binary.LittleEndian
	put := func(x uint32) { le.PutUint32(r.buf.Data[0:], x) }
	check := func(what string, got [4]uint32, want ...uint32) {
		t.Helper()
		for c, x := range want {
			if got[c] != x {
				t.Errorf("%s comp %d = %#x, want %#x", what, c, got[c], x)
			}
		}
	}

	// 2_10_10_10 unorm: x = 1023, y = 0, z = 512, w = 2 (bits 31:30).
	put(1023 | 0<<10 | 512<<20 | 2<<30)
	r.vsharp(9, 0)
	check("2_10_10_10 unorm", r.load("buffer_load_format_xyzw", 4, 0), fbits(1), 0, fbits(512.0/1023), fbits(2.0/3))
	// 10_10_10_2 uint and sint: x is the 2 low bits.
	put(3 | 5<<2 | 1023<<12 | 512<<22)
	r.vsharp(8, 4)
	check("10_10_10_2 uint", r.load("buffer_load_format_xyzw", 4, 0), 3, 5, 1023, 512)
	r.vsharp(8, 5)
	check("10_10_10_2 sint", r.load("buffer_load_format_xyzw", 4, 0), 0xFFFFFFFF, 5, 0xFFFFFFFF, 0xFFFFFE00)
	// 2_10_10_10 sscaled and snorm: x = -512 (0x200) -> -512 and -1 (clamped).
	put(0x200 | 1<<10 | 0x3FF<<20 | 1<<30)
	r.vsharp(9, 3)
	check("2_10_10_10 sscaled", r.load("buffer_load_format_xyzw", 4, 0), fbits(-512), fbits(1), fbits(-1), fbits(1))
	r.vsharp(9, 1)
	check("2_10_10_10 snorm", r.load("buffer_load_format_xyzw", 4, 0), fbits(-1), fbits(1.0/511), fbits(-1.0/511), fbits(1))
	// 10_11_11 float: x (11 bits) 1.0, y (11) 2.5 = 1.25·2 (exp 16, mant 16),
	// z (10 bits) 0.5 (exp 14); xyzw reads w = 1.0.
	put(0x3C0 | 0x410<<11 | 0x1C0<<22)
	r.vsharp(6, 7)
	check("10_11_11 float", r.load("buffer_load_format_xyzw", 4, 0), fbits(1), fbits(2.5), fbits(0.5), fbits(1))
	// Inf (exp 31, mant 0), NaN, smallest subnormal 2^-20 (11 bits), 2^-19 (10).
	put(0x7C0 | 0x7C1<<11 | 1<<22)
	got := r.load("buffer_load_format_xyz", 3, 0)
	if got[0] != 0x7F800000 || !math.IsNaN(float64(math.Float32frombits(got[1]))) || got[2] != fbits(0x1p-19) {
		t.Errorf("10_11_11 Inf/NaN/subnormal = %#x", got[:3])
	}
	// 11_11_10 float: x is the 10-bit one.
	put(0x1C0 | 0x3C0<<10 | 0x410<<21)
	r.vsharp(7, 7)
	check("11_11_10 float", r.load("buffer_load_format_xyz", 3, 0), fbits(0.5), fbits(1), fbits(2.5))

	// Stores.
	r.vsharp(6, 7)
	r.store("buffer_store_format_xyz", 3, fbits(1), fbits(2.5), fbits(0.5))
	if x := le.Uint32(r.buf.Data[0:]); x != 0x3C0|0x410<<11|0x1C0<<22 {
		t.Errorf("10_11_11 float store = %#x", x)
	}
	for _, c := range []struct {
		f    float64
		want uint32 // 11-bit x
	}{
		{-3, 0}, {65024, 0x7BF}, {1e6, 0x7C0}, {math.NaN(), 0x7FF},
		{1 + 1.0/128, 0x3C0}, // halfway between mantissas 0 and 1: even
		{1 + 3.0/128, 0x3C2}, // halfway between 1 and 2: even
		{0x1p-20, 1}, {0x1p-21, 0}, {3 * 0x1p-21, 2},
	} {
		r.store("buffer_store_format_x", 1, fbits(c.f))
		if x := le.Uint32(r.buf.Data[0:]) & 0x7FF; x != c.want {
			t.Errorf("10_11_11 store x = %g: %#x, want %#x", c.f, x, c.want)
		}
	}
	// 2_10_10_10 snorm store: 1 -> 511, -1 -> -511 (0x201), 0.5 -> 255.5 ->
	// 256 (even), w = -1 -> 3 (2-bit -1).
	r.vsharp(9, 1)
	r.store("buffer_store_format_xyzw", 4, fbits(1), fbits(-1), fbits(0.5), fbits(-1))
	if x, want := le.Uint32(r.buf.Data[0:]), uint32(0x1FF|0x201<<10|0x100<<20|3<<30); x != want {
		t.Errorf("2_10_10_10 snorm store = %#x, want %#x", x, want)
	}
	// Storing x alone keeps y, z, w.
	r.vsharp(9, 4)
	r.store("buffer_store_format_x", 1, 7)
	if x, want := le.Uint32(r.buf.Data[0:]), uint32(7|0x201<<10|0x100<<20|3<<30); x != want {
		t.Errorf("2_10_10_10 uint x store = %#x, want %#x", x, want)
	}
	// Out of range (num_records 8 < offset 16 for lane 1): not loaded, not stored.
	r.w.s[10] = 8
	le.PutUint32(r.buf.Data[16:], 0x12345678)
	r.store("buffer_store_format_xyzw", 4, 1, 2, 3, 1)
	if x := le.Uint32(r.buf.Data[16:]); x != 0x12345678 {
		t.Errorf("out-of-range packed store wrote %#x", x)
	}
	exec1(t, r.w, "buffer_load_format_xyzw", &op{dst: v(4), src: [3]operand{v(0), s(8)}, sdst: k(0), flags: fOffen, imm: 4})
	if r.w.v[4*64+1] != 0 || r.w.v[7*64+1] != 0 {
		t.Errorf("out-of-range packed load: %#x %#x", r.w.v[4*64+1], r.w.v[7*64+1])
	}
}

// TestBufferFormatsD16: GFX9's packed d16 forms, two components per VGPR.
func TestBufferFormatsD16(t *testing.T) {
	r := newFormatRig(t)
	le := binary.LittleEndian
	// 16_16_16_16 float: halves are the stored bits.
	for i, h := range []uint16{0x3C00, 0xC000, 0x7E00, 0x0001} {
		le.PutUint16(r.buf.Data[2*i:], h)
	}
	r.vsharp(12, 7)
	if got := r.load("buffer_load_format_d16_xyzw", 4|fmtD16, 0xDEADBEEF); got[0] != 0xC0003C00 || got[1] != 0x00017E00 || got[2] != 0xDEADBEEF {
		t.Errorf("d16_xyzw float16 = %#x", got)
	}
	// 8_8_8_8 unorm: 255 -> f16 1.0 (0x3C00), 51 -> 0.2 -> 0x3266.
	copy(r.buf.Data[0:], []byte{255, 51, 0, 0})
	r.vsharp(10, 0)
	if got := r.load("buffer_load_format_d16_xy", 2|fmtD16, 0xDEADBEEF); got[0] != 0x32663C00 || got[1] != 0xDEADBEEF {
		t.Errorf("d16_xy unorm8888 = %#x", got)
	}
	// d16_x keeps the high half; d16_hi_x keeps the low half.
	le.PutUint16(r.buf.Data[0:], 0xFFFE)
	r.vsharp(2, 4) // 16 uint
	if got := r.load("buffer_load_format_d16_x", 1|fmtD16, 0xDEADBEEF); got[0] != 0xDEADFFFE {
		t.Errorf("d16_x uint16 = %#x", got[0])
	}
	r.vsharp(1, 5) // 8 sint: 0xFE = -2 -> 0xFFFE
	if got := r.load("buffer_load_format_d16_hi_x", 1|fmtD16|fmtD16Hi, 0xDEADBEEF); got[0] != 0xFFFEBEEF {
		t.Errorf("d16_hi_x sint8 = %#x", got[0])
	}
	// One-component format read as xyzw: y, z = 0, w = 1 (f16 1.0 for floats).
	r.vsharp(2, 7)
	le.PutUint16(r.buf.Data[0:], 0x4200)
	if got := r.load("buffer_load_format_d16_xyzw", 4|fmtD16, 0); got[0] != 0x4200 || got[1] != 0x3C000000 {
		t.Errorf("d16_xyzw float16 x only = %#x", got[:2])
	}
	r.vsharp(2, 4)
	if got := r.load("buffer_load_format_d16_xyzw", 4|fmtD16, 0); got[1] != 0x10000 {
		t.Errorf("d16_xyzw uint16 x only: w = %#x", got[1])
	}
	// d16_xyz: the second VGPR's high half is kept.
	if got := r.load("buffer_load_format_d16_xyz", 3|fmtD16, 0xDEADBEEF); got[0] != 0x4200 || got[1] != 0xDEAD0000 {
		t.Errorf("d16_xyz = %#x", got[:2])
	}
	// Packed format through d16: 2_10_10_10 unorm, x = 1023 -> 1.0, w = 3 -> 1.0.
	le.PutUint32(r.buf.Data[0:], 1023|3<<30)
	r.vsharp(9, 0)
	if got := r.load("buffer_load_format_d16_xyzw", 4|fmtD16, 0); got[0] != 0x3C00 || got[1] != 0x3C000000 {
		t.Errorf("d16_xyzw 2_10_10_10 unorm = %#x", got[:2])
	}

	// Stores: 16_16 unorm from f16 1.0 and 0.5 -> 0xFFFF and 32767.5 -> 32768.
	r.vsharp(5, 0)
	r.store("buffer_store_format_d16_xy", 2|fmtD16, 0x38003C00)
	if a, b := le.Uint16(r.buf.Data[0:]), le.Uint16(r.buf.Data[2:]); a != 0xFFFF || b != 0x8000 {
		t.Errorf("d16_xy unorm16 store = %#x %#x", a, b)
	}
	// d16_hi_x to 16 sint: the high half 0x8001 (-32767).
	r.vsharp(2, 5)
	r.store("buffer_store_format_d16_hi_x", 1|fmtD16|fmtD16Hi, 0x80011234)
	if a := le.Uint16(r.buf.Data[0:]); a != 0x8001 {
		t.Errorf("d16_hi_x sint16 store = %#x", a)
	}
	// d16_x to 8 uint: low bits of the low half.
	r.vsharp(1, 4)
	r.store("buffer_store_format_d16_x", 1|fmtD16, 0xFFFF1234)
	if r.buf.Data[0] != 0x34 {
		t.Errorf("d16_x uint8 store = %#x", r.buf.Data[0])
	}
	// tbuffer d16 with the instruction's format: 10_11_11 float from f16
	// 1.0, 2.5 (0x4100), 0.5 (0x3800).
	r.store("tbuffer_store_format_d16_xyz", 3|fmtD16|fmtTBuffer|(6|7<<4)<<8, 0x41003C00, 0x3800)
	if x := le.Uint32(r.buf.Data[0:]); x != 0x3C0|0x410<<11|0x1C0<<22 {
		t.Errorf("tbuffer d16_xyz 10_11_11 store = %#x", x)
	}
}

// TestBufferFormatD16Decode: the d16 mnemonics reach the op with their
// flags (encodings from llvm-mc-15 -mcpu=gfx90a -show-encoding).
func TestBufferFormatD16Decode(t *testing.T) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		asm  string
		enc  []byte
		want uint32
	}{
		{"buffer_load_format_d16_hi_x v4, v0, s[8:11], 0 offen", []byte{0x00, 0x10, 0x98, 0xe0, 0x00, 0x04, 0x02, 0x80}, 1 | fmtD16 | fmtD16Hi},
		{"buffer_load_format_d16_xyz v[4:5], v0, s[8:11], 0 offen", []byte{0x00, 0x10, 0x28, 0xe0, 0x00, 0x04, 0x02, 0x80}, 3 | fmtD16},
		{"tbuffer_store_format_d16_xyzw v[4:5], v0, s[8:11], 0 format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM] offen",
			[]byte{0x00, 0x90, 0xcf, 0xe8, 0x00, 0x04, 0x02, 0x80}, 4 | fmtD16 | fmtTBuffer | (9|1<<4)<<8},
	} {
		in, err := isa.Decode(tg, c.enc)
		if err != nil {
			t.Fatalf("%s: %v", c.asm, err)
		}
		o, err := buildOp(&in)
		if err != nil {
			t.Fatalf("%s: %v", c.asm, err)
		}
		if o.imm != c.want {
			t.Errorf("%s: imm %#x, want %#x", c.asm, o.imm, c.want)
		}
	}
}
