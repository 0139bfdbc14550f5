package codeobject

import (
	"fmt"

	"github.com/rocpu/rocpu/target"
)

// DescriptorConfig says what the .amdhsa_* directives of an .amdhsa_kernel
// block say (INVENTORY §10.3). DefaultDescriptorConfig gives the
// assembler's defaults; BuildDescriptor turns a config into the 64 bytes.
type DescriptorConfig struct {
	GroupSegmentFixedSize   uint32 // .amdhsa_group_segment_fixed_size
	PrivateSegmentFixedSize uint32 // .amdhsa_private_segment_fixed_size
	KernargSize             uint32 // .amdhsa_kernarg_size

	// User SGPRs (.amdhsa_user_sgpr_*). USER_SGPR_COUNT is computed.
	PrivateSegmentBuffer, DispatchPtr, QueuePtr, KernargSegmentPtr bool
	DispatchID, FlatScratchInit, PrivateSegmentSize                bool
	KernargPreloadLength, KernargPreloadOffset                     uint32

	// WaveSize is 32 or 64; 0 means the processor's default.
	WaveSize         int
	UsesDynamicStack bool

	// System SGPRs and VGPRs.
	EnablePrivateSegment                                    bool // .amdhsa_system_sgpr_private_segment_wavefront_offset / .amdhsa_enable_private_segment
	WorkgroupIDX, WorkgroupIDY, WorkgroupIDZ, WorkgroupInfo bool
	WorkitemIDDims                                          uint32 // .amdhsa_system_vgpr_workitem_id: 0 (X), 1 (X,Y), 2 (X,Y,Z)

	// VGPRs is .amdhsa_next_free_vgpr (on gfx90a/gfx94x the unified
	// VGPR+AGPR total); SGPRs the SGPRs used including VCC, FLAT_SCRATCH
	// and XNACK_MASK when reserved (.amdhsa_next_free_sgpr plus the
	// .amdhsa_reserve_* registers).
	VGPRs, SGPRs int
	// AccumOffset is .amdhsa_accum_offset (gfx90a, gfx94x): 4..256, a
	// multiple of 4.
	AccumOffset int

	FloatRoundMode32, FloatRoundMode1664    uint32
	FloatDenormMode32, FloatDenormMode1664  uint32
	DX10Clamp, IEEEMode, FP16Overflow       bool
	WGPMode, MemoryOrdered, ForwardProgress bool // GFX10+
	TGSplit                                 bool // gfx90a, gfx94x
	SharedVGPRCount                         uint32
	// Exceptions is RSRC2 bits 30:24 (.amdhsa_exception_*) as a mask,
	// bit 0 = fp_ieee_invalid_op ... bit 6 = int_div_zero.
	Exceptions uint32
}

// DefaultDescriptorConfig returns the assembler's defaults for p
// (INVENTORY §10.3): work-group id X enabled, FLOAT_DENORM_MODE_16_64 = 3,
// DX10_CLAMP and IEEE_MODE on (GFX6-GFX11), MEM_ORDERED on and WGP mode
// (cumode off) on GFX10+.
func DefaultDescriptorConfig(p *target.Processor) DescriptorConfig {
	c := DescriptorConfig{WorkgroupIDX: true, FloatDenormMode1664: 3}
	if p.Family < target.GFX12 {
		c.DX10Clamp, c.IEEEMode = true, true
	}
	if p.Family >= target.GFX10 {
		c.MemoryOrdered, c.WGPMode = true, true
	}
	return c
}

