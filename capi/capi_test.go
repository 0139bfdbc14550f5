package capi_test

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests build the real shared library once (go build
// -buildmode=c-shared, as the Makefile does), compile C programs against
// the Debian headers with gcc, and run them and Debian's rocminfo against
// it. They skip when gcc or the headers are missing.

const (
	headers  = "/usr/include/hsa/hsa.h"
	soname   = "libhsa-runtime64.so.1"
	rocrPath = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"
	hipPath  = "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5"
)

var (
	libOnce sync.Once
	libDir  string
	libErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if libDir != "" {
		os.RemoveAll(libDir)
	}
	os.Exit(code)
}

func needTools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	if _, err := os.Stat(headers); err != nil {
		t.Skip("HSA headers not installed (libhsa-runtime-dev)")
	}
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// buildLib builds libhsa-runtime64.so.1 and returns its directory.
func buildLib(t *testing.T) string {
	t.Helper()
	needTools(t)
	libOnce.Do(func() {
		libDir, libErr = os.MkdirTemp("", "rocpu-capi")
		if libErr != nil {
			return
		}
		script, err := filepath.Abs(filepath.Join("lib", "exports.map"))
		if err != nil {
			libErr = err
			return
		}
		cmd := exec.Command(goTool(), "build", "-buildmode=c-shared",
			"-ldflags=-extldflags \"-Wl,-soname,"+soname+" -Wl,--version-script="+script+"\"",
			"-o", filepath.Join(libDir, soname), "./lib")
		out, err := cmd.CombinedOutput()
		if err != nil {
			libErr = fmt.Errorf("building the library: %v\n%s", err, out)
		}
	})
	if libErr != nil {
		t.Fatal(libErr)
	}
	return libDir
}

// compileC compiles testdata/name.c against the headers and the library.
func compileC(t *testing.T, lib, name string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("gcc", "-O1", "-Wall", "-Werror", "-o", exe, filepath.Join("testdata", name+".c"),
		"-L"+lib, "-l:"+soname, "-lpthread", "-Wl,-rpath,"+lib)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s.c: %v\n%s", name, err, out)
	}
	return exe
}

// run runs a program with the library first on the library path.
func run(t *testing.T, lib string, env []string, name string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return stdout.String(), stderr.String(), err
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s timed out\nstdout:\n%s\nstderr:\n%s", name, stdout.String(), stderr.String())
	}
	return "", "", nil
}

// versioned returns the dynamic symbols a library defines (or, with
// undefined, imports), name -> version.
func versioned(t *testing.T, path string, undefined bool) map[string]string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, s := range syms {
		// The version definition's own symbol (ROCR_1) is no export.
		if (s.Section == elf.SHN_UNDEF) != undefined || s.Name == "" || s.Name == s.Version {
			continue
		}
		m[s.Name] = s.Version
	}
	return m
}

// unsupported lists the functions hsa_unsupported.c defines.
func unsupported(t *testing.T) map[string]bool {
	src, err := os.ReadFile("hsa_unsupported.c")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, x := range regexp.MustCompile(`UNSUPPORTED\("(\w+)"\)`).FindAllSubmatch(src, -1) {
		m[string(x[1])] = true
	}
	return m
}

