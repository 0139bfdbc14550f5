package emu

import (
	"debug/elf"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// TestCorpusCoverage decodes the .text of every GFX9 object in the kernel
// corpus (testdata/kernels/obj) and requires semantics for every
// instruction the decoder knows. Words the decoder rejects are logged (the
// decoder's gaps, e.g. forms it does not decode yet), not failed.
func TestCorpusCoverage(t *testing.T) {
	files, _ := filepath.Glob("../testdata/kernels/obj/*.hsaco")
	if len(files) == 0 {
		t.Skip("no corpus objects")
	}
	missing := map[string]map[string]bool{}
	undecoded := map[string]int{}
	objects := 0
	for _, f := range files {
		parts := strings.Split(filepath.Base(f), ".")
		if len(parts) < 2 {
			continue
		}
		tg, err := isa.LookupTarget(parts[1])
		if err != nil {
			continue // not GFX9
		}
		ef, err := elf.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sec := ef.Section(".text")
		if sec == nil {
			ef.Close()
			continue
		}
		data, err := sec.Data()
		ef.Close()
		if err != nil {
			t.Fatal(err)
		}
		objects++
		for off := 0; off+4 <= len(data); {
			var in isa.Inst
			if err := isa.DecodeInto(&in, tg, data[off:]); err != nil {
				undecoded[parts[1]]++
				off += 4
				continue
			}
			if _, err := buildOp(&in); err != nil {
				k := in.Op.String()
				if !Implemented(in.Op) {
					k += " (no semantics)"
				} else {
					k += ": " + err.Error()
				}
				if missing[k] == nil {
					missing[k] = map[string]bool{}
				}
				missing[k][parts[1]] = true
			}
			off += int(in.Len)
		}
	}
	var keys []string
	for k := range missing {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%s on %v", k, missing[k])
	}
	t.Logf("%d GFX9 objects; words the decoder rejected: %v", objects, undecoded)
}
