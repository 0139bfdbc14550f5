package main

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/target"
)

const readobjSummary = "describe AMDGPU code objects, offload bundles and HIP executables"

const readobjHelp = `Reads each FILE: a code object (V2-V6), a clang offload bundle (plain or
compressed) or a HIP executable/shared library (its .hip_fatbin bundles),
and prints for every code object in it: the ELF header with decoded
e_flags and target ID, and the sections selected by the flags below (all
of them when none is given). Metadata is printed as the YAML that
llvm-readelf prints in its "AMDGPU Metadata" note dump.

The object is always validated (spec/INVENTORY.md §1.10, §4.8); --validate
prints the findings. Exit status: 0 when every file was read and has no
validation errors, 1 when a file is unreadable or has validation errors,
2 for bad usage.`

const readobjArgs = "[--json] [--validate] [--notes] [--kernels] [--symbols] [--relocs] FILE..."

type readobjOpts struct {
	json, validate, notes, kernels, symbols, relocs bool
}

func init() {
	register(&command{
		name:    "readobj",
		summary: readobjSummary,
		usage:   readobjArgs,
		run:     runReadobj,
	})
}

func runReadobj(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	var o readobjOpts
	fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
	fs.BoolVar(&o.validate, "validate", false, "print validation findings")
	fs.BoolVar(&o.notes, "notes", false, "print the notes and the metadata (YAML)")
	fs.BoolVar(&o.kernels, "kernels", false, "print the kernels: descriptor, registers, segments, inputs, kernarg layout")
	fs.BoolVar(&o.symbols, "symbols", false, "print the symbol tables")
	fs.BoolVar(&o.relocs, "relocs", false, "print the relocations")
	wantHelp := false
	for _, a := range args {
		switch a {
		case "-h", "-help", "--h", "--help":
			wantHelp = true
		}
	}
	fs.Usage = func() {
		if wantHelp && fs.Output() != stdout {
			return // the flag package's own call; parse prints the help to stdout
		}
		fmt.Fprintf(fs.Output(), "usage: rocpu readobj %s\n\n%s.\n\n%s\n\nflags:\n", readobjArgs, readobjSummary, readobjHelp)
		fs.PrintDefaults()
	}
	if st, ok := parse(fs, args, stdout); !ok {
		return st
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "rocpu readobj: no FILE given\n")
		fs.Usage()
		return 2
	}
	if !o.validate && !o.notes && !o.kernels && !o.symbols && !o.relocs {
		o.validate, o.notes, o.kernels, o.symbols, o.relocs = true, true, true, true, true
	}
	// Buffer the report (one write per object instead of one per line);
	// stdout is flushed before each message to stderr so that the two
	// streams keep their order on a terminal.
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	stdout = out
	stderr = flushFirst{out, stderr}
	status := 0
	var reports []*objReport
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "rocpu readobj: %v\n", err)
			status = 1
			continue
		}
		objs, err := codeobject.OpenAny(data)
		if err != nil {
			fmt.Fprintf(stderr, "rocpu readobj: %s: %v\n", name, err)
			status = 1
			continue
		}
		if len(objs) == 0 {
			fmt.Fprintf(stderr, "rocpu readobj: %s: holds no AMDGPU code object\n", name)
			status = 1
			continue
		}
		for _, e := range objs {
			label := name
			if e.Name != "" {
				label = name + " [" + e.Name + "]"
			}
			if e.Err != nil {
				fmt.Fprintf(stderr, "rocpu readobj: %s: %v\n", label, e.Err)
				status = 1
				continue
			}
			r := buildReport(label, e.File, &o)
			if r.Errors > 0 {
				status = 1
			}
			if len(r.ReadErrors) > 0 {
				status = 1
				for _, m := range r.ReadErrors {
					fmt.Fprintf(stderr, "rocpu readobj: %s: %s\n", label, m)
				}
			}
			if o.json {
				reports = append(reports, r)
			} else {
				printReport(stdout, r, &o)
			}
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if reports == nil {
			reports = []*objReport{}
		}
		if err := enc.Encode(reports); err != nil {
			fmt.Fprintf(stderr, "rocpu readobj: %v\n", err)
			return 1
		}
	}
	return status
}

// flushFirst flushes a buffered stdout before each write to stderr.
type flushFirst struct {
	out *bufio.Writer
	w   io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(p)
}

