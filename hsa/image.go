package hsa

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/vmem"
)

// The HSA image extension (hsa_ext_image.h, 1.1), as HIP 5.2 uses it for
// texture objects: GPU agents create images over memory the application
// allocated (always linear: rocpu has no tiling), samplers, and copy data
// in and out of images. The objects the handles point at are described in
// imagesrd.go; emu/ops_image.go executes the instructions that read them.

// hsa_ext_image_geometry_t.
const (
	HSA_EXT_IMAGE_GEOMETRY_1D       = 0
	HSA_EXT_IMAGE_GEOMETRY_2D       = 1
	HSA_EXT_IMAGE_GEOMETRY_3D       = 2
	HSA_EXT_IMAGE_GEOMETRY_1DA      = 3
	HSA_EXT_IMAGE_GEOMETRY_2DA      = 4
	HSA_EXT_IMAGE_GEOMETRY_1DB      = 5
	HSA_EXT_IMAGE_GEOMETRY_2DDEPTH  = 6
	HSA_EXT_IMAGE_GEOMETRY_2DADEPTH = 7
)

// hsa_ext_image_channel_type_t (the ones rocpu supports).
const (
	HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8     = 0
	HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16    = 1
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8     = 2
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16    = 3
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8    = 8
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16   = 9
	HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32   = 10
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8  = 11
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16 = 12
	HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32 = 13
	HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT     = 14
	HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT          = 15
)

// hsa_ext_image_channel_order_t (the ones rocpu supports).
const (
	HSA_EXT_IMAGE_CHANNEL_ORDER_R    = 1
	HSA_EXT_IMAGE_CHANNEL_ORDER_RG   = 3
	HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA = 8
	HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA = 9
)

// hsa_ext_image_data_layout_t.
const (
	HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE = 0
	HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR = 1
)

// hsa_ext_image_capability_t.
const (
	HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED                = 0x0
	HSA_EXT_IMAGE_CAPABILITY_READ_ONLY                    = 0x1
	HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY                   = 0x2
	HSA_EXT_IMAGE_CAPABILITY_READ_WRITE                   = 0x4
	HSA_EXT_IMAGE_CAPABILITY_READ_MODIFY_WRITE            = 0x8
	HSA_EXT_IMAGE_CAPABILITY_ACCESS_INVARIANT_DATA_LAYOUT = 0x10
)

// hsa_access_permission_t.
const (
	HSA_ACCESS_PERMISSION_RO = 1
	HSA_ACCESS_PERMISSION_WO = 2
	HSA_ACCESS_PERMISSION_RW = 3
)

// hsa_ext_sampler_addressing_mode_t, _coordinate_mode_t, _filter_mode_t.
const (
	HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED       = 0
	HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE   = 1
	HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER = 2
	HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT          = 3
	HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT = 4

	HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED = 0
	HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED   = 1

	HSA_EXT_SAMPLER_FILTER_MODE_NEAREST = 0
	HSA_EXT_SAMPLER_FILTER_MODE_LINEAR  = 1
)

// ImageDescriptor is hsa_ext_image_descriptor_t.
type ImageDescriptor struct {
	Geometry                        uint32
	Width, Height, Depth, ArraySize uint64
	ChannelType, ChannelOrder       uint32
}

// SamplerDescriptor is hsa_ext_sampler_descriptor_t.
type SamplerDescriptor struct {
	CoordinateMode, FilterMode, AddressMode uint32
}

// ImageDataInfo is hsa_ext_image_data_info_t.
type ImageDataInfo struct{ Size, Alignment uint64 }

// ImageRegion is hsa_ext_image_region_t: an offset and a range in texels
// (z: depth, or the layer of an array image).
type ImageRegion struct{ Offset, Range [3]uint32 }

// imageBaseAlign is the alignment of image data: T# BASE_ADDRESS holds
// address bits 39:8. It is also the row pitch alignment of OPAQUE images
// (HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT).
const imageBaseAlign = 256

// Image is a live hsa_ext_image_t.
type Image struct {
	rt         *Runtime
	agent      *Agent
	desc       ImageDescriptor
	f          imageFormat
	data       uint64
	rowPitch   uint64
	slicePitch uint64
	obj        *vmem.Region
}

// Sampler is a live hsa_ext_sampler_t.
type Sampler struct {
	rt  *Runtime
	obj *vmem.Region
}

type imageState struct {
	mu       sync.Mutex
	images   map[uint64]*Image
	samplers map[uint64]*Sampler
}

