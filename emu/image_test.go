package emu

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// MIMG words llvm-mc-15 -triple=amdgcn-amd-amdhsa -show-encoding printed
// (gfx90a unless noted).
var (
	encImageLoad      = []byte{0x00, 0x1f, 0x00, 0xf0, 0x00, 0x04, 0x02, 0x00} // image_load v[4:7], v[0:1], s[8:15] dmask:0xf unorm
	encImageLoadMip   = []byte{0x00, 0x11, 0x04, 0xf0, 0x00, 0x04, 0x02, 0x00} // image_load_mip v4, v[0:2], s[8:15] dmask:0x1 unorm
	encImageStore     = []byte{0x00, 0x1f, 0x20, 0xf0, 0x00, 0x04, 0x02, 0x00} // image_store v[4:7], v[0:1], s[8:15] dmask:0xf unorm
	encImageSample    = []byte{0x00, 0x0f, 0x80, 0xf0, 0x00, 0x04, 0x82, 0x00} // image_sample v[4:7], v[0:1], s[8:15], s[16:19] dmask:0xf
	encImageSampleX   = []byte{0x00, 0x01, 0x80, 0xf0, 0x00, 0x04, 0x82, 0x00} // image_sample v4, v0, s[8:15], s[16:19] dmask:0x1
	encImageResinfo   = []byte{0x00, 0x1f, 0x38, 0xf0, 0x00, 0x04, 0x02, 0x00} // image_get_resinfo v[4:7], v0, s[8:15] dmask:0xf unorm
	encImageSampleD16 = []byte{0x00, 0x0f, 0x80, 0xf0, 0x00, 0x04, 0x82, 0x80} // image_sample v[4:5], v[0:1], s[8:15], s[16:19] dmask:0xf d16
	encImageLoadAcc   = []byte{0x00, 0x1f, 0x01, 0xf0, 0x00, 0x04, 0x02, 0x00} // image_load a[4:7], v[0:1], s[8:15] dmask:0xf unorm
	// gfx900 (gfx90a has neither):
	encImageSampleLZ = []byte{0x00, 0x01, 0x9c, 0xf0, 0x00, 0x04, 0x82, 0x00} // image_sample_lz v4, v[0:1], s[8:15], s[16:19] dmask:0x1
	encImageSampleL  = []byte{0x00, 0x05, 0x90, 0xf0, 0x00, 0x04, 0x82, 0x00} // image_sample_l v[4:5], v[0:2], s[8:15], s[16:19] dmask:0x5
)

func imageOp(t testing.TB, cpu string, enc []byte) *op {
	t.Helper()
	tg, err := isa.LookupTarget(cpu)
	if err != nil {
		t.Fatal(err)
	}
	in, err := isa.Decode(tg, enc)
	if err != nil {
		t.Fatal(err)
	}
	o, err := buildOp(&in)
	if err != nil {
		t.Fatalf("%s: %v", in.String(), err)
	}
	return o
}

// TestImageBuild checks the operands buildOp resolves for MIMG and that the
// modifiers rocpu does not implement are refused when decoded.
func TestImageBuild(t *testing.T) {
	o := imageOp(t, "gfx90a", encImageLoad)
	if o.imm != 0xf|imgUnorm || o.src[0] != v(0) || o.src[1] != s(8) || o.dst != v(4) || o.flags&fImgMip != 0 {
		t.Errorf("image_load: imm %#x src %+v dst %+v flags %#x", o.imm, o.src, o.dst, o.flags)
	}
	if o := imageOp(t, "gfx90a", encImageLoadMip); o.imm != 1|imgUnorm || o.flags&fImgMip == 0 {
		t.Errorf("image_load_mip: imm %#x flags %#x", o.imm, o.flags)
	}
	if o := imageOp(t, "gfx90a", encImageSample); o.imm != 0xf || o.src[2] != s(16) || o.src[1] != s(8) {
		t.Errorf("image_sample: imm %#x src %+v", o.imm, o.src)
	}
	if o := imageOp(t, "gfx90a", encImageLoadAcc); o.dst.kind != kAGPR || o.dst.idx != 4 {
		t.Errorf("image_load a[4:7]: dst %+v", o.dst)
	}
	tg, _ := isa.LookupTarget("gfx90a")
	in, err := isa.Decode(tg, encImageSampleD16)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := buildOp(&in); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "d16") {
		t.Errorf("d16 image_sample: %v", err)
	}
	// image_load v4, v[0:1], s[8:15] unorm: dmask 0 (llvm-mc-15)
	in, err = isa.Decode(tg, []byte{0x00, 0x10, 0x00, 0xf0, 0x00, 0x04, 0x02, 0x00})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := buildOp(&in); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "dmask 0") {
		t.Errorf("dmask 0 image_load: %v", err)
	}
}

