package target

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestTableSanity(t *testing.T) {
	names := map[string]bool{}
	machs := map[Mach]string{}
	for _, p := range Processors() {
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if names[n] {
				t.Errorf("name %q used twice", n)
			}
			names[n] = true
			q, err := Lookup(n)
			if err != nil || q != p {
				t.Errorf("Lookup(%q) = %v, %v; want %s", n, q, err, p.Name)
			}
		}
		if other, dup := machs[p.Mach]; dup {
			t.Errorf("%s and %s share %v", p.Name, other, p.Mach)
		}
		machs[p.Mach] = p.Name
		if q, err := ByMach(p.Mach); err != nil || q != p {
			t.Errorf("ByMach(%v) = %v, %v; want %s", p.Mach, q, err, p.Name)
		}
		if !p.Mach.Known() || strings.HasPrefix(p.Mach.String(), "EF_AMDGPU_MACH(") {
			t.Errorf("%s: MACH %#x has no C name", p.Name, uint32(p.Mach))
		}
		// The C name is the processor name upper-cased (generic: '-' → '_').
		wantSuffix := strings.ToUpper(strings.ReplaceAll(p.Name, "-", "_"))
		if !strings.HasSuffix(p.Mach.String(), "_"+wantSuffix) {
			t.Errorf("%s: MACH name %s does not end in _%s", p.Name, p.Mach, wantSuffix)
		}
		if !slices.IsSorted(p.Features) {
			t.Errorf("%s: features not sorted: %v", p.Name, p.Features)
		}
		for _, f := range p.DefaultOn {
			if !p.Supports(f) {
				t.Errorf("%s: default-on feature %s not supported", p.Name, f)
			}
		}
		switch p.Arch {
		case "r600":
			if !p.Mach.IsR600() || p.Executable || p.Family != R600 || len(p.WaveSizes) != 0 {
				t.Errorf("%s: bad r600 row %+v", p.Name, p)
			}
			if err := p.CheckExecutable(); !errors.Is(err, ErrNotSupported) {
				t.Errorf("%s: CheckExecutable = %v", p.Name, err)
			}
		case "amdgcn":
			if !p.Mach.IsAMDGCN() {
				t.Errorf("%s: MACH %v not in amdgcn range", p.Name, p.Mach)
			}
			if p.Major < 6 || int(p.Family) != p.Major-6+int(GFX6) {
				t.Errorf("%s: family %v does not match ISA major %d", p.Name, p.Family, p.Major)
			}
			if len(p.WaveSizes) == 0 || !p.SupportsWaveSize(p.DefaultWaveSize) {
				t.Errorf("%s: wave sizes %v default %d", p.Name, p.WaveSizes, p.DefaultWaveSize)
			}
			if p.Supports(FeatureWavefrontSize64) != (p.SupportsWaveSize(32) && p.SupportsWaveSize(64)) {
				t.Errorf("%s: wavefrontsize64 feature inconsistent with wave sizes %v", p.Name, p.WaveSizes)
			}
			if p.VGPRs == 0 || p.SGPRs == 0 || p.LDSSize == 0 || p.LDSGranule == 0 || p.VGPRGranule == 0 {
				t.Errorf("%s: missing limits %+v", p.Name, p)
			}
			if p.Family <= GFX9 && p.SGPRGranule != 8 || p.Family >= GFX10 && p.SGPRGranule != 0 {
				t.Errorf("%s: SGPR granule %d", p.Name, p.SGPRGranule)
			}
		default:
			t.Errorf("%s: arch %q", p.Name, p.Arch)
		}
		if p.Generic {
			if p.GenericVersion < 1 || len(p.Members) == 0 {
				t.Errorf("%s: generic without version or members", p.Name)
			}
			for _, m := range p.Members {
				mp := m.Processor
				if mp.Generic || mp.Family != p.Family || m.Version < 1 || m.Version > p.GenericVersion {
					t.Errorf("%s: bad member %s (version %d)", p.Name, mp.Name, m.Version)
				}
				// A generic processor must not promise a feature a member lacks.
				for _, f := range p.Features {
					if !mp.Supports(f) {
						t.Errorf("%s has %s but member %s does not", p.Name, f, mp.Name)
					}
				}
				if !slices.Contains(GenericsOf(mp), p) {
					t.Errorf("GenericsOf(%s) lacks %s", mp.Name, p.Name)
				}
				if mp.FlatScratch != p.FlatScratch && !(p.Name == "gfx9-generic") {
					t.Errorf("%s: member %s flat scratch %v vs %v", p.Name, mp.Name, mp.FlatScratch, p.FlatScratch)
				}
			}
		} else if len(p.Members) != 0 || p.GenericVersion != 0 {
			t.Errorf("%s: non-generic with members", p.Name)
		}
	}
	// Every named amdgcn/r600 MACH value except two newest generics
	// without published data has a processor.
	for m := range machNames {
		if m == EF_AMDGPU_MACH_NONE || m == EF_AMDGPU_MACH_AMDGCN_GFX11_7_GENERIC || m == EF_AMDGPU_MACH_AMDGCN_GFX13_GENERIC || m == EF_AMDGPU_MACH_AMDGCN_GFX1310 {
			if _, err := ByMach(m); err == nil {
				t.Errorf("ByMach(%v) unexpectedly found a processor", m)
			}
			continue
		}
		if _, ok := machs[m]; !ok {
			t.Errorf("%v has no processor", m)
		}
	}
}

