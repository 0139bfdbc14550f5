package codeobject

import (
	"fmt"

	"github.com/rocpu/rocpu/internal/abi"
	"github.com/rocpu/rocpu/target"
)

// KernelDescriptorSize is the size of a V3+ kernel descriptor.
const KernelDescriptorSize = 64

// AMDKernelCodeSize is the size of a V2 amd_kernel_code_t.
const AMDKernelCodeSize = 256

// KernelDescriptor is the 64-byte code object V3+ kernel descriptor
// (INVENTORY §4.1, llvm::amdhsa::kernel_descriptor_t). Reserved bytes are
// kept so that encoding what was decoded gives the same bytes.
type KernelDescriptor struct {
	GroupSegmentFixedSize     uint32
	PrivateSegmentFixedSize   uint32
	KernargSize               uint32
	Reserved0                 [4]byte
	KernelCodeEntryByteOffset int64
	Reserved1                 [20]byte
	ComputePgmRsrc3           uint32
	ComputePgmRsrc1           uint32
	ComputePgmRsrc2           uint32
	KernelCodeProperties      uint16
	KernargPreload            uint16
	Reserved3                 [4]byte
}

// DecodeKernelDescriptor decodes the first 64 bytes of b.
func DecodeKernelDescriptor(b []byte) (*KernelDescriptor, error) {
	var a abi.KernelDescriptor
	if err := a.UnmarshalBinary(b); err != nil {
		return nil, formatErr(0, "kernel descriptor is %d bytes, want %d", len(b), KernelDescriptorSize)
	}
	kd := KernelDescriptor(a)
	return &kd, nil
}

// Encode returns the 64 bytes of kd.
func (kd *KernelDescriptor) Encode() []byte {
	a := abi.KernelDescriptor(*kd)
	b, _ := a.MarshalBinary()
	return b
}

// Kernel code properties (descriptor bits 463:448; INVENTORY §4.1).
const (
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER = 1 << 0
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR           = 1 << 1
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR              = 1 << 2
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR    = 1 << 3
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID            = 1 << 4
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT      = 1 << 5
	KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE   = 1 << 6
	KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32            = 1 << 10
	KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK                 = 1 << 11
)

// Field is one named bit field of a descriptor word, with its value as
// decoded for a processor generation. Rule says what the spec requires of it.
type Field struct {
	Name  string
	Word  string // "COMPUTE_PGM_RSRC1", ..., "KERNEL_CODE_PROPERTIES", "KERNARG_PRELOAD"
	Lo    uint   // first bit within the word
	Width uint
	Value uint32
	// Rule is "" for an ordinary field, RuleReserved for a field reserved
	// on this generation, RuleCPFills for a field the command processor
	// fills (must be 0 in the descriptor).
	Rule string
	// ByteOff is the field's byte offset within the descriptor.
	ByteOff int64
}

// Field rules.
const (
	RuleReserved = "reserved, must be 0"
	RuleCPFills  = "must be 0 (filled by the CP)"
)

type fieldSpec struct {
	name  string
	lo, w uint
	rule  func(g gen) string // nil: ordinary
	valid func(g gen) bool   // nil: always this name
}

// gen is what descriptor decoding needs to know about a processor.
type gen struct {
	fam         target.Family
	unified     bool // gfx90a, gfx94x, gfx950: ACCUM_OFFSET, TG_SPLIT
	preload     bool // kernarg preload
	architected bool // architected flat scratch
}

func genOf(p *target.Processor) gen {
	if p == nil {
		return gen{fam: target.GFX9}
	}
	return gen{fam: p.Family, unified: p.UnifiedVGPRFile, preload: p.KernargPreload, architected: p.FlatScratch == target.FlatScratchArchitected}
}

func cp(gen) string       { return RuleCPFills }
func reserved(gen) string { return RuleReserved }
func reservedBefore(f target.Family) func(gen) string {
	return func(g gen) string {
		if g.fam < f {
			return RuleReserved
		}
		return ""
	}
}
func reservedFrom(f target.Family) func(gen) string {
	return func(g gen) string {
		if g.fam >= f {
			return RuleReserved
		}
		return ""
	}
}

