package target

import (
	"errors"
	"strings"
	"testing"
)

func mustID(t *testing.T, s string) ID {
	t.Helper()
	id, err := ParseID(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCompatible(t *testing.T) {
	const agent90a = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"
	cases := []struct {
		code, agent string
		genVer      int
		errText     string // "" = compatible
	}{
		// Exact processor; features any/on/off.
		{"amdgcn-amd-amdhsa--gfx90a", agent90a, 0, ""},
		{"amdgcn-amd-amdhsa--gfx90a:xnack-", agent90a, 0, ""},
		{"amdgcn-amd-amdhsa--gfx90a:sramecc+", agent90a, 0, ""},
		{"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", agent90a, 0, ""},
		{"amdgcn-amd-amdhsa--gfx90a:xnack+", agent90a, 0, "code needs xnack on, agent has xnack off"},
		{"amdgcn-amd-amdhsa--gfx90a:sramecc-", agent90a, 0, "code needs sramecc off, agent has sramecc on"},
		{"gfx90a:xnack+", "gfx90a:xnack+:sramecc-", 0, ""},
		{"gfx90a:xnack-", "gfx90a", 0, "agent does not say whether xnack is on or off"},
		{"gfx90a", "gfx90a", 0, ""},
		// Alternative names are the same processor.
		{"tonga", "gfx802", 0, ""},
		// Different processors.
		{"amdgcn-amd-amdhsa--gfx906", agent90a, 0, "processor gfx906 differs from gfx90a"},
		{"amdgcn-amd-amdhsa--gfx908", agent90a, 0, "processor gfx908 differs from gfx90a"},
		// Triple components.
		{"amdgcn-amd-amdpal--gfx90a", agent90a, 0, `OS "amdpal" differs from "amdhsa"`},
		{"amdgcn-amd---gfx90a", agent90a, 0, ""}, // empty OS is not compared
		// Generic processors: membership and version.
		{"amdgcn-amd-amdhsa--gfx9-generic", "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", 1, ""},
		{"amdgcn-amd-amdhsa--gfx9-generic:xnack-", "amdgcn-amd-amdhsa--gfx900:xnack-", 1, ""},
		{"amdgcn-amd-amdhsa--gfx9-generic:xnack+", "amdgcn-amd-amdhsa--gfx900:xnack-", 1, "code needs xnack on, agent has xnack off"},
		{"amdgcn-amd-amdhsa--gfx9-generic", agent90a, 1, "gfx90a is not a member of generic processor gfx9-generic"},
		{"amdgcn-amd-amdhsa--gfx9-generic", "gfx908:xnack-:sramecc-", 1, "gfx908 is not a member"},
		{"amdgcn-amd-amdhsa--gfx9-generic", "gfx900:xnack-", 0, "has no generic version"},
		{"amdgcn-amd-amdhsa--gfx9-generic", "gfx900:xnack-", 255, ""},
		{"amdgcn-amd-amdhsa--gfx9-4-generic:sramecc+", "gfx942:sramecc+:xnack-", 1, ""},
		{"amdgcn-amd-amdhsa--gfx9-4-generic:sramecc-", "gfx942:sramecc+:xnack-", 1, "code needs sramecc off"},
		{"amdgcn-amd-amdhsa--gfx10-1-generic", "gfx1013:xnack-", 1, ""},
		{"amdgcn-amd-amdhsa--gfx10-3-generic", "gfx1036", 1, ""},
		{"amdgcn-amd-amdhsa--gfx10-3-generic", "gfx1013:xnack-", 1, "gfx1013 is not a member of generic processor gfx10-3-generic"},
		{"amdgcn-amd-amdhsa--gfx11-generic", "gfx1151", 1, ""},
		{"amdgcn-amd-amdhsa--gfx11-generic", "gfx1154", 1, "gfx1154 is not a member"},
		{"amdgcn-amd-amdhsa--gfx12-generic", "gfx1201", 1, ""},
		{"amdgcn-amd-amdhsa--gfx12-generic", "gfx1100", 1, "gfx1100 is not a member"},
		// An agent is never generic.
		{"gfx9-generic", "gfx9-generic:xnack-", 1, "an agent's processor cannot be generic"},
		// A concrete code object never runs on a generic "agent", nor does
		// a member's code run on another member.
		{"gfx900:xnack-", "gfx902:xnack-", 0, "processor gfx900 differs from gfx902"},
		// V2/V3 (legacy) IDs: features are on or off, matched strictly.
		{"amdgcn-amd-amdhsa--gfx906+sram-ecc", "gfx906:sramecc+:xnack-", 0, ""},
		{"amdgcn-amd-amdhsa--gfx906+xnack+sram-ecc", "gfx906:sramecc+:xnack-", 0, "code needs xnack on, agent has xnack off"},
		{"amdgcn-amd-amdhsa--gfx1010+wavefrontsize64", "gfx1010:xnack-", 0, ""},
		{"AMD:AMDGPU:9:0:6", "gfx906:sramecc+:xnack-", 0, ""},
		{"AMD:AMDGPU:9:0:6", "gfx908:sramecc+:xnack-", 0, "processor gfx906 differs from gfx908"},
	}
	for _, c := range cases {
		code := mustID(t, c.code)
		code.GenericVersion = c.genVer
		agent := mustID(t, c.agent)
		err := Compatible(code, agent)
		if c.errText == "" {
			if err != nil {
				t.Errorf("Compatible(%s, %s) = %v, want nil", c.code, c.agent, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrIncompatible) || !strings.Contains(err.Error(), c.errText) {
			t.Errorf("Compatible(%s, %s) = %v, want error containing %q", c.code, c.agent, err, c.errText)
		}
	}
}

// TestCompatibleUnsupportedFeatureCountsAsOff covers an ID built by hand
// (not parseable): a generic code object pinning xnack off, run on a member
// whose processor lacks xnack, is fine; pinning it on is not.
func TestCompatibleUnsupportedFeatureCountsAsOff(t *testing.T) {
	g := &Processor{Name: "test-generic", Arch: "amdgcn", Generic: true, GenericVersion: 1, Features: []Feature{FeatureXNACK}}
	m, _ := Lookup("gfx1030")
	g.Members = []GenericMember{{m, 1}}
	agent := ID{Arch: "amdgcn", Vendor: "amd", OS: "amdhsa", Processor: m}
	code := ID{Arch: "amdgcn", Vendor: "amd", OS: "amdhsa", Processor: g, GenericVersion: 1, Features: map[Feature]FeatureSetting{FeatureXNACK: Off}}
	if err := Compatible(code, agent); err != nil {
		t.Errorf("xnack- on a processor without xnack: %v", err)
	}
	code.Features[FeatureXNACK] = On
	if err := Compatible(code, agent); err == nil || !strings.Contains(err.Error(), "code needs xnack on, agent has xnack off") {
		t.Errorf("xnack+ on a processor without xnack: %v", err)
	}
	// A generic version older than the member's.
	g.Members = []GenericMember{{m, 2}}
	code.Features = nil
	if err := Compatible(code, agent); err == nil || !strings.Contains(err.Error(), "generic version 1 is older than version 2, in which gfx1030 was added to test-generic") {
		t.Errorf("old generic version: %v", err)
	}
	if err := Compatible(ID{}, agent); !errors.Is(err, ErrIncompatible) {
		t.Errorf("nil processor: %v", err)
	}
}
