package emu

import (
	"errors"
	"math"
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// TestBufferFormats loads and stores through buffer_*_format_* (format from
// the V#) and tbuffer_*_format_* (format from the instruction) for the
// common formats, against the Vega ISA guide's conversions.
func TestBufferFormats(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 256, false)
	w.setExec(0x3)
	vsharp := func(dfmt, nfmt uint32, records uint32) {
		w.s[8], w.s[9], w.s[10], w.s[11] = uint32(buf.Base), uint32(buf.Base>>32)&0xFFFF, records, dfmt<<15|nfmt<<12
	}
	w.v[0], w.v[1] = 0, 16 // byte offsets per lane
	load := func(name string, imm uint32) [4][2]uint32 {
		for r := 4; r < 8; r++ {
			w.v[r*64], w.v[r*64+1] = 0xDEAD, 0xDEAD
		}
		exec1(t, w, name, &op{dst: v(4), src: [3]operand{v(0), s(8)}, sdst: k(0), flags: fOffen, imm: imm})
		var out [4][2]uint32
		for c := 0; c < 4; c++ {
			out[c] = [2]uint32{w.v[(4+c)*64], w.v[(4+c)*64+1]}
		}
		return out
	}
	f := func(x float32) uint32 { return math.Float32bits(x) }

	// 8_8_8_8 unorm: bytes 0, 255, 51, 128 -> 0, 1, 0.2, 128/255.
	copy(buf.Data[0:], []byte{0, 255, 51, 128})
	copy(buf.Data[16:], []byte{1, 2, 3, 4})
	vsharp(10, 0, 256)
	got := load("buffer_load_format_xyzw", 4)
	want := [4]uint32{f(0), f(1), f(float32(51.0 / 255)), f(float32(128.0 / 255))}
	for c := range want {
		if got[c][0] != want[c] {
			t.Errorf("unorm8888 lane 0 comp %d = %#x, want %#x", c, got[c][0], want[c])
		}
	}
	// Same bytes as sint via the instruction's format (tbuffer): 1, 2, 3, 4.
	got = load("tbuffer_load_format_xyzw", 4|fmtTBuffer|(10|5<<4)<<8)
	for c := 0; c < 4; c++ {
		if got[c][1] != uint32(c+1) {
			t.Errorf("tbuffer sint8888 lane 1 comp %d = %#x", c, got[c][1])
		}
	}
	// 8 snorm: 0x80 -> -1 (clamped), 0x81 -> -1, 0x7f -> 1.
	copy(buf.Data[0:], []byte{0x80})
	copy(buf.Data[16:], []byte{0x7f})
	vsharp(1, 1, 256)
	got = load("buffer_load_format_xyzw", 4)
	if got[0][0] != f(-1) || got[0][1] != f(1) || got[1][0] != 0 || got[2][0] != 0 || got[3][0] != f(1) {
		t.Errorf("snorm8 xyzw = %#x", got)
	}
	// 16_16 float: f16 1.5, -2 -> f32; w of a 2-component format is 1.0.
	le.PutUint16(buf.Data[0:], 0x3E00)
	le.PutUint16(buf.Data[2:], 0xC000)
	vsharp(5, 7, 256)
	got = load("buffer_load_format_xyzw", 4)
	if got[0][0] != f(1.5) || got[1][0] != f(-2) || got[2][0] != 0 || got[3][0] != f(1) {
		t.Errorf("float16_16 = %#x", got)
	}
	// 32 uint with w of a 1-component uint format: integer 1.
	vsharp(4, 4, 256)
	le.PutUint32(buf.Data[16:], 0xCAFEBABE)
	got = load("buffer_load_format_xyzw", 4)
	if got[0][1] != 0xCAFEBABE || got[3][1] != 1 {
		t.Errorf("uint32 = %#x", got)
	}
	// Out of range (num_records 16): lane 1's components read 0.
	vsharp(14, 4, 16)
	got = load("buffer_load_format_xy", 2)
	if got[0][1] != 0 || got[1][1] != 0 || got[2][1] != 0xDEAD {
		t.Errorf("out of range = %#x", got)
	}

	// Stores: 8_8_8_8 unorm of 0.5, 2 (clamps to 1), -1 (0), 0.2.
	for i := range buf.Data {
		buf.Data[i] = 0xAA
	}
	w.v[8*64], w.v[9*64], w.v[10*64], w.v[11*64] = f(0.5), f(2), f(-1), f(0.2)
	w.v[8*64+1], w.v[9*64+1], w.v[10*64+1], w.v[11*64+1] = f(1), f(1), f(1), f(1)
	vsharp(10, 0, 256)
	exec1(t, w, "buffer_store_format_xyzw", &op{src: [3]operand{v(0), s(8), v(8)}, sdst: k(0), flags: fOffen, imm: 4})
	if g := buf.Data[0:4]; g[0] != 128 || g[1] != 255 || g[2] != 0 || g[3] != 51 {
		t.Errorf("unorm8888 store = %v", g)
	}
	// 16_16 float via tbuffer, xyzw: only two components written.
	exec1(t, w, "tbuffer_store_format_xyzw", &op{src: [3]operand{v(0), s(8), v(8)}, sdst: k(0), flags: fOffen, imm: 4 | fmtTBuffer | (5|7<<4)<<8})
	if le.Uint16(buf.Data[0:]) != 0x3800 || le.Uint16(buf.Data[2:]) != 0x4000 || buf.Data[4] != 0xAA {
		t.Errorf("float16_16 store = %x", buf.Data[:8])
	}
	// 16 sint stores the low 16 bits.
	w.v[8*64] = 0x12345
	exec1(t, w, "tbuffer_store_format_x", &op{src: [3]operand{v(0), s(8), v(8)}, sdst: k(0), flags: fOffen, imm: 1 | fmtTBuffer | (2|5<<4)<<8})
	if le.Uint16(buf.Data[0:]) != 0x2345 {
		t.Errorf("sint16 store = %x", buf.Data[:4])
	}

	// FLOAT with 2- and 10-bit components, and NFMT 6, fault as not
	// supported (format_x_test.go tests the packed formats).
	for _, f := range [][2]uint32{{9, 7}, {8, 7}, {1, 7}, {10, 6}} {
		vsharp(f[0], f[1], 256)
		func() {
			defer func() {
				flt, ok := recover().(*Fault)
				if !ok || !errors.Is(flt, ErrNotSupported) {
					t.Errorf("DFMT %d NFMT %d: %v", f[0], f[1], flt)
				}
			}()
			load("buffer_load_format_xyzw", 4)
		}()
	}
}

