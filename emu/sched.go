package emu

import (
	"unsafe"

	"context"
	"errors"
	"fmt"
	"github.com/rocpu/rocpu/internal/abi"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// run is one dispatch in progress.
type run struct {
	dev   *Device
	k     *Dispatch
	ctx   context.Context
	code  *codeTable
	setup setup

	numWG   [3]uint32
	totalWG uint64
	next    atomic.Uint64 // next workgroup (linear order)

	abort    atomic.Bool
	faultMu  sync.Mutex
	fault    *Fault
	executed atomic.Uint64

	scratch  *scratchArena
	slotSize uint32

	statsMu sync.Mutex
	stats   Counters

	workers  int
	resident int
	chunk    uint64 // workgroups a worker claims at once

	// scratchByWG: scratch slots belong to workgroups (by linear index),
	// not to a worker's resident slots, so a worker may keep any number of
	// workgroups resident (a cooperative dispatch, sized for all of them).
	scratchByWG bool
	// stuck holds, per worker, 1 + the GWS epoch at which the worker found
	// no wave it could run and no workgroup it could start, 0 while it
	// can, or stuckExited once it has finished (run.gwsDeadlock).
	stuck    []atomic.Uint64
	stuckBuf [4]atomic.Uint64 // stuck's storage for up to 4 workers (no allocation)

	// Pool workers still running, whether the caller blocks for them, and
	// the last one's wake-up for it (runWorkers).
	left    atomic.Int32
	waiting atomic.Bool
	doneCh  chan struct{}
}

const stuckExited = ^uint64(0)

func (d *Device) newRun(ctx context.Context, k *Dispatch) (*run, error) {
	r := &run{dev: d, k: k, ctx: ctx}
	for i := 0; i < 3; i++ {
		if k.WorkgroupSize[i] == 0 {
			return nil, fmt.Errorf("emu: workgroup size %v has a zero dimension", k.WorkgroupSize)
		}
		if k.GridSize[i] == 0 {
			return nil, fmt.Errorf("emu: grid size %v has a zero dimension", k.GridSize)
		}
		r.numWG[i] = uint32((uint64(k.GridSize[i]) + uint64(k.WorkgroupSize[i]) - 1) / uint64(k.WorkgroupSize[i]))
	}
	r.totalWG = uint64(r.numWG[0]) * uint64(r.numWG[1]) * uint64(r.numWG[2])
	if err := r.prepare(); err != nil {
		return nil, err
	}
	code, err := d.codeTableFor(r.setup.entry)
	if err != nil {
		return nil, err
	}
	r.code = code
	r.workers = d.cfg.Workers
	if n := d.workers.Load(); n > 0 {
		r.workers = int(n)
	}
	if uint64(r.workers) > r.totalWG {
		r.workers = int(r.totalWG)
	}
	r.resident = d.cfg.ResidentWorkgroups
	// Workers claim workgroups in chunks of up to 64 consecutive ones (at
	// least 64 chunks per worker, so the last ones balance): when two
	// workers interleave single workgroups, each core streams every other
	// kilobyte of a buffer and the cores fight over the cache lines in
	// between (saxpy, two workers: 1.6x one worker with single claims,
	// 2.0x with chunks). Within a worker workgroups still start in linear
	// order and chunks are claimed in increasing order, so the lowest
	// unfinished workgroup is always resident: one spinning on a flag an
	// earlier workgroup sets still makes progress.
	r.chunk = 1
	if c := r.totalWG / uint64(r.workers*64); r.workers > 1 && c > 1 {
		r.chunk = min(c, 64)
	}
	if per := (r.totalWG + uint64(r.workers) - 1) / uint64(r.workers); uint64(r.resident) > per {
		r.resident = int(per)
	}
	if r.workers <= len(r.stuckBuf) {
		r.stuck = r.stuckBuf[:r.workers]
	} else {
		r.stuck = make([]atomic.Uint64, r.workers)
	}
	// A cooperative dispatch's workgroups may all meet at a GWS barrier, so
	// all of them must be able to be resident at once, scratch included.
	// The runtime only launches cooperative grids that fit the device
	// (HIP: hipErrorCooperativeLaunchTooLarge); a larger grid on a
	// cooperative queue (which cannot sync on the hardware either) is run
	// like any other dispatch, rather than sized for scratch without bound.
	if k.Cooperative && r.totalWG*uint64(r.setup.wavesPerWG) <= uint64(d.cfg.CUs)*uint64(d.cfg.WavesPerCU) {
		r.scratchByWG = true
	}
	// Scratch: one slot per wave that can be resident at once.
	if r.setup.privateSize > 0 {
		slots := r.workers * r.resident * r.setup.wavesPerWG
		if r.scratchByWG {
			slots = int(r.totalWG) * r.setup.wavesPerWG
		}
		r.slotSize = (r.setup.privateSize*64 + 1023) &^ 1023
		a, err := d.getScratch(slots * int(r.slotSize))
		if err != nil {
			return nil, err
		}
		r.scratch = a
		r.mirrorScratch()
	}
	return r, nil
}

func (r *run) release() {
	if r.scratch != nil {
		r.dev.putScratch(r.scratch)
		r.scratch = nil
	}
}

// setFault records the first fault and stops the dispatch.
func (r *run) setFault(f *Fault) {
	r.faultMu.Lock()
	if r.fault == nil {
		r.fault = f
	}
	r.faultMu.Unlock()
	r.abort.Store(true)
}

func (r *run) execute() error {
	if r.ctx != nil && r.ctx.Done() != nil {
		// No watcher goroutine: at a dispatch's start it would compete
		// with the workers for a P (runtime/trace of matmul medium: the
		// second worker started after it).
		stop := context.AfterFunc(r.ctx, func() { r.abort.Store(true) })
		defer stop()
	}
	// A single worker runs on the calling goroutine (the packet
	// processor's), which would otherwise only block until it finishes:
	// starting a goroutine while a P is idle wakes an idle thread (the C
	// library's waiter spins outside Go, so one usually is), and the
	// caller's thread went to sleep. Several workers run on the worker
	// pool (pool.go).
	if r.workers == 1 {
		r.runWorker(0)
	} else {
		r.runWorkers()
	}
	r.k.Stats = r.stats
	if r.fault != nil {
		return r.fault
	}
	if r.abort.Load() && r.ctx != nil && r.ctx.Err() != nil {
		return &Fault{Kind: FaultCanceled, Kernel: r.k.Kernel, Wave: -1, Lane: -1, Detail: r.ctx.Err().Error(), err: r.ctx.Err()}
	}
	return nil
}

// worker runs workgroups: it keeps up to r.resident of them and time-slices
// them, starting new ones in linear order as slots free up, and more while
// resident waves wait at a GWS barrier or semaphore (gwsIdle).
func (r *run) worker(id int) {
	slots := make([]*workgroup, r.resident)
	active := make([]bool, r.resident)
	var stats Counters
	defer func() {
		r.stuck[id].Store(stuckExited)
		for _, g := range slots {
			if g != nil {
				r.dev.putWorkgroup(g)
			}
		}
		r.statsMu.Lock()
		r.stats.add(&stats)
		r.statsMu.Unlock()
	}()
	exhausted := false
	idle := 0
	var lo, hi uint64 // claimed workgroups not started yet
	// Near the grid's end a worker that is making progress starts no
	// further workgroup of the grid while it has one resident: otherwise
	// it may take up to r.resident of the last ones, time-slice them, and
	// run alone for their whole length after the other workers run out
	// (histogram medium, 64 workgroups: the second worker ended 150-700
	// us, up to 15% of the dispatch, after the first).
	// (gwsIdle's admission of a workgroup beside waves waiting at GWS is
	// not held back: admit.)
	tail := r.totalWG - min(r.totalWG, uint64(r.workers*r.resident))
	if r.workers == 1 {
		tail = ^uint64(0)
	}
	admit := false
	for {
		// The GWS epoch before this pass's readiness checks (gwsDeadlock).
		epoch := r.dev.gws.epoch.Load()
		n := 0
		busy := false
		for i := range slots {
			busy = busy || active[i]
		}
		for i := range slots {
			if !active[i] && !exhausted && (lo < hi || !busy || idle > 0 || admit || r.next.Load() < tail) {
				busy = true
				if lo == hi {
					c := r.chunk
					lo = r.next.Add(c) - c
					hi = min(lo+c, r.totalWG)
				}
				idx := lo
				if idx >= r.totalWG {
					exhausted = true
				} else {
					lo++
					if slots[i] == nil {
						slots[i] = r.dev.getWorkgroup()
					}
					slot := (id*r.resident + i) * r.setup.wavesPerWG
					if r.scratchByWG {
						slot = int(idx) * r.setup.wavesPerWG
					}
					r.startWorkgroup(slots[i], idx, slot)
					active[i] = true
					stats.Workgroups++
					stats.Waves += uint64(slots[i].nwaves)
				}
			}
			if active[i] {
				n++
			}
		}
		admit = false
		if n == 0 {
			return
		}
		idlePass := true
		for i, g := range slots {
			if !active[i] {
				continue
			}
			if r.abort.Load() {
				for j, h := range slots {
					if active[j] {
						r.collect(h, &stats)
						r.stopFault(h)
						r.gwsLeave(h)
					}
				}
				return
			}
			done, progress := r.slice(g)
			if done {
				active[i] = false
			}
			if done || progress {
				idlePass = false
			}
			r.collect(g, &stats)
		}
		// When every resident wave only slept (s_sleep) or spun on a
		// backward branch, the worker is waiting for something outside it
		// (the host answering a hostcall, another worker's workgroup):
		// yield the processor rather than burn it, sleeping briefly after
		// a run of idle passes.
		if idlePass && r.gwsIdle(&slots, &active, exhausted || lo == hi && r.next.Load() >= r.totalWG, id, epoch) {
			// A workgroup was admitted beside ones waiting at GWS.
			idlePass = false
			admit = true
		}
		if idlePass {
			idle++
			if idle > 64 {
				time.Sleep(20 * time.Microsecond)
			} else {
				runtime.Gosched()
			}
		} else {
			idle = 0
		}
	}
}

// collect moves the waves' counters into stats and charges the budget.
func (r *run) collect(g *workgroup, stats *Counters) {
	var n uint64
	for _, w := range g.waves[:g.nwaves] {
		for c, v := range w.icount {
			stats.Instructions[c] += v
			n += v
			w.icount[c] = 0
		}
		stats.BytesLoaded += w.loaded
		stats.BytesStored += w.stored
		w.loaded, w.stored = 0, 0
	}
	if b := r.dev.cfg.Budget; b != 0 && r.executed.Add(n) > b && !r.abort.Load() {
		r.budgetFault()
	}
}

// budgetFault stops the dispatch with the instruction budget fault.
func (r *run) budgetFault() {
	r.setFault(&Fault{Kind: FaultBudget, Kernel: r.k.Kernel, Wave: -1, Lane: -1,
		Detail: fmt.Sprintf("more than %d instructions executed", r.dev.cfg.Budget)})
}

// stopFault is called by workers that see the abort flag for each of their
// resident workgroups: it lists the workgroup's live waves in a budget or
// cancellation fault (creating the cancellation fault if needed).
func (r *run) stopFault(g *workgroup) {
	r.faultMu.Lock()
	defer r.faultMu.Unlock()
	if r.fault == nil {
		if r.ctx == nil || r.ctx.Err() == nil {
			return
		}
		r.fault = &Fault{Kind: FaultCanceled, Kernel: r.k.Kernel, Wave: -1, Lane: -1, Detail: r.ctx.Err().Error(), err: r.ctx.Err()}
	}
	f := r.fault
	if f.Kind != FaultBudget && f.Kind != FaultCanceled && f.Kind != FaultDeadlock {
		return
	}
	for _, w := range g.waves[:g.nwaves] {
		if w.state != waveDone {
			p := WavePC{Workgroup: g.id, Wave: w.id, PC: w.pc, Spinning: w.spin}
			if w.state == waveGWS {
				// pc is past the ds_gws_* instruction; report it.
				p.PC, p.WaitGWS, p.GWSResource = w.curPC, true, w.gwsRes
			}
			f.WavePCs = append(f.WavePCs, p)
		}
	}
	all := len(f.WavePCs) > 0
	for _, p := range f.WavePCs {
		all = all && p.Spinning
	}
	if all {
		f.Detail = strings.TrimSuffix(f.Detail, spinNote) + spinNote
	}
}

const spinNote = " (possible spin-wait deadlock: every wave is looping)"

// slice runs each runnable wave of g once (until it yields) and reports
// whether the workgroup has finished. A fault inside the hot loop arrives
// here as a panic and stops the dispatch.
func (r *run) slice(g *workgroup) (done, progress bool) {
	defer func() {
		if e := recover(); e != nil {
			f, ok := e.(*Fault)
			if !ok {
				err, _ := e.(error)
				var re runtime.Error
				if errors.As(err, &re) {
					f = &Fault{Kind: FaultIllegal, Lane: -1, Detail: "register or memory index outside the allocated range (" + re.Error() + ")"}
				} else {
					panic(e)
				}
			}
			w := g.waves[g.cur]
			if w.slow&slowPosted != 0 {
				// Adds posted before the fault happened before it.
				w.flushPosted()
			}
			f.Kernel = r.k.Kernel
			f.Workgroup = g.id
			f.Wave = w.id
			if f.PC == 0 {
				f.PC = w.curPC
			}
			if f.Inst == "" {
				f.Inst = w.code.text(f.PC)
			}
			r.setFault(f)
			done = true
		}
	}()
	for k := 0; k < g.nwaves; k++ {
		g.cur = (g.cur + 1) % g.nwaves
		w := g.waves[g.cur]
		if w.state != waveRunning && (w.state != waveGWS || !w.gwsReady()) {
			continue
		}
		w.exec1()
		if !w.spin && !w.slept {
			progress = true // a barrier or s_endpgm
			w.sigOK = false
		} else if w.spin && !w.spinStalled() {
			progress = true // a long loop that is computing, not polling
		}
		if w.state == waveDone {
			g.live--
		}
		if g.live > 0 && g.barrier == g.live {
			g.releaseBarrier()
		}
		if r.abort.Load() {
			return false, true
		}
	}
	return g.live == 0, progress
}

func (g *workgroup) releaseBarrier() {
	for _, w := range g.waves[:g.nwaves] {
		if w.state == waveBarrier {
			w.state = waveRunning
		}
	}
	g.barrier = 0
}

// exec1 runs the wave until it yields: the hot loop.
func (w *wave) exec1() {
	w.yield = false
	w.spin = false
	w.slept = false
	w.since = 0
	if w.r.dev.cfg.Trace != nil {
		w.exec1Trace()
		return
	}
	for !w.yield {
		// The decoded page holding pc is cached in the wave: one load
		// for the common case (codeTable.fetch otherwise).
		var o *op
		if d := w.pc - w.cbase; d < pageSize*4 && w.cpage != nil {
			o = w.cpage[d>>2].Load()
		}
		if o == nil {
			o = w.fetchPage()
		}
		w.curPC = w.pc
		w.pc += uint64(o.n)
		w.icount[o.class]++
		w.since++
		if w.slow != 0 && w.slowStep(o) {
			continue
		}
		o.fn(w, o)
	}
	if w.slow&slowPosted != 0 {
		w.flushPosted()
	}
}

// slowStep is the run loop's step for a wave in a special state (w.slow):
// it settles posted atomic adds that o must observe or publish (postCheck)
// and runs o itself when GPR index mode offsets its operands, reporting
// whether it did.
func (w *wave) slowStep(o *op) bool {
	if w.slow&slowPosted != 0 && o.post != postKeep {
		w.postCheck(o)
	}
	if w.slow&slowGPRIdx != 0 && o.class == ClassVALU {
		w.execIndexed(o)
		return true
	}
	return false
}

// fetchPage fetches the op at w.pc through the code table (decoding it if
// needed) and caches the page holding it.
func (w *wave) fetchPage() *op {
	t := w.code
	o := t.fetch(w.pc)
	p := (w.pc - t.base) >> 2 >> pageShift
	w.cpage = t.pages[p].Load()
	w.cbase = t.base + p<<(pageShift+2)
	return o
}

// Workgroup objects (with their waves and register files) are reused
// across dispatches.
func (d *Device) getWorkgroup() *workgroup {
	if g, ok := d.wgPool.Get().(*workgroup); ok {
		return g
	}
	return &workgroup{}
}

func (d *Device) putWorkgroup(g *workgroup) {
	for _, w := range g.waves {
		w.r, w.code, w.rdata, w.cpage = nil, nil, nil, nil
		w.rbase, w.rend, w.rc = 1, 0, [8]regionEntry{}
	}
	d.wgPool.Put(g)
}

// TraceEvent describes one executed instruction (Config.Trace).
type TraceEvent struct {
	Workgroup [3]uint32
	Wave      int
	PC        uint64
	Exec      uint64
	Inst      string // as llvm-objdump prints it
}

// exec1Trace is exec1 reporting every instruction to Config.Trace before
// executing it; it is a separate loop so tracing costs nothing when off.
func (w *wave) exec1Trace() {
	trace := w.r.dev.cfg.Trace
	for !w.yield {
		t := w.code
		o := t.fetch(w.pc)
		trace(TraceEvent{Workgroup: w.wg.id, Wave: w.id, PC: w.pc, Exec: w.exec(), Inst: t.text(w.pc)})
		w.curPC = w.pc
		w.pc += uint64(o.n)
		w.icount[o.class]++
		w.since++
		if w.slow != 0 && w.slowStep(o) {
			continue
		}
		o.fn(w, o)
	}
	if w.slow&slowPosted != 0 {
		w.flushPosted()
	}
}

// mirrorScratch writes the dispatch's scratch V#, backing address and size
// into the queue's amd_queue_t, as the command processor would (DESIGN.md
// "Memory"), when the queue lives in writable device memory.
func (r *run) mirrorScratch() {
	var q abi.AMDQueue
	if r.k.QueueAddr == 0 {
		return
	}
	reg, ok := r.dev.cfg.Memory.Lookup(r.k.QueueAddr)
	if !ok || reg.ReadOnly || r.k.QueueAddr+uint64(unsafe.Sizeof(q)) > reg.Base+uint64(len(reg.Data)) {
		return
	}
	b := reg.Data[r.k.QueueAddr-reg.Base:]
	v := scratchVSharp(r.scratch.base, uint32(len(r.scratch.data)))
	off := unsafe.Offsetof(q.ScratchResourceDescriptor)
	for i, x := range v {
		le.PutUint32(b[off+uintptr(4*i):], x)
	}
	le.PutUint64(b[unsafe.Offsetof(q.ScratchBackingMemoryLocation):], r.scratch.base)
	le.PutUint64(b[unsafe.Offsetof(q.ScratchBackingMemoryByteSize):], uint64(len(r.scratch.data)))
	le.PutUint32(b[unsafe.Offsetof(q.ScratchWave64LaneByteSize):], r.setup.privateSize)
}

// execIndexed runs a VALU instruction in GPR index mode (GFX9
// s_set_gpr_idx_on): the VGPR operands the mode enables (M0[12] src0,
// [13] src1, [14] src2, [15] dst) are offset by M0[7:0].
func (w *wave) execIndexed(o *op) {
	w.idxOp = *o
	m0 := w.s[sM0]
	idx, mode := uint16(m0&0xFF), m0>>12&0xF
	for i := 0; i < 3; i++ {
		if mode>>i&1 != 0 && w.idxOp.src[i].kind == kVGPR {
			w.idxOp.src[i].idx += idx
		}
	}
	if mode&8 != 0 && w.idxOp.dst.kind == kVGPR {
		w.idxOp.dst.idx += idx
	}
	w.idxOp.fn(w, &w.idxOp)
}