// Resource and sampler words built field by field from the GFX9 layouts
// (ops_image.go's comment).
func tsharpWords(base uint64, dfmt, nfmt, width, height, depth, pitch, typ uint32, sel [4]uint32) [8]uint32 {
	return [8]uint32{
		uint32(base >> 8),
		uint32(base>>40)&0xFF | dfmt<<20 | nfmt<<26,
		(width - 1) | (height-1)<<14,
		sel[0] | sel[1]<<3 | sel[2]<<6 | sel[3]<<9 | typ<<28,
		(depth - 1) | (pitch-1)<<13,
	}
}

func ssharpWords(clamp uint32, unnorm bool, filter uint32, border uint32) [4]uint32 {
	w := [4]uint32{clamp | clamp<<3 | clamp<<6, 4095 << 12, filter<<20 | filter<<22, border << 30}
	if unnorm {
		w[0] |= 1 << 15
	}
	return w
}

var (
	selXYZW = [4]uint32{4, 5, 6, 7}
	selR    = [4]uint32{4, 0, 0, 1}
)

func setImage(w *wave, t [8]uint32, smp [4]uint32) {
	copy(w.s[8:16], t[:])
	copy(w.s[16:20], smp[:])
}

func imgF(x float32) uint32 { return math.Float32bits(x) }

