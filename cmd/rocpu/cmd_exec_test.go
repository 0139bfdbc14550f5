package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeLibDir makes a directory holding a stand-in library and the real
// preload shim (built with gcc), enough to check what `rocpu exec` gives
// a program that does not load HSA itself.
func fakeLibDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-O2", "-o", filepath.Join(dir, execShimName),
		filepath.Join("..", "..", "capi", "preload", "rocpu_preload.c"), "-ldl").CombinedOutput(); err != nil {
		t.Fatalf("building the shim: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, execLibName), []byte("not loaded by /bin/sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExecArguments(t *testing.T) {
	var out, errb bytes.Buffer
	if got := run([]string{"exec"}, &out, &errb); got != 2 || !strings.Contains(errb.String(), "no program given") {
		t.Errorf("exec without a program: status %d, stderr %q", got, errb.String())
	}
	errb.Reset()
	missing := t.TempDir()
	if got := run([]string{"exec", "--lib", missing, "--", "true"}, &out, &errb); got != 2 ||
		!strings.Contains(errb.String(), execLibName+" and "+execShimName+" not found in "+missing) {
		t.Errorf("exec with no library: status %d, stderr %q", got, errb.String())
	}
}

func TestExecEnvironment(t *testing.T) {
	lib := fakeLibDir(t)
	t.Setenv("LD_LIBRARY_PATH", "/old/lib")
	t.Setenv("ROCPU_TARGETS", "gfx900")
	script := `echo "lib=$LD_LIBRARY_PATH"; echo "preload=$LD_PRELOAD"; echo "targets=$ROCPU_TARGETS"; ` +
		`echo "stats=$ROCPU_STATS"; lsmod | grep -c '^amdgpu '; ` +
		`exec 3<>/dev/kfd && echo kfd-open; exit 7`
	var out, errb bytes.Buffer
	got := run([]string{"exec", "--lib", lib, "--target", "gfx90a,gfx90a", "--stats", "--", "sh", "-c", script}, &out, &errb)
	if got != 7 {
		t.Errorf("exit status %d, want the program's 7 (stderr %q)", got, errb.String())
	}
	for _, want := range []string{
		"lib=" + lib + ":/old/lib\n",
		"preload=" + filepath.Join(lib, execShimName) + "\n",
		"targets=gfx90a,gfx90a\n",
		"stats=1\n",
		"1\n",        // one amdgpu line from the lsmod stub
		"kfd-open\n", // the shim answers /dev/kfd (sh opens it through libc)
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("program output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestExecSignalStatus(t *testing.T) {
	lib := fakeLibDir(t)
	var out, errb bytes.Buffer
	// A HIP program whose kernel faults aborts; rocpu exec reports it as a
	// shell would.
	if got := run([]string{"exec", "--lib", lib, "--", "sh", "-c", "kill -ABRT $$"}, &out, &errb); got != 134 {
		t.Errorf("aborted program: status %d, want 134 (stderr %q)", got, errb.String())
	}
	if got := run([]string{"exec", "--lib", lib, "--", "/nonexistent/program"}, &out, &errb); got != 127 {
		t.Errorf("missing program: status %d, want 127", got)
	}
}

func TestExecEnvHelpers(t *testing.T) {
	env := execEnv([]string{"PATH=/bin", "LD_PRELOAD=/x.so", "HOME=/h", "ROCPU_STATS=1"}, "/L", "/S", "", false)
	want := map[string]string{"PATH": "/S:/bin", "LD_PRELOAD": "/L/" + execShimName + " /x.so", "HOME": "/h",
		"LD_LIBRARY_PATH": "/L", "ROCPU_STATS": ""}
	for k, v := range want {
		if got := envValue(env, k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}
