package codeobject

import (
	"debug/elf"
	"errors"
	"fmt"
	mbits "math/bits"
	"sort"
	"strings"

	"github.com/rocpu/rocpu/target"
)

// Severity grades a validation finding.
type Severity int

// Severities: an Error makes the object unusable or wrong by the spec; a
// Warning is legal but suspicious or outside what LLVM emits.
const (
	SeverityError Severity = iota
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Finding is one violation Validate found: where (byte offset in the
// file), which rule (named after its INVENTORY section), and what.
type Finding struct {
	Off      int64
	Rule     string
	Severity Severity
	Msg      string
}

func (f Finding) String() string {
	return fmt.Sprintf("%#x: %s: [%s] %s", f.Off, f.Severity, f.Rule, f.Msg)
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

type validator struct {
	f   *File
	out []Finding
}

func (v *validator) add(off int64, sev Severity, rule, format string, args ...any) {
	v.out = append(v.out, Finding{Off: off, Rule: rule, Severity: sev, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) addErr(err error, rule string) {
	var fe *FormatError
	if errors.As(err, &fe) {
		v.add(fe.Off, SeverityError, rule, "%s", fe.Msg)
		return
	}
	v.add(0, SeverityError, rule, "%v", err)
}

// Validate checks the object against INVENTORY §1.10 (code object) and
// §4.8 (kernel descriptors) and returns every finding, sorted by offset.
// An object Parse accepted never makes Validate panic.
func (f *File) Validate() []Finding {
	v := &validator{f: f}
	v.header()
	p := v.flags()
	v.notes()
	v.kernels(p)
	v.relocs()
	sort.SliceStable(v.out, func(i, j int) bool { return v.out[i].Off < v.out[j].Off })
	return v.out
}

func (v *validator) header() {
	f := v.f
	switch f.OSABI {
	case ELFOSABI_NONE, ELFOSABI_AMDGPU_HSA, ELFOSABI_AMDGPU_PAL, ELFOSABI_AMDGPU_MESA3D:
	default:
		v.add(elf.EI_OSABI, SeverityError, "§1.1 os-abi", "OS ABI %d is not an AMDGPU OS ABI", f.OSABI)
	}
	if f.OSABI == ELFOSABI_AMDGPU_HSA && f.version == VersionUnknown {
		v.add(elf.EI_ABIVERSION, SeverityError, "§1.2 abi-version", "ABI version %d is not a known amdhsa code object version (0..4 = V2..V6)", f.ABIVersion)
	}
	if f.IdentVersion != elf.EV_CURRENT {
		v.add(elf.EI_VERSION, SeverityError, "§1.1 ident-version", "e_ident[EI_VERSION] is %d, want 1", f.IdentVersion)
	}
	switch f.Type {
	case elf.ET_DYN:
	case elf.ET_REL:
		v.add(16, SeverityWarning, "§1.1 e_type", "ET_REL object: tools accept it but the runtime loader requires ET_DYN")
	default:
		v.add(16, SeverityError, "§1.1 e_type", "e_type %v is neither ET_DYN nor ET_REL", f.Type)
	}
	if f.Entry != 0 {
		v.add(24, SeverityError, "§1.1 e_entry", "e_entry is %#x, want 0", f.Entry)
	}
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOBITS && s.Type != elf.SHT_NULL {
			if _, err := f.SectionData(s); err != nil {
				v.addErr(err, "§1.5 section-bounds")
			}
		}
	}
	v.overlaps()
	for _, p := range f.Progs {
		if _, err := f.ProgData(p); err != nil {
			v.addErr(err, "§1.1 segment-bounds")
		}
		if p.Type == elf.PT_LOAD && p.Filesz > p.Memsz {
			v.add(p.HeaderOff+32, SeverityError, "§1.1 segment-size", "segment %d p_filesz %#x exceeds p_memsz %#x", p.Index, p.Filesz, p.Memsz)
		}
		if p.Type == elf.PT_LOAD && p.Align > 1 && p.Vaddr%p.Align != p.Off%p.Align {
			v.add(p.HeaderOff+16, SeverityError, "§1.1 segment-align", "segment %d p_vaddr %#x and p_offset %#x disagree modulo p_align %#x", p.Index, p.Vaddr, p.Off, p.Align)
		}
	}
}

func (v *validator) flags() *target.Processor {
	f := v.f
	fl := f.Flags()
	if fl.Unknown != 0 {
		v.add(48, SeverityError, "§1.3 e_flags", "e_flags bits %#x have no meaning in %v", fl.Unknown, f.version)
	}
	p, err := f.Processor()
	if err != nil {
		v.add(48, SeverityError, "§1.4 mach", "%v", err)
		return nil
	}
	if f.version == V2 && fl.FinalizerV2 {
		return p
	}
	for _, x := range []struct {
		feat target.Feature
		s    Feature
	}{{target.FeatureXNACK, fl.XNACK}, {target.FeatureSRAMECC, fl.SRAMECC}} {
		sup := p.Supports(x.feat)
		switch {
		case !sup && x.s == FeatureOn, !sup && f.version >= V4 && x.s != FeatureUnsupported:
			v.add(48, SeverityError, "§1.3 feature", "%s is %v in e_flags but %s does not support it", x.feat, x.s, p.Name)
		case sup && f.version >= V4 && x.s == FeatureUnsupported:
			v.add(48, SeverityWarning, "§1.3 feature", "%s supports %s but e_flags say unsupported", p.Name, x.feat)
		}
	}
	if f.version >= V6 {
		switch {
		case p.Generic && fl.GenericVersion == 0:
			v.add(48, SeverityError, "§1.3 generic-version", "generic processor %s needs EF_AMDGPU_GENERIC_VERSION_V 1..255", p.Name)
		case !p.Generic && fl.GenericVersion != 0:
			v.add(48, SeverityError, "§1.3 generic-version", "generic version %d set for non-generic processor %s", fl.GenericVersion, p.Name)
		}
	} else if p.Generic {
		v.add(48, SeverityError, "§3.4 generic", "generic processor %s needs code object V6 or later, this is %v", p.Name, f.version)
	}
	return p
}

func (v *validator) notes() {
	f := v.f
	notes, err := f.Notes()
	if err != nil {
		v.addErr(err, "§1.6 notes")
		return
	}
	for _, s := range f.Sections {
		if s.Type == elf.SHT_NOTE && s.Addralign < 4 {
			v.add(s.HeaderOff+48, SeverityError, "§1.6 note-align", "note section %s sh_addralign %d, must be at least 4", s.Name, s.Addralign)
		}
	}
	var md []Note
	for _, n := range notes {
		switch {
		case n.Name == "AMDGPU" && n.Type == NT_AMDGPU_METADATA:
			md = append(md, n)
			if f.version == V2 {
				v.add(n.Off, SeverityError, "§1.6 note-version", "V2 object carries a V3+ NT_AMDGPU_METADATA note")
			}
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_METADATA:
			md = append(md, n)
			if f.version >= V3 {
				v.add(n.Off, SeverityError, "§1.6 note-version", "%v object carries a V2 NT_AMD_HSA_METADATA note", f.version)
			}
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_ISA_VERSION:
			if _, err := ParseISAVersionNote(&n); err != nil {
				v.addErr(err, "§1.6 isa-version-note")
			}
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_CODE_OBJECT_VERSION:
			if cv, err := ParseCodeObjectVersionNote(&n); err != nil {
				v.addErr(err, "§1.6 code-object-version-note")
			} else if cv.Major > 2 {
				v.add(n.DescOff, SeverityError, "§1.6 code-object-version-note", "NT_AMD_HSA_CODE_OBJECT_VERSION major %d, must be at most 2", cv.Major)
			}
		}
	}
	if f.OSABI != ELFOSABI_AMDGPU_HSA {
		return
	}
	switch {
	case len(md) == 0 && f.version == V2:
		// llvm-mc writes no metadata for hand-written V2 kernels; their
		// amd_kernel_code_t says what a loader needs.
		v.add(0, SeverityWarning, "§1.10 metadata", "V2 object has no NT_AMD_HSA_METADATA note")
		return
	case len(md) == 0:
		v.add(0, SeverityError, "§1.10 metadata", "amdhsa object has no metadata note")
		return
	case len(md) > 1:
		v.add(md[1].Off, SeverityError, "§1.10 metadata", "%d metadata notes, want exactly one", len(md))
	}
	meta, err := f.Metadata()
	if err != nil {
		v.addErr(err, "§2 metadata")
		return
	}
	if f.version >= V3 {
		want := map[Version][]uint64{V3: {1, 0}, V4: {1, 1}, V5: {1, 2}, V6: {1, 2}}[f.version]
		if len(meta.Version) != 2 || meta.Version[0] != want[0] || meta.Version[1] != want[1] {
			v.add(md[0].DescOff, SeverityError, "§2.2 amdhsa.version", "amdhsa.version %v does not match %v (want %v)", meta.Version, f.version, want)
		}
		if f.version >= V4 {
			if meta.Target == "" {
				// Required by the spec, but llvm-mc accepts
				// .amdgpu_metadata without it.
				v.add(md[0].DescOff, SeverityWarning, "§2.3 amdhsa.target", "amdhsa.target is missing")
			} else if id, err := f.TargetID(); err == nil && meta.Target != id.String() {
				v.add(md[0].DescOff, SeverityError, "§2.3 amdhsa.target", "amdhsa.target %q disagrees with e_flags (%s)", meta.Target, id.String())
			}
		}
	}
	v.metadataKernels(meta)
}

func (v *validator) metadataKernels(meta *Metadata) {
	for i := range meta.Kernels {
		k := &meta.Kernels[i]
		if k.KernargSegmentAlign == 0 || mbits.OnesCount64(k.KernargSegmentAlign) != 1 {
			v.add(k.Off, SeverityError, "§1.10.7 kernarg-align", "kernel %s .kernarg_segment_align %d is not a power of 2", k.Name, k.KernargSegmentAlign)
		}
		if k.WavefrontSize != 32 && k.WavefrontSize != 64 {
			v.add(k.Off, SeverityError, "§2.2 wavefront-size", "kernel %s .wavefront_size %d is not 32 or 64", k.Name, k.WavefrontSize)
		}
		if k.MaxFlatWorkgroupSize == 0 {
			v.add(k.Off, SeverityError, "§2.2 max-flat-workgroup-size", "kernel %s .max_flat_workgroup_size is 0", k.Name)
		}
		if len(k.ReqdWorkgroupSize) == 3 && k.ReqdWorkgroupSize[0]*k.ReqdWorkgroupSize[1]*k.ReqdWorkgroupSize[2] > k.MaxFlatWorkgroupSize && k.MaxFlatWorkgroupSize != 0 {
			v.add(k.Off, SeverityError, "§2.2 reqd-workgroup-size", "kernel %s .reqd_workgroup_size %v exceeds .max_flat_workgroup_size %d", k.Name, k.ReqdWorkgroupSize, k.MaxFlatWorkgroupSize)
		}
		printf, hostcall := false, false
		for j := range k.Args {
			a := &k.Args[j]
			if !a.ValueKind.Known() {
				v.add(a.Off, SeverityWarning, "§2.6 value-kind", "kernel %s argument %d has unknown .value_kind %q", k.Name, j, a.ValueKind)
			} else if s := a.ValueKind.Since(); s > v.f.version && v.f.version != VersionUnknown {
				v.add(a.Off, SeverityError, "§2.6 value-kind", "kernel %s argument %d: %s needs code object %v or later", k.Name, j, a.ValueKind, s)
			}
			printf = printf || a.ValueKind == ValueKindHiddenPrintfBuffer
			hostcall = hostcall || a.ValueKind == ValueKindHiddenHostcallBuffer
			if a.Offset+a.Size < a.Offset || a.Offset+a.Size > k.KernargSegmentSize {
				v.add(a.Off, SeverityError, "§1.10.7 arg-bounds", "kernel %s argument %d [%d,+%d) exceeds .kernarg_segment_size %d", k.Name, j, a.Offset, a.Size, k.KernargSegmentSize)
			}
			align := a.Align
			if align == 0 && a.ValueKind != ValueKindByValue && a.Size > 0 && a.Size&(a.Size-1) == 0 {
				align = min(a.Size, 8) // pointers and hidden arguments are naturally aligned
			}
			if align > 0 && a.Offset%align != 0 {
				v.add(a.Off, SeverityError, "§2.2 arg-offset", "kernel %s argument %d offset %d is not a multiple of its alignment %d", k.Name, j, a.Offset, align)
			}
			if a.PointeeAlign != nil && (*a.PointeeAlign == 0 || *a.PointeeAlign&(*a.PointeeAlign-1) != 0) {
				v.add(a.Off, SeverityError, "§2.2 pointee-align", "kernel %s argument %d .pointee_align %d is not a power of 2", k.Name, j, *a.PointeeAlign)
			}
		}
		if printf && hostcall && v.f.version < V5 && v.f.version != VersionUnknown {
			v.add(k.Off, SeverityError, "§2.4 printf-hostcall", "kernel %s has both hidden_printf_buffer and hidden_hostcall_buffer before V5", k.Name)
		}
	}
}

func (v *validator) kernels(p *target.Processor) {
	f := v.f
	ks, err := f.Kernels()
	if err != nil {
		v.addErr(err, "§1.10.5 kernel-symbol")
		return
	}
	for i := range ks {
		k := &ks[i]
		sym := k.DescriptorSymbol
		if k.Descriptor != nil {
			if sym.Type != STT_OBJECT {
				v.add(sym.Off+4, SeverityError, "§1.7 kd-symbol", "descriptor symbol %s has type %v, want OBJECT", sym.Name, sym.Type)
			}
			if sym.Size != KernelDescriptorSize {
				v.add(sym.Off+16, SeverityError, "§1.7 kd-symbol", "descriptor symbol %s has size %d, want 64", sym.Name, sym.Size)
			}
			if f.Type == elf.ET_DYN && sym.Value%64 != 0 {
				v.add(sym.Off+8, SeverityError, "§4.1 kd-align", "kernel descriptor %s at %#x is not 64-byte aligned", sym.Name, sym.Value)
			}
			if int(sym.Shndx) < len(f.Sections) {
				if s := f.Sections[sym.Shndx]; s.Name != ".rodata" {
					v.add(sym.Off+6, SeverityWarning, "§1.7 kd-section", "descriptor symbol %s is in %s, not .rodata", sym.Name, s.Name)
				}
			}
			v.descriptor(k, p)
		}
		if f.Type == elf.ET_DYN {
			if k.EntryAddr%256 != 0 {
				v.add(k.DescriptorOff+16, SeverityError, "§4.1 entry-align", "kernel %s entry %#x is not 256-byte aligned", k.Name, k.EntryAddr)
			}
			if !v.inExec(k.EntryAddr) {
				v.add(k.DescriptorOff+16, SeverityError, "§1.10.5 entry", "kernel %s entry %#x is not inside an executable section", k.Name, k.EntryAddr)
			}
		}
		if k.KernelCode != nil {
			c := k.KernelCode
			if c.AMDKernelCodeVersionMajor != 1 {
				v.add(k.DescriptorOff, SeverityError, "§4.7 version", "kernel %s amd_kernel_code_version_major %d, want 1", k.Name, c.AMDKernelCodeVersionMajor)
			}
			if c.KernargSegmentAlignment < 4 {
				v.add(k.DescriptorOff+100, SeverityError, "§4.7 kernarg-alignment", "kernel %s kernarg_segment_alignment 2^%d is below 16", k.Name, c.KernargSegmentAlignment)
			}
			v.kernelCode(k, p)
			if m := k.Meta; m != nil && c.KernargSegmentByteSize != m.KernargSegmentSize {
				v.add(k.DescriptorOff+72, SeverityError, "§1.10.5 kernarg-size", "kernel %s kernarg_segment_byte_size %d, metadata says %d", k.Name, c.KernargSegmentByteSize, m.KernargSegmentSize)
			}
		}
	}
}

func (v *validator) inExec(addr uint64) bool {
	for _, s := range v.f.Sections {
		if s.Flags&elf.SHF_EXECINSTR != 0 && addr >= s.Addr && addr-s.Addr < s.Size {
			return true
		}
	}
	return false
}

// sgprFieldWarningOnly lists fields LLVM 15 itself sets where the spec says
// reserved, which are therefore reported as warnings.
var sgprFieldWarningOnly = map[string]bool{"GRANULATED_WAVEFRONT_SGPR_COUNT": true}

func (v *validator) descriptor(k *KernelInfo, p *target.Processor) {
	kd := k.Descriptor
	base := k.DescriptorOff
	if kd.Reserved0 != [4]byte{} {
		v.add(base+12, SeverityError, "§4.1 reserved", "kernel %s descriptor bytes 12-15 are not zero", k.Name)
	}
	if kd.Reserved1 != [20]byte{} {
		v.add(base+24, SeverityError, "§4.1 reserved", "kernel %s descriptor bytes 24-43 are not zero", k.Name)
	}
	if kd.Reserved3 != [4]byte{} {
		v.add(base+60, SeverityError, "§4.1 reserved", "kernel %s descriptor bytes 60-63 are not zero", k.Name)
	}
	if p == nil {
		return
	}
	for _, fld := range kd.Fields(p) {
		if fld.Rule != "" && fld.Value != 0 {
			sev := SeverityError
			if sgprFieldWarningOnly[fld.Name] {
				sev = SeverityWarning
			}
			v.add(base+fld.ByteOff, sev, "§4.8 "+strings.ToLower(fld.Word), "kernel %s %s.%s is %d: %s on %s", k.Name, fld.Word, fld.Name, fld.Value, fld.Rule, p.Name)
		}
	}
	props := uint32(kd.KernelCodeProperties)
	want := 0
	for _, w := range []struct {
		bit uint32
		n   int
	}{{1, 4}, {2, 2}, {4, 2}, {8, 2}, {16, 2}, {32, 2}, {64, 1}} {
		if props&w.bit != 0 {
			want += w.n
		}
	}
	want += int(kd.KernargPreload & 0x7f)
	got := int(kd.ComputePgmRsrc2 >> 1 & 31)
	if want > 16 {
		v.add(base+56, SeverityError, "§4.8 user-sgprs", "kernel %s enables %d user SGPRs, more than 16", k.Name, want)
	}
	if got != want {
		v.add(base+52, SeverityError, "§4.8 user-sgprs", "kernel %s USER_SGPR_COUNT %d, enabled user SGPRs total %d", k.Name, got, want)
	}
	if kd.ComputePgmRsrc2>>11&3 == 3 {
		v.add(base+53, SeverityError, "§4.8 workitem-id", "kernel %s ENABLE_VGPR_WORKITEM_ID is 3 (undefined)", k.Name)
	}
	if m := k.Meta; m != nil {
		if uint64(kd.GroupSegmentFixedSize) != m.GroupSegmentFixedSize {
			v.add(base, SeverityError, "§1.10.5 group-segment", "kernel %s GROUP_SEGMENT_FIXED_SIZE %d, metadata %d", k.Name, kd.GroupSegmentFixedSize, m.GroupSegmentFixedSize)
		}
		if uint64(kd.PrivateSegmentFixedSize) != m.PrivateSegmentFixedSize {
			v.add(base+4, SeverityError, "§1.10.5 private-segment", "kernel %s PRIVATE_SEGMENT_FIXED_SIZE %d, metadata %d", k.Name, kd.PrivateSegmentFixedSize, m.PrivateSegmentFixedSize)
		}
		if kd.KernargSize != 0 && uint64(kd.KernargSize) != m.KernargSegmentSize {
			v.add(base+8, SeverityError, "§1.10.5 kernarg-size", "kernel %s KERNARG_SIZE %d, metadata %d", k.Name, kd.KernargSize, m.KernargSegmentSize)
		}
		if ws := kd.WaveSize(p); uint64(ws) != m.WavefrontSize {
			v.add(base+57, SeverityError, "§1.10.5 wavefront-size", "kernel %s descriptor selects wave%d, metadata .wavefront_size %d", k.Name, ws, m.WavefrontSize)
		}
		if m.UsesDynamicStack != nil && *m.UsesDynamicStack != (props&KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK != 0) {
			v.add(base+57, SeverityError, "§2.4 uses-dynamic-stack", "kernel %s USES_DYNAMIC_STACK disagrees with .uses_dynamic_stack", k.Name)
		}
	}
}

func (v *validator) relocs() {
	f := v.f
	for _, s := range f.RelocSections() {
		rs, err := f.Relocs(s)
		if err != nil {
			v.addErr(err, "§1.8 relocations")
			continue
		}
		var nsyms int
		if int(s.Link) < len(f.Sections) {
			syms, err := f.SymbolsIn(f.Sections[s.Link])
			if err != nil {
				v.addErr(err, "§1.8 relocations")
				continue
			}
			nsyms = len(syms)
		}
		for _, r := range rs {
			if !r.Type.Known() {
				v.add(r.Off+8, SeverityError, "§1.8 reloc-type", "relocation type %d is not an R_AMDGPU_* type", uint32(r.Type))
			}
			if r.Type == R_AMDGPU_RELATIVE64 && r.Sym != 0 {
				v.add(r.Off+12, SeverityError, "§1.8 reloc-symbol", "R_AMDGPU_RELATIVE64 must use symbol index STN_UNDEF, has %d", r.Sym)
			}
			if int(r.Sym) >= max(nsyms, 1) {
				v.add(r.Off+12, SeverityError, "§1.8 reloc-symbol", "relocation symbol index %d out of range (%d symbols)", r.Sym, nsyms)
			}
			if f.Type == elf.ET_DYN && r.Type.Known() && r.Type != R_AMDGPU_NONE && !v.inLoad(r.Offset, uint64(r.Type.FieldSize())) {
				v.add(r.Off, SeverityError, "§1.8 reloc-place", "%v place %#x is not inside a PT_LOAD segment", r.Type, r.Offset)
			}
			if f.Type == elf.ET_DYN && r.Type.Known() && !r.Type.Dynamic() && r.Type != R_AMDGPU_NONE {
				v.add(r.Off+8, SeverityError, "§1.8 reloc-type", "%v is a static relocation in an ET_DYN object", r.Type)
			}
		}
	}
}

// overlaps reports sections whose file bytes overlap.
func (v *validator) overlaps() {
	var secs []*Section
	for _, s := range v.f.Sections {
		if s.Type != elf.SHT_NULL && s.Type != elf.SHT_NOBITS && s.Size > 0 {
			secs = append(secs, s)
		}
	}
	sort.SliceStable(secs, func(i, j int) bool { return secs[i].Offset < secs[j].Offset })
	for i := 1; i < len(secs); i++ {
		a, b := secs[i-1], secs[i]
		if end := a.Offset + a.Size; end > b.Offset && end >= a.Offset {
			v.add(b.HeaderOff+24, SeverityError, "§1.5 section-overlap", "section %d (%s) at file offset %#x overlaps section %d (%s) [%#x, +%#x)", b.Index, b.Name, b.Offset, a.Index, a.Name, a.Offset, a.Size)
		}
	}
}

// kernelCode checks an amd_kernel_code_t's RSRC1/RSRC2 words and user SGPR
// count (§4.7). The ROCm document (S0) lets V2 code set PRIORITY and
// ENABLE_TRAP_HANDLER (§13.2), so only the other CP-filled fields must be 0.
func (v *validator) kernelCode(k *KernelInfo, p *target.Processor) {
	c := k.KernelCode
	if p == nil {
		return
	}
	view := KernelDescriptor{ComputePgmRsrc1: c.ComputePgmRsrc1, ComputePgmRsrc2: c.ComputePgmRsrc2}
	for _, fld := range view.Fields(p) {
		if fld.Word != "COMPUTE_PGM_RSRC1" && fld.Word != "COMPUTE_PGM_RSRC2" {
			continue
		}
		if fld.Rule == "" || fld.Value == 0 || fld.Name == "PRIORITY" || fld.Name == "ENABLE_TRAP_HANDLER" {
			continue
		}
		sev := SeverityError
		if sgprFieldWarningOnly[fld.Name] {
			sev = SeverityWarning
		}
		v.add(k.DescriptorOff+fld.ByteOff, sev, "§4.7 "+strings.ToLower(fld.Word), "kernel %s amd_kernel_code_t %s.%s is %d: %s on %s", k.Name, fld.Word, fld.Name, fld.Value, fld.Rule, p.Name)
	}
	want := 0
	for _, w := range []struct {
		bit uint32
		n   int
	}{{1, 4}, {2, 2}, {4, 2}, {8, 2}, {16, 2}, {32, 2}, {64, 1}, {128, 1}, {256, 1}, {512, 1}} {
		if c.KernelCodeProperties&w.bit != 0 {
			want += w.n
		}
	}
	if got := int(c.ComputePgmRsrc2 >> 1 & 31); got != want {
		v.add(k.DescriptorOff+52, SeverityError, "§4.7 user-sgprs", "kernel %s USER_SGPR_COUNT %d, enabled user SGPRs total %d", k.Name, got, want)
	}
	if c.ComputePgmRsrc2>>11&3 == 3 {
		v.add(k.DescriptorOff+53, SeverityError, "§4.8 workitem-id", "kernel %s ENABLE_VGPR_WORKITEM_ID is 3 (undefined)", k.Name)
	}
}

// inLoad reports whether [addr, addr+n) lies inside one PT_LOAD segment.
func (v *validator) inLoad(addr, n uint64) bool {
	for _, p := range v.f.Progs {
		if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr-p.Vaddr <= p.Memsz && n <= p.Memsz-(addr-p.Vaddr) {
			return true
		}
	}
	return false
}
