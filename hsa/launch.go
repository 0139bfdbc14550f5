package hsa

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

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
	p, err := q.Enqueue(ctx, k, o, args...)
	if err != nil {
		return err
	}
	return p.Wait(ctx)
}

// Pending is a dispatch Enqueue published; Wait reports how it ended and
// gives back what it used (kernarg block, completion signal, printf
// buffer). Every Pending must be waited for. A Pending is not for use by
// several goroutines at once.
type Pending struct {
	ls     *launchState
	waited bool
	err    error
}

// Enqueue is LaunchWith without the wait: it writes the dispatch packet
// (barrier bit set, so packets on one queue run in order, as a HIP stream's
// do), rings the doorbell and returns. ctx bounds only the wait for a free
// packet slot when the ring is full. A program that issues many dispatches
// (a sort's passes, a solver's iterations) enqueues them all and waits for
// each, so the packet processor starts the next one as soon as the last
// ends rather than after a round trip through the host.
func (q *Queue) Enqueue(ctx context.Context, k *Kernel, o LaunchOptions, args ...any) (*Pending, error) {
	const op = "Queue.Launch"
	if err := q.check(op); err != nil {
		return nil, err
	}
	if err := q.Err(); err != nil {
		return nil, err
	}
	if k == nil {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "nil kernel")
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
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "workgroup size %v does not fit a packet", o.Workgroup)
		}
	}
	var kernarg []byte
	group := k.GroupSize + o.DynamicLDS
	var printfBuf []byte
	// ls holds what the packet uses, released once the packet can no
	// longer run.
	ls := &launchState{q: q}
	published := false
	defer func() {
		if !published {
			ls.release()
		}
	}()
	if k.Meta != nil {
		layout, err := r.kernargLayout(k.Meta)
		if err != nil {
			return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "kernel %s", k.Name)
		}
		if layout.Has(codeobject.ValueKindHiddenPrintfBuffer) && o.PrintfBuffer == 0 && k.Printf != nil {
			size := r.cfg.PrintfBufferSize
			if size == 0 {
				size = 1 << 20
			}
			pb, err := r.CPUAgent().Pools()[1].Allocate(size, 0)
			if err != nil {
				return nil, err
			}
			ls.cleanup = append(ls.cleanup, func() { r.Free(pb) })
			printfBuf, _ = r.space.Slice(pb, size)
			codeobject.InitPrintfBuffer(printfBuf)
			o.PrintfBuffer = pb
			ls.cleanup = append(ls.cleanup, func() {
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
			return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "kernel %s", k.Name)
		}
		kernarg, group = ka.Data, ka.GroupSegmentSize
	} else if len(args) > 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "kernel %s has no metadata to lay out %d arguments", k.Name, len(args))
	}
	// Kernarg blocks and completion signals come from the queue's cache
	// and go back to it (launchCache).
	var kaddr uint64
	if len(kernarg) > 0 {
		var err error
		n := uint64(len(kernarg))
		kaddr, err = q.kernarg(n)
		if err != nil {
			return nil, err
		}
		ls.kaddr, ls.kn = kaddr, n
		if err := r.copyIn(kaddr, kernarg); err != nil {
			return nil, err
		}
	}
	done, err := q.completionSignal()
	if err != nil {
		return nil, err
	}
	ls.done = done

	// Reserve a slot, waiting while the ring is full.
	idx, ok := q.reserve()
	if !ok {
		err = r.waitCond(ctx, nil, func() (bool, error) {
			if err := q.Err(); err != nil {
				return false, err
			}
			idx, ok = q.reserve()
			return ok, nil
		})
		if err != nil {
			return nil, err
		}
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
	return &Pending{ls: ls}, nil
}

