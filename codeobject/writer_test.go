package codeobject

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/target"
)

// readelfOn runs llvm-readelf-15 on b, or skips when the tool is absent.
func readelfOn(t *testing.T, b []byte) string {
	t.Helper()
	if _, err := exec.LookPath("llvm-readelf-15"); err != nil {
		t.Skip("llvm-readelf-15 not installed")
	}
	p := filepath.Join(t.TempDir(), "built.hsaco")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("llvm-readelf-15", "-h", "-l", "-S", "-s", "-r", "-n", "--dyn-syms", p).CombinedOutput()
	if err != nil || strings.Contains(string(out), "warning") {
		t.Fatalf("llvm-readelf-15 on our output: %v\n%s", err, out)
	}
	if err := os.WriteFile(p+".readelf.txt", out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBuilderRebuild rebuilds LLVM's objects (V2 to V5) from their parts:
// the result has the same metadata, descriptors (but for the entry offset)
// or amd_kernel_code_t, and code, validates clean, and llvm-readelf-15 reads
// it the way we do.
func TestBuilderRebuild(t *testing.T) {
	n := 0
	for _, path := range goldenObjects(t) {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Type != 3 /* ET_DYN */ {
			continue
		}
		n++
		if n > 16 {
			break
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := BuilderFrom(f)
			if err != nil {
				t.Fatal(err)
			}
			data, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			g, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			y1, _ := f.MetadataYAML()
			y2, _ := g.MetadataYAML()
			if y1 != y2 || g.Header.Flags != f.Header.Flags || g.ABIVersion != f.ABIVersion {
				t.Errorf("rebuilt object differs in metadata or header")
			}
			k1, _ := f.Kernels()
			k2, err := g.Kernels()
			if err != nil || len(k1) != len(k2) {
				t.Fatalf("kernels %d vs %d (%v)", len(k1), len(k2), err)
			}
			for i := range k1 {
				c1, _ := f.AddrToOffset(k1[i].CodeAddr)
				c2, _ := g.AddrToOffset(k2[i].CodeAddr)
				same := bytes.Equal(f.Data()[c1:c1+k1[i].CodeSize], g.Data()[c2:c2+k2[i].CodeSize])
				if k1[i].KernelCode != nil {
					same = same && *k1[i].KernelCode == *k2[i].KernelCode
				} else {
					d1, d2 := *k1[i].Descriptor, *k2[i].Descriptor
					d1.KernelCodeEntryByteOffset, d2.KernelCodeEntryByteOffset = 0, 0
					same = same && d1 == d2
				}
				if !same {
					t.Errorf("kernel %s differs after rebuild", k1[i].Name)
				}
			}
			if f.Version() == V2 {
				n1, _ := f.FindNote("AMD", NT_AMD_HSA_ISA_VERSION)
				n2, _ := g.FindNote("AMD", NT_AMD_HSA_ISA_VERSION)
				if n1 == nil || n2 == nil || !bytes.Equal(n1.Desc, n2.Desc) {
					t.Errorf("ISA version note differs after rebuild")
				}
			}
			for _, fd := range g.Validate() {
				if fd.Severity == SeverityError {
					t.Errorf("%v", fd)
				}
			}
			// Differential: LLVM reads our file as we do.
			p := readelfOn(t, data)
			gold := parseGolden(t, p+".readelf.txt")
			checkSections(t, g, gold)
			checkProgs(t, g, gold)
			checkSymbols(t, g, gold)
			checkMetadataYAML(t, g, gold)
		})
	}
	if n == 0 {
		t.Fatal("no V3+ objects to rebuild")
	}
}

// genericObject builds a V6 gfx9-generic object whose descriptor values
// are derived by hand from the spec (INVENTORY §1.3, §3.4, §4.2-§4.4).
func genericObject(t *testing.T, genericVersion uint8) []byte {
	p, err := target.Lookup("gfx9-generic")
	if err != nil {
		t.Fatal(err)
	}
	agpr := uint64(0)
	spill := uint64(0)
	md := &Metadata{
		Version: []uint64{1, 2},
		Target:  "amdgcn-amd-amdhsa--gfx9-generic",
		Kernels: []Kernel{{
			Name: "k", Symbol: "k.kd", Language: "OpenCL C", LanguageVersion: []uint64{2, 0},
			Args: []Arg{
				{Name: "out", TypeName: "int*", Size: 8, Offset: 0, ValueKind: ValueKindGlobalBuffer, AddressSpace: "global"},
				{Size: 4, Offset: 8, ValueKind: ValueKindHiddenBlockCountX},
			},
			KernargSegmentSize: 16, KernargSegmentAlign: 8, WavefrontSize: 64,
			SGPRCount: 20, VGPRCount: 12, AGPRCount: &agpr, MaxFlatWorkgroupSize: 256,
			SGPRSpillCount: &spill, VGPRSpillCount: &spill,
		}},
	}
	kd := KernelDescriptor{
		KernargSize: 16,
		// GFX9: VGPR granule 4: ceil(12/4)-1 = 2; SGPR (LLVM 15's GFX9
		// encoding, granule 8): ceil(20/8)-1 = 2; FLOAT_DENORM_MODE_16_64
		// = 3 (bits 19:18), DX10_CLAMP (21), IEEE_MODE (23).
		ComputePgmRsrc1: 2 | 2<<6 | 3<<18 | 1<<21 | 1<<23,
		// USER_SGPR_COUNT = 2 (bits 5:1), ENABLE_SGPR_WORKGROUP_ID_X (7).
		ComputePgmRsrc2:      2<<1 | 1<<7,
		KernelCodeProperties: KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR,
	}
	b := &Builder{
		Version:  V6,
		Flags:    Flags{Mach: uint32(p.Mach), XNACK: FeatureAny, SRAMECC: FeatureUnsupported, GenericVersion: genericVersion},
		Metadata: md,
		Kernels:  []BuildKernel{{Name: "k", Descriptor: kd, Code: []byte{0x00, 0x00, 0x81, 0xbf}}}, // s_endpgm
	}
	data, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestBuilderV6Generic(t *testing.T) {
	data := genericObject(t, 1)
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	fl := f.Flags()
	// e_flags: MACH 0x051 | XNACK_ANY_V4 0x100 | generic version 1 << 24.
	if f.Header.Flags != 0x01000151 || f.ABIVersion != 4 || f.Version() != V6 || fl.GenericVersion != 1 {
		t.Fatalf("e_flags %#x ABI %d version %v generic %d", f.Header.Flags, f.ABIVersion, f.Version(), fl.GenericVersion)
	}
	p, err := f.Processor()
	if err != nil || p.Name != "gfx9-generic" || !p.Generic {
		t.Fatalf("processor %v %v", p, err)
	}
	id, err := f.TargetID()
	if err != nil || id.String() != "amdgcn-amd-amdhsa--gfx9-generic" || id.GenericVersion != 1 {
		t.Errorf("target ID %v (generic version %d) %v", id, id.GenericVersion, err)
	}
	ks, err := f.Kernels()
	if err != nil || len(ks) != 1 {
		t.Fatal(err)
	}
	r, err := ks[0].Resources(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.VGPRs != 12 || r.SGPRs != 24 || r.WaveSize != 64 || r.UserSGPRs != 2 || len(r.SGPRInputs) != 2 ||
		r.SGPRInputs[0] != (Input{"kernarg_segment_ptr", 2}) || r.SGPRInputs[1] != (Input{"workgroup_id_x", 1}) {
		t.Errorf("resources %+v", r)
	}
	if ks[0].EntryAddr%256 != 0 || ks[0].CodeSize != 4 {
		t.Errorf("entry %#x size %d", ks[0].EntryAddr, ks[0].CodeSize)
	}
	for _, fd := range f.Validate() {
		t.Errorf("unexpected finding %v", fd)
	}
	// Without a generic version the object is invalid (§1.3).
	bad, _ := Parse(genericObject(t, 0))
	found := false
	for _, fd := range bad.Validate() {
		found = found || (fd.Rule == "§1.3 generic-version" && fd.Off == 48 && fd.Severity == SeverityError)
	}
	if !found {
		t.Errorf("generic version 0 not reported: %v", bad.Validate())
	}
	// LLVM 15 predates V6, but must still read the file's structure and
	// print our metadata as we do.
	path := readelfOn(t, data)
	gold := parseGolden(t, path+".readelf.txt")
	checkSections(t, f, gold)
	checkSymbols(t, f, gold)
	checkMetadataYAML(t, f, gold)
}

// TestGFX12Descriptor decodes hand-made GFX12 (gfx1200) descriptor words,
// which LLVM 15 cannot produce: RSRC1 bit 21 is WG_RR_EN and bit 23
// (DISABLE_PERF) reserved; RSRC3 has INST_PREF_SIZE in bits 11:4 and GLG_EN
// in bit 13 (INVENTORY §4.3, §4.5c).
func TestGFX12Descriptor(t *testing.T) {
	p, err := target.Lookup("gfx1200")
	if err != nil {
		t.Fatal(err)
	}
	kd := &KernelDescriptor{
		ComputePgmRsrc1:      1<<21 | 1<<29 | 1<<30,
		ComputePgmRsrc3:      0xff<<4 | 1<<13,
		KernelCodeProperties: KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32,
	}
	want := map[string]uint32{"COMPUTE_PGM_RSRC1.WG_RR_EN": 1, "COMPUTE_PGM_RSRC1.DISABLE_PERF": 0, "COMPUTE_PGM_RSRC1.WGP_MODE": 1,
		"COMPUTE_PGM_RSRC1.MEM_ORDERED": 1, "COMPUTE_PGM_RSRC3.INST_PREF_SIZE": 0xff, "COMPUTE_PGM_RSRC3.GLG_EN": 1,
		"KERNEL_CODE_PROPERTIES.ENABLE_WAVEFRONT_SIZE32": 1}
	got := map[string]Field{}
	for _, f := range kd.Fields(p) {
		got[f.Word+"."+f.Name] = f
	}
	for k, v := range want {
		if f, ok := got[k]; !ok || f.Value != v {
			t.Errorf("%s = %+v, want %d", k, f, v)
		}
	}
	if _, ok := got["COMPUTE_PGM_RSRC1.ENABLE_DX10_CLAMP"]; ok {
		t.Errorf("GFX12 has no ENABLE_DX10_CLAMP")
	}
	if got["COMPUTE_PGM_RSRC1.DISABLE_PERF"].Rule != RuleReserved {
		t.Errorf("DISABLE_PERF should be reserved on GFX12")
	}
	r, err := kd.Resources(p)
	if err != nil || r.WaveSize != 32 || r.SGPRs != target.GFX10SGPRs {
		t.Errorf("resources %+v %v", r, err)
	}
	// A GFX9 reading of the same RSRC3 word is all reserved.
	g9, _ := target.Lookup("gfx900")
	for _, f := range kd.Fields(g9) {
		if f.Word == "COMPUTE_PGM_RSRC3" && (f.Name != "RESERVED" || f.Rule != RuleReserved) {
			t.Errorf("gfx900 RSRC3 field %+v", f)
		}
	}
}
