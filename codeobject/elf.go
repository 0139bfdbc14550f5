package codeobject

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
)

// OSABI is e_ident[EI_OSABI] (INVENTORY §1.1).
type OSABI uint8

// OS ABI values of AMDGPU code objects.
const (
	ELFOSABI_NONE          OSABI = 0
	ELFOSABI_AMDGPU_HSA    OSABI = 64
	ELFOSABI_AMDGPU_PAL    OSABI = 65
	ELFOSABI_AMDGPU_MESA3D OSABI = 66
)

func (o OSABI) String() string {
	switch o {
	case ELFOSABI_NONE:
		return "ELFOSABI_NONE"
	case ELFOSABI_AMDGPU_HSA:
		return "ELFOSABI_AMDGPU_HSA"
	case ELFOSABI_AMDGPU_PAL:
		return "ELFOSABI_AMDGPU_PAL"
	case ELFOSABI_AMDGPU_MESA3D:
		return "ELFOSABI_AMDGPU_MESA3D"
	}
	return "ELFOSABI(" + strconv.Itoa(int(o)) + ")"
}

// e_ident[EI_ABIVERSION] values for ELFOSABI_AMDGPU_HSA (INVENTORY §1.2, [GAP]).
const (
	ELFABIVERSION_AMDGPU_HSA_V2 = 0
	ELFABIVERSION_AMDGPU_HSA_V3 = 1
	ELFABIVERSION_AMDGPU_HSA_V4 = 2
	ELFABIVERSION_AMDGPU_HSA_V5 = 3
	ELFABIVERSION_AMDGPU_HSA_V6 = 4
)

// Other AMDGPU ELF constants (INVENTORY §1.1, §1.7).
const (
	EM_AMDGPU      = elf.EM_AMDGPU            // 224
	SHN_AMDGPU_LDS = elf.SectionIndex(0xff00) // [GAP] LDS "common" symbols
)

// Version is a code object version, V2 to V6.
type Version int

// Code object versions. VersionUnknown is used for OS ABIs other than amdhsa
// and for ABI versions this package does not know.
const (
	VersionUnknown Version = 0
	V2             Version = 2
	V3             Version = 3
	V4             Version = 4
	V5             Version = 5
	V6             Version = 6
)

func (v Version) String() string {
	if v == VersionUnknown {
		return "unknown"
	}
	return "V" + strconv.Itoa(int(v))
}

// versionFromABI maps an amdhsa EI_ABIVERSION to a code object version.
func versionFromABI(abi uint8) Version {
	if abi <= ELFABIVERSION_AMDGPU_HSA_V6 {
		return Version(abi + 2)
	}
	return VersionUnknown
}

// ABIVersion returns the EI_ABIVERSION value an amdhsa object of version v carries.
func (v Version) ABIVersion() (uint8, bool) {
	if v < V2 || v > V6 {
		return 0, false
	}
	return uint8(v - 2), true
}

// Header is the ELF64 file header with the raw e_flags; see File.Flags for
// the decoded form.
type Header struct {
	Class        elf.Class
	Data         elf.Data
	IdentVersion elf.Version // e_ident[EI_VERSION]
	OSABI        OSABI
	ABIVersion   uint8
	Type         elf.Type
	Machine      elf.Machine
	EVersion     uint32 // e_version
	Entry        uint64
	Phoff        uint64
	Shoff        uint64
	Flags        uint32 // raw e_flags
	Ehsize       uint16
	Phentsize    uint16
	Phnum        uint16
	Shentsize    uint16
	Shnum        uint16
	Shstrndx     uint16
}

// Section is one section header. Off is the file offset of the header itself.
type Section struct {
	Index     int
	Name      string
	NameOff   uint32 // sh_name
	Type      elf.SectionType
	Flags     elf.SectionFlag
	Addr      uint64
	Offset    uint64
	Size      uint64
	Link      uint32
	Info      uint32
	Addralign uint64
	Entsize   uint64
	HeaderOff int64
}

