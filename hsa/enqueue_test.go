package hsa

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rocpu/rocpu/emu"
)

// kernargInt reads the int32 at offset off of a dispatch's kernarg segment.
func kernargInt(t *testing.T, r *Runtime, d emu.Dispatch, off uint64) int32 {
	t.Helper()
	b, err := r.Space().Slice(d.KernargAddr+off, 4)
	if err != nil {
		t.Fatal(err)
	}
	return int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// TestEnqueue: packets enqueued before any wait run in order, each with
// its own arguments (its kernarg block is not reused while it may still
// run), more packets than the ring holds wait for room, Wait in any order
// reports success, and once they are all waited for the queue's cache
// holds their blocks and signals for the next batch.
func TestEnqueue(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	kern := corpusKernel(t, r, "add")
	q, _ := newQueue(t, r, 64)
	out, _ := gpu.Pools()[0].Allocate(4096, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The device checks each packet's argument as it runs: the kernarg
	// block must still hold what Enqueue wrote.
	var seen []int32
	devs[0].setFn(func(_ context.Context, d *emu.Dispatch) error {
		seen = append(seen, kernargInt(t, r, *d, 8))
		return nil
	})
	const n = 150 // more than the 64-packet ring
	for round := 0; round < 2; round++ {
		seen = seen[:0]
		var ps []*Pending
		for i := 0; i < n; i++ {
			p, err := q.Enqueue(ctx, kern, LaunchOptions{Grid: [3]uint32{64, 1, 1}, Workgroup: [3]uint32{64, 1, 1}}, out, int32(1000*round+i))
			if err != nil {
				t.Fatalf("Enqueue %d: %v", i, err)
			}
			ps = append(ps, p)
		}
		for i := n - 1; i >= 0; i-- {
			if err := ps[i].Wait(ctx); err != nil {
				t.Fatalf("Wait %d: %v", i, err)
			}
		}
		if err := ps[0].Wait(ctx); err != nil {
			t.Errorf("second Wait: %v", err)
		}
		if len(seen) != n {
			t.Fatalf("round %d: %d dispatches ran, want %d", round, len(seen), n)
		}
		for i, v := range seen {
			if v != int32(1000*round+i) {
				t.Fatalf("round %d: dispatch %d saw argument %d, want %d", round, i, v, 1000*round+i)
			}
		}
	}
	q.launch.mu.Lock()
	nsig, nka := len(q.launch.signals), len(q.launch.kernargs[0])
	q.launch.mu.Unlock()
	if nsig < 64 || nka < 64 {
		t.Errorf("after the batches the cache holds %d signals and %d kernarg blocks, want at least the 64 a full ring used", nsig, nka)
	}
}

// TestEnqueueFault: when a packet of a batch faults, its Wait and every
// later packet's Wait return the fault (the queue failed, so they never
// ran), earlier ones succeed, and Enqueue on the failed queue reports its
// error.
func TestEnqueueFault(t *testing.T) {
	r, devs := newRT(t)
	kern := corpusKernel(t, r, "empty")
	fault := &emu.Fault{Kind: emu.FaultException, Kernel: "empty", Wave: 0, Lane: -1, Inst: "s_trap 2"}
	ran := 0
	gate := make(chan struct{})
	devs[0].setFn(func(context.Context, *emu.Dispatch) error {
		<-gate
		if ran++; ran == 3 {
			return fault
		}
		return nil
	})
	q, _ := newQueue(t, r, 64)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var ps []*Pending
	for i := 0; i < 6; i++ {
		p, err := q.Enqueue(ctx, kern, LaunchOptions{Grid: [3]uint32{1, 1, 1}})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	close(gate)
	for i, p := range ps {
		err := p.Wait(ctx)
		if i < 2 {
			if err != nil {
				t.Errorf("packet %d: %v, want success", i, err)
			}
			continue
		}
		var f *emu.Fault
		if !errors.As(err, &f) || f != fault {
			t.Errorf("packet %d: Wait returned %v, want the fault", i, err)
		}
	}
	if ran != 3 {
		t.Errorf("%d packets ran, want 3 (none after the fault)", ran)
	}
	if _, err := q.Enqueue(ctx, kern, LaunchOptions{}); err == nil {
		t.Error("Enqueue on the failed queue succeeded")
	} else {
		wantStatus(t, err, HSA_STATUS_ERROR_EXCEPTION)
	}
}
