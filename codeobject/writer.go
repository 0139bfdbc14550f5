package codeobject

import (
	"bytes"
	"debug/elf"
	"fmt"
	"strings"

	"github.com/rocpu/rocpu/target"
)

// Builder writes a loadable (ET_DYN) code object from typed parts: the
// metadata, and each kernel's descriptor and machine code. It is how tests
// and the emulator make objects LLVM 15 cannot emit (V6, generic
// processors, GFX12). The layout follows ld.lld's: one read-only PT_LOAD
// with the notes, dynamic symbols, hash table, string table and kernel
// descriptors (.rodata), one executable PT_LOAD with .text (each kernel
// 256-byte aligned), one writable PT_LOAD with .dynamic; virtual addresses
// equal file offsets.
type Builder struct {
	// Version is the code object version, V2 to V6.
	Version Version
	// Flags gives EF_AMDGPU_MACH, the xnack/sramecc settings and (V6) the
	// generic version; its Version field is ignored.
	Flags Flags
	// Metadata is written as the NT_AMDGPU_METADATA note (V3+, required).
	Metadata *Metadata
	// MetadataV2 is written as the NT_AMD_HSA_METADATA YAML note (V2,
	// optional), after the code object version, ISA version and ISA name
	// notes LLVM writes.
	MetadataV2 *MetadataV2
	// ISAVersion is the V2 NT_AMD_HSA_ISA_VERSION note; nil means the
	// processor's own version (the stepping that says xnack+, e.g.
	// AMD:AMDGPU:9:0:1 for gfx900:xnack+, must be given here).
	ISAVersion *ISAVersionNote
	Kernels    []BuildKernel
}

// BuildKernel is one kernel: Descriptor (V3+) or KernelCode (V2, placed
// right before the code, as .amd_kernel_code_t does); the entry offset of
// either is filled in by Build.
type BuildKernel struct {
	Name       string
	Descriptor KernelDescriptor
	KernelCode *AMDKernelCode
	Code       []byte
}

