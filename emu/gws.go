package emu

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// Global wave sync (GWS): the device-wide barriers and semaphores that
// HIP's cooperative groups use for grid_group::sync(). ROCclr runs its
// __amd_rocclr_gwsInit blit kernel (ds_gws_init) as a dispatch of its own
// just before a cooperative kernel, whose waves then meet at
// ds_gws_barrier (ockl's __ockl_grid_sync), so the resources are the
// device's and outlive dispatches.
//
// The rules, from the AMD ISA guides' "Global Wave Sync" section and
// LLVM (IntrinsicsAMDGPU.td, SIISelLowering/AMDGPUISelDAGToDAG
// SelectDS_GWS):
//   - there are 64 resources; an instruction names resource
//     (M0[21:16] + offset) mod 64 (the per-VMID base is 0 here);
//   - the value an instruction takes (ds_gws_init's count,
//     ds_gws_barrier's next count, ds_gws_sema_br's release count) is its
//     data0 operand in the first active lane;
//   - a barrier's count is the number of waves that meet at it minus one
//     (LLVM: "bar_val is the total number of waves that will wait on this
//     barrier, minus 1"; ockl passes the number of workgroups minus one,
//     one wave per workgroup arriving). ds_gws_init sets it; each wave
//     arriving while it is above zero decrements it and waits; the wave
//     that finds it at zero is the last: it releases every waiting wave and
//     re-arms the barrier with its own data0, so the barrier is reusable;
//   - ds_gws_sema_v adds one release to a semaphore, ds_gws_sema_br its
//     data0, ds_gws_sema_release_all as many as waves are queued;
//     ds_gws_sema_p waits until a release is available and takes it.
//
// A waiting wave is in state waveGWS and leaves the run loop as at
// s_barrier; the worker owning it checks its resource at each slice
// (gwsReady), so waves of any workgroup, on any worker, release each
// other. The scheduler admits further workgroups while resident ones
// wait here (run.worker), since a grid barrier needs the whole grid
// resident.

// gwsResources is the number of GWS resources of a device.
const gwsResources = 64

// gwsUnit is a device's GWS resources. Its mutex orders everything a wave
// did before it arrives (or signals) before everything the waves it
// releases do after they leave.
type gwsUnit struct {
	mu  sync.Mutex
	res [gwsResources]gwsResource
	// epoch counts changes that can release a waiting wave (a barrier
	// opening, a semaphore gaining releases, an init): the deadlock check
	// (run.gwsStuck) trusts a worker's view only if none happened since.
	epoch atomic.Uint64
}

// gwsResource is one barrier or semaphore.
type gwsResource struct {
	// counter is, for a barrier, the waves still to arrive before the
	// last one; for a semaphore, the releases available.
	counter int64
	gen     atomic.Uint64 // barrier releases so far: a waiting wave leaves when it changes (read without the mutex)
	queued  int           // waves waiting at the resource now
}

// GWS operations a waiting wave is in (wave.gwsOp).
const (
	gwsWaitBarrier = iota + 1
	gwsWaitSema
)

// gwsTarget returns the resource o names and the value of its data0
// operand in the first active lane (0 when it has none). A GWS
// instruction with EXEC = 0 has no lane to take the value from and faults:
// LLVM never emits one.
func (w *wave) gwsTarget(o *op, data bool) (*gwsResource, int, int64) {
	rid := int((w.s[sM0]>>16&0x3F + uint32(o.offset)) % gwsResources)
	var v int64
	if data {
		exec := w.exec()
		if exec == 0 {
			w.fault(o, FaultIllegal, -1, 0, "GWS instruction with EXEC = 0: no lane supplies its value")
		}
		v = int64(w.vsrc(&o.src[0], &w.tmp[0])[bits.TrailingZeros64(exec)])
	}
	return &w.r.dev.gws.res[rid], rid, v
}

// gwsWait makes w wait at resource rid (the unit's mutex held).
func (w *wave) gwsWait(res *gwsResource, rid, kind int) {
	res.queued++
	w.gwsRes, w.gwsOp, w.gwsGen = rid, kind, res.gen.Load()
	w.state = waveGWS
	w.yield = true
}

func opGWSInit(w *wave, o *op) {
	res, _, v := w.gwsTarget(o, true)
	u := &w.r.dev.gws
	u.mu.Lock()
	res.counter = v
	u.epoch.Add(1)
	u.mu.Unlock()
}

func opGWSBarrier(w *wave, o *op) {
	res, rid, v := w.gwsTarget(o, true)
	u := &w.r.dev.gws
	u.mu.Lock()
	if res.counter <= 0 {
		// The last wave: release the others and re-arm.
		res.queued = 0
		res.counter = v
		u.epoch.Add(1)
		res.gen.Add(1)
	} else {
		res.counter--
		w.gwsWait(res, rid, gwsWaitBarrier)
	}
	u.mu.Unlock()
}

func opGWSSemaP(w *wave, o *op) {
	res, rid, _ := w.gwsTarget(o, false)
	u := &w.r.dev.gws
	u.mu.Lock()
	if res.counter > 0 {
		res.counter--
	} else {
		w.gwsWait(res, rid, gwsWaitSema)
	}
	u.mu.Unlock()
}

func opGWSSemaV(w *wave, o *op) { w.gwsSemaAdd(o, false, false) }

func opGWSSemaBR(w *wave, o *op) { w.gwsSemaAdd(o, true, false) }

func opGWSSemaReleaseAll(w *wave, o *op) { w.gwsSemaAdd(o, false, true) }