// layout is an image's storage: bytes per element, row and slice pitch,
// and the number of slices (depth or layers).
type imageLayout struct {
	f                    imageFormat
	rowPitch, slicePitch uint64
	slices               uint64
}

// checkImage validates a descriptor and layout against what a GPU agent
// supports and computes the storage layout. rowPitch and slicePitch are
// the application's (0: rocpu chooses) for LINEAR layouts.
func (a *Agent) checkImage(op string, d *ImageDescriptor, layout uint32, rowPitch, slicePitch uint64) (imageLayout, error) {
	var l imageLayout
	if a.typ != HSA_DEVICE_TYPE_GPU {
		return l, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "%v has no image support", a)
	}
	if layout > HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR {
		return l, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown image data layout %d", layout)
	}
	if d.Geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH {
		return l, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown image geometry %d", d.Geometry)
	}
	if d.Geometry == HSA_EXT_IMAGE_GEOMETRY_2DDEPTH || d.Geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH {
		return l, errorf(op, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, "depth image geometry %d is not supported by rocpu", d.Geometry)
	}
	f, err := lookupFormat(d.ChannelType, d.ChannelOrder)
	if err == nil && d.Geometry == HSA_EXT_IMAGE_GEOMETRY_1DB && !bufferSwizzle(f) {
		err = errBGRABuffer
	}
	if err != nil {
		return l, errorf(op, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, "image %v is not supported by rocpu", err)
	}
	l.f = f
	// Sizes: the T# fields are WIDTH-1 and HEIGHT-1 in 14 bits, DEPTH-1
	// in 13; the agent reports the same limits (agent.go imageInfo).
	maxOf := func(attr AgentInfo, i int) uint64 {
		switch v := imageInfo(attr).(type) {
		case uint32:
			return uint64(v)
		case [2]uint32:
			return uint64(v[i])
		case [3]uint32:
			return uint64(v[i])
		}
		return 0
	}
	type dim struct {
		name string
		v    uint64
		max  uint64
	}
	var dims []dim
	l.slices = 1
	height := uint64(1)
	switch d.Geometry {
	case HSA_EXT_IMAGE_GEOMETRY_1D:
		dims = []dim{{"width", d.Width, maxOf(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS, 0)}}
	case HSA_EXT_IMAGE_GEOMETRY_1DB:
		dims = []dim{{"width", d.Width, maxOf(HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS, 0)}}
	case HSA_EXT_IMAGE_GEOMETRY_1DA:
		dims = []dim{{"width", d.Width, maxOf(HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS, 0)},
			{"array_size", d.ArraySize, maxOf(HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS, 0)}}
		l.slices = d.ArraySize
	case HSA_EXT_IMAGE_GEOMETRY_2D:
		dims = []dim{{"width", d.Width, maxOf(HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, 0)},
			{"height", d.Height, maxOf(HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, 1)}}
		height = d.Height
	case HSA_EXT_IMAGE_GEOMETRY_2DA:
		dims = []dim{{"width", d.Width, maxOf(HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS, 0)},
			{"height", d.Height, maxOf(HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS, 1)},
			{"array_size", d.ArraySize, maxOf(HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS, 0)}}
		height, l.slices = d.Height, d.ArraySize
	case HSA_EXT_IMAGE_GEOMETRY_3D:
		dims = []dim{{"width", d.Width, maxOf(HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, 0)},
			{"height", d.Height, maxOf(HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, 1)},
			{"depth", d.Depth, maxOf(HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, 2)}}
		height, l.slices = d.Height, d.Depth
	}
	for _, x := range dims {
		if x.v == 0 {
			return l, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "image %s is 0", x.name)
		}
		if x.v > x.max {
			return l, errorf(op, HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED, "image %s %d exceeds the agent's maximum %d", x.name, x.v, x.max)
		}
	}
	row := d.Width * f.elem
	switch {
	case d.Geometry == HSA_EXT_IMAGE_GEOMETRY_1DB:
		// Buffer images are the element array itself.
		l.rowPitch = row
	case layout == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR && rowPitch != 0:
		// The T# PITCH field counts elements (16 bits).
		if rowPitch < row || rowPitch%f.elem != 0 || rowPitch/f.elem > 1<<16 {
			return l, errorf(op, HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED,
				"row pitch %d for %d-byte elements and width %d (must be a multiple of the element size, at least %d, at most %d elements)",
				rowPitch, f.elem, d.Width, row, 1<<16)
		}
		l.rowPitch = rowPitch
	default:
		l.rowPitch = (row + imageBaseAlign - 1) &^ (imageBaseAlign - 1)
		if l.rowPitch/f.elem > 1<<16 {
			l.rowPitch = row
		}
	}
	l.slicePitch = l.rowPitch * height
	if layout == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR && slicePitch != 0 && l.slices > 1 && slicePitch != l.slicePitch {
		// GFX9's T# has no slice pitch: slices are rows × pitch apart.
		return l, errorf(op, HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED,
			"slice pitch %d (the GFX9 image resource has no slice pitch field: it must be row pitch × height = %d)", slicePitch, l.slicePitch)
	}
	return l, nil
}