var rsrc1Fields = []fieldSpec{
	{name: "GRANULATED_WORKITEM_VGPR_COUNT", lo: 0, w: 6},
	{name: "GRANULATED_WAVEFRONT_SGPR_COUNT", lo: 6, w: 4, rule: reservedFrom(target.GFX10)},
	{name: "PRIORITY", lo: 10, w: 2, rule: cp},
	{name: "FLOAT_ROUND_MODE_32", lo: 12, w: 2},
	{name: "FLOAT_ROUND_MODE_16_64", lo: 14, w: 2},
	{name: "FLOAT_DENORM_MODE_32", lo: 16, w: 2},
	{name: "FLOAT_DENORM_MODE_16_64", lo: 18, w: 2},
	{name: "PRIV", lo: 20, w: 1, rule: cp},
	{name: "ENABLE_DX10_CLAMP", lo: 21, w: 1, valid: func(g gen) bool { return g.fam < target.GFX12 }},
	{name: "WG_RR_EN", lo: 21, w: 1, valid: func(g gen) bool { return g.fam >= target.GFX12 }},
	{name: "DEBUG_MODE", lo: 22, w: 1, rule: cp},
	{name: "ENABLE_IEEE_MODE", lo: 23, w: 1, valid: func(g gen) bool { return g.fam < target.GFX12 }},
	{name: "DISABLE_PERF", lo: 23, w: 1, rule: reserved, valid: func(g gen) bool { return g.fam >= target.GFX12 }},
	{name: "BULKY", lo: 24, w: 1, rule: cp},
	{name: "CDBG_USER", lo: 25, w: 1, rule: cp},
	{name: "FP16_OVFL", lo: 26, w: 1, rule: reservedBefore(target.GFX9)},
	{name: "RESERVED0", lo: 27, w: 2, rule: reserved},
	{name: "WGP_MODE", lo: 29, w: 1, rule: reservedBefore(target.GFX10)},
	{name: "MEM_ORDERED", lo: 30, w: 1, rule: reservedBefore(target.GFX10)},
	{name: "FWD_PROGRESS", lo: 31, w: 1, rule: reservedBefore(target.GFX10)},
}

var rsrc2Fields = []fieldSpec{
	{name: "ENABLE_PRIVATE_SEGMENT", lo: 0, w: 1},
	{name: "USER_SGPR_COUNT", lo: 1, w: 5},
	{name: "ENABLE_TRAP_HANDLER", lo: 6, w: 1, rule: cp},
	{name: "ENABLE_SGPR_WORKGROUP_ID_X", lo: 7, w: 1},
	{name: "ENABLE_SGPR_WORKGROUP_ID_Y", lo: 8, w: 1},
	{name: "ENABLE_SGPR_WORKGROUP_ID_Z", lo: 9, w: 1},
	{name: "ENABLE_SGPR_WORKGROUP_INFO", lo: 10, w: 1},
	{name: "ENABLE_VGPR_WORKITEM_ID", lo: 11, w: 2},
	{name: "ENABLE_EXCEPTION_ADDRESS_WATCH", lo: 13, w: 1, rule: cp},
	{name: "ENABLE_EXCEPTION_MEMORY", lo: 14, w: 1, rule: cp},
	{name: "GRANULATED_LDS_SIZE", lo: 15, w: 9, rule: cp},
	{name: "ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", lo: 24, w: 1},
	{name: "ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", lo: 25, w: 1},
	{name: "ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", lo: 26, w: 1},
	{name: "ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", lo: 27, w: 1},
	{name: "ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", lo: 28, w: 1},
	{name: "ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", lo: 29, w: 1},
	{name: "ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", lo: 30, w: 1},
	{name: "RESERVED1", lo: 31, w: 1, rule: reserved},
}

