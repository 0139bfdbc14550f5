package codeobject

import (
	"debug/elf"
	"fmt"
	"strings"

	"github.com/rocpu/rocpu/target"
)

// Processor returns the processor the code object is for: from
// EF_AMDGPU_MACH (V3+ and LLVM's V2 objects), else from the V2
// NT_AMD_HSA_ISA_VERSION note.
func (f *File) Processor() (*target.Processor, error) {
	fl := f.Flags()
	if fl.Mach != 0 {
		return target.ByMach(target.Mach(fl.Mach))
	}
	if n, err := f.FindNote("AMD", NT_AMD_HSA_ISA_VERSION); err == nil && n != nil {
		iv, err := ParseISAVersionNote(n)
		if err != nil {
			return nil, err
		}
		return target.ByISAVersion(int(iv.Major), int(iv.Minor), int(iv.Stepping))
	}
	return nil, fmt.Errorf("codeobject: e_flags name no processor (EF_AMDGPU_MACH is 0) and there is no ISA version note")
}

// TargetID returns the code object's target: processor, xnack/sramecc
// settings from e_flags (V2/V3 objects yield a legacy ID with each feature
// on or off) and, for V6 generic objects, the generic version.
func (f *File) TargetID() (target.ID, error) {
	p, err := f.Processor()
	if err != nil {
		return target.ID{}, err
	}
	fl := f.Flags()
	id := target.ID{Arch: "amdgcn", Vendor: "amd", OS: "", Processor: p, Features: map[target.Feature]target.FeatureSetting{}}
	switch f.OSABI {
	case ELFOSABI_AMDGPU_HSA:
		id.OS = "amdhsa"
	case ELFOSABI_AMDGPU_PAL:
		id.OS = "amdpal"
	case ELFOSABI_AMDGPU_MESA3D:
		id.OS = "mesa3d"
	}
	id.GenericVersion = int(fl.GenericVersion)
	legacy := f.version != VersionUnknown && f.version <= V3
	id.Legacy = legacy
	for feat, s := range map[target.Feature]Feature{target.FeatureXNACK: fl.XNACK, target.FeatureSRAMECC: fl.SRAMECC} {
		if !p.Supports(feat) {
			continue
		}
		switch s {
		case FeatureOn:
			id.Features[feat] = target.On
		case FeatureOff:
			id.Features[feat] = target.Off
		}
	}
	return id, nil
}

// KernelInfo is one kernel of a code object: its metadata joined with its
// symbols and its kernel descriptor (V3+) or amd_kernel_code_t (V2).
type KernelInfo struct {
	Name string
	// Meta is the kernel's metadata entry (nil if the metadata lacks it).
	Meta *Kernel
	// DescriptorSymbol is "<name>.kd" (V3+) or the STT_AMDGPU_HSA_KERNEL
	// symbol (V2), which labels the amd_kernel_code_t.
	DescriptorSymbol Symbol
	// DescriptorAddr and DescriptorOff locate the descriptor (or
	// amd_kernel_code_t) in memory and in the file.
	DescriptorAddr uint64
	DescriptorOff  int64
	Descriptor     *KernelDescriptor // V3+
	KernelCode     *AMDKernelCode    // V2
	// EntryAddr is the address of the first instruction: descriptor
	// address + KERNEL_CODE_ENTRY_BYTE_OFFSET (in an ET_REL object, the
	// entry function's section offset).
	EntryAddr uint64
	// CodeAddr/CodeSize is the kernel's machine code (the STT_FUNC entry
	// symbol in V3+; the V2 kernel symbol past its amd_kernel_code_t).
	CodeAddr, CodeSize uint64
}

// Resources decodes the kernel's descriptor (or amd_kernel_code_t) for p.
func (k *KernelInfo) Resources(p *target.Processor) (Resources, error) {
	if k.Descriptor != nil {
		return k.Descriptor.Resources(p)
	}
	if k.KernelCode != nil {
		return KernelCodeResources(k.KernelCode, p)
	}
	return Resources{}, fmt.Errorf("codeobject: kernel %s has no descriptor", k.Name)
}