// ImageDataInfo is hsa_ext_image_data_info_get and
// hsa_ext_image_data_get_info_with_layout: the size and alignment of the
// data for an image with descriptor d. Both layouts are linear on rocpu.
func (a *Agent) ImageDataInfo(d ImageDescriptor, perm uint32, layout uint32, rowPitch, slicePitch uint64) (ImageDataInfo, error) {
	const op = "ImageDataInfo"
	if err := a.rt.check(op); err != nil {
		return ImageDataInfo{}, err
	}
	if perm < HSA_ACCESS_PERMISSION_RO || perm > HSA_ACCESS_PERMISSION_RW {
		return ImageDataInfo{}, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown access permission %d", perm)
	}
	l, err := a.checkImage(op, &d, layout, rowPitch, slicePitch)
	if err != nil {
		return ImageDataInfo{}, err
	}
	return ImageDataInfo{Size: l.slicePitch * l.slices, Alignment: imageBaseAlign}, nil
}

// ImageCapability is hsa_ext_image_get_capability(_with_layout): the
// access rocpu supports for a geometry and format (0 when it supports
// none). Every supported combination is readable, writable and
// read-modify-writable, and both layouts are the same linear one.
func (a *Agent) ImageCapability(geometry, channelType, channelOrder, layout uint32) (uint32, error) {
	const op = "ImageCapability"
	if err := a.rt.check(op); err != nil {
		return 0, err
	}
	if a.typ != HSA_DEVICE_TYPE_GPU {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "%v has no image support", a)
	}
	if geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH || layout > HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown geometry %d or layout %d", geometry, layout)
	}
	if geometry == HSA_EXT_IMAGE_GEOMETRY_2DDEPTH || geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH {
		return HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED, nil
	}
	f, err := lookupFormat(channelType, channelOrder)
	if err != nil || (geometry == HSA_EXT_IMAGE_GEOMETRY_1DB && !bufferSwizzle(f)) {
		return HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED, nil
	}
	return HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY |
		HSA_EXT_IMAGE_CAPABILITY_READ_WRITE | HSA_EXT_IMAGE_CAPABILITY_READ_MODIFY_WRITE |
		HSA_EXT_IMAGE_CAPABILITY_ACCESS_INVARIANT_DATA_LAYOUT, nil
}

// CreateImage is hsa_ext_image_create(_with_layout): an image over the
// data at data (device-visible, 256-byte aligned except for 1DB images,
// at least ImageDataInfo's size). Its handle is the address of its
// descriptor object.
func (a *Agent) CreateImage(d ImageDescriptor, data uint64, perm uint32, layout uint32, rowPitch, slicePitch uint64) (*Image, error) {
	const op = "CreateImage"
	info, err := a.ImageDataInfo(d, perm, layout, rowPitch, slicePitch)
	if err != nil {
		return nil, err
	}
	l, _ := a.checkImage(op, &d, layout, rowPitch, slicePitch)
	r := a.rt
	if data == 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "image data is NULL")
	}
	align := uint64(imageBaseAlign)
	if d.Geometry == HSA_EXT_IMAGE_GEOMETRY_1DB {
		align = 4 // the V# base is a byte address; format loads read dwords
		if l.f.elem < 4 {
			align = l.f.elem
		}
	}
	if data%align != 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "image data %#x is not %d-byte aligned", data, align)
	}
	if _, err := r.space.Lookup(data, info.Size); err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "image data [%#x, +%d) is not inside one device-visible allocation", data, info.Size)
	}
	reg, err := r.space.Alloc(ImageObjectDwords*4, 64, vmem.KindPool, "image descriptor")
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "image descriptor")
	}
	words := encodeImage(&d, l.f, data, l.rowPitch)
	copy(unsafe.Slice((*uint32)(reg.Pointer(reg.Base, ImageObjectDwords*4)), ImageObjectDwords), words[:])
	im := &Image{rt: r, agent: a, desc: d, f: l.f, data: data, rowPitch: l.rowPitch, slicePitch: l.slicePitch, obj: reg}
	st := &r.img
	st.mu.Lock()
	if st.images == nil {
		st.images = map[uint64]*Image{}
	}
	st.images[reg.Base] = im
	st.mu.Unlock()
	return im, nil
}

