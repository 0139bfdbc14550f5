package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rocpu/rocpu/capi/latency"
	"github.com/rocpu/rocpu/hsa"
)

// clibRuns is the number of round trips per wait state on each side.
const clibRuns = 2000

// measureCLibrary measures the empty-kernel round trip through the C
// library (capi/latency's program, HIP's path: write index, packet,
// doorbell, hsa_signal_wait_scacquire) when libhsa-runtime64.so.1 lies
// next to the running binary (`make build` puts both in bin/), and the
// identical sequence through the Go API on the suite's queue, so that the
// two figures come from the same run. Without the library, or without gcc
// and the HSA headers to build the program, it says why in ex.CLibraryNote.
func measureCLibrary(ctx context.Context, o *Options, rc *Rocpu, k *hsa.Kernel, ex *Extras) {
	self, err := os.Executable()
	if err != nil {
		ex.CLibraryNote = fmt.Sprintf("not measured: %v", err)
		return
	}
	dir := filepath.Dir(self)
	if _, err := os.Stat(filepath.Join(dir, latency.Soname)); err != nil {
		ex.CLibraryNote = "not measured: " + latency.Soname + " not built (make build puts it next to bin/rocpu)"
		o.logf("dispatch (C library): %s", ex.CLibraryNote)
		return
	}
	co, err := CodeObject("empty")
	if err != nil {
		ex.CLibraryNote = fmt.Sprintf("not measured: %v", err)
		return
	}
	res, err := latency.Measure(ctx, dir, co, "empty.kd", clibRuns)
	if err != nil {
		if errors.Is(err, latency.ErrNoToolchain) {
			ex.CLibraryNote = "not measured: gcc or the HSA headers are not installed"
		} else {
			ex.CLibraryNote = fmt.Sprintf("not measured: %v", err)
		}
		o.logf("dispatch (C library): %s", ex.CLibraryNote)
		return
	}
	goA, err := latency.GoRoundTrip(rc.q, k, clibRuns, hsa.HSA_WAIT_STATE_ACTIVE)
	if err != nil {
		ex.CLibraryNote = fmt.Sprintf("not measured (Go side): %v", err)
		return
	}
	goB, err := latency.GoRoundTrip(rc.q, k, clibRuns, hsa.HSA_WAIT_STATE_BLOCKED)
	if err != nil {
		ex.CLibraryNote = fmt.Sprintf("not measured (Go side): %v", err)
		return
	}
	ex.CDispatchLatencyUs = us(res.Active.Median)
	ex.CDispatchLatencyBlockedUs = us(res.Blocked.Median)
	ex.GoPacketLatencyUs = us(goA.Median)
	ex.GoPacketLatencyBlockedUs = us(goB.Median)
	ex.CLibraryNote = fmt.Sprintf("C library %.1f µs (wait ACTIVE) / %.1f µs (BLOCKED); same sequence through the Go API %.1f / %.1f µs; ratio %.2f / %.2f",
		ex.CDispatchLatencyUs, ex.CDispatchLatencyBlockedUs, ex.GoPacketLatencyUs, ex.GoPacketLatencyBlockedUs,
		ex.CDispatchLatencyUs/max(ex.GoPacketLatencyUs, 1e-3), ex.CDispatchLatencyBlockedUs/max(ex.GoPacketLatencyBlockedUs, 1e-3))
	o.logf("dispatch (packet round trip, medians): %s", ex.CLibraryNote)
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
