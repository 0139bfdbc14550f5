package bench

import (
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/rocpu/rocpu/hsa"
	"github.com/rocpu/rocpu/internal/abi"
	"github.com/rocpu/rocpu/isa"
)

// Extras are the suite's measurements besides the kernels.
type Extras struct {
	// Empty-kernel dispatch through the Go API: Launch round trip, and
	// packets submitted in batches of 256 with one completion signal.
	DispatchLatencyUs     float64 `json:"dispatch_latency_us"`
	DispatchLatencyMinUs  float64 `json:"dispatch_latency_min_us"`
	DispatchPerSec        float64 `json:"dispatch_per_sec"`
	PoCLDispatchLatencyUs float64 `json:"pocl_dispatch_latency_us,omitempty"`
	PoCLDispatchPerSec    float64 `json:"pocl_dispatch_per_sec,omitempty"`
	// Empty-kernel packet round trip (write index, packet, doorbell, wait
	// on the completion signal), medians: through the C library
	// libhsa-runtime64.so.1 as HIP drives it, and the same sequence
	// through the Go API in the same run, each with the wait's ACTIVE and
	// BLOCKED hints (issue #7: C within 2× of Go). CLibraryNote summarises
	// them or says why they were not measured.
	CDispatchLatencyUs        float64 `json:"c_dispatch_latency_us,omitempty"`
	CDispatchLatencyBlockedUs float64 `json:"c_dispatch_latency_blocked_us,omitempty"`
	GoPacketLatencyUs         float64 `json:"go_packet_latency_us,omitempty"`
	GoPacketLatencyBlockedUs  float64 `json:"go_packet_latency_blocked_us,omitempty"`
	CLibraryNote              string  `json:"c_library"`
	// Code object load: reader, executable, load, freeze, median per object.
	LoadFreezeUs map[string]float64 `json:"load_freeze_us"`
	// Decoder: instructions decoded per second over the suite's .text.
	DecodePerSec float64 `json:"decode_per_sec"`
	DecodeBytes  int     `json:"decode_bytes"`
}

func medianDur(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

func measureExtras(ctx context.Context, o *Options, pocl Side, rc *Rocpu) (*Extras, error) {
	ex := &Extras{LoadFreezeUs: map[string]float64{}}
	k, err := rc.Kernel("empty", "empty")
	if err != nil {
		return nil, err
	}
	// Launch round trip.
	var lat []time.Duration
	for i := 0; i < 3000; i++ {
		t := time.Now()
		if err := rc.q.Launch(ctx, k, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t))
	}
	lat = lat[500:] // warm-up
	ex.DispatchLatencyUs = float64(medianDur(lat).Nanoseconds()) / 1e3
	ex.DispatchLatencyMinUs = float64(lat[0].Nanoseconds()) / 1e3
	// Batched packets.
	rate, err := batchedDispatch(rc, k, 200*time.Millisecond)
	if err != nil {
		return nil, err
	}
	ex.DispatchPerSec = rate
	o.logf("dispatch (Go API): latency median %.1f µs, batched %.0f/s", ex.DispatchLatencyUs, ex.DispatchPerSec)
	measureCLibrary(ctx, o, rc, k, ex)
	if pocl != nil {
		b := &Benchmark{Name: "empty"}
		one := &Workload{Dispatches: []Dispatch{{Kernel: "empty", Global: dims1(1), Local: dims1(1)}}}
		pi, err := pocl.Prepare(b, one)
		if err != nil {
			return nil, err
		}
		var pl []time.Duration
		for i := 0; i < 2000; i++ {
			t := time.Now()
			if err := pi.Run(ctx); err != nil {
				return nil, err
			}
			pl = append(pl, time.Since(t))
		}
		pi.Close()
		ex.PoCLDispatchLatencyUs = float64(medianDur(pl[200:]).Nanoseconds()) / 1e3
		many := &Workload{}
		for i := 0; i < 256; i++ {
			many.Dispatches = append(many.Dispatches, one.Dispatches[0])
		}
		pi, err = pocl.Prepare(b, many)
		if err != nil {
			return nil, err
		}
		n, t := 0, time.Now()
		for time.Since(t) < 200*time.Millisecond {
			if err := pi.Run(ctx); err != nil {
				return nil, err
			}
			n += 256
		}
		ex.PoCLDispatchPerSec = float64(n) / time.Since(t).Seconds()
		pi.Close()
		o.logf("dispatch (PoCL): latency median %.1f µs, batched %.0f/s", ex.PoCLDispatchLatencyUs, ex.PoCLDispatchPerSec)
	}
	// Code object load + freeze, and the decoder over every .text.
	ents, _ := kernelFS.ReadDir("kernels")
	var text []byte
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".hsaco")
		if !ok {
			continue
		}
		data, _ := CodeObject(name)
		var ds []time.Duration
		for i := 0; i < 30; i++ {
			t := time.Now()
			exe, err := rc.LoadCodeObject(data)
			if err != nil {
				return nil, fmt.Errorf("%s.hsaco: %w", name, err)
			}
			ds = append(ds, time.Since(t))
			exe.Destroy()
		}
		ex.LoadFreezeUs[name] = float64(medianDur(ds).Nanoseconds()) / 1e3
		f, err := elf.NewFile(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		if s := f.Section(".text"); s != nil {
			b, err := s.Data()
			if err != nil {
				return nil, err
			}
			text = append(text, b...)
		}
	}
	ex.DecodeBytes = len(text)
	rate, err = decodeRate(text, 300*time.Millisecond)
	if err != nil {
		return nil, err
	}
	ex.DecodePerSec = rate
	o.logf("decoder: %.1f M instructions/s over %d bytes of .text", rate/1e6, len(text))
	return ex, nil
}

