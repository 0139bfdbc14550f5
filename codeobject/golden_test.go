package codeobject

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goldenObjects lists every object with an llvm-readelf-15 golden: this
// package's testdata and the project corpus (testdata/kernels/obj).
func goldenObjects(t testing.TB) []string {
	var out []string
	for _, pat := range []string{"testdata/*.hsaco", "testdata/*.o", "../testdata/kernels/obj/*.hsaco", "../testdata/kernels/hip/*.hsaco"} {
		m, _ := filepath.Glob(pat)
		for _, f := range m {
			if _, err := os.Stat(f + ".readelf.txt"); err == nil {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no golden objects found")
	}
	return out
}

// readelfGolden is what the tests take from `llvm-readelf-15 -h -l -S -s -r
// -n --dyn-syms` output.
type readelfGolden struct {
	text     string
	sections []goldenSection
	progs    []goldenProg
	symtabs  map[string][]goldenSym // ".symtab", ".dynsym"
	relocs   map[string][]goldenReloc
	metadata string // the YAML of the metadata note, "" if none
	flags    uint64
	abiVer   int
}

type goldenSection struct {
	name, typ                        string
	addr, off, size, es, lk, inf, al uint64
	flags                            string
}
type goldenProg struct {
	typ                                     string
	off, vaddr, paddr, filesz, memsz, align uint64
	flags                                   string
}
type goldenSym struct {
	num                       int
	value, size               uint64
	typ, bind, vis, ndx, name string
}
type goldenReloc struct {
	off, info uint64
	typ       string
	sym       string
	addend    int64
}

func hexU(t testing.TB, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		t.Fatalf("bad hex %q in golden", s)
	}
	return v
}

func parseGolden(t testing.TB, path string) *readelfGolden {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := &readelfGolden{text: string(b), symtabs: map[string][]goldenSym{}, relocs: map[string][]goldenReloc{}}
	lines := strings.Split(g.text, "\n")
	mode, cur := "", ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "  Flags:"):
			g.flags = hexU(t, f[1])
		case strings.HasPrefix(l, "  ABI Version:"):
			g.abiVer, _ = strconv.Atoi(f[2])
		case strings.HasPrefix(l, "Section Headers:"):
			mode = "sec"
			i++
			continue
		case strings.HasPrefix(l, "Program Headers:"):
			mode = "prog"
			i++
			continue
		case strings.HasPrefix(l, "Symbol table '"):
			mode, cur = "sym", strings.Split(l, "'")[1]
			g.symtabs[cur] = []goldenSym{}
			i++
			continue
		case strings.HasPrefix(l, "Relocation section '"):
			mode, cur = "rel", strings.Split(l, "'")[1]
			g.relocs[cur] = []goldenReloc{}
			i++
			continue
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "Key to Flags") || strings.HasPrefix(l, "Displaying notes") || strings.HasPrefix(l, "There are") || strings.HasPrefix(l, " Section to Segment"):
			mode = ""
			continue
		}
		switch mode {
		case "sec":
			rest := l[strings.Index(l, "]")+1:]
			rf := strings.Fields(rest)
			if len(rf) == 8 { // section 0 has no name
				rf = append([]string{""}, rf...)
			}
			s := goldenSection{name: rf[0], typ: rf[1], addr: hexU(t, rf[2]), off: hexU(t, rf[3]), size: hexU(t, rf[4]), es: hexU(t, rf[5])}
			n := len(rf)
			s.lk, _ = strconv.ParseUint(rf[n-3], 10, 64)
			s.inf, _ = strconv.ParseUint(rf[n-2], 10, 64)
			s.al, _ = strconv.ParseUint(rf[n-1], 10, 64)
			if n == 10 {
				s.flags = rf[6]
			}
			g.sections = append(g.sections, s)
		case "prog":
			if len(f) < 8 || !strings.HasPrefix(f[1], "0x") {
				continue
			}
			n := len(f)
			g.progs = append(g.progs, goldenProg{typ: f[0], off: hexU(t, f[1]), vaddr: hexU(t, f[2]), paddr: hexU(t, f[3]),
				filesz: hexU(t, f[4]), memsz: hexU(t, f[5]), flags: strings.Join(f[6:n-1], " "), align: hexU(t, f[n-1])})
		case "sym":
			num, _ := strconv.Atoi(strings.TrimSuffix(f[0], ":"))
			s := goldenSym{num: num, value: hexU(t, f[1]), typ: f[3], bind: f[4], vis: f[5], ndx: f[6]}
			if strings.HasPrefix(f[2], "0x") {
				s.size = hexU(t, f[2])
			} else {
				s.size, _ = strconv.ParseUint(f[2], 10, 64)
			}
			if len(f) > 7 {
				s.name = strings.Join(f[7:], " ")
			}
			g.symtabs[cur] = append(g.symtabs[cur], s)
		case "rel":
			r := goldenReloc{off: hexU(t, f[0]), info: hexU(t, f[1]), typ: f[2]}
			if len(f) == 4 {
				r.addend = int64(hexU(t, f[3]))
			} else if len(f) >= 6 {
				r.sym = f[4]
				a := int64(hexU(t, f[6]))
				if f[5] == "-" {
					a = -a
				}
				r.addend = a
			}
			g.relocs[cur] = append(g.relocs[cur], r)
		}
	}
	for _, marker := range []string{"    AMDGPU Metadata:\n        ", "    AMD HSA Metadata:\n        "} {
		if i := strings.Index(g.text, marker); i >= 0 {
			rest := g.text[i+len(marker):]
			sc := bufio.NewScanner(strings.NewReader(rest))
			var b strings.Builder
			for sc.Scan() {
				b.WriteString(sc.Text())
				b.WriteString("\n")
				if sc.Text() == "..." {
					break
				}
			}
			g.metadata = b.String()
		}
	}
	return g
}

