package hsa

import (
	"bytes"
	"math"
	"testing"
)

// field extracts bits hi:lo of dword w of a descriptor.
func field(w []uint32, word, hi, lo int) uint32 {
	return w[word] >> lo & (1<<(hi-lo+1) - 1)
}

// TestImageDescriptorLayout checks the T# of a 2D float image field by
// field against the GFX9 image resource layout (Vega ISA guide, "Image
// Resource"), with the positions ockl reads (the device library HIP's
// texture functions call: HEIGHT from dword 2 bits 27:14, DEPTH from dword
// 4 bits 12:0) and the dwords 8-10 ROCr adds.
func TestImageDescriptorLayout(t *testing.T) {
	f, err := lookupFormat(HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_R)
	if err != nil {
		t.Fatal(err)
	}
	d := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_2D, Width: 37, Height: 23,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_R}
	const base = 0x7f12_3456_7800
	w := encodeImage(&d, f, base, 256)
	for _, c := range []struct {
		name         string
		word, hi, lo int
		want         uint32
	}{
		{"BASE_ADDRESS", 0, 31, 0, base >> 8 & 0xFFFFFFFF},
		{"BASE_ADDRESS_HI", 1, 7, 0, base >> 40},
		{"MIN_LOD", 1, 19, 8, 0},
		{"DATA_FORMAT (32)", 1, 25, 20, 4},
		{"NUM_FORMAT (FLOAT)", 1, 29, 26, 7},
		{"WIDTH-1", 2, 13, 0, 36},
		{"HEIGHT-1", 2, 27, 14, 22},
		{"DST_SEL_X (X)", 3, 2, 0, 4},
		{"DST_SEL_Y (0)", 3, 5, 3, 0},
		{"DST_SEL_Z (0)", 3, 8, 6, 0},
		{"DST_SEL_W (1)", 3, 11, 9, 1},
		{"BASE_LEVEL", 3, 15, 12, 0},
		{"LAST_LEVEL", 3, 19, 16, 0},
		{"SW_MODE (linear)", 3, 24, 20, 0},
		{"TYPE (2D)", 3, 31, 28, 9},
		{"DEPTH-1", 4, 12, 0, 0},
		{"PITCH-1 (elements)", 4, 28, 13, 63},
		{"dword 5", 5, 31, 0, 0},
		{"dword 6", 6, 31, 0, 0},
		{"dword 7", 7, 31, 0, 0},
		// spec/INVENTORY.md §9.4: channel data type and order.
		{"channel type", 8, 31, 0, HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT},
		{"channel order", 9, 31, 0, HSA_EXT_IMAGE_CHANNEL_ORDER_R},
		// [GAP] dword 10 is the width: ockl's __ockl_image_width_2D and its
		// point-sampling fix-up read it (ROCr's image manager writes it).
		{"width", 10, 31, 0, 37},
		{"dword 11", 11, 31, 0, 0},
	} {
		if got := field(w[:], c.word, c.hi, c.lo); got != c.want {
			t.Errorf("%s (dword %d bits %d:%d) = %#x, want %#x", c.name, c.word, c.hi, c.lo, got, c.want)
		}
	}

	// A 2D array of RGBA unorm8: layers in DEPTH, TYPE 2D_ARRAY, identity
	// swizzle; BGRA swaps x and z.
	f, _ = lookupFormat(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA)
	d = ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_2DA, Width: 8, Height: 4, ArraySize: 5}
	w = encodeImage(&d, f, 0x1000, 64)
	if field(w[:], 3, 31, 28) != 13 || field(w[:], 4, 12, 0) != 4 || field(w[:], 1, 25, 20) != 10 ||
		field(w[:], 1, 29, 26) != 0 || field(w[:], 3, 11, 0) != 4|5<<3|6<<6|7<<9 || field(w[:], 4, 28, 13) != 15 {
		t.Errorf("2DA rgba8 T# %#x", w)
	}
	f, _ = lookupFormat(HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA)
	if f.sel != [4]uint32{selZ, selY, selX, selW} {
		t.Errorf("BGRA swizzle %v", f.sel)
	}
}