func TestExports(t *testing.T) {
	lib := buildLib(t)
	path := filepath.Join(lib, soname)
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	libs, err := f.DynString(elf.DT_SONAME)
	f.Close()
	if err != nil || len(libs) != 1 || libs[0] != soname {
		t.Errorf("DT_SONAME = %q, %v; want %s", libs, err, soname)
	}
	ours := versioned(t, path, false)
	for name, v := range ours {
		if v != "ROCR_1" {
			t.Errorf("%s exported with version %q, want only ROCR_1 exports", name, v)
		}
	}
	for _, name := range []string{"hsa_init", "hsa_shut_down", "hsa_signal_store_screlease", "hsa_queue_create",
		"hsa_system_get_major_extension_table", "_amdgpu_r_debug"} {
		if ours[name] != "ROCR_1" {
			t.Errorf("%s: version %q, want ROCR_1", name, ours[name])
		}
	}
	if _, ok := ours["hsa_ven_amd_loader_query_executable"]; ok {
		t.Errorf("loader extension functions are exported; ROCr hands them out through the extension table only")
	}

	// Every symbol the real ROCr 5.2 exports.
	if _, err := os.Stat(rocrPath); err == nil {
		rocr := versioned(t, rocrPath, false)
		unsup := unsupported(t)
		var missing []string
		n := 0
		for name, v := range rocr {
			if v != "ROCR_1" {
				continue
			}
			n++
			if ours[name] != "ROCR_1" {
				missing = append(missing, name)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%d ROCr exports missing: %v", len(missing), missing)
		}
		if len(ours) != n {
			t.Errorf("%d exports, ROCr has %d", len(ours), n)
		}
		t.Logf("coverage: %d of %d ROCr 5.2 exports defined; %d implemented, %d return HSA_STATUS_ERROR (not supported)",
			n-len(missing), n, n-len(missing)-len(unsup), len(unsup))
	}

	// Everything HIP and rocminfo import.
	for _, client := range []string{hipPath, "/usr/bin/rocminfo"} {
		if _, err := os.Stat(client); err != nil {
			continue
		}
		var unsupUsed []string
		unsup := unsupported(t)
		for name, v := range versioned(t, client, true) {
			if v != "ROCR_1" {
				continue
			}
			if ours[name] != "ROCR_1" {
				t.Errorf("%s imports %s@ROCR_1, which the library does not define", filepath.Base(client), name)
			}
			if unsup[name] {
				unsupUsed = append(unsupUsed, name)
			}
		}
		sort.Strings(unsupUsed)
		t.Logf("%s: imports %d not-supported functions: %v", filepath.Base(client), len(unsupUsed), unsupUsed)
	}
}

func TestAPI(t *testing.T) {
	lib := buildLib(t)
	exe := compileC(t, lib, "api")
	stdout, stderr, err := run(t, lib, nil, exe)
	if err != nil || !strings.Contains(stdout, ", 0 failed") {
		t.Fatalf("api: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	t.Log(strings.TrimSpace(stdout))
}

func TestBadInput(t *testing.T) {
	lib := buildLib(t)
	exe := compileC(t, lib, "bad")
	stdout, stderr, err := run(t, lib, nil, exe)
	if err != nil || !strings.Contains(stdout, ", 0 failed") {
		t.Fatalf("bad: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	t.Log(strings.TrimSpace(stdout))
}

// execEnv prepares what `rocpu exec` gives stock ROCm tools: an lsmod stub
// that reports the amdgpu module first on PATH, and the /dev/kfd preload
// shim.
func execEnv(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	shim := filepath.Join(dir, "librocpu-preload.so")
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", shim,
		filepath.Join("preload", "rocpu_preload.c"), "-ldl").CombinedOutput(); err != nil {
		t.Fatalf("building the preload shim: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\necho 'Module                  Size  Used by'\necho 'amdgpu                     1  0'\n"
	if err := os.WriteFile(filepath.Join(bin, "lsmod"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{"LD_PRELOAD=" + shim, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
}

func TestRocminfo(t *testing.T) {
	rocminfo, err := exec.LookPath("rocminfo")
	if err != nil {
		t.Skip("rocminfo not installed")
	}
	lib := buildLib(t)
	stdout, stderr, err := run(t, lib, execEnv(t), rocminfo)
	if err != nil {
		t.Fatalf("rocminfo: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	for _, want := range []string{
		"Runtime Version:         1.1",
		"System Timestamp Freq.:  1000.000000MHz",
		"Agent 1", "Agent 2",
		"Device Type:             CPU",
		"Device Type:             GPU",
		"Name:                    gfx90a",
		"Vendor Name:             AMD",
		"Feature:                 KERNEL_DISPATCH",
		"Profile:                 BASE_PROFILE",
		"Wavefront Size:          64(0x40)",
		"Workgroup Max Size:      1024(0x400)",
		"Segment:                 GLOBAL; FLAGS: KERNARG, FINE GRAINED",
		"Segment:                 GLOBAL; FLAGS: COARSE GRAINED",
		"Segment:                 GROUP",
		"Name:                    amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
		"*** Done ***",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("rocminfo output lacks %q", want)
		}
	}
	if strings.Contains(stdout, "Agent 3") {
		t.Errorf("rocminfo lists more than two agents")
	}
	if t.Failed() {
		t.Logf("rocminfo output:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

func TestHIP(t *testing.T) {
	hipcc, err := exec.LookPath("hipcc")
	if err != nil {
		t.Skip("hipcc not installed")
	}
	if _, err := os.Stat(hipPath); err != nil {
		t.Skip("Debian's HIP runtime (libamdhip64-5) not installed")
	}
	lib := buildLib(t)
	exe := filepath.Join(t.TempDir(), "hip_smoke")
	if out, err := exec.Command(hipcc, "--offload-arch=gfx90a", "-o", exe, filepath.Join("testdata", "hip_smoke.hip")).CombinedOutput(); err != nil {
		t.Fatalf("hipcc: %v\n%s", err, out)
	}
	stdout, stderr, err := run(t, lib, []string{"ROCPU_STATS=1"}, exe)
	if err != nil {
		t.Fatalf("hip_smoke: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	for _, want := range []string{
		"devices: 1",
		"device: AMD Instinct MI210 arch gfx90a:sramecc+:xnack- CUs 104 warp 64",
		"roundtrip: 1 1",
		"hipDeviceSynchronize() -> hipSuccess",
		"kernel: 0 of 1000 wrong",
		"hipFree(d) -> hipSuccess",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("hip_smoke output lacks %q", want)
		}
	}
	// The --stats summary, printed by the library's destructor after HIP's.
	if !strings.Contains(stderr, "rocpu: ") || !strings.Contains(stderr, " 4 workgroups, 16 waves,") {
		t.Errorf("no or wrong stats summary")
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}

	// HIP's own log shows no error or warning from initialisation on.
	_, log, err := run(t, lib, []string{"AMD_LOG_LEVEL=4"}, exe)
	if err != nil {
		t.Fatalf("hip_smoke with AMD_LOG_LEVEL=4: %v\n%s", err, log)
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, ":0:") || strings.HasPrefix(line, ":1:") || strings.HasPrefix(line, ":2:") {
			t.Errorf("HIP logged: %s", line)
		}
	}
	if !strings.Contains(log, "Initializing HSA stack") {
		t.Errorf("AMD_LOG_LEVEL=4 log lacks HIP's initialisation (did the log go elsewhere?)")
	}

	// A faulting kernel: rocpu reports it, HIP's queue callback aborts.
	fault := filepath.Join(t.TempDir(), "hip_fault")
	if out, err := exec.Command(hipcc, "--offload-arch=gfx90a", "-o", fault, filepath.Join("testdata", "hip_fault.hip")).CombinedOutput(); err != nil {
		t.Fatalf("hipcc: %v\n%s", err, out)
	}
	stdout, stderr, err = run(t, lib, nil, fault)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGABRT {
		t.Errorf("faulting program: %v, want death by SIGABRT (exit 134)", err)
	}
	if !strings.Contains(stdout, "launching") || strings.Contains(stdout, "not reached") {
		t.Errorf("faulting program output:\n%s", stdout)
	}
	for _, want := range []string{"HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", "wild_store", "lane", "address", "global_store_dword"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("fault report lacks %q:\n%s", want, stderr)
		}
	}
}

func TestDispatch(t *testing.T) {
	clang, err := exec.LookPath("clang-15")
	if err != nil {
		t.Skip("clang-15 not installed")
	}
	lib := buildLib(t)
	obj := filepath.Join(t.TempDir(), "kernels.hsaco")
	if out, err := exec.Command(clang, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a",
		"-nogpulib", "-O2", "-Xclang", "-mcode-object-version=4", "-o", obj, filepath.Join("testdata", "kernels.cl")).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, out)
	}
	exe := compileC(t, lib, "dispatch")
	stdout, stderr, err := run(t, lib, nil, exe, obj)
	if err != nil || !strings.Contains(stdout, ", 0 failed") {
		t.Fatalf("dispatch: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	// The faulting kernel's report (kernel, PC, lane, address, instruction).
	if !strings.Contains(stderr, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION") || !strings.Contains(stderr, "store_to") ||
		!strings.Contains(stderr, "address 0x10") || !strings.Contains(stderr, "global_store_dword") {
		t.Errorf("fault report on stderr lacks kernel, address or instruction:\n%s", stderr)
	}
	t.Log(strings.TrimSpace(stdout))
}

func TestThreads(t *testing.T) {
	lib := buildLib(t)
	exe := compileC(t, lib, "threads")
	stdout, stderr, err := run(t, lib, nil, exe)
	if err != nil || !strings.Contains(stdout, ", 0 failed") {
		t.Fatalf("threads: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	t.Log(strings.TrimSpace(stdout))
}