func TestGoldenReadelf(t *testing.T) {
	for _, path := range goldenObjects(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			g := parseGolden(t, path+".readelf.txt")
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if uint64(f.Header.Flags) != g.flags || int(f.ABIVersion) != g.abiVer {
				t.Errorf("flags %#x abi %d, golden %#x %d", f.Header.Flags, f.ABIVersion, g.flags, g.abiVer)
			}
			checkSections(t, f, g)
			checkProgs(t, f, g)
			checkSymbols(t, f, g)
			checkRelocs(t, f, g)
			checkMetadataYAML(t, f, g)
		})
	}
}

func checkSections(t *testing.T, f *File, g *readelfGolden) {
	if len(f.Sections) != len(g.sections) {
		t.Fatalf("%d sections, golden %d", len(f.Sections), len(g.sections))
	}
	for i, s := range f.Sections {
		gs := g.sections[i]
		if s.Name != gs.name || sectionTypeName(s.Type) != gs.typ || s.Addr != gs.addr || s.Offset != gs.off ||
			s.Size != gs.size || s.Entsize != gs.es || uint64(s.Link) != gs.lk || uint64(s.Info) != gs.inf ||
			s.Addralign != gs.al || sectionFlagLetters(s.Flags) != gs.flags {
			t.Errorf("section %d = %+v (%s %s), golden %+v", i, *s, sectionTypeName(s.Type), sectionFlagLetters(s.Flags), gs)
		}
	}
}

func checkProgs(t *testing.T, f *File, g *readelfGolden) {
	if len(f.Progs) != len(g.progs) {
		t.Fatalf("%d program headers, golden %d", len(f.Progs), len(g.progs))
	}
	for i, p := range f.Progs {
		gp := g.progs[i]
		if progTypeName(p.Type) != gp.typ || p.Off != gp.off || p.Vaddr != gp.vaddr || p.Paddr != gp.paddr ||
			p.Filesz != gp.filesz || p.Memsz != gp.memsz || p.Align != gp.align || progFlagLetters(p.Flags) != gp.flags {
			t.Errorf("program header %d = %+v, golden %+v", i, *p, gp)
		}
	}
	// Every PT_LOAD's bytes are readable.
	for _, p := range f.LoadSegments() {
		if _, err := f.ProgData(p); err != nil {
			t.Error(err)
		}
	}
}