// objReport is everything readobj says about one code object; it is also
// the --json schema.
type objReport struct {
	File           string          `json:"file"`
	Version        string          `json:"code_object_version"`
	OSABI          string          `json:"os_abi"`
	ABIVersion     int             `json:"abi_version"`
	Type           string          `json:"type"`
	Flags          uint32          `json:"e_flags"`
	FlagNames      []string        `json:"e_flags_decoded"`
	Target         string          `json:"target,omitempty"`
	Processor      string          `json:"processor,omitempty"`
	Family         string          `json:"family,omitempty"`
	Segments       []segReport     `json:"load_segments"`
	Notes          []noteReport    `json:"notes,omitempty"`
	MetadataYAML   string          `json:"metadata_yaml,omitempty"`
	Kernels        []kernelReport  `json:"kernels,omitempty"`
	Symbols        []symReport     `json:"symbols,omitempty"`
	Relocations    []relocReport   `json:"relocations,omitempty"`
	Findings       []findingReport `json:"findings,omitempty"`
	Errors         int             `json:"validation_errors"`
	Warnings       int             `json:"validation_warnings"`
	ReadErrors     []string        `json:"read_errors,omitempty"`
	processorEntry *target.Processor
}

type segReport struct {
	Offset uint64 `json:"offset"`
	Vaddr  uint64 `json:"vaddr"`
	Filesz uint64 `json:"filesz"`
	Memsz  uint64 `json:"memsz"`
	Flags  string `json:"flags"`
	Align  uint64 `json:"align"`
}

type noteReport struct {
	Owner string `json:"owner"`
	Type  string `json:"type"`
	Size  int    `json:"size"`
	Text  string `json:"text,omitempty"`
}

type kernelReport struct {
	Name           string      `json:"name"`
	Descriptor     string      `json:"descriptor_symbol"`
	DescriptorAddr uint64      `json:"descriptor_addr"`
	EntryAddr      uint64      `json:"entry_addr"`
	CodeAddr       uint64      `json:"code_addr"`
	CodeSize       uint64      `json:"code_size"`
	WaveSize       int         `json:"wavefront_size"`
	VGPRs          int         `json:"vgprs"`
	ArchVGPRs      int         `json:"arch_vgprs"`
	AGPRs          int         `json:"agprs"`
	SGPRs          int         `json:"sgprs"`
	LDS            uint32      `json:"group_segment_fixed_size"`
	Scratch        uint32      `json:"private_segment_fixed_size"`
	KernargSize    uint64      `json:"kernarg_segment_size"`
	KernargAlign   uint64      `json:"kernarg_segment_align"`
	UserSGPRs      int         `json:"user_sgpr_count"`
	SGPRInputs     []string    `json:"sgpr_inputs"`
	VGPRInputs     []string    `json:"vgpr_inputs"`
	Preload        string      `json:"kernarg_preload,omitempty"`
	DynamicStack   bool        `json:"uses_dynamic_stack"`
	Meta           *metaCounts `json:"metadata_counts,omitempty"`
	Args           []argReport `json:"kernargs"`
	Fields         []string    `json:"descriptor_fields,omitempty"`
	Error          string      `json:"error,omitempty"`
}

type metaCounts struct {
	SGPRs uint64  `json:"sgpr_count"`
	VGPRs uint64  `json:"vgpr_count"`
	AGPRs *uint64 `json:"agpr_count,omitempty"`
}

type argReport struct {
	Offset uint64 `json:"offset"`
	Size   uint64 `json:"size"`
	Kind   string `json:"value_kind"`
	Name   string `json:"name,omitempty"`
	Type   string `json:"type_name,omitempty"`
	Space  string `json:"address_space,omitempty"`
}

type symReport struct {
	Table   string `json:"table"`
	Index   int    `json:"index"`
	Name    string `json:"name"`
	Value   uint64 `json:"value"`
	Size    uint64 `json:"size"`
	Type    string `json:"type"`
	Bind    string `json:"bind"`
	Vis     string `json:"visibility"`
	Section string `json:"section"`
}

type relocReport struct {
	Section string `json:"section"`
	Offset  uint64 `json:"offset"`
	Type    string `json:"type"`
	Symbol  string `json:"symbol,omitempty"`
	Addend  int64  `json:"addend"`
}

