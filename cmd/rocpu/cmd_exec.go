package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// The files `rocpu exec` puts in front of a program: rocpu's
// libhsa-runtime64.so.1 (package capi, built with -buildmode=c-shared) and
// the LD_PRELOAD shim capi/preload/rocpu_preload.c that answers rocminfo's
// open("/dev/kfd").
const (
	execLibName  = "libhsa-runtime64.so.1"
	execShimName = "librocpu-preload.so"
)

// lsmodStub stands in for lsmod, which rocminfo runs (`lsmod | grep
// amdgpu`) before anything else and gives up when the module is missing.
const lsmodStub = `#!/bin/sh
# rocpu exec: rocpu needs no kernel module; report the one ROCm tools look for.
echo "Module                  Size  Used by"
echo "amdgpu                     1  0"
`

func init() {
	register(&command{
		name:    "exec",
		summary: "run an unmodified HIP/HSA program (or rocminfo) on rocpu's emulated GPU",
		usage:   "[--target gfx90a[,gfx90a…]] [--stats] [--lib DIR] -- PROGRAM [ARGS…]",
		run:     runExec,
	})
}

func runExec(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	targets := fs.String("target", "", "GPU agents' targets, comma-separated (ROCPU_TARGETS); default gfx90a")
	stats := fs.Bool("stats", false, "print the emulated GPU's counters when the program exits")
	libFlag := fs.String("lib", "", "directory holding "+execLibName+" and "+execShimName+
		" (default: $ROCPU_LIB_DIR, else the directory of the rocpu binary)")
	if st, ok := parse(fs, args, stdout); !ok {
		return st
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "rocpu exec: no program given\nusage: rocpu exec %s\n", commands["exec"].usage)
		return 2
	}
	lib, err := execLibDir(*libFlag)
	if err != nil {
		fmt.Fprintf(stderr, "rocpu exec: %v\n", err)
		return 2
	}
	stub, err := os.MkdirTemp("", "rocpu-exec")
	if err != nil {
		fmt.Fprintf(stderr, "rocpu exec: %v\n", err)
		return 1
	}
	defer os.RemoveAll(stub)
	if err := os.WriteFile(filepath.Join(stub, "lsmod"), []byte(lsmodStub), 0o755); err != nil {
		fmt.Fprintf(stderr, "rocpu exec: %v\n", err)
		return 1
	}

	env := execEnv(os.Environ(), lib, stub, *targets, *stats)
	prog := fs.Arg(0)
	if !strings.Contains(prog, "/") {
		// Look the program up on the PATH the program itself will see.
		if p, err := lookPathIn(prog, envValue(env, "PATH")); err == nil {
			prog = p
		}
	}
	cmd := exec.Command(prog, fs.Args()[1:]...)
	cmd.Args[0] = fs.Arg(0)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr

	// The program shares the terminal: ^C reaches it directly, and rocpu
	// waits for its exit status instead of dying first.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "rocpu exec: %v\n", err)
		return 127
	}
	go func() {
		for s := range sigs {
			if s == syscall.SIGTERM {
				cmd.Process.Signal(s)
			}
		}
	}()
	err = cmd.Wait()
	return exitStatus(err, stderr)
}

// exitStatus turns the program's end into rocpu's exit status the way a
// shell does: its own status, or 128+N when signal N killed it (an
// aborting HIP program exits 134).
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintf(stderr, "rocpu exec: %v\n", err)
	return 1
}

// execLibDir finds the directory with the library and the shim.
func execLibDir(flagDir string) (string, error) {
	var dirs []string
	switch {
	case flagDir != "":
		dirs = []string{flagDir}
	case os.Getenv("ROCPU_LIB_DIR") != "":
		dirs = []string{os.Getenv("ROCPU_LIB_DIR")}
	default:
		if exe, err := os.Executable(); err == nil {
			if exe, err = filepath.EvalSymlinks(exe); err == nil {
				dirs = append(dirs, filepath.Dir(exe))
			}
		}
	}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		_, err1 := os.Stat(filepath.Join(abs, execLibName))
		_, err2 := os.Stat(filepath.Join(abs, execShimName))
		if err1 == nil && err2 == nil {
			return abs, nil
		}
	}
	return "", fmt.Errorf("%s and %s not found in %s (build them with `make lib`, or point --lib or ROCPU_LIB_DIR at them)",
		execLibName, execShimName, strings.Join(dirs, ", "))
}

// execEnv returns the program's environment: rocpu's library first on the
// library path, the /dev/kfd shim preloaded, the lsmod stub first on PATH,
// and rocpu's own settings.
func execEnv(base []string, lib, stub, targets string, stats bool) []string {
	env := make([]string, 0, len(base)+5)
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "ROCPU_STATS":
			continue
		case "ROCPU_TARGETS":
			if targets != "" {
				continue
			}
		}
		env = append(env, kv)
	}
	prepend := func(key, value, sep string) string {
		if old := envValue(base, key); old != "" {
			return key + "=" + value + sep + old
		}
		return key + "=" + value
	}
	env = append(env,
		prepend("LD_LIBRARY_PATH", lib, ":"),
		prepend("LD_PRELOAD", filepath.Join(lib, execShimName), " "),
		prepend("PATH", stub, ":"))
	if targets != "" {
		env = append(env, "ROCPU_TARGETS="+targets)
	}
	if stats {
		env = append(env, "ROCPU_STATS=1")
	}
	return env
}

// envValue returns the value of key in env ("" when unset).
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// lookPathIn finds an executable named file in the directories of path.
func lookPathIn(file, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, file)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
