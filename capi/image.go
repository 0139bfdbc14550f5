package capi

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"unsafe"

	"github.com/rocpu/rocpu/hsa"
)

// The image extension (hsa_image.c unpacks the C structs into these
// arguments). Descriptors arrive as {geometry, channel type, channel
// order} and {width, height, depth, array_size}; regions as offset[3] and
// range[3].

func imageDesc(g *C.uint32_t, sz *C.uint64_t) hsa.ImageDescriptor {
	gs := unsafe.Slice((*uint32)(unsafe.Pointer(g)), 3)
	ss := unsafe.Slice((*uint64)(unsafe.Pointer(sz)), 4)
	return hsa.ImageDescriptor{Geometry: gs[0], ChannelType: gs[1], ChannelOrder: gs[2],
		Width: ss[0], Height: ss[1], Depth: ss[2], ArraySize: ss[3]}
}

func imageAgent(op string, agent C.uint64_t) (*hsa.Runtime, *hsa.Agent, error) {
	r, err := runtime(op)
	if err != nil {
		return nil, nil, err
	}
	a, err := r.Agent(uint64(agent))
	if err != nil {
		return nil, nil, err
	}
	return r, a, nil
}

//export rocpu_null_arg
func rocpu_null_arg(name, what *C.char) status {
	op := C.GoString(name)
	if _, err := runtime(op); err != nil {
		return fail(op, err)
	}
	return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL %s", C.GoString(what)))
}

//export rocpu_image_capability
func rocpu_image_capability(agent C.uint64_t, geometry, ctype, corder, layout C.uint32_t, out *C.uint32_t) status {
	const op = "hsa_ext_image_get_capability"
	_, a, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return nullValue(op)
	}
	c, err := a.ImageCapability(uint32(geometry), uint32(ctype), uint32(corder), uint32(layout))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint32_t(c)
	return ok
}

//export rocpu_image_data_info
func rocpu_image_data_info(agent C.uint64_t, g *C.uint32_t, sz *C.uint64_t, perm, layout C.uint32_t, rowPitch, slicePitch C.uint64_t, out *C.uint64_t) status {
	const op = "hsa_ext_image_data_get_info"
	_, a, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return nullValue(op)
	}
	info, err := a.ImageDataInfo(imageDesc(g, sz), uint32(perm), uint32(layout), uint64(rowPitch), uint64(slicePitch))
	if err != nil {
		return fail(op, err)
	}
	o := unsafe.Slice((*uint64)(unsafe.Pointer(out)), 2)
	o[0], o[1] = info.Size, info.Alignment
	return ok
}

//export rocpu_image_create
func rocpu_image_create(agent C.uint64_t, g *C.uint32_t, sz *C.uint64_t, data unsafe.Pointer, perm, layout C.uint32_t, rowPitch, slicePitch C.uint64_t, out *C.uint64_t) status {
	const op = "hsa_ext_image_create"
	_, a, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return nullValue(op)
	}
	im, err := a.CreateImage(imageDesc(g, sz), uint64(uintptr(data)), uint32(perm), uint32(layout), uint64(rowPitch), uint64(slicePitch))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(im.Handle())
	return ok
}

//export rocpu_image_destroy
func rocpu_image_destroy(agent, image C.uint64_t) status {
	const op = "hsa_ext_image_destroy"
	r, _, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	im, err := r.Image(uint64(image))
	if err == nil {
		err = im.Destroy()
	}
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_image_copy
func rocpu_image_copy(agent, src C.uint64_t, srcOff *C.uint32_t, dst C.uint64_t, dstOff, rng *C.uint32_t) status {
	const op = "hsa_ext_image_copy"
	r, _, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	s, err := r.Image(uint64(src))
	if err != nil {
		return fail(op, err)
	}
	d, err := r.Image(uint64(dst))
	if err != nil {
		return fail(op, err)
	}
	dim := func(p *C.uint32_t) (v [3]uint32) {
		copy(v[:], unsafe.Slice((*uint32)(unsafe.Pointer(p)), 3))
		return v
	}
	if err := hsa.CopyImage(s, dim(srcOff), d, dim(dstOff), dim(rng)); err != nil {
		return fail(op, err)
	}
	return ok
}

// rocpu_image_transfer is hsa_ext_image_import (toImage != 0) and
// hsa_ext_image_export. mem is application memory, registered or not.
//
//export rocpu_image_transfer
func rocpu_image_transfer(agent, image C.uint64_t, mem unsafe.Pointer, rowPitch, slicePitch C.uint64_t, region *C.uint32_t, toImage C.int) status {
	op := "hsa_ext_image_export"
	if toImage != 0 {
		op = "hsa_ext_image_import"
	}
	r, _, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	im, err := r.Image(uint64(image))
	if err != nil {
		return fail(op, err)
	}
	if mem == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL memory"))
	}
	rs := unsafe.Slice((*uint32)(unsafe.Pointer(region)), 6)
	reg := hsa.ImageRegion{Offset: [3]uint32{rs[0], rs[1], rs[2]}, Range: [3]uint32{rs[3], rs[4], rs[5]}}
	n, err := im.RegionBytes(uint64(rowPitch), uint64(slicePitch), reg)
	if err != nil {
		return fail(op, err)
	}
	b := unsafe.Slice((*byte)(mem), n)
	if toImage != 0 {
		err = im.Import(b, uint64(rowPitch), uint64(slicePitch), reg)
	} else {
		err = im.Export(b, uint64(rowPitch), uint64(slicePitch), reg)
	}
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_sampler_create
func rocpu_sampler_create(agent C.uint64_t, coord, filter, addr C.uint32_t, out *C.uint64_t) status {
	const op = "hsa_ext_sampler_create"
	_, a, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return nullValue(op)
	}
	s, err := a.CreateSampler(hsa.SamplerDescriptor{CoordinateMode: uint32(coord), FilterMode: uint32(filter), AddressMode: uint32(addr)})
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(s.Handle())
	return ok
}

//export rocpu_sampler_destroy
func rocpu_sampler_destroy(agent, sampler C.uint64_t) status {
	const op = "hsa_ext_sampler_destroy"
	r, _, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	s, err := r.Sampler(uint64(sampler))
	if err == nil {
		err = s.Destroy()
	}
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_image_clear
func rocpu_image_clear(agent, image C.uint64_t, data unsafe.Pointer, region *C.uint32_t) status {
	const op = "hsa_ext_image_clear"
	r, _, err := imageAgent(op, agent)
	if err != nil {
		return fail(op, err)
	}
	im, err := r.Image(uint64(image))
	if err != nil {
		return fail(op, err)
	}
	if data == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL data"))
	}
	rs := unsafe.Slice((*uint32)(unsafe.Pointer(region)), 6)
	reg := hsa.ImageRegion{Offset: [3]uint32{rs[0], rs[1], rs[2]}, Range: [3]uint32{rs[3], rs[4], rs[5]}}
	// data holds one 32-bit value per access component of the order.
	if err := im.Clear(unsafe.Slice((*uint32)(data), im.AccessComponents()), reg); err != nil {
		return fail(op, err)
	}
	return ok
}
