package target

import (
	"errors"
	"testing"
)

func proc(t *testing.T, n string) *Processor {
	t.Helper()
	p, err := Lookup(n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGranulatedVGPR checks the §4.2 formulas against values LLVM 15's
// assembler emits (llvm-mc-15 .amdhsa_next_free_vgpr N; rsrc1 bits 5:0):
// gfx900 N=9 → 2, gfx90a N=9 accum_offset 12 → 1, gfx1030 wave32 N=9 → 1.
func TestGranulatedVGPR(t *testing.T) {
	cases := []struct {
		proc        string
		v, a, w     int
		want        uint32
		wantAllocOf int // VGPRsFromGranulated(want)
	}{
		{"gfx900", 9, 0, 64, 2, 12},
		{"gfx900", 0, 0, 64, 0, 4},
		{"gfx900", 1, 0, 64, 0, 4},
		{"gfx900", 4, 0, 64, 0, 4},
		{"gfx900", 5, 0, 64, 1, 8},
		{"gfx900", 256, 0, 64, 63, 256},
		{"gfx600", 256, 0, 64, 63, 256},
		{"gfx908", 9, 0, 64, 2, 12},
		{"gfx908", 9, 20, 64, 4, 20}, // max(9, 20)
		{"gfx908", 256, 256, 64, 63, 256},
		{"gfx90a", 9, 0, 64, 1, 16},
		{"gfx90a", 9, 3, 64, 1, 16}, // align(9,4)+3 = 15
		{"gfx90a", 9, 5, 64, 2, 24}, // 12+5 = 17
		{"gfx90a", 1, 0, 64, 0, 8},
		{"gfx90a", 256, 256, 64, 63, 512},
		{"gfx942", 130, 100, 64, 28, 232}, // align(130,4)+100 = 232 → 232/8-1
		{"gfx1030", 9, 0, 32, 1, 16},
		{"gfx1030", 9, 0, 64, 2, 12},
		{"gfx1030", 256, 0, 32, 31, 256},
		{"gfx1030", 256, 0, 64, 63, 256},
		{"gfx1100", 24, 0, 32, 2, 24},
		{"gfx1250", 1024, 0, 32, 63, 1024},
	}
	for _, c := range cases {
		p := proc(t, c.proc)
		g, err := p.GranulatedVGPRCount(c.v, c.a, c.w)
		if err != nil || g != c.want {
			t.Errorf("%s.GranulatedVGPRCount(%d, %d, wave%d) = %d, %v; want %d", c.proc, c.v, c.a, c.w, g, err, c.want)
			continue
		}
		n, err := p.VGPRsFromGranulated(g, c.w)
		if err != nil || n != c.wantAllocOf {
			t.Errorf("%s.VGPRsFromGranulated(%d, wave%d) = %d, %v; want %d", c.proc, g, c.w, n, err, c.wantAllocOf)
		}
		if n < p.TotalVGPRs(c.v, c.a) {
			t.Errorf("%s: decoded %d < used %d", c.proc, n, p.TotalVGPRs(c.v, c.a))
		}
	}
	bad := []struct {
		proc    string
		v, a, w int
	}{
		{"gfx900", 257, 0, 64}, {"gfx900", 8, 1, 64}, {"gfx900", 8, 0, 32}, {"gfx90a", 8, 0, 32},
		{"gfx1250", 8, 0, 64}, {"gfx90a", 8, 257, 64}, {"gfx900", -1, 0, 64}, {"cayman", 1, 0, 64},
	}
	for _, b := range bad {
		if g, err := proc(t, b.proc).GranulatedVGPRCount(b.v, b.a, b.w); err == nil {
			t.Errorf("%s.GranulatedVGPRCount(%d, %d, %d) = %d, want error", b.proc, b.v, b.a, b.w, g)
		}
	}
	if _, err := proc(t, "gfx900").VGPRsFromGranulated(64, 64); err == nil {
		t.Error("granulated 64 accepted")
	}
	if _, err := proc(t, "gfx1030").VGPRsFromGranulated(32, 32); err == nil {
		t.Error("gfx1030 wave32 granulated 32 (264 VGPRs) accepted")
	}
	if _, err := proc(t, "gfx900").VGPRsFromGranulated(0, 32); !errors.Is(err, ErrNotSupported) {
		t.Errorf("wave32 on gfx900: %v", err)
	}
}

// TestSGPRGranuleGFX9MatchesLLVM15 pins the SGPR encoding to what LLVM 15
// emits (llvm-mc-15, .amdhsa_next_free_sgpr N with no reserved VCC,
// flat_scratch or xnack_mask): N = 1,8,9,16,17,24,25,33 → 0,0,1,1,2,2,3,4
// on gfx701, gfx803, gfx900 and gfx90a. INVENTORY §4.2 gives
// 2*max(0, ceil(N/16)-1) for GFX9, which would be 0,0,0,0,2,2,2,4: LLVM is
// the golden. gfx802 and gfx805 (SGPR init bug) always give 11.
func TestSGPRGranuleGFX9MatchesLLVM15(t *testing.T) {
	ns := []int{1, 8, 9, 16, 17, 24, 25, 33}
	want := []uint32{0, 0, 1, 1, 2, 2, 3, 4}
	for _, name := range []string{"gfx701", "gfx803", "gfx900", "gfx90a", "gfx600", "gfx942"} {
		p := proc(t, name)
		for i, n := range ns {
			g, err := p.GranulatedSGPRCount(n)
			if err != nil || g != want[i] {
				t.Errorf("%s.GranulatedSGPRCount(%d) = %d, %v; want %d", name, n, g, err, want[i])
			}
			if d, _ := p.SGPRsFromGranulated(g); d < n || d != int(g+1)*8 {
				t.Errorf("%s.SGPRsFromGranulated(%d) = %d", name, g, d)
			}
		}
	}
	for _, name := range []string{"gfx802", "gfx805"} {
		p := proc(t, name)
		for _, n := range ns {
			if g, err := p.GranulatedSGPRCount(n); err != nil || g != 11 {
				t.Errorf("%s.GranulatedSGPRCount(%d) = %d, %v; want 11", name, n, g, err)
			}
		}
		if _, err := p.GranulatedSGPRCount(97); err == nil {
			t.Errorf("%s: 97 SGPRs accepted", name)
		}
		if d, _ := p.SGPRsFromGranulated(11); d != 96 {
			t.Errorf("%s: SGPRsFromGranulated(11) = %d", name, d)
		}
	}
	for _, name := range []string{"gfx1030", "gfx1100", "gfx1201"} {
		p := proc(t, name)
		if g, err := p.GranulatedSGPRCount(100); err != nil || g != 0 {
			t.Errorf("%s: GranulatedSGPRCount = %d, %v; want 0 (reserved)", name, g, err)
		}
		if d, err := p.SGPRsFromGranulated(0); err != nil || d != 128 {
			t.Errorf("%s: SGPRsFromGranulated(0) = %d, %v", name, d, err)
		}
		if _, err := p.SGPRsFromGranulated(1); err == nil {
			t.Errorf("%s: non-zero reserved SGPR field accepted", name)
		}
	}
	p := proc(t, "gfx900")
	if g, err := p.GranulatedSGPRCount(128); err != nil || g != 15 {
		t.Errorf("128 SGPRs: %d %v", g, err)
	}
	if _, err := p.GranulatedSGPRCount(129); err == nil {
		t.Error("129 SGPRs accepted")
	}
	if _, err := p.SGPRsFromGranulated(16); err == nil {
		t.Error("granulated SGPR 16 accepted")
	}
	if _, err := proc(t, "cayman").GranulatedSGPRCount(1); !errors.Is(err, ErrNotSupported) {
		t.Error("r600 SGPR count accepted")
	}
}

// TestLDSGranule pins §4.2: GFX6 64 dwords, GFX7+ 128 dwords, gfx950 320
// dwords, GFX12.5 512 dwords per GRANULATED_LDS_SIZE unit.
func TestLDSGranule(t *testing.T) {
	cases := []struct {
		proc  string
		bytes int
		want  uint32
	}{
		{"gfx600", 0, 0}, {"gfx600", 1, 1}, {"gfx600", 256, 1}, {"gfx600", 257, 2}, {"gfx600", 32768, 128},
		{"gfx700", 512, 1}, {"gfx700", 513, 2}, {"gfx90a", 65536, 128}, {"gfx1100", 1000, 2},
		{"gfx950", 1280, 1}, {"gfx950", 163840, 128}, {"gfx1250", 2048, 1}, {"gfx1250", 327680, 160},
	}
	for _, c := range cases {
		p := proc(t, c.proc)
		g, err := p.GranulatedLDSSize(c.bytes)
		if err != nil || g != c.want {
			t.Errorf("%s.GranulatedLDSSize(%d) = %d, %v; want %d", c.proc, c.bytes, g, err, c.want)
		}
		if n, err := p.LDSFromGranulated(g); err != nil || n < c.bytes || n-c.bytes >= p.LDSGranule {
			t.Errorf("%s.LDSFromGranulated(%d) = %d, %v", c.proc, g, n, err)
		}
	}
	if _, err := proc(t, "gfx900").GranulatedLDSSize(65537); err == nil {
		t.Error("65537 bytes accepted on gfx900")
	}
	if _, err := proc(t, "gfx900").LDSFromGranulated(129); err == nil {
		t.Error("129 LDS granules accepted on gfx900")
	}
	if _, err := proc(t, "r600").GranulatedLDSSize(1); !errors.Is(err, ErrNotSupported) {
		t.Error("r600 LDS accepted")
	}
}

// TestExtraSGPRs pins LLVM's getNumExtraSGPRs, as TestGranulesMatchLLVM15
// observed it through llvm-mc-15 (gfx600 always counts flat scratch: 4;
// gfx940 always 6, architected flat scratch).
func TestExtraSGPRs(t *testing.T) {
	cases := []struct {
		proc             string
		vcc, flat, xnack bool
		want             int
	}{
		{"gfx600", false, false, false, 0}, {"gfx600", true, false, false, 2}, {"gfx600", true, true, false, 4},
		{"gfx701", false, true, false, 4}, {"gfx701", true, false, true, 2},
		{"gfx803", true, false, false, 2}, {"gfx803", false, false, true, 4}, {"gfx803", true, true, true, 6},
		{"gfx900", false, true, false, 6}, {"gfx90a", true, false, true, 4},
		{"gfx940", false, false, false, 6}, {"gfx940", true, false, true, 6},
		{"gfx1030", true, true, true, 2}, {"gfx1030", false, true, true, 0}, {"gfx1100", true, false, false, 2},
		{"cayman", true, true, true, 2},
	}
	for _, c := range cases {
		if got := proc(t, c.proc).ExtraSGPRs(c.vcc, c.flat, c.xnack); got != c.want {
			t.Errorf("%s.ExtraSGPRs(vcc=%v, flat=%v, xnack=%v) = %d, want %d", c.proc, c.vcc, c.flat, c.xnack, got, c.want)
		}
	}
}
