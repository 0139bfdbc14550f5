package emu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocpu/rocpu/isa"
)

// GWS instruction words from llvm-mc-15 -triple=amdgcn-amd-amdhsa
// -mcpu=gfx90a -show-encoding (isa/testdata/gws_gfx90a.txt).
var (
	encGWSInit       = [2]uint32{0xd9330000, 0x00000002} // ds_gws_init v2 gds
	encGWSBarrier    = [2]uint32{0xd93b0000, 0x00000002} // ds_gws_barrier v2 gds
	encGWSBarrierOf3 = [2]uint32{0xd93b0003, 0x00000004} // ds_gws_barrier v4 offset:3 gds
	encGWSSemaP      = [2]uint32{0xd9390000, 0x00000000} // ds_gws_sema_p gds
	encGWSSemaV      = [2]uint32{0xd9350000, 0x00000000} // ds_gws_sema_v gds
	encGWSSemaRelAll = [2]uint32{0xd9310000, 0x00000000} // ds_gws_sema_release_all gds
)

// gwsOp decodes and builds a GWS instruction for a hand kernel (one op per
// 4-byte slot, so its length is set to 4).
func gwsOp(t *testing.T, enc [2]uint32) *op {
	t.Helper()
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 8)
	le.PutUint32(b, enc[0])
	le.PutUint32(b[4:], enc[1])
	in, err := isa.Decode(tg, b)
	if err != nil {
		t.Fatalf("decode %08x %08x: %v", enc[0], enc[1], err)
	}
	o, err := buildOp(&in)
	if err != nil {
		t.Fatalf("%s: %v", in.String(), err)
	}
	o.n = 4
	return o
}

// hop is a hand op running fn.
func hop(fn func(w *wave, o *op)) *op { return &op{class: ClassOther, fn: fn} }

// setV sets VGPR r of every lane to f(w).
func setV(r int, f func(w *wave) uint32) *op {
	return hop(func(w *wave, o *op) {
		v := f(w)
		for l := 0; l < 64; l++ {
			w.v[r*64+l] = v
		}
	})
}

// skipUnless skips the next op (one slot) in waves for which cond is false.
func skipUnless(cond func(w *wave) bool) *op {
	return hop(func(w *wave, o *op) {
		if !cond(w) {
			w.pc += 4
		}
	})
}

func barrierOp() *op { return &op{fn: opBarrier, class: ClassBranch} }

// gwsInitKernel is the ops of a one-wave kernel like ROCclr's
// __amd_rocclr_gwsInit: ds_gws_init with data0 = count.
func gwsInitKernel(t *testing.T, count uint32) []*op {
	return []*op{setV(2, func(*wave) uint32 { return count }), gwsOp(t, encGWSInit), endpgm()}
}