// TestImageLoadStore loads RGBA8 unorm texels, checks DST_SEL, dmask and
// out-of-range loads (0), and stores and reloads float texels.
func TestImageLoadStore(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	// 5x3 RGBA8 unorm, pitch 8 texels: texel (x, y) = {x, y, 255, 51}.
	for y := 0; y < 3; y++ {
		for x := 0; x < 5; x++ {
			copy(buf.Data[(y*8+x)*4:], []byte{byte(x), byte(y), 255, 51})
		}
	}
	setImage(w, tsharpWords(buf.Base, 10, 0, 5, 3, 1, 8, imgType2D, selXYZW), [4]uint32{})
	w.setExec(0x7)
	w.v[0*64+0], w.v[1*64+0] = 4, 2 // lane 0: (4, 2)
	w.v[0*64+1], w.v[1*64+1] = 5, 0 // lane 1: x out of range
	w.v[0*64+2], w.v[1*64+2] = 0, 3 // lane 2: y out of range
	o := imageOp(t, "gfx90a", encImageLoad)
	o.fn(w, o)
	want := [4]uint32{imgF(4.0 / 255), imgF(2.0 / 255), imgF(1), imgF(0.2)}
	for c := 0; c < 4; c++ {
		if got := w.v[(4+c)*64]; got != want[c] {
			t.Errorf("lane 0 channel %d = %#x, want %#x", c, got, want[c])
		}
		if w.v[(4+c)*64+1] != 0 || w.v[(4+c)*64+2] != 0 {
			t.Errorf("out-of-range lanes channel %d = %#x %#x, want 0", c, w.v[(4+c)*64+1], w.v[(4+c)*64+2])
		}
	}
	// BGRA-style swizzle and dmask 0x5 (x and z into v4, v5).
	setImage(w, tsharpWords(buf.Base, 10, 4, 5, 3, 1, 8, imgType2D, [4]uint32{6, 5, 4, 7}), [4]uint32{})
	o = imageOp(t, "gfx90a", encImageLoad)
	o.imm = 0x5 | imgUnorm
	w.v[6*64] = 0xDEAD
	o.fn(w, o)
	if w.v[4*64] != 255 || w.v[5*64] != 4 || w.v[6*64] != 0xDEAD {
		t.Errorf("uint swizzled dmask 0x5: %d %d %#x", w.v[4*64], w.v[5*64], w.v[6*64])
	}

	// Float R32 1D: store through dmask 0xf (only x is the format's), reload
	// with image_load_mip at level 0 and, beyond the one level, 0.
	setImage(w, tsharpWords(buf.Base+2048, 4, 7, 16, 1, 1, 16, imgType1D, selR), [4]uint32{})
	w.setExec(0x3)
	w.v[0], w.v[1] = 3, 15
	w.v[4*64], w.v[4*64+1] = imgF(2.5), imgF(-7)
	st := imageOp(t, "gfx90a", encImageStore)
	st.fn(w, st)
	if got := le.Uint32(buf.Data[2048+12:]); got != imgF(2.5) || le.Uint32(buf.Data[2048+60:]) != imgF(-7) || le.Uint32(buf.Data[2048+16:]) != 0 {
		t.Errorf("store wrote %#x at texel 3", got)
	}
	w.v[1*64], w.v[1*64+1] = 0, 1 // mip levels (after the one coordinate)
	lm := imageOp(t, "gfx90a", encImageLoadMip)
	lm.fn(w, lm)
	if w.v[4*64] != imgF(2.5) || w.v[4*64+1] != 0 {
		t.Errorf("load_mip = %#x %#x, want 2.5 and 0", w.v[4*64], w.v[4*64+1])
	}
	// R format: y and z read 0, w reads 1.0.
	o = imageOp(t, "gfx90a", encImageLoad)
	o.fn(w, o)
	if w.v[4*64] != imgF(2.5) || w.v[5*64] != 0 || w.v[6*64] != 0 || w.v[7*64] != imgF(1) {
		t.Errorf("R load xyzw = %#x %#x %#x %#x", w.v[4*64], w.v[5*64], w.v[6*64], w.v[7*64])
	}

	// Results into AGPRs (gfx90a acc).
	w.a = make([]uint32, 8*64)
	acc := imageOp(t, "gfx90a", encImageLoadAcc)
	acc.fn(w, acc)
	if w.a[4*64] != imgF(2.5) || w.a[7*64] != imgF(1) {
		t.Errorf("acc load = %#x .. %#x", w.a[4*64], w.a[7*64])
	}

	// A store whose dmask misses a format component faults.
	setImage(w, tsharpWords(buf.Base, 10, 0, 5, 3, 1, 8, imgType2D, selXYZW), [4]uint32{})
	st = imageOp(t, "gfx90a", encImageStore)
	st.imm = 0x7 | imgUnorm
	if f := catchFault(func() { st.fn(w, st) }); f == nil || !errors.Is(f, ErrNotSupported) {
		t.Errorf("store dmask 0x7 to RGBA: %v", f)
	}
}

