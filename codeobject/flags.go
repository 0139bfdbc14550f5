package codeobject

import (
	"fmt"
	"strings"
)

// e_flags bits (INVENTORY §1.3). The same bits mean different things in V3
// and in V4+, so decode only through DecodeFlags with the version.
const (
	EF_AMDGPU_FEATURE_XNACK_V2        = 0x01
	EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 = 0x02

	EF_AMDGPU_MACH = 0x0ff

	EF_AMDGPU_FEATURE_XNACK_V3   = 0x100
	EF_AMDGPU_FEATURE_SRAMECC_V3 = 0x200

	EF_AMDGPU_FEATURE_XNACK_V4             = 0x300
	EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4 = 0x000
	EF_AMDGPU_FEATURE_XNACK_ANY_V4         = 0x100
	EF_AMDGPU_FEATURE_XNACK_OFF_V4         = 0x200
	EF_AMDGPU_FEATURE_XNACK_ON_V4          = 0x300

	EF_AMDGPU_FEATURE_SRAMECC_V4             = 0xc00
	EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4 = 0x000
	EF_AMDGPU_FEATURE_SRAMECC_ANY_V4         = 0x400
	EF_AMDGPU_FEATURE_SRAMECC_OFF_V4         = 0x800
	EF_AMDGPU_FEATURE_SRAMECC_ON_V4          = 0xc00

	EF_AMDGPU_GENERIC_VERSION_V      = 0xff000000
	EF_AMDGPU_GENERIC_VERSION_OFFSET = 24
	EF_AMDGPU_GENERIC_VERSION_MIN    = 1
	EF_AMDGPU_GENERIC_VERSION_MAX    = 0xff
)

// Feature is the setting of a target feature (xnack, sramecc) recorded in a
// code object: V4+ objects can say Unsupported, Any, Off or On; V3 objects
// (and LLVM's V2 objects) only On or Off.
type Feature uint8

// Feature settings, in the order of the V4 selector values.
const (
	FeatureUnsupported Feature = iota
	FeatureAny
	FeatureOff
	FeatureOn
)

func (s Feature) String() string {
	switch s {
	case FeatureUnsupported:
		return "unsupported"
	case FeatureAny:
		return "any"
	case FeatureOff:
		return "off"
	case FeatureOn:
		return "on"
	}
	return fmt.Sprintf("Feature(%d)", uint8(s))
}

// Flags is e_flags decoded for a code object version.
type Flags struct {
	Raw     uint32
	Version Version
	// Mach is the EF_AMDGPU_MACH field (0 for Finalizer-style V2 flags).
	Mach uint32
	// XNACK and SRAMECC are the feature settings. For V2/V3 they are On
	// when the bit is set and Off otherwise.
	XNACK, SRAMECC Feature
	// TrapHandler is EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 (Finalizer V2 objects).
	TrapHandler bool
	// FinalizerV2 is true when the V2 flags use the HSAIL Finalizer layout
	// (bits 0x1/0x2) rather than LLVM's V3 layout.
	FinalizerV2 bool
	// GenericVersion is EF_AMDGPU_GENERIC_VERSION_V (V6+), 0 if absent.
	GenericVersion uint8
	// Unknown holds set bits that have no meaning in this version.
	Unknown uint32
}