// TestGWSGridBarrier: a grid barrier across every workgroup, used the two
// ways kernels do: every wave arriving (count = waves - 1), and ockl's
// __ockl_grid_sync (wave 0 of each workgroup arrives with count =
// workgroups - 1 while the others wait at s_barrier), three rounds in a
// row. The count is set by a separate one-wave dispatch first, as HIP does,
// so it must survive across dispatches. Each wave stores a value for the
// round before the barrier and after it checks every wave's value of that
// round: a barrier that let any wave through before the last one arrived
// leaves a value unwritten. Only 2 workgroups per worker are resident at
// first, so the scheduler must admit the rest while waves wait.
func TestGWSGridBarrier(t *testing.T) {
	const wgs, wavesPerWG, rounds = 24, 2, 3
	for _, ockl := range []bool{false, true} {
		for _, workers := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("ockl=%v/workers=%d", ockl, workers), func(t *testing.T) {
				var vals [rounds][wgs * wavesPerWG]atomic.Uint32
				var failures atomic.Int32
				var firstFail atomic.Value
				id := func(w *wave) int { return int(w.wg.id[0])*wavesPerWG + w.id }
				count := uint32(wgs*wavesPerWG - 1)
				if ockl {
					count = wgs - 1
				}
				ops := []*op{setV(2, func(*wave) uint32 { return count })}
				for r := 0; r < rounds; r++ {
					r := r
					ops = append(ops, hop(func(w *wave, o *op) { vals[r][id(w)].Store(uint32(r*1000 + id(w) + 1)) }))
					if ockl {
						ops = append(ops, barrierOp(), skipUnless(func(w *wave) bool { return w.id == 0 }),
							gwsOp(t, encGWSBarrier), barrierOp())
					} else {
						ops = append(ops, gwsOp(t, encGWSBarrier))
					}
					ops = append(ops, hop(func(w *wave, o *op) {
						for j := range vals[r] {
							if got := vals[r][j].Load(); got != uint32(r*1000+j+1) {
								if failures.Add(1) == 1 {
									firstFail.Store(fmt.Sprintf("round %d: wave %d left the barrier before wave %d arrived (value %d)", r, id(w), j, got))
								}
								return
							}
						}
					}))
				}
				ops = append(ops, endpgm())
				init := gwsInitKernel(t, count)
				cfg := DefaultGFX90A(nil)
				cfg.Workers, cfg.ResidentWorkgroups = workers, 2
				d, base, _ := handKernel(t, cfg, append(init, ops...)...)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				if err := d.Dispatch(ctx, &Dispatch{Kernel: "gwsInit", Entry: base, GridSize: [3]uint32{1, 1, 1}, WorkgroupSize: [3]uint32{1, 1, 1}}); err != nil {
					t.Fatal(err)
				}
				k := &Dispatch{Kernel: "grid", Entry: base + uint64(len(init))*4, Cooperative: true,
					GridSize: [3]uint32{wgs * 64 * wavesPerWG, 1, 1}, WorkgroupSize: [3]uint32{64 * wavesPerWG, 1, 1}}
				if err := d.Dispatch(ctx, k); err != nil {
					t.Fatal(err)
				}
				if n := failures.Load(); n != 0 {
					t.Fatalf("%d waves passed a barrier early; first: %v", n, firstFail.Load())
				}
				if k.Stats.Workgroups != wgs {
					t.Errorf("%d workgroups ran, want %d", k.Stats.Workgroups, wgs)
				}
				// The barrier re-armed itself with the last wave's count each
				// round; the device's resource 0 is ready for another round.
				if c := d.gws.res[0].counter; c != int64(count) {
					t.Errorf("resource 0 counter %d after the dispatch, want %d", c, count)
				}
			})
		}
	}
}

