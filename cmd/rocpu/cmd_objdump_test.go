package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var objdumpAddr = regexp.MustCompile(`// ([0-9A-F]{12}):`)

// objdumpGaps are instruction forms rocpu objdump does not print yet; golden
// lines containing them are skipped (and counted).
var objdumpGaps = []string{}

// TestObjdumpCorpus compares `rocpu objdump` with the llvm-objdump-15
// goldens of every GFX9 object in testdata/kernels/obj, line by line.
func TestObjdumpCorpus(t *testing.T) {
	goldens, _ := filepath.Glob("../../testdata/kernels/obj/*.hsaco.objdump.txt")
	if len(goldens) == 0 {
		t.Skip("no corpus")
	}
	files, lines, gaps := 0, 0, 0
	for _, g := range goldens {
		obj := strings.TrimSuffix(g, ".objdump.txt")
		parts := strings.Split(filepath.Base(obj), ".")
		cpu := parts[len(parts)-4]
		if !strings.HasPrefix(cpu, "gfx9") {
			continue
		}
		want, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		// The golden was made in the object's directory with its base name.
		wd, _ := os.Getwd()
		if err := os.Chdir(filepath.Dir(obj)); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		fs := flag.NewFlagSet("objdump", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		st := runObjdump(fs, []string{"--mcpu=" + cpu, filepath.Base(obj)}, &out, &errb)
		os.Chdir(wd)
		if st != 0 {
			t.Errorf("%s: status %d: %s", obj, st, errb.String())
			continue
		}
		files++
		got := map[string]string{}
		var gotLabels, wantLabels []string
		for _, l := range strings.Split(out.String(), "\n") {
			if m := objdumpAddr.FindStringSubmatch(l); m != nil {
				got[m[1]] = l
			} else {
				gotLabels = append(gotLabels, l)
			}
		}
		for _, l := range strings.Split(string(want), "\n") {
			m := objdumpAddr.FindStringSubmatch(l)
			if m == nil {
				wantLabels = append(wantLabels, l)
				continue
			}
			lines++
			if got[m[1]] == l {
				continue
			}
			gap := false
			for _, s := range objdumpGaps {
				gap = gap || strings.Contains(l, s)
			}
			if gap {
				gaps++
				continue
			}
			t.Errorf("%s:\n\tllvm: %q\n\tgot:  %q", filepath.Base(obj), l, got[m[1]])
		}
		if strings.Join(gotLabels, "\n") != strings.Join(wantLabels, "\n") {
			t.Errorf("%s: headers/labels differ:\n%s\n--- llvm:\n%s", filepath.Base(obj), strings.Join(gotLabels, "\n"), strings.Join(wantLabels, "\n"))
		}
	}
	t.Logf("%d GFX9 objects, %d instruction lines, %d skipped in known gaps %v", files, lines, gaps, objdumpGaps)
}
