package codeobject

import (
	"debug/elf"
	"fmt"
	"strconv"
)

// RelocType is an AMDGPU relocation type (INVENTORY §1.8).
type RelocType uint32

// AMDGPU relocation types.
const (
	R_AMDGPU_NONE          RelocType = 0
	R_AMDGPU_ABS32_LO      RelocType = 1
	R_AMDGPU_ABS32_HI      RelocType = 2
	R_AMDGPU_ABS64         RelocType = 3
	R_AMDGPU_REL32         RelocType = 4
	R_AMDGPU_REL64         RelocType = 5
	R_AMDGPU_ABS32         RelocType = 6
	R_AMDGPU_GOTPCREL      RelocType = 7
	R_AMDGPU_GOTPCREL32_LO RelocType = 8
	R_AMDGPU_GOTPCREL32_HI RelocType = 9
	R_AMDGPU_REL32_LO      RelocType = 10
	R_AMDGPU_REL32_HI      RelocType = 11
	R_AMDGPU_RELATIVE64    RelocType = 13
	R_AMDGPU_REL16         RelocType = 14 // [GAP]
)

var relocNames = [...]string{
	R_AMDGPU_NONE:          "R_AMDGPU_NONE",
	R_AMDGPU_ABS32_LO:      "R_AMDGPU_ABS32_LO",
	R_AMDGPU_ABS32_HI:      "R_AMDGPU_ABS32_HI",
	R_AMDGPU_ABS64:         "R_AMDGPU_ABS64",
	R_AMDGPU_REL32:         "R_AMDGPU_REL32",
	R_AMDGPU_REL64:         "R_AMDGPU_REL64",
	R_AMDGPU_ABS32:         "R_AMDGPU_ABS32",
	R_AMDGPU_GOTPCREL:      "R_AMDGPU_GOTPCREL",
	R_AMDGPU_GOTPCREL32_LO: "R_AMDGPU_GOTPCREL32_LO",
	R_AMDGPU_GOTPCREL32_HI: "R_AMDGPU_GOTPCREL32_HI",
	R_AMDGPU_REL32_LO:      "R_AMDGPU_REL32_LO",
	R_AMDGPU_REL32_HI:      "R_AMDGPU_REL32_HI",
	12:                     "",
	R_AMDGPU_RELATIVE64:    "R_AMDGPU_RELATIVE64",
	R_AMDGPU_REL16:         "R_AMDGPU_REL16",
}

// Known reports whether t is a defined relocation type.
func (t RelocType) Known() bool { return int(t) < len(relocNames) && relocNames[t] != "" }

func (t RelocType) String() string {
	if t.Known() {
		return relocNames[t]
	}
	return "R_AMDGPU_(" + strconv.Itoa(int(t)) + ")"
}

// Dynamic reports whether the runtime loader must apply t in an ET_DYN
// object (the "Dynamic" kinds of the relocation table).
func (t RelocType) Dynamic() bool {
	switch t {
	case R_AMDGPU_ABS32_LO, R_AMDGPU_ABS32_HI, R_AMDGPU_ABS64, R_AMDGPU_ABS32, R_AMDGPU_RELATIVE64:
		return true
	}
	return false
}

// FieldSize is the size in bytes of the field t patches (0 for NONE).
func (t RelocType) FieldSize() int {
	switch t {
	case R_AMDGPU_ABS64, R_AMDGPU_REL64, R_AMDGPU_RELATIVE64:
		return 8
	case R_AMDGPU_REL16:
		return 2
	case R_AMDGPU_NONE:
		return 0
	}
	return 4
}

// RelocInputs are the quantities of the relocation calculations:
// S symbol value, A addend, P place, B load base (load address minus ELF
// address), G offset of the symbol's GOT entry, GOT address of the GOT.
type RelocInputs struct {
	S, A, P, B, G, GOT uint64
}

