package target

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ID is a parsed target ID (spec/INVENTORY.md §3.6; AMDGPUUsage "Target
// ID", "Code Object Target Identification").
//
// Features holds only the features the ID sets; a missing supported
// target-ID feature means Any (for V4+ syntax). An ID parsed from the
// V2/V3 ("+feature") syntax has Legacy set, and then every supported
// feature is On or Off: that syntax lists each enabled feature, so the
// rest are off (S1:2018-2046; LLVM 15 writes "gfx906" for V3 code with
// xnack and sramecc off). Legacy IDs may also carry the -m features
// (wavefrontsize64, cumode) the old syntax lists; they do not take part in
// compatibility. An ID from a V2 ISA name is Legacy too but sets only what
// the name says: xnack for processors with a V2 xnack variant
// (V2XNACKStepping), nothing otherwise.
type ID struct {
	Arch, Vendor, OS, Env string
	Processor             *Processor
	Features              map[Feature]FeatureSetting
	// GenericVersion is the generic code-object version (e_flags bits
	// 31:24, V6+) of a code object for a generic processor; 0 when
	// unknown. Target-ID strings do not carry it.
	GenericVersion int
	// Legacy: the ID uses the V2/V3 syntax ("gfx902+xnack").
	Legacy bool
}

// IDError is the error ParseID returns: the input, what is wrong, and a
// sentinel (ErrSyntax, ErrUnknownProcessor, ...) it wraps.
type IDError struct {
	ID  string
	Msg string
	Err error
}

func (e *IDError) Error() string {
	return fmt.Sprintf("target ID %q: %s", e.ID, e.Msg)
}

func (e *IDError) Unwrap() error { return e.Err }

// Setting returns the setting of f (Any when the ID does not set it).
func (id ID) Setting(f Feature) FeatureSetting { return id.Features[f] }

// ParseID parses a target ID in any of the forms the specs use:
//
//	amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-   full V4+ form
//	gfx90a:xnack+                               bare V4+ form (triple defaulted)
//	amdgcn-amd-amdhsa--gfx902+xnack, gfx902+xnack   V2/V3 form
//	AMD:AMDGPU:9:0:6                            code object V2 ISA name
//
// Processor alternative names are accepted (non-canonical). The bare forms
// get the default triple of the processor (amdgcn-amd-amdhsa-, or r600-amd--).
func ParseID(s string) (ID, error) {
	bad := func(err error, format string, args ...any) (ID, error) {
		return ID{}, &IDError{ID: s, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	if s == "" {
		return bad(ErrSyntax, "empty")
	}
	if strings.HasPrefix(s, "AMD:AMDGPU:") {
		return parseISAName(s)
	}
	var id ID
	rest := s
	full := false
	if strings.HasPrefix(s, "amdgcn-") || strings.HasPrefix(s, "r600-") {
		parts := strings.SplitN(s, "-", 5)
		if len(parts) < 5 {
			return bad(ErrSyntax, "want <arch>-<vendor>-<os>-<environment>-<processor>, have %d of the 5 components", len(parts))
		}
		id.Arch, id.Vendor, id.OS, id.Env = parts[0], parts[1], parts[2], parts[3]
		rest = parts[4]
		full = true
	}
	if rest == "" {
		return bad(ErrSyntax, "missing processor")
	}
	i := strings.IndexAny(rest, ":+")
	name, feats := rest, ""
	if i >= 0 {
		name, feats = rest[:i], rest[i:]
	}
	if name == "" {
		return bad(ErrSyntax, "missing processor before %q", feats)
	}
	p, ok := table().byName[name]
	if !ok {
		return bad(ErrUnknownProcessor, "unknown processor %q", name)
	}
	id.Processor = p
	if full {
		if err := checkTriple(&id); err != "" {
			return bad(ErrSyntax, "%s", err)
		}
	} else {
		id.Arch, id.Vendor, id.OS = p.Arch, "amd", defaultOS(p)
	}
	if feats == "" {
		return id, nil
	}
	id.Features = map[Feature]FeatureSetting{}
	if feats[0] == ':' {
		for _, f := range strings.Split(feats[1:], ":") {
			if len(f) < 2 || (f[len(f)-1] != '+' && f[len(f)-1] != '-') {
				return bad(ErrSyntax, "feature %q must be a name followed by + or -", f)
			}
			fn := Feature(f[:len(f)-1])
			if strings.ContainsAny(string(fn), "+-") && fn != "sram-ecc" {
				return bad(ErrSyntax, "feature %q must be a name followed by + or -", f)
			}
			if msg, err := checkFeature(p, fn, true); err != nil {
				return bad(err, "%s", msg)
			}
			if _, dup := id.Features[fn]; dup {
				return bad(ErrDuplicateFeature, "feature %s given twice", fn)
			}
			set := On
			if f[len(f)-1] == '-' {
				set = Off
			}
			id.Features[fn] = set
		}
		return id, nil
	}
	// V2/V3 syntax: "+xnack+sram-ecc", enabled features only, in the
	// order of the feature table.
	id.Legacy = true
	last := -1
	for _, f := range strings.Split(feats[1:], "+") {
		if f == "" {
			return bad(ErrSyntax, "empty feature name after +")
		}
		if strings.ContainsAny(f, ":") {
			return bad(ErrSyntax, "cannot mix the V2/V3 +feature syntax with :feature± (at %q)", f)
		}
		fn := Feature(f)
		if f == "sram-ecc" {
			fn = FeatureSRAMECC
		}
		if msg, err := checkFeature(p, fn, false); err != nil {
			return bad(err, "%s", msg)
		}
		if _, dup := id.Features[fn]; dup {
			return bad(ErrDuplicateFeature, "feature %s given twice", fn)
		}
		pos := slices.Index(legacyFeatureOrder, fn)
		if pos < last {
			return bad(ErrSyntax, "feature %s out of order: the V2/V3 syntax lists %s", fn, legacyOrderText())
		}
		last = pos
		id.Features[fn] = On
	}
	for _, f := range p.IDFeatures() {
		if _, set := id.Features[f]; !set {
			id.Features[f] = Off
		}
	}
	return id, nil
}

// ParseLegacyID parses s as a V2/V3 target (.amdgcn_target of a V3
// object): like ParseID, except that a processor without "+feature"s means
// every feature off, as LLVM writes it, rather than Any. V4+ ":feature±"
// syntax is rejected.
func ParseLegacyID(s string) (ID, error) {
	id, err := ParseID(s)
	if err != nil {
		return id, err
	}
	if id.Legacy {
		return id, nil
	}
	if len(id.Features) > 0 {
		return ID{}, &IDError{ID: s, Msg: "V4+ :feature syntax in a V2/V3 target", Err: ErrSyntax}
	}
	id.Legacy = true
	for _, f := range id.Processor.IDFeatures() {
		if id.Features == nil {
			id.Features = map[Feature]FeatureSetting{}
		}
		id.Features[f] = Off
	}
	return id, nil
}

func legacyOrderText() string {
	var s []string
	for _, f := range legacyFeatureOrder {
		s = append(s, f.LegacyName())
	}
	return strings.Join(s, ", ")
}

// checkFeature validates feature f of processor p; idSyntax is true for
// the V4+ ":f±" syntax, which allows only target-ID features.
func checkFeature(p *Processor, f Feature, idSyntax bool) (string, error) {
	if !f.Known() {
		if f == "sram-ecc" && idSyntax {
			return `unknown feature "sram-ecc" (spelled "sramecc" in this syntax)`, ErrUnknownFeature
		}
		return fmt.Sprintf("unknown feature %q", string(f)), ErrUnknownFeature
	}
	if !p.Supports(f) {
		return fmt.Sprintf("processor %s does not support feature %s", p.Name, f), ErrUnsupportedFeature
	}
	if idSyntax && !f.TargetID() {
		return fmt.Sprintf("feature %s cannot be set in a target ID (it is the -m[no-]%s option)", f, f), ErrUnsupportedFeature
	}
	return "", nil
}

func defaultOS(p *Processor) string {
	if p.Arch == "amdgcn" {
		return "amdhsa"
	}
	return ""
}

// checkTriple validates the triple of a full-form ID against its processor
// (spec/INVENTORY.md §3.1).
func checkTriple(id *ID) string {
	if id.Arch != id.Processor.Arch {
		return fmt.Sprintf("processor %s is %s, not %s", id.Processor.Name, id.Processor.Arch, id.Arch)
	}
	switch id.Vendor {
	case "amd":
	case "mesa3d":
		if id.OS != "mesa3d" {
			return fmt.Sprintf("vendor mesa3d requires OS mesa3d, not %q", id.OS)
		}
	default:
		return fmt.Sprintf("unknown vendor %q (want amd or mesa3d)", id.Vendor)
	}
	switch id.OS {
	case "", "amdpal", "mesa3d":
	case "amdhsa":
		if id.Arch == "r600" {
			return "OS amdhsa is not supported on r600"
		}
	default:
		return fmt.Sprintf("unknown OS %q (want amdhsa, amdpal, mesa3d or empty)", id.OS)
	}
	if id.Env != "" {
		return fmt.Sprintf("environment must be empty, not %q", id.Env)
	}
	return ""
}

func parseISAName(s string) (ID, error) {
	bad := func(err error, format string, args ...any) (ID, error) {
		return ID{}, &IDError{ID: s, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	parts := strings.Split(s, ":")
	if len(parts) != 5 {
		return bad(ErrSyntax, "V2 ISA name must be AMD:AMDGPU:<major>:<minor>:<stepping>")
	}
	var v [3]int
	for i, f := range parts[2:] {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || f != strconv.Itoa(n) {
			return bad(ErrSyntax, "V2 ISA version component %q is not a decimal number", f)
		}
		v[i] = n
	}
	e, ok := table().byISA[v]
	if !ok {
		return bad(ErrUnknownProcessor, "no processor has ISA version %d.%d.%d", v[0], v[1], v[2])
	}
	id := ID{Arch: "amdgcn", Vendor: "amd", OS: "amdhsa", Processor: e.p, Legacy: true}
	if e.xnack != Any {
		id.Features = map[Feature]FeatureSetting{FeatureXNACK: e.xnack}
	}
	return id, nil
}

// String returns the canonical full form,
// "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-": primary processor name,
// target-ID features that are On or Off in alphabetical order, Any
// features omitted. -m features of a legacy ID are not part of it (see
// LegacyString).
func (id ID) String() string {
	return id.triple() + "-" + id.TargetID()
}

func (id ID) triple() string {
	return id.Arch + "-" + id.Vendor + "-" + id.OS + "-" + id.Env
}

// TargetID returns the canonical target ID without the triple,
// "gfx90a:sramecc+:xnack-".
func (id ID) TargetID() string {
	if id.Processor == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(id.Processor.Name)
	for _, f := range id.Processor.IDFeatures() {
		if s := id.Features[f]; s != Any {
			b.WriteString(":" + string(f) + s.suffix())
		}
	}
	return b.String()
}

// LegacyString returns the V2/V3 form, "amdgcn-amd-amdhsa--gfx902+xnack":
// every feature that is On, in the order of the old feature table, with
// S1's spelling "sram-ecc".
func (id ID) LegacyString() string {
	if id.Processor == nil {
		return id.triple() + "-"
	}
	var b strings.Builder
	b.WriteString(id.triple() + "-" + id.Processor.Name)
	for _, f := range legacyFeatureOrder {
		if id.Features[f] == On {
			b.WriteString("+" + f.LegacyName())
		}
	}
	return b.String()
}

// ISAName returns the code object V2 ISA name, "AMD:AMDGPU:9:0:6". For
// xnack-enabled code on gfx900/902/904/906 it is the xnack variant LLVM
// writes ("AMD:AMDGPU:9:0:7" for gfx906 with xnack on).
func (id ID) ISAName() string {
	p := id.Processor
	if p == nil {
		return ""
	}
	if p.V2XNACKStepping != 0 && id.Features[FeatureXNACK] == On {
		return fmt.Sprintf("AMD:AMDGPU:%d:%d:%d", p.Major, p.Minor, p.V2XNACKStepping)
	}
	return p.ISAName()
}

// Canonical returns id with every supported target-ID feature's setting
// kept and nothing else: -m features dropped, Legacy cleared. Its String
// is id's String.
func (id ID) Canonical() ID {
	c := id
	c.Legacy = false
	c.Features = nil
	if id.Processor == nil {
		return c
	}
	for _, f := range id.Processor.IDFeatures() {
		if s := id.Features[f]; s != Any {
			if c.Features == nil {
				c.Features = map[Feature]FeatureSetting{}
			}
			c.Features[f] = s
		}
	}
	return c
}

// NewID returns the ID of processor p with the given target-ID feature
// settings (Any entries may be omitted) and p's default triple
// (amdgcn-amd-amdhsa-, r600-amd--). It fails like ParseID on features p
// does not support or that are not target-ID features.
func NewID(p *Processor, features map[Feature]FeatureSetting) (ID, error) {
	id := ID{Arch: p.Arch, Vendor: "amd", OS: defaultOS(p), Processor: p}
	for f, s := range features {
		if s == Any {
			continue
		}
		if msg, err := checkFeature(p, f, true); err != nil {
			return ID{}, &IDError{ID: id.triple() + "-" + p.Name, Msg: msg, Err: err}
		}
		if s != On && s != Off {
			return ID{}, &IDError{ID: id.triple() + "-" + p.Name, Msg: fmt.Sprintf("feature %s has bad setting %v", f, s), Err: ErrSyntax}
		}
		if id.Features == nil {
			id.Features = map[Feature]FeatureSetting{}
		}
		id.Features[f] = s
	}
	return id, nil
}

// Validate checks an ID built by hand (from e_flags, say) by the rules
// ParseID applies: a processor, a triple that fits it (empty components
// allowed), known features with valid settings. Settings of features the
// processor lacks are allowed only as Off (a V3 object's clear bit).
func (id ID) Validate() error {
	bad := func(err error, format string, args ...any) error {
		return &IDError{ID: id.String(), Msg: fmt.Sprintf(format, args...), Err: err}
	}
	if id.Processor == nil {
		return &IDError{ID: id.triple(), Msg: "no processor", Err: ErrUnknownProcessor}
	}
	if id.Arch != "" && id.Vendor != "" {
		if msg := checkTriple(&id); msg != "" {
			return bad(ErrSyntax, "%s", msg)
		}
	}
	for f, s := range id.Features {
		if !f.Known() {
			return bad(ErrUnknownFeature, "unknown feature %q", string(f))
		}
		switch s {
		case Any, Off:
		case On:
			if !id.Processor.Supports(f) {
				return bad(ErrUnsupportedFeature, "processor %s does not support feature %s", id.Processor.Name, f)
			}
		default:
			return bad(ErrSyntax, "feature %s has bad setting %v", f, s)
		}
		if !f.TargetID() && !id.Legacy && s != Any {
			return bad(ErrUnsupportedFeature, "feature %s cannot be set in a target ID (it is the -m[no-]%s option)", f, f)
		}
	}
	if id.GenericVersion < 0 || id.GenericVersion > 255 {
		return bad(ErrSyntax, "generic version %d outside 0..255", id.GenericVersion)
	}
	if id.GenericVersion != 0 && !id.Processor.Generic {
		return bad(ErrSyntax, "generic version %d on non-generic processor %s", id.GenericVersion, id.Processor.Name)
	}
	return nil
}