// DecodeFlags decodes e_flags as version v lays them out. VersionUnknown
// (non-amdhsa OS ABIs) decodes like V3, as llvm-readobj does.
func DecodeFlags(raw uint32, v Version) Flags {
	fl := Flags{Raw: raw, Version: v}
	onOff := func(bit uint32) Feature {
		if raw&bit != 0 {
			return FeatureOn
		}
		return FeatureOff
	}
	switch {
	case v == V2 && raw&EF_AMDGPU_MACH < 0x20 && raw&^uint32(EF_AMDGPU_FEATURE_XNACK_V2|EF_AMDGPU_FEATURE_TRAP_HANDLER_V2) == 0:
		fl.FinalizerV2 = true
		fl.XNACK = onOff(EF_AMDGPU_FEATURE_XNACK_V2)
		fl.SRAMECC = FeatureOff
		fl.TrapHandler = raw&EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 != 0
	case v <= V3: // V2 written by LLVM, V3, unknown
		fl.Mach = raw & EF_AMDGPU_MACH
		fl.XNACK = onOff(EF_AMDGPU_FEATURE_XNACK_V3)
		fl.SRAMECC = onOff(EF_AMDGPU_FEATURE_SRAMECC_V3)
		fl.Unknown = raw &^ uint32(EF_AMDGPU_MACH|EF_AMDGPU_FEATURE_XNACK_V3|EF_AMDGPU_FEATURE_SRAMECC_V3)
	default: // V4, V5, V6
		fl.Mach = raw & EF_AMDGPU_MACH
		fl.XNACK = Feature((raw & EF_AMDGPU_FEATURE_XNACK_V4) >> 8)
		fl.SRAMECC = Feature((raw & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10)
		known := uint32(EF_AMDGPU_MACH | EF_AMDGPU_FEATURE_XNACK_V4 | EF_AMDGPU_FEATURE_SRAMECC_V4)
		if v >= V6 {
			fl.GenericVersion = uint8(raw >> EF_AMDGPU_GENERIC_VERSION_OFFSET)
			known |= EF_AMDGPU_GENERIC_VERSION_V
		}
		fl.Unknown = raw &^ known
	}
	return fl
}

// Encode returns the e_flags word for fl.Version. Unknown bits are kept.
func (fl Flags) Encode() uint32 {
	bit := func(s Feature, b uint32) uint32 {
		if s == FeatureOn || s == FeatureAny {
			return b
		}
		return 0
	}
	var raw uint32
	switch {
	case fl.Version == V2 && fl.FinalizerV2:
		raw = bit(fl.XNACK, EF_AMDGPU_FEATURE_XNACK_V2)
		if fl.TrapHandler {
			raw |= EF_AMDGPU_FEATURE_TRAP_HANDLER_V2
		}
	case fl.Version <= V3:
		raw = fl.Mach&EF_AMDGPU_MACH | bit(fl.XNACK, EF_AMDGPU_FEATURE_XNACK_V3) | bit(fl.SRAMECC, EF_AMDGPU_FEATURE_SRAMECC_V3)
	default:
		raw = fl.Mach&EF_AMDGPU_MACH | uint32(fl.XNACK&3)<<8 | uint32(fl.SRAMECC&3)<<10
		if fl.Version >= V6 {
			raw |= uint32(fl.GenericVersion) << EF_AMDGPU_GENERIC_VERSION_OFFSET
		}
	}
	return raw | fl.Unknown
}

// Names lists the C names of the flag values that are set, the way
// llvm-readobj prints them (MACH by its raw value; the target package names it).
func (fl Flags) Names() []string {
	var out []string
	switch {
	case fl.Version == V2 && fl.FinalizerV2:
		if fl.XNACK == FeatureOn {
			out = append(out, "EF_AMDGPU_FEATURE_XNACK_V2")
		}
		if fl.TrapHandler {
			out = append(out, "EF_AMDGPU_FEATURE_TRAP_HANDLER_V2")
		}
		return out
	case fl.Version <= V3:
		if fl.XNACK == FeatureOn {
			out = append(out, "EF_AMDGPU_FEATURE_XNACK_V3")
		}
		if fl.SRAMECC == FeatureOn {
			out = append(out, "EF_AMDGPU_FEATURE_SRAMECC_V3")
		}
	default:
		out = append(out, "EF_AMDGPU_FEATURE_XNACK_"+strings.ToUpper(fl.XNACK.String())+"_V4")
		out = append(out, "EF_AMDGPU_FEATURE_SRAMECC_"+strings.ToUpper(fl.SRAMECC.String())+"_V4")
		if fl.GenericVersion != 0 {
			out = append(out, fmt.Sprintf("EF_AMDGPU_GENERIC_VERSION_V%d", fl.GenericVersion))
		}
	}
	if fl.Unknown != 0 {
		out = append(out, fmt.Sprintf("unknown(%#x)", fl.Unknown))
	}
	return out
}

// Flags returns e_flags decoded for the file's code object version.
func (f *File) Flags() Flags { return DecodeFlags(f.Header.Flags, f.version) }
