package target

import (
	"errors"
	"strings"
	"testing"
)

func TestParseBundleEntryID(t *testing.T) {
	ok := []struct{ in, kind, id string }{
		{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", "hipv4", "amdgcn-amd-amdhsa--gfx90a:xnack-"},
		{"hip-amdgcn-amd-amdhsa--gfx906", "hip", "amdgcn-amd-amdhsa--gfx906"},
		{"hip-amdgcn-amd-amdhsa-gfx906", "hip", "amdgcn-amd-amdhsa--gfx906"},
		{"hip-amdgcn-amd-amdhsa-gfx908:sramecc+", "hip", "amdgcn-amd-amdhsa--gfx908:sramecc+"},
		{"openmp-amdgcn-amd-amdhsa--gfx1030", "openmp", "amdgcn-amd-amdhsa--gfx1030"},
		{"hipv4-amdgcn-amd-amdhsa--gfx9-generic:xnack+", "hipv4", "amdgcn-amd-amdhsa--gfx9-generic:xnack+"},
	}
	for _, c := range ok {
		kind, id, err := ParseBundleEntryID(c.in)
		if err != nil || kind != c.kind || id.String() != c.id {
			t.Errorf("ParseBundleEntryID(%q) = %q, %q, %v; want %q, %q", c.in, kind, id.String(), err, c.kind, c.id)
			continue
		}
		if got := id.BundleEntryID(kind); !strings.HasPrefix(c.in, "hip-amdgcn-amd-amdhsa-gfx") && got != c.in {
			t.Errorf("BundleEntryID = %q, want %q", got, c.in)
		}
	}
	bad := []struct {
		in   string
		err  error
		text string
	}{
		{"host-x86_64-unknown-linux-gnu", ErrNotSupported, `"x86_64-unknown-linux-gnu" is not for an AMDGPU target`},
		{"hipv4", ErrSyntax, "<offload-kind>-<triple>"},
		{"-amdgcn-amd-amdhsa--gfx90a", ErrSyntax, "<offload-kind>-<triple>"},
		{"hipv4-amdgcn-amd-amdhsa-", ErrSyntax, "have 4 of the 5"},
		{"hipv4-amdgcn-amd-amdhsa--", ErrSyntax, "missing processor"},
		{"hipv4-amdgcn-amd-amdhsa--gfx1", ErrUnknownProcessor, `unknown processor "gfx1"`},
		{"hip-amdgcn-amd-amdhsa-gnu", ErrSyntax, "have 4 of the 5"},
	}
	for _, c := range bad {
		_, _, err := ParseBundleEntryID(c.in)
		var ie *IDError
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.text) || !errors.As(err, &ie) || ie.ID != c.in {
			t.Errorf("ParseBundleEntryID(%q) = %v; want %v containing %q", c.in, err, c.err, c.text)
		}
	}
}
