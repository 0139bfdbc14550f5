package codeobject

import (
	"debug/elf"
	"strconv"
)

// NoteType is a note's n_type. Its meaning depends on the note's owner name:
// "AMD" for the V2 notes, "AMDGPU" for V3 and later (INVENTORY §1.6).
type NoteType uint32

// V2 note types (owner "AMD"; values [GAP] from upstream).
const (
	NT_AMD_HSA_CODE_OBJECT_VERSION NoteType = 1
	NT_AMD_HSA_HSAIL               NoteType = 2
	NT_AMD_HSA_ISA_VERSION         NoteType = 3
	NT_AMD_HSA_METADATA            NoteType = 10
	NT_AMD_HSA_ISA_NAME            NoteType = 11
	NT_AMD_PAL_METADATA            NoteType = 12
)

// V3+ note types (owner "AMDGPU").
const (
	NT_AMDGPU_METADATA NoteType = 32
)

// Name returns the C name of t for a note owned by owner, or "" if unknown.
func (t NoteType) Name(owner string) string {
	switch owner {
	case "AMD":
		switch t {
		case NT_AMD_HSA_CODE_OBJECT_VERSION:
			return "NT_AMD_HSA_CODE_OBJECT_VERSION"
		case NT_AMD_HSA_HSAIL:
			return "NT_AMD_HSA_HSAIL"
		case NT_AMD_HSA_ISA_VERSION:
			return "NT_AMD_HSA_ISA_VERSION"
		case NT_AMD_HSA_METADATA:
			return "NT_AMD_HSA_METADATA"
		case NT_AMD_HSA_ISA_NAME:
			return "NT_AMD_HSA_ISA_NAME"
		case NT_AMD_PAL_METADATA:
			return "NT_AMD_PAL_METADATA"
		}
	case "AMDGPU":
		if t == NT_AMDGPU_METADATA {
			return "NT_AMDGPU_METADATA"
		}
	}
	return ""
}

// Note is one ELF note record. Off is the file offset of its header, DescOff
// that of its descriptor. Unknown notes are kept as they are.
type Note struct {
	Name    string
	Type    NoteType
	Desc    []byte
	Off     int64
	DescOff int64
	Section int // index of the SHT_NOTE section, or -1 if from a PT_NOTE segment
}

func (n *Note) String() string {
	if s := n.Type.Name(n.Name); s != "" {
		return n.Name + " " + s
	}
	return n.Name + " NT(" + strconv.Itoa(int(n.Type)) + ")"
}

// Notes returns every note of the file, from the SHT_NOTE sections, or from
// the PT_NOTE segments when the file has no section headers.
func (f *File) Notes() ([]Note, error) {
	if f.notesOK {
		return f.notes, f.notesErr
	}
	f.notesOK = true
	var out []Note
	var err error
	if len(f.Sections) > 0 {
		for _, s := range f.Sections {
			if s.Type != elf.SHT_NOTE {
				continue
			}
			var b []byte
			if b, err = f.SectionData(s); err != nil {
				break
			}
			if s.Addralign != 0 && s.Addralign != 4 && s.Addralign != 8 {
				err = formatErr(s.HeaderOff+48, "note section %s alignment %d is not 4 or 8", s.Name, s.Addralign)
				break
			}
			if out, err = parseNotes(out, b, int64(s.Offset), s.Addralign, s.Index); err != nil {
				break
			}
		}
	} else {
		for _, p := range f.Progs {
			if p.Type != elf.PT_NOTE {
				continue
			}
			var b []byte
			if b, err = f.ProgData(p); err != nil {
				break
			}
			if out, err = parseNotes(out, b, int64(p.Off), p.Align, -1); err != nil {
				break
			}
		}
	}
	f.notes, f.notesErr = out, err
	return out, err
}

// parseNotes appends the notes in b (which starts at file offset base).
// Names and descriptors are padded to 4 bytes, or 8 when the section is
// 8-aligned (ELF gABI; LLVM uses the same rule).
func parseNotes(out []Note, b []byte, base int64, align uint64, sec int) ([]Note, error) {
	a := uint64(4)
	if align == 8 {
		a = 8
	}
	for off := uint64(0); off < uint64(len(b)); {
		if uint64(len(b))-off < 12 {
			return out, formatErr(base+int64(off), "truncated note header (%d bytes left)", uint64(len(b))-off)
		}
		namesz := uint64(le.Uint32(b[off:]))
		descsz := uint64(le.Uint32(b[off+4:]))
		typ := NoteType(le.Uint32(b[off+8:]))
		nameOff := off + 12
		descOff := alignUp(nameOff+namesz, a)
		end := alignUp(descOff+descsz, a)
		if descOff+descsz > uint64(len(b)) {
			return out, formatErr(base+int64(off), "note with namesz %#x descsz %#x runs past the end of its %d-byte section", namesz, descsz, len(b))
		}
		if end > uint64(len(b)) {
			end = uint64(len(b)) // tolerate a missing final pad
		}
		name := b[nameOff : nameOff+namesz]
		if n := len(name); n > 0 && name[n-1] == 0 {
			name = name[:n-1]
		}
		out = append(out, Note{
			Name:    string(name),
			Type:    typ,
			Desc:    b[descOff : descOff+descsz],
			Off:     base + int64(off),
			DescOff: base + int64(descOff),
			Section: sec,
		})
		off = end
	}
	return out, nil
}

