package codeobject

import (
	"debug/elf"
	"fmt"
)

// MaxImageSize bounds the memory image Image builds; a corrupt p_memsz
// cannot make it allocate more.
const MaxImageSize = 1 << 30

// Image returns the object's loaded form: the PT_LOAD segments placed at
// their virtual addresses relative to the lowest one (lo), file bytes
// copied and the rest (p_memsz beyond p_filesz, gaps) zero. A loader puts
// img at address base+lo (base being the load bias) and calls Relocate.
func (f *File) Image() (img []byte, lo uint64, err error) {
	segs := f.LoadSegments()
	if len(segs) == 0 {
		return nil, 0, fmt.Errorf("codeobject: no PT_LOAD segments to load")
	}
	lo, hi := ^uint64(0), uint64(0)
	for _, p := range segs {
		end := p.Vaddr + p.Memsz
		if end < p.Vaddr || p.Filesz > p.Memsz {
			return nil, 0, formatErr(p.HeaderOff+32, "segment %d has p_filesz %#x, p_memsz %#x at %#x", p.Index, p.Filesz, p.Memsz, p.Vaddr)
		}
		lo, hi = min(lo, p.Vaddr), max(hi, end)
	}
	if hi-lo > MaxImageSize {
		return nil, 0, formatErr(segs[0].HeaderOff, "loaded image of %#x bytes exceeds the %#x-byte limit", hi-lo, MaxImageSize)
	}
	img = make([]byte, hi-lo)
	for _, p := range segs {
		b, err := f.ProgData(p)
		if err != nil {
			return nil, 0, err
		}
		copy(img[p.Vaddr-lo:], b)
	}
	return img, lo, nil
}

// Resolver returns the address of an undefined symbol a relocation uses
// (a symbol of another code object or of the runtime).
type Resolver func(sym Symbol) (uint64, error)

// Relocate applies the dynamic relocations to img, the Image of f loaded so
// that ELF address a is at base+a (B = base, §1.8). Symbols defined in f
// resolve to base+st_value; undefined ones through resolve (which may be
// nil if there are none). Static-only relocation types are an error.
func (f *File) Relocate(img []byte, lo, base uint64, resolve Resolver) error {
	if f.Type != elf.ET_DYN {
		return notSupported("relocating a %v object (only ET_DYN objects are loadable)", f.Type)
	}
	relocs, err := f.DynamicRelocs()
	if err != nil {
		return err
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return err
	}
	for _, r := range relocs {
		if !r.Type.Dynamic() {
			if r.Type == R_AMDGPU_NONE {
				continue
			}
			return formatErr(r.Off+8, "%v is not a dynamic relocation", r.Type)
		}
		in := RelocInputs{A: uint64(r.Addend), B: base, P: base + r.Offset}
		if r.Sym != 0 {
			if int(r.Sym) >= len(syms) {
				return formatErr(r.Off+12, "relocation symbol %d out of range (%d symbols)", r.Sym, len(syms))
			}
			s := syms[r.Sym]
			switch {
			case s.Shndx != elf.SHN_UNDEF:
				in.S = base + s.Value
			case resolve == nil:
				return fmt.Errorf("codeobject: relocation at %#x needs undefined symbol %q and no resolver was given", r.Offset, s.Name)
			default:
				if in.S, err = resolve(s); err != nil {
					return fmt.Errorf("codeobject: resolving %q: %w", s.Name, err)
				}
			}
		}
		n := uint64(r.Type.FieldSize())
		if r.Offset < lo || r.Offset-lo > uint64(len(img)) || n > uint64(len(img))-(r.Offset-lo) {
			return formatErr(r.Off, "relocation place %#x is outside the loaded image", r.Offset)
		}
		if err := r.Type.Apply(img[r.Offset-lo:], in); err != nil {
			return err
		}
	}
	return nil
}
