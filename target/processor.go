package target

import (
	"fmt"
	"slices"
	"sort"

	"sync"
)

// Processor describes one AMDGPU processor: a row of spec/INVENTORY.md
// §3.2-§3.4 (AMDGPUUsage "Processors", LLVM TargetParser) joined with the
// hardware limits of §4.2 and §5.3. Values are read-only: every caller
// shares the table.
type Processor struct {
	// Name is the primary (canonical) processor name, e.g. "gfx90a".
	Name string
	// Aliases are the alternative names ("tahiti" for gfx600).
	Aliases []string
	// Arch is the triple architecture, "amdgcn" or "r600".
	Arch string
	// Mach is the EF_AMDGPU_MACH value of code objects for this processor.
	Mach Mach
	// Family is the GFX generation (the IP major version).
	Family Family
	// Major, Minor and Stepping are the IP / ISA version (the V2
	// "AMD:AMDGPU:Major:Minor:Stepping" ISA name). A generic processor
	// carries LLVM's "lowest common denominator" version, which collides
	// with a real processor's; it is never used to look one up.
	Major, Minor, Stepping int

	// V2XNACKStepping is the stepping LLVM writes in a code object V2 ISA
	// version for code with xnack enabled, where it differs from Stepping
	// (gfx900 → 9.0.1, the old "gfx901"); 0 otherwise.
	V2XNACKStepping int

	// Generic marks a generic processor (code object V6+, §3.4).
	Generic bool
	// GenericVersion is, for a generic processor, the newest generic
	// code-object version this table knows (what LLVM emits today).
	GenericVersion int
	// Members are the processors a generic processor's code objects run
	// on, each with the generic version in which it was added.
	Members []GenericMember

	// Features are all target features the processor supports, sorted.
	// Those with Feature.TargetID may appear in target IDs.
	Features []Feature
	// DefaultOn are the features the old guide's processor table marks
	// "[on]" (S1:92-280); all other features default to off. For code
	// object V4+ an unspecified target-ID feature means Any instead.
	DefaultOn []Feature

	// WaveSizes are the supported wavefront sizes, ascending;
	// DefaultWaveSize the native one. Both empty for r600.
	WaveSizes       []int
	DefaultWaveSize int

	// LDSSize is the most LDS (group segment) bytes one work-group may use;
	// LDSGranule the bytes per unit of COMPUTE_PGM_RSRC2.GRANULATED_LDS_SIZE
	// (§4.2).
	LDSSize    int
	LDSGranule int

	// VGPRs, SGPRs and AGPRs are the registers one wave can address
	// (VGPRs and AGPRs per lane). SGPRs excludes VCC and the trap
	// handler's registers.
	VGPRs, SGPRs, AGPRs int
	// UnifiedVGPRFile: arch VGPRs and AGPRs share one file of
	// VGPRs+AGPRs registers, allocated together (gfx90a, gfx94x, gfx950).
	UnifiedVGPRFile bool
	// VGPRGranule is the granule of GRANULATED_WORKITEM_VGPR_COUNT at the
	// default wave size (see VGPRGranuleFor); SGPRGranule that of
	// GRANULATED_WAVEFRONT_SGPR_COUNT, 0 where the field is reserved
	// (GFX10+).
	VGPRGranule, SGPRGranule int
	// SGPRInitBug: the hardware needs a fixed SGPR allocation of
	// FixedSGPRs (LLVM FeatureSGPRInitBug: gfx802, gfx805).
	SGPRInitBug bool

	// FlatScratch is the flat-scratch initialisation method (§5.3).
	FlatScratch FlatScratch
	// KernargPreload: kernel arguments may be preloaded into user SGPRs
	// (§5.5).
	KernargPreload bool
	// PackedWorkItemIDs: work-item IDs X/Y/Z arrive packed in VGPR0.
	PackedWorkItemIDs bool
	// Executable is false for processors whose code this project does not
	// run: r600 (no HSA) and the newest upstream processors whose
	// properties the specs do not give.
	Executable bool

	vgprGranule32 int // VGPR granule in wave32, 0 if wave32 unsupported
	vgprGranule64 int // VGPR granule in wave64, 0 if wave64 unsupported
}