func TestLookupErrors(t *testing.T) {
	for _, n := range []string{"", "gfx", "GFX90A", "gfx90a:xnack+", "gfx9-generic ", "generic", "generic-hsa", "gfx800"} {
		_, err := Lookup(n)
		if !errors.Is(err, ErrUnknownProcessor) || !strings.Contains(err.Error(), "\""+n+"\"") {
			t.Errorf("Lookup(%q) = %v", n, err)
		}
	}
	_, err := ByMach(0x027)
	if !errors.Is(err, ErrUnknownProcessor) || !strings.Contains(err.Error(), "0x027") {
		t.Errorf("ByMach(0x027) = %v", err)
	}
	_, err = ByMach(EF_AMDGPU_MACH_AMDGCN_GFX13_GENERIC)
	if !errors.Is(err, ErrUnknownProcessor) || !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "EF_AMDGPU_MACH_AMDGCN_GFX13_GENERIC") {
		t.Errorf("ByMach(GFX13_GENERIC) = %v", err)
	}
	if _, err := ByMach(EF_AMDGPU_MACH_NONE); !errors.Is(err, ErrUnknownProcessor) {
		t.Errorf("ByMach(NONE) = %v", err)
	}
	if _, err := ByISAVersion(9, 0, 11); !errors.Is(err, ErrUnknownProcessor) || !strings.Contains(err.Error(), "9.0.11") {
		t.Errorf("ByISAVersion(9,0,11) = %v", err)
	}
	if p, err := ByISAVersion(9, 0, 0); err != nil || p.Name != "gfx900" {
		t.Errorf("ByISAVersion(9,0,0) = %v, %v (generic must not shadow gfx900)", p, err)
	}
	if p, err := ByISAVersion(11, 0, 3); err != nil || p.Name != "gfx1103" {
		t.Errorf("ByISAVersion(11,0,3) = %v, %v", p, err)
	}
}

func TestMachString(t *testing.T) {
	cases := map[Mach]string{
		EF_AMDGPU_MACH_AMDGCN_GFX90A:         "EF_AMDGPU_MACH_AMDGCN_GFX90A",
		EF_AMDGPU_MACH_R600_TURKS:            "EF_AMDGPU_MACH_R600_TURKS",
		EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC: "EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC",
		0x027:                                "EF_AMDGPU_MACH(0x027)",
		0x0fe:                                "EF_AMDGPU_MACH(0x0fe)",
	}
	for m, want := range cases {
		if got := m.String(); got != want {
			t.Errorf("%#x.String() = %q, want %q", uint32(m), got, want)
		}
	}
	if Family(GFX11).String() != "GFX11" || R600.String() != "R600" || Family(99).String() != "Family(99)" {
		t.Error("Family.String")
	}
	if FlatScratchArchitected.String() != "architected" || FlatScratchOffset.String() != "offset" {
		t.Error("FlatScratch.String")
	}
}

