package target

import (
	"fmt"
	"strings"
)

// ParseBundleEntryID splits a clang offload bundle entry ID,
// "<offload-kind>-<triple>[-<target-id>]" (Clang Offload Bundler doc,
// "Bundle Entry ID"; e.g. "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"), into
// its offload kind and target ID. The old spelling without the empty
// environment, "hip-amdgcn-amd-amdhsa-gfx906", written by clang before the
// triple was padded to four components, is accepted too. Entries for other
// architectures (the "host-x86_64-unknown-linux-gnu" entry) return the kind
// and an error wrapping ErrNotSupported.
func ParseBundleEntryID(s string) (kind string, id ID, err error) {
	kind, rest, ok := strings.Cut(s, "-")
	if !ok || kind == "" || rest == "" {
		return "", ID{}, &IDError{ID: s, Msg: "bundle entry ID must be <offload-kind>-<triple>[-<target-id>]", Err: ErrSyntax}
	}
	if !strings.HasPrefix(rest, "amdgcn-") && !strings.HasPrefix(rest, "r600-") {
		return kind, ID{}, &IDError{ID: s, Msg: fmt.Sprintf("bundle entry for %q is not for an AMDGPU target", rest), Err: ErrNotSupported}
	}
	parts := strings.SplitN(rest, "-", 5)
	if len(parts) == 4 && parts[3] != "" {
		// Old form: the fourth component is the target ID.
		name := parts[3]
		if i := strings.IndexAny(name, ":+"); i >= 0 {
			name = name[:i]
		}
		if _, known := table().byName[name]; known {
			rest = strings.Join(parts[:3], "-") + "--" + parts[3]
		}
	}
	id, err = ParseID(rest)
	if err != nil {
		if ie, ok := err.(*IDError); ok {
			ie.ID = s
		}
		return kind, ID{}, err
	}
	return kind, id, nil
}

// BundleEntryID returns the bundle entry ID of id for offload kind kind,
// "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-".
func (id ID) BundleEntryID(kind string) string { return kind + "-" + id.String() }