func isUnified(g gen) bool { return g.unified }
func isGFX10or11(g gen) bool {
	return !g.unified && (g.fam == target.GFX10 || g.fam == target.GFX11)
}
func isGFX12(g gen) bool { return !g.unified && g.fam >= target.GFX12 }
func noRsrc3(g gen) bool { return !g.unified && g.fam < target.GFX10 }

var rsrc3Fields = []fieldSpec{
	{name: "ACCUM_OFFSET", lo: 0, w: 6, valid: isUnified},
	{name: "RESERVED0", lo: 6, w: 10, rule: reserved, valid: isUnified},
	{name: "TG_SPLIT", lo: 16, w: 1, valid: isUnified},
	{name: "RESERVED1", lo: 17, w: 15, rule: reserved, valid: isUnified},

	{name: "SHARED_VGPR_COUNT", lo: 0, w: 4, valid: isGFX10or11},
	{name: "INST_PREF_SIZE", lo: 4, w: 6, rule: reservedBefore(target.GFX11), valid: isGFX10or11},
	{name: "TRAP_ON_START", lo: 10, w: 1, rule: func(g gen) string {
		if g.fam < target.GFX11 {
			return RuleReserved
		}
		return RuleCPFills
	}, valid: isGFX10or11},
	{name: "TRAP_ON_END", lo: 11, w: 1, rule: func(g gen) string {
		if g.fam < target.GFX11 {
			return RuleReserved
		}
		return RuleCPFills
	}, valid: isGFX10or11},
	{name: "RESERVED0", lo: 12, w: 19, rule: reserved, valid: isGFX10or11},
	{name: "IMAGE_OP", lo: 31, w: 1, rule: reservedBefore(target.GFX11), valid: isGFX10or11},

	{name: "RESERVED0", lo: 0, w: 4, rule: reserved, valid: isGFX12},
	{name: "INST_PREF_SIZE", lo: 4, w: 8, valid: isGFX12},
	{name: "RESERVED1", lo: 12, w: 1, rule: reserved, valid: isGFX12},
	{name: "GLG_EN", lo: 13, w: 1, valid: isGFX12},
	{name: "RESERVED2", lo: 14, w: 17, rule: reserved, valid: isGFX12},
	{name: "IMAGE_OP", lo: 31, w: 1, valid: isGFX12},

	{name: "RESERVED", lo: 0, w: 32, rule: reserved, valid: noRsrc3},
}

var propFields = []fieldSpec{
	{name: "ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", lo: 0, w: 1, rule: func(g gen) string {
		if g.architected {
			return RuleReserved
		}
		return ""
	}},
	{name: "ENABLE_SGPR_DISPATCH_PTR", lo: 1, w: 1},
	{name: "ENABLE_SGPR_QUEUE_PTR", lo: 2, w: 1},
	{name: "ENABLE_SGPR_KERNARG_SEGMENT_PTR", lo: 3, w: 1},
	{name: "ENABLE_SGPR_DISPATCH_ID", lo: 4, w: 1},
	{name: "ENABLE_SGPR_FLAT_SCRATCH_INIT", lo: 5, w: 1, rule: func(g gen) string {
		if g.architected {
			return RuleReserved
		}
		return ""
	}},
	{name: "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", lo: 6, w: 1},
	{name: "RESERVED0", lo: 7, w: 3, rule: reserved},
	{name: "ENABLE_WAVEFRONT_SIZE32", lo: 10, w: 1, rule: reservedBefore(target.GFX10)},
	{name: "USES_DYNAMIC_STACK", lo: 11, w: 1},
	{name: "RESERVED1", lo: 12, w: 4, rule: reserved},
}

var preloadFields = []fieldSpec{
	{name: "KERNARG_PRELOAD_SPEC_LENGTH", lo: 0, w: 7, rule: func(g gen) string {
		if !g.preload {
			return RuleReserved
		}
		return ""
	}},
	{name: "KERNARG_PRELOAD_SPEC_OFFSET", lo: 7, w: 9, rule: func(g gen) string {
		if !g.preload {
			return RuleReserved
		}
		return ""
	}},
}

