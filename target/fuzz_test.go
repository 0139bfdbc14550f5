package target

import (
	"strings"
	"testing"
)

// FuzzParseID: no panic; a parsed ID prints in canonical form, and that
// form parses to the same ID (idempotent canonicalisation); errors are
// IDErrors naming the input.
func FuzzParseID(f *testing.F) {
	for _, s := range []string{
		"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "gfx90a:xnack+", "gfx902+xnack", "AMD:AMDGPU:9:0:6",
		"amdgcn-amd-amdhsa--gfx1010+xnack+wavefrontsize64+cumode", "gfx906+sram-ecc", "r600-amd---cayman",
		"amdgcn-amd-amdhsa--gfx9-4-generic:sramecc-", "tonga", "gfx90a::", "AMD:AMDGPU:", "amdgcn-----",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseID(s)
		if err != nil {
			if !strings.Contains(err.Error(), "target ID") {
				t.Fatalf("error %q does not say target ID", err)
			}
			return
		}
		if id.Processor == nil {
			t.Fatalf("ParseID(%q) returned no processor", s)
		}
		if err := id.Validate(); err != nil {
			t.Fatalf("ParseID(%q) result does not validate: %v", s, err)
		}
		c := id.String()
		id2, err := ParseID(c)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", c, s, err)
		}
		if id2.String() != c || id2.Processor != id.Processor {
			t.Fatalf("canonical form %q reparses as %q", c, id2.String())
		}
		for _, f := range id.Processor.IDFeatures() {
			if id2.Setting(f) != id.Setting(f) {
				t.Fatalf("%q: %s %v became %v", s, f, id.Setting(f), id2.Setting(f))
			}
		}
		if id.Legacy {
			l := id.LegacyString()
			id3, err := ParseID(l)
			if err != nil || id3.LegacyString() != l {
				t.Fatalf("legacy form %q of %q: %v %q", l, s, err, id3.LegacyString())
			}
		}
		_ = id.ISAName()
	})
}

// FuzzParseBundleEntryID: no panic; a parsed entry prints back as
// kind-canonical ID, which parses to the same.
func FuzzParseBundleEntryID(f *testing.F) {
	for _, s := range []string{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", "hip-amdgcn-amd-amdhsa-gfx906", "host-x86_64-unknown-linux-gnu", "-", "a-r600-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kind, id, err := ParseBundleEntryID(s)
		if err != nil {
			return
		}
		e := id.BundleEntryID(kind)
		k2, id2, err := ParseBundleEntryID(e)
		if err != nil || k2 != kind || id2.String() != id.String() {
			t.Fatalf("%q → %q → %q %q %v", s, e, k2, id2.String(), err)
		}
	})
}
