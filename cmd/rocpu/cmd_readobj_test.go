package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/codeobject"
)

const coTestdata = "../../codeobject/testdata/"

func runRocpu(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	st := run(args, &out, &errb)
	return st, out.String(), errb.String()
}

// goldenMetadata extracts the YAML llvm-readelf-15 printed for the file.
func goldenMetadata(t *testing.T, path string) string {
	b, err := os.ReadFile(path + ".readelf.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, m := range []string{"    AMDGPU Metadata:\n        ", "    AMD HSA Metadata:\n        "} {
		if i := strings.Index(s, m); i >= 0 {
			rest := s[i+len(m):]
			if j := strings.Index(rest, "\n...\n"); j >= 0 {
				return rest[:j+5]
			}
		}
	}
	t.Fatalf("%s: no metadata in golden", path)
	return ""
}

func TestReadobjText(t *testing.T) {
	for _, name := range []string{"kernels.gfx90a.co5.hsaco", "kernels.gfx900.co2.hsaco", "kernels.gfx1030.co5.hsaco"} {
		path := coTestdata + name
		st, out, errs := runRocpu("readobj", path)
		if st != 0 {
			t.Fatalf("%s: exit %d, stderr %s", name, st, errs)
		}
		if !strings.Contains(out, "\nMetadata:\n"+goldenMetadata(t, path)) {
			t.Errorf("%s: metadata YAML is not llvm-readelf's", name)
		}
		for _, want := range []string{"Kernels (3):", "  add\n", "kernarg layout:", "Validation: 0 errors", "Symbols:", "Relocations (1):"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: output lacks %q", name, want)
			}
		}
	}
	// Decoded values for gfx90a V5 (compare llvm-readelf's header and the
	// kernel's metadata in the golden).
	_, out, _ := runRocpu("readobj", "--kernels", coTestdata+"kernels.gfx90a.co5.hsaco")
	for _, want := range []string{
		"e_flags 0x53f: EF_AMDGPU_MACH_AMDGCN_GFX90A, EF_AMDGPU_FEATURE_XNACK_ANY_V4, EF_AMDGPU_FEATURE_SRAMECC_ANY_V4",
		"target amdgcn-amd-amdhsa--gfx90a (gfx90a, GFX9)",
		"kernarg 280 bytes (align 8)",
		"s[4:5] kernarg_segment_ptr",
		"          88     2  hidden_grid_dims",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--kernels output lacks %q", want)
		}
	}
	if strings.Contains(out, "Symbols:") || strings.Contains(out, "Metadata:") {
		t.Errorf("--kernels printed other sections")
	}
}

func TestReadobjJSON(t *testing.T) {
	st, out, errs := runRocpu("readobj", "--json", coTestdata+"scale")
	if st != 0 {
		t.Fatalf("exit %d: %s", st, errs)
	}
	var reps []struct {
		File    string `json:"file"`
		Target  string `json:"target"`
		Kernels []struct {
			Name     string `json:"name"`
			WaveSize int    `json:"wavefront_size"`
			Kernarg  uint64 `json:"kernarg_segment_size"`
		} `json:"kernels"`
		Errors int `json:"validation_errors"`
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 {
		t.Fatalf("%d reports for the HIP executable, want 2", len(reps))
	}
	waves := map[string]int{}
	for _, r := range reps {
		if len(r.Kernels) != 1 || r.Kernels[0].Name != "_Z5scalePffi" || r.Kernels[0].Kernarg != 16 {
			t.Errorf("%s: kernels %+v", r.File, r.Kernels)
			continue
		}
		waves[r.Target] = r.Kernels[0].WaveSize
	}
	if waves["amdgcn-amd-amdhsa--gfx90a"] != 64 || waves["amdgcn-amd-amdhsa--gfx1030"] != 32 {
		t.Errorf("wave sizes by target: %v", waves)
	}
}

func TestReadobjErrors(t *testing.T) {
	if st, _, errs := runRocpu("readobj", "/nonexistent/file"); st != 1 || errs == "" {
		t.Errorf("missing file: exit %d, stderr %q", st, errs)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.hsaco")
	good, _ := os.ReadFile(coTestdata + "kernels.gfx90a.co4.hsaco")
	os.WriteFile(bad, good[:100], 0o644)
	if st, _, errs := runRocpu("readobj", bad); st != 1 || !strings.Contains(errs, "offset") {
		t.Errorf("truncated file: exit %d, stderr %q", st, errs)
	}
	// A descriptor with a CP-filled field set is a validation error.
	mod := bytes.Clone(good)
	f, err := codeobject.Parse(mod)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := f.Kernels()
	if err != nil {
		t.Fatal(err)
	}
	rsrc1 := ks[0].DescriptorOff + 48
	mod[rsrc1+1] |= 0x04 // PRIORITY (bits 11:10) = 1: the CP fills it
	os.WriteFile(bad, mod, 0o644)
	st, out, _ := runRocpu("readobj", "--validate", bad)
	want := fmt.Sprintf("%#x: error: [§4.8 compute_pgm_rsrc1] kernel add COMPUTE_PGM_RSRC1.PRIORITY is 1", rsrc1+1)
	if st != 1 || !strings.Contains(out, want) {
		t.Errorf("PRIORITY set: exit %d, want a finding %q in\n%s", st, want, out)
	}
	if st, _, _ := runRocpu("readobj"); st != 2 {
		t.Errorf("no file: exit %d, want 2", st)
	}
	if st, out, _ := runRocpu("readobj", "--help"); st != 0 || !strings.Contains(out, "--relocs") || !strings.Contains(out, "Exit status") {
		t.Errorf("--help: exit %d, output %q", st, out)
	}
}