// TestTBufferDecode checks that an MTBUF instruction's DFMT/NFMT reach the
// op (encoding from llvm-mc-15 -mcpu=gfx90a -show-encoding of
// "tbuffer_load_format_xyzw v[4:7], v0, s[8:11], 0
// format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_SINT] offen").
func TestTBufferDecode(t *testing.T) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	in, err := isa.Decode(tg, []byte{0x00, 0x90, 0xd1, 0xea, 0x00, 0x04, 0x02, 0x80})
	if err != nil {
		t.Fatal(err)
	}
	o, err := buildOp(&in)
	if err != nil {
		t.Fatal(err)
	}
	if want := uint32(4 | fmtTBuffer | (10|5<<4)<<8); o.imm != want || o.dst.idx != 4 || o.flags&fOffen == 0 {
		t.Errorf("imm %#x (want %#x), dst %d, flags %#x", o.imm, want, o.dst.idx, o.flags)
	}
	// "tbuffer_store_format_xy v[4:5], v0, s[8:11], s3
	// format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen offset:8"
	in, err = isa.Decode(tg, []byte{0x08, 0x90, 0xaa, 0xeb, 0x00, 0x04, 0x02, 0x03})
	if err != nil {
		t.Fatal(err)
	}
	if o, err = buildOp(&in); err != nil {
		t.Fatal(err)
	}
	if want := uint32(2 | fmtTBuffer | (5|7<<4)<<8); o.imm != want || o.src[2].idx != 4 || o.src[2].kind != kVGPR ||
		o.src[1].idx != 8 || o.sdst.idx != 3 || o.offset != 8 {
		t.Errorf("store: imm %#x (want %#x), data %+v, rsrc %+v, soffset %+v, offset %d", o.imm, want, o.src[2], o.src[1], o.sdst, o.offset)
	}
}
