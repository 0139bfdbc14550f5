package hsa

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/vmem"
)

func TestOpenCloseRefcount(t *testing.T) {
	cfg := Config{NewDevice: func(DeviceConfig) (Device, error) { return &fakeDevice{}, nil }}
	r1, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r1 != r2 || Default() != r1 {
		t.Fatalf("second Open returned a different runtime")
	}
	gpu := r1.GPUAgents()[0]
	h := gpu.Handle()
	wantStatus(t, r1.Close(), HSA_STATUS_SUCCESS)
	if _, err := r1.Agent(h); err != nil {
		t.Fatalf("runtime closed after one of two Closes: %v", err)
	}
	wantStatus(t, r1.Close(), HSA_STATUS_SUCCESS)
	wantStatus(t, r1.Close(), HSA_STATUS_ERROR_NOT_INITIALIZED)
	_, err = r1.Agents()
	wantStatus(t, err, HSA_STATUS_ERROR_NOT_INITIALIZED)
	wantStatus(t, r1.Acquire(), HSA_STATUS_ERROR_NOT_INITIALIZED)
	if Default() != nil {
		t.Fatal("Default() after shut-down is not nil")
	}
	r3, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r3.Close()
	if r3 == r1 {
		t.Fatal("Open after shut-down reused the old runtime")
	}
	_, err = r3.Agent(h)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT) // stale handle
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("ROCPU_TARGETS", "gfx90a, gfx906:xnack-")
	t.Setenv("ROCPU_WORKERS", "3")
	c, err := ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(c.Targets) != "[gfx90a gfx906:xnack-]" || c.Workers != 3 {
		t.Fatalf("got %+v", c)
	}
	t.Setenv("ROCPU_WORKERS", "many")
	_, err = ConfigFromEnv()
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