// Prog is one program header. HeaderOff is the file offset of the header.
type Prog struct {
	Index     int
	Type      elf.ProgType
	Flags     elf.ProgFlag
	Off       uint64
	Vaddr     uint64
	Paddr     uint64
	Filesz    uint64
	Memsz     uint64
	Align     uint64
	HeaderOff int64
}

// File is an open AMDGPU code object. All accessors work on the file's bytes
// held in memory; none of them keeps the io.ReaderAt.
type File struct {
	Header
	Sections []*Section
	Progs    []*Prog

	data    []byte
	version Version

	// Lazily computed results.
	notes    []Note
	notesErr error
	notesOK  bool
	md       *Metadata
	mdErr    error
	mdOK     bool
	doc      *Node
	docErr   error
	docOK    bool
}

// maxFileSize bounds what NewFile reads into memory.
const maxFileSize = 1 << 30

// Open opens the named file and reads it as a code object.
func Open(name string) (*File, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := NewFile(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// Close exists for symmetry with debug/elf; File holds no OS resources.
func (f *File) Close() error { return nil }

// NewFile reads a code object from r. The whole object is read into memory
// (code objects are small); readers larger than 1 GiB are refused.
func NewFile(r io.ReaderAt) (*File, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

func readAll(r io.ReaderAt) ([]byte, error) {
	type sizer interface{ Size() int64 }
	var size int64 = -1
	switch v := r.(type) {
	case sizer:
		size = v.Size()
	case *os.File:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	if size > maxFileSize {
		return nil, notSupported("file of %d bytes is larger than the 1 GiB limit", size)
	}
	if size >= 0 {
		buf := make([]byte, size)
		n, err := r.ReadAt(buf, 0)
		if n == len(buf) {
			return buf, nil
		}
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	// Unknown size: read in growing chunks until EOF.
	var buf []byte
	chunk := 64 << 10
	for off := int64(0); ; {
		if len(buf)+chunk > maxFileSize {
			return nil, notSupported("input larger than the 1 GiB limit")
		}
		tmp := make([]byte, chunk)
		n, err := r.ReadAt(tmp, off)
		buf = append(buf, tmp[:n]...)
		off += int64(n)
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if chunk < 4<<20 {
			chunk *= 2
		}
	}
}

// Data returns the bytes of the whole file. The caller must not modify them.
func (f *File) Data() []byte { return f.data }

// Version returns the code object version (V2..V6), or VersionUnknown for
// OS ABIs other than amdhsa.
func (f *File) Version() Version { return f.version }

const (
	ehdrSize = 64
	shdrSize = 64
	phdrSize = 56
)

var le = binary.LittleEndian

// Parse reads a code object held in data. The File refers to data; the
// caller must not modify it afterwards.
func Parse(data []byte) (*File, error) {
	if len(data) < 16 {
		return nil, formatErr(0, "file of %d bytes is too short for an ELF identification", len(data))
	}
	if string(data[:4]) != elf.ELFMAG {
		return nil, formatErr(0, "bad ELF magic %q", data[:4])
	}
	f := &File{data: data}
	h := &f.Header
	h.Class = elf.Class(data[elf.EI_CLASS])
	h.Data = elf.Data(data[elf.EI_DATA])
	h.IdentVersion = elf.Version(data[elf.EI_VERSION])
	h.OSABI = OSABI(data[elf.EI_OSABI])
	h.ABIVersion = data[elf.EI_ABIVERSION]
	switch h.Class {
	case elf.ELFCLASS64:
	case elf.ELFCLASS32:
		return nil, notSupported("ELFCLASS32 (r600) code objects")
	default:
		return nil, formatErr(elf.EI_CLASS, "unknown ELF class %d", h.Class)
	}
	if h.Data != elf.ELFDATA2LSB {
		return nil, formatErr(elf.EI_DATA, "ELF data encoding %v; AMDGPU objects are little endian", h.Data)
	}
	if len(data) < ehdrSize {
		return nil, formatErr(0, "file of %d bytes is too short for an ELF64 header", len(data))
	}
	h.Type = elf.Type(le.Uint16(data[16:]))
	h.Machine = elf.Machine(le.Uint16(data[18:]))
	h.EVersion = le.Uint32(data[20:])
	h.Entry = le.Uint64(data[24:])
	h.Phoff = le.Uint64(data[32:])
	h.Shoff = le.Uint64(data[40:])
	h.Flags = le.Uint32(data[48:])
	h.Ehsize = le.Uint16(data[52:])
	h.Phentsize = le.Uint16(data[54:])
	h.Phnum = le.Uint16(data[56:])
	h.Shentsize = le.Uint16(data[58:])
	h.Shnum = le.Uint16(data[60:])
	h.Shstrndx = le.Uint16(data[62:])
	if h.Machine != EM_AMDGPU {
		return nil, formatErr(18, "e_machine is %v, not EM_AMDGPU", h.Machine)
	}

	if err := f.readProgs(); err != nil {
		return nil, err
	}
	if err := f.readSections(); err != nil {
		return nil, err
	}
	f.version = f.detectVersion()
	return f, nil
}

// in returns data[off:off+n] or a FormatError located at errOff.
func (f *File) in(off, n uint64, errOff int64, what string) ([]byte, error) {
	end := off + n
	if end < off || end > uint64(len(f.data)) {
		return nil, formatErr(errOff, "%s [%#x, +%#x) lies outside the %d-byte file", what, off, n, len(f.data))
	}
	return f.data[off:end], nil
}

func (f *File) readProgs() error {
	h := &f.Header
	if h.Phnum == 0 {
		return nil
	}
	if h.Phentsize != phdrSize {
		return formatErr(54, "e_phentsize is %d, want %d", h.Phentsize, phdrSize)
	}
	tab, err := f.in(h.Phoff, uint64(h.Phnum)*phdrSize, 32, "program header table")
	if err != nil {
		return err
	}
	f.Progs = make([]*Prog, h.Phnum)
	for i := range f.Progs {
		b := tab[i*phdrSize:]
		f.Progs[i] = &Prog{
			Index:     i,
			Type:      elf.ProgType(le.Uint32(b[0:])),
			Flags:     elf.ProgFlag(le.Uint32(b[4:])),
			Off:       le.Uint64(b[8:]),
			Vaddr:     le.Uint64(b[16:]),
			Paddr:     le.Uint64(b[24:]),
			Filesz:    le.Uint64(b[32:]),
			Memsz:     le.Uint64(b[40:]),
			Align:     le.Uint64(b[48:]),
			HeaderOff: int64(h.Phoff) + int64(i*phdrSize),
		}
	}
	return nil
}

func (f *File) readSections() error {
	h := &f.Header
	if h.Shoff == 0 {
		if h.Shnum != 0 {
			return formatErr(60, "e_shnum is %d but e_shoff is 0", h.Shnum)
		}
		return nil
	}
	if h.Shentsize != shdrSize {
		return formatErr(58, "e_shentsize is %d, want %d", h.Shentsize, shdrSize)
	}
	// Section 0 may hold the real count and string-table index
	// (extended numbering, used when there are 0xff00 or more sections).
	first, err := f.in(h.Shoff, shdrSize, 40, "section header 0")
	if err != nil {
		return err
	}
	n := uint64(h.Shnum)
	if n == 0 {
		n = le.Uint64(first[32:])
	}
	shstrndx := uint32(h.Shstrndx)
	if shstrndx == uint32(elf.SHN_XINDEX) {
		shstrndx = le.Uint32(first[40:])
	}
	if n > uint64(len(f.data))/shdrSize {
		return formatErr(int64(h.Shoff), "%d section headers cannot fit in a %d-byte file", n, len(f.data))
	}
	tab, err := f.in(h.Shoff, n*shdrSize, 40, "section header table")
	if err != nil {
		return err
	}
	f.Sections = make([]*Section, n)
	for i := range f.Sections {
		b := tab[i*shdrSize:]
		f.Sections[i] = &Section{
			Index:     i,
			NameOff:   le.Uint32(b[0:]),
			Type:      elf.SectionType(le.Uint32(b[4:])),
			Flags:     elf.SectionFlag(le.Uint64(b[8:])),
			Addr:      le.Uint64(b[16:]),
			Offset:    le.Uint64(b[24:]),
			Size:      le.Uint64(b[32:]),
			Link:      le.Uint32(b[40:]),
			Info:      le.Uint32(b[44:]),
			Addralign: le.Uint64(b[48:]),
			Entsize:   le.Uint64(b[56:]),
			HeaderOff: int64(h.Shoff) + int64(i*shdrSize),
		}
	}
	if shstrndx == uint32(elf.SHN_UNDEF) {
		return nil // no section names
	}
	if uint64(shstrndx) >= n {
		return formatErr(62, "e_shstrndx %d is not a section (there are %d)", shstrndx, n)
	}
	strs := f.Sections[shstrndx]
	if strs.Type != elf.SHT_STRTAB {
		return formatErr(strs.HeaderOff+4, "section-name string table (section %d) has type %v, not SHT_STRTAB", shstrndx, strs.Type)
	}
	tabData, err := f.in(strs.Offset, strs.Size, strs.HeaderOff+24, "section-name string table")
	if err != nil {
		return err
	}
	for _, s := range f.Sections {
		name, err := cstring(tabData, uint64(s.NameOff), s.HeaderOff, "section name")
		if err != nil {
			return err
		}
		s.Name = name
	}
	return nil
}

// cstring returns the NUL-terminated string at off in tab.
func cstring(tab []byte, off uint64, errOff int64, what string) (string, error) {
	if off >= uint64(len(tab)) {
		if off == 0 && len(tab) == 0 {
			return "", nil
		}
		return "", formatErr(errOff, "%s offset %#x is past the end of its %d-byte string table", what, off, len(tab))
	}
	for i := off; i < uint64(len(tab)); i++ {
		if tab[i] == 0 {
			return string(tab[off:i]), nil
		}
	}
	return "", formatErr(errOff, "%s at string-table offset %#x is not NUL-terminated", what, off)
}

// Section returns the first section with the given name, or nil.
func (f *File) Section(name string) *Section {
	for _, s := range f.Sections {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// SectionData returns the bytes of s (nil for SHT_NOBITS and SHT_NULL). The
// slice aliases the file; do not modify it.
func (f *File) SectionData(s *Section) ([]byte, error) {
	if s.Type == elf.SHT_NOBITS || s.Type == elf.SHT_NULL {
		return nil, nil
	}
	return f.in(s.Offset, s.Size, s.HeaderOff+24, fmt.Sprintf("section %d (%s)", s.Index, s.Name))
}

// ProgData returns the file bytes of program header p (Filesz bytes from
// Off). Memory beyond Filesz up to Memsz is zero-filled by a loader.
func (f *File) ProgData(p *Prog) ([]byte, error) {
	return f.in(p.Off, p.Filesz, p.HeaderOff+8, fmt.Sprintf("segment %d", p.Index))
}

// LoadSegments returns the PT_LOAD program headers: what a loader maps.
func (f *File) LoadSegments() []*Prog {
	var out []*Prog
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			out = append(out, p)
		}
	}
	return out
}

// detectVersion applies the rules in the package documentation.
func (f *File) detectVersion() Version {
	if f.OSABI != ELFOSABI_AMDGPU_HSA {
		return VersionUnknown
	}
	v := versionFromABI(f.ABIVersion)
	if v == V3 {
		// The old guide's single ELFABIVERSION_AMDGPU_HSA (1) also covered
		// V2: an object whose notes are all "AMD" notes is V2.
		notes, err := f.Notes()
		if err == nil && len(notes) > 0 {
			amd, amdgpu := false, false
			for _, n := range notes {
				switch n.Name {
				case "AMD":
					amd = true
				case "AMDGPU":
					amdgpu = true
				}
			}
			if amd && !amdgpu {
				return V2
			}
		}
	}
	return v
}