// TestImageArrays reads 1D and 2D array layers (BASE_ARRAY offsets them)
// and 3D slices.
func TestImageArrays(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	for i := 0; i < 256; i++ {
		le.PutUint32(buf.Data[4*i:], uint32(i))
	}
	w.setExec(1)
	o := imageOp(t, "gfx90a", encImageLoad)
	o.imm = 1 | imgUnorm
	// 1D array, width 4, 3 layers, pitch 4: (x=1, layer=2) -> element 9.
	tw := tsharpWords(buf.Base, 4, 4, 4, 1, 3, 4, imgType1DArray, selR)
	setImage(w, tw, [4]uint32{})
	w.v[0], w.v[64] = 1, 2
	o.fn(w, o)
	if w.v[4*64] != 9 {
		t.Errorf("1D array (1, 2) = %d, want 9", w.v[4*64])
	}
	// 2D array 4x2, 3 layers, pitch 4, BASE_ARRAY 1: (3, 1, layer 1) ->
	// layer 2, element 2*8+4+3 = 23.
	tw = tsharpWords(buf.Base, 4, 4, 4, 2, 3, 4, imgType2DArray, selR)
	tw[5] = 1
	setImage(w, tw, [4]uint32{})
	w.v[0], w.v[64], w.v[128] = 3, 1, 1
	o.fn(w, o)
	if w.v[4*64] != 23 {
		t.Errorf("2D array (3, 1, 1) base_array 1 = %d, want 23", w.v[4*64])
	}
	// 3D 4x2x3: (2, 1, 2) -> 2*8+4+2 = 22; z = 3 is out of range.
	setImage(w, tsharpWords(buf.Base, 4, 4, 4, 2, 3, 4, imgType3D, selR), [4]uint32{})
	w.v[0], w.v[64], w.v[128] = 2, 1, 2
	o.fn(w, o)
	if w.v[4*64] != 22 {
		t.Errorf("3D (2, 1, 2) = %d, want 22", w.v[4*64])
	}
	w.v[128] = 3
	o.fn(w, o)
	if w.v[4*64] != 0 {
		t.Errorf("3D z out of range = %d, want 0", w.v[4*64])
	}
	// image_get_resinfo of the 3D resource: width, height, depth, levels.
	ri := imageOp(t, "gfx90a", encImageResinfo)
	w.v[0] = 0
	ri.fn(w, ri)
	if w.v[4*64] != 4 || w.v[5*64] != 2 || w.v[6*64] != 3 || w.v[7*64] != 1 {
		t.Errorf("resinfo = %d %d %d %d", w.v[4*64], w.v[5*64], w.v[6*64], w.v[7*64])
	}
}

// sampleAt runs the sample op for lane 0 at (x, y) and returns v4..v7.
func sampleAt(w *wave, o *op, x, y float32) [4]uint32 {
	w.setExec(1)
	w.v[0], w.v[64] = imgF(x), imgF(y)
	o.fn(w, o)
	return [4]uint32{w.v[4*64], w.v[5*64], w.v[6*64], w.v[7*64]}
}

// TestImageSamplePoint samples a 4x3 float image (texel (x, y) = 10y + x)
// with point filtering under each address mode, with unnormalized and
// normalized coordinates.
func TestImageSamplePoint(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	for y := 0; y < 3; y++ {
		for x := 0; x < 4; x++ {
			le.PutUint32(buf.Data[(y*4+x)*4:], imgF(float32(10*y+x)))
		}
	}
	tw := tsharpWords(buf.Base, 4, 7, 4, 3, 1, 4, imgType2D, selR)
	o := imageOp(t, "gfx90a", encImageSample)
	val := func(x, y int) uint32 { return imgF(float32(10*y + x)) }
	for _, c := range []struct {
		name   string
		clamp  uint32
		unnorm bool
		border uint32
		x, y   float32
		want   [4]uint32
	}{
		{"unnorm clamp inside", 2, true, 0, 2.5, 1.5, [4]uint32{val(2, 1), 0, 0, imgF(1)}},
		{"unnorm clamp texel edge", 2, true, 0, 3.0, 2.0, [4]uint32{val(3, 2), 0, 0, imgF(1)}},
		{"unnorm clamp left/below", 2, true, 0, -1.5, 7.5, [4]uint32{val(0, 2), 0, 0, imgF(1)}},
		{"unnorm clamp right", 2, true, 0, 9, -3, [4]uint32{val(3, 0), 0, 0, imgF(1)}},
		{"norm clamp", 2, false, 0, 0.3, 0.9, [4]uint32{val(1, 2), 0, 0, imgF(1)}},
		{"norm wrap", 0, false, 0, 1.3, -0.1, [4]uint32{val(1, 2), 0, 0, imgF(1)}},
		{"norm mirror", 1, false, 0, 1.3, 1.1, [4]uint32{val(2, 2), 0, 0, imgF(1)}},
		{"norm mirror negative", 1, false, 0, -0.1, 0.5, [4]uint32{val(0, 1), 0, 0, imgF(1)}},
		{"mirror once", 3, true, 0, -2.5, 5.5, [4]uint32{val(2, 2), 0, 0, imgF(1)}},
		{"border transparent black", 6, true, 0, 4.5, 1.5, [4]uint32{0, 0, 0, 0}},
		{"border opaque black", 6, true, 1, -0.5, 1.5, [4]uint32{0, 0, 0, imgF(1)}},
		{"border opaque white", 6, true, 2, 1.5, 3.5, [4]uint32{imgF(1), imgF(1), imgF(1), imgF(1)}},
		{"border inside", 6, true, 2, 1.5, 2.5, [4]uint32{val(1, 2), 0, 0, imgF(1)}},
		{"mirror once border", 7, true, 0, -1.5, 1.5, [4]uint32{val(1, 1), 0, 0, imgF(1)}},
		{"mirror once border past", 7, true, 0, -4.5, 1.5, [4]uint32{0, 0, 0, 0}},
		{"NaN reads as 0", 2, true, 0, float32(math.NaN()), 1.5, [4]uint32{val(0, 1), 0, 0, imgF(1)}},
	} {
		setImage(w, tw, ssharpWords(c.clamp, c.unnorm, 0, c.border))
		if got := sampleAt(w, o, c.x, c.y); got != c.want {
			t.Errorf("%s (%g, %g): %#x, want %#x", c.name, c.x, c.y, got, c.want)
		}
	}
	// The instruction's unorm bit overrides a normalized sampler.
	setImage(w, tw, ssharpWords(2, false, 0, 0))
	ou := imageOp(t, "gfx900", []byte{0x00, 0x1f, 0x80, 0xf0, 0x00, 0x04, 0x82, 0x00}) // image_sample ... dmask:0xf unorm
	if got := sampleAt(w, ou, 2.5, 1.5); got[0] != val(2, 1) {
		t.Errorf("unorm bit: %#x", got[0])
	}
}

