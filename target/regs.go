package target

import "fmt"

// This file converts between register counts and the granulated counts of
// COMPUTE_PGM_RSRC1 (GRANULATED_WORKITEM_VGPR_COUNT, bits 5:0, and
// GRANULATED_WAVEFRONT_SGPR_COUNT, bits 9:6) and COMPUTE_PGM_RSRC2
// GRANULATED_LDS_SIZE (spec/INVENTORY.md §4.2, AMDGPUUsage "Kernel
// Descriptor"). The descriptor, the emulator and the validator share it.
//
// Where the spec and LLVM 15 disagree, LLVM wins (it is the golden): on
// GFX9 the spec gives 2*max(0, ceil(sgprs/16)-1) for the SGPR field, but
// LLVM 15 emits max(0, ceil(sgprs/8)-1) like GFX6-GFX8 (pinned by
// TestSGPRGranuleGFX9MatchesLLVM15). Hardware allocates in 16s on GFX9, so
// decoding (g+1)*8 gives a count LLVM could have encoded, not the
// hardware allocation.

const (
	maxGranulatedVGPR = 63 // 6-bit field
	maxGranulatedSGPR = 15 // 4-bit field
)

// VGPRGranuleFor returns the VGPR encoding granule at wave size w.
func (p *Processor) VGPRGranuleFor(w int) (int, error) {
	switch {
	case w == 32 && p.vgprGranule32 != 0:
		return p.vgprGranule32, nil
	case w == 64 && p.vgprGranule64 != 0:
		return p.vgprGranule64, nil
	}
	return 0, fmt.Errorf("target: %s does not support wave size %d: %w", p.Name, w, ErrNotSupported)
}

// TotalVGPRs is the VGPR count the granulated field encodes for a kernel
// using vgprs architectural VGPRs and agprs AGPRs: on a unified file
// (gfx90a, gfx94x) align(vgprs,4)+agprs (the AGPRs start at the 4-aligned
// accum_offset); on gfx908 max(vgprs, agprs) (two files, same
// allocation); elsewhere vgprs.
func (p *Processor) TotalVGPRs(vgprs, agprs int) int {
	switch {
	case p.UnifiedVGPRFile:
		return (vgprs+3)&^3 + agprs
	case p.AGPRs > 0:
		return max(vgprs, agprs)
	}
	return vgprs
}

// GranulatedVGPRCount returns GRANULATED_WORKITEM_VGPR_COUNT for a kernel
// using vgprs architectural VGPRs and agprs AGPRs at wave size w.
func (p *Processor) GranulatedVGPRCount(vgprs, agprs, w int) (uint32, error) {
	gran, err := p.VGPRGranuleFor(w)
	if err != nil {
		return 0, err
	}
	if vgprs < 0 || agprs < 0 {
		return 0, fmt.Errorf("target: negative register count (%d VGPRs, %d AGPRs)", vgprs, agprs)
	}
	if vgprs > p.VGPRs {
		return 0, fmt.Errorf("target: %s: %d VGPRs exceed the %d a wave can address", p.Name, vgprs, p.VGPRs)
	}
	if agprs > p.AGPRs {
		if p.AGPRs == 0 {
			return 0, fmt.Errorf("target: %s has no AGPRs (kernel uses %d)", p.Name, agprs)
		}
		return 0, fmt.Errorf("target: %s: %d AGPRs exceed the %d a wave can address", p.Name, agprs, p.AGPRs)
	}
	n := max(1, p.TotalVGPRs(vgprs, agprs))
	g := (n+gran-1)/gran - 1
	if g > maxGranulatedVGPR {
		return 0, fmt.Errorf("target: %s: %d VGPRs do not fit GRANULATED_WORKITEM_VGPR_COUNT", p.Name, n)
	}
	return uint32(g), nil
}

// VGPRsFromGranulated returns the VGPRs allocated per lane for a
// GRANULATED_WORKITEM_VGPR_COUNT g at wave size w: (g+1)*granule. On a
// unified file this is the VGPR+AGPR total.
func (p *Processor) VGPRsFromGranulated(g uint32, w int) (int, error) {
	gran, err := p.VGPRGranuleFor(w)
	if err != nil {
		return 0, err
	}
	if g > maxGranulatedVGPR {
		return 0, fmt.Errorf("target: GRANULATED_WORKITEM_VGPR_COUNT %d exceeds its 6-bit field", g)
	}
	n := (int(g) + 1) * gran
	limit := p.VGPRs
	if p.UnifiedVGPRFile {
		limit += p.AGPRs
	}
	if n > limit {
		return 0, fmt.Errorf("target: %s: GRANULATED_WORKITEM_VGPR_COUNT %d means %d VGPRs, more than the %d a wave can have", p.Name, g, n, limit)
	}
	return n, nil
}