// TestGWSResourceIndex: the resource is (M0[21:16] + offset) mod 64. With
// M0[21:16] = 62 and offset:3, the barrier is resource 1; a second
// dispatch initialises resource 1 through M0 alone.
func TestGWSResourceIndex(t *testing.T) {
	m0 := func(v uint32) *op { return hop(func(w *wave, o *op) { w.s[sM0] = v }) }
	ops := []*op{
		// 0: init resource 1 with count 1 (two waves meet).
		m0(1 << 16), setV(2, func(*wave) uint32 { return 1 }), gwsOp(t, encGWSInit), endpgm(),
		// 4: both waves meet at (62 + 3) mod 64 = 1, re-arming it with 5.
		m0(62<<16 | 0xFFFF), setV(4, func(*wave) uint32 { return 5 }), gwsOp(t, encGWSBarrierOf3), endpgm(),
	}
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 1
	d, base, _ := handKernel(t, cfg, ops...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.Dispatch(ctx, &Dispatch{Entry: base, GridSize: [3]uint32{1, 1, 1}, WorkgroupSize: [3]uint32{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Dispatch(ctx, &Dispatch{Entry: base + 16, GridSize: [3]uint32{128, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	if c0, c1 := d.gws.res[0].counter, d.gws.res[1].counter; c0 != 0 || c1 != 5 {
		t.Errorf("counters: resource 0 %d, resource 1 %d; want 0 and 5", c0, c1)
	}
	if g := d.gws.res[1].gen.Load(); g != 1 {
		t.Errorf("resource 1 opened %d times, want 1", g)
	}
}

// TestGWSSemaphore: three workgroups wait at ds_gws_sema_p until the fourth
// stores a flag and runs ds_gws_sema_release_all (as many releases as
// waves are queued); each checks the flag after leaving. One worker with one
// resident workgroup: the waiting ones must make room for the fourth.
func TestGWSSemaphore(t *testing.T) {
	var flag atomic.Uint32
	var early atomic.Int32
	ops := []*op{
		skipUnless(func(w *wave) bool { return w.wg.id[0] == 3 }),
		hop(func(w *wave, o *op) { w.pc = o.pc + 4*3 }), // workgroup 3 jumps to its part
		gwsOp(t, encGWSSemaP),
		hop(func(w *wave, o *op) {
			if flag.Load() != 1 {
				early.Add(1)
			}
			w.state, w.yield = waveDone, true
		}),
		hop(func(w *wave, o *op) { flag.Store(1) }),
		gwsOp(t, encGWSSemaRelAll),
		endpgm(),
	}
	cfg := DefaultGFX90A(nil)
	cfg.Workers, cfg.ResidentWorkgroups = 1, 1
	d, base, _ := handKernel(t, cfg, ops...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.Dispatch(ctx, &Dispatch{Entry: base, GridSize: [3]uint32{256, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	if n := early.Load(); n != 0 {
		t.Errorf("%d waves left ds_gws_sema_p before the release", n)
	}
	if c := d.gws.res[0].counter; c != 0 {
		t.Errorf("semaphore counter %d after three releases taken, want 0", c)
	}
	// ds_gws_sema_v then ds_gws_sema_p in one wave: the release is taken.
	d2, base2, _ := handKernel(t, cfg, gwsOp(t, encGWSSemaV), gwsOp(t, encGWSSemaP), endpgm())
	if err := d2.Dispatch(ctx, &Dispatch{Entry: base2, GridSize: [3]uint32{64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}); err != nil {
		t.Fatal(err)
	}
}

// gwsStuckKernel: every wave arrives at a barrier initialised for more
// waves than the dispatch has; wave 0 of workgroup 0 first jumps to
// extra[0] when extra is given.
func gwsStuckKernel(t *testing.T, extra ...*op) []*op {
	ops := []*op{
		setV(2, func(*wave) uint32 { return 1000 }), gwsOp(t, encGWSInit), // slot 0, 1: count far above the waves
		skipUnless(func(w *wave) bool { return len(extra) > 0 && w.wg.id[0] == 0 && w.id == 0 }),
		hop(func(w *wave, o *op) { w.pc = o.pc + 4*3 }), // slot 3: to extra
		gwsOp(t, encGWSBarrier), // slot 4
		endpgm(),
	}
	return append(ops, extra...)
}

// checkGWSWaiters asserts that f lists want waves waiting at GWS resource 0
// at the barrier's pc.
func checkGWSWaiters(t *testing.T, f *Fault, want int, barrierPC uint64) {
	t.Helper()
	n := 0
	for _, p := range f.WavePCs {
		if p.WaitGWS {
			n++
			if p.GWSResource != 0 || p.PC != barrierPC {
				t.Errorf("waiter %+v: want resource 0 at pc %#x", p, barrierPC)
			}
		}
	}
	if n != want {
		t.Errorf("%d waves listed as waiting at GWS, want %d:\n%v", n, want, f)
	}
	if !strings.Contains(f.Error(), "(waiting at GWS resource 0)") {
		t.Errorf("fault text does not say where waves wait:\n%v", f)
	}
}

// TestGWSDeadlock: ds_gws_init counted more waves than ever arrive. Once
// every wave waits and no workgroup is left to start, nothing can open the
// barrier: the dispatch ends with a deadlock fault listing the waiting
// waves, at once rather than after a budget or timeout.
func TestGWSDeadlock(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := DefaultGFX90A(nil)
		cfg.Workers, cfg.ResidentWorkgroups = workers, 1
		d, base, _ := handKernel(t, cfg, gwsStuckKernel(t)...)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		start := time.Now()
		err := d.Dispatch(ctx, &Dispatch{Kernel: "stuck", Entry: base, GridSize: [3]uint32{512, 1, 1}, WorkgroupSize: [3]uint32{128, 1, 1}})
		timedOut := ctx.Err() != nil
		cancel()
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultDeadlock {
			t.Fatalf("workers=%d: err %v, want a deadlock fault", workers, err)
		}
		if timedOut || time.Since(start) > 30*time.Second {
			t.Errorf("workers=%d: the deadlock took %v to find", workers, time.Since(start))
		}
		// 4 workgroups of 2 waves, all resident in the end.
		checkGWSWaiters(t, f, 8, base+4*4)
		if !strings.Contains(f.Detail, "ds_gws_init") {
			t.Errorf("detail %q does not name the cause", f.Detail)
		}
		if q := d.gws.res[0].queued; q != 0 {
			t.Errorf("workers=%d: %d waves still queued at the resource after the dispatch stopped", workers, q)
		}
		// The device stays usable: the next dispatch re-initialises.
		if err := d.Dispatch(context.Background(), &Dispatch{Entry: base + 5*4, GridSize: [3]uint32{64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}); err != nil {
			t.Errorf("dispatch after the deadlock: %v", err)
		}
	}
}

// spinOp loops in place, switching waves after the switch interval as a
// taken backward branch does: a wave polling for something that never
// comes, which keeps the dispatch from being a provable deadlock.
func spinOp() *op {
	return hop(func(w *wave, o *op) {
		w.pc = o.pc
		if w.since >= w.r.dev.cfg.SwitchInterval {
			w.yield, w.spin = true, true
		}
	})
}

// TestGWSStopWaiters: waves waiting at the GWS barrier while another wave
// still runs (spins) are stopped by the instruction budget and by context
// cancellation, and by a fault in another wave; the faults list the
// waiting waves.
func TestGWSStopWaiters(t *testing.T) {
	grid := [3]uint32{512, 1, 1}
	wg := [3]uint32{128, 1, 1}
	t.Run("budget", func(t *testing.T) {
		cfg := DefaultGFX90A(nil)
		cfg.Workers, cfg.ResidentWorkgroups, cfg.Budget = 2, 1, 200000
		d, base, _ := handKernel(t, cfg, gwsStuckKernel(t, spinOp())...)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err := d.Dispatch(ctx, &Dispatch{Kernel: "stuck", Entry: base, GridSize: grid, WorkgroupSize: wg})
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultBudget {
			t.Fatalf("err %v, want a budget fault", err)
		}
		checkGWSWaiters(t, f, 7, base+4*4)
	})
	t.Run("context", func(t *testing.T) {
		cfg := DefaultGFX90A(nil)
		cfg.Workers, cfg.ResidentWorkgroups = 2, 1
		d, base, _ := handKernel(t, cfg, gwsStuckKernel(t, spinOp())...)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		err := d.Dispatch(ctx, &Dispatch{Kernel: "stuck", Entry: base, GridSize: grid, WorkgroupSize: wg})
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultCanceled || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err %v, want a cancellation fault", err)
		}
		checkGWSWaiters(t, f, 7, base+4*4)
	})
	t.Run("fault", func(t *testing.T) {
		cfg := DefaultGFX90A(nil)
		cfg.Workers, cfg.ResidentWorkgroups = 2, 1
		var mu sync.Mutex
		trap := hop(func(w *wave, o *op) {
			mu.Lock()
			defer mu.Unlock()
			w.fault(o, FaultException, -1, 0, "s_trap 2")
		})
		// The last workgroup traps (after the others wait), instead of
		// arriving.
		ops := []*op{
			setV(2, func(*wave) uint32 { return 7 }), gwsOp(t, encGWSInit),
			skipUnless(func(w *wave) bool { return w.wg.id[0] == 3 && w.id == 1 }), trap,
			gwsOp(t, encGWSBarrier), endpgm(),
		}
		d, base, _ := handKernel(t, cfg, ops...)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err := d.Dispatch(ctx, &Dispatch{Kernel: "trap", Entry: base, GridSize: grid, WorkgroupSize: wg})
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultException || f.Workgroup != [3]uint32{3, 0, 0} || f.Wave != 1 {
			t.Fatalf("err %v, want the trap of workgroup 3 wave 1", err)
		}
		if ctx.Err() != nil {
			t.Errorf("the fault was only noticed at the timeout")
		}
	})
}

// TestGWSResidency: growing beyond the configured resident workgroups must
// not share scratch slots. A cooperative dispatch gets a slot per wave of
// the grid; a non-cooperative dispatch with scratch, or a cooperative one
// too large for the device, cannot grow and ends in a deadlock fault that
// says why.
func TestGWSResidency(t *testing.T) {
	var mu sync.Mutex
	offs := map[uint32]int{}
	record := hop(func(w *wave, o *op) {
		mu.Lock()
		offs[w.scratchOff]++
		mu.Unlock()
	})
	const wgs = 12
	ops := []*op{setV(2, func(*wave) uint32 { return 2*wgs - 1 }), record, gwsOp(t, encGWSBarrier), endpgm()}
	cfg := DefaultGFX90A(nil)
	cfg.Workers, cfg.ResidentWorkgroups = 2, 1
	d, base, _ := handKernel(t, cfg, ops...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The counter starts at 0 on a new device: init it in a first dispatch.
	d.gws.res[0].counter = 2*wgs - 1
	k := &Dispatch{Entry: base, Cooperative: true, PrivateSegmentSize: 16,
		GridSize: [3]uint32{wgs * 128, 1, 1}, WorkgroupSize: [3]uint32{128, 1, 1}}
	if err := d.Dispatch(ctx, k); err != nil {
		t.Fatal(err)
	}
	if len(offs) != 2*wgs {
		t.Errorf("%d distinct scratch offsets for %d waves resident at once: %v", len(offs), 2*wgs, offs)
	}

	d.gws.res[0].counter = 2*wgs - 1
	k.Cooperative = false
	err := d.Dispatch(ctx, k)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultDeadlock || !strings.Contains(f.Detail, "cannot be made resident") {
		t.Errorf("non-cooperative dispatch with scratch: err %v, want a deadlock fault naming residency", err)
	}

	// A cooperative grid larger than the device's wave slots (HIP refuses
	// to launch one) gets no scratch per workgroup either: 9 waves on 8.
	small := DefaultGFX90A(nil)
	small.Workers, small.ResidentWorkgroups, small.CUs, small.WavesPerCU = 2, 1, 2, 4
	d2, base2, _ := handKernel(t, small, ops...)
	d2.gws.res[0].counter = 8
	err = d2.Dispatch(ctx, &Dispatch{Entry: base2, Cooperative: true, PrivateSegmentSize: 16,
		GridSize: [3]uint32{9 * 64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}})
	if !errors.As(err, &f) || f.Kind != FaultDeadlock || !strings.Contains(f.Detail, "cannot be made resident") {
		t.Errorf("cooperative dispatch of 9 waves with scratch on 8 slots: err %v, want a deadlock fault naming residency", err)
	}
	// Without scratch it can grow, and the barrier (set for the 9 waves) opens.
	d2.gws.res[0].counter = 8
	if err := d2.Dispatch(ctx, &Dispatch{Entry: base2, Cooperative: true, GridSize: [3]uint32{9 * 64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}); err != nil {
		t.Errorf("cooperative dispatch of 9 waves without scratch: %v", err)
	}
}