// TestImageSampleOcklSnap samples every texel of several widths at the
// normalized coordinate ockl's point-sampling fix-up produces,
// floor(x·w)·rcp(w) in f32: the texture unit's 1/256 fixed point makes it
// land on texel x even where the f32 product is a hair below x.
func TestImageSampleOcklSnap(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4*1024, false)
	for i := 0; i < 1024; i++ {
		le.PutUint32(buf.Data[4*i:], uint32(i))
	}
	o := imageOp(t, "gfx90a", encImageSampleX)
	o.imm = 1
	below := 0
	for _, width := range []uint32{3, 7, 37, 100, 255, 641, 1000, 1023} {
		setImage(w, tsharpWords(buf.Base, 4, 4, width, 1, 1, width, imgType1D, selR), ssharpWords(2, false, 0, 0))
		rcp := float32(1 / float64(width))
		for x := uint32(0); x < width; x++ {
			s := float32(x) * rcp
			if float64(s)*float64(width) < float64(x) {
				below++
			}
			w.v[0] = imgF(s)
			o.fn(w, o)
			if w.v[4*64] != x {
				t.Fatalf("width %d texel %d: sampled %d", width, x, w.v[4*64])
			}
		}
	}
	if below == 0 {
		t.Error("no coordinate fell below its texel: the test does not exercise the fixed-point rounding")
	}
}