func checkSymbols(t *testing.T, f *File, g *readelfGolden) {
	for name, get := range map[string]func() ([]Symbol, error){".symtab": f.Symbols, ".dynsym": f.DynamicSymbols} {
		syms, err := get()
		if err != nil {
			t.Fatal(err)
		}
		gs := g.symtabs[name]
		if len(syms) != len(gs) {
			t.Fatalf("%s: %d symbols, golden %d", name, len(syms), len(gs))
		}
		for i, s := range syms {
			w := gs[i]
			ndx := strconv.Itoa(int(s.Shndx))
			switch s.Shndx {
			case elf.SHN_UNDEF:
				ndx = "UND"
			case elf.SHN_ABS:
				ndx = "ABS"
			case elf.SHN_COMMON:
				ndx = "COM"
			}
			bind := strings.TrimPrefix(s.Bind.String(), "STB_")
			vis := strings.TrimPrefix(s.Visibility.String(), "STV_")
			if s.Index != w.num || s.Value != w.value || s.Size != w.size || s.Type.String() != w.typ ||
				bind != w.bind || vis != w.vis || ndx != w.ndx || s.Name != w.name {
				t.Errorf("%s[%d] = %+v, golden %+v", name, i, s, w)
			}
		}
	}
}

func checkRelocs(t *testing.T, f *File, g *readelfGolden) {
	secs := f.RelocSections()
	if len(secs) != len(g.relocs) {
		t.Fatalf("%d relocation sections, golden %d", len(secs), len(g.relocs))
	}
	for _, s := range secs {
		rs, err := f.Relocs(s)
		if err != nil {
			t.Fatal(err)
		}
		gr := g.relocs[s.Name]
		if len(rs) != len(gr) {
			t.Fatalf("%s: %d relocations, golden %d", s.Name, len(rs), len(gr))
		}
		syms, _ := f.SymbolsIn(f.Sections[s.Link])
		for i, r := range rs {
			w := gr[i]
			name := ""
			if r.Sym != 0 && int(r.Sym) < len(syms) {
				name = syms[r.Sym].Name
			}
			if r.Offset != w.off || uint64(r.Sym)<<32|uint64(r.Type) != w.info || r.Type.String() != w.typ || r.Addend != w.addend || name != w.sym {
				t.Errorf("%s[%d] = %+v (%s), golden %+v", s.Name, i, r, name, w)
			}
		}
	}
}

func checkMetadataYAML(t *testing.T, f *File, g *readelfGolden) {
	got, err := f.MetadataYAML()
	if err != nil {
		t.Fatal(err)
	}
	if got != g.metadata {
		t.Errorf("metadata YAML differs from llvm-readelf:\n%s", lineDiff(g.metadata, got))
	}
}

// lineDiff shows the first differing line.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + strconv.Quote(a) + "\n  got  " + strconv.Quote(b)
		}
	}
	return "(no line differs)"
}

func sectionTypeName(t elf.SectionType) string {
	switch t {
	case elf.SHT_NULL:
		return "NULL"
	case elf.SHT_PROGBITS:
		return "PROGBITS"
	case elf.SHT_SYMTAB:
		return "SYMTAB"
	case elf.SHT_STRTAB:
		return "STRTAB"
	case elf.SHT_RELA:
		return "RELA"
	case elf.SHT_HASH:
		return "HASH"
	case elf.SHT_DYNAMIC:
		return "DYNAMIC"
	case elf.SHT_NOTE:
		return "NOTE"
	case elf.SHT_NOBITS:
		return "NOBITS"
	case elf.SHT_REL:
		return "REL"
	case elf.SHT_DYNSYM:
		return "DYNSYM"
	case elf.SHT_GNU_HASH:
		return "GNU_HASH"
	}
	return t.String()
}

