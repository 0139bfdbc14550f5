package hsa

import (
	"errors"
	"fmt"
)

// The hardware descriptors behind hsa_ext_image_t and hsa_ext_sampler_t
// for GFX9 (Vega / MI200 ISA reference guides, "Image Resource",
// "Buffer Resource" and "Image Sampler"). Kernels read them directly: an
// image handle is the address of twelve dwords — the eight-dword T# (or,
// for 1DB images, a four-dword buffer V# followed by four zero dwords),
// then the channel type, channel order and width that ockl's
// __ockl_image_channel_data_type_*, _channel_order_* and _width_* read
// from dwords 8, 9 and 10 (spec/INVENTORY.md §9.4 for 8 and 9; dword 10 is
// [GAP]: ockl's bitcode and ROCr's image manager are its only sources),
// and one zero dword. HIP copies those twelve dwords into its texture
// object (HIP_IMAGE_OBJECT_SIZE_DWORD) and the eight dwords at a sampler
// handle after them (HIP_SAMPLER_OBJECT_SIZE_DWORD), so a sampler object
// is the four-dword S# padded with zeros to eight. (AMDGPUUsage, §6.7,
// speaks of a 48-byte S# with two extra dwords of HSAIL BRIG enumerations
// for query_sampler; no device library rocpu runs reads them, so they are
// not written.)
//
// Field positions, by dword (w) and bit, as emu/ops_image.go decodes them:
//
//	T# w0 BASE_ADDRESS (address bits 39:8); w1 BASE_ADDRESS_HI 7:0,
//	   DATA_FORMAT 25:20, NUM_FORMAT 29:26; w2 WIDTH-1 13:0, HEIGHT-1
//	   27:14; w3 DST_SEL_X/Y/Z/W 2:0/5:3/8:6/11:9, BASE_LEVEL 15:12,
//	   LAST_LEVEL 19:16, SW_MODE 24:20 (0: linear), TYPE 31:28; w4
//	   DEPTH-1 12:0, PITCH-1 28:13 (elements), BC_SWIZZLE 31:29
//	V# w0 BASE_ADDRESS 31:0; w1 BASE_ADDRESS_HI 15:0, STRIDE 29:16; w2
//	   NUM_RECORDS; w3 DST_SEL_X/Y/Z/W 2:0/5:3/8:6/11:9, NUM_FORMAT 14:12,
//	   DATA_FORMAT 18:15
//	S# w0 CLAMP_X/Y/Z 2:0/5:3/8:6, FORCE_UNNORMALIZED 15; w1 MAX_LOD
//	   23:12; w2 XY_MAG_FILTER 21:20, XY_MIN_FILTER 23:22; w3
//	   BORDER_COLOR_TYPE 31:30 (0: transparent black)
const (
	ImageObjectDwords   = 12
	SamplerObjectDwords = 8
)

// DST_SEL values.
const (
	selZero = 0
	selOne  = 1
	selX    = 4
	selY    = 5
	selZ    = 6
	selW    = 7
)

// imageFormat is the hardware form of an hsa_ext_image_format_t.
type imageFormat struct {
	dfmt, nfmt uint32    // DATA_FORMAT, NUM_FORMAT
	elem       uint64    // bytes per element
	sel        [4]uint32 // DST_SEL_X..W
}

// channelTypes maps the channel types rocpu supports to NUM_FORMAT and the
// component width in bits.
var channelTypes = map[uint32]struct{ nfmt, bits uint32 }{
	HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8:     {1, 8},
	HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16:    {1, 16},
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8:     {0, 8},
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16:    {0, 16},
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8:    {5, 8},
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16:   {5, 16},
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32:   {5, 32},
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8:  {4, 8},
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16: {4, 16},
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32: {4, 32},
	HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT:     {7, 16},
	HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT:          {7, 32},
}

// dataFormats maps (components, component bits) to DATA_FORMAT: 8, 16,
// 8_8, 32, 16_16, 8_8_8_8, 32_32, 16_16_16_16, 32_32_32_32.
var dataFormats = map[[2]uint32]uint32{
	{1, 8}: 1, {1, 16}: 2, {2, 8}: 3, {1, 32}: 4, {2, 16}: 5, {4, 8}: 10, {2, 32}: 11, {4, 16}: 12, {4, 32}: 14,
}

// lookupFormat maps an HSA channel type and order to the hardware format:
// orders R, RG, RGBA (components in memory order) and BGRA (8-bit types),
// with the channel types above.
func lookupFormat(ct, co uint32) (imageFormat, error) {
	t, ok := channelTypes[ct]
	if !ok {
		return imageFormat{}, fmt.Errorf("channel type %d", ct)
	}
	var n uint32
	var sel [4]uint32
	switch co {
	case HSA_EXT_IMAGE_CHANNEL_ORDER_R:
		n, sel = 1, [4]uint32{selX, selZero, selZero, selOne}
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RG:
		n, sel = 2, [4]uint32{selX, selY, selZero, selOne}
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA:
		n, sel = 4, [4]uint32{selX, selY, selZ, selW}
	case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA:
		if t.bits != 8 {
			return imageFormat{}, fmt.Errorf("channel order BGRA with channel type %d", ct)
		}
		n, sel = 4, [4]uint32{selZ, selY, selX, selW}
	default:
		return imageFormat{}, fmt.Errorf("channel order %d", co)
	}
	return imageFormat{dfmt: dataFormats[[2]uint32{n, t.bits}], nfmt: t.nfmt, elem: uint64(n * t.bits / 8), sel: sel}, nil
}