// GenericMember is one processor a generic processor supports, with the
// generic code-object version that added it (§3.4).
type GenericMember struct {
	Processor *Processor
	Version   int
}

// FixedSGPRs is the SGPR allocation of processors with the SGPR init bug.
const FixedSGPRs = 96

func (p *Processor) String() string {
	if p == nil {
		return "<nil processor>"
	}
	return p.Name
}

// Supports reports whether p supports feature f.
func (p *Processor) Supports(f Feature) bool { return slices.Contains(p.Features, f) }

// SupportsWaveSize reports whether p can run waves of size w.
func (p *Processor) SupportsWaveSize(w int) bool { return slices.Contains(p.WaveSizes, w) }

// IDFeatures are the features of p that a target ID may set, sorted
// alphabetically (the canonical order).
func (p *Processor) IDFeatures() []Feature {
	var out []Feature
	for _, f := range p.Features {
		if f.TargetID() {
			out = append(out, f)
		}
	}
	return out
}

// DefaultsOn reports whether the old guide's table gives f the default "on".
func (p *Processor) DefaultsOn(f Feature) bool { return slices.Contains(p.DefaultOn, f) }

// MemberVersion returns the generic version in which member was added to
// the generic processor g, and false when member is not one of g's.
func (g *Processor) MemberVersion(member *Processor) (int, bool) {
	for _, m := range g.Members {
		if m.Processor == member {
			return m.Version, true
		}
	}
	return 0, false
}

// GenericsOf returns the generic processors that have p as a member.
func GenericsOf(p *Processor) []*Processor {
	var out []*Processor
	for _, g := range table().list {
		if _, ok := g.MemberVersion(p); ok {
			out = append(out, g)
		}
	}
	return out
}

// ISAName is the code object V2 ISA name, "AMD:AMDGPU:9:0:6".
func (p *Processor) ISAName() string {
	return fmt.Sprintf("AMD:AMDGPU:%d:%d:%d", p.Major, p.Minor, p.Stepping)
}

type procTable struct {
	list   []*Processor
	byName map[string]*Processor // names and aliases
	byMach map[Mach]*Processor
	byISA  map[[3]int]isaEntry // non-generic amdgcn processors only
}

var (
	tableOnce sync.Once
	theTable  *procTable
)

func table() *procTable {
	tableOnce.Do(func() { theTable = buildTable() })
	return theTable
}

// isaEntry is what a V2 ISA version says: the processor and, for
// processors with a V2 xnack variant, the xnack setting.
type isaEntry struct {
	p     *Processor
	xnack FeatureSetting
}

