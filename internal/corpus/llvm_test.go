package corpus

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGoldensMatchLLVM re-runs llvm-readelf-15 and llvm-objdump-15 on a
// sample of objects (every target, version, language) and requires the
// committed goldens to be their exact output. Skips without LLVM 15.
func TestGoldensMatchLLVM(t *testing.T) {
	readelf, err1 := exec.LookPath("llvm-readelf-15")
	objdump, err2 := exec.LookPath("llvm-objdump-15")
	if err1 != nil || err2 != nil {
		t.Skip("llvm-readelf-15 / llvm-objdump-15 not installed")
	}
	if testing.Short() {
		t.Skip("runs LLVM on dozens of objects")
	}
	m := load(t)
	seen := map[string]bool{}
	n := 0
	for i := range m.Objects {
		o := &m.Objects[i]
		key := o.Lang + o.Target + string(rune('0'+o.Cov)) + string(rune('0'+o.Opt)) + o.FPContract
		if seen[key] || (o.Lang == "hip" && o.Objdump == "") {
			continue
		}
		seen[key] = true
		n++
		dir, base := filepath.Split(m.Path(o.File))
		for _, c := range []struct {
			golden string
			cmd    *exec.Cmd
		}{
			{o.Readelf, exec.Command(readelf, "-h", "-l", "-S", "-s", "-r", "-n", "--dyn-syms", base)},
			{o.Objdump, exec.Command(objdump, "-d", "--mcpu="+o.Target, base)},
		} {
			c.cmd.Dir = dir
			got, err := c.cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", c.cmd, err)
			}
			want, err := m.ReadFile(c.golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s output", c.golden, filepath.Base(c.cmd.Path))
			}
		}
	}
	if n < 30 {
		t.Errorf("compared only %d objects", n)
	}
	t.Logf("%d objects' goldens match LLVM 15", n)
}

func TestVerifyPrintf(t *testing.T) {
	k := &Kernel{Name: "p", Printf: []string{"a 1", "b 2"}}
	if err := VerifyPrintf(k, []byte("b 2\na 1\n")); err != nil {
		t.Error(err)
	}
	if err := VerifyPrintf(k, []byte("a 1\n")); err == nil {
		t.Error("missing line accepted")
	}
	if err := VerifyPrintf(k, []byte("a 1\nb 3\n")); err == nil {
		t.Error("wrong line accepted")
	}
}