// bufferSwizzle reports whether a 1DB image of format f reads correctly
// through buffer_load_format: the emulator's format loads fill missing
// components with 0 (x, y, z) and 1 (w) but do not apply the V#'s DST_SEL,
// so only swizzles that equal that default (R, RG, RGBA) are offered; BGRA
// buffer images would read with red and blue swapped.
func bufferSwizzle(f imageFormat) bool {
	for i, s := range f.sel {
		if s != selX+uint32(i) && s != [4]uint32{selZero, selZero, selZero, selOne}[i] {
			return false
		}
	}
	return true
}

var errBGRABuffer = errors.New("channel order BGRA for a 1DB (buffer) image")

// T# TYPE per geometry (SQ_RSRC_IMG_1D … _2D_ARRAY).
var geometryTypes = map[uint32]uint32{
	HSA_EXT_IMAGE_GEOMETRY_1D:  8,
	HSA_EXT_IMAGE_GEOMETRY_2D:  9,
	HSA_EXT_IMAGE_GEOMETRY_3D:  10,
	HSA_EXT_IMAGE_GEOMETRY_1DA: 12,
	HSA_EXT_IMAGE_GEOMETRY_2DA: 13,
}

// encodeImage builds the twelve dwords of an image object for data at base
// with row pitch rowPitch bytes (a multiple of the element size).
func encodeImage(d *ImageDescriptor, f imageFormat, base, rowPitch uint64) (w [ImageObjectDwords]uint32) {
	if d.Geometry == HSA_EXT_IMAGE_GEOMETRY_1DB {
		// A buffer V# for buffer_load_format with idxen: stride = element
		// size, and NUM_RECORDS counts elements (GFX9 range-checks the
		// index against it when the stride is non-zero), so a fetch past
		// the end reads 0. (ROCr writes the byte size here, which lets
		// indices up to four times too large read past the data.)
		w[0] = uint32(base)
		w[1] = uint32(base>>32)&0xFFFF | uint32(f.elem)<<16
		w[2] = uint32(d.Width)
		w[3] = f.sel[0] | f.sel[1]<<3 | f.sel[2]<<6 | f.sel[3]<<9 | f.nfmt<<12 | f.dfmt<<15
	} else {
		height, depth := d.Height, uint64(1)
		switch d.Geometry {
		case HSA_EXT_IMAGE_GEOMETRY_1D:
			height = 1
		case HSA_EXT_IMAGE_GEOMETRY_3D:
			depth = d.Depth
		case HSA_EXT_IMAGE_GEOMETRY_1DA:
			height, depth = 1, d.ArraySize
		case HSA_EXT_IMAGE_GEOMETRY_2DA:
			depth = d.ArraySize
		}
		pitch := rowPitch / f.elem
		w[0] = uint32(base >> 8)
		w[1] = uint32(base>>40)&0xFF | f.dfmt<<20 | f.nfmt<<26
		w[2] = uint32(d.Width-1)&0x3FFF | uint32(height-1)&0x3FFF<<14
		w[3] = f.sel[0] | f.sel[1]<<3 | f.sel[2]<<6 | f.sel[3]<<9 | geometryTypes[d.Geometry]<<28
		w[4] = uint32(depth-1)&0x1FFF | uint32(pitch-1)&0xFFFF<<13
	}
	w[8] = d.ChannelType
	w[9] = d.ChannelOrder
	w[10] = uint32(d.Width)
	return w
}

// S# CLAMP values per addressing mode (SQ_TEX_WRAP, _MIRROR,
// _CLAMP_LAST_TEXEL, _CLAMP_BORDER); UNDEFINED wraps, as on ROCr.
var clampModes = map[uint32]uint32{
	HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED:       0,
	HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT:          0,
	HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: 1,
	HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE:   2,
	HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER: 6,
}

// encodeSampler builds the eight dwords of a sampler object.
func encodeSampler(d *SamplerDescriptor) (w [SamplerObjectDwords]uint32, err error) {
	c, ok := clampModes[d.AddressMode]
	if !ok {
		return w, fmt.Errorf("addressing mode %d", d.AddressMode)
	}
	if d.FilterMode > HSA_EXT_SAMPLER_FILTER_MODE_LINEAR {
		return w, fmt.Errorf("filter mode %d", d.FilterMode)
	}
	if d.CoordinateMode > HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED {
		return w, fmt.Errorf("coordinate mode %d", d.CoordinateMode)
	}
	w[0] = c | c<<3 | c<<6
	if d.CoordinateMode == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED {
		w[0] |= 1 << 15
	}
	w[1] = 4095 << 12 // MAX_LOD: every level
	w[2] = d.FilterMode<<20 | d.FilterMode<<22
	return w, nil
}