// BuildDescriptor encodes c for processor p, computing the granulated
// register counts with the target package and USER_SGPR_COUNT from the
// enabled user SGPRs. KERNEL_CODE_ENTRY_BYTE_OFFSET is left 0 (Builder
// fills it).
func BuildDescriptor(p *target.Processor, c DescriptorConfig) (KernelDescriptor, error) {
	var kd KernelDescriptor
	g := genOf(p)
	wave := c.WaveSize
	if wave == 0 {
		wave = p.DefaultWaveSize
	}
	if !p.SupportsWaveSize(wave) {
		return kd, fmt.Errorf("codeobject: %s does not support wave%d", p.Name, wave)
	}
	kd.GroupSegmentFixedSize, kd.PrivateSegmentFixedSize, kd.KernargSize = c.GroupSegmentFixedSize, c.PrivateSegmentFixedSize, c.KernargSize

	vg, err := p.GranulatedVGPRCount(max(c.VGPRs, 1), 0, wave)
	if p.UnifiedVGPRFile {
		// next_free_vgpr already counts the unified file.
		vg, err = p.GranulatedVGPRCount(min(max(c.VGPRs, 1), p.VGPRs), max(c.VGPRs-p.VGPRs, 0), wave)
	}
	if err != nil {
		return kd, err
	}
	sg, err := p.GranulatedSGPRCount(c.SGPRs)
	if err != nil {
		return kd, err
	}
	b := func(x bool) uint32 {
		if x {
			return 1
		}
		return 0
	}
	r1 := vg | sg<<6 | (c.FloatRoundMode32&3)<<12 | (c.FloatRoundMode1664&3)<<14 | (c.FloatDenormMode32&3)<<16 | (c.FloatDenormMode1664&3)<<18
	if g.fam < target.GFX12 {
		r1 |= b(c.DX10Clamp)<<21 | b(c.IEEEMode)<<23
	}
	if g.fam >= target.GFX9 {
		r1 |= b(c.FP16Overflow) << 26
	}
	if g.fam >= target.GFX10 {
		r1 |= b(c.WGPMode)<<29 | b(c.MemoryOrdered)<<30 | b(c.ForwardProgress)<<31
	}
	kd.ComputePgmRsrc1 = r1

	props := uint32(0)
	user := uint32(0)
	for _, u := range []struct {
		on   bool
		bit  uint32
		regs uint32
	}{
		{c.PrivateSegmentBuffer, KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, 4},
		{c.DispatchPtr, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR, 2},
		{c.QueuePtr, KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR, 2},
		{c.KernargSegmentPtr, KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR, 2},
		{c.DispatchID, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID, 2},
		{c.FlatScratchInit, KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT, 2},
		{c.PrivateSegmentSize, KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, 1},
	} {
		if u.on {
			props |= u.bit
			user += u.regs
		}
	}
	if g.architected && (c.PrivateSegmentBuffer || c.FlatScratchInit) {
		return kd, fmt.Errorf("codeobject: %s has architected flat scratch: no private segment buffer or flat scratch init SGPRs", p.Name)
	}
	if c.KernargPreloadLength != 0 || c.KernargPreloadOffset != 0 {
		if !p.KernargPreload {
			return kd, notSupported("kernarg preload on %s", p.Name)
		}
		kd.KernargPreload = uint16(c.KernargPreloadLength&0x7f | (c.KernargPreloadOffset&0x1ff)<<7)
		user += c.KernargPreloadLength
	}
	if user > 16 {
		return kd, fmt.Errorf("codeobject: %d user SGPRs requested, at most 16", user)
	}
	if wave == 32 && g.fam >= target.GFX10 {
		props |= KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32
	}
	if c.UsesDynamicStack {
		props |= KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK
	}
	kd.KernelCodeProperties = uint16(props)

	if c.WorkitemIDDims > 2 {
		return kd, fmt.Errorf("codeobject: ENABLE_VGPR_WORKITEM_ID %d (want 0..2)", c.WorkitemIDDims)
	}
	kd.ComputePgmRsrc2 = b(c.EnablePrivateSegment) | user<<1 | b(c.WorkgroupIDX)<<7 | b(c.WorkgroupIDY)<<8 |
		b(c.WorkgroupIDZ)<<9 | b(c.WorkgroupInfo)<<10 | c.WorkitemIDDims<<11 | (c.Exceptions&0x7f)<<24

	switch {
	case g.unified:
		acc := c.AccumOffset
		if acc == 0 {
			acc = max((min(c.VGPRs, p.VGPRs)+3)&^3, 4)
		}
		if acc < 4 || acc > 256 || acc%4 != 0 {
			return kd, fmt.Errorf("codeobject: accum_offset %d (want 4..256, a multiple of 4)", acc)
		}
		kd.ComputePgmRsrc3 = uint32(acc/4-1) | b(c.TGSplit)<<16
	case g.fam == target.GFX10 || g.fam == target.GFX11:
		if c.SharedVGPRCount != 0 && wave == 32 {
			return kd, fmt.Errorf("codeobject: SHARED_VGPR_COUNT must be 0 in wave32")
		}
		kd.ComputePgmRsrc3 = c.SharedVGPRCount & 0xf
	}
	return kd, nil
}