// gwsSemaAdd adds releases to a semaphore: one, data0's value, or as many
// as waves are queued at it.
func (w *wave) gwsSemaAdd(o *op, data, all bool) {
	res, _, v := w.gwsTarget(o, data)
	u := &w.r.dev.gws
	u.mu.Lock()
	switch {
	case all:
		res.counter += int64(res.queued)
	case data:
		res.counter += v
	default:
		res.counter++
	}
	u.epoch.Add(1)
	u.mu.Unlock()
}

// gwsReady reports whether w, waiting at its GWS resource, may run again,
// taking a semaphore release if that is what it waits for. Called by the
// worker that owns w, outside the run loop.
func (w *wave) gwsReady() bool {
	u := &w.r.dev.gws
	res := &u.res[w.gwsRes]
	switch w.gwsOp {
	case gwsWaitBarrier:
		// No lock: the releasing wave's stores happen before its atomic
		// increment of gen, which happens before this load sees it.
		if res.gen.Load() == w.gwsGen {
			return false
		}
	case gwsWaitSema:
		u.mu.Lock()
		ok := res.counter > 0
		if ok {
			res.counter--
			res.queued--
		}
		u.mu.Unlock()
		if !ok {
			return false
		}
	}
	w.gwsOp = 0
	w.state = waveRunning
	return true
}

func init() {
	defD("ds_gws_init", "", opGWSInit)
	defD("ds_gws_barrier", "", opGWSBarrier)
	defD("ds_gws_sema_v", "", opGWSSemaV)
	defD("ds_gws_sema_br", "", opGWSSemaBR)
	defD("ds_gws_sema_p", "", opGWSSemaP)
	defD("ds_gws_sema_release_all", "", opGWSSemaReleaseAll)
}

// gwsLeave takes the waves of g that wait at a GWS resource off its queue
// when the dispatch stops, so that a later ds_gws_sema_release_all counts
// only waves still there. What they did to the counters stays, as a
// stopped dispatch leaves the hardware's resources for the next
// ds_gws_init.
func (r *run) gwsLeave(g *workgroup) {
	u := &r.dev.gws
	for _, w := range g.waves[:g.nwaves] {
		if w.state == waveGWS {
			u.mu.Lock()
			res := &u.res[w.gwsRes]
			// A barrier that opened has emptied its queue already.
			if w.gwsOp != gwsWaitBarrier || res.gen.Load() == w.gwsGen {
				res.queued--
			}
			u.mu.Unlock()
			w.state, w.gwsOp = waveDone, 0
		}
	}
}

// gwsIdle is the worker's step after a pass in which no wave made
// progress. While a resident wave waits at a GWS resource, the worker
// admits one more workgroup (reporting true): a grid barrier opens only
// when every workgroup has arrived, and the scheduler otherwise keeps only
// r.resident per worker (guaranteeing just that the lowest unfinished one
// is resident). Cooperative dispatches, and dispatches without scratch,
// can grow this way; others have scratch slots for r.resident workgroups
// per worker only (a cooperative grid larger than the device's wave slots
// too). With nothing left to admit and no wave able to run,
// the worker records itself stuck and checks for a deadlock. Only idle
// passes get here, so dispatches that never wait at GWS pay nothing.
func (r *run) gwsIdle(slots *[]*workgroup, active *[]bool, noMore bool, id int, epoch uint64) bool {
	waiting, running := false, false
	for i, g := range *slots {
		if !(*active)[i] {
			continue
		}
		for _, w := range g.waves[:g.nwaves] {
			switch w.state {
			case waveGWS:
				waiting = true
			case waveRunning:
				running = true
			}
		}
	}
	if !waiting {
		r.stuck[id].Store(0)
		return false
	}
	grow := r.scratch == nil || r.scratchByWG
	if !noMore && grow {
		*slots = append(*slots, nil)
		*active = append(*active, false)
		r.stuck[id].Store(0)
		return true
	}
	if running {
		r.stuck[id].Store(0)
		return false
	}
	r.stuck[id].Store(epoch + 1)
	r.gwsDeadlock(epoch, !noMore)
	return false
}

// gwsDeadlock stops the dispatch with a deadlock fault when no wave of it
// can ever run again: every worker has finished or is stuck (no runnable
// wave, no workgroup it can start) as of the current GWS epoch. A stuck
// worker becomes unstuck only through a GWS change, which moves the epoch,
// so equal epochs mean every worker's view still holds. Another dispatch
// on the device could still open the resource, so the check is made only
// when this is the only one; otherwise the budget or the context ends the
// wait.
func (r *run) gwsDeadlock(epoch uint64, cannotAdmit bool) {
	if r.dev.running.Load() != 1 || r.dev.gws.epoch.Load() != epoch {
		return
	}
	for i := range r.stuck {
		if v := r.stuck[i].Load(); v != stuckExited && v != epoch+1 {
			return
		}
	}
	detail := "every live wave waits at a GWS barrier or semaphore (ds_gws_*) that no wave of the dispatch can open " +
		"(did ds_gws_init count more waves than arrive?)"
	if cannotAdmit {
		detail = "every live wave waits at a GWS barrier or semaphore (ds_gws_*) while workgroups remain that cannot " +
			"be made resident: a dispatch with scratch keeps more than the configured resident workgroups only " +
			"from a cooperative queue (Dispatch.Cooperative) and only when its grid fits the device's wave slots"
	}
	r.setFault(&Fault{Kind: FaultDeadlock, Kernel: r.k.Kernel, Wave: -1, Lane: -1, Detail: detail})
}