// Handle returns the hsa_ext_image_t handle: the descriptor's address.
func (im *Image) Handle() uint64 { return im.obj.Base }

// Descriptor returns the descriptor the image was created with.
func (im *Image) Descriptor() ImageDescriptor { return im.desc }

// Words returns the image object's twelve dwords.
func (im *Image) Words() (w [ImageObjectDwords]uint32) {
	copy(w[:], unsafe.Slice((*uint32)(im.obj.Pointer(im.obj.Base, ImageObjectDwords*4)), ImageObjectDwords))
	return w
}

// Image returns the live image whose handle is h.
func (r *Runtime) Image(h uint64) (*Image, error) {
	if err := r.check("Image"); err != nil {
		return nil, err
	}
	r.img.mu.Lock()
	im := r.img.images[h]
	r.img.mu.Unlock()
	if im == nil {
		return nil, errorf("Image", HSA_STATUS_ERROR_INVALID_ARGUMENT, "no image with handle %#x", h)
	}
	return im, nil
}

// Destroy is hsa_ext_image_destroy; the data stays the application's.
func (im *Image) Destroy() error {
	const op = "Image.Destroy"
	r := im.rt
	if err := r.check(op); err != nil {
		return err
	}
	st := &r.img
	st.mu.Lock()
	if st.images[im.obj.Base] != im {
		st.mu.Unlock()
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "image %#x already destroyed", im.obj.Base)
	}
	delete(st.images, im.obj.Base)
	st.mu.Unlock()
	return r.space.Free(im.obj.Base)
}

// checkRegion validates a region against the image's extent.
func (im *Image) checkRegion(op string, reg ImageRegion) error {
	ext := [3]uint64{im.desc.Width, 1, 1}
	switch im.desc.Geometry {
	case HSA_EXT_IMAGE_GEOMETRY_2D:
		ext[1] = im.desc.Height
	case HSA_EXT_IMAGE_GEOMETRY_3D:
		ext[1], ext[2] = im.desc.Height, im.desc.Depth
	case HSA_EXT_IMAGE_GEOMETRY_1DA:
		ext[1] = im.desc.ArraySize
	case HSA_EXT_IMAGE_GEOMETRY_2DA:
		ext[1], ext[2] = im.desc.Height, im.desc.ArraySize
	}
	for i := range ext {
		if reg.Range[i] == 0 || uint64(reg.Offset[i])+uint64(reg.Range[i]) > ext[i] {
			return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "region offset %v range %v outside the image's %v", reg.Offset, reg.Range, ext)
		}
	}
	return nil
}

// rowAddr is the address of the first element of row (y, z) at x. A 1D
// array's layer is its y coordinate, stored as a slice.
func (im *Image) rowAddr(x, y, z uint32) uint64 {
	if im.desc.Geometry == HSA_EXT_IMAGE_GEOMETRY_1DA {
		y, z = 0, y
	}
	return im.data + uint64(z)*im.slicePitch + uint64(y)*im.rowPitch + uint64(x)*im.f.elem
}

// RegionBytes is the number of bytes of linear memory a region of the
// image spans with the given pitches (0: tightly packed), as Import and
// Export read and write it.
func (im *Image) RegionBytes(rowPitch, slicePitch uint64, reg ImageRegion) (uint64, error) {
	const op = "Image.RegionBytes"
	if err := im.checkRegion(op, reg); err != nil {
		return 0, err
	}
	row, rowPitch, slicePitch := im.pitches(rowPitch, slicePitch, reg)
	if rowPitch < row || slicePitch < rowPitch*uint64(reg.Range[1]) {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "row pitch %d / slice pitch %d too small for a %d-byte row of %d rows", rowPitch, slicePitch, row, reg.Range[1])
	}
	return uint64(reg.Range[2]-1)*slicePitch + uint64(reg.Range[1]-1)*rowPitch + row, nil
}

