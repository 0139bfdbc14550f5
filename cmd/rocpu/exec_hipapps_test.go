//go:build integration

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// hipappFlags reads a program's extra hipcc flags ("// hipcc-flags: ..."),
// its `rocpu exec` flags ("// rocpu-flags: ...") and the files it needs
// ("// needs: PATH", e.g. a library's header), from its leading comment.
func hipappFlags(t *testing.T, src string) (flags, rflags, needs []string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < 40; n++ {
		l := sc.Text()
		if v, ok := strings.CutPrefix(l, "// hipcc-flags:"); ok {
			flags = append(flags, strings.Fields(v)...)
		}
		if v, ok := strings.CutPrefix(l, "// rocpu-flags:"); ok {
			rflags = append(rflags, strings.Fields(v)...)
		}
		if v, ok := strings.CutPrefix(l, "// needs:"); ok {
			needs = append(needs, strings.TrimSpace(v))
		}
	}
	return flags, rflags, needs
}

// hipappGaps are programs that fail today for a known reason that is not
// (yet) rocpu's to fix in the paths the test covers, keyed by program, with
// the stderr text that identifies that failure. A gap program failing that
// way is skipped (naming the gap); failing any other way is an error;
// passing is logged so the entry can be removed.
var hipappGaps = map[string]struct{ sign, why string }{}

// TestExecHIPApps compiles each self-checking HIP program of
// testdata/hipapps with Debian's hipcc for gfx90a and runs it unmodified
// under `rocpu exec`. Every program checks its device results against a
// host computation of its own and prints "PASS <name>" and exits 0.
// Programs that need an optional library (rocRAND) skip when its header
// is not installed.
func TestExecHIPApps(t *testing.T) {
	bin := rocpuBin(t)
	if _, err := os.Stat(hipRuntime); err != nil {
		t.Skip("Debian's HIP runtime (libamdhip64-5) not installed")
	}
	hipcc, err := exec.LookPath("hipcc")
	if err != nil {
		t.Skip("hipcc not installed")
	}
	srcs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "hipapps", "*.hip"))
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no programs in testdata/hipapps: %v", err)
	}
	sort.Strings(srcs)
	dir := t.TempDir()
	// hipcc is the slow part and the machine has two cores: compile at
	// most two programs at once (subtests run in parallel, gated here).
	sem := make(chan struct{}, 2)
	t.Run("group", func(t *testing.T) {
		for _, src := range srcs {
			src := src
			name := strings.TrimSuffix(filepath.Base(src), ".hip")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				flags, rflags, needs := hipappFlags(t, src)
				for _, n := range needs {
					if _, err := os.Stat(n); err != nil {
						t.Skipf("%s not installed", n)
					}
				}
				exe := filepath.Join(dir, name)
				args := append([]string{"--offload-arch=gfx90a", "-O2", "-o", exe, src}, flags...)
				sem <- struct{}{}
				start := time.Now()
				out, err := exec.Command(hipcc, args...).CombinedOutput()
				<-sem
				if err != nil {
					t.Fatalf("hipcc %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				compile := time.Since(start)
				start = time.Now()
				code, stdout, stderr := execHIP(t, bin, nil, 3*time.Minute, exe, rflags...)
				t.Logf("compile %v, run %v", compile.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
				passed := code == 0 && strings.Contains(stdout, "PASS "+name+"\n")
				if gap, ok := hipappGaps[name]; ok {
					if passed {
						t.Logf("known gap %s now passes: remove it from hipappGaps", name)
						return
					}
					if strings.Contains(stderr, gap.sign) {
						t.Skipf("known gap: %s (exit %d)", gap.why, code)
					}
				}
				if !passed {
					t.Errorf("exit %d, want 0 and the line %q\nstdout:\n%s\nstderr:\n%s", code, "PASS "+name, stdout, stderr)
				}
			})
		}
	})
}