// TestImageSampleBilinear checks bilinear weights and edges.
func TestImageSampleBilinear(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	// 2x2 RG float: (x, y) -> {10y + x, 100}.
	for y := 0; y < 2; y++ {
		for x := 0; x < 2; x++ {
			le.PutUint32(buf.Data[(y*2+x)*8:], imgF(float32(10*y+x)))
			le.PutUint32(buf.Data[(y*2+x)*8+4:], imgF(100))
		}
	}
	tw := tsharpWords(buf.Base, 11, 7, 2, 2, 1, 2, imgType2D, [4]uint32{4, 5, 0, 1})
	o := imageOp(t, "gfx90a", encImageSample)
	for _, c := range []struct {
		name   string
		clamp  uint32
		unnorm bool
		x, y   float32
		want   float32
	}{
		{"centre", 2, true, 1, 1, 5.5},
		{"quarter", 2, true, 0.75, 0.5, 0.25},
		{"clamped edge", 2, true, 0.25, 0.25, 0},
		{"wrap", 0, false, 0, 0.25, 0.5},
		{"border", 6, true, 2, 0.5, 0.5},
	} {
		setImage(w, tw, ssharpWords(c.clamp, c.unnorm, 1, 0))
		got := sampleAt(w, o, c.x, c.y)
		if got[0] != imgF(c.want) {
			t.Errorf("%s (%g, %g): x = %g, want %g", c.name, c.x, c.y, math.Float32frombits(got[0]), c.want)
		}
	}
	setImage(w, tw, ssharpWords(2, true, 1, 0))
	if got := sampleAt(w, o, 1, 1); got[1] != imgF(100) || got[3] != imgF(1) {
		t.Errorf("y/w channels %#x", got)
	}
}

// TestImageSampleLZ runs the gfx900 forms without derivatives.
func TestImageSampleLZ(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	for i := 0; i < 16; i++ {
		le.PutUint32(buf.Data[4*i:], imgF(float32(i)))
	}
	setImage(w, tsharpWords(buf.Base, 4, 7, 4, 4, 1, 4, imgType2D, selR), ssharpWords(2, true, 0, 0))
	lz := imageOp(t, "gfx900", encImageSampleLZ)
	if got := sampleAt(w, lz, 1.5, 2.5); got[0] != imgF(9) {
		t.Errorf("sample_lz = %#x", got[0])
	}
	l := imageOp(t, "gfx900", encImageSampleL)
	w.v[128] = imgF(3) // LOD: one level, equal filters
	if got := sampleAt(w, l, 3.5, 0.5); got[0] != imgF(3) || got[1] != 0 {
		t.Errorf("sample_l dmask 0x5 = %#x", got)
	}
}

// TestImageUnsupported checks that resources and samplers outside what
// the engine implements fault as not supported, naming what.
func TestImageUnsupported(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 4096, false)
	good := tsharpWords(buf.Base, 4, 7, 4, 4, 1, 4, imgType2D, selR)
	o := imageOp(t, "gfx90a", encImageSample)
	w.setExec(1)
	for _, c := range []struct {
		want string
		t    func(*[8]uint32)
		s    [4]uint32
	}{
		{"SW_MODE 9", func(t *[8]uint32) { t[3] |= 9 << 20 }, ssharpWords(2, true, 0, 0)},
		{"mip levels 0..3", func(t *[8]uint32) { t[3] |= 3 << 16 }, ssharpWords(2, true, 0, 0)},
		{"TYPE 11 (cube)", func(t *[8]uint32) { t[3] = t[3]&^(0xF<<28) | 11<<28 }, ssharpWords(2, true, 0, 0)},
		{"TYPE 0 (a buffer", func(t *[8]uint32) { t[3] &^= 0xF << 28 }, ssharpWords(2, true, 0, 0)},
		{"DATA_FORMAT 15", func(t *[8]uint32) { t[1] = t[1]&^(0x3F<<20) | 15<<20 }, ssharpWords(2, true, 0, 0)},
		{"NUM_FORMAT 9", func(t *[8]uint32) { t[1] = t[1]&^(0xF<<26) | 9<<26 }, ssharpWords(2, true, 0, 0)},
		{"DST_SEL 2", func(t *[8]uint32) { t[3] = t[3]&^7 | 2 }, ssharpWords(2, true, 0, 0)},
		{"half border", func(*[8]uint32) {}, ssharpWords(4, true, 0, 0)},
		{"BORDER_COLOR_TYPE 3", func(*[8]uint32) {}, ssharpWords(6, true, 0, 3)},
		{"XY_MAG_FILTER 1 != XY_MIN_FILTER 0", func(*[8]uint32) {}, [4]uint32{2, 0, 1 << 20, 0}},
		{"anisotropic XY filter 2", func(*[8]uint32) {}, ssharpWords(2, true, 2, 0)},
		{"MAX_ANISO_RATIO 1", func(*[8]uint32) {}, [4]uint32{2 | 1<<9, 0, 0, 0}},
		{"DEPTH_COMPARE_FUNC 3", func(*[8]uint32) {}, [4]uint32{2 | 3<<12, 0, 0, 0}},
		{"bilinear filtering of integer", func(t *[8]uint32) { t[1] = t[1]&^(0xF<<26) | 4<<26 }, ssharpWords(2, true, 1, 0)},
	} {
		tw := good
		c.t(&tw)
		setImage(w, tw, c.s)
		f := catchFault(func() { sampleAt(w, o, 0.5, 0.5) })
		if f == nil || f.Kind != FaultUnimplemented || !errors.Is(f, ErrNotSupported) || !strings.Contains(f.Detail, c.want) {
			t.Errorf("%s: fault %v", c.want, f)
		}
	}
	// Reading outside device memory is a memory fault, as for any load.
	setImage(w, tsharpWords(0x10_0000_0000, 4, 7, 4, 4, 1, 4, imgType2D, selR), ssharpWords(2, true, 0, 0))
	if f := catchFault(func() { sampleAt(w, o, 0.5, 0.5) }); f == nil || f.Kind != FaultMemory {
		t.Errorf("unmapped image data: %v", f)
	}
}