// TestBufferImageDescriptor checks a 1DB image's V# (Vega ISA guide,
// "Buffer Resource"): tex1Dfetch reads it with buffer_load_format_x idxen.
func TestBufferImageDescriptor(t *testing.T) {
	f, _ := lookupFormat(HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_RG)
	d := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_1DB, Width: 1000,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_RG}
	const base = 0x7f12_3456_789c
	w := encodeImage(&d, f, base, 0)
	for _, c := range []struct {
		name         string
		word, hi, lo int
		want         uint32
	}{
		{"BASE_ADDRESS", 0, 31, 0, base & 0xFFFFFFFF},
		{"BASE_ADDRESS_HI", 1, 15, 0, base >> 32},
		{"STRIDE", 1, 29, 16, 4},
		{"NUM_RECORDS (elements)", 2, 31, 0, 1000},
		{"DST_SEL_X", 3, 2, 0, 4},
		{"DST_SEL_Y", 3, 5, 3, 5},
		{"DST_SEL_Z", 3, 8, 6, 0},
		{"DST_SEL_W", 3, 11, 9, 1},
		{"NUM_FORMAT (SINT)", 3, 14, 12, 5},
		{"DATA_FORMAT (16_16)", 3, 18, 15, 5},
		{"ADD_TID_ENABLE", 3, 23, 23, 0},
		{"TYPE (buffer)", 3, 31, 30, 0},
		{"width", 10, 31, 0, 1000},
	} {
		if got := field(w[:], c.word, c.hi, c.lo); got != c.want {
			t.Errorf("%s (dword %d bits %d:%d) = %#x, want %#x", c.name, c.word, c.hi, c.lo, got, c.want)
		}
	}
}

// TestSamplerDescriptorLayout checks the S# against the GFX9 image sampler
// layout (Vega ISA guide, "Image Sampler"): CLAMP_X/Y/Z 2:0/5:3/8:6 with
// SQ_TEX_WRAP 0, MIRROR 1, CLAMP_LAST_TEXEL 2, CLAMP_BORDER 6;
// FORCE_UNNORMALIZED bit 15; XY_MAG_FILTER 21:20 and XY_MIN_FILTER 23:22
// (ockl tests bit 20 for a bilinear sampler); BORDER_COLOR_TYPE 31:30.
func TestSamplerDescriptorLayout(t *testing.T) {
	for _, c := range []struct {
		d     SamplerDescriptor
		clamp uint32
	}{
		{SamplerDescriptor{HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE}, 2},
		{SamplerDescriptor{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR, HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT}, 0},
		{SamplerDescriptor{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST, HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT}, 1},
		{SamplerDescriptor{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER}, 6},
		{SamplerDescriptor{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST, HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED}, 0},
	} {
		w, err := encodeSampler(&c.d)
		if err != nil {
			t.Fatalf("%+v: %v", c.d, err)
		}
		unnorm := uint32(0)
		if c.d.CoordinateMode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED {
			unnorm = 1
		}
		if field(w[:], 0, 2, 0) != c.clamp || field(w[:], 0, 5, 3) != c.clamp || field(w[:], 0, 8, 6) != c.clamp ||
			field(w[:], 0, 15, 15) != unnorm || field(w[:], 0, 14, 9) != 0 ||
			field(w[:], 2, 21, 20) != c.d.FilterMode || field(w[:], 2, 23, 22) != c.d.FilterMode ||
			field(w[:], 2, 27, 24) != 0 || field(w[:], 3, 31, 30) != 0 || field(w[:], 1, 23, 12) != 4095 {
			t.Errorf("%+v: S# %#x", c.d, w)
		}
		for i := 4; i < SamplerObjectDwords; i++ {
			if w[i] != 0 {
				t.Errorf("%+v: padding dword %d = %#x", c.d, i, w[i])
			}
		}
	}
	for _, d := range []SamplerDescriptor{{0, 0, 5}, {0, 2, 1}, {2, 0, 1}} {
		if _, err := encodeSampler(&d); err == nil {
			t.Errorf("%+v encoded", d)
		}
	}
}

