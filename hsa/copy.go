package hsa

import (
	"context"
	"sync/atomic"
	"time"
)

// waitCond blocks until done reports true or an error, re-evaluating it
// whenever one of the watched signals is written (or another runtime
// event broadcasts) and at the polling interval, or until ctx ends.
func (r *Runtime) waitCond(ctx context.Context, watched []*Signal, done func() (bool, error)) error {
	return r.waitCondPoll(ctx, watched, done, pollMin, pollMax)
}

// waitCondPoll is waitCond re-checking done after firstPoll, then at
// doubling intervals up to maxPoll.
func (r *Runtime) waitCondPoll(ctx context.Context, watched []*Signal, done func() (bool, error), firstPoll, maxPoll time.Duration) error {
	st := &r.sig
	if ok, err := done(); ok || err != nil {
		return err
	}
	st.anyWaiters.Add(1)
	defer st.anyWaiters.Add(-1)
	for _, s := range watched {
		s.watch(1)
		defer s.watch(-1)
	}
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	poll := firstPoll
	for {
		ch := st.anyChan()
		if ok, err := done(); ok || err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		t.Reset(poll)
		select {
		case <-ch:
			poll = firstPoll
		case <-t.C:
			poll = min(2*poll, maxPoll)
		case <-ctx.Done():
		}
	}
}

// checkSignals validates dependency and completion signals of an
// asynchronous operation.
func (r *Runtime) checkSignals(op string, deps []*Signal, completion *Signal) error {
	if completion == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "completion signal is NULL")
	}
	if completion.rt != r || !completion.Live() {
		return errorf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, "completion %v is not a live signal", completion)
	}
	for i, d := range deps {
		if d == nil || d.rt != r || !d.Live() {
			return errorf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, "dependency %d is not a live signal", i)
		}
	}
	return nil
}

// async runs work after every dependency reaches 0, then stores the
// profiling times in completion and decrements it. If the runtime shuts
// down first, nothing runs. A failure of work sets completion to -1 (an
// error value any HSA wait sees as "not 0").
func (r *Runtime) async(deps []*Signal, completion *Signal, work func() error) {
	r.goBackground(func() {
		err := r.waitCond(r.ctx, deps, func() (bool, error) {
			for _, d := range deps {
				if d.Live() && d.Load() != 0 {
					return false, nil
				}
			}
			return true, nil
		})
		if err != nil {
			return
		}
		start := Timestamp()
		if err := work(); err != nil {
			if r.open.Load() {
				r.stderr.Write([]byte("rocpu: asynchronous copy failed: " + err.Error() + "\n"))
			}
			completion.Store(-1)
			return
		}
		if completion.Live() {
			atomic.StoreUint64(&completion.s.StartTS, start)
			atomic.StoreUint64(&completion.s.EndTS, Timestamp())
			completion.Subtract(1)
		}
	})
}

// AsyncCopy is hsa_amd_memory_async_copy: after every dependency signal
// reaches 0, size bytes are copied from src to dst (both in device-visible
// memory) and completion is decremented, with its start and end times
// recorded for hsa_amd_profiling_get_async_copy_time.
func (r *Runtime) AsyncCopy(dst uint64, dstAgent *Agent, src uint64, srcAgent *Agent, size uint64, deps []*Signal, completion *Signal) error {
	const op = "AsyncCopy"
	if err := r.check(op); err != nil {
		return err
	}
	for _, a := range []*Agent{dstAgent, srcAgent} {
		if a == nil || a.rt != r {
			return errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent is not one of this runtime's")
		}
	}
	if err := r.checkSignals(op, deps, completion); err != nil {
		return err
	}
	if dst == 0 || src == 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer")
	}
	if size > 0 {
		if _, err := r.bytes(op, "dst", dst, size); err != nil {
			return err
		}
		if _, err := r.bytes(op, "src", src, size); err != nil {
			return err
		}
	}
	deps = append([]*Signal(nil), deps...)
	r.async(deps, completion, func() error { return r.Copy(dst, src, size) })
	return nil
}