// Build returns the object's bytes.
func (b *Builder) Build() ([]byte, error) {
	if b.Version < V2 || b.Version > V6 {
		return nil, notSupported("building code object %v (V2 to V6 are supported)", b.Version)
	}
	v2 := b.Version == V2
	type noteSpec struct {
		name string
		typ  NoteType
		desc []byte
	}
	var notes []noteSpec
	if v2 {
		p, err := target.ByMach(target.Mach(b.Flags.Mach))
		if err != nil {
			return nil, err
		}
		iv := ISAVersionNote{Vendor: "AMD", Architecture: "AMDGPU", Major: uint32(p.Major), Minor: uint32(p.Minor), Stepping: uint32(p.Stepping)}
		if b.ISAVersion != nil {
			iv = *b.ISAVersion
		}
		var cov, isa []byte
		cov = le.AppendUint32(le.AppendUint32(cov, 2), 1)
		isa = le.AppendUint16(isa, uint16(len(iv.Vendor)+1))
		isa = le.AppendUint16(isa, uint16(len(iv.Architecture)+1))
		isa = le.AppendUint32(isa, iv.Major)
		isa = le.AppendUint32(isa, iv.Minor)
		isa = le.AppendUint32(isa, iv.Stepping)
		isa = append(isa, iv.Vendor+"\x00"+iv.Architecture+"\x00"...)
		notes = append(notes, noteSpec{"AMD", NT_AMD_HSA_CODE_OBJECT_VERSION, cov}, noteSpec{"AMD", NT_AMD_HSA_ISA_VERSION, isa},
			noteSpec{"AMD", NT_AMD_HSA_ISA_NAME, []byte("amdgcn-amd-amdhsa--" + p.Name)})
		if b.MetadataV2 != nil {
			notes = append(notes, noteSpec{"AMD", NT_AMD_HSA_METADATA, []byte(b.MetadataV2.EncodeYAML())})
		}
		for _, k := range b.Kernels {
			if k.KernelCode == nil {
				return nil, fmt.Errorf("codeobject: V2 kernel %s needs its amd_kernel_code_t", k.Name)
			}
		}
	} else {
		if b.Metadata == nil {
			return nil, fmt.Errorf("codeobject: Builder needs Metadata")
		}
		mdBytes, err := b.Metadata.EncodeMsgPack()
		if err != nil {
			return nil, err
		}
		notes = append(notes, noteSpec{"AMDGPU", NT_AMDGPU_METADATA, mdBytes})
	}
	fl := b.Flags
	fl.Version = b.Version
	abi, _ := b.Version.ABIVersion()

	// String tables and symbols.
	dynstr := []byte{0}
	addStr := func(tab *[]byte, s string) uint32 {
		off := uint32(len(*tab))
		*tab = append(*tab, s...)
		*tab = append(*tab, 0)
		return off
	}
	type sym struct {
		name        string
		nameOff     uint32
		typ         SymType
		shndx       uint16
		value, size uint64
	}
	var syms []sym
	for _, k := range b.Kernels {
		if v2 {
			syms = append(syms, sym{name: k.Name, typ: STT_AMDGPU_HSA_KERNEL})
		} else {
			syms = append(syms, sym{name: k.Name, typ: STT_FUNC}, sym{name: k.Name + ".kd", typ: STT_OBJECT})
		}
	}
	for i := range syms {
		syms[i].nameOff = addStr(&dynstr, syms[i].name)
	}

	var out bytes.Buffer
	pad := func(align int) {
		for out.Len()%align != 0 {
			out.WriteByte(0)
		}
	}
	const nPhdr = 6
	out.Write(make([]byte, ehdrSize+nPhdr*phdrSize))

	// .note
	pad(4)
	noteOff := out.Len()
	var n []byte
	for _, ns := range notes {
		name := ns.name + "\x00"
		n = le.AppendUint32(n, uint32(len(name)))
		n = le.AppendUint32(n, uint32(len(ns.desc)))
		n = le.AppendUint32(n, uint32(ns.typ))
		n = append(n, name...)
		for len(n)%4 != 0 {
			n = append(n, 0)
		}
		n = append(n, ns.desc...)
		for len(n)%4 != 0 {
			n = append(n, 0)
		}
	}
	out.Write(n)
	noteSize := len(n)

	// .dynsym (written after addresses are known), .hash, .dynstr
	pad(8)
	dynsymOff := out.Len()
	dynsymSize := (len(syms) + 1) * symSize
	out.Write(make([]byte, dynsymSize))
	pad(4)
	hashOff := out.Len()
	nsym := len(syms) + 1
	hash := le.AppendUint32(nil, 1)
	hash = le.AppendUint32(hash, uint32(nsym))
	chain := make([]uint32, nsym)
	var bucket uint32
	for i := 1; i < nsym; i++ {
		chain[i] = bucket
		bucket = uint32(i)
	}
	hash = le.AppendUint32(hash, bucket)
	for _, c := range chain {
		hash = le.AppendUint32(hash, c)
	}
	out.Write(hash)
	dynstrOff := out.Len()
	out.Write(dynstr)

	// .rodata: the kernel descriptors.
	pad(64)
	rodataOff := out.Len()
	if !v2 {
		out.Write(make([]byte, KernelDescriptorSize*len(b.Kernels)))
	}
	roEnd := out.Len()

	// .text: each kernel 256-byte aligned, in its own page-aligned segment.
	pad(0x100)
	for out.Len()%0x1000 != 0 {
		out.WriteByte(0)
	}
	textOff := out.Len()
	codeAddrs := make([]int, len(b.Kernels))
	kcAddrs := make([]int, len(b.Kernels))
	for i, k := range b.Kernels {
		pad(256)
		if v2 {
			kcAddrs[i] = out.Len()
			kc := *k.KernelCode
			kc.KernelCodeEntryByteOffset = AMDKernelCodeSize
			out.Write(EncodeAMDKernelCode(&kc))
		}
		codeAddrs[i] = out.Len()
		out.Write(k.Code)
	}
	textEnd := out.Len()

	// .dynamic
	for out.Len()%0x1000 != 0 {
		out.WriteByte(0)
	}
	dynOff := out.Len()
	var dyn []byte
	for _, kv := range [][2]uint64{
		{uint64(elf.DT_HASH), uint64(hashOff)}, {uint64(elf.DT_SYMTAB), uint64(dynsymOff)}, {uint64(elf.DT_SYMENT), symSize},
		{uint64(elf.DT_STRTAB), uint64(dynstrOff)}, {uint64(elf.DT_STRSZ), uint64(len(dynstr))}, {uint64(elf.DT_NULL), 0},
	} {
		dyn = le.AppendUint64(dyn, kv[0])
		dyn = le.AppendUint64(dyn, kv[1])
	}
	out.Write(dyn)
	dynEnd := out.Len()

	// Non-allocated: .symtab (same symbols), .strtab, .shstrtab.
	pad(8)
	symtabOff := out.Len()
	out.Write(make([]byte, dynsymSize))
	strtabOff := out.Len()
	out.Write(dynstr)
	shstr := []byte{0}
	secNames := []string{"", ".note", ".dynsym", ".hash", ".dynstr", ".rodata", ".text", ".dynamic", ".symtab", ".strtab", ".shstrtab"}
	nameOffs := make([]uint32, len(secNames))
	for i, s := range secNames[1:] {
		nameOffs[i+1] = addStr(&shstr, s)
	}
	shstrOff := out.Len()
	out.Write(shstr)
	pad(8)
	shOff := out.Len()
	out.Write(make([]byte, len(secNames)*shdrSize))
	buf := out.Bytes()

	// Kernel descriptors and symbols.
	for i, k := range b.Kernels {
		if v2 {
			syms[i].shndx, syms[i].value, syms[i].size = 6, uint64(kcAddrs[i]), uint64(AMDKernelCodeSize+len(k.Code))
			continue
		}
		kdAddr := rodataOff + i*KernelDescriptorSize
		kd := k.Descriptor
		kd.KernelCodeEntryByteOffset = int64(codeAddrs[i] - kdAddr)
		copy(buf[kdAddr:], kd.Encode())
		syms[2*i].shndx, syms[2*i].value, syms[2*i].size = 6, uint64(codeAddrs[i]), uint64(len(k.Code))
		syms[2*i+1].shndx, syms[2*i+1].value, syms[2*i+1].size = 5, uint64(kdAddr), KernelDescriptorSize
	}
	for _, tab := range []int{dynsymOff, symtabOff} {
		for i, s := range syms {
			e := buf[tab+(i+1)*symSize:]
			le.PutUint32(e, s.nameOff)
			e[4] = byte(elf.STB_GLOBAL)<<4 | byte(s.typ)
			e[5] = byte(elf.STV_PROTECTED)
			le.PutUint16(e[6:], s.shndx)
			le.PutUint64(e[8:], s.value)
			le.PutUint64(e[16:], s.size)
		}
	}

	// Section headers.
	type shdr struct {
		typ            elf.SectionType
		flags          elf.SectionFlag
		off, size      int
		link, info     uint32
		align, entsize uint64
		alloc          bool
	}
	shdrs := []shdr{
		{},
		{elf.SHT_NOTE, elf.SHF_ALLOC, noteOff, noteSize, 0, 0, 4, 0, true},
		{elf.SHT_DYNSYM, elf.SHF_ALLOC, dynsymOff, dynsymSize, 4, 1, 8, symSize, true},
		{elf.SHT_HASH, elf.SHF_ALLOC, hashOff, len(hash), 2, 0, 4, 4, true},
		{elf.SHT_STRTAB, elf.SHF_ALLOC, dynstrOff, len(dynstr), 0, 0, 1, 0, true},
		{elf.SHT_PROGBITS, elf.SHF_ALLOC, rodataOff, roEnd - rodataOff, 0, 0, 64, 0, true},
		{elf.SHT_PROGBITS, elf.SHF_ALLOC | elf.SHF_EXECINSTR, textOff, textEnd - textOff, 0, 0, 256, 0, true},
		{elf.SHT_DYNAMIC, elf.SHF_ALLOC | elf.SHF_WRITE, dynOff, dynEnd - dynOff, 4, 0, 8, 16, true},
		{elf.SHT_SYMTAB, 0, symtabOff, dynsymSize, 9, 1, 8, symSize, false},
		{elf.SHT_STRTAB, 0, strtabOff, len(dynstr), 0, 0, 1, 0, false},
		{elf.SHT_STRTAB, 0, shstrOff, len(shstr), 0, 0, 1, 0, false},
	}
	for i, s := range shdrs {
		if i == 0 {
			continue
		}
		e := buf[shOff+i*shdrSize:]
		le.PutUint32(e, nameOffs[i])
		le.PutUint32(e[4:], uint32(s.typ))
		le.PutUint64(e[8:], uint64(s.flags))
		if s.alloc {
			le.PutUint64(e[16:], uint64(s.off))
		}
		le.PutUint64(e[24:], uint64(s.off))
		le.PutUint64(e[32:], uint64(s.size))
		le.PutUint32(e[40:], s.link)
		le.PutUint32(e[44:], s.info)
		le.PutUint64(e[48:], s.align)
		le.PutUint64(e[56:], s.entsize)
	}

	// Program headers.
	phdrs := []struct {
		typ       elf.ProgType
		flags     elf.ProgFlag
		off, size int
		align     uint64
	}{
		{elf.PT_PHDR, elf.PF_R, ehdrSize, nPhdr * phdrSize, 8},
		{elf.PT_LOAD, elf.PF_R, 0, roEnd, 0x1000},
		{elf.PT_LOAD, elf.PF_R | elf.PF_X, textOff, textEnd - textOff, 0x1000},
		{elf.PT_LOAD, elf.PF_R | elf.PF_W, dynOff, dynEnd - dynOff, 0x1000},
		{elf.PT_DYNAMIC, elf.PF_R | elf.PF_W, dynOff, dynEnd - dynOff, 8},
		{elf.PT_NOTE, elf.PF_R, noteOff, noteSize, 4},
	}
	for i, p := range phdrs {
		e := buf[ehdrSize+i*phdrSize:]
		le.PutUint32(e, uint32(p.typ))
		le.PutUint32(e[4:], uint32(p.flags))
		le.PutUint64(e[8:], uint64(p.off))
		le.PutUint64(e[16:], uint64(p.off))
		le.PutUint64(e[24:], uint64(p.off))
		le.PutUint64(e[32:], uint64(p.size))
		le.PutUint64(e[40:], uint64(p.size))
		le.PutUint64(e[48:], p.align)
	}

	// ELF header.
	copy(buf, elf.ELFMAG)
	buf[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	buf[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	buf[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	buf[elf.EI_OSABI] = byte(ELFOSABI_AMDGPU_HSA)
	buf[elf.EI_ABIVERSION] = abi
	le.PutUint16(buf[16:], uint16(elf.ET_DYN))
	le.PutUint16(buf[18:], uint16(EM_AMDGPU))
	le.PutUint32(buf[20:], uint32(elf.EV_CURRENT))
	le.PutUint64(buf[32:], ehdrSize)
	le.PutUint64(buf[40:], uint64(shOff))
	le.PutUint32(buf[48:], fl.Encode())
	le.PutUint16(buf[52:], ehdrSize)
	le.PutUint16(buf[54:], phdrSize)
	le.PutUint16(buf[56:], nPhdr)
	le.PutUint16(buf[58:], shdrSize)
	le.PutUint16(buf[60:], uint16(len(shdrs)))
	le.PutUint16(buf[62:], uint16(len(shdrs)-1))
	return buf, nil
}

// BuilderFrom returns a Builder holding f's metadata, flags and kernels
// (descriptor or amd_kernel_code_t, and code), so an object can be rebuilt,
// for instance under another code object version. Data sections, global
// symbols and relocations are not carried over.
func BuilderFrom(f *File) (*Builder, error) {
	if f.Version() < V2 {
		return nil, notSupported("rebuilding %v objects", f.Version())
	}
	b := &Builder{Version: f.Version(), Flags: f.Flags()}
	var err error
	if f.Version() == V2 {
		if b.MetadataV2, err = f.MetadataV2(); err != nil {
			return nil, err
		}
		if n, err := f.FindNote("AMD", NT_AMD_HSA_ISA_VERSION); err == nil && n != nil {
			iv, err := ParseISAVersionNote(n)
			if err != nil {
				return nil, err
			}
			b.ISAVersion = &iv
		}
	} else {
		b.Metadata, err = f.Metadata()
	}
	if err != nil {
		return nil, err
	}
	ks, err := f.Kernels()
	if err != nil {
		return nil, err
	}
	for i := range ks {
		k := &ks[i]
		if k.KernelCode != nil {
			off, ok := f.AddrToOffset(k.CodeAddr)
			if !ok || off+k.CodeSize > uint64(len(f.data)) {
				return nil, formatErr(k.DescriptorSymbol.Off, "kernel %s code at %#x is not in the file", k.Name, k.CodeAddr)
			}
			b.Kernels = append(b.Kernels, BuildKernel{Name: k.DescriptorSymbol.Name, KernelCode: k.KernelCode, Code: f.data[off : off+k.CodeSize]})
			continue
		}
		if k.Descriptor == nil {
			continue
		}
		off, ok := f.AddrToOffset(k.CodeAddr)
		if !ok || off+k.CodeSize > uint64(len(f.data)) {
			return nil, formatErr(k.DescriptorSymbol.Off, "kernel %s code at %#x is not in the file", k.Name, k.CodeAddr)
		}
		b.Kernels = append(b.Kernels, BuildKernel{Name: strings.TrimSuffix(k.DescriptorSymbol.Name, ".kd"), Descriptor: *k.Descriptor, Code: f.data[off : off+k.CodeSize]})
	}
	return b, nil
}
