package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchFlags(t *testing.T) {
	for _, c := range []struct {
		args  []string
		errut string
	}{
		{[]string{"--sizes", "huge"}, `unknown size "huge"`},
		{[]string{"--kernels", "("}, "--kernels"},
		{[]string{"--kernels", "nosuch"}, "matches none of vector_add"},
		{[]string{"--workers", "-1"}, "--workers must be"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		var out, errb bytes.Buffer
		if st := run(append([]string{"bench"}, c.args...), &out, &errb); st != 2 || !strings.Contains(errb.String(), c.errut) {
			t.Errorf("bench %q: status %d, stderr %q, want 2 and %q", c.args, st, errb.String(), c.errut)
		}
	}
}

// TestBenchTiny runs two kernels at the tiny size and checks the report
// on stdout and the files in --out.
func TestBenchTiny(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	st := run([]string{"bench", "--sizes", "tiny", "--kernels", "^(saxpy|scan)$", "--workers", "2", "--no-extras", "--out", dir, "--json"}, &out, &errb)
	if st != 0 {
		t.Fatalf("status %d, stderr:\n%s", st, errb.String())
	}
	var rep struct {
		Workers int
		Results []struct {
			Name, Size string
			Rocpu      struct{ Median float64 }
			Scaling    float64
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out.String())
	}
	if rep.Workers != 2 || len(rep.Results) != 2 || rep.Results[0].Name != "saxpy" || rep.Results[1].Name != "scan" ||
		rep.Results[0].Size != "tiny" || rep.Results[0].Rocpu.Median <= 0 || rep.Results[0].Scaling <= 0 {
		t.Errorf("report: %+v", rep)
	}
	if !strings.Contains(errb.String(), "saxpy        tiny") {
		t.Errorf("no progress on stderr: %q", errb.String())
	}
	for _, f := range []string{"results.md", "results.json", "results.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "results.md"))
	if !strings.Contains(string(md), "| scan | tiny | 1000 elements | 3 |") {
		t.Errorf("results.md:\n%s", md)
	}
}
