package hsa

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/rocpu/rocpu/emu"
)

// newEmuRT opens a runtime whose GPU agent is the real emulator.
func newEmuRT(t testing.TB) *Runtime {
	t.Helper()
	r, err := New(Config{Workers: 2, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestEmuLaunch runs the add kernel on the emulator through the loader, a
// queue and Launch: out[i] = table[i&3] + v + *ptrs[1] + counter, where
// table = {1,2,3,4}, *ptrs[1] = table[2] = 3 and counter = 5.
func TestEmuLaunch(t *testing.T) {
	r := newEmuRT(t)
	gpu := r.GPUAgents()[0]
	e, l, err := loadExe(t, r, gpu, "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.PredecodeErr(); err != nil {
		t.Errorf("the emulator could not predecode at load: %v", err)
	}
	sym, err := e.Symbol("add.kd", gpu)
	if err != nil {
		t.Fatal(err)
	}
	q, err := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	const n = 256
	out, _ := gpu.Pools()[0].Allocate(n*4, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := q.Launch(ctx, sym.Kernel(), [3]uint32{n, 1, 1}, [3]uint32{64, 1, 1}, out, int32(100)); err != nil {
		var f *emu.Fault
		if errors.As(err, &f) && (f.Kind == emu.FaultUnimplemented || f.Kind == emu.FaultIllegal) {
			t.Skipf("emulator cannot run the kernel yet: %v", err)
		}
		t.Fatal(err)
	}
	b, _ := r.Space().Slice(out, n*4)
	for i := 0; i < n; i++ {
		want := int32(1+i&3) + 100 + 3 + 5
		if got := int32(binary.LittleEndian.Uint32(b[4*i:])); got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
	// Wrong argument count: a clear error, nothing dispatched.
	err = q.Launch(ctx, sym.Kernel(), [3]uint32{n, 1, 1}, [3]uint32{64, 1, 1}, out)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

// TestEmuFault: a kernel storing through a bad pointer faults; the queue
// reports HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION and Launch returns the
// emulator's fault.
func TestEmuFault(t *testing.T) {
	r := newEmuRT(t)
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := e.Symbol("add.kd", gpu)
	got := make(chan Status, 1)
	q, _ := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, func(st Status, _ *Queue) { got <- st }, 0, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err = q.Launch(ctx, sym.Kernel(), [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, uint64(0x1000), int32(1))
	var f *emu.Fault
	if !errors.As(err, &f) {
		t.Fatalf("Launch returned %v, want an *emu.Fault", err)
	}
	if f.Kind == emu.FaultUnimplemented || f.Kind == emu.FaultIllegal {
		t.Skipf("emulator cannot run the kernel yet: %v", err)
	}
	if f.Kind != emu.FaultMemory || f.Kernel != "add" {
		t.Errorf("fault %+v", f)
	}
	wantStatus(t, err, HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)
	if st := <-got; st != HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION {
		t.Errorf("callback status %v", st)
	}
}

// TestEmuHIPKernel runs hipcc's vadd (out[i] = a[i] + 1 for i < n) from a
// HIP executable's fat binary, with a partial last workgroup.
func TestEmuHIPKernel(t *testing.T) {
	r := newEmuRT(t)
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "vadd.hipexe")
	if err != nil {
		t.Fatal(err)
	}
	sym, err := e.Symbol("_Z4vaddPiPKii.kd", gpu)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
	const n = 1000
	a, _ := gpu.Pools()[0].Allocate(n*4, 0)
	out, _ := gpu.Pools()[0].Allocate(n*4+64, 0)
	ab, _ := r.Space().Slice(a, n*4)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(ab[4*i:], uint32(i*3))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := q.Launch(ctx, sym.Kernel(), [3]uint32{1024, 1, 1}, [3]uint32{256, 1, 1}, out, a, int32(n)); err != nil {
		var f *emu.Fault
		if errors.As(err, &f) && (f.Kind == emu.FaultUnimplemented || f.Kind == emu.FaultIllegal) {
			t.Skipf("emulator cannot run the kernel yet: %v", err)
		}
		t.Fatal(err)
	}
	ob, _ := r.Space().Slice(out, n*4+64)
	for i := 0; i < n; i++ {
		if got := binary.LittleEndian.Uint32(ob[4*i:]); got != uint32(i*3+1) {
			t.Fatalf("out[%d] = %d, want %d", i, got, i*3+1)
		}
	}
	for i := n * 4; i < n*4+64; i++ {
		if ob[i] != 0 {
			t.Fatalf("kernel wrote past n at byte %d", i)
		}
	}
}

// TestEmuSignalFromKernel: a kernel stores to a signal through ockl
// (value, event id to the mailbox, s_sendmsg MSG_INTERRUPT); the
// interrupt names the signal's event id and wakes a blocked waiter.
func TestEmuSignalFromKernel(t *testing.T) {
	var irqs []emu.Interrupt
	var mu sync.Mutex
	r, err := New(Config{Workers: 2, Stderr: io.Discard, NewDevice: func(c DeviceConfig) (Device, error) {
		orig := c.OnInterrupt
		c.OnInterrupt = func(irq emu.Interrupt) {
			mu.Lock()
			irqs = append(irqs, irq)
			mu.Unlock()
			orig(irq)
		}
		return defaultDevice(c)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "signal.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := e.Symbol("notify.kd", gpu)
	s, _ := r.CreateSignal(1, nil, 0)
	woke := make(chan int64, 1)
	go func() { woke <- s.Wait(HSA_SIGNAL_CONDITION_EQ, 42, WaitForever, HSA_WAIT_STATE_BLOCKED) }()
	q, _ := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := q.Launch(ctx, sym.Kernel(), [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, s.Handle(), int64(42)); err != nil {
		var f *emu.Fault
		if errors.As(err, &f) && (f.Kind == emu.FaultUnimplemented || f.Kind == emu.FaultIllegal) {
			t.Skipf("emulator cannot run the kernel yet: %v", err)
		}
		t.Fatal(err)
	}
	select {
	case v := <-woke:
		if v != 42 {
			t.Fatalf("waiter saw %d", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel's signal store did not wake the waiter")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(irqs) != 1 || irqs[0].MailboxAddr != s.ABI().EventMailboxPtr || irqs[0].MailboxValue != uint64(s.EventID()) || irqs[0].M0 != s.EventID()&0xFF {
		t.Errorf("interrupts %+v, want one naming event %d at mailbox %#x", irqs, s.EventID(), s.ABI().EventMailboxPtr)
	}
}
