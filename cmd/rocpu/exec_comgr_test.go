//go:build integration

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// comgrISA is a C program that asks Debian's comgr (libamd-comgr2 5.2.3)
// for a code object's ISA name with amd_comgr_get_data_isa_name, the call
// behind HIP 5.2's "COMGR failed to get code object ISA name"
// (devprogram.cpp). It prints the status and the name.
const comgrISA = `#include <stdio.h>
#include <stdlib.h>
#include <amd_comgr.h>
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb");
  if (f == NULL) return 100;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *b = malloc(n);
  if (fread(b, 1, n, f) != (size_t)n) return 101;
  fclose(f);
  amd_comgr_data_t d;
  if (amd_comgr_create_data(AMD_COMGR_DATA_KIND_EXECUTABLE, &d) || amd_comgr_set_data(d, n, b)) return 102;
  size_t size = 0;
  char name[256] = "";
  amd_comgr_status_t st = amd_comgr_get_data_isa_name(d, &size, NULL);
  if (st == AMD_COMGR_STATUS_SUCCESS && size <= sizeof(name)) st = amd_comgr_get_data_isa_name(d, &size, name);
  printf("%d %s\n", (int)st, name);
  return 0;
}
`

// TestComgrRejectsV5 is the evidence behind TestExecHIPCorpus's skip of
// the code object V5 programs: Debian's comgr 5.2.3 itself refuses the
// ISA name of the corpus's V5 code objects (AMD_COMGR_STATUS_ERROR_INVALID_ARGUMENT)
// while it names their V4 twins, with rocpu nowhere involved — HIP 5.2
// rejects the program's code object before any HSA call could matter, as
// it would on a GPU. (HIP 5.2's comgr predates V5, which LLVM made the
// default only later; ELF EI_ABIVERSION 3.) If this test fails because
// comgr now reads V5, remove that skip.
func TestComgrRejectsV5(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	if _, err := os.Stat("/usr/include/amd_comgr.h"); err != nil {
		t.Skip("comgr headers not installed (libamd-comgr-dev)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "comgr_isa.c")
	if err := os.WriteFile(src, []byte(comgrISA), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "comgr_isa")
	if out, err := exec.Command("gcc", "-O1", "-Wall", "-Werror", "-o", prog, src, "-lamd_comgr").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	isa := func(obj string) (string, string) {
		out, err := exec.Command(prog, obj).Output()
		if err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		st, name, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
		return st, name
	}
	n := 0
	for _, e := range hipCorpus(t, "gfx90a") {
		if e.Cov < 5 {
			continue
		}
		v5 := filepath.Join("..", "..", "testdata", "kernels", e.Exe+".hsaco")
		v4 := strings.Replace(v5, ".co5.", ".co4.", 1)
		if _, err := os.Stat(v5); err != nil {
			continue
		}
		n++
		if st, name := isa(v5); st == "0" {
			t.Errorf("%s: comgr now reads code object V5 (ISA %q): remove TestExecHIPCorpus's V5 skip", filepath.Base(v5), name)
		} else {
			t.Logf("%s: amd_comgr_get_data_isa_name status %s (V5 refused)", filepath.Base(v5), st)
		}
		if _, err := os.Stat(v4); err == nil {
			if st, name := isa(v4); st != "0" || name != "amdgcn-amd-amdhsa--gfx90a" {
				t.Errorf("%s (the V4 twin): status %s ISA %q, want 0 and amdgcn-amd-amdhsa--gfx90a", filepath.Base(v4), st, name)
			}
		}
	}
	if n == 0 {
		t.Skip("no code object V5 HIP programs in the corpus")
	}
}