func TestBadTargets(t *testing.T) {
	for _, tgt := range []string{"gfx9999", "r600", "gfx9-generic", ""} {
		if tgt == "" {
			continue
		}
		_, err := New(Config{Targets: []string{tgt}, NewDevice: func(DeviceConfig) (Device, error) { return &fakeDevice{}, nil }})
		wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
		if !strings.Contains(err.Error(), tgt) {
			t.Errorf("error %q does not name the target %q", err, tgt)
		}
	}
	_, err := New(Config{Workers: -1})
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

func TestStatusTable(t *testing.T) {
	cases := []struct {
		err  error
		want Status
	}{
		{nil, HSA_STATUS_SUCCESS},
		{HSA_STATUS_ERROR_INVALID_QUEUE, HSA_STATUS_ERROR_INVALID_QUEUE},
		{fmt.Errorf("wrapped: %w", errorf("x", HSA_STATUS_ERROR_INVALID_SIGNAL, "y")), HSA_STATUS_ERROR_INVALID_SIGNAL},
		{&emu.Fault{Kind: emu.FaultMemory}, HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION},
		{&emu.Fault{Kind: emu.FaultMisaligned}, HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION},
		{&emu.Fault{Kind: emu.FaultException}, HSA_STATUS_ERROR_EXCEPTION},
		{&emu.Fault{Kind: emu.FaultIllegal}, HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION},
		{&emu.Fault{Kind: emu.FaultUnimplemented}, HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION},
		{&emu.Fault{Kind: emu.FaultBudget}, HSA_STATUS_ERROR_EXCEPTION},
		{&vmem.Fault{Kind: vmem.FaultUnmapped}, HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION},
		{fmt.Errorf("x: %w", vmem.ErrNoMemory), HSA_STATUS_ERROR_OUT_OF_RESOURCES},
		{notSupported("op", "thing"), HSA_STATUS_ERROR},
		{errors.New("other"), HSA_STATUS_ERROR},
	}
	for _, c := range cases {
		if got := StatusOf(c.err); got != c.want {
			t.Errorf("StatusOf(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if !errors.Is(notSupported("op", "thing"), ErrNotSupported) {
		t.Error("notSupported does not wrap ErrNotSupported")
	}
	// Values from the Debian 5.2.3 headers.
	for st, v := range map[Status]int32{
		HSA_STATUS_ERROR_INVALID_ARGUMENT:           0x1001,
		HSA_STATUS_ERROR_INVALID_ISA_NAME:           0x1017,
		HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: 0x1021,
		HSA_STATUS_ERROR_FATAL:                      0x1026,
		HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:  41,
		HSA_STATUS_CU_MASK_REDUCED:                  44,
	} {
		if int32(st) != v {
			t.Errorf("%v = %#x, want %#x", st, int32(st), v)
		}
	}
	if d, ok := HSA_STATUS_ERROR_INVALID_AGENT.Description(); !ok || d != "HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid." {
		t.Errorf("description %q %v", d, ok)
	}
	if _, ok := Status(0x7777).Description(); ok {
		t.Error("unknown status has a description")
	}
	if s := Status(0x7777).String(); s != "hsa_status_t(0x7777)" {
		t.Errorf("unknown status prints %q", s)
	}
}

func TestSystemInfo(t *testing.T) {
	r, _ := newRT(t)
	want := map[SystemInfo]any{
		HSA_SYSTEM_INFO_VERSION_MAJOR:                 uint16(1),
		HSA_SYSTEM_INFO_VERSION_MINOR:                 uint16(1),
		HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:           uint64(1_000_000_000),
		HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:               ^uint64(0),
		HSA_SYSTEM_INFO_ENDIANNESS:                    uint32(HSA_ENDIANNESS_LITTLE),
		HSA_SYSTEM_INFO_MACHINE_MODEL:                 uint32(HSA_MACHINE_MODEL_LARGE),
		HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED:             false,
		HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: false,
		HSA_AMD_SYSTEM_INFO_BUILD_VERSION:             BuildVersion,
	}
	for attr, w := range want {
		v, err := r.SystemInfo(attr)
		if err != nil || v != w {
			t.Errorf("SystemInfo(%#x) = %v, %v; want %v", uint32(attr), v, err, w)
		}
	}
	t1, _ := r.SystemInfo(HSA_SYSTEM_INFO_TIMESTAMP)
	t2, _ := r.SystemInfo(HSA_SYSTEM_INFO_TIMESTAMP)
	if t1.(uint64) == 0 || t2.(uint64) < t1.(uint64) {
		t.Errorf("timestamps %v then %v", t1, t2)
	}
	ext, _ := r.SystemInfo(HSA_SYSTEM_INFO_EXTENSIONS)
	if e := ext.([128]byte); e[0x201/8] != 1<<(0x201%8) {
		t.Errorf("extension bitmask byte %d = %#x, want the AMD loader bit", 0x201/8, e[0x201/8])
	}
	if e := ext.([128]byte); e[0] != 1<<HSA_EXTENSION_IMAGES {
		t.Errorf("extension bitmask byte 0 = %#x, want the images bit", e[0])
	}
	if !r.ExtensionSupported(HSA_EXTENSION_AMD_LOADER, 1, 3) || r.ExtensionSupported(HSA_EXTENSION_AMD_LOADER, 1, 4) ||
		!r.ExtensionSupported(HSA_EXTENSION_IMAGES, 1, 0) || r.ExtensionSupported(HSA_EXTENSION_IMAGES, 2, 0) ||
		r.ExtensionSupported(HSA_EXTENSION_FINALIZER, 1, 0) {
		t.Error("ExtensionSupported answers wrong")
	}
	_, err := r.SystemInfo(99)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

// TestTimestampDomain: the system timestamp is CLOCK_MONOTONIC in
// nanoseconds, the clock HIP's host-side event times use.
func TestTimestampDomain(t *testing.T) {
	before := clockMonotonic()
	ts := Timestamp()
	after := clockMonotonic()
	if before == 0 || ts+1000 < before || ts > after+1_000_000 {
		t.Fatalf("Timestamp %d outside CLOCK_MONOTONIC [%d, %d]", ts, before, after)
	}
}