// Compute returns the value t stores (before truncation to its field).
func (t RelocType) Compute(in RelocInputs) (uint64, error) {
	S, A, P, B, G, GOT := in.S, in.A, in.P, in.B, in.G, in.GOT
	switch t {
	case R_AMDGPU_NONE:
		return 0, nil
	case R_AMDGPU_ABS32_LO:
		return (S + A) & 0xffffffff, nil
	case R_AMDGPU_ABS32_HI:
		return (S + A) >> 32, nil
	case R_AMDGPU_ABS64, R_AMDGPU_ABS32:
		return S + A, nil
	case R_AMDGPU_REL32, R_AMDGPU_REL64:
		return S + A - P, nil
	case R_AMDGPU_GOTPCREL:
		return G + GOT + A - P, nil
	case R_AMDGPU_GOTPCREL32_LO:
		return (G + GOT + A - P) & 0xffffffff, nil
	case R_AMDGPU_GOTPCREL32_HI:
		return (G + GOT + A - P) >> 32, nil
	case R_AMDGPU_REL32_LO:
		return (S + A - P) & 0xffffffff, nil
	case R_AMDGPU_REL32_HI:
		return (S + A - P) >> 32, nil
	case R_AMDGPU_RELATIVE64:
		return B + A, nil
	case R_AMDGPU_REL16:
		return uint64(int64(S+A-P-4) / 4), nil
	}
	return 0, notSupported("relocation type %v", t)
}

// Apply computes t and stores the result little-endian into field, which
// must be at least FieldSize bytes long.
func (t RelocType) Apply(field []byte, in RelocInputs) error {
	v, err := t.Compute(in)
	if err != nil {
		return err
	}
	n := t.FieldSize()
	if len(field) < n {
		return fmt.Errorf("codeobject: %v needs a %d-byte field, have %d", t, n, len(field))
	}
	switch n {
	case 2:
		le.PutUint16(field, uint16(v))
	case 4:
		le.PutUint32(field, uint32(v))
	case 8:
		le.PutUint64(field, v)
	}
	return nil
}

// Reloc is one relocation entry. Off is the entry's file offset; Section is
// the index of the SHT_RELA/SHT_REL section holding it.
type Reloc struct {
	Offset    uint64 // r_offset: place (section offset in ET_REL, address in ET_DYN)
	Type      RelocType
	Sym       uint32 // symbol index into the table named by the section's sh_link
	Addend    int64
	HasAddend bool // Elf64_Rela (amdhsa) rather than Elf64_Rel (Mesa, PAL)
	Section   int
	Off       int64
}

// RelocSections returns the SHT_RELA and SHT_REL sections.
func (f *File) RelocSections() []*Section {
	var out []*Section
	for _, s := range f.Sections {
		if s.Type == elf.SHT_RELA || s.Type == elf.SHT_REL {
			out = append(out, s)
		}
	}
	return out
}

// Relocs decodes relocation section s.
func (f *File) Relocs(s *Section) ([]Reloc, error) {
	esz := uint64(24)
	if s.Type == elf.SHT_REL {
		esz = 16
	}
	if s.Entsize != 0 && s.Entsize != esz {
		return nil, formatErr(s.HeaderOff+56, "relocation section %s has sh_entsize %d, want %d", s.Name, s.Entsize, esz)
	}
	if s.Size%esz != 0 {
		return nil, formatErr(s.HeaderOff+32, "relocation section %s size %d is not a multiple of %d", s.Name, s.Size, esz)
	}
	b, err := f.SectionData(s)
	if err != nil {
		return nil, err
	}
	out := make([]Reloc, len(b)/int(esz))
	for i := range out {
		e := b[uint64(i)*esz:]
		info := le.Uint64(e[8:])
		r := Reloc{
			Offset:  le.Uint64(e),
			Type:    RelocType(uint32(info)),
			Sym:     uint32(info >> 32),
			Section: s.Index,
			Off:     int64(s.Offset) + int64(uint64(i)*esz),
		}
		if esz == 24 {
			r.Addend = int64(le.Uint64(e[16:]))
			r.HasAddend = true
		}
		out[i] = r
	}
	return out, nil
}

// DynamicRelocs returns the relocations whose section refers to the dynamic
// symbol table (.rela.dyn in a linked object): what a loader applies.
func (f *File) DynamicRelocs() ([]Reloc, error) {
	var out []Reloc
	for _, s := range f.RelocSections() {
		if int(s.Link) >= len(f.Sections) || f.Sections[s.Link].Type != elf.SHT_DYNSYM {
			continue
		}
		rs, err := f.Relocs(s)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}