func buildTable() *procTable {
	t := &procTable{byName: map[string]*Processor{}, byMach: map[Mach]*Processor{}, byISA: map[[3]int]isaEntry{}}
	for i := range processorRows {
		r := &processorRows[i]
		c := r.class
		p := &Processor{
			Name: r.name, Aliases: r.aliases, Arch: c.arch, Mach: r.mach, Family: c.family,
			Major: r.isa[0], Minor: r.isa[1], Stepping: r.isa[2],
			Generic: r.generic != 0, GenericVersion: r.generic, V2XNACKStepping: r.v2XNACKStepping,
			DefaultOn:         r.defaultOn,
			LDSSize:           c.lds,
			LDSGranule:        c.ldsGranule,
			VGPRs:             c.vgprs,
			SGPRs:             c.sgprs,
			AGPRs:             c.agprs,
			UnifiedVGPRFile:   c.unified,
			SGPRGranule:       c.sgprGranule,
			FlatScratch:       c.flat,
			KernargPreload:    c.preload,
			PackedWorkItemIDs: c.packed,
			Executable:        c.exec && !r.noExec,
			vgprGranule32:     c.vgprGranule32,
			vgprGranule64:     c.vgprGranule64,
		}
		p.Features = append(append([]Feature{}, r.features...), c.features...)
		sort.Slice(p.Features, func(a, b int) bool { return p.Features[a] < p.Features[b] })
		if c.vgprGranule32 != 0 {
			p.WaveSizes = append(p.WaveSizes, 32)
		}
		if c.vgprGranule64 != 0 {
			p.WaveSizes = append(p.WaveSizes, 64)
		}
		if len(p.WaveSizes) > 0 {
			p.DefaultWaveSize = p.WaveSizes[0] // wave32 is native wherever it exists
		}
		p.VGPRGranule, _ = p.VGPRGranuleFor(p.DefaultWaveSize)
		if r.sgprInitBug {
			p.SGPRInitBug = true
			p.SGPRs = FixedSGPRs
		}
		t.list = append(t.list, p)
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if _, dup := t.byName[n]; dup {
				panic("target: duplicate processor name " + n) // table bug, caught by tests
			}
			t.byName[n] = p
		}
		if _, dup := t.byMach[p.Mach]; dup {
			panic("target: duplicate MACH for " + p.Name)
		}
		t.byMach[p.Mach] = p
		if p.Arch == "amdgcn" && !p.Generic {
			e := isaEntry{p: p}
			if p.V2XNACKStepping != 0 {
				e.xnack = Off
				k := [3]int{p.Major, p.Minor, p.V2XNACKStepping}
				if _, dup := t.byISA[k]; dup {
					panic("target: duplicate V2 ISA version for " + p.Name)
				}
				t.byISA[k] = isaEntry{p: p, xnack: On}
			}
			k := [3]int{p.Major, p.Minor, p.Stepping}
			if _, dup := t.byISA[k]; dup {
				panic("target: duplicate ISA version for " + p.Name)
			}
			t.byISA[k] = e
		}
	}
	for i := range processorRows {
		r := &processorRows[i]
		if r.generic == 0 {
			continue
		}
		g := t.byName[r.name]
		for _, m := range r.members {
			mp := t.byName[m.name]
			if mp == nil {
				panic("target: unknown generic member " + m.name)
			}
			g.Members = append(g.Members, GenericMember{Processor: mp, Version: m.version})
		}
	}
	return t
}

// Processors returns every processor in the table (r600, amdgcn, generic),
// in table order. The slice is fresh; the processors are shared.
func Processors() []*Processor { return slices.Clone(table().list) }

// Lookup finds a processor by primary or alternative name. Names are case
// sensitive, as in LLVM.
func Lookup(name string) (*Processor, error) {
	if p, ok := table().byName[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("target: %w %q", ErrUnknownProcessor, name)
}

// ByMach finds the processor of an EF_AMDGPU_MACH value.
func ByMach(m Mach) (*Processor, error) {
	if p, ok := table().byMach[m]; ok {
		return p, nil
	}
	if m == EF_AMDGPU_MACH_NONE {
		return nil, fmt.Errorf("target: %w: e_flags names no processor (EF_AMDGPU_MACH_NONE)", ErrUnknownProcessor)
	}
	if m.Known() {
		return nil, fmt.Errorf("target: %w: %v has no processor data (%w)", ErrUnknownProcessor, m, ErrNotSupported)
	}
	return nil, fmt.Errorf("target: %w: %v", ErrUnknownProcessor, m)
}

// ByISAVersion finds the (non-generic, amdgcn) processor with ISA version
// major.minor.stepping, as named by a code object V2 ISA note. The V2
// xnack variants resolve too: 9.0.1 is gfx900 (with xnack; see
// V2XNACKStepping and ParseID).
func ByISAVersion(major, minor, stepping int) (*Processor, error) {
	if e, ok := table().byISA[[3]int{major, minor, stepping}]; ok {
		return e.p, nil
	}
	return nil, fmt.Errorf("target: %w: no processor has ISA version %d.%d.%d", ErrUnknownProcessor, major, minor, stepping)
}

// CheckExecutable returns an error wrapping ErrNotSupported when code for p
// cannot be executed by this project.
func (p *Processor) CheckExecutable() error {
	if p.Executable {
		return nil
	}
	if p.Arch == "r600" {
		return fmt.Errorf("target: %s: r600 processors cannot run HSA code: %w", p.Name, ErrNotSupported)
	}
	return fmt.Errorf("target: %s: processor properties not known well enough to execute: %w", p.Name, ErrNotSupported)
}

// MaxFlatWorkGroupSize is the largest flat work-group size (work-items) of
// every amdgcn processor: the IR-implied default of
// "amdgpu-flat-work-group-size" is 1,1024 (S2:870-873).
const MaxFlatWorkGroupSize = 1024