func gpuPool(t *testing.T, r *Runtime) *MemoryPool {
	t.Helper()
	for _, p := range r.GPUAgents()[0].Pools() {
		if p.AllocAllowed() {
			return p
		}
	}
	t.Fatal("no allocatable GPU pool")
	return nil
}

// TestImageAPI creates, fills, reads back and destroys images and
// samplers, and checks the statuses of bad input.
func TestImageAPI(t *testing.T) {
	r, _ := newRT(t, "gfx90a")
	gpu := r.GPUAgents()[0]
	rgba8 := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_2D, Width: 10, Height: 3,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA}
	info, err := gpu.ImageDataInfo(rgba8, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0)
	if err != nil || info != (ImageDataInfo{Size: 3 * 256, Alignment: 256}) {
		t.Fatalf("ImageDataInfo = %+v, %v", info, err)
	}
	// An explicit linear pitch: any multiple of the element size.
	info, err = gpu.ImageDataInfo(rgba8, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 44, 0)
	if err != nil || info.Size != 3*44 {
		t.Fatalf("linear ImageDataInfo = %+v, %v", info, err)
	}
	data, err := gpuPool(t, r).Allocate(info.Size, 0)
	if err != nil {
		t.Fatal(err)
	}
	im, err := gpu.CreateImage(rgba8, data, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 44, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.Image(im.Handle()); err != nil || got != im {
		t.Fatalf("Image(handle) = %v, %v", got, err)
	}
	if w := im.Words(); field(w[:], 4, 28, 13) != 10 || w[0] != uint32(data>>8) {
		t.Errorf("pitch 44 bytes: T# %#x", w)
	}
	// Import rows 1-2, columns 2-5 from a source with a 20-byte pitch.
	src := make([]byte, 40)
	for i := range src {
		src[i] = byte(i + 1)
	}
	reg := ImageRegion{Offset: [3]uint32{2, 1, 0}, Range: [3]uint32{4, 2, 1}}
	if n, err := im.RegionBytes(20, 0, reg); err != nil || n != 36 {
		t.Fatalf("RegionBytes = %d, %v", n, err)
	}
	if err := im.Import(src, 20, 0, reg); err != nil {
		t.Fatal(err)
	}
	mem, _ := r.bytes("test", "image", data, info.Size)
	if !bytes.Equal(mem[44+8:44+24], src[:16]) || !bytes.Equal(mem[88+8:88+24], src[20:36]) || mem[44+7] != 0 || mem[44+24] != 0 {
		t.Errorf("import wrote rows %v / %v", mem[44:88], mem[88:132])
	}
	back := make([]byte, 32)
	if err := im.Export(back, 0, 0, reg); err != nil || !bytes.Equal(back[:16], src[:16]) || !bytes.Equal(back[16:], src[20:36]) {
		t.Errorf("export = %v, %v", back, err)
	}
	wantStatus(t, im.Import(src, 0, 0, ImageRegion{Offset: [3]uint32{8, 0, 0}, Range: [3]uint32{4, 1, 1}}), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, im.Import(src[:8], 0, 0, reg), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, im.Import(src, 8, 0, reg), HSA_STATUS_ERROR_INVALID_ARGUMENT)

	// Copy between images of one format; other formats are refused.
	im2, err := gpu.CreateImage(rgba8, data, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 44, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := CopyImage(im, [3]uint32{2, 1, 0}, im2, [3]uint32{0, 0, 0}, [3]uint32{4, 1, 1}); err != nil || !bytes.Equal(mem[:16], src[:16]) {
		t.Errorf("CopyImage: %v, row 0 %v", err, mem[:16])
	}
	r32 := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_1D, Width: 16,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_R}
	im3, err := gpu.CreateImage(r32, data, HSA_ACCESS_PERMISSION_RO, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, CopyImage(im, [3]uint32{}, im3, [3]uint32{}, [3]uint32{1, 1, 1}), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS)

	for _, im := range []*Image{im, im2, im3} {
		wantStatus(t, im.Destroy(), HSA_STATUS_SUCCESS)
		wantStatus(t, im.Destroy(), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	}
	if _, err := r.Image(im.Handle()); err == nil {
		t.Error("destroyed image still found")
	}

	// Bad descriptors and data.
	bad := func(d ImageDescriptor, layout uint32, pitch uint64, st Status) {
		t.Helper()
		_, err := gpu.ImageDataInfo(d, HSA_ACCESS_PERMISSION_RW, layout, pitch, 0)
		wantStatus(t, err, st)
	}
	d := rgba8
	d.ChannelOrder = 12 // sRGB
	bad(d, 0, 0, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED)
	d = rgba8
	d.ChannelType = HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT
	d.ChannelOrder = HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA
	bad(d, 0, 0, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED)
	d = rgba8
	d.Geometry = HSA_EXT_IMAGE_GEOMETRY_2DADEPTH
	bad(d, 0, 0, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED)
	d.Geometry = 8
	bad(d, 0, 0, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	d = rgba8
	d.Height = 16385
	bad(d, 0, 0, HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED)
	d.Height = 0
	bad(d, 0, 0, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	bad(rgba8, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 42, HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED)
	bad(rgba8, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 36, HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED)
	bad(rgba8, 2, 0, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	d3 := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_3D, Width: 4, Height: 4, Depth: 4,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_R}
	if _, err := gpu.ImageDataInfo(d3, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 16, 100); StatusOf(err) != HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED {
		t.Errorf("3D slice pitch 100: %v", err)
	}
	if info, err := gpu.ImageDataInfo(d3, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 16, 64); err != nil || info.Size != 256 {
		t.Errorf("3D slice pitch 64: %+v %v", info, err)
	}
	_, err = gpu.ImageDataInfo(rgba8, 0, 0, 0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = gpu.CreateImage(rgba8, 0, HSA_ACCESS_PERMISSION_RW, 0, 0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = gpu.CreateImage(rgba8, data+64, HSA_ACCESS_PERMISSION_RW, 0, 0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = gpu.CreateImage(rgba8, data+4096, HSA_ACCESS_PERMISSION_RW, 0, 0, 0) // past the allocation
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.CPUAgent().CreateImage(rgba8, data, HSA_ACCESS_PERMISSION_RW, 0, 0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
	if c, err := gpu.ImageCapability(HSA_EXT_IMAGE_GEOMETRY_2D, 2, 12, 0); c != 0 || err != nil {
		t.Errorf("sRGB capability %#x %v", c, err)
	}
	if c, err := gpu.ImageCapability(HSA_EXT_IMAGE_GEOMETRY_1DB, 15, 1, 1); c&HSA_EXT_IMAGE_CAPABILITY_READ_WRITE == 0 || err != nil {
		t.Errorf("float R 1DB capability %#x %v", c, err)
	}
	// BGRA buffer images are refused (format loads do not swizzle).
	bgra := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_1DB, Width: 100,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA}
	bad(bgra, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED)
	if c, err := gpu.ImageCapability(HSA_EXT_IMAGE_GEOMETRY_1DB, 2, 9, 1); c != 0 || err != nil {
		t.Errorf("BGRA 1DB capability %#x %v", c, err)
	}
	bgra.Geometry = HSA_EXT_IMAGE_GEOMETRY_2D
	bgra.Height = 1
	bad(bgra, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, HSA_STATUS_SUCCESS)
	// A 1DB image only needs the element alignment.
	buf := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_1DB, Width: 100,
		ChannelType: HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, ChannelOrder: HSA_EXT_IMAGE_CHANNEL_ORDER_R}
	if im, err := gpu.CreateImage(buf, data+4, HSA_ACCESS_PERMISSION_RO, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 4096, 0); err != nil {
		t.Errorf("1DB at data+4: %v", err)
	} else {
		im.Destroy()
	}

	// Samplers.
	s, err := gpu.CreateSampler(SamplerDescriptor{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR, HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT})
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Words(); w[2] != 1<<20|1<<22 {
		t.Errorf("sampler words %#x", w)
	}
	if got, err := r.Sampler(s.Handle()); got != s || err != nil {
		t.Errorf("Sampler(handle) = %v, %v", got, err)
	}
	wantStatus(t, s.Destroy(), HSA_STATUS_SUCCESS)
	wantStatus(t, s.Destroy(), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = gpu.CreateSampler(SamplerDescriptor{0, 0, 7})
	wantStatus(t, err, HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED)
	_, err = r.CPUAgent().CreateSampler(SamplerDescriptor{})
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
}

// TestImageClear clears regions of images in several formats: the values
// are given per access component (R, G, B, A), converted as the HSA PRM
// channel types say, and stored in the order's memory layout.
func TestImageClear(t *testing.T) {
	r, _ := newRT(t, "gfx90a")
	gpu := r.GPUAgents()[0]
	data, err := gpuPool(t, r).Allocate(4096, 0)
	if err != nil {
		t.Fatal(err)
	}
	mem, _ := r.bytes("test", "image", data, 4096)
	f := func(x float32) uint32 { return math.Float32bits(x) }
	for _, c := range []struct {
		ct, co uint32
		data   []uint32
		want   []byte // one element
	}{
		// 0.5*255 = 127.5 rounds to even: 128; 1.5 clamps to 255.
		{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, []uint32{f(0.5), f(1.5), f(0), f(0.2)}, []byte{128, 255, 0, 51}},
		// BGRA: blue first in memory.
		{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA, []uint32{f(1), f(0), f(0.2), f(0.5)}, []byte{51, 0, 255, 128}},
		// Integers saturate.
		{HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RG, []uint32{uint32(0xFFFFFF00), 1000}, []byte{0x80, 0x7F}},
		{HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_R, []uint32{70000}, []byte{0xFF, 0xFF}},
		// f16 1.5 = 0x3E00; snorm16 -1 = 0x8001.
		{HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_R, []uint32{f(1.5)}, []byte{0x00, 0x3E}},
		{HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_R, []uint32{f(-3)}, []byte{0x01, 0x80}},
	} {
		clear(mem)
		d := ImageDescriptor{Geometry: HSA_EXT_IMAGE_GEOMETRY_2D, Width: 6, Height: 3, ChannelType: c.ct, ChannelOrder: c.co}
		im, err := gpu.CreateImage(d, data, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := im.Clear(c.data, ImageRegion{Offset: [3]uint32{1, 2, 0}, Range: [3]uint32{5, 1, 1}}); err != nil {
			t.Fatalf("type %d order %d: %v", c.ct, c.co, err)
		}
		n := len(c.want)
		row := mem[2*256:]
		if !bytes.Equal(row[n:2*n], c.want) || !bytes.Equal(row[5*n:6*n], c.want) || row[n-1] != 0 || mem[256+n] != 0 {
			t.Errorf("type %d order %d: row 2 = %v, want elements 1-5 = %v", c.ct, c.co, row[:6*n], c.want)
		}
		wantStatus(t, im.Clear(c.data[:len(c.data)-1], ImageRegion{Range: [3]uint32{1, 1, 1}}), HSA_STATUS_ERROR_INVALID_ARGUMENT)
		im.Destroy()
	}
}
