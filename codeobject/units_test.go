package codeobject

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestV2NotesMatchReadelf decodes the V2 binary notes of every V2 golden
// object and prints them as llvm-readelf-15 does.
func TestV2NotesMatchReadelf(t *testing.T) {
	n := 0
	for _, path := range goldenObjects(t) {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Version() != V2 {
			continue
		}
		g := parseGolden(t, path+".readelf.txt")
		notes, err := f.Notes()
		if err != nil {
			t.Fatal(err)
		}
		for i := range notes {
			nt := &notes[i]
			var want string
			switch nt.Type {
			case NT_AMD_HSA_CODE_OBJECT_VERSION:
				v, err := ParseCodeObjectVersionNote(nt)
				if err != nil {
					t.Fatal(err)
				}
				want = fmt.Sprintf("    AMD HSA Code Object Version:\n        [Major: %d, Minor: %d]\n", v.Major, v.Minor)
			case NT_AMD_HSA_ISA_VERSION:
				v, err := ParseISAVersionNote(nt)
				if err != nil {
					t.Fatal(err)
				}
				want = fmt.Sprintf("    AMD HSA ISA Version:\n        [Vendor: %s, Architecture: %s, Major: %d, Minor: %d, Stepping: %d]\n",
					v.Vendor, v.Architecture, v.Major, v.Minor, v.Stepping)
			case NT_AMD_HSA_ISA_NAME:
				want = "    AMD HSA ISA Name:\n        " + string(nt.Desc) + "\n"
			default:
				continue
			}
			n++
			head := fmt.Sprintf("  AMD                  0x%08x\t%s (", len(nt.Desc), nt.Type.Name("AMD"))
			if !strings.Contains(g.text, want) || !strings.Contains(g.text, head) {
				t.Errorf("%s: note %v: llvm-readelf does not print\n%s%s", path, nt, head, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no V2 notes checked")
	}
}

// TestAMDKernelCodeRoundTrip: amd_kernel_code_t of every V2 kernel encodes
// back to its bytes, and its counts agree with the V2 metadata.
func TestAMDKernelCodeRoundTrip(t *testing.T) {
	n := 0
	for _, path := range goldenObjects(t) {
		f, _ := Open(path)
		if f == nil || f.Version() != V2 {
			continue
		}
		ks, err := f.Kernels()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range ks {
			if k.KernelCode == nil {
				t.Fatalf("%s: V2 kernel %s without amd_kernel_code_t", path, k.Name)
			}
			n++
			raw := f.Data()[k.DescriptorOff : k.DescriptorOff+AMDKernelCodeSize]
			if !bytes.Equal(EncodeAMDKernelCode(k.KernelCode), raw) {
				t.Errorf("%s: %s: amd_kernel_code_t does not round-trip", path, k.Name)
			}
			c := k.KernelCode
			if c.AMDKernelCodeVersionMajor != 1 || c.KernelCodeEntryByteOffset != 256 || c.WavefrontSize != 6 {
				t.Errorf("%s: %s: version %d entry %d wave 2^%d", path, k.Name, c.AMDKernelCodeVersionMajor, c.KernelCodeEntryByteOffset, c.WavefrontSize)
			}
			if m := k.Meta; m != nil && (uint64(c.WavefrontSGPRCount) != m.SGPRCount || uint64(c.WorkitemVGPRCount) != m.VGPRCount) {
				t.Errorf("%s: %s: amd_kernel_code_t counts %d/%d, metadata %d/%d", path, k.Name, c.WavefrontSGPRCount, c.WorkitemVGPRCount, m.SGPRCount, m.VGPRCount)
			}
		}
	}
	if n == 0 {
		t.Fatal("no V2 kernels checked")
	}
}

// TestDecodeFlags pins e_flags decoding per version (INVENTORY §1.3): the
// same bits mean different things in V3 and V4+.
func TestDecodeFlags(t *testing.T) {
	cases := []struct {
		raw   uint32
		v     Version
		mach  uint32
		xnack Feature
		sram  Feature
		gen   uint8
		names string
	}{
		{0x12c, V2, 0x2c, FeatureOn, FeatureOff, 0, "EF_AMDGPU_FEATURE_XNACK_V3"},                                // LLVM's V2 objects
		{0x003, V2, 0, FeatureOn, FeatureOff, 0, "EF_AMDGPU_FEATURE_XNACK_V2 EF_AMDGPU_FEATURE_TRAP_HANDLER_V2"}, // Finalizer layout
		{0x33f, V3, 0x3f, FeatureOn, FeatureOn, 0, "EF_AMDGPU_FEATURE_XNACK_V3 EF_AMDGPU_FEATURE_SRAMECC_V3"},
		{0x23f, V3, 0x3f, FeatureOff, FeatureOn, 0, "EF_AMDGPU_FEATURE_SRAMECC_V3"},
		{0x23f, V4, 0x3f, FeatureOff, FeatureUnsupported, 0, "EF_AMDGPU_FEATURE_XNACK_OFF_V4 EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4"},
		{0x53f, V5, 0x3f, FeatureAny, FeatureAny, 0, "EF_AMDGPU_FEATURE_XNACK_ANY_V4 EF_AMDGPU_FEATURE_SRAMECC_ANY_V4"},
		{0xf3f, V5, 0x3f, FeatureOn, FeatureOn, 0, "EF_AMDGPU_FEATURE_XNACK_ON_V4 EF_AMDGPU_FEATURE_SRAMECC_ON_V4"},
		{0x02000151, V6, 0x51, FeatureAny, FeatureUnsupported, 2, "EF_AMDGPU_FEATURE_XNACK_ANY_V4 EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4 EF_AMDGPU_GENERIC_VERSION_V2"},
		{0x02000151, V5, 0x51, FeatureAny, FeatureUnsupported, 0, "EF_AMDGPU_FEATURE_XNACK_ANY_V4 EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4 unknown(0x2000000)"},
	}
	for _, c := range cases {
		fl := DecodeFlags(c.raw, c.v)
		if fl.Mach != c.mach || fl.XNACK != c.xnack || fl.SRAMECC != c.sram || fl.GenericVersion != c.gen || strings.Join(fl.Names(), " ") != c.names {
			t.Errorf("%#x %v: %+v %v", c.raw, c.v, fl, fl.Names())
		}
		if fl.Encode() != c.raw {
			t.Errorf("%#x %v: encodes to %#x", c.raw, c.v, fl.Encode())
		}
	}
}

// TestRelocCompute pins each R_AMDGPU_* calculation (INVENTORY §1.8).
func TestRelocCompute(t *testing.T) {
	in := RelocInputs{S: 0x1_2345_6000, A: 0x10, P: 0x1000, B: 0x7f00_0000_0000, G: 0x40, GOT: 0x2000}
	cases := []struct {
		t    RelocType
		want uint64
		size int
	}{
		{R_AMDGPU_NONE, 0, 0},
		{R_AMDGPU_ABS32_LO, 0x2345_6010, 4},
		{R_AMDGPU_ABS32_HI, 0x1, 4},
		{R_AMDGPU_ABS64, 0x1_2345_6010, 8},
		{R_AMDGPU_REL32, 0x1_2345_5010, 4},
		{R_AMDGPU_REL64, 0x1_2345_5010, 8},
		{R_AMDGPU_ABS32, 0x1_2345_6010, 4},
		{R_AMDGPU_GOTPCREL, 0x1050, 4},
		{R_AMDGPU_GOTPCREL32_LO, 0x1050, 4},
		{R_AMDGPU_GOTPCREL32_HI, 0, 4},
		{R_AMDGPU_REL32_LO, 0x2345_5010, 4},
		{R_AMDGPU_REL32_HI, 0x1, 4},
		{R_AMDGPU_RELATIVE64, 0x7f00_0000_0010, 8},
		{R_AMDGPU_REL16, (0x1_2345_5010 - 4) / 4, 2},
	}
	for _, c := range cases {
		got, err := c.t.Compute(in)
		if err != nil || got != c.want || c.t.FieldSize() != c.size || !c.t.Known() || !strings.HasPrefix(c.t.String(), "R_AMDGPU_") {
			t.Errorf("%v: %#x %v size %d, want %#x size %d", c.t, got, err, c.t.FieldSize(), c.want, c.size)
		}
	}
	field := make([]byte, 8)
	if err := R_AMDGPU_RELATIVE64.Apply(field, in); err != nil || le.Uint64(field) != 0x7f00_0000_0010 {
		t.Errorf("Apply RELATIVE64: %x %v", field, err)
	}
	if RelocType(12).Known() || RelocType(99).String() != "R_AMDGPU_(99)" {
		t.Errorf("unknown relocation types")
	}
	if _, err := RelocType(12).Compute(in); err == nil {
		t.Errorf("reserved type 12 computes")
	}
}

// TestBinaryNoteLayouts pins the V2 descriptor layouts of INVENTORY §1.6
// that no LLVM object carries (NT_AMD_HSA_HSAIL) and the bounds checks.
func TestBinaryNoteLayouts(t *testing.T) {
	hsail := &Note{Name: "AMD", Type: NT_AMD_HSA_HSAIL, Desc: []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0}, DescOff: 100}
	h, err := ParseHSAILNote(hsail)
	if err != nil || h != (HSAILNote{Major: 1, Minor: 0, Profile: 1, MachineModel: 1, DefaultFloatRound: 0}) {
		t.Errorf("HSAIL note %+v %v", h, err)
	}
	isa := &Note{Name: "AMD", Type: NT_AMD_HSA_ISA_VERSION, Desc: append([]byte{4, 0, 7, 0, 9, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0}, "AMD\x00AMDGPU\x00"...)}
	v, err := ParseISAVersionNote(isa)
	if err != nil || v.ISAName() != "AMD:AMDGPU:9:0:6" {
		t.Errorf("ISA note %+v %v", v, err)
	}
	for _, bad := range []*Note{
		{Type: NT_AMD_HSA_HSAIL, Desc: []byte{1, 2, 3}, DescOff: 100},
		{Type: NT_AMD_HSA_ISA_VERSION, Desc: append([]byte{40, 0, 7, 0}, make([]byte, 20)...), DescOff: 100},
	} {
		var err error
		if bad.Type == NT_AMD_HSA_HSAIL {
			_, err = ParseHSAILNote(bad)
		} else {
			_, err = ParseISAVersionNote(bad)
		}
		if fe, ok := err.(*FormatError); !ok || fe.Off != 100 {
			t.Errorf("%v: %v", bad.Type.Name("AMD"), err)
		}
	}
}
