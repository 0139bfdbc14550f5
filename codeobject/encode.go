package codeobject

// Encode returns the file's bytes with the ELF header, the program headers
// and the section headers re-serialised from the File's fields, so that a
// caller can edit those fields (e_flags, OS ABI version, a section's
// alignment, a segment's flags...) and write the object back. Section and
// segment contents are kept as they are. For an unmodified File the result
// is byte-identical to the input.
func (f *File) Encode() ([]byte, error) {
	out := make([]byte, len(f.data))
	copy(out, f.data)
	h := &f.Header
	out[4] = byte(h.Class)
	out[5] = byte(h.Data)
	out[6] = byte(h.IdentVersion)
	out[7] = byte(h.OSABI)
	out[8] = h.ABIVersion
	le.PutUint16(out[16:], uint16(h.Type))
	le.PutUint16(out[18:], uint16(h.Machine))
	le.PutUint32(out[20:], h.EVersion)
	le.PutUint64(out[24:], h.Entry)
	le.PutUint64(out[32:], h.Phoff)
	le.PutUint64(out[40:], h.Shoff)
	le.PutUint32(out[48:], h.Flags)
	le.PutUint16(out[52:], h.Ehsize)
	le.PutUint16(out[54:], h.Phentsize)
	le.PutUint16(out[56:], h.Phnum)
	le.PutUint16(out[58:], h.Shentsize)
	le.PutUint16(out[60:], h.Shnum)
	le.PutUint16(out[62:], h.Shstrndx)
	for _, p := range f.Progs {
		if p.HeaderOff < 0 || p.HeaderOff+phdrSize > int64(len(out)) {
			return nil, formatErr(p.HeaderOff, "program header %d is outside the file", p.Index)
		}
		b := out[p.HeaderOff:]
		le.PutUint32(b[0:], uint32(p.Type))
		le.PutUint32(b[4:], uint32(p.Flags))
		le.PutUint64(b[8:], p.Off)
		le.PutUint64(b[16:], p.Vaddr)
		le.PutUint64(b[24:], p.Paddr)
		le.PutUint64(b[32:], p.Filesz)
		le.PutUint64(b[40:], p.Memsz)
		le.PutUint64(b[48:], p.Align)
	}
	for _, s := range f.Sections {
		if s.HeaderOff < 0 || s.HeaderOff+shdrSize > int64(len(out)) {
			return nil, formatErr(s.HeaderOff, "section header %d is outside the file", s.Index)
		}
		b := out[s.HeaderOff:]
		le.PutUint32(b[0:], s.NameOff)
		le.PutUint32(b[4:], uint32(s.Type))
		le.PutUint64(b[8:], uint64(s.Flags))
		le.PutUint64(b[16:], s.Addr)
		le.PutUint64(b[24:], s.Offset)
		le.PutUint64(b[32:], s.Size)
		le.PutUint32(b[40:], s.Link)
		le.PutUint32(b[44:], s.Info)
		le.PutUint64(b[48:], s.Addralign)
		le.PutUint64(b[56:], s.Entsize)
	}
	return out, nil
}
