package hsa

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/emu"
)

// TestLaunchPrintf: Launch allocates the printf buffer, passes it as
// hidden_printf_buffer and decodes it after the dispatch. The fake device
// writes the record the kernel's printf("hello %d from %s\n", n, "rocpu")
// would (ID 1, the int, the inline string padded to 8 bytes).
func TestLaunchPrintf(t *testing.T) {
	var out bytes.Buffer
	var devs []*fakeDevice
	r, err := New(Config{Stderr: io.Discard, PrintfOutput: &out, NewDevice: func(DeviceConfig) (Device, error) {
		d := &fakeDevice{}
		devs = append(devs, d)
		return d, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "printf.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := e.Symbol("hello.kd", gpu)
	k := sym.Kernel()
	layout, _ := k.Meta.KernargLayout()
	var pbOff uint64
	for _, s := range layout.Hidden {
		if s.Kind == codeobject.ValueKindHiddenPrintfBuffer {
			pbOff = s.Offset
		}
	}
	if pbOff == 0 || k.Printf[1] == nil {
		t.Fatalf("kernel has no printf buffer argument or format: %+v", k.Printf)
	}
	devs[0].setFn(func(_ context.Context, d *emu.Dispatch) error {
		ka, _ := r.Space().Slice(d.KernargAddr+pbOff, 8)
		pb := binary.LittleEndian.Uint64(ka)
		hdr, err := r.Space().Slice(pb, 8)
		if err != nil {
			return err
		}
		if size := binary.LittleEndian.Uint32(hdr[4:]); size != 1<<20 {
			t.Errorf("printf buffer size %d", size)
		}
		rec, _ := r.Space().Slice(pb+8, 16)
		binary.LittleEndian.PutUint32(rec, 1)
		binary.LittleEndian.PutUint32(rec[4:], 7)
		copy(rec[8:], "rocpu\x00\x00\x00")
		atomic.StoreUint32((*uint32)(r.Space().Find(pb).Pointer(pb, 4)), 16)
		return nil
	})
	q, _ := newQueue(t, r, 64)
	buf, _ := gpu.Pools()[0].Allocate(256, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.Launch(ctx, k, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, buf, int32(7)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "hello 7 from rocpu\n" {
		t.Errorf("printf output %q", got)
	}
}

// TestEmuPrintf runs the printf kernel on the emulator.
func TestEmuPrintf(t *testing.T) {
	var out bytes.Buffer
	r, err := New(Config{Workers: 2, Stderr: io.Discard, PrintfOutput: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "printf.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := e.Symbol("hello.kd", gpu)
	q, _ := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
	buf, _ := gpu.Pools()[0].Allocate(256*4, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := q.Launch(ctx, sym.Kernel(), [3]uint32{256, 1, 1}, [3]uint32{64, 1, 1}, buf, int32(42)); err != nil {
		var f *emu.Fault
		if errors.As(err, &f) && (f.Kind == emu.FaultUnimplemented || f.Kind == emu.FaultIllegal) {
			t.Skipf("emulator cannot run the kernel yet: %v", err)
		}
		t.Fatal(err)
	}
	if got := out.String(); got != "hello 42 from rocpu\n" {
		t.Errorf("printf output %q", got)
	}
	b, _ := r.Space().Slice(buf, 256*4)
	for i := 0; i < 256; i++ {
		if v := binary.LittleEndian.Uint32(b[4*i:]); v != 42 {
			t.Fatalf("out[%d] = %d", i, v)
		}
	}
}