// TestProcessorRows asserts whole rows for processors from each class, so a
// wrong class assignment or class value cannot pass unnoticed.
func TestProcessorRows(t *testing.T) {
	type row struct {
		name                       string
		mach                       Mach
		fam                        Family
		isa                        [3]int
		features                   []Feature
		waves                      []int
		defWave                    int
		lds, ldsGran               int
		vgprs, sgprs, agprs        int
		vgran, sgran               int
		unified                    bool
		flat                       FlatScratch
		preload, packed, exec, bug bool
	}
	rows := []row{
		{"gfx600", 0x020, GFX6, [3]int{6, 0, 0}, nil, []int{64}, 64, 32768, 256, 256, 104, 0, 4, 8, false, FlatScratchNone, false, false, true, false},
		{"gfx701", 0x023, GFX7, [3]int{7, 0, 1}, nil, []int{64}, 64, 65536, 512, 256, 104, 0, 4, 8, false, FlatScratchOffset, false, false, true, false},
		{"gfx801", 0x028, GFX8, [3]int{8, 0, 1}, []Feature{"xnack"}, []int{64}, 64, 65536, 512, 256, 102, 0, 4, 8, false, FlatScratchOffset, false, false, true, false},
		{"gfx802", 0x029, GFX8, [3]int{8, 0, 2}, nil, []int{64}, 64, 65536, 512, 256, 96, 0, 4, 8, false, FlatScratchOffset, false, false, true, true},
		{"gfx803", 0x02a, GFX8, [3]int{8, 0, 3}, nil, []int{64}, 64, 65536, 512, 256, 102, 0, 4, 8, false, FlatScratchOffset, false, false, true, false},
		{"gfx900", 0x02c, GFX9, [3]int{9, 0, 0}, []Feature{"xnack"}, []int{64}, 64, 65536, 512, 256, 102, 0, 4, 8, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx906", 0x02f, GFX9, [3]int{9, 0, 6}, []Feature{"sramecc", "xnack"}, []int{64}, 64, 65536, 512, 256, 102, 0, 4, 8, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx908", 0x030, GFX9, [3]int{9, 0, 8}, []Feature{"sramecc", "xnack"}, []int{64}, 64, 65536, 512, 256, 102, 256, 4, 8, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx90a", 0x03f, GFX9, [3]int{9, 0, 10}, []Feature{"sramecc", "tgsplit", "xnack"}, []int{64}, 64, 65536, 512, 256, 102, 256, 8, 8, true, FlatScratchAbsolute, true, true, true, false},
		{"gfx90c", 0x032, GFX9, [3]int{9, 0, 12}, []Feature{"xnack"}, []int{64}, 64, 65536, 512, 256, 102, 0, 4, 8, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx942", 0x04c, GFX9, [3]int{9, 4, 2}, []Feature{"sramecc", "tgsplit", "xnack"}, []int{64}, 64, 65536, 512, 256, 102, 256, 8, 8, true, FlatScratchArchitected, true, true, true, false},
		{"gfx950", 0x04f, GFX9, [3]int{9, 5, 0}, []Feature{"sramecc", "tgsplit", "xnack"}, []int{64}, 64, 163840, 1280, 256, 102, 256, 8, 8, true, FlatScratchArchitected, true, true, true, false},
		{"gfx1010", 0x033, GFX10, [3]int{10, 1, 0}, []Feature{"cumode", "wavefrontsize64", "xnack"}, []int{32, 64}, 32, 65536, 512, 256, 106, 0, 8, 0, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx1030", 0x036, GFX10, [3]int{10, 3, 0}, []Feature{"cumode", "wavefrontsize64"}, []int{32, 64}, 32, 65536, 512, 256, 106, 0, 8, 0, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx1100", 0x041, GFX11, [3]int{11, 0, 0}, []Feature{"cumode", "wavefrontsize64"}, []int{32, 64}, 32, 65536, 512, 256, 106, 0, 8, 0, false, FlatScratchArchitected, false, true, true, false},
		{"gfx1201", 0x04e, GFX12, [3]int{12, 0, 1}, []Feature{"cumode", "wavefrontsize64"}, []int{32, 64}, 32, 65536, 512, 256, 106, 0, 8, 0, false, FlatScratchArchitected, false, true, true, false},
		{"gfx1250", 0x049, GFX12, [3]int{12, 5, 0}, []Feature{"sramecc", "xnack"}, []int{32}, 32, 327680, 2048, 1024, 106, 0, 16, 0, false, FlatScratchArchitected, true, true, false, false},
		{"gfx9-generic", 0x051, GFX9, [3]int{9, 0, 0}, []Feature{"xnack"}, []int{64}, 64, 65536, 512, 256, 102, 0, 4, 8, false, FlatScratchAbsolute, false, false, true, false},
		{"gfx9-4-generic", 0x05f, GFX9, [3]int{9, 4, 0}, []Feature{"sramecc", "tgsplit", "xnack"}, []int{64}, 64, 65536, 512, 256, 102, 256, 8, 8, true, FlatScratchArchitected, true, true, true, false},
		{"gfx11-generic", 0x054, GFX11, [3]int{11, 0, 3}, []Feature{"cumode", "wavefrontsize64"}, []int{32, 64}, 32, 65536, 512, 256, 106, 0, 8, 0, false, FlatScratchArchitected, false, true, true, false},
	}
	for _, r := range rows {
		p, err := Lookup(r.name)
		if err != nil {
			t.Fatal(err)
		}
		got := row{p.Name, p.Mach, p.Family, [3]int{p.Major, p.Minor, p.Stepping}, p.Features, p.WaveSizes, p.DefaultWaveSize,
			p.LDSSize, p.LDSGranule, p.VGPRs, p.SGPRs, p.AGPRs, p.VGPRGranule, p.SGPRGranule, p.UnifiedVGPRFile, p.FlatScratch,
			p.KernargPreload, p.PackedWorkItemIDs, p.Executable, p.SGPRInitBug}
		if g, w := fmtRow(got), fmtRow(r); g != w {
			t.Errorf("%s:\n got %s\nwant %s", r.name, g, w)
		}
	}
}

func fmtRow(r any) string { return strings.ReplaceAll(sprint(r), "\n", " ") }

func TestSmallMethods(t *testing.T) {
	if err := proc(t, "gfx1250").CheckExecutable(); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "gfx1250") {
		t.Errorf("gfx1250 CheckExecutable = %v", err)
	}
	if err := proc(t, "gfx90a").CheckExecutable(); err != nil {
		t.Errorf("gfx90a CheckExecutable = %v", err)
	}
	if err := proc(t, "turks").CheckExecutable(); !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "r600 processors cannot run HSA code") {
		t.Errorf("turks CheckExecutable = %v", err)
	}
	if !proc(t, "gfx902").DefaultsOn(FeatureXNACK) || proc(t, "gfx900").DefaultsOn(FeatureXNACK) || !proc(t, "gfx908").DefaultsOn(FeatureSRAMECC) {
		t.Error("DefaultsOn")
	}
	var nilp *Processor
	if proc(t, "gfx90a").String() != "gfx90a" || nilp.String() != "<nil processor>" {
		t.Error("Processor.String")
	}
	if FeatureSetting(5).String() != "FeatureSetting(5)" || Any.String() != "any" || On.String() != "on" || Off.String() != "off" {
		t.Error("FeatureSetting.String")
	}
	if MaxFlatWorkGroupSize != 1024 {
		t.Error("MaxFlatWorkGroupSize")
	}
	if FlatScratch(9).String() != "FlatScratch(9)" || FlatScratchNone.String() != "none" || FlatScratchAbsolute.String() != "absolute" {
		t.Error("FlatScratch.String")
	}
	if (ID{}).String() != "----" || (ID{}).TargetID() != "" || (ID{}).LegacyString() != "----" || (ID{}).ISAName() != "" {
		t.Errorf("zero ID prints %q %q", ID{}.String(), ID{}.LegacyString())
	}
	if got := GenericsOf(proc(t, "gfx90a")); len(got) != 0 {
		t.Errorf("GenericsOf(gfx90a) = %v", got)
	}
	if got := GenericsOf(proc(t, "gfx942")); len(got) != 1 || got[0].Name != "gfx9-4-generic" {
		t.Errorf("GenericsOf(gfx942) = %v", got)
	}
}