// FuzzImageDescriptors decodes arbitrary T#/S# words and samples and loads
// through them: the engine may fault, but only with a *Fault, and a T# it
// accepts has a usable shape.
func FuzzImageDescriptors(f *testing.F) {
	good := tsharpWords(0, 4, 7, 4, 3, 1, 4, imgType2D, selR)
	f.Add(good[1], good[2], good[3], good[4], good[5], uint32(2|1<<15), uint32(0), uint32(0), imgF(1.5), imgF(2.5), uint32(1), uint32(2))
	f.Add(uint32(10<<20), uint32(0xFFFFFFFF), uint32(13<<28|0x777), uint32(0xFFFFFFFF), uint32(0x1FFF), uint32(6|6<<3), uint32(1<<20|1<<22), uint32(2<<30), imgF(-1e30), imgF(1e30), uint32(1<<31), uint32(7))
	w := testWave(f)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(f, 1<<16, false)
	sample := imageOp(f, "gfx90a", encImageSample)
	load := imageOp(f, "gfx90a", encImageLoad)
	f.Fuzz(func(t *testing.T, t1, t2, t3, t4, t5, s0, s2, s3, x, y, ix, iy uint32) {
		r := [8]uint32{uint32(buf.Base >> 8), t1 &^ 0xFF, t2, t3, t4, t5}
		if td, err := decodeTSharp(&r); err == nil {
			if td.dims < 1 || td.dims > 3 || td.elem == 0 || td.elem > 16 || td.pitch < td.width || td.width == 0 ||
				td.height == 0 || td.depth == 0 || td.lay.n == 0 {
				t.Fatalf("accepted T# %#x with shape %+v", r, td)
			}
		} else if !errors.Is(err, ErrNotSupported) {
			t.Fatalf("T# %#x: error %v does not wrap ErrNotSupported", r, err)
		}
		for j := int64(-5); j < 12; j++ {
			for _, m := range []uint32{0, 1, 2, 3, 6, 7} {
				if k, border := address(j, 4, m); !border && (k < 0 || k >= 4) {
					t.Fatalf("address(%d, 4, %d) = %d", j, m, k)
				}
			}
		}
		copy(w.s[8:16], r[:])
		w.s[16], w.s[17], w.s[18], w.s[19] = s0, 0, s2, s3
		w.setExec(3)
		w.v[0], w.v[64], w.v[128] = x, y, x
		w.v[1], w.v[65], w.v[129] = ix, iy, iy
		for _, o := range []*op{sample, load} {
			func() {
				defer func() {
					if e := recover(); e != nil {
						if _, ok := e.(*Fault); !ok {
							t.Fatalf("T# %#x S# %#x: panic %v", r, w.s[16:20], e)
						}
					}
				}()
				o.fn(w, o)
			}()
		}
	})
}
