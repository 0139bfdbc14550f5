package target

import (
	"errors"
	"strings"
	"testing"
)

// settingsCombos returns every assignment of Any/On/Off to feats.
func settingsCombos(feats []Feature) []map[Feature]FeatureSetting {
	out := []map[Feature]FeatureSetting{{}}
	for _, f := range feats {
		var next []map[Feature]FeatureSetting
		for _, m := range out {
			for _, s := range []FeatureSetting{Any, On, Off} {
				c := map[Feature]FeatureSetting{}
				for k, v := range m {
					c[k] = v
				}
				if s != Any {
					c[f] = s
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

func TestIDRoundTripEveryProcessorAndFeatureCombination(t *testing.T) {
	n := 0
	for _, p := range Processors() {
		triple := "amdgcn-amd-amdhsa-"
		if p.Arch == "r600" {
			triple = "r600-amd--"
		}
		for _, combo := range settingsCombos(p.IDFeatures()) {
			// Canonical text built independently of ID.String.
			canon := p.Name
			var rev []string // the same features in reverse (non-canonical) order
			for _, f := range p.IDFeatures() {
				if s, ok := combo[f]; ok {
					suf := map[FeatureSetting]string{On: "+", Off: "-"}[s]
					canon += ":" + string(f) + suf
					rev = append([]string{":" + string(f) + suf}, rev...)
				}
			}
			full := triple + "-" + canon
			for _, in := range []string{full, canon, triple + "-" + p.Name + strings.Join(rev, ""), p.Name + strings.Join(rev, "")} {
				id, err := ParseID(in)
				if err != nil {
					t.Errorf("ParseID(%q): %v", in, err)
					continue
				}
				n++
				if id.Processor != p || id.Legacy {
					t.Errorf("ParseID(%q) processor %v legacy %v", in, id.Processor, id.Legacy)
				}
				for _, f := range p.IDFeatures() {
					if id.Setting(f) != combo[f] {
						t.Errorf("ParseID(%q): %s = %v, want %v", in, f, id.Setting(f), combo[f])
					}
				}
				if got := id.String(); got != full {
					t.Errorf("ParseID(%q).String() = %q, want %q", in, got, full)
				}
				if got := id.TargetID(); got != canon {
					t.Errorf("ParseID(%q).TargetID() = %q, want %q", in, got, canon)
				}
				again, err := ParseID(id.String())
				if err != nil || again.String() != full {
					t.Errorf("reparse of %q: %v, %v", full, again, err)
				}
			}
			// Alternative names are accepted and canonicalised.
			for _, a := range p.Aliases {
				in := a + strings.Join(rev, "")
				id, err := ParseID(in)
				if err != nil || id.String() != full {
					t.Errorf("ParseID(%q) = %v, %v; want %q", in, id, err, full)
				}
			}
		}
	}
	if n < 700 {
		t.Errorf("only %d round trips", n)
	}
}

func TestLegacyIDRoundTrip(t *testing.T) {
	for _, p := range Processors() {
		if p.Arch != "amdgcn" {
			continue
		}
		var feats []Feature
		for _, f := range legacyFeatureOrder {
			if p.Supports(f) {
				feats = append(feats, f)
			}
		}
		for mask := 0; mask < 1<<len(feats); mask++ {
			s := "amdgcn-amd-amdhsa--" + p.Name
			on := map[Feature]bool{}
			for i, f := range feats {
				if mask&(1<<i) != 0 {
					s += "+" + f.LegacyName()
					on[f] = true
				}
			}
			if mask == 0 {
				continue // no '+': the V4+ reading (all Any) applies
			}
			id, err := ParseID(s)
			if err != nil {
				t.Errorf("ParseID(%q): %v", s, err)
				continue
			}
			if !id.Legacy || id.LegacyString() != s {
				t.Errorf("ParseID(%q).LegacyString() = %q legacy=%v", s, id.LegacyString(), id.Legacy)
			}
			for _, f := range p.IDFeatures() {
				want := Off
				if on[f] {
					want = On
				}
				if id.Setting(f) != want {
					t.Errorf("ParseID(%q): %s = %v, want %v", s, f, id.Setting(f), want)
				}
			}
			bare := strings.TrimPrefix(s, "amdgcn-amd-amdhsa--")
			if id2, err := ParseID(bare); err != nil || id2.LegacyString() != s {
				t.Errorf("ParseID(%q) = %v, %v", bare, id2.LegacyString(), err)
			}
		}
	}
}

func TestIDForms(t *testing.T) {
	cases := []struct {
		in, str, legacy, isa string
	}{
		{"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx90a+sram-ecc", "AMD:AMDGPU:9:0:10"},
		{"amdgcn-amd-amdhsa--gfx90a:xnack-:sramecc+", "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx90a+sram-ecc", "AMD:AMDGPU:9:0:10"},
		{"gfx90a:xnack+", "amdgcn-amd-amdhsa--gfx90a:xnack+", "amdgcn-amd-amdhsa--gfx90a+xnack", "AMD:AMDGPU:9:0:10"},
		{"gfx90a", "amdgcn-amd-amdhsa--gfx90a", "amdgcn-amd-amdhsa--gfx90a", "AMD:AMDGPU:9:0:10"},
		{"gfx902+xnack", "amdgcn-amd-amdhsa--gfx902:xnack+", "amdgcn-amd-amdhsa--gfx902+xnack", "AMD:AMDGPU:9:0:3"},
		{"amdgcn-amd-amdhsa--gfx902+xnack", "amdgcn-amd-amdhsa--gfx902:xnack+", "amdgcn-amd-amdhsa--gfx902+xnack", "AMD:AMDGPU:9:0:3"},
		{"amdgcn-amd-amdhsa--gfx906+sram-ecc", "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx906+sram-ecc", "AMD:AMDGPU:9:0:6"},
		{"amdgcn-amd-amdhsa--gfx906+sramecc", "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx906+sram-ecc", "AMD:AMDGPU:9:0:6"},
		{"amdgcn-amd-amdhsa--gfx1010+xnack+wavefrontsize64+cumode", "amdgcn-amd-amdhsa--gfx1010:xnack+", "amdgcn-amd-amdhsa--gfx1010+xnack+wavefrontsize64+cumode", "AMD:AMDGPU:10:1:0"},
		{"AMD:AMDGPU:9:0:6", "amdgcn-amd-amdhsa--gfx906:xnack-", "amdgcn-amd-amdhsa--gfx906", "AMD:AMDGPU:9:0:6"},
		{"AMD:AMDGPU:9:0:7", "amdgcn-amd-amdhsa--gfx906:xnack+", "amdgcn-amd-amdhsa--gfx906+xnack", "AMD:AMDGPU:9:0:7"},
		{"AMD:AMDGPU:8:0:3", "amdgcn-amd-amdhsa--gfx803", "amdgcn-amd-amdhsa--gfx803", "AMD:AMDGPU:8:0:3"},
		{"AMD:AMDGPU:9:0:0", "amdgcn-amd-amdhsa--gfx900:xnack-", "amdgcn-amd-amdhsa--gfx900", "AMD:AMDGPU:9:0:0"},
		{"tonga", "amdgcn-amd-amdhsa--gfx802", "amdgcn-amd-amdhsa--gfx802", "AMD:AMDGPU:8:0:2"},
		{"amdgcn-amd-amdhsa--gfx9-generic:xnack-", "amdgcn-amd-amdhsa--gfx9-generic:xnack-", "amdgcn-amd-amdhsa--gfx9-generic", "AMD:AMDGPU:9:0:0"},
		{"amdgcn-amd-amdhsa--gfx10-3-generic", "amdgcn-amd-amdhsa--gfx10-3-generic", "amdgcn-amd-amdhsa--gfx10-3-generic", "AMD:AMDGPU:10:3:0"},
		{"amdgcn-amd---gfx1030", "amdgcn-amd---gfx1030", "amdgcn-amd---gfx1030", "AMD:AMDGPU:10:3:0"},
		{"amdgcn-amd-amdpal--gfx1100", "amdgcn-amd-amdpal--gfx1100", "amdgcn-amd-amdpal--gfx1100", "AMD:AMDGPU:11:0:0"},
		{"amdgcn-mesa3d-mesa3d--gfx803", "amdgcn-mesa3d-mesa3d--gfx803", "amdgcn-mesa3d-mesa3d--gfx803", "AMD:AMDGPU:8:0:3"},
		{"r600-amd---cayman", "r600-amd---cayman", "r600-amd---cayman", "AMD:AMDGPU:0:0:0"},
		{"aruba", "r600-amd---cayman", "r600-amd---cayman", "AMD:AMDGPU:0:0:0"},
	}
	for _, c := range cases {
		id, err := ParseID(c.in)
		if err != nil {
			t.Errorf("ParseID(%q): %v", c.in, err)
			continue
		}
		if got := id.String(); got != c.str {
			t.Errorf("ParseID(%q).String() = %q, want %q", c.in, got, c.str)
		}
		if got := id.LegacyString(); got != c.legacy {
			t.Errorf("ParseID(%q).LegacyString() = %q, want %q", c.in, got, c.legacy)
		}
		if got := id.ISAName(); got != c.isa {
			t.Errorf("ParseID(%q).ISAName() = %q, want %q", c.in, got, c.isa)
		}
		if got := id.Canonical().String(); got != c.str {
			t.Errorf("ParseID(%q).Canonical().String() = %q", c.in, got)
		}
	}
}

func TestIDErrors(t *testing.T) {
	cases := []struct {
		in   string
		err  error
		text string
	}{
		{"", ErrSyntax, "empty"},
		{"gfx9000", ErrUnknownProcessor, `unknown processor "gfx9000"`},
		{"amdgcn-amd-amdhsa--gfx9000:xnack+", ErrUnknownProcessor, `unknown processor "gfx9000"`},
		{"amdgcn-amd-amdhsa--", ErrSyntax, "missing processor"},
		{"amdgcn-amd-amdhsa-gfx90a", ErrSyntax, "have 4 of the 5 components"},
		{"amdgcn-amd-amdhsa", ErrSyntax, "have 3 of the 5"},
		{"r600-amd--cayman", ErrSyntax, "have 4 of the 5"},
		{":xnack+", ErrSyntax, "missing processor"},
		{"gfx90a:xnack+:xnack-", ErrDuplicateFeature, "xnack given twice"},
		{"gfx90a:xnack+:xnack+", ErrDuplicateFeature, "xnack given twice"},
		{"gfx902+xnack+xnack", ErrDuplicateFeature, "xnack given twice"},
		{"gfx1030:xnack+", ErrUnsupportedFeature, "processor gfx1030 does not support feature xnack"},
		{"gfx900:sramecc-", ErrUnsupportedFeature, "processor gfx900 does not support feature sramecc"},
		{"gfx803:xnack+", ErrUnsupportedFeature, "processor gfx803 does not support feature xnack"},
		{"gfx1030:cumode+", ErrUnsupportedFeature, "cannot be set in a target ID (it is the -m[no-]cumode option)"},
		{"gfx90a:tgsplit+", ErrUnsupportedFeature, "tgsplit cannot be set in a target ID"},
		{"gfx90a:foo+", ErrUnknownFeature, `unknown feature "foo"`},
		{"gfx906:sram-ecc+", ErrUnknownFeature, `spelled "sramecc"`},
		{"gfx90a:xnack", ErrSyntax, `feature "xnack" must be a name followed by + or -`},
		{"gfx90a:xnack+-", ErrSyntax, "must be a name followed by + or -"},
		{"gfx90a:", ErrSyntax, "must be a name followed by + or -"},
		{"gfx90a::xnack+", ErrSyntax, "must be a name followed by + or -"},
		{"gfx90a:+", ErrSyntax, "must be a name followed by + or -"},
		{"gfx902+", ErrSyntax, "empty feature name"},
		{"gfx902++xnack", ErrSyntax, "empty feature name"},
		{"gfx902+xnack:sramecc+", ErrSyntax, "cannot mix"},
		{"gfx906+sram-ecc+xnack", ErrSyntax, "out of order: the V2/V3 syntax lists xnack, sram-ecc, wavefrontsize64, cumode, tgsplit"},
		{"gfx1010+cumode+wavefrontsize64", ErrSyntax, "out of order"},
		{"gfx902+bogus", ErrUnknownFeature, `unknown feature "bogus"`},
		{"gfx1030+xnack", ErrUnsupportedFeature, "gfx1030 does not support feature xnack"},
		{"amdgcn-amd-amdhsa--cayman", ErrSyntax, "processor cayman is r600, not amdgcn"},
		{"r600-amd-amdhsa--cayman", ErrSyntax, "OS amdhsa is not supported on r600"},
		{"amdgcn-xyz-amdhsa--gfx90a", ErrSyntax, `unknown vendor "xyz"`},
		{"amdgcn-mesa3d-amdhsa--gfx90a", ErrSyntax, "vendor mesa3d requires OS mesa3d"},
		{"amdgcn-amd-linux--gfx90a", ErrSyntax, `unknown OS "linux"`},
		{"amdgcn-amd-amdhsa-gnu-gfx90a", ErrSyntax, `environment must be empty, not "gnu"`},
		{"AMD:AMDGPU:9:0", ErrSyntax, "AMD:AMDGPU:<major>:<minor>:<stepping>"},
		{"AMD:AMDGPU:9:0:x", ErrSyntax, `component "x" is not a decimal number`},
		{"AMD:AMDGPU:9:0:-1", ErrSyntax, `component "-1"`},
		{"AMD:AMDGPU:9:0:06", ErrSyntax, `component "06"`},
		{"AMD:AMDGPU:9:0:11", ErrUnknownProcessor, "no processor has ISA version 9.0.11"},
		{"AMD:AMDGPU:9:0:99999999999999999999", ErrSyntax, "not a decimal number"},
		{"GFX90A", ErrUnknownProcessor, `unknown processor "GFX90A"`},
	}
	for _, c := range cases {
		id, err := ParseID(c.in)
		if err == nil {
			t.Errorf("ParseID(%q) = %v, want error", c.in, id)
			continue
		}
		if !errors.Is(err, c.err) {
			t.Errorf("ParseID(%q) error %v does not wrap %v", c.in, err, c.err)
		}
		var ie *IDError
		if !errors.As(err, &ie) || ie.ID != c.in {
			t.Errorf("ParseID(%q) error %T %v is not an IDError naming the input", c.in, err, err)
		}
		if !strings.Contains(err.Error(), c.text) {
			t.Errorf("ParseID(%q) = %q, want it to contain %q", c.in, err, c.text)
		}
	}
}

func TestNewIDAndValidate(t *testing.T) {
	p := proc(t, "gfx90a")
	id, err := NewID(p, map[Feature]FeatureSetting{FeatureXNACK: Off, FeatureSRAMECC: On})
	if err != nil || id.String() != "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" || id.Validate() != nil {
		t.Errorf("NewID = %v, %v", id.String(), err)
	}
	if id, err := NewID(p, nil); err != nil || id.String() != "amdgcn-amd-amdhsa--gfx90a" {
		t.Errorf("NewID(nil) = %v, %v", id.String(), err)
	}
	if id, err := NewID(proc(t, "cayman"), nil); err != nil || id.String() != "r600-amd---cayman" {
		t.Errorf("NewID(cayman) = %v, %v", id.String(), err)
	}
	for _, c := range []struct {
		p    string
		f    map[Feature]FeatureSetting
		err  error
		text string
	}{
		{"gfx1030", map[Feature]FeatureSetting{FeatureXNACK: On}, ErrUnsupportedFeature, "gfx1030 does not support feature xnack"},
		{"gfx90a", map[Feature]FeatureSetting{FeatureTGSplit: On}, ErrUnsupportedFeature, "cannot be set in a target ID"},
		{"gfx90a", map[Feature]FeatureSetting{"bogus": Off}, ErrUnknownFeature, `unknown feature "bogus"`},
		{"gfx90a", map[Feature]FeatureSetting{FeatureXNACK: 7}, ErrSyntax, "bad setting FeatureSetting(7)"},
	} {
		_, err := NewID(proc(t, c.p), c.f)
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("NewID(%s, %v) = %v, want %v containing %q", c.p, c.f, err, c.err, c.text)
		}
	}
	for _, c := range []struct {
		id   ID
		err  error
		text string
	}{
		{ID{}, ErrUnknownProcessor, "no processor"},
		{ID{Arch: "amdgcn", Vendor: "amd", OS: "amdhsa", Processor: proc(t, "cayman")}, ErrSyntax, "processor cayman is r600, not amdgcn"},
		{ID{Processor: p, Features: map[Feature]FeatureSetting{"x": On}}, ErrUnknownFeature, `unknown feature "x"`},
		{ID{Processor: proc(t, "gfx1030"), Features: map[Feature]FeatureSetting{FeatureXNACK: On}}, ErrUnsupportedFeature, "does not support feature xnack"},
		{ID{Processor: p, Features: map[Feature]FeatureSetting{FeatureXNACK: 9}}, ErrSyntax, "bad setting"},
		{ID{Processor: p, Features: map[Feature]FeatureSetting{FeatureTGSplit: On}}, ErrUnsupportedFeature, "cannot be set in a target ID"},
		{ID{Processor: p, GenericVersion: 1}, ErrSyntax, "generic version 1 on non-generic processor gfx90a"},
		{ID{Processor: proc(t, "gfx9-generic"), GenericVersion: 256}, ErrSyntax, "outside 0..255"},
	} {
		err := c.id.Validate()
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("Validate(%+v) = %v, want %v containing %q", c.id, err, c.err, c.text)
		}
	}
	// What codeobject builds from V3 e_flags: xnack off on a processor without it.
	v3 := ID{Arch: "amdgcn", Vendor: "amd", OS: "amdhsa", Processor: proc(t, "gfx1030"), Legacy: true,
		Features: map[Feature]FeatureSetting{FeatureXNACK: Off, FeatureSRAMECC: Off}}
	if err := v3.Validate(); err != nil {
		t.Errorf("V3 ID: %v", err)
	}
	// Every parsed ID validates.
	for _, s := range []string{"gfx902+xnack", "amdgcn-amd-amdhsa--gfx1010+xnack+wavefrontsize64+cumode", "AMD:AMDGPU:9:0:6", "gfx90a:xnack+"} {
		if err := mustID(t, s).Validate(); err != nil {
			t.Errorf("Validate(%s) = %v", s, err)
		}
	}
}

// TestV2ISANames pins the V2 ISA versions LLVM 15 writes
// (.hsa_code_object_isa with -mcode-object-version=2): xnack-enabled code
// on gfx900/902/904/906 gets stepping+1; other processors keep their
// version whatever xnack is. TestV2ISANamesMatchLLVM15 re-derives these.
func TestV2ISANames(t *testing.T) {
	cases := []struct{ id, isa string }{
		{"gfx900:xnack+", "AMD:AMDGPU:9:0:1"}, {"gfx900:xnack-", "AMD:AMDGPU:9:0:0"}, {"gfx900", "AMD:AMDGPU:9:0:0"},
		{"gfx902:xnack+", "AMD:AMDGPU:9:0:3"}, {"gfx902:xnack-", "AMD:AMDGPU:9:0:2"},
		{"gfx904:xnack+", "AMD:AMDGPU:9:0:5"}, {"gfx904:xnack-", "AMD:AMDGPU:9:0:4"},
		{"gfx906:xnack+", "AMD:AMDGPU:9:0:7"}, {"gfx906:xnack-", "AMD:AMDGPU:9:0:6"},
		{"gfx801:xnack+", "AMD:AMDGPU:8:0:1"}, {"gfx810:xnack+", "AMD:AMDGPU:8:1:0"},
		{"gfx90c:xnack-", "AMD:AMDGPU:9:0:12"}, {"gfx803", "AMD:AMDGPU:8:0:3"}, {"gfx600", "AMD:AMDGPU:6:0:0"},
	}
	for _, c := range cases {
		id := mustID(t, c.id)
		if got := id.ISAName(); got != c.isa {
			t.Errorf("%s.ISAName() = %s, want %s", c.id, got, c.isa)
		}
		back := mustID(t, c.isa)
		if back.Processor != id.Processor {
			t.Errorf("ParseID(%s) = %s, want %s", c.isa, back.Processor, id.Processor)
		}
		if id.Processor.V2XNACKStepping != 0 {
			want := id.Setting(FeatureXNACK)
			if want == Any {
				want = Off
			}
			if back.Setting(FeatureXNACK) != want {
				t.Errorf("ParseID(%s) xnack %v, want %v", c.isa, back.Setting(FeatureXNACK), want)
			}
		} else if len(back.Features) != 0 {
			t.Errorf("ParseID(%s) sets features %v", c.isa, back.Features)
		}
		if back.ISAName() != c.isa {
			t.Errorf("ParseID(%s).ISAName() = %s", c.isa, back.ISAName())
		}
	}
	for _, v := range [][3]int{{9, 0, 1}, {9, 0, 3}, {9, 0, 5}, {9, 0, 7}} {
		p, err := ByISAVersion(v[0], v[1], v[2])
		if err != nil || p.Stepping != v[2]-1 {
			t.Errorf("ByISAVersion(%v) = %v, %v", v, p, err)
		}
	}
}

func TestParseLegacyID(t *testing.T) {
	cases := []struct{ in, str, legacy string }{
		{"amdgcn-amd-amdhsa--gfx906", "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", "amdgcn-amd-amdhsa--gfx906"},
		{"amdgcn-amd-amdhsa--gfx906+xnack+sram-ecc", "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack+", "amdgcn-amd-amdhsa--gfx906+xnack+sram-ecc"},
		{"amdgcn-amd-amdhsa--gfx1030", "amdgcn-amd-amdhsa--gfx1030", "amdgcn-amd-amdhsa--gfx1030"},
		{"AMD:AMDGPU:9:0:7", "amdgcn-amd-amdhsa--gfx906:xnack+", "amdgcn-amd-amdhsa--gfx906+xnack"},
	}
	for _, c := range cases {
		id, err := ParseLegacyID(c.in)
		if err != nil || !id.Legacy || id.String() != c.str || id.LegacyString() != c.legacy {
			t.Errorf("ParseLegacyID(%q) = %q %q legacy=%v, %v; want %q %q", c.in, id.String(), id.LegacyString(), id.Legacy, err, c.str, c.legacy)
		}
	}
	if _, err := ParseLegacyID("gfx906:xnack+"); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "V4+ :feature syntax") {
		t.Errorf("ParseLegacyID(gfx906:xnack+) = %v", err)
	}
	if _, err := ParseLegacyID("gfx9999"); !errors.Is(err, ErrUnknownProcessor) {
		t.Errorf("ParseLegacyID(gfx9999) = %v", err)
	}
}
