//go:build integration

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// rocpuBin is the binary `make integration` built; these tests drive it as a
// user would, through its exit status and output.
func rocpuBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("ROCPU_BIN")
	if bin == "" {
		t.Skip("ROCPU_BIN not set; run through `make integration`")
	}
	return bin
}

func TestBinaryVersionAndHelp(t *testing.T) {
	bin := rocpuBin(t)
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "rocpu "+version) {
		t.Fatalf("rocpu version: %v, %q", err, out)
	}
	cmd := exec.Command(bin, "definitely-not-a-command")
	out, err = cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("unknown command: want exit 2, got %v (%q)", err, out)
	}
	for name := range commands {
		out, err := exec.Command(bin, name, "--help").Output()
		if err != nil || !strings.Contains(string(out), "usage: rocpu "+name) {
			t.Errorf("rocpu %s --help: %v, %q", name, err, out)
		}
	}
}