func decodeFields(out []Field, word string, v uint32, byteOff int64, specs []fieldSpec, g gen) []Field {
	for _, s := range specs {
		if s.valid != nil && !s.valid(g) {
			continue
		}
		f := Field{Name: s.name, Word: word, Lo: s.lo, Width: s.w, Value: (v >> s.lo) & (1<<s.w - 1), ByteOff: byteOff + int64(s.lo/8)}
		if s.w == 32 {
			f.Value = v
		}
		if s.rule != nil {
			f.Rule = s.rule(g)
		}
		out = append(out, f)
	}
	return out
}

// Fields decodes every bit field of the descriptor's RSRC1/2/3, kernel code
// properties and kernarg preload words as processor p's generation defines
// them (p nil: GFX9 without RSRC3).
func (kd *KernelDescriptor) Fields(p *target.Processor) []Field {
	g := genOf(p)
	var out []Field
	out = decodeFields(out, "COMPUTE_PGM_RSRC1", kd.ComputePgmRsrc1, 48, rsrc1Fields, g)
	out = decodeFields(out, "COMPUTE_PGM_RSRC2", kd.ComputePgmRsrc2, 52, rsrc2Fields, g)
	out = decodeFields(out, "COMPUTE_PGM_RSRC3", kd.ComputePgmRsrc3, 44, rsrc3Fields, g)
	out = decodeFields(out, "KERNEL_CODE_PROPERTIES", uint32(kd.KernelCodeProperties), 56, propFields, g)
	out = decodeFields(out, "KERNARG_PRELOAD", uint32(kd.KernargPreload), 58, preloadFields, g)
	return out
}

// Field returns the value of the named field of word ("COMPUTE_PGM_RSRC1",
// ...) for processor p; ok is false if the generation has no such field.
func (kd *KernelDescriptor) Field(p *target.Processor, word, name string) (uint32, bool) {
	for _, f := range kd.Fields(p) {
		if f.Word == word && f.Name == name {
			return f.Value, true
		}
	}
	return 0, false
}

func bits(v uint32, lo, w uint) uint32 { return (v >> lo) & (1<<w - 1) }

// WaveSize returns the wavefront size the descriptor selects on p: 32 when
// ENABLE_WAVEFRONT_SIZE32 is set on GFX10+, else 64.
func (kd *KernelDescriptor) WaveSize(p *target.Processor) int {
	if p != nil && p.Family >= target.GFX10 && kd.KernelCodeProperties&KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32 != 0 {
		return 32
	}
	return 64
}

// Resources is what a kernel's descriptor says it needs, in real units.
type Resources struct {
	WaveSize int
	// VGPRs is the per-lane allocation GRANULATED_WORKITEM_VGPR_COUNT
	// gives; on a unified file it includes the AGPRs.
	VGPRs int
	// ArchVGPRs and AGPRs split VGPRs on a unified file (gfx90a, gfx94x)
	// at ACCUM_OFFSET; elsewhere ArchVGPRs = VGPRs and AGPRs = 0.
	ArchVGPRs, AGPRs int
	// SGPRs is the allocation GRANULATED_WAVEFRONT_SGPR_COUNT gives
	// (fixed on GFX10+).
	SGPRs int
	// LDS and Scratch are GROUP_SEGMENT_FIXED_SIZE (bytes per
	// work-group) and PRIVATE_SEGMENT_FIXED_SIZE (bytes per work-item).
	LDS, Scratch uint32
	KernargSize  uint32
	UserSGPRs    int // USER_SGPR_COUNT
	// SGPRInputs names the initial SGPR contents in order (§5.1), with
	// their register counts; VGPRInputs the initial VGPRs.
	SGPRInputs []Input
	VGPRInputs []Input
	// KernargPreloadLength/Offset are in dwords.
	KernargPreloadLength, KernargPreloadOffset int
	UsesDynamicStack                           bool
}

// Input is one initial register input: its name and how many registers.
type Input struct {
	Name  string
	Count int
}

