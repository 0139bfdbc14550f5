package capi

/*
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "capi.h"
*/
import "C"

import (
	"math"
	goruntime "runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/rocpu/rocpu/hsa"
)

// timeout converts an HSA timeout hint in timestamp ticks (1 GHz, so
// nanoseconds) to a duration; UINT64_MAX and anything beyond int64 wait
// forever.
func timeout(ticks C.uint64_t) time.Duration {
	if uint64(ticks) > math.MaxInt64 {
		return hsa.WaitForever
	}
	return time.Duration(ticks) * (time.Second / hsa.TimestampFrequency)
}

//export rocpu_signal_create
func rocpu_signal_create(initial C.int64_t, n C.uint32_t, consumers *C.uint64_t, attrs C.uint64_t, out *C.uint64_t) status {
	const op = "hsa_amd_signal_create"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL signal"))
	}
	ags, err := agentsOf(r, consumers, int(n))
	if err != nil {
		return fail(op, err)
	}
	s, err := r.CreateSignal(int64(initial), ags, uint64(attrs))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(s.Handle())
	return ok
}

//export rocpu_signal_destroy
func rocpu_signal_destroy(h C.uint64_t) status {
	const op = "hsa_signal_destroy"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	s, err := r.Signal(uint64(h))
	if err != nil {
		return fail(op, err)
	}
	if err := s.Destroy(); err != nil {
		return fail(op, err)
	}
	return ok
}

// rocpu_signal_valid checks a signal handle for the functions that return
// a status (the value operations return none and run in C).
//
//export rocpu_signal_valid
func rocpu_signal_valid(h C.uint64_t) status {
	const op = "hsa_signal"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if _, err := r.Signal(uint64(h)); err != nil {
		return fail(op, err)
	}
	return ok
}

// rocpu_signal_wake wakes whoever waits on the signal C has just changed:
// its waiters, wait-any waiters, async handlers, packet processors.
//
//export rocpu_signal_wake
func rocpu_signal_wake(h C.uint64_t) {
	if r := hsa.Default(); r != nil {
		r.WakeSignal(uint64(h))
		// The goroutine just woken (after a doorbell, the queue's packet
		// processor) sits in this P's next-to-run slot. When this callback
		// returns to C the P stays with the C thread, in syscall state,
		// and the goroutine would wait there until sysmon retakes the P
		// (tens of microseconds or more). Yielding hands the P to another
		// thread now, which runs it at once.
		goruntime.Gosched()
	}
}

// rocpu_signal_wait blocks in Go once C's first check found the condition
// false. Invalid handles and a closed runtime return 0 at once.
//
//export rocpu_signal_wait
func rocpu_signal_wait(h C.uint64_t, cond C.uint32_t, compare C.int64_t, ticks C.uint64_t, state C.uint32_t) C.int64_t {
	r := hsa.Default()
	if r == nil {
		return 0
	}
	s, err := r.Signal(uint64(h))
	if err != nil {
		fail("hsa_signal_wait", err)
		return 0
	}
	return C.int64_t(s.Wait(hsa.Condition(cond), int64(compare), timeout(ticks), hsa.WaitState(state)))
}

//export rocpu_signal_wait_any
func rocpu_signal_wait_any(n C.uint32_t, sigs *C.uint64_t, conds *C.uint32_t, values *C.int64_t, ticks C.uint64_t, state C.uint32_t, value *C.int64_t) C.uint32_t {
	const op = "hsa_amd_signal_wait_any"
	r := hsa.Default()
	if r == nil || n == 0 || sigs == nil || conds == nil || values == nil {
		return math.MaxUint32
	}
	ss, err := signalsOf(r, sigs, int(n))
	if err != nil {
		fail(op, err)
		return math.MaxUint32
	}
	cs := make([]hsa.Condition, n)
	for i, c := range unsafe.Slice((*uint32)(unsafe.Pointer(conds)), int(n)) {
		cs[i] = hsa.Condition(c)
	}
	vs := unsafe.Slice((*int64)(unsafe.Pointer(values)), int(n))
	i, v, err := r.WaitAny(ss, cs, vs, timeout(ticks), hsa.WaitState(state))
	if err != nil {
		fail(op, err)
		return math.MaxUint32
	}
	if i >= len(ss) {
		return math.MaxUint32
	}
	if value != nil {
		*value = C.int64_t(v)
	}
	return C.uint32_t(i)
}

