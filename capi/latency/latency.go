// Package latency measures the empty-kernel dispatch round trip (issue #7's
// performance acceptance: the C library within 2× of the Go API) the same
// way on both sides: reserve a queue slot, write the AQL kernel dispatch
// packet, publish its header, ring the doorbell and wait on the completion
// signal with hsa_signal_wait_scacquire (DESIGN.md "Signals and waking").
//
// The C side is csrc/latency.c, a program linked against the built
// libhsa-runtime64.so.1 (HIP's path into rocpu): Build compiles it with gcc
// against the Debian HSA headers, Run runs it as a child process. The Go
// side, GoRoundTrip, does the identical sequence through package hsa. The
// package has no cgo, so cmd/rocpu's bench and capi's tests can use it.
package latency

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rocpu/rocpu/hsa"
	"github.com/rocpu/rocpu/internal/abi"
)

// Source is the C benchmark program.
//
//go:embed csrc/latency.c
var Source []byte

// Soname is the library the program links against.
const Soname = "libhsa-runtime64.so.1"

// Headers is the header the program needs (Debian libhsa-runtime-dev).
const Headers = "/usr/include/hsa/hsa.h"

// ErrNoToolchain is returned by Build when gcc or the HSA headers are
// missing.
var ErrNoToolchain = errors.New("latency: gcc or the HSA headers (/usr/include/hsa) are not installed")

// Stats summarise round-trip times.
type Stats struct {
	Median, P10, P90, Min time.Duration
}

func (s Stats) String() string {
	return fmt.Sprintf("median %.1f µs (p10 %.1f, p90 %.1f, min %.1f)",
		us(s.Median), us(s.P10), us(s.P90), us(s.Min))
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// Result holds one measurement per wait-state hint of the completion wait.
type Result struct {
	Active  Stats // HSA_WAIT_STATE_ACTIVE
	Blocked Stats // HSA_WAIT_STATE_BLOCKED
}

// Build compiles the C program with gcc into dir, linked against the
// library in libDir (with an rpath to it), and returns its path.
func Build(ctx context.Context, libDir, dir string) (string, error) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return "", ErrNoToolchain
	}
	if _, err := os.Stat(Headers); err != nil {
		return "", ErrNoToolchain
	}
	if _, err := os.Stat(filepath.Join(libDir, Soname)); err != nil {
		return "", fmt.Errorf("latency: %w", err)
	}
	src := filepath.Join(dir, "latency.c")
	if err := os.WriteFile(src, Source, 0o644); err != nil {
		return "", err
	}
	exe := filepath.Join(dir, "latency")
	abs, err := filepath.Abs(libDir)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, gcc, "-O2", "-Wall", "-Werror", "-o", exe, src,
		"-L"+abs, "-l:"+Soname, "-Wl,-rpath,"+abs)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("latency: gcc: %v\n%s", err, out)
	}
	return exe, nil
}

// Run runs the program built by Build on the kernel symbol (for example
// "empty.kd") of the code object file, runs round trips per wait state,
// with the library in libDir first on the library path.
func Run(ctx context.Context, exe, libDir, codeObject, symbol string, runs int, env ...string) (*Result, error) {
	cmd := exec.CommandContext(ctx, exe, codeObject, symbol, strconv.Itoa(runs))
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+libDir)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("latency: %v\n%s", err, stderr.String())
	}
	return parse(stdout.String())
}

// parse reads the program's output lines "active|blocked median p10 p90 min"
// (nanoseconds).
func parse(out string) (*Result, error) {
	res := &Result{}
	seen := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(l)
		if len(f) != 5 {
			return nil, fmt.Errorf("latency: unexpected output line %q", l)
		}
		var v [4]time.Duration
		for i := range v {
			n, err := strconv.ParseUint(f[i+1], 10, 63)
			if err != nil {
				return nil, fmt.Errorf("latency: unexpected output line %q", l)
			}
			v[i] = time.Duration(n)
		}
		s := Stats{Median: v[0], P10: v[1], P90: v[2], Min: v[3]}
		switch f[0] {
		case "active":
			res.Active = s
			seen |= 1
		case "blocked":
			res.Blocked = s
			seen |= 2
		default:
			return nil, fmt.Errorf("latency: unexpected output line %q", l)
		}
	}
	if seen != 3 {
		return nil, fmt.Errorf("latency: incomplete output %q", out)
	}
	return res, nil
}

// Measure builds the program in a temporary directory, writes the code
// object there and runs it.
func Measure(ctx context.Context, libDir string, codeObject []byte, symbol string, runs int) (*Result, error) {
	dir, err := os.MkdirTemp("", "rocpu-latency")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	exe, err := Build(ctx, libDir, dir)
	if err != nil {
		return nil, err
	}
	co := filepath.Join(dir, "kernel.hsaco")
	if err := os.WriteFile(co, codeObject, 0o644); err != nil {
		return nil, err
	}
	return Run(ctx, exe, libDir, co, symbol, runs)
}

// GoRoundTrip measures runs round trips (after runs/10 of warm-up) of
// kernel k on q through the Go API, with the C program's sequence, and the
// completion wait in the given state.
func GoRoundTrip(q *hsa.Queue, k *hsa.Kernel, runs int, state hsa.WaitState) (Stats, error) {
	done, err := q.Agent().Runtime().CreateSignal(1, nil, 0)
	if err != nil {
		return Stats{}, err
	}
	defer done.Destroy()
	hdr := abi.MakePacketHeader(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, true, abi.HSA_FENCE_SCOPE_SYSTEM, abi.HSA_FENCE_SCOPE_SYSTEM)
	lat := make([]time.Duration, 0, runs)
	for i := -runs / 10; i < runs; i++ {
		done.Store(1)
		t := time.Now()
		idx := q.LoadWriteIndex()
		for idx-q.LoadReadIndex() >= uint64(q.Size()) {
		}
		q.StoreWriteIndex(idx + 1)
		p := q.Packet(idx)
		kp := p.KernelDispatch() // the header stays INVALID until Publish
		kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ, kp.Reserved0 = 1, 1, 1, 0
		kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = 1, 1, 1
		kp.KernelObject, kp.CompletionSignal = k.Object, done.Handle()
		kp.GroupSegmentSize, kp.PrivateSegmentSize = k.GroupSize, k.PrivateSize
		kp.KernargAddress, kp.Reserved2 = 0, 0
		p.Publish(hdr, 1)
		q.Ring(int64(idx))
		for done.Wait(hsa.HSA_SIGNAL_CONDITION_EQ, 0, time.Second, state) != 0 {
			if err := q.Err(); err != nil {
				return Stats{}, err
			}
		}
		if i >= 0 {
			lat = append(lat, time.Since(t))
		}
	}
	return summarise(lat), nil
}

func summarise(lat []time.Duration) Stats {
	if len(lat) == 0 {
		return Stats{}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	n := len(lat)
	return Stats{Median: lat[n/2], P10: lat[n/10], P90: lat[n*9/10], Min: lat[0]}
}