// Resources decodes the descriptor's register, segment and input settings
// for processor p, using the target package's granularity rules.
func (kd *KernelDescriptor) Resources(p *target.Processor) (Resources, error) {
	if p == nil {
		return Resources{}, fmt.Errorf("codeobject: decoding a kernel descriptor needs the processor")
	}
	r := Resources{
		WaveSize: kd.WaveSize(p),
		LDS:      kd.GroupSegmentFixedSize, Scratch: kd.PrivateSegmentFixedSize, KernargSize: kd.KernargSize,
		UserSGPRs:            int(bits(kd.ComputePgmRsrc2, 1, 5)),
		KernargPreloadLength: int(bits(uint32(kd.KernargPreload), 0, 7)),
		KernargPreloadOffset: int(bits(uint32(kd.KernargPreload), 7, 9)),
		UsesDynamicStack:     kd.KernelCodeProperties&KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK != 0,
	}
	var err error
	if r.VGPRs, err = p.VGPRsFromGranulated(bits(kd.ComputePgmRsrc1, 0, 6), r.WaveSize); err != nil {
		return r, err
	}
	r.ArchVGPRs = r.VGPRs
	if p.UnifiedVGPRFile {
		accum := 4 * (int(bits(kd.ComputePgmRsrc3, 0, 6)) + 1)
		if accum < r.VGPRs {
			r.ArchVGPRs, r.AGPRs = accum, r.VGPRs-accum
		}
	}
	if r.SGPRs, err = sgprAllocation(p, kd.ComputePgmRsrc1); err != nil {
		return r, err
	}
	r.SGPRInputs, r.VGPRInputs = initialInputs(uint32(kd.KernelCodeProperties), kd.ComputePgmRsrc2, r.KernargPreloadLength, p, false)
	return r, nil
}

// initialInputs lists the SGPR and VGPR inputs in set-up order (§5.1, §5.2).
func initialInputs(props, rsrc2 uint32, preload int, p *target.Processor, v2 bool) (sg, vg []Input) {
	user := []struct {
		bit   uint32
		name  string
		count int
	}{
		{KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, "private_segment_buffer", 4},
		{KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR, "dispatch_ptr", 2},
		{KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR, "queue_ptr", 2},
		{KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR, "kernarg_segment_ptr", 2},
		{KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID, "dispatch_id", 2},
		{KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT, "flat_scratch_init", 2},
	}
	for _, u := range user {
		if props&u.bit != 0 {
			sg = append(sg, Input{u.name, u.count})
		}
	}
	if preload > 0 {
		sg = append(sg, Input{"kernarg_preload", preload})
	}
	if props&KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE != 0 {
		sg = append(sg, Input{"private_segment_size", 1})
	}
	if v2 {
		for i, n := range []string{"grid_workgroup_count_x", "grid_workgroup_count_y", "grid_workgroup_count_z"} {
			if props&(1<<(7+i)) != 0 {
				sg = append(sg, Input{n, 1})
			}
		}
	}
	for i, n := range []string{"workgroup_id_x", "workgroup_id_y", "workgroup_id_z", "workgroup_info"} {
		if rsrc2&(1<<(7+i)) != 0 {
			sg = append(sg, Input{n, 1})
		}
	}
	if rsrc2&1 != 0 {
		name := "private_segment_wave_offset"
		if p != nil && p.FlatScratch == target.FlatScratchArchitected {
			name = "" // architected flat scratch: no SGPR, FLAT_SCRATCH is set up by hardware
		}
		if name != "" {
			sg = append(sg, Input{name, 1})
		}
	}
	ids := int(bits(rsrc2, 11, 2))
	if p != nil && p.PackedWorkItemIDs {
		name := "workitem_id_x"
		if ids >= 1 {
			name += "_y"
		}
		if ids >= 2 {
			name += "_z"
		}
		vg = append(vg, Input{name + "(packed)", 1})
	} else {
		for i, n := range []string{"workitem_id_x", "workitem_id_y", "workitem_id_z"} {
			if i <= ids {
				vg = append(vg, Input{n, 1})
			}
		}
	}
	return sg, vg
}