// GranulatedSGPRCount returns GRANULATED_WAVEFRONT_SGPR_COUNT for a kernel
// using sgprs SGPRs (including VCC, FLAT_SCRATCH and XNACK_MASK when
// reserved, §4.2). It is always 0 on GFX10+ (the field is reserved), and
// (FixedSGPRs/8)-1 on processors with the SGPR init bug.
func (p *Processor) GranulatedSGPRCount(sgprs int) (uint32, error) {
	if sgprs < 0 {
		return 0, fmt.Errorf("target: negative SGPR count %d", sgprs)
	}
	if p.Arch != "amdgcn" {
		return 0, fmt.Errorf("target: %s is not an amdgcn processor: %w", p.Name, ErrNotSupported)
	}
	if p.SGPRGranule == 0 {
		return 0, nil
	}
	if p.SGPRInitBug {
		if sgprs > FixedSGPRs {
			return 0, fmt.Errorf("target: %s: %d SGPRs exceed the fixed %d of the SGPR init bug", p.Name, sgprs, FixedSGPRs)
		}
		sgprs = FixedSGPRs
	}
	n := max(1, sgprs)
	g := (n+p.SGPRGranule-1)/p.SGPRGranule - 1
	if g > maxGranulatedSGPR {
		return 0, fmt.Errorf("target: %s: %d SGPRs do not fit GRANULATED_WAVEFRONT_SGPR_COUNT", p.Name, sgprs)
	}
	return uint32(g), nil
}

// GFX10SGPRs is the SGPR allocation of every wave on GFX10 and later, where
// GRANULATED_WAVEFRONT_SGPR_COUNT is reserved (§4.2: "128 SGPRs always
// allocated").
const GFX10SGPRs = 128

// SGPRsFromGranulated returns the SGPRs a wave is allocated for
// GRANULATED_WAVEFRONT_SGPR_COUNT g: (g+1)*8 on GFX6-GFX9, GFX10SGPRs on
// GFX10+ (where g must be 0).
func (p *Processor) SGPRsFromGranulated(g uint32) (int, error) {
	if p.Arch != "amdgcn" {
		return 0, fmt.Errorf("target: %s is not an amdgcn processor: %w", p.Name, ErrNotSupported)
	}
	if g > maxGranulatedSGPR {
		return 0, fmt.Errorf("target: GRANULATED_WAVEFRONT_SGPR_COUNT %d exceeds its 4-bit field", g)
	}
	if p.SGPRGranule == 0 {
		if g != 0 {
			return 0, fmt.Errorf("target: %s: GRANULATED_WAVEFRONT_SGPR_COUNT must be 0 on %v, is %d", p.Name, p.Family, g)
		}
		return GFX10SGPRs, nil
	}
	return (int(g) + 1) * p.SGPRGranule, nil
}

// GranulatedLDSSize returns the GRANULATED_LDS_SIZE for bytes of LDS:
// ceil(bytes/LDSGranule). (The descriptor itself must hold 0; the CP
// computes this from the dispatch packet.)
func (p *Processor) GranulatedLDSSize(bytes int) (uint32, error) {
	if p.LDSGranule == 0 {
		return 0, fmt.Errorf("target: %s has no LDS granule: %w", p.Name, ErrNotSupported)
	}
	if bytes < 0 || bytes > p.LDSSize {
		return 0, fmt.Errorf("target: %s: %d bytes of LDS outside 0..%d", p.Name, bytes, p.LDSSize)
	}
	return uint32((bytes + p.LDSGranule - 1) / p.LDSGranule), nil
}

// LDSFromGranulated returns the bytes of LDS GRANULATED_LDS_SIZE g
// allocates.
func (p *Processor) LDSFromGranulated(g uint32) (int, error) {
	if p.LDSGranule == 0 {
		return 0, fmt.Errorf("target: %s has no LDS granule: %w", p.Name, ErrNotSupported)
	}
	n := int(g) * p.LDSGranule
	if n > p.LDSSize+p.LDSGranule-1 {
		return 0, fmt.Errorf("target: %s: GRANULATED_LDS_SIZE %d means %d bytes, more than %d", p.Name, g, n, p.LDSSize)
	}
	return n, nil
}

// ExtraSGPRs returns how many SGPRs beyond the highest one a kernel names
// LLVM counts for the special registers it reserves at the top of the SGPR
// allocation: VCC (2), FLAT_SCRATCH and XNACK_MASK. They overlap rather
// than add: on GFX6-GFX7 flat scratch makes it 4; on GFX8-GFX9 XNACK_MASK
// makes it 4 and flat scratch 6 (always on architected-flat-scratch
// processors); GFX10+ keep these outside the allocation, so only VCC
// counts. This is LLVM's getNumExtraSGPRs, checked against llvm-mc-15 by
// TestGranulesMatchLLVM15. The metadata's .sgpr_count includes it.
func (p *Processor) ExtraSGPRs(vcc, flatScratch, xnackMask bool) int {
	n := 0
	if vcc {
		n = 2
	}
	switch {
	case p.Arch != "amdgcn" || p.Family >= GFX10:
	case p.Family < GFX8:
		if flatScratch {
			n = 4
		}
	default:
		if xnackMask {
			n = 4
		}
		if flatScratch || p.FlatScratch == FlatScratchArchitected {
			n = 6
		}
	}
	return n
}