type findingReport struct {
	Offset   int64  `json:"offset"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

func buildReport(label string, f *codeobject.File, o *readobjOpts) *objReport {
	r := &objReport{
		File: label, Version: f.Version().String(), OSABI: f.OSABI.String(), ABIVersion: int(f.ABIVersion),
		Type: f.Type.String(), Flags: f.Header.Flags,
	}
	fail := func(err error) { r.ReadErrors = append(r.ReadErrors, err.Error()) }
	fl := f.Flags()
	if fl.Mach != 0 {
		r.FlagNames = append(r.FlagNames, target.Mach(fl.Mach).String())
	}
	r.FlagNames = append(r.FlagNames, fl.Names()...)
	p, perr := f.Processor()
	if perr == nil {
		r.processorEntry = p
		r.Processor, r.Family = p.Name, p.Family.String()
		if id, err := f.TargetID(); err == nil {
			r.Target = id.String()
			if id.Legacy {
				r.Target = id.LegacyString()
			}
		}
	}
	for _, s := range f.LoadSegments() {
		r.Segments = append(r.Segments, segReport{s.Off, s.Vaddr, s.Filesz, s.Memsz, progFlags(s.Flags), s.Align})
	}
	if o.notes {
		notes, err := f.Notes()
		if err != nil {
			fail(err)
		}
		for i := range notes {
			n := &notes[i]
			nr := noteReport{Owner: n.Name, Type: n.Type.Name(n.Name), Size: len(n.Desc)}
			if nr.Type == "" {
				nr.Type = fmt.Sprintf("NT(%d)", n.Type)
			}
			switch {
			case n.Name == "AMD" && n.Type == codeobject.NT_AMD_HSA_CODE_OBJECT_VERSION:
				if v, err := codeobject.ParseCodeObjectVersionNote(n); err == nil {
					nr.Text = fmt.Sprintf("major %d, minor %d", v.Major, v.Minor)
				}
			case n.Name == "AMD" && n.Type == codeobject.NT_AMD_HSA_ISA_VERSION:
				if v, err := codeobject.ParseISAVersionNote(n); err == nil {
					nr.Text = v.ISAName()
				}
			case n.Name == "AMD" && n.Type == codeobject.NT_AMD_HSA_ISA_NAME:
				nr.Text = string(n.Desc)
			}
			r.Notes = append(r.Notes, nr)
		}
		y, err := f.MetadataYAML()
		if err != nil {
			fail(err)
		}
		r.MetadataYAML = y
	}
	if o.kernels {
		ks, err := f.Kernels()
		if err != nil {
			fail(err)
		}
		for i := range ks {
			r.Kernels = append(r.Kernels, kernelOf(&ks[i], p))
		}
	}
	if o.symbols {
		for _, tab := range []struct {
			name string
			get  func() ([]codeobject.Symbol, error)
		}{{".symtab", f.Symbols}, {".dynsym", f.DynamicSymbols}} {
			syms, err := tab.get()
			if err != nil {
				fail(err)
			}
			for _, s := range syms {
				r.Symbols = append(r.Symbols, symReport{tab.name, s.Index, s.Name, s.Value, s.Size, s.Type.String(),
					strings.TrimPrefix(s.Bind.String(), "STB_"), strings.TrimPrefix(s.Visibility.String(), "STV_"), sectionName(f, s.Shndx)})
			}
		}
	}
	if o.relocs {
		for _, s := range f.RelocSections() {
			rs, err := f.Relocs(s)
			if err != nil {
				fail(err)
				continue
			}
			var syms []codeobject.Symbol
			if int(s.Link) < len(f.Sections) {
				syms, _ = f.SymbolsIn(f.Sections[s.Link])
			}
			for _, x := range rs {
				rr := relocReport{Section: s.Name, Offset: x.Offset, Type: x.Type.String(), Addend: x.Addend}
				if x.Sym != 0 && int(x.Sym) < len(syms) {
					rr.Symbol = syms[x.Sym].Name
				}
				r.Relocations = append(r.Relocations, rr)
			}
		}
	}
	for _, fd := range f.Validate() {
		if fd.Severity == codeobject.SeverityError {
			r.Errors++
		} else {
			r.Warnings++
		}
		if o.validate {
			r.Findings = append(r.Findings, findingReport{fd.Off, fd.Severity.String(), fd.Rule, fd.Msg})
		}
	}
	return r
}

func kernelOf(k *codeobject.KernelInfo, p *target.Processor) kernelReport {
	kr := kernelReport{Name: k.Name, Descriptor: k.DescriptorSymbol.Name, DescriptorAddr: k.DescriptorAddr,
		EntryAddr: k.EntryAddr, CodeAddr: k.CodeAddr, CodeSize: k.CodeSize}
	if p == nil {
		kr.Error = "unknown processor: cannot decode the descriptor"
	} else if res, err := k.Resources(p); err != nil {
		kr.Error = err.Error()
	} else {
		kr.WaveSize, kr.VGPRs, kr.ArchVGPRs, kr.AGPRs, kr.SGPRs = res.WaveSize, res.VGPRs, res.ArchVGPRs, res.AGPRs, res.SGPRs
		kr.LDS, kr.Scratch, kr.KernargSize, kr.UserSGPRs = res.LDS, res.Scratch, uint64(res.KernargSize), res.UserSGPRs
		kr.DynamicStack = res.UsesDynamicStack
		reg := 0
		for _, in := range res.SGPRInputs {
			kr.SGPRInputs = append(kr.SGPRInputs, regRange("s", reg, in.Count)+" "+in.Name)
			reg += in.Count
		}
		for i, in := range res.VGPRInputs {
			kr.VGPRInputs = append(kr.VGPRInputs, regRange("v", i, 1)+" "+in.Name)
		}
		if res.KernargPreloadLength > 0 {
			kr.Preload = fmt.Sprintf("%d dwords from dword %d", res.KernargPreloadLength, res.KernargPreloadOffset)
		}
		if k.Descriptor != nil {
			for _, fd := range k.Descriptor.Fields(p) {
				if fd.Value != 0 && !strings.HasPrefix(fd.Name, "GRANULATED_") && fd.Name != "USER_SGPR_COUNT" {
					kr.Fields = append(kr.Fields, fmt.Sprintf("%s=%d", fd.Name, fd.Value))
				}
			}
		}
	}
	if m := k.Meta; m != nil {
		kr.KernargSize, kr.KernargAlign = m.KernargSegmentSize, m.KernargSegmentAlign
		kr.Meta = &metaCounts{m.SGPRCount, m.VGPRCount, m.AGPRCount}
		for _, a := range m.Args {
			kr.Args = append(kr.Args, argReport{a.Offset, a.Size, string(a.ValueKind), a.Name, a.TypeName, a.AddressSpace})
		}
	}
	return kr
}

func regRange(prefix string, first, n int) string {
	if n == 1 {
		return fmt.Sprintf("%s%d", prefix, first)
	}
	return fmt.Sprintf("%s[%d:%d]", prefix, first, first+n-1)
}

func sectionName(f *codeobject.File, i elf.SectionIndex) string {
	switch {
	case i == elf.SHN_UNDEF:
		return "UND"
	case i == elf.SHN_ABS:
		return "ABS"
	case i == codeobject.SHN_AMDGPU_LDS:
		return "AMDGPU_LDS"
	case int(i) < len(f.Sections):
		return f.Sections[i].Name
	}
	return fmt.Sprint(int(i))
}

func progFlags(fl elf.ProgFlag) string {
	s := ""
	for _, x := range []struct {
		f elf.ProgFlag
		c string
	}{{elf.PF_R, "R"}, {elf.PF_W, "W"}, {elf.PF_X, "X"}} {
		if fl&x.f != 0 {
			s += x.c
		}
	}
	return s
}

func printReport(w io.Writer, r *objReport, o *readobjOpts) {
	fmt.Fprintf(w, "%s:\n", r.File)
	fmt.Fprintf(w, "  code object %s (OS ABI %s, ABI version %d), %s\n", r.Version, r.OSABI, r.ABIVersion, r.Type)
	fmt.Fprintf(w, "  e_flags %#x: %s\n", r.Flags, strings.Join(r.FlagNames, ", "))
	if r.Target != "" {
		fmt.Fprintf(w, "  target %s (%s, %s)\n", r.Target, r.Processor, r.Family)
	} else {
		fmt.Fprintf(w, "  target unknown\n")
	}
	fmt.Fprintf(w, "  load segments:\n")
	for _, s := range r.Segments {
		fmt.Fprintf(w, "    vaddr %#08x memsz %#07x  file offset %#07x filesz %#07x  %-3s align %#x\n", s.Vaddr, s.Memsz, s.Offset, s.Filesz, s.Flags, s.Align)
	}
	if o.kernels {
		fmt.Fprintf(w, "\nKernels (%d):\n", len(r.Kernels))
		for _, k := range r.Kernels {
			fmt.Fprintf(w, "  %s\n", k.Name)
			fmt.Fprintf(w, "    descriptor %s at %#x, entry %#x, code [%#x, +%d)\n", k.Descriptor, k.DescriptorAddr, k.EntryAddr, k.CodeAddr, k.CodeSize)
			if k.Error != "" {
				fmt.Fprintf(w, "    error: %s\n", k.Error)
				continue
			}
			agpr := ""
			if k.AGPRs > 0 || k.ArchVGPRs != k.VGPRs {
				agpr = fmt.Sprintf(" (%d arch + %d AGPRs)", k.ArchVGPRs, k.AGPRs)
			}
			fmt.Fprintf(w, "    wave%d, %d VGPRs%s, %d SGPRs allocated", k.WaveSize, k.VGPRs, agpr, k.SGPRs)
			if k.Meta != nil {
				fmt.Fprintf(w, " (metadata: %d VGPRs, %d SGPRs", k.Meta.VGPRs, k.Meta.SGPRs)
				if k.Meta.AGPRs != nil {
					fmt.Fprintf(w, ", %d AGPRs", *k.Meta.AGPRs)
				}
				fmt.Fprintf(w, ")")
			}
			fmt.Fprintf(w, "\n    LDS %d bytes, scratch %d bytes/work-item, kernarg %d bytes (align %d)", k.LDS, k.Scratch, k.KernargSize, k.KernargAlign)
			if k.DynamicStack {
				fmt.Fprintf(w, ", dynamic stack")
			}
			fmt.Fprintf(w, "\n    %d user SGPRs; SGPR inputs: %s\n", k.UserSGPRs, strings.Join(k.SGPRInputs, ", "))
			fmt.Fprintf(w, "    VGPR inputs: %s\n", strings.Join(k.VGPRInputs, ", "))
			if k.Preload != "" {
				fmt.Fprintf(w, "    kernarg preload: %s\n", k.Preload)
			}
			if len(k.Fields) > 0 {
				fmt.Fprintf(w, "    descriptor: %s\n", strings.Join(k.Fields, " "))
			}
			if len(k.Args) > 0 {
				fmt.Fprintf(w, "    kernarg layout:\n      %6s %5s  %-28s %s\n", "offset", "size", "value_kind", "name (type, address space)")
				for _, a := range k.Args {
					extra := []string{}
					if a.Type != "" {
						extra = append(extra, a.Type)
					}
					if a.Space != "" {
						extra = append(extra, a.Space)
					}
					desc := a.Name
					if len(extra) > 0 {
						desc += " (" + strings.Join(extra, ", ") + ")"
					}
					fmt.Fprintf(w, "      %6d %5d  %-28s %s\n", a.Offset, a.Size, a.Kind, strings.TrimSpace(desc))
				}
			}
		}
	}
	if o.notes {
		fmt.Fprintf(w, "\nNotes (%d):\n", len(r.Notes))
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  %-8s %-32s %6d bytes", n.Owner, n.Type, n.Size)
			if n.Text != "" {
				fmt.Fprintf(w, "  %s", n.Text)
			}
			fmt.Fprintln(w)
		}
		if r.MetadataYAML != "" {
			fmt.Fprintf(w, "\nMetadata:\n%s", r.MetadataYAML)
		}
	}
	if o.symbols {
		fmt.Fprintf(w, "\nSymbols:\n  %-7s %4s %-16s %6s %-17s %-6s %-9s %-10s %s\n", "table", "num", "value", "size", "type", "bind", "vis", "section", "name")
		for _, s := range r.Symbols {
			fmt.Fprintf(w, "  %-7s %4d %016x %6d %-17s %-6s %-9s %-10s %s\n", s.Table, s.Index, s.Value, s.Size, s.Type, s.Bind, s.Vis, s.Section, s.Name)
		}
	}
	if o.relocs {
		fmt.Fprintf(w, "\nRelocations (%d):\n", len(r.Relocations))
		for _, x := range r.Relocations {
			sym := x.Symbol
			if sym == "" {
				sym = "-"
			}
			fmt.Fprintf(w, "  %-10s %016x %-22s %s %+#x\n", x.Section, x.Offset, x.Type, sym, x.Addend)
		}
	}
	if o.validate {
		fmt.Fprintf(w, "\nValidation: %d errors, %d warnings\n", r.Errors, r.Warnings)
		for _, fd := range r.Findings {
			fmt.Fprintf(w, "  %#x: %s: [%s] %s\n", fd.Offset, fd.Severity, fd.Rule, fd.Message)
		}
	}
	fmt.Fprintln(w)
}