// AMDKernelCode is the V2 amd_kernel_code_t (INVENTORY §4.7), the
// internal/abi mirror of the ROCr header.
type AMDKernelCode = abi.AMDKernelCode

// DecodeAMDKernelCode decodes the first 256 bytes of b.
func DecodeAMDKernelCode(b []byte) (*AMDKernelCode, error) {
	var c AMDKernelCode
	if err := c.UnmarshalBinary(b); err != nil {
		return nil, formatErr(0, "amd_kernel_code_t is %d bytes, want %d", len(b), AMDKernelCodeSize)
	}
	return &c, nil
}

// EncodeAMDKernelCode returns the 256 bytes of c.
func EncodeAMDKernelCode(c *AMDKernelCode) []byte {
	b, _ := c.MarshalBinary()
	return b
}

// amd_kernel_code_t kernel_code_properties bits beyond the descriptor's.
const (
	AMD_CODE_PROPERTY_ENABLE_SGPR_GRID_WORKGROUP_COUNT_X = 1 << 7
	AMD_CODE_PROPERTY_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y = 1 << 8
	AMD_CODE_PROPERTY_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z = 1 << 9
	AMD_CODE_PROPERTY_ENABLE_ORDERED_APPEND_GDS          = 1 << 16
	AMD_CODE_PROPERTY_PRIVATE_ELEMENT_SIZE_SHIFT         = 17 // 2 bits
	AMD_CODE_PROPERTY_IS_PTR64                           = 1 << 19
	AMD_CODE_PROPERTY_IS_DYNAMIC_CALLSTACK               = 1 << 20
	AMD_CODE_PROPERTY_IS_DEBUG_SUPPORTED                 = 1 << 21
	AMD_CODE_PROPERTY_IS_XNACK_SUPPORTED                 = 1 << 22
)

// KernelCodeResources decodes an amd_kernel_code_t like Resources does a
// descriptor.
func KernelCodeResources(c *AMDKernelCode, p *target.Processor) (Resources, error) {
	if p == nil {
		return Resources{}, fmt.Errorf("codeobject: decoding amd_kernel_code_t needs the processor")
	}
	r := Resources{
		WaveSize: 1 << (c.WavefrontSize & 31),
		LDS:      c.WorkgroupGroupSegmentByteSize, Scratch: c.WorkitemPrivateSegmentByteSize,
		KernargSize:      uint32(c.KernargSegmentByteSize),
		UserSGPRs:        int(bits(c.ComputePgmRsrc2, 1, 5)),
		UsesDynamicStack: c.KernelCodeProperties&AMD_CODE_PROPERTY_IS_DYNAMIC_CALLSTACK != 0,
	}
	if c.WavefrontSize > 8 {
		return r, formatErr(103, "amd_kernel_code_t wavefront_size exponent %d is out of range", c.WavefrontSize)
	}
	var err error
	if r.VGPRs, err = p.VGPRsFromGranulated(bits(c.ComputePgmRsrc1, 0, 6), r.WaveSize); err != nil {
		return r, err
	}
	r.ArchVGPRs = r.VGPRs
	if r.SGPRs, err = sgprAllocation(p, c.ComputePgmRsrc1); err != nil {
		return r, err
	}
	r.SGPRInputs, r.VGPRInputs = initialInputs(c.KernelCodeProperties, c.ComputePgmRsrc2, 0, p, true)
	return r, nil
}

// sgprAllocation is the SGPRs a wave gets. On GFX10+ the field is reserved
// and the allocation fixed; LLVM 15 still writes a non-zero value there
// (gfx1030 objects), which Validate reports as a warning, so it is ignored
// here rather than refused.
func sgprAllocation(p *target.Processor, rsrc1 uint32) (int, error) {
	if p.Family >= target.GFX10 {
		return p.SGPRsFromGranulated(0)
	}
	return p.SGPRsFromGranulated(bits(rsrc1, 6, 4))
}