// Kernels returns every kernel of the file in metadata order. Kernels found
// only by symbol (no metadata entry) follow, in symbol order.
func (f *File) Kernels() ([]KernelInfo, error) {
	md, err := f.Metadata()
	if err != nil {
		return nil, err
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	if len(syms) == 0 {
		if syms, err = f.DynamicSymbols(); err != nil {
			return nil, err
		}
	}
	byName := map[string]Symbol{}
	for _, s := range syms {
		if s.Index == 0 {
			continue
		}
		if _, dup := byName[s.Name]; !dup {
			byName[s.Name] = s
		}
	}
	var out []KernelInfo
	seen := map[string]bool{}
	add := func(name string, meta *Kernel, sym Symbol) error {
		k := KernelInfo{Name: name, Meta: meta, DescriptorSymbol: sym, DescriptorAddr: sym.Value}
		data, off, err := f.SymbolData(sym)
		if err != nil {
			return err
		}
		k.DescriptorOff = off
		if sym.Type == STT_AMDGPU_HSA_KERNEL {
			if len(data) < AMDKernelCodeSize {
				return formatErr(sym.Off+16, "kernel symbol %q is %d bytes, too small for amd_kernel_code_t", sym.Name, len(data))
			}
			if k.KernelCode, err = DecodeAMDKernelCode(data); err != nil {
				return rebase(err, off)
			}
			k.EntryAddr = sym.Value + uint64(k.KernelCode.KernelCodeEntryByteOffset)
			k.CodeAddr = k.EntryAddr
			if end := sym.Value + sym.Size; end > k.EntryAddr {
				k.CodeSize = end - k.EntryAddr
			}
		} else {
			if len(data) != KernelDescriptorSize {
				return formatErr(sym.Off+16, "kernel descriptor symbol %q is %d bytes, want %d", sym.Name, len(data), KernelDescriptorSize)
			}
			if k.Descriptor, err = DecodeKernelDescriptor(data); err != nil {
				return rebase(err, off)
			}
			k.EntryAddr = sym.Value + uint64(k.Descriptor.KernelCodeEntryByteOffset)
			if fn, ok := byName[strings.TrimSuffix(sym.Name, ".kd")]; ok && fn.Type == STT_FUNC {
				k.CodeAddr, k.CodeSize = fn.Value, fn.Size
				if f.Type == elf.ET_REL {
					// In a relocatable object the entry offset is still a
					// relocation (R_AMDGPU_REL64 against the function) and
					// values are section offsets: the entry is the function.
					k.EntryAddr = fn.Value
				}
			} else {
				k.CodeAddr = k.EntryAddr
			}
		}
		seen[sym.Name] = true
		out = append(out, k)
		return nil
	}
	if md != nil {
		for i := range md.Kernels {
			mk := &md.Kernels[i]
			name := mk.Symbol
			sym, ok := byName[name]
			if !ok && f.version == V2 {
				// LLVM's V2 metadata says "name@kd"; the symbol is "name".
				sym, ok = byName[strings.TrimSuffix(name, "@kd")]
				if !ok {
					sym, ok = byName[mk.Name]
				}
			}
			if !ok {
				return nil, formatErr(mk.Off, "metadata kernel %q names descriptor symbol %q, which the symbol table lacks", mk.Name, name)
			}
			if err := add(mk.Name, mk, sym); err != nil {
				return nil, err
			}
		}
	}
	for _, s := range syms {
		if seen[s.Name] || s.Shndx == elf.SHN_UNDEF {
			continue
		}
		if s.Type == STT_AMDGPU_HSA_KERNEL || (s.Type == STT_OBJECT && strings.HasSuffix(s.Name, ".kd")) {
			if err := add(strings.TrimSuffix(s.Name, ".kd"), nil, s); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