// decodeRate decodes code repeatedly for at least d and returns
// instructions per second.
func decodeRate(code []byte, d time.Duration) (float64, error) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		return 0, err
	}
	var in isa.Inst
	n, t := 0, time.Now()
	for time.Since(t) < d {
		for off := 0; off+4 <= len(code); {
			if err := isa.DecodeInto(&in, tg, code[off:]); err != nil {
				off += 4 // padding or data, as llvm-objdump
				continue
			}
			off += int(in.Len)
			n++
		}
	}
	return float64(n) / time.Since(t).Seconds(), nil
}

// batchedDispatch submits empty-kernel packets in batches of 256 with one
// completion signal for at least d and returns dispatches per second.
func batchedDispatch(rc *Rocpu, k *hsa.Kernel, d time.Duration) (float64, error) {
	q := rc.q
	done, err := rc.rt.CreateSignal(0, nil, 0)
	if err != nil {
		return 0, err
	}
	defer done.Destroy()
	const batch = 256
	hdr := abi.MakePacketHeader(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, false, abi.HSA_FENCE_SCOPE_SYSTEM, abi.HSA_FENCE_SCOPE_SYSTEM)
	n, t := 0, time.Now()
	for time.Since(t) < d {
		done.Store(batch)
		for i := 0; i < batch; i++ {
			idx := q.AddWriteIndex(1)
			for idx >= q.LoadReadIndex()+uint64(q.Size()) {
				if err := q.Err(); err != nil {
					return 0, err
				}
			}
			p := q.Packet(idx)
			kp := p.KernelDispatch()
			kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 1, 1, 1
			kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = 1, 1, 1
			kp.PrivateSegmentSize, kp.GroupSegmentSize = k.PrivateSize, k.GroupSize
			kp.KernelObject, kp.KernargAddress, kp.CompletionSignal = k.Object, 0, done.Handle()
			p.Publish(hdr, 1)
		}
		q.Ring(int64(q.LoadWriteIndex() - 1))
		for done.Wait(hsa.HSA_SIGNAL_CONDITION_EQ, 0, time.Second, hsa.HSA_WAIT_STATE_ACTIVE) != 0 {
			if err := q.Err(); err != nil {
				return 0, err
			}
		}
		n += batch
	}
	return float64(n) / time.Since(t).Seconds(), nil
}

// cpuName is the CPU model from /proc/cpuinfo.
func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
