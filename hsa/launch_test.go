package hsa

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/rocpu/rocpu/emu"
)

// TestConcurrentLaunch: Launch from several goroutines on one queue.
func TestConcurrentLaunch(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	kern := corpusKernel(t, r, "add")
	q, _ := newQueue(t, r, 64)
	out, _ := gpu.Pools()[0].Allocate(4096, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				if err := q.Launch(ctx, kern, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(g*100+i)); err != nil {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	if n := devs[0].count(); n != 100 {
		t.Fatalf("%d dispatches, want 100", n)
	}
	for _, d := range devs[0].all() {
		if d.KernargAddr == 0 || d.GridSize != [3]uint32{64, 1, 1} || d.Kernel != "add" {
			t.Fatalf("dispatch %+v", d)
		}
	}
}

// TestLaunchFault: Launch returns the device's fault, and later Launches
// on the failed queue return its error at once.
func TestLaunchFault(t *testing.T) {
	r, devs := newRT(t)
	kern := corpusKernel(t, r, "empty")
	fault := &emu.Fault{Kind: emu.FaultException, Kernel: "empty", Wave: 0, Lane: -1, Inst: "s_trap 2"}
	devs[0].setFn(func(context.Context, *emu.Dispatch) error { return fault })
	q, _ := newQueue(t, r, 64)
	ctx := context.Background()
	err := q.Launch(ctx, kern, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1})
	var f *emu.Fault
	if !errors.As(err, &f) || f != fault {
		t.Fatalf("Launch returned %v, want the fault", err)
	}
	wantStatus(t, err, HSA_STATUS_ERROR_EXCEPTION)
	err = q.Launch(ctx, kern, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1})
	wantStatus(t, err, HSA_STATUS_ERROR_EXCEPTION)
	// A canceled context stops the wait.
	devs[0].setFn(func(ctx context.Context, _ *emu.Dispatch) error { <-ctx.Done(); return ctx.Err() })
	q2, _ := newQueue(t, r, 64)
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := q2.Launch(cctx, kern, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Launch with an expiring context returned %v", err)
	}
	wantStatus(t, q.Launch(ctx, nil, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}), HSA_STATUS_ERROR_EXCEPTION) // the failed queue's error comes first
	wantStatus(t, q2.Launch(ctx, kern, [3]uint32{1, 1, 1}, [3]uint32{70000, 1, 1}), HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

// TestLaunchCanceledWhileRunning: when Launch's context ends while its
// packet still runs, the packet's kernarg and completion signal stay valid
// until it completes, so the queue does not fail.
func TestLaunchCanceledWhileRunning(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	kern := corpusKernel(t, r, "add")
	out, _ := gpu.Pools()[0].Allocate(4096, 0)
	release := make(chan struct{})
	devs[0].setFn(func(_ context.Context, d *emu.Dispatch) error {
		<-release
		// The kernarg segment must still be there.
		if _, err := r.Space().Slice(d.KernargAddr, 8); err != nil {
			t.Errorf("kernarg freed while the kernel ran: %v", err)
		}
		return nil
	})
	q, _ := newQueue(t, r, 64)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := q.Launch(ctx, kern, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Launch returned %v", err)
	}
	close(release)
	devs[0].setFn(nil)
	if err := q.Launch(context.Background(), kern, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(2)); err != nil {
		t.Fatalf("next Launch: %v", err)
	}
	if err := q.Err(); err != nil {
		t.Fatalf("queue failed: %v", err)
	}
}

// TestLaunchDuringShutdown: Close during a Launch makes it fail, not
// report success.
func TestLaunchDuringShutdown(t *testing.T) {
	var devs []*fakeDevice
	r, err := New(Config{Stderr: io.Discard, NewDevice: func(DeviceConfig) (Device, error) {
		d := &fakeDevice{fn: func(ctx context.Context, _ *emu.Dispatch) error { <-ctx.Done(); return ctx.Err() }}
		devs = append(devs, d)
		return d, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	kern := corpusKernel(t, r, "empty")
	q, _ := newQueue(t, r, 64)
	res := make(chan error, 1)
	go func() { res <- q.Launch(context.Background(), kern, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}) }()
	for devs[0].count() == 0 {
		time.Sleep(100 * time.Microsecond)
	}
	r.Close()
	select {
	case err := <-res:
		if err == nil {
			t.Fatal("Launch reported success after shutdown")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Launch hung across shutdown")
	}
}

// TestRuntimeStats: the runtime-wide counters sum every dispatch of every
// queue, outlive the queue, and count wall time spent in the device.
func TestRuntimeStats(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	kern := corpusKernel(t, r, "add")
	devs[0].setFn(func(ctx context.Context, d *emu.Dispatch) error {
		time.Sleep(2 * time.Millisecond)
		d.Stats.Workgroups, d.Stats.Waves, d.Stats.BytesStored = 1, 2, 256
		d.Stats.Instructions[0] = 10
		return nil
	})
	out, _ := gpu.Pools()[0].Allocate(4096, 0)
	ctx := context.Background()
	for qi := 0; qi < 2; qi++ {
		q, _ := newQueue(t, r, 64)
		for i := 0; i < 3; i++ {
			if err := q.Launch(ctx, kern, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := q.Destroy(); err != nil {
			t.Fatal(err)
		}
	}
	s := r.Stats()
	if s.Kernels != 6 || s.Counters.Workgroups != 6 || s.Counters.Waves != 12 || s.Counters.BytesStored != 6*256 || s.Counters.Total() != 60 {
		t.Errorf("stats %+v, want 6 kernels of 1 workgroup, 2 waves, 10 instructions, 256 bytes stored", s)
	}
	if s.Busy < 12*time.Millisecond || s.Busy > 10*time.Second {
		t.Errorf("busy %v, want at least 6 × 2ms", s.Busy)
	}
	r.Close()
	if r.Stats().Kernels != 6 {
		t.Error("stats lost at Close")
	}
}