// pitches returns a region's row size and the effective pitches.
func (im *Image) pitches(rowPitch, slicePitch uint64, reg ImageRegion) (row, rp, sp uint64) {
	row = uint64(reg.Range[0]) * im.f.elem
	if rowPitch == 0 {
		rowPitch = row
	}
	if slicePitch == 0 {
		slicePitch = rowPitch * uint64(reg.Range[1])
	}
	return row, rowPitch, slicePitch
}

// transfer copies a region between the image and linear memory mem, in
// either direction.
func (im *Image) transfer(op string, mem []byte, rowPitch, slicePitch uint64, reg ImageRegion, toImage bool) error {
	need, err := im.RegionBytes(rowPitch, slicePitch, reg)
	if err != nil {
		return err
	}
	if uint64(len(mem)) < need {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "memory of %d bytes, the region needs %d", len(mem), need)
	}
	row, rowPitch, slicePitch := im.pitches(rowPitch, slicePitch, reg)
	for z := uint32(0); z < reg.Range[2]; z++ {
		for y := uint32(0); y < reg.Range[1]; y++ {
			b, err := im.rt.bytes(op, "image data", im.rowAddr(reg.Offset[0], reg.Offset[1]+y, reg.Offset[2]+z), row)
			if err != nil {
				return err
			}
			m := mem[uint64(z)*slicePitch+uint64(y)*rowPitch:][:row]
			if toImage {
				copy(b, m)
			} else {
				copy(m, b)
			}
		}
	}
	return nil
}

// Import is hsa_ext_image_import: the region of the image from src, laid
// out with the given pitches (0: tightly packed).
func (im *Image) Import(src []byte, rowPitch, slicePitch uint64, reg ImageRegion) error {
	const op = "Image.Import"
	if err := im.rt.check(op); err != nil {
		return err
	}
	return im.transfer(op, src, rowPitch, slicePitch, reg, true)
}

// Export is hsa_ext_image_export, the reverse of Import.
func (im *Image) Export(dst []byte, rowPitch, slicePitch uint64, reg ImageRegion) error {
	const op = "Image.Export"
	if err := im.rt.check(op); err != nil {
		return err
	}
	return im.transfer(op, dst, rowPitch, slicePitch, reg, false)
}

// CopyImage is hsa_ext_image_copy: a region between two images of the
// same format (the HSA rule; rocpu compares element sizes and hardware
// formats).
func CopyImage(src *Image, srcOff [3]uint32, dst *Image, dstOff [3]uint32, rng [3]uint32) error {
	const op = "CopyImage"
	if err := src.rt.check(op); err != nil {
		return err
	}
	if src.f != dst.f {
		return errorf(op, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "images of different formats (channel type %d order %d, and %d %d)",
			src.desc.ChannelType, src.desc.ChannelOrder, dst.desc.ChannelType, dst.desc.ChannelOrder)
	}
	if err := src.checkRegion(op, ImageRegion{srcOff, rng}); err != nil {
		return err
	}
	if err := dst.checkRegion(op, ImageRegion{dstOff, rng}); err != nil {
		return err
	}
	row := uint64(rng[0]) * src.f.elem
	for z := uint32(0); z < rng[2]; z++ {
		for y := uint32(0); y < rng[1]; y++ {
			s, err := src.rt.bytes(op, "source image data", src.rowAddr(srcOff[0], srcOff[1]+y, srcOff[2]+z), row)
			if err != nil {
				return err
			}
			d, err := dst.rt.bytes(op, "destination image data", dst.rowAddr(dstOff[0], dstOff[1]+y, dstOff[2]+z), row)
			if err != nil {
				return err
			}
			copy(d, s)
		}
	}
	return nil
}

