package hsa

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/internal/abi"
)

// LaunchOptions are the less common parts of a Launch.
type LaunchOptions struct {
	Grid, Workgroup [3]uint32 // in work-items; 0 entries mean 1
	Offset          [3]uint64 // global offset (hidden_global_offset_*)
	DynamicLDS      uint32    // extra LDS bytes (HIP's extern __shared__)
	PrintfBuffer    uint64    // hidden_printf_buffer, if the kernel has one
}

// Launch runs kernel k over grid work-items in workgroups of workgroup
// (DESIGN.md "Convenience launch"): it builds the kernarg segment with
// codeobject's layout from the kernel's metadata (explicit args in order,
// then the hidden arguments the metadata lists), allocates it from the CPU
// agent's kernarg pool, writes a kernel dispatch packet, rings the doorbell
// and waits for completion. It returns the device's fault (an *emu.Fault,
// via errors.As) or the queue error when the dispatch failed.
func (q *Queue) Launch(ctx context.Context, k *Kernel, grid, workgroup [3]uint32, args ...any) error {
	return q.LaunchWith(ctx, k, LaunchOptions{Grid: grid, Workgroup: workgroup}, args...)
}

// LaunchWith is Launch with options.
func (q *Queue) LaunchWith(ctx context.Context, k *Kernel, o LaunchOptions, args ...any) error {
	const op = "Queue.Launch"
	if err := q.check(op); err != nil {
		return err
	}
	if err := q.Err(); err != nil {
		return err
	}
	if k == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "nil kernel")
	}
	r := q.rt
	dims := 1
	for i := 0; i < 3; i++ {
		if o.Grid[i] == 0 {
			o.Grid[i] = 1
		}
		if o.Workgroup[i] == 0 {
			o.Workgroup[i] = 1
		}
		if o.Grid[i] > 1 || o.Workgroup[i] > 1 {
			dims = i + 1
		}
		if o.Workgroup[i] > 0xFFFF {
			return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "workgroup size %v does not fit a packet", o.Workgroup)
		}
	}
	var kernarg []byte
	group := k.GroupSize + o.DynamicLDS
	var printfBuf []byte
	// cleanup frees what the packet uses, in reverse order, once the
	// packet can no longer run.
	var cleanup []func()
	release := func() {
		for i := len(cleanup) - 1; i >= 0; i-- {
			cleanup[i]()
		}
	}
	published := false
	defer func() {
		if !published {
			release()
		}
	}()
	if k.Meta != nil {
		layout, err := k.Meta.KernargLayout()
		if err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "kernel %s", k.Name)
		}
		if layout.Has(codeobject.ValueKindHiddenPrintfBuffer) && o.PrintfBuffer == 0 && k.Printf != nil {
			size := r.cfg.PrintfBufferSize
			if size == 0 {
				size = 1 << 20
			}
			pb, err := r.CPUAgent().Pools()[1].Allocate(size, 0)
			if err != nil {
				return err
			}
			cleanup = append(cleanup, func() { r.Free(pb) })
			printfBuf, _ = r.space.Slice(pb, size)
			codeobject.InitPrintfBuffer(printfBuf)
			o.PrintfBuffer = pb
			cleanup = append(cleanup, func() {
				text, perr := codeobject.PrintfOutput(printfBuf, k.Printf)
				w := r.cfg.PrintfOutput
				if w == nil {
					w = os.Stdout
				}
				io.WriteString(w, text)
				if perr != nil {
					fmt.Fprintf(r.stderr, "rocpu: kernel %s: printf buffer: %v\n", k.Name, perr)
				}
			})
		}
		ka, err := layout.BuildDispatch(args, codeobject.Launch{Grid: o.Grid, Group: o.Workgroup, Dims: dims,
			Offset: o.Offset, QueuePtr: q.addr, DynamicLDS: o.DynamicLDS, PrintfBuffer: o.PrintfBuffer})
		if err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "kernel %s", k.Name)
		}
		kernarg, group = ka.Data, ka.GroupSegmentSize
	} else if len(args) > 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "kernel %s has no metadata to lay out %d arguments", k.Name, len(args))
	}
	var kaddr uint64
	if len(kernarg) > 0 {
		var err error
		kaddr, err = r.CPUAgent().Pools()[0].Allocate(uint64(len(kernarg)), 0)
		if err != nil {
			return err
		}
		cleanup = append(cleanup, func() { r.Free(kaddr) })
		if err := r.copyIn(kaddr, kernarg); err != nil {
			return err
		}
	}
	done, err := r.CreateSignal(1, nil, 0)
	if err != nil {
		return err
	}
	cleanup = append(cleanup, func() { done.Destroy() })

	// Reserve a slot, waiting while the ring is full.
	var idx uint64
	err = r.waitCond(ctx, nil, func() (bool, error) {
		if err := q.Err(); err != nil {
			return false, err
		}
		w := q.LoadWriteIndex()
		if w >= q.LoadReadIndex()+uint64(q.size) {
			return false, nil
		}
		if q.CASWriteIndex(w, w+1) == w {
			idx = w
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	p := q.Packet(idx)
	kp := p.KernelDispatch()
	kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = uint16(o.Workgroup[0]), uint16(o.Workgroup[1]), uint16(o.Workgroup[2])
	kp.Reserved0 = 0
	kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = o.Grid[0], o.Grid[1], o.Grid[2]
	kp.PrivateSegmentSize = k.PrivateSize
	kp.GroupSegmentSize = group
	kp.KernelObject = k.Object
	kp.KernargAddress = kaddr
	kp.Reserved2 = 0
	kp.CompletionSignal = done.Handle()
	p.Publish(abi.MakePacketHeader(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, true, abi.HSA_FENCE_SCOPE_SYSTEM, abi.HSA_FENCE_SCOPE_SYSTEM), uint16(dims))
	published = true
	q.Ring(int64(idx))

	// finished: the packet completed, or can no longer run (the queue
	// failed or stopped).
	finished := func() (bool, error) {
		if !done.Live() {
			return false, errorf(op, HSA_STATUS_ERROR_NOT_INITIALIZED, "runtime shut down before the dispatch completed")
		}
		if done.Load() == 0 {
			return true, nil
		}
		if err := q.Err(); err != nil {
			return false, err
		}
		if q.state.Load() != queueActive {
			return false, errorf(op, HSA_STATUS_ERROR_INVALID_QUEUE, "queue stopped before the dispatch completed")
		}
		return false, nil
	}
	err = r.waitCond(ctx, []*Signal{done}, finished)
	if ctx.Err() != nil && err != nil && errors.Is(err, ctx.Err()) {
		// The packet may still run: free its memory only once it cannot.
		r.goBackground(func() {
			r.waitCond(r.ctx, []*Signal{done}, finished)
			if r.open.Load() {
				release()
			}
		})
		return err
	}
	release()
	return err
}

// copyIn writes b at device address addr.
func (r *Runtime) copyIn(addr uint64, b []byte) error {
	dst, err := r.bytes("copyIn", "dst", addr, uint64(len(b)))
	if err != nil {
		return err
	}
	copy(dst, b)
	return nil
}
