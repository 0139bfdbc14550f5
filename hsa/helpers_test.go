package hsa

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/rocpu/rocpu/emu"
)

// fakeDevice records dispatches and runs fn for each (nil: succeed).
type fakeDevice struct {
	mu         sync.Mutex
	dispatches []emu.Dispatch
	fn         func(ctx context.Context, d *emu.Dispatch) error
}

func (f *fakeDevice) Dispatch(ctx context.Context, d *emu.Dispatch) error {
	f.mu.Lock()
	f.dispatches = append(f.dispatches, *d)
	fn := f.fn
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, d)
	}
	return nil
}

func (f *fakeDevice) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.dispatches)
}

func (f *fakeDevice) setFn(fn func(ctx context.Context, d *emu.Dispatch) error) {
	f.mu.Lock()
	f.fn = fn
	f.mu.Unlock()
}

// newRT opens an independent runtime whose GPU agents use fake devices.
func newRT(t testing.TB, targets ...string) (*Runtime, []*fakeDevice) {
	t.Helper()
	var devs []*fakeDevice
	r, err := New(Config{Targets: targets, Stderr: io.Discard, NewDevice: func(DeviceConfig) (Device, error) {
		d := &fakeDevice{}
		devs = append(devs, d)
		return d, nil
	}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r, devs
}

// wantStatus fails unless err carries status st.
func wantStatus(t testing.TB, err error, st Status) {
	t.Helper()
	if st == HSA_STATUS_SUCCESS {
		if err != nil {
			t.Fatalf("got error %v, want success", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("got success, want %v", st)
	}
	if !errors.Is(err, st) || StatusOf(err) != st {
		t.Fatalf("got %v (status %v), want %v", err, StatusOf(err), st)
	}
}

// all returns a copy of the recorded dispatches (under the lock, which
// also orders the test's reads after the device's writes).
func (f *fakeDevice) all() []emu.Dispatch {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]emu.Dispatch(nil), f.dispatches...)
}

// corpusKernel loads the corpus's kernels.gfx90a.co4.hsaco onto r's first
// GPU agent and returns its kernel name ("add", "empty", ...).
func corpusKernel(t testing.TB, r *Runtime, name string) *Kernel {
	t.Helper()
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	sym, err := e.Symbol(name+".kd", gpu)
	if err != nil {
		t.Fatal(err)
	}
	return sym.Kernel()
}