// Wait waits for the dispatch to end and returns the device's fault (an
// *emu.Fault, via errors.As) or the queue error when it failed, as Launch
// does. When ctx ends first, Wait returns ctx's error and the dispatch's
// resources are given back once it can no longer run. Later calls return
// the first call's result.
func (p *Pending) Wait(ctx context.Context) error {
	if p.waited {
		return p.err
	}
	p.waited = true
	ls := p.ls
	r, done := ls.q.rt, ls.done
	// Short kernels finish within a brief spin; longer ones block.
	fin, err := ls.spin()
	if !fin && err == nil {
		err = r.waitCondPoll(ctx, []*Signal{done}, ls.finished, launchPollMax, launchPollMax)
	}
	p.err = err
	if ctx.Err() != nil && err != nil && errors.Is(err, ctx.Err()) {
		// The packet may still run: free its memory only once it cannot.
		r.goBackground(func() {
			r.waitCond(r.ctx, []*Signal{done}, ls.finished)
			if r.open.Load() {
				ls.release()
			}
		})
		return err
	}
	ls.release()
	return err
}

// launchPollMax bounds how long Launch sleeps between looks at its
// completion signal. Only the packet processor writes that signal, and its
// stores (and a queue failure) wake Launch, so the look is a safety net:
// at waitCond's 2 ms a long dispatch woke the waiting goroutine 500 times
// a second, each time taking a CPU from a worker. The first look is as
// late: a back-off from 50 µs woke it about 12 times in a dispatch's first
// 200 ms (runtime/trace, vector_add large), and while the workers hold
// every P each wake-up waits for a worker's preemption and then costs that
// worker a thread hand-off.
const launchPollMax = 100 * time.Millisecond

// launchState is what one Launch's packet uses.
type launchState struct {
	q         *Queue
	kaddr, kn uint64   // kernarg block and its requested size
	done      *Signal  // completion signal
	cleanup   []func() // printf buffer: decode, free (run in reverse)
}

// release returns the packet's resources once it can no longer run.
func (ls *launchState) release() {
	if ls.done != nil {
		ls.q.putSignal(ls.done)
	}
	if ls.kaddr != 0 {
		ls.q.putKernarg(ls.kaddr, ls.kn)
	}
	for i := len(ls.cleanup) - 1; i >= 0; i-- {
		ls.cleanup[i]()
	}
}

// finished reports whether the packet completed, or an error when it can
// no longer run (the queue failed or stopped).
func (ls *launchState) finished() (bool, error) {
	const op = "Queue.Launch"
	q, done := ls.q, ls.done
	if !done.Live() {
		return false, errorf(op, HSA_STATUS_ERROR_NOT_INITIALIZED, "runtime shut down before the dispatch completed")
	}
	if done.Load() == 0 {
		return true, nil
	}
	if err := q.Err(); err != nil {
		return false, err
	}
	switch q.state.Load() {
	case queueActive:
	case queueError:
		// The processor has failed but not yet published why: fail sets
		// the error, then wakes the waiters (a packet after the faulting
		// one reported "queue stopped" instead of the fault).
	default:
		return false, errorf(op, HSA_STATUS_ERROR_INVALID_QUEUE, "queue stopped before the dispatch completed")
	}
	return false, nil
}

// spin polls finished, yielding, for up to launchSpin.
func (ls *launchState) spin() (bool, error) {
	start := time.Now()
	for i := 0; ; i++ {
		if ok, err := ls.finished(); ok || err != nil {
			return ok, err
		}
		if i&7 == 7 && time.Since(start) > launchSpin {
			return false, nil
		}
		runtime.Gosched()
	}
}

// reserve claims the next packet slot if the ring has room.
func (q *Queue) reserve() (uint64, bool) {
	for {
		w := q.LoadWriteIndex()
		if w >= q.LoadReadIndex()+uint64(q.size) {
			return 0, false
		}
		if q.CASWriteIndex(w, w+1) == w {
			return w, true
		}
	}
}

// launchSpin bounds how long Launch polls for completion before it
// blocks.
const launchSpin = 20 * time.Microsecond

// copyIn writes b at device address addr.
func (r *Runtime) copyIn(addr uint64, b []byte) error {
	dst, err := r.bytes("copyIn", "dst", addr, uint64(len(b)))
	if err != nil {
		return err
	}
	copy(dst, b)
	return nil
}
