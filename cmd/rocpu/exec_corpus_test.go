//go:build integration

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hipRuntime is Debian's HIP runtime, which the corpus's hipcc-built
// programs link against.
const hipRuntime = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5"

type hipEntry struct {
	Exe          string   `json:"exe"`
	Target       string   `json:"target"`
	Cov          int      `json:"cov"`
	ExpectExit   int      `json:"expect_exit"`
	ExpectStdout []string `json:"expect_stdout"`
	Notes        string   `json:"notes"`
}

// hipCorpus returns the manifest's HIP programs for target.
func hipCorpus(t *testing.T, target string) []hipEntry {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "kernels", "manifest.json"))
	if err != nil {
		t.Skipf("no corpus manifest: %v", err)
	}
	var m struct {
		HIP []hipEntry `json:"hip"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var out []hipEntry
	for _, e := range m.HIP {
		if e.Target == target {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		t.Fatalf("manifest lists no HIP program for %s", target)
	}
	return out
}

// execHIP runs `rocpu exec [flags] -- exe` with extra environment, killing
// the whole process group after timeout, and returns rocpu's exit status
// and the program's output.
func execHIP(t *testing.T, bin string, env []string, timeout time.Duration, exe string, flags ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append([]string{"exec"}, flags...), "--", exe)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s timed out after %v\nstdout:\n%s\nstderr:\n%s", exe, timeout, stdout.String(), stderr.String())
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("rocpu exec %s: %v", exe, err)
		}
		code = ee.ExitCode()
	}
	return code, stdout.String(), stderr.String()
}

// TestExecHIPCorpus is issue 7's acceptance test: every gfx90a HIP program
// of the corpus, built by Debian's hipcc and unmodified, runs under
// `rocpu exec` on Debian's HIP runtime and passes its own checks.
//
// The manifest's expect_exit for assert (3) and fault (4) is what those
// programs return if hipDeviceSynchronize reported the error. HIP 5.2 does
// not get that far on a GPU: its queue-error callback
// (Device::callbackQueue) aborts the process, so the status is 134
// (SIGABRT), preceded by rocpu's report of the exception or fault. That is
// what is checked here.
func TestExecHIPCorpus(t *testing.T) {
	bin := rocpuBin(t)
	if _, err := os.Stat(hipRuntime); err != nil {
		t.Skip("Debian's HIP runtime (libamdhip64-5) not installed")
	}
	for _, e := range hipCorpus(t, "gfx90a") {
		e := e
		name := filepath.Base(e.Exe)
		t.Run(name, func(t *testing.T) {
			exe := filepath.Join("..", "..", "testdata", "kernels", e.Exe)
			if _, err := os.Stat(exe); err != nil {
				t.Skipf("corpus program not built (hipcc): %v", err)
			}
			var env []string
			if e.Cov >= 5 {
				// Level 1 shows comgr's errors (see below).
				env = append(env, "AMD_LOG_LEVEL=1")
			}
			code, stdout, stderr := execHIP(t, bin, env, 5*time.Minute, exe, "--stats")
			if e.Cov >= 5 && code != 0 && strings.Contains(stderr, "COMGR failed to get code object ISA name") {
				// Debian's HIP 5.2 comgr predates code object V5: HIP
				// itself rejects the program's code object before
				// rocpu sees it, as it would on a GPU. The evidence is
				// TestComgrRejectsV5: comgr alone refuses the ISA name of
				// these objects and names their V4 twins.
				t.Skipf("Debian's HIP 5.2 (comgr) cannot read code object V5: %s", firstLine(stderr, "COMGR failed"))
			}
			defer func() {
				if t.Failed() {
					t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
			}()
			base := strings.SplitN(name, ".", 2)[0]
			switch base {
			case "assert":
				if code != 134 {
					t.Errorf("exit %d, want 134 (HIP aborts on the queue error)", code)
				}
				for _, want := range []string{"Device-side assertion `in[i] >= 0' failed",
					"HSA_STATUS_ERROR_EXCEPTION", "s_trap 2", "_Z14check_positivePKiPii", "callbackQueue aborting"} {
					if !strings.Contains(stderr, want) {
						t.Errorf("stderr lacks %q", want)
					}
				}
				return
			case "fault":
				if code != 134 {
					t.Errorf("exit %d, want 134 (HIP aborts on the queue error)", code)
				}
				for _, want := range []string{"HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", "lane", "address", "pc 0x",
					"global_store", "callbackQueue aborting"} {
					if !strings.Contains(stderr, want) {
						t.Errorf("fault report lacks %q", want)
					}
				}
				return
			}
			if code != e.ExpectExit {
				t.Errorf("exit %d, want %d", code, e.ExpectExit)
			}
			want := e.ExpectStdout
			if base == "streams_events" && len(want) == 0 {
				// "prints PASSED streams_events (<elapsed> ms)"
				if !regexp.MustCompile(`(?m)^PASSED streams_events \([0-9.]+ ms\)$`).MatchString(stdout) {
					t.Errorf("stdout lacks PASSED streams_events (<elapsed> ms)")
				}
			}
			if len(want) == 0 && base != "streams_events" {
				t.Fatalf("manifest gives no expected output for %s", name)
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(stdout, "\n") {
				lines[l] = true
			}
			for _, w := range want {
				if !lines[w] {
					t.Errorf("stdout lacks the line %q", w)
				}
			}
			// rocpu exec --stats: the library's summary at exit.
			m := regexp.MustCompile(`rocpu: ([0-9]+) kernels dispatched, .* ([0-9]+) instructions executed, .* emulated time`).FindStringSubmatch(stderr)
			if m == nil || m[1] == "0" || m[2] == "0" {
				t.Errorf("no --stats summary with kernels and instructions on stderr")
			}
		})
	}
}

// TestExecHIPLog: HIP's own log at AMD_LOG_LEVEL=4 shows no error or
// warning (levels 0-2) while a corpus program initialises HIP and runs.
func TestExecHIPLog(t *testing.T) {
	bin := rocpuBin(t)
	if _, err := os.Stat(hipRuntime); err != nil {
		t.Skip("Debian's HIP runtime (libamdhip64-5) not installed")
	}
	exe := filepath.Join("..", "..", "testdata", "kernels", "hip", "vector_add.gfx90a.co4.O2")
	if _, err := os.Stat(exe); err != nil {
		t.Skipf("corpus program not built (hipcc): %v", err)
	}
	code, stdout, log := execHIP(t, bin, []string{"AMD_LOG_LEVEL=4"}, 3*time.Minute, exe)
	if code != 0 || !strings.Contains(stdout, "PASSED vector_add") {
		t.Fatalf("exit %d\nstdout:\n%s\nlog:\n%s", code, stdout, log)
	}
	if !strings.Contains(log, "Initializing HSA stack") {
		t.Fatal("AMD_LOG_LEVEL=4 log lacks HIP's initialisation (did the log go elsewhere?)")
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, ":0:") || strings.HasPrefix(line, ":1:") || strings.HasPrefix(line, ":2:") {
			t.Errorf("HIP logged: %s", line)
		}
	}
}

// firstLine returns the first line of s containing sub.
func firstLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