func sectionFlagLetters(fl elf.SectionFlag) string {
	var b strings.Builder
	for _, x := range []struct {
		f elf.SectionFlag
		c byte
	}{{elf.SHF_WRITE, 'W'}, {elf.SHF_ALLOC, 'A'}, {elf.SHF_EXECINSTR, 'X'}, {elf.SHF_MERGE, 'M'}, {elf.SHF_STRINGS, 'S'},
		{elf.SHF_INFO_LINK, 'I'}, {elf.SHF_LINK_ORDER, 'L'}, {elf.SHF_OS_NONCONFORMING, 'O'}, {elf.SHF_GROUP, 'G'}, {elf.SHF_TLS, 'T'}, {elf.SHF_COMPRESSED, 'C'}} {
		if fl&x.f != 0 {
			b.WriteByte(x.c)
		}
	}
	return b.String()
}

func progTypeName(t elf.ProgType) string {
	switch t {
	case elf.PT_LOAD:
		return "LOAD"
	case elf.PT_DYNAMIC:
		return "DYNAMIC"
	case elf.PT_NOTE:
		return "NOTE"
	case elf.PT_PHDR:
		return "PHDR"
	case elf.PT_GNU_STACK:
		return "GNU_STACK"
	case elf.PT_GNU_RELRO:
		return "GNU_RELRO"
	case elf.PT_INTERP:
		return "INTERP"
	}
	return t.String()
}

func progFlagLetters(f elf.ProgFlag) string {
	b := []byte("   ")
	if f&elf.PF_R != 0 {
		b[0] = 'R'
	}
	if f&elf.PF_W != 0 {
		b[1] = 'W'
	}
	if f&elf.PF_X != 0 {
		b[2] = 'E'
	}
	return strings.TrimRight(string(b), " ")
}

// TestMetadataRoundTrip checks that the typed model loses nothing: typed →
// document → YAML equals llvm-readelf's text, and typed → msgpack equals the
// note bytes LLVM wrote (V3+), or typed → YAML equals the stored text (V2).
func TestMetadataRoundTrip(t *testing.T) {
	for _, path := range goldenObjects(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			g := parseGolden(t, path+".readelf.txt")
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			note, err := f.MetadataNote()
			if err != nil {
				t.Fatal(err)
			}
			if note == nil {
				if g.metadata != "" {
					t.Fatal("no metadata note, but llvm-readelf prints metadata")
				}
				return
			}
			if note.Name == "AMD" {
				v2, err := f.MetadataV2()
				if err != nil {
					t.Fatal(err)
				}
				if got := v2.EncodeYAML(); got != g.metadata {
					t.Errorf("V2 YAML differs:\n%s", lineDiff(g.metadata, got))
				}
				return
			}
			md, err := f.Metadata()
			if err != nil {
				t.Fatal(err)
			}
			if got := md.YAML(); got != g.metadata {
				t.Errorf("typed YAML differs:\n%s", lineDiff(g.metadata, got))
			}
			b, err := md.EncodeMsgPack()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, note.Desc) {
				t.Errorf("msgpack re-encoding differs from LLVM's note (%d vs %d bytes)", len(b), len(note.Desc))
			}
		})
	}
}

// TestEncodeUnchanged: re-serialising an unmodified LLVM object gives its
// bytes back, and an edited e_flags lands at offset 48 only.
func TestEncodeUnchanged(t *testing.T) {
	for _, path := range goldenObjects(t) {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, f.Data()) {
			t.Errorf("%s: Encode changed an unmodified object", path)
		}
		f.Header.Flags ^= 0x100
		b, _ = f.Encode()
		for i := range b {
			if (b[i] != f.Data()[i]) != (i == 49) {
				t.Fatalf("%s: editing e_flags changed byte %d", path, i)
			}
		}
	}
}
