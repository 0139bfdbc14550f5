package target

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Tests in this file use LLVM 15 as the golden: they run llvm-mc-15 and
// llc-15 and skip when those are not installed.

func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed", name)
	}
	return p
}

// llvmCPUs lists the processors "llc-15 -march=ARCH -mcpu=help" prints.
func llvmCPUs(t *testing.T, llc, arch string) []string {
	out, _ := exec.Command(llc, "-march="+arch, "-mcpu=help").CombinedOutput()
	var cpus []string
	in := false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "Available CPUs"):
			in = true
		case strings.HasPrefix(line, "Available features"):
			in = false
		case in && strings.Contains(line, " - Select the "):
			name := strings.Fields(line)[0]
			if name != "generic" && name != "generic-hsa" {
				cpus = append(cpus, name)
			}
		}
	}
	if len(cpus) == 0 {
		t.Fatalf("no CPUs in %s -mcpu=help output:\n%s", llc, out)
	}
	return cpus
}

// assemble runs llvm-mc-15 and returns the object and its e_flags
// (debug/elf does not expose e_flags).
func assemble(t *testing.T, mc, triple, cpu, src string, extra ...string) (*elf.File, uint32) {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.s"), filepath.Join(dir, "out.o")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-triple=" + triple, "-mcpu=" + cpu, "-filetype=obj", in, "-o", out}, extra...)
	if msg, err := exec.Command(mc, args...).CombinedOutput(); err != nil {
		t.Fatalf("llvm-mc-15 %v: %v\n%s", args, err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	off := 0x30 // e_flags in an ELF64 header
	if f.Class == elf.ELFCLASS32 {
		off = 0x24
	}
	return f, binary.LittleEndian.Uint32(raw[off:])
}

// TestMachMatchesLLVM15 checks, for every processor and alternative name
// LLVM 15 knows, that our MACH value and target-ID features are the ones
// LLVM writes into e_flags (code object V4: XNACK/SRAMECC "any" when
// supported, "unsupported" otherwise), and for r600 the MACH value.
func TestMachMatchesLLVM15(t *testing.T) {
	if testing.Short() {
		t.Skip("runs llvm-mc-15 once per processor")
	}
	llc := needTool(t, "llc-15")
	mc := needTool(t, "llvm-mc-15")
	for _, cpu := range llvmCPUs(t, llc, "amdgcn") {
		p, err := Lookup(cpu)
		if err != nil {
			t.Errorf("LLVM 15 knows %s, we do not: %v", cpu, err)
			continue
		}
		f, flags := assemble(t, mc, "amdgcn-amd-amdhsa", cpu, "")
		if got := Mach(flags & 0xff); got != p.Mach {
			t.Errorf("%s: LLVM 15 MACH %v, ours %v", cpu, got, p.Mach)
		}
		if f.Class != elf.ELFCLASS64 || f.Machine != elf.EM_AMDGPU {
			t.Errorf("%s: class %v machine %v", cpu, f.Class, f.Machine)
		}
		// V4 selectors: 0x100 = XNACK any, 0x400 = SRAMECC any, 0 = unsupported.
		if x := flags & 0x300; (x == 0x100) != p.Supports(FeatureXNACK) || (x != 0 && x != 0x100) {
			t.Errorf("%s: e_flags %#x xnack selector %#x, we say supported=%v", cpu, flags, x, p.Supports(FeatureXNACK))
		}
		if s := flags & 0xc00; (s == 0x400) != p.Supports(FeatureSRAMECC) || (s != 0 && s != 0x400) {
			t.Errorf("%s: e_flags %#x sramecc selector %#x, we say supported=%v", cpu, flags, s, p.Supports(FeatureSRAMECC))
		}
	}
	for _, cpu := range llvmCPUs(t, llc, "r600") {
		p, err := Lookup(cpu)
		if err != nil {
			t.Errorf("LLVM 15 knows r600 %s, we do not: %v", cpu, err)
			continue
		}
		f, flags := assemble(t, mc, "r600", cpu, "")
		if got := Mach(flags & 0xff); got != p.Mach || f.Class != elf.ELFCLASS32 {
			t.Errorf("%s: LLVM 15 MACH %v class %v, ours %v", cpu, got, f.Class, p.Mach)
		}
	}
}

// TestGranulesMatchLLVM15 assembles kernels with many
// .amdhsa_next_free_vgpr/sgpr values and reserve_* settings, and checks
// COMPUTE_PGM_RSRC1's granulated counts against GranulatedVGPRCount and
// GranulatedSGPRCount(n + ExtraSGPRs(...)).
func TestGranulesMatchLLVM15(t *testing.T) {
	if testing.Short() {
		t.Skip("assembles thousands of kernels")
	}
	mc := needTool(t, "llvm-mc-15")
	vgprs := []int{1, 3, 4, 5, 8, 9, 16, 17, 24, 25, 64, 100, 128, 200, 255, 256}
	sgprs := []int{1, 7, 8, 9, 16, 17, 24, 25, 33, 64, 90}
	for _, c := range []struct {
		cpu  string
		wave int
	}{
		{"gfx600", 64}, {"gfx701", 64}, {"gfx802", 64}, {"gfx803", 64}, {"gfx810", 64}, {"gfx900", 64}, {"gfx906", 64},
		{"gfx908", 64}, {"gfx90a", 64}, {"gfx940", 64}, {"gfx1010", 32}, {"gfx1010", 64},
		{"gfx1030", 32}, {"gfx1030", 64}, {"gfx1100", 32}, {"gfx1100", 64},
	} {
		p := proc(t, c.cpu)
		xnackVariants := []bool{false}
		if p.Supports(FeatureXNACK) {
			xnackVariants = []bool{false, true}
		}
		// Which reserve directives this processor's assembler accepts.
		canFlat := p.Family >= GFX7 && p.FlatScratch != FlatScratchArchitected
		for _, xnack := range xnackVariants {
			var src bytes.Buffer
			type want struct{ v, s uint32 }
			wants := map[string]want{}
			i := 0
			for _, v := range vgprs {
				for _, s := range sgprs {
					for _, vcc := range []bool{false, true} {
						for _, flat := range []bool{false, true} {
							if !canFlat && !flat && p.Family < GFX10 {
								continue // flat scratch reservation cannot be turned off
							}
							if !canFlat && flat && p.Family >= GFX10 {
								continue
							}
							n := s + p.ExtraSGPRs(vcc, flat, xnack)
							if p.SGPRInitBug && n > FixedSGPRs {
								continue
							}
							name := fmt.Sprintf("k%d", i)
							i++
							fmt.Fprintf(&src, ".text\n.globl %s\n.p2align 8\n%s:\n s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel %s\n", name, name, name)
							fmt.Fprintf(&src, " .amdhsa_next_free_vgpr %d\n .amdhsa_next_free_sgpr %d\n .amdhsa_reserve_vcc %d\n", v, s, b2i(vcc))
							if canFlat {
								fmt.Fprintf(&src, " .amdhsa_reserve_flat_scratch %d\n", b2i(flat))
							}
							if p.Family >= GFX8 {
								fmt.Fprintf(&src, " .amdhsa_reserve_xnack_mask %d\n", b2i(xnack))
							}
							if p.UnifiedVGPRFile {
								fmt.Fprintf(&src, " .amdhsa_accum_offset %d\n", (v+3)&^3)
							}
							if p.Family >= GFX10 {
								fmt.Fprintf(&src, " .amdhsa_wavefront_size32 %d\n", b2i(c.wave == 32))
							}
							fmt.Fprintf(&src, ".end_amdhsa_kernel\n")
							gv, err := p.GranulatedVGPRCount(v, 0, c.wave)
							if err != nil {
								t.Fatal(err)
							}
							gs, err := p.GranulatedSGPRCount(n)
							if err != nil {
								t.Fatal(err)
							}
							wants[name+".kd"] = want{gv, gs}
						}
					}
				}
			}
			var extra []string
			if p.Supports(FeatureXNACK) {
				extra = append(extra, map[bool]string{false: "-mattr=-xnack", true: "-mattr=+xnack"}[xnack])
			}
			f, _ := assemble(t, mc, "amdgcn-amd-amdhsa", c.cpu, src.String(), extra...)
			syms, err := f.Symbols()
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, sym := range syms {
				w, ok := wants[sym.Name]
				if !ok {
					continue
				}
				data, err := f.Sections[sym.Section].Data()
				if err != nil {
					t.Fatal(err)
				}
				rsrc1 := binary.LittleEndian.Uint32(data[sym.Value+48:])
				gv, gs := rsrc1&0x3f, rsrc1>>6&0xf
				if gv != w.v || gs != w.s {
					t.Errorf("%s wave%d xnack=%v %s: LLVM 15 VGPR/SGPR granules %d/%d, ours %d/%d", c.cpu, c.wave, xnack, sym.Name, gv, gs, w.v, w.s)
				}
				n++
			}
			if n != len(wants) || n == 0 {
				t.Errorf("%s: found %d of %d descriptors", c.cpu, n, len(wants))
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestLDSSizeMatchesLLVM15 compiles a kernel using 1 MiB of LDS for every
// processor LLVM 15 knows (primary names) and reads the limit from llc's
// "local memory (N) exceeds limit (L)" error.
func TestLDSSizeMatchesLLVM15(t *testing.T) {
	if testing.Short() {
		t.Skip("runs llc-15 once per processor")
	}
	llc := needTool(t, "llc-15")
	dir := t.TempDir()
	ll := filepath.Join(dir, "lds.ll")
	src := `@lds = internal addrspace(3) global [1048576 x i8] undef, align 4
define amdgpu_kernel void @k(i32 %i) {
  %p = getelementptr [1048576 x i8], [1048576 x i8] addrspace(3)* @lds, i32 0, i32 %i
  store volatile i8 1, i8 addrspace(3)* %p
  ret void
}
`
	if err := os.WriteFile(ll, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, cpu := range llvmCPUs(t, llc, "amdgcn") {
		p, err := Lookup(cpu)
		if err != nil || p.Name != cpu {
			continue // aliases: covered by TestMachMatchesLLVM15
		}
		out, _ := exec.Command(llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu="+cpu, "-filetype=obj", ll, "-o", os.DevNull).CombinedOutput()
		var got, limit int
		if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "error: local memory (%d) exceeds limit (%d)", &got, &limit); err != nil {
			t.Errorf("%s: unexpected llc output %q", cpu, out)
			continue
		}
		if limit != p.LDSSize {
			t.Errorf("%s: LLVM 15 LDS limit %d, ours %d", cpu, limit, p.LDSSize)
		}
		n++
	}
	if n < 35 {
		t.Errorf("checked only %d processors", n)
	}
}

// TestV2ISANamesMatchLLVM15 compiles an OpenCL kernel for code object V2
// with clang-15 and compares .hsa_code_object_isa with ID.ISAName, and for
// V3 compares .amdgcn_target with ID.LegacyString.
func TestV2ISANamesMatchLLVM15(t *testing.T) {
	if testing.Short() {
		t.Skip("runs clang-15")
	}
	clang := needTool(t, "clang-15")
	dir := t.TempDir()
	cl := filepath.Join(dir, "k.cl")
	if err := os.WriteFile(cl, []byte("kernel void k(global int *p) { *p = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	asm := func(cpu string, v int) string {
		out, err := exec.Command(clang, "-nogpulib", "--target=amdgcn-amd-amdhsa", "-mcpu="+cpu,
			fmt.Sprintf("-mcode-object-version=%d", v), "-S", "-o", "-", cl).CombinedOutput()
		if err != nil {
			t.Fatalf("clang-15 -mcpu=%s V%d: %v\n%s", cpu, v, err, out)
		}
		return string(out)
	}
	for _, cpu := range []string{"gfx900:xnack+", "gfx900:xnack-", "gfx902:xnack+", "gfx902:xnack-", "gfx904:xnack+",
		"gfx904:xnack-", "gfx906:xnack+", "gfx906:xnack-", "gfx801:xnack+", "gfx810:xnack+", "gfx90c:xnack-", "gfx803", "gfx701"} {
		id := mustID(t, cpu)
		var maj, min, step int
		out := asm(cpu, 2)
		i := strings.Index(out, ".hsa_code_object_isa ")
		if i < 0 {
			t.Errorf("%s: no .hsa_code_object_isa in\n%s", cpu, out)
			continue
		}
		if _, err := fmt.Sscanf(out[i:], ".hsa_code_object_isa %d,%d,%d,", &maj, &min, &step); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("AMD:AMDGPU:%d:%d:%d", maj, min, step); got != id.ISAName() {
			t.Errorf("%s: LLVM 15 V2 ISA %s, ours %s", cpu, got, id.ISAName())
		}
	}
	for _, cpu := range []string{"gfx906:xnack+:sramecc+", "gfx906:xnack-:sramecc-", "gfx906:xnack-:sramecc+", "gfx1010:xnack+", "gfx1010:xnack-", "gfx902:xnack+", "gfx1030", "gfx90a:xnack+:sramecc-"} {
		out := asm(cpu, 3)
		i := strings.Index(out, ".amdgcn_target \"")
		if i < 0 {
			t.Errorf("%s: no .amdgcn_target", cpu)
			continue
		}
		got := strings.SplitN(out[i+len(".amdgcn_target \""):], "\"", 2)[0]
		id := mustID(t, "amdgcn-amd-amdhsa--"+cpu)
		// V3 has no "any": clang resolves unspecified features to on.
		for _, f := range id.Processor.IDFeatures() {
			if id.Features[f] == Any {
				id.Features[f] = On
			}
		}
		if got != id.LegacyString() {
			t.Errorf("%s: LLVM 15 V3 target %q, ours %q", cpu, got, id.LegacyString())
		}
		back, err := ParseLegacyID(got)
		if err != nil || back.String() != id.Canonical().String() {
			t.Errorf("ParseLegacyID(%q) = %q, %v; want %q", got, back.String(), err, id.Canonical().String())
		}
	}
}
