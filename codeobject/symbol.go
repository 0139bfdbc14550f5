package codeobject

import (
	"debug/elf"
	"strconv"
)

// SymType is a symbol's type (low 4 bits of st_info), with the AMDGPU
// processor-specific types of code object V2 (INVENTORY §1.7).
type SymType uint8

// Symbol types.
const (
	STT_NOTYPE                       SymType = 0
	STT_OBJECT                       SymType = 1
	STT_FUNC                         SymType = 2
	STT_SECTION                      SymType = 3
	STT_FILE                         SymType = 4
	STT_COMMON                       SymType = 5
	STT_TLS                          SymType = 6
	STT_AMDGPU_HSA_KERNEL            SymType = 10 // [GAP] = STT_LOOS; V2 kernel entry (amd_kernel_code_t)
	STT_AMDGPU_HSA_INDIRECT_FUNCTION SymType = 11
	STT_AMDGPU_HSA_METADATA          SymType = 12
)

// String prints the type as llvm-readelf does for an AMDGPU object.
func (t SymType) String() string {
	switch t {
	case STT_NOTYPE:
		return "NOTYPE"
	case STT_OBJECT:
		return "OBJECT"
	case STT_FUNC:
		return "FUNC"
	case STT_SECTION:
		return "SECTION"
	case STT_FILE:
		return "FILE"
	case STT_COMMON:
		return "COMMON"
	case STT_TLS:
		return "TLS"
	case STT_AMDGPU_HSA_KERNEL:
		return "AMDGPU_HSA_KERNEL"
	}
	return "<unknown>: " + strconv.Itoa(int(t))
}

// Symbol is one symbol-table entry. Off is the file offset of the entry.
type Symbol struct {
	Index      int
	Name       string
	NameOff    uint32
	Value      uint64
	Size       uint64
	Type       SymType
	Bind       elf.SymBind
	Visibility elf.SymVis
	Other      uint8 // raw st_other
	Shndx      elf.SectionIndex
	Off        int64
}

const symSize = 24

// Symbols returns the entries of .symtab (SHT_SYMTAB), including the null
// symbol at index 0 so that slice index and symbol index agree. A file
// without a symbol table returns nil, nil.
func (f *File) Symbols() ([]Symbol, error) { return f.symbolsOfType(elf.SHT_SYMTAB) }

// DynamicSymbols returns the entries of .dynsym (SHT_DYNSYM), including the
// null symbol at index 0.
func (f *File) DynamicSymbols() ([]Symbol, error) { return f.symbolsOfType(elf.SHT_DYNSYM) }

func (f *File) symbolsOfType(t elf.SectionType) ([]Symbol, error) {
	for _, s := range f.Sections {
		if s.Type == t {
			return f.SymbolsIn(s)
		}
	}
	return nil, nil
}

// SymbolsIn decodes symbol-table section s, whose sh_link names its string table.
func (f *File) SymbolsIn(s *Section) ([]Symbol, error) {
	if s.Entsize != symSize && s.Entsize != 0 {
		return nil, formatErr(s.HeaderOff+56, "symbol table %s has sh_entsize %d, want %d", s.Name, s.Entsize, symSize)
	}
	if s.Size%symSize != 0 {
		return nil, formatErr(s.HeaderOff+32, "symbol table %s size %d is not a multiple of %d", s.Name, s.Size, symSize)
	}
	b, err := f.SectionData(s)
	if err != nil {
		return nil, err
	}
	if s.Link == 0 || uint64(s.Link) >= uint64(len(f.Sections)) || int(s.Link) == s.Index {
		return nil, formatErr(s.HeaderOff+40, "symbol table %s has string table link %d", s.Name, s.Link)
	}
	strs := f.Sections[s.Link]
	if strs.Type != elf.SHT_STRTAB {
		return nil, formatErr(s.HeaderOff+40, "symbol table %s links to section %d of type %v, not SHT_STRTAB", s.Name, s.Link, strs.Type)
	}
	tab, err := f.SectionData(strs)
	if err != nil {
		return nil, err
	}
	n := len(b) / symSize
	out := make([]Symbol, n)
	for i := range out {
		e := b[i*symSize:]
		off := int64(s.Offset) + int64(i*symSize)
		info, other := e[4], e[5]
		sym := Symbol{
			Index:      i,
			NameOff:    le.Uint32(e),
			Type:       SymType(info & 0xf),
			Bind:       elf.SymBind(info >> 4),
			Other:      other,
			Visibility: elf.SymVis(other & 3),
			Shndx:      elf.SectionIndex(le.Uint16(e[6:])),
			Value:      le.Uint64(e[8:]),
			Size:       le.Uint64(e[16:]),
			Off:        off,
		}
		if sym.Name, err = cstring(tab, uint64(sym.NameOff), off, "symbol name"); err != nil {
			return nil, err
		}
		out[i] = sym
	}
	return out, nil
}

// LookupSymbol returns the first symbol named name in .symtab, else in
// .dynsym; ok is false if there is none.
func (f *File) LookupSymbol(name string) (Symbol, bool) {
	for _, get := range []func() ([]Symbol, error){f.Symbols, f.DynamicSymbols} {
		syms, err := get()
		if err != nil {
			continue
		}
		for _, s := range syms {
			if s.Name == name && s.Index != 0 {
				return s, true
			}
		}
	}
	return Symbol{}, false
}

// SymbolData returns the bytes a defined symbol covers (Size bytes at its
// address), located through the section it is defined in.
func (f *File) SymbolData(sym Symbol) ([]byte, int64, error) {
	if sym.Shndx == elf.SHN_UNDEF || sym.Shndx >= elf.SHN_LORESERVE {
		return nil, sym.Off, formatErr(sym.Off, "symbol %q is not defined in a section", sym.Name)
	}
	if int(sym.Shndx) >= len(f.Sections) {
		return nil, sym.Off, formatErr(sym.Off+6, "symbol %q section index %d out of range", sym.Name, sym.Shndx)
	}
	s := f.Sections[sym.Shndx]
	// In ET_REL objects st_value is a section offset; in ET_DYN an address.
	rel := sym.Value
	if f.Type != elf.ET_REL {
		if sym.Value < s.Addr {
			return nil, sym.Off, formatErr(sym.Off+8, "symbol %q value %#x is below its section %s at %#x", sym.Name, sym.Value, s.Name, s.Addr)
		}
		rel = sym.Value - s.Addr
	}
	if rel > s.Size || sym.Size > s.Size-rel {
		return nil, sym.Off, formatErr(sym.Off+16, "symbol %q [%#x, +%#x) lies outside its section %s", sym.Name, sym.Value, sym.Size, s.Name)
	}
	if s.Type == elf.SHT_NOBITS {
		return make([]byte, 0), int64(s.Offset + rel), nil
	}
	d, err := f.SectionData(s)
	if err != nil {
		return nil, sym.Off, err
	}
	return d[rel : rel+sym.Size], int64(s.Offset + rel), nil
}

// AddrToOffset maps a virtual address to a file offset through the PT_LOAD
// segments (or the sections of an ET_REL object). ok is false when the
// address is not backed by file bytes.
func (f *File) AddrToOffset(addr uint64) (off uint64, ok bool) {
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr-p.Vaddr < p.Filesz {
			return p.Off + (addr - p.Vaddr), true
		}
	}
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Type != elf.SHT_NOBITS && addr >= s.Addr && addr-s.Addr < s.Size {
			return s.Offset + (addr - s.Addr), true
		}
	}
	return 0, false
}
