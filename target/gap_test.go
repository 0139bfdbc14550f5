package target

import (
	"slices"
	"testing"
)

// Tests in this file pin values that spec/INVENTORY.md marks [GAP]: the
// seeds do not contain them, INVENTORY took them from upstream. Each names
// its source.

// TestMachGapValues pins EF_AMDGPU_MACH values ≥ 0x038 and gfx90c's 0x032
// (S1 says reserved). Source: INVENTORY §1.4, from LLVM
// llvm/include/llvm/BinaryFormat/ELF.h (LLVM 20.1 and newest upstream).
func TestMachGapValues(t *testing.T) {
	want := map[string]Mach{
		"gfx90c": 0x032, "gfx1032": 0x038, "gfx1033": 0x039, "gfx602": 0x03a, "gfx705": 0x03b,
		"gfx805": 0x03c, "gfx1035": 0x03d, "gfx1034": 0x03e, "gfx90a": 0x03f, "gfx940": 0x040,
		"gfx1100": 0x041, "gfx1013": 0x042, "gfx1150": 0x043, "gfx1103": 0x044, "gfx1036": 0x045,
		"gfx1101": 0x046, "gfx1102": 0x047, "gfx1200": 0x048, "gfx1250": 0x049, "gfx1151": 0x04a,
		"gfx941": 0x04b, "gfx942": 0x04c, "gfx1201": 0x04e, "gfx950": 0x04f,
		"gfx9-generic": 0x051, "gfx10-1-generic": 0x052, "gfx10-3-generic": 0x053, "gfx11-generic": 0x054,
		"gfx1152": 0x055, "gfx1154": 0x057, "gfx1153": 0x058, "gfx12-generic": 0x059, "gfx1251": 0x05a,
		"gfx12-5-generic": 0x05b, "gfx1172": 0x05c, "gfx1170": 0x05d, "gfx1171": 0x05e, "gfx9-4-generic": 0x05f,
	}
	for name, m := range want {
		p, err := Lookup(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Mach != m {
			t.Errorf("%s: MACH %#x, want %#x", name, uint32(p.Mach), uint32(m))
		}
	}
	if EF_AMDGPU_MACH_AMDGCN_GFX1310 != 0x050 || EF_AMDGPU_MACH_AMDGCN_GFX11_7_GENERIC != 0x062 || EF_AMDGPU_MACH_AMDGCN_GFX13_GENERIC != 0x063 {
		t.Error("newest upstream MACH values changed")
	}
}

// TestS1MachValues pins the values the old guide gives exactly (S1:772-822).
func TestS1MachValues(t *testing.T) {
	want := []struct {
		name string
		m    Mach
	}{
		{"r600", 0x001}, {"r630", 0x002}, {"rs880", 0x003}, {"rv670", 0x004}, {"rv710", 0x005},
		{"rv730", 0x006}, {"rv770", 0x007}, {"cedar", 0x008}, {"cypress", 0x009}, {"juniper", 0x00a},
		{"redwood", 0x00b}, {"sumo", 0x00c}, {"barts", 0x00d}, {"caicos", 0x00e}, {"cayman", 0x00f},
		{"turks", 0x010}, {"gfx600", 0x020}, {"gfx601", 0x021}, {"gfx700", 0x022}, {"gfx701", 0x023},
		{"gfx702", 0x024}, {"gfx703", 0x025}, {"gfx704", 0x026}, {"gfx801", 0x028}, {"gfx802", 0x029},
		{"gfx803", 0x02a}, {"gfx810", 0x02b}, {"gfx900", 0x02c}, {"gfx902", 0x02d}, {"gfx904", 0x02e},
		{"gfx906", 0x02f}, {"gfx908", 0x030}, {"gfx909", 0x031}, {"gfx1010", 0x033}, {"gfx1011", 0x034},
		{"gfx1012", 0x035}, {"gfx1030", 0x036}, {"gfx1031", 0x037},
	}
	for _, w := range want {
		p, err := Lookup(w.name)
		if err != nil || p.Mach != w.m {
			t.Errorf("%s: %v %v, want %#x", w.name, p, err, uint32(w.m))
		}
	}
}

// TestS1ProcessorTable pins the old guide's processor table (S1:92-280):
// alternative names and the features with "[on]" defaults, except where
// upstream changed it (hainan/oland → gfx602; gfx802/gfx803 lost xnack).
func TestS1ProcessorTable(t *testing.T) {
	aliases := map[string][]string{
		"gfx600": {"tahiti"}, "gfx601": {"pitcairn", "verde"}, "gfx602": {"hainan", "oland"},
		"gfx700": {"kaveri"}, "gfx701": {"hawaii"}, "gfx703": {"kabini", "mullins"}, "gfx704": {"bonaire"},
		"gfx801": {"carrizo"}, "gfx802": {"iceland", "tonga"}, "gfx803": {"fiji", "polaris10", "polaris11"},
		"gfx805": {"tongapro"}, "gfx810": {"stoney"},
	}
	for name, al := range aliases {
		p, _ := Lookup(name)
		if !slices.Equal(p.Aliases, al) {
			t.Errorf("%s aliases %v, want %v", name, p.Aliases, al)
		}
	}
	defaultsOn := map[string][]Feature{
		"gfx801": {FeatureXNACK}, "gfx810": {FeatureXNACK}, "gfx902": {FeatureXNACK}, "gfx909": {FeatureXNACK},
		"gfx908": {FeatureSRAMECC},
	}
	for _, p := range Processors() {
		if !slices.Equal(p.DefaultOn, defaultsOn[p.Name]) {
			t.Errorf("%s: DefaultOn %v, want %v", p.Name, p.DefaultOn, defaultsOn[p.Name])
		}
	}
}

// TestGapProcessors pins ISA versions and target-ID features of processors
// after gfx1031 and the generic processors. Source: INVENTORY §3.3/§3.4,
// LLVM llvm/include/llvm/TargetParser/AMDGPUTargetParser.def.
func TestGapProcessors(t *testing.T) {
	type g struct {
		isa   [3]int
		feats []Feature
	}
	want := map[string]g{
		"gfx602": {[3]int{6, 0, 2}, nil}, "gfx705": {[3]int{7, 0, 5}, nil}, "gfx805": {[3]int{8, 0, 5}, nil},
		"gfx90a": {[3]int{9, 0, 10}, []Feature{"sramecc", "xnack"}}, "gfx90c": {[3]int{9, 0, 12}, []Feature{"xnack"}},
		"gfx940": {[3]int{9, 4, 0}, []Feature{"sramecc", "xnack"}}, "gfx941": {[3]int{9, 4, 1}, []Feature{"sramecc", "xnack"}},
		"gfx942": {[3]int{9, 4, 2}, []Feature{"sramecc", "xnack"}}, "gfx950": {[3]int{9, 5, 0}, []Feature{"sramecc", "xnack"}},
		"gfx1013": {[3]int{10, 1, 3}, []Feature{"xnack"}},
		"gfx1032": {[3]int{10, 3, 2}, nil}, "gfx1033": {[3]int{10, 3, 3}, nil}, "gfx1034": {[3]int{10, 3, 4}, nil},
		"gfx1035": {[3]int{10, 3, 5}, nil}, "gfx1036": {[3]int{10, 3, 6}, nil},
		"gfx1100": {[3]int{11, 0, 0}, nil}, "gfx1101": {[3]int{11, 0, 1}, nil}, "gfx1102": {[3]int{11, 0, 2}, nil},
		"gfx1103": {[3]int{11, 0, 3}, nil}, "gfx1150": {[3]int{11, 5, 0}, nil}, "gfx1151": {[3]int{11, 5, 1}, nil},
		"gfx1152": {[3]int{11, 5, 2}, nil}, "gfx1153": {[3]int{11, 5, 3}, nil}, "gfx1154": {[3]int{11, 5, 4}, nil},
		"gfx1170": {[3]int{11, 7, 0}, nil}, "gfx1171": {[3]int{11, 7, 1}, nil}, "gfx1172": {[3]int{11, 7, 2}, nil},
		"gfx1200": {[3]int{12, 0, 0}, nil}, "gfx1201": {[3]int{12, 0, 1}, nil},
		"gfx1250": {[3]int{12, 5, 0}, []Feature{"sramecc", "xnack"}}, "gfx1251": {[3]int{12, 5, 1}, []Feature{"sramecc", "xnack"}},
		"gfx9-generic": {[3]int{9, 0, 0}, []Feature{"xnack"}}, "gfx9-4-generic": {[3]int{9, 4, 0}, []Feature{"sramecc", "xnack"}},
		"gfx10-1-generic": {[3]int{10, 1, 0}, []Feature{"xnack"}}, "gfx10-3-generic": {[3]int{10, 3, 0}, nil},
		"gfx11-generic": {[3]int{11, 0, 3}, nil}, "gfx12-generic": {[3]int{12, 0, 0}, nil},
		"gfx12-5-generic": {[3]int{12, 5, 0}, []Feature{"xnack"}},
	}
	for name, w := range want {
		p, err := Lookup(name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if got := [3]int{p.Major, p.Minor, p.Stepping}; got != w.isa {
			t.Errorf("%s: ISA %v, want %v", name, got, w.isa)
		}
		if got := p.IDFeatures(); !slices.Equal(got, w.feats) {
			t.Errorf("%s: target-ID features %v, want %v", name, got, w.feats)
		}
	}
}

// TestGenericMembers pins the generic processors' members and the version
// each was added in. Source: INVENTORY §3.4 (AMDGPUUsage "Generic
// Processors", LLVM 20.1; gfx12-5-generic newest upstream) and
// llvm::AMDGPU::GenericVersion (every family is at version 1, so every
// member was added in version 1).
func TestGenericMembers(t *testing.T) {
	want := map[string][]string{
		"gfx9-generic":    {"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"},
		"gfx9-4-generic":  {"gfx940", "gfx941", "gfx942", "gfx950"},
		"gfx10-1-generic": {"gfx1010", "gfx1011", "gfx1012", "gfx1013"},
		"gfx10-3-generic": {"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"},
		"gfx11-generic":   {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"},
		"gfx12-generic":   {"gfx1200", "gfx1201"},
		"gfx12-5-generic": {"gfx1250", "gfx1251"},
	}
	n := 0
	for _, p := range Processors() {
		if !p.Generic {
			continue
		}
		n++
		var got []string
		for _, m := range p.Members {
			got = append(got, m.Processor.Name)
			if m.Version != 1 {
				t.Errorf("%s: %s added in version %d, want 1", p.Name, m.Processor.Name, m.Version)
			}
		}
		if !slices.Equal(got, want[p.Name]) {
			t.Errorf("%s members %v, want %v", p.Name, got, want[p.Name])
		}
		if p.GenericVersion != 1 {
			t.Errorf("%s: generic version %d, want 1", p.Name, p.GenericVersion)
		}
	}
	if n != len(want) {
		t.Errorf("%d generic processors, want %d", n, len(want))
	}
}

// TestR600Aliases pins the r600 alternative names, which no seed lists.
// Source: LLVM AMDGPUTargetParser.def (R600_GPU_ALIAS).
func TestR600Aliases(t *testing.T) {
	want := map[string]string{"rv630": "r600", "rv635": "r600", "rs780": "rs880", "rv610": "rs880", "rv620": "rs880",
		"rv740": "rv770", "palm": "cedar", "hemlock": "cypress", "sumo2": "sumo", "aruba": "cayman"}
	for a, n := range want {
		p, err := Lookup(a)
		if err != nil || p.Name != n {
			t.Errorf("Lookup(%s) = %v, %v; want %s", a, p, err, n)
		}
	}
}