// Signal groups have no handle in package hsa; this table gives them one.
var groups = struct {
	sync.Mutex
	next uint64
	m    map[uint64]*hsa.SignalGroup
}{next: 1, m: map[uint64]*hsa.SignalGroup{}}

//export rocpu_signal_group_create
func rocpu_signal_group_create(n C.uint32_t, sigs *C.uint64_t, nc C.uint32_t, consumers *C.uint64_t, out *C.uint64_t) status {
	const op = "hsa_signal_group_create"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if out == nil || n == 0 {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "no signals or NULL signal_group"))
	}
	ss, err := signalsOf(r, sigs, int(n))
	if err != nil {
		return fail(op, err)
	}
	ags, err := agentsOf(r, consumers, int(nc))
	if err != nil {
		return fail(op, err)
	}
	g, err := r.NewSignalGroup(ss, ags)
	if err != nil {
		return fail(op, err)
	}
	groups.Lock()
	h := groups.next
	groups.next++
	groups.m[h] = g
	groups.Unlock()
	*out = C.uint64_t(h)
	return ok
}

func group(op string, h C.uint64_t) (*hsa.SignalGroup, error) {
	if _, err := runtime(op); err != nil {
		return nil, err
	}
	groups.Lock()
	g := groups.m[uint64(h)]
	groups.Unlock()
	if g == nil {
		return nil, errf(op, hsa.HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, "no signal group %#x", uint64(h))
	}
	return g, nil
}

//export rocpu_signal_group_destroy
func rocpu_signal_group_destroy(h C.uint64_t) status {
	const op = "hsa_signal_group_destroy"
	if _, err := group(op, h); err != nil {
		return fail(op, err)
	}
	groups.Lock()
	delete(groups.m, uint64(h))
	groups.Unlock()
	return ok
}

//export rocpu_signal_group_wait_any
func rocpu_signal_group_wait_any(h C.uint64_t, conds *C.uint32_t, values *C.int64_t, state C.uint32_t, sig *C.uint64_t, value *C.int64_t) status {
	const op = "hsa_signal_group_wait_any"
	g, err := group(op, h)
	if err != nil {
		return fail(op, err)
	}
	n := len(g.Signals())
	if conds == nil || values == nil || sig == nil || value == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL argument"))
	}
	cs := make([]hsa.Condition, n)
	for i, c := range unsafe.Slice((*uint32)(unsafe.Pointer(conds)), n) {
		cs[i] = hsa.Condition(c)
	}
	vs := unsafe.Slice((*int64)(unsafe.Pointer(values)), n)
	s, v, err := g.WaitAny(cs, vs, hsa.WaitState(state))
	if err != nil {
		return fail(op, err)
	}
	*sig = C.uint64_t(s.Handle())
	*value = C.int64_t(v)
	return ok
}

//export rocpu_signal_async_handler
func rocpu_signal_async_handler(h C.uint64_t, cond C.uint32_t, value C.int64_t, fn, arg unsafe.Pointer) status {
	const op = "hsa_amd_signal_async_handler"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	s, err := r.Signal(uint64(h))
	if err != nil {
		return fail(op, err)
	}
	if fn == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL handler"))
	}
	err = r.SetAsyncHandler(s, hsa.Condition(cond), int64(value), func(v int64) bool {
		return bool(C.capi_call_signal_handler(fn, C.int64_t(v), arg))
	})
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_register_system_event_handler
func rocpu_register_system_event_handler(cb, data unsafe.Pointer) status {
	const op = "hsa_amd_register_system_event_handler"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if cb == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL callback"))
	}
	err = r.RegisterSystemEventHandler(func(ev hsa.MemoryFaultEvent) hsa.Status {
		var agent uint64
		if ev.Agent != nil {
			agent = ev.Agent.Handle()
		}
		return hsa.Status(C.capi_call_system_event(cb, C.uint64_t(agent), C.uint64_t(ev.VirtualAddress),
			C.uint32_t(ev.FaultReasonMask), data))
	})
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_async_function
func rocpu_async_function(fn, arg unsafe.Pointer) status {
	const op = "hsa_amd_async_function"
	if _, err := runtime(op); err != nil {
		return fail(op, err)
	}
	if fn == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL callback"))
	}
	go C.capi_call_async_function(fn, arg)
	return ok
}