// PitchedPtr is hsa_pitched_ptr_t: a 2D/3D buffer whose rows are Pitch
// bytes apart and whose slices are Slice bytes apart.
type PitchedPtr struct{ Base, Pitch, Slice uint64 }

// Copy directions (hsa_amd_copy_direction_t); rocpu's copies do not depend
// on them.
const (
	HsaHostToHost     = 0
	HsaHostToDevice   = 1
	HsaDeviceToHost   = 2
	HsaDeviceToDevice = 3
)

// AsyncCopyRect is hsa_amd_memory_async_copy_rect: range.X bytes by
// range.Y rows by range.Z slices, from src at srcOff (x in bytes, y in
// rows, z in slices) to dst at dstOff, after the dependencies reach 0.
// copyAgent must be a GPU agent, as in ROCr.
func (r *Runtime) AsyncCopyRect(dst *PitchedPtr, dstOff Dim3, src *PitchedPtr, srcOff Dim3, rng Dim3, copyAgent *Agent, dir uint32, deps []*Signal, completion *Signal) error {
	const op = "AsyncCopyRect"
	if err := r.check(op); err != nil {
		return err
	}
	if copyAgent == nil || copyAgent.rt != r || copyAgent.typ != HSA_DEVICE_TYPE_GPU {
		return errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "the copy agent must be a GPU agent of this runtime")
	}
	if dst == nil || src == nil || dst.Base == 0 || src.Base == 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pitched pointer")
	}
	if dir > HsaDeviceToDevice {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "copy direction %d", dir)
	}
	if err := r.checkSignals(op, deps, completion); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		p    *PitchedPtr
		off  Dim3
	}{{"dst", dst, dstOff}, {"src", src, srcOff}} {
		if rng.Y > 1 && p.p.Pitch < uint64(p.off.X)+uint64(rng.X) {
			return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%s pitch %d is less than the row extent", p.name, p.p.Pitch)
		}
		if rng.Z > 1 && p.p.Slice < p.p.Pitch*(uint64(p.off.Y)+uint64(rng.Y)) {
			return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%s slice %d is less than the slice extent", p.name, p.p.Slice)
		}
	}
	rowAddr := func(p *PitchedPtr, off Dim3, y, z uint32) uint64 {
		return p.Base + uint64(off.Z+z)*p.Slice + uint64(off.Y+y)*p.Pitch + uint64(off.X)
	}
	// Check the first and last byte of the whole extent on each side.
	if rng.X > 0 && rng.Y > 0 && rng.Z > 0 {
		for _, c := range []struct {
			name string
			p    *PitchedPtr
			off  Dim3
		}{{"dst", dst, dstOff}, {"src", src, srcOff}} {
			lo := rowAddr(c.p, c.off, 0, 0)
			hi := rowAddr(c.p, c.off, rng.Y-1, rng.Z-1) + uint64(rng.X)
			if _, err := r.bytes(op, c.name, lo, hi-lo); err != nil {
				return err
			}
		}
	}
	d, s := *dst, *src
	deps = append([]*Signal(nil), deps...)
	r.async(deps, completion, func() error {
		for z := uint32(0); z < rng.Z; z++ {
			for y := uint32(0); y < rng.Y; y++ {
				if err := r.Copy(rowAddr(&d, dstOff, y, z), rowAddr(&s, srcOff, y, z), uint64(rng.X)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return nil
}

// ProfilingTimes returns the start and end timestamps the last packet or
// asynchronous copy stored in s (hsa_amd_profiling_get_dispatch_time and
// hsa_amd_profiling_get_async_copy_time).
func (s *Signal) ProfilingTimes() (start, end uint64) {
	if s.dead.Load() {
		return 0, 0
	}
	return atomic.LoadUint64(&s.s.StartTS), atomic.LoadUint64(&s.s.EndTS)
}