// Clear is hsa_ext_image_clear: every element of the region takes the
// value data gives for the image's access components (R, R G, or R G B A:
// one per channel of the order), as f32 bits for float and normalized
// channel types and as int32/uint32 for integer ones, converted as the
// HSA PRM's channel types say: normalized and half types round to nearest
// even after clamping (the image_store conversions, emu.EncodeElement),
// integer types saturate.
func (im *Image) Clear(data []uint32, reg ImageRegion) error {
	const op = "Image.Clear"
	if err := im.rt.check(op); err != nil {
		return err
	}
	if err := im.checkRegion(op, reg); err != nil {
		return err
	}
	if n := im.AccessComponents(); len(data) < n {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%d clear values for %d access components", len(data), im.AccessComponents())
	}
	// Access component j (R, G, B, A) lands in memory component sel[j]-X.
	var comp [4]uint32
	for j, s := range im.f.sel {
		if s >= selX {
			comp[s-selX] = saturate(data[j], im.desc.ChannelType)
		}
	}
	elem, err := emu.EncodeElement(im.f.dfmt, im.f.nfmt, comp)
	if err != nil {
		return wrapf(op, HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, err, "clear value")
	}
	for z := uint32(0); z < reg.Range[2]; z++ {
		for y := uint32(0); y < reg.Range[1]; y++ {
			row, err := im.rt.bytes(op, "image data", im.rowAddr(reg.Offset[0], reg.Offset[1]+y, reg.Offset[2]+z), uint64(reg.Range[0])*im.f.elem)
			if err != nil {
				return err
			}
			for x := 0; x < len(row); x += len(elem) {
				copy(row[x:], elem)
			}
		}
	}
	return nil
}

// saturate clamps an integer clear value to its channel type's range (the
// store conversion keeps the low bits).
func saturate(v uint32, ct uint32) uint32 {
	sat := func(lo, hi int64, x int64) uint32 { return uint32(min(max(x, lo), hi)) }
	switch ct {
	case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8:
		return sat(-128, 127, int64(int32(v)))
	case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16:
		return sat(-32768, 32767, int64(int32(v)))
	case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8:
		return sat(0, 255, int64(v))
	case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16:
		return sat(0, 65535, int64(v))
	}
	return v
}

// AccessComponents is the number of values Clear takes for the image.
func (im *Image) AccessComponents() int {
	n := 0
	for _, s := range im.f.sel {
		if s >= selX {
			n++
		}
	}
	return n
}

// CreateSampler is hsa_ext_sampler_create.
func (a *Agent) CreateSampler(d SamplerDescriptor) (*Sampler, error) {
	const op = "CreateSampler"
	r := a.rt
	if err := r.check(op); err != nil {
		return nil, err
	}
	if a.typ != HSA_DEVICE_TYPE_GPU {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "%v has no sampler support", a)
	}
	words, err := encodeSampler(&d)
	if err != nil {
		return nil, errorf(op, HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED, "sampler %v", err)
	}
	reg, err := r.space.Alloc(SamplerObjectDwords*4, 64, vmem.KindPool, "sampler descriptor")
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "sampler descriptor")
	}
	copy(unsafe.Slice((*uint32)(reg.Pointer(reg.Base, SamplerObjectDwords*4)), SamplerObjectDwords), words[:])
	s := &Sampler{rt: r, obj: reg}
	st := &r.img
	st.mu.Lock()
	if st.samplers == nil {
		st.samplers = map[uint64]*Sampler{}
	}
	st.samplers[reg.Base] = s
	st.mu.Unlock()
	return s, nil
}

// Handle returns the hsa_ext_sampler_t handle: the S#'s address.
func (s *Sampler) Handle() uint64 { return s.obj.Base }

// Words returns the sampler object's eight dwords.
func (s *Sampler) Words() (w [SamplerObjectDwords]uint32) {
	copy(w[:], unsafe.Slice((*uint32)(s.obj.Pointer(s.obj.Base, SamplerObjectDwords*4)), SamplerObjectDwords))
	return w
}

// Sampler returns the live sampler whose handle is h.
func (r *Runtime) Sampler(h uint64) (*Sampler, error) {
	if err := r.check("Sampler"); err != nil {
		return nil, err
	}
	r.img.mu.Lock()
	s := r.img.samplers[h]
	r.img.mu.Unlock()
	if s == nil {
		return nil, errorf("Sampler", HSA_STATUS_ERROR_INVALID_ARGUMENT, "no sampler with handle %#x", h)
	}
	return s, nil
}

// Destroy is hsa_ext_sampler_destroy.
func (s *Sampler) Destroy() error {
	const op = "Sampler.Destroy"
	r := s.rt
	if err := r.check(op); err != nil {
		return err
	}
	st := &r.img
	st.mu.Lock()
	if st.samplers[s.obj.Base] != s {
		st.mu.Unlock()
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "sampler %#x already destroyed", s.obj.Base)
	}
	delete(st.samplers, s.obj.Base)
	st.mu.Unlock()
	return r.space.Free(s.obj.Base)
}

func (im *Image) String() string {
	return fmt.Sprintf("image %#x (geometry %d, %dx%dx%d)", im.obj.Base, im.desc.Geometry, im.desc.Width, im.desc.Height, im.desc.Depth)
}
