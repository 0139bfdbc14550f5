package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testCO = "../../hsa/testdata/kernels.gfx90a.co4.hsaco"

// TestRunAdd runs the add kernel (out[i] = table[i&3] + v + 3 + 5) and
// checks the buffer --out writes and --expect.
func TestRunAdd(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	st := run([]string{"run", testCO, "--kernel", "add", "--grid", "256", "--workgroup", "64",
		"--arg", "buf:4:256:seq", "--arg", "i32:100", "--out", dir, "--stats"}, &out, &errb)
	if st != 0 && (strings.Contains(errb.String(), "illegal instruction") || strings.Contains(errb.String(), "unimplemented")) {
		t.Skipf("emulator cannot run the kernel yet: %s", errb.String())
	}
	if st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "arg0.bin"))
	if err != nil || len(b) != 1024 {
		t.Fatalf("arg0.bin: %d bytes, %v", len(b), err)
	}
	for i := 0; i < 256; i++ {
		if got, want := int32(binary.LittleEndian.Uint32(b[4*i:])), int32(1+i&3)+108; got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
	if !strings.Contains(out.String(), "workgroups 4 waves 4 ") {
		t.Errorf("stats %q", out.String())
	}
	// --expect: the same bytes match, others do not.
	exp := filepath.Join(dir, "expect.bin")
	os.WriteFile(exp, b, 0o644)
	out.Reset()
	if st := run([]string{"run", testCO, "--kernel", "add", "--grid", "256", "--arg", "buf:4:256:zero", "--arg", "i32:100", "--expect", exp}, &out, &errb); st != 0 || !strings.Contains(out.String(), "output matches") {
		t.Errorf("--expect with the right bytes: status %d, %q %q", st, out.String(), errb.String())
	}
	errb.Reset()
	if st := run([]string{"run", testCO, "--kernel", "add", "--grid", "256", "--arg", "buf:4:256:zero", "--arg", "i32:101", "--expect", exp}, &out, &errb); st != 1 || !strings.Contains(errb.String(), "differs") {
		t.Errorf("--expect with other bytes: status %d, %q", st, errb.String())
	}
}

func TestRunErrors(t *testing.T) {
	cases := []struct {
		args   []string
		status int
		errut  string
	}{
		{[]string{"run"}, 2, "required"},
		{[]string{"run", testCO, "--kernel", "add"}, 2, "required"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "0"}, 2, "--grid"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "1,2,3,4"}, 2, "--grid"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "64", "--arg", "bogus:1"}, 2, "unknown kind"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "64", "--arg", "buf:4:8:nope"}, 2, "INIT"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "64", "--arg", "i32:x"}, 2, "i32:x"},
		{[]string{"run", testCO, "--kernel", "nosuch", "--grid", "64"}, 1, `no kernel "nosuch" (kernels: add, empty)`},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "64", "--arg", "buf:4:64:zero"}, 1, "takes 2 arguments, 1 given: out (global_buffer), v (by_value)"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "64", "--arg", "i32:1", "--arg", "i32:2"}, 1, "argument 0 out is global_buffer"},
		{[]string{"run", testCO, "--kernel", "add", "--grid", "64", "--target", "gfx906", "--arg", "buf:4:64:zero", "--arg", "i32:2"}, 1, "gfx906"},
		{[]string{"run", "/nonexistent.hsaco", "--kernel", "add", "--grid", "64"}, 1, "nonexistent"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		st := run(c.args, &out, &errb)
		if st != c.status || !strings.Contains(errb.String(), c.errut) {
			t.Errorf("rocpu %q: status %d stderr %q; want %d and %q", c.args, st, errb.String(), c.status, c.errut)
		}
	}
}

func TestParseRunArg(t *testing.T) {
	a, err := parseRunArg("buf:2:4:seq")
	if err != nil || !bytes.Equal(a.buf, []byte{0, 0, 1, 0, 2, 0, 3, 0}) {
		t.Errorf("seq buffer %v %v", a, err)
	}
	a1, _ := parseRunArg("buf:1:16:rand:7")
	a2, _ := parseRunArg("buf:1:16:rand:7")
	if !bytes.Equal(a1.buf, a2.buf) || bytes.Equal(a1.buf, make([]byte, 16)) {
		t.Error("rand:SEED is not deterministic or is all zero")
	}
	for spec, want := range map[string]any{"f32:1.5": float32(1.5), "u32:0x10": uint32(16), "i64:-3": int64(-3), "f64:2": 2.0} {
		if a, err := parseRunArg(spec); err != nil || a.value != want {
			t.Errorf("%s = %#v %v", spec, a.value, err)
		}
	}
	if a, err := parseRunArg("raw:0102"); err != nil || !bytes.Equal(a.value.([]byte), []byte{1, 2}) {
		t.Errorf("raw %v %v", a, err)
	}
}

// TestRunFault: a kernel storing outside device memory exits 1 and reports
// kernel, PC, lane, address and instruction.
func TestRunFault(t *testing.T) {
	var out, errb bytes.Buffer
	st := run([]string{"run", "../../hsa/testdata/fault.gfx90a.co4.hsaco", "--kernel", "wild", "--grid", "64", "--arg", "buf:4:64:zero"}, &out, &errb)
	msg := errb.String()
	if strings.Contains(msg, "illegal instruction") || strings.Contains(msg, "unimplemented") {
		t.Skipf("emulator cannot run the kernel yet: %s", msg)
	}
	if st != 1 {
		t.Fatalf("status %d, stderr %q", st, msg)
	}
	for _, want := range []string{"kernel wild faulted (HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)", " at pc 0x", "lane 0", "address 0x", "global_store_dword"} {
		if !strings.Contains(msg, want) {
			t.Errorf("fault report %q lacks %q", msg, want)
		}
	}
}
