package target

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns wraps one of them, so
// callers can test with errors.Is.
var (
	// ErrNotSupported marks something known but not supported (an r600
	// processor asked to execute, a processor without the data needed).
	ErrNotSupported = errors.New("not supported")
	// ErrUnknownProcessor: a name, alias, MACH value or ISA version that is
	// not in the processor table.
	ErrUnknownProcessor = errors.New("unknown processor")
	// ErrUnknownFeature: a target feature name this package does not know.
	ErrUnknownFeature = errors.New("unknown target feature")
	// ErrUnsupportedFeature: a known feature the processor does not have,
	// or one that cannot be set in that syntax.
	ErrUnsupportedFeature = errors.New("unsupported target feature")
	// ErrDuplicateFeature: a feature named twice in one target ID.
	ErrDuplicateFeature = errors.New("duplicate target feature")
	// ErrSyntax: a target ID that does not follow the grammar.
	ErrSyntax = errors.New("bad target ID syntax")
	// ErrIncompatible: Compatible found that a code object cannot run on
	// an agent.
	ErrIncompatible = errors.New("incompatible target")
)

// Family is the GFX generation of a processor (its IP major version), or
// R600 for the pre-GCN processors.
type Family int

// Families in order of age.
const (
	FamilyUnknown Family = iota
	R600
	GFX6
	GFX7
	GFX8
	GFX9
	GFX10
	GFX11
	GFX12
	GFX13
)

var familyNames = [...]string{"unknown", "R600", "GFX6", "GFX7", "GFX8", "GFX9", "GFX10", "GFX11", "GFX12", "GFX13"}

func (f Family) String() string {
	if f >= 0 && int(f) < len(familyNames) {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", int(f))
}

// FlatScratch is how a processor initialises FLAT_SCRATCH
// (spec/INVENTORY.md §5.3; AMDGPUUsage "Flat Scratch").
type FlatScratch int

const (
	// FlatScratchNone: no generic address space (GFX6, r600).
	FlatScratchNone FlatScratch = iota
	// FlatScratchOffset: GFX7-GFX8, FLAT_SCRATCH_HI/LO hold an offset and size.
	FlatScratchOffset
	// FlatScratchAbsolute: GFX9-GFX10.3 and gfx90a, FLAT_SCRATCH is a 64-bit base.
	FlatScratchAbsolute
	// FlatScratchArchitected: gfx94x, gfx950, GFX11, GFX12; hardware sets it up.
	FlatScratchArchitected
)

func (f FlatScratch) String() string {
	switch f {
	case FlatScratchNone:
		return "none"
	case FlatScratchOffset:
		return "offset"
	case FlatScratchAbsolute:
		return "absolute"
	case FlatScratchArchitected:
		return "architected"
	}
	return fmt.Sprintf("FlatScratch(%d)", int(f))
}

// Feature is an AMDGPU target feature name as spelled in a target ID or a
// -m option (spec/INVENTORY.md §3.5).
type Feature string

// Target features. Only FeatureXNACK and FeatureSRAMECC are controlled by
// the target ID; the others are -m[no-]<feature> options.
const (
	FeatureCUMode          Feature = "cumode"
	FeatureSRAMECC         Feature = "sramecc"
	FeatureTGSplit         Feature = "tgsplit"
	FeatureWavefrontSize64 Feature = "wavefrontsize64"
	FeatureXNACK           Feature = "xnack"
)

// legacyFeatureOrder is the order of the old guide's feature table
// (S1:282-343), which the V2/V3 target-ID syntax must follow
// (S1:2018-2046). tgsplit is not in S1; it is placed last.
var legacyFeatureOrder = []Feature{FeatureXNACK, FeatureSRAMECC, FeatureWavefrontSize64, FeatureCUMode, FeatureTGSplit}

// TargetID reports whether f can be written in a V4+ target ID
// (controlled by -mcpu/--offload-arch, AMDGPUUsage "Target Features").
func (f Feature) TargetID() bool { return f == FeatureXNACK || f == FeatureSRAMECC }

// Known reports whether f is a feature this package knows.
func (f Feature) Known() bool {
	switch f {
	case FeatureCUMode, FeatureSRAMECC, FeatureTGSplit, FeatureWavefrontSize64, FeatureXNACK:
		return true
	}
	return false
}

// LegacyName is the spelling of f in the V2/V3 syntax: S1 spells sramecc
// "sram-ecc".
func (f Feature) LegacyName() string {
	if f == FeatureSRAMECC {
		return "sram-ecc"
	}
	return string(f)
}

// FeatureSetting is the value of a target-ID feature: Any (omitted), On
// ("+") or Off ("-").
type FeatureSetting int

const (
	Any FeatureSetting = iota
	On
	Off
)

func (s FeatureSetting) String() string {
	switch s {
	case Any:
		return "any"
	case On:
		return "on"
	case Off:
		return "off"
	}
	return fmt.Sprintf("FeatureSetting(%d)", int(s))
}

// suffix is the target-ID suffix for s ("+", "-", or "" for Any).
func (s FeatureSetting) suffix() string {
	switch s {
	case On:
		return "+"
	case Off:
		return "-"
	}
	return ""
}