//export rocpu_profiling_times
func rocpu_profiling_times(h C.uint64_t, start, end *C.uint64_t) status {
	const op = "hsa_amd_profiling_get_dispatch_time"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	s, err := r.Signal(uint64(h))
	if err != nil {
		return fail(op, err)
	}
	if start == nil || end == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL time"))
	}
	b, e := s.ProfilingTimes()
	*start, *end = C.uint64_t(b), C.uint64_t(e)
	return ok
}

// Queues.

//export rocpu_queue_create
func rocpu_queue_create(agent C.uint64_t, size, typ C.uint32_t, cb, data unsafe.Pointer, private, groupSize C.uint32_t, out *C.uint64_t) status {
	const op = "hsa_queue_create"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	a, err := r.Agent(uint64(agent))
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL queue"))
	}
	var qcb hsa.QueueErrorCallback
	if cb != nil {
		qcb = func(st hsa.Status, q *hsa.Queue) {
			C.capi_call_queue_error(cb, C.int32_t(st), C.uint64_t(q.Handle()), data)
		}
	}
	q, err := r.CreateQueue(a, uint32(size), hsa.QueueType(typ), qcb, uint32(private), uint32(groupSize))
	if err != nil {
		return fail(op, err)
	}
	trackQueue(q)
	*out = C.uint64_t(q.Handle())
	return ok
}

func queue(op string, h C.uint64_t) (*hsa.Queue, error) {
	r, err := runtime(op)
	if err != nil {
		return nil, err
	}
	return r.Queue(uint64(h))
}

// Queue operations (capi.h ROCPU_QUEUE_*).
const (
	queueDestroy    = 0
	queueInactivate = 1
	queuePriority   = 2
	queueProfiling  = 3
)

var queueOps = map[int]string{
	queueDestroy:    "hsa_queue_destroy",
	queueInactivate: "hsa_queue_inactivate",
	queuePriority:   "hsa_amd_queue_set_priority",
	queueProfiling:  "hsa_amd_profiling_set_profiler_enabled",
}

//export rocpu_queue_op
func rocpu_queue_op(h C.uint64_t, which C.int, arg C.int64_t) status {
	op := queueOps[int(which)]
	q, err := queue(op, h)
	if err != nil {
		return fail(op, err)
	}
	switch which {
	case queueDestroy:
		err = q.Destroy()
	case queueInactivate:
		err = q.Inactivate()
	case queuePriority:
		err = q.SetPriority(int(arg))
	case queueProfiling:
		err = q.SetProfiling(arg != 0)
	default:
		err = errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown queue operation %d", int(which))
	}
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_queue_cu_mask
func rocpu_queue_cu_mask(h C.uint64_t, set C.int, n C.uint32_t, mask *C.uint32_t) status {
	op := "hsa_amd_queue_cu_get_mask"
	if set != 0 {
		op = "hsa_amd_queue_cu_set_mask"
	}
	q, err := queue(op, h)
	if err != nil {
		return fail(op, err)
	}
	if n == 0 || mask == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "empty CU mask"))
	}
	// num_cu_mask_count counts bits; the mask is whole 32-bit words.
	nw := (int(n) + 31) / 32
	words := unsafe.Slice((*uint32)(unsafe.Pointer(mask)), nw)
	if set != 0 {
		if err := q.SetCUMask(append([]uint32(nil), words...)); err != nil {
			return fail(op, err)
		}
		return ok
	}
	m := q.CUMask()
	for i := range words {
		words[i] = 0
		if i < len(m) {
			words[i] = m[i]
		}
	}
	return ok
}