func alignUp(x, a uint64) uint64 {
	if a == 0 {
		return x
	}
	return (x + a - 1) &^ (a - 1)
}

// CodeObjectVersionNote is the descriptor of NT_AMD_HSA_CODE_OBJECT_VERSION.
type CodeObjectVersionNote struct{ Major, Minor uint32 }

// HSAILNote is the descriptor of NT_AMD_HSA_HSAIL (HSAIL Finalizer only).
type HSAILNote struct {
	Major, Minor      uint32
	Profile           uint8
	MachineModel      uint8
	DefaultFloatRound uint8
}

// ISAVersionNote is the descriptor of NT_AMD_HSA_ISA_VERSION, the note the
// V2 loader uses to identify the processor.
type ISAVersionNote struct {
	Vendor, Architecture   string
	Major, Minor, Stepping uint32
}

// ISAName returns the V2 "ISA name", e.g. "AMD:AMDGPU:9:0:6".
func (n ISAVersionNote) ISAName() string {
	return n.Vendor + ":" + n.Architecture + ":" + strconv.Itoa(int(n.Major)) + ":" + strconv.Itoa(int(n.Minor)) + ":" + strconv.Itoa(int(n.Stepping))
}

// ParseCodeObjectVersionNote decodes an NT_AMD_HSA_CODE_OBJECT_VERSION descriptor.
func ParseCodeObjectVersionNote(n *Note) (CodeObjectVersionNote, error) {
	if len(n.Desc) < 8 {
		return CodeObjectVersionNote{}, formatErr(n.DescOff, "NT_AMD_HSA_CODE_OBJECT_VERSION descriptor is %d bytes, want 8", len(n.Desc))
	}
	return CodeObjectVersionNote{le.Uint32(n.Desc), le.Uint32(n.Desc[4:])}, nil
}

// ParseHSAILNote decodes an NT_AMD_HSA_HSAIL descriptor.
func ParseHSAILNote(n *Note) (HSAILNote, error) {
	if len(n.Desc) < 11 {
		return HSAILNote{}, formatErr(n.DescOff, "NT_AMD_HSA_HSAIL descriptor is %d bytes, want 11", len(n.Desc))
	}
	d := n.Desc
	return HSAILNote{le.Uint32(d), le.Uint32(d[4:]), d[8], d[9], d[10]}, nil
}

// ParseISAVersionNote decodes an NT_AMD_HSA_ISA_VERSION descriptor.
func ParseISAVersionNote(n *Note) (ISAVersionNote, error) {
	d := n.Desc
	if len(d) < 16 {
		return ISAVersionNote{}, formatErr(n.DescOff, "NT_AMD_HSA_ISA_VERSION descriptor is %d bytes, want at least 16", len(d))
	}
	vs, as := uint64(le.Uint16(d)), uint64(le.Uint16(d[2:]))
	r := ISAVersionNote{Major: le.Uint32(d[4:]), Minor: le.Uint32(d[8:]), Stepping: le.Uint32(d[12:])}
	if 16+vs+as > uint64(len(d)) {
		return ISAVersionNote{}, formatErr(n.DescOff, "NT_AMD_HSA_ISA_VERSION name sizes %d+%d exceed the %d-byte descriptor", vs, as, len(d))
	}
	trim := func(b []byte) string {
		if len(b) > 0 && b[len(b)-1] == 0 {
			b = b[:len(b)-1]
		}
		return string(b)
	}
	r.Vendor = trim(d[16 : 16+vs])
	r.Architecture = trim(d[16+vs : 16+vs+as])
	return r, nil
}

// FindNote returns the first note with the given owner and type, or nil.
func (f *File) FindNote(owner string, t NoteType) (*Note, error) {
	notes, err := f.Notes()
	if err != nil {
		return nil, err
	}
	for i := range notes {
		if notes[i].Name == owner && notes[i].Type == t {
			return &notes[i], nil
		}
	}
	return nil, nil
}
