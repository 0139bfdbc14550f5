package main

import (
	"bytes"
	"encoding/binary"
)

// wrapELF returns a minimal ELF64 relocatable AMDGPU object whose .text
// section holds code, so llvm-objdump can disassemble it with addresses.
func wrapELF(code []byte) []byte {
	shstr := []byte("\x00.text\x00.shstrtab\x00")
	const ehsize, shentsize = 64, 64
	textOff := uint64(ehsize)
	strOff := textOff + uint64(len(code))
	shOff := (strOff + uint64(len(shstr)) + 7) &^ 7
	var b bytes.Buffer
	le := binary.LittleEndian
	ident := [16]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 64, 2}
	b.Write(ident[:])
	w := func(v any) { binary.Write(&b, le, v) }
	w(uint16(1))   // ET_REL
	w(uint16(224)) // EM_AMDGPU
	w(uint32(1))
	w(uint64(0)) // entry
	w(uint64(0)) // phoff
	w(shOff)
	w(uint32(0x3f)) // e_flags: overridden by --mcpu
	w(uint16(ehsize))
	w(uint16(0))
	w(uint16(0))
	w(uint16(shentsize))
	w(uint16(3))
	w(uint16(2))
	b.Write(code)
	b.Write(shstr)
	for uint64(b.Len()) < shOff {
		b.WriteByte(0)
	}
	sh := func(name, typ uint32, flags, off, size, align uint64) {
		w(name)
		w(typ)
		w(flags)
		w(uint64(0))
		w(off)
		w(size)
		w(uint32(0))
		w(uint32(0))
		w(align)
		w(uint64(0))
	}
	sh(0, 0, 0, 0, 0, 0)
	sh(1, 1, 6, textOff, uint64(len(code)), 4)
	sh(7, 3, 0, strOff, uint64(len(shstr)), 1)
	return b.Bytes()
}
