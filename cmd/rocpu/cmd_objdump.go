package main

import (
	"bufio"
	"debug/elf"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/isa"
)

func init() {
	register(&command{
		name:    "objdump",
		summary: "disassemble the code of AMDGPU code objects like llvm-objdump -d",
		usage:   "[--mcpu=gfxNNN] FILE...",
		run:     runObjdump,
	})
}

func runObjdump(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	mcpu := fs.String("mcpu", "", "processor to disassemble for (default: the code object's)")
	if st, ok := parse(fs, args, stdout); !ok {
		return st
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	status := 0
	for _, name := range fs.Args() {
		if err := objdumpFile(w, name, *mcpu); err != nil {
			w.Flush()
			fmt.Fprintf(stderr, "rocpu objdump: %s: %v\n", name, err)
			status = 1
		}
	}
	return status
}

// objdumpFile disassembles every code object in the file (a code object, an
// offload bundle or a HIP executable).
func objdumpFile(w *bufio.Writer, name, mcpu string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	objs, err := codeobject.OpenAny(data)
	if err != nil {
		return err
	}
	var errs []error
	for _, o := range objs {
		label := name
		if o.Name != "" {
			label = name + ":" + o.Name
		}
		if o.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", label, o.Err))
			continue
		}
		if err := objdumpObject(w, label, o.File, mcpu); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", label, err))
		}
	}
	return errors.Join(errs...)
}

type label struct {
	addr   uint64
	name   string
	hsaKer bool // V2 STT_AMDGPU_HSA_KERNEL: amd_kernel_code_t precedes the code
}

// sttAMDGPUHSAKernel is STT_AMDGPU_HSA_KERNEL (STT_LOOS), the V2 kernel
// symbol type (spec/INVENTORY.md §1.7).
const sttAMDGPUHSAKernel = 10

func objdumpObject(w *bufio.Writer, name string, f *codeobject.File, mcpu string) error {
	cpu := mcpu
	if cpu == "" {
		p, err := f.Processor()
		if err != nil {
			return fmt.Errorf("processor: %w (use --mcpu)", err)
		}
		cpu = p.Name
	}
	tg, err := isa.LookupTarget(cpu)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s:\tfile format elf64-amdgpu\n", name)
	syms, _ := f.Symbols()
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_EXECINSTR == 0 || s.Type != elf.SHT_PROGBITS {
			continue
		}
		code, err := f.SectionData(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nDisassembly of section %s:\n", s.Name)
		// Labels: the section's function and untyped symbols, as
		// llvm-objdump shows them.
		var labels []label
		for _, sym := range syms {
			if int(sym.Shndx) != s.Index || sym.Name == "" {
				continue
			}
			t := elf.SymType(sym.Type)
			if t != elf.STT_FUNC && t != elf.STT_NOTYPE && t != elf.STT_OBJECT && t != sttAMDGPUHSAKernel {
				continue
			}
			if sym.Value < s.Addr || sym.Value >= s.Addr+s.Size {
				continue
			}
			labels = append(labels, label{sym.Value, sym.Name, t == sttAMDGPUHSAKernel})
		}
		sort.SliceStable(labels, func(i, j int) bool { return labels[i].addr < labels[j].addr })
		if len(labels) == 0 || labels[0].addr != s.Addr {
			labels = append([]label{{s.Addr, s.Name, false}}, labels...)
		}
		for i, l := range labels {
			end := s.Addr + uint64(len(code))
			if i+1 < len(labels) {
				end = labels[i+1].addr
			}
			if i+1 < len(labels) && end == l.addr {
				continue // several symbols at one address: llvm-objdump prints the last
			}
			fmt.Fprintf(w, "\n%016x <%s>:\n", l.addr, l.name)
			start := l.addr
			if l.hsaKer && end-start >= 256 {
				// LLVM 15's AMDGPU onSymbolStart cannot decode the V2
				// amd_kernel_code_t header and dumps 256 bytes. It indexes
				// them from the start of the section, not of the symbol
				// (llvm-objdump.cpp disassembleObject: `Bytes[I]`), so for a
				// kernel that is not first in .text the bytes shown are the
				// section's first 256. We print what it prints.
				fmt.Fprintf(w, "// Error in decoding %s : Decoding failed region as bytes.\n", l.name)
				for _, c := range code[:256] {
					fmt.Fprintf(w, "\t.byte\t 0x%X\n", c)
				}
				start += 256
			}
			disasmRange(w, tg, code[start-s.Addr:end-s.Addr], start, labels)
		}
	}
	return nil
}

// disasmRange prints one symbol's instructions in llvm-objdump's layout:
// the text padded to column 60, then "// address: words" and, for branches,
// the target as <symbol+offset>.
func disasmRange(w *bufio.Writer, tg isa.Target, code []byte, addr uint64, labels []label) {
	line := make([]byte, 0, 160)
	isa.DecodeRange(tg, code, func(off int, in *isa.Inst, err error) bool {
		n := 4
		line = append(line[:0], '\t')
		if err != nil {
			line = append(line, ".long 0x"...)
			line = appendHex8(line, le32(code[off:]), false)
		} else {
			n = int(in.Len)
			line = in.AppendText(line)
		}
		for len(line) < 60 {
			line = append(line, ' ')
		}
		line = append(line, "// "...)
		a := addr + uint64(off)
		line = appendHex12(line, a)
		line = append(line, ':')
		for k := 0; k < n; k += 4 {
			line = append(line, ' ')
			line = appendHex8(line, le32(code[off+k:]), true)
		}
		if err == nil {
			if t, ok := in.BranchTarget(a); ok {
				line = append(line, ' ')
				line = appendTarget(line, t, labels)
			}
		}
		line = append(line, '\n')
		w.Write(line)
		return true
	})
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

const hexUpper, hexLower = "0123456789ABCDEF", "0123456789abcdef"

func appendHex8(b []byte, v uint32, upper bool) []byte {
	digits := hexLower
	if upper {
		digits = hexUpper
	}
	for s := 28; s >= 0; s -= 4 {
		b = append(b, digits[(v>>s)&0xf])
	}
	return b
}

func appendHex12(b []byte, v uint64) []byte {
	for s := 44; s >= 0; s -= 4 {
		b = append(b, hexUpper[(v>>s)&0xf])
	}
	return b
}

// appendTarget prints <sym+0xoff> for the closest label at or before t.
func appendTarget(b []byte, t uint64, labels []label) []byte {
	i := sort.Search(len(labels), func(i int) bool { return labels[i].addr > t }) - 1
	if i < 0 {
		return b
	}
	// With several labels at one address, llvm-objdump names the last.
	b = append(b, '<')
	b = append(b, labels[i].name...)
	if d := t - labels[i].addr; d != 0 {
		b = append(b, "+0x"...)
		b = strconv.AppendUint(b, d, 16)
	}
	return append(b, '>')
}
