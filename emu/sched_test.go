package emu

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// handKernel installs hand-built ops at consecutive 4-byte slots of a fresh
// code region and returns the device and the entry address. It lets the
// scheduler and set-up be tested independently of the decoder.
func handKernel(t *testing.T, cfg Config, ops ...*op) (*Device, uint64, *testMem) {
	t.Helper()
	mem, _ := cfg.Memory.(*testMem)
	if mem == nil {
		mem = &testMem{}
		cfg.Memory = mem
	}
	code := mem.alloc(t, 4096, true)
	d, err := NewDevice(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := d.codeTableFor(code.Base)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range ops {
		if o.n == 0 {
			o.n = 4
		}
		o.pc = code.Base + uint64(i)*4
		tab.install(o.pc, o)
	}
	return d, code.Base, mem
}

func endpgm() *op { return &op{fn: opEndpgm, class: ClassBranch} }

func TestDispatchCountsWorkgroupsAndWaves(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		cfg := DefaultGFX90A(nil)
		cfg.Workers = workers
		d, entry, _ := handKernel(t, cfg, endpgm())
		k := &Dispatch{Entry: entry, GridSize: [3]uint32{1000, 1, 1}, WorkgroupSize: [3]uint32{256, 1, 1}}
		if err := d.Dispatch(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		// 1000 = 3*256 + 232: four workgroups of 4 waves each (232 items need 4 waves).
		if k.Stats.Workgroups != 4 || k.Stats.Waves != 16 {
			t.Errorf("workers=%d: workgroups %d waves %d, want 4 and 16", workers, k.Stats.Workgroups, k.Stats.Waves)
		}
		if got := k.Stats.Instructions[ClassBranch]; got != 16 {
			t.Errorf("workers=%d: %d s_endpgm executed, want 16", workers, got)
		}
	}
}

// TestSetWorkers: SetWorkers changes the worker count of later
// dispatches, in place of Config.Workers; n <= 0 means GOMAXPROCS.
func TestSetWorkers(t *testing.T) {
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 3
	var seen atomic.Int64
	rec := &op{class: ClassOther, fn: func(w *wave, o *op) { seen.Store(int64(w.r.workers)) }}
	d, entry, _ := handKernel(t, cfg, rec, endpgm())
	run := func() int {
		k := &Dispatch{Entry: entry, GridSize: [3]uint32{64 * 64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
		if err := d.Dispatch(context.Background(), k); err != nil {
			t.Fatal(err)
		}
		return int(seen.Load())
	}
	if n := run(); n != 3 {
		t.Errorf("Config.Workers 3: the dispatch had %d workers", n)
	}
	d.SetWorkers(1)
	if n := run(); n != 1 {
		t.Errorf("after SetWorkers(1): %d workers", n)
	}
	d.SetWorkers(2)
	if n := run(); n != 2 {
		t.Errorf("after SetWorkers(2): %d workers", n)
	}
	d.SetWorkers(0)
	if n, want := run(), min(runtime.GOMAXPROCS(0), 64); n != want {
		t.Errorf("after SetWorkers(0): %d workers, want GOMAXPROCS %d", n, want)
	}
}

// waveRecord is what a probe op saw in one wave.
type waveRecord struct {
	wg    [3]uint32
	wave  int
	s     [sNumRegs]uint32
	v     [7][64]uint32
	exec  uint64
	mode  uint32
	nvgpr int
}

func probe(mu *sync.Mutex, out *[]waveRecord) *op {
	return &op{class: ClassOther, fn: func(w *wave, o *op) {
		rec := waveRecord{wg: w.wg.id, wave: w.id, s: w.s, exec: w.exec(), mode: w.mode, nvgpr: len(w.v) / 64}
		for i := 0; i < 7 && (i+1)*64 <= len(w.v); i++ {
			copy(rec.v[i][:], w.v[i*64:])
		}
		mu.Lock()
		*out = append(*out, rec)
		mu.Unlock()
	}}
}

func TestInitialStateGFX90A(t *testing.T) {
	var mu sync.Mutex
	var recs []waveRecord
	cfg := DefaultGFX90A(nil)
	d, entry, _ := handKernel(t, cfg, probe(&mu, &recs), endpgm())
	// private segment buffer, dispatch ptr, queue ptr, kernarg ptr, dispatch id,
	// flat scratch init: 4+2+2+2+2+2 = 14 user SGPRs; then wg id x,y,z, wg info, wave offset.
	rsrc2 := uint32(1) | 14<<1 | 1<<7 | 1<<8 | 1<<9 | 1<<10 | 2<<11
	rsrc1 := uint32(3) | 2<<12 | 3<<14 | 3<<16 | 1<<18 | 1<<21 | 1<<23 // 32 VGPRs; round32 -inf; round16_64 zero; denorm32 none; ...
	k := &Dispatch{
		Kernel:  "probe",
		Program: Program{Rsrc1: rsrc1, Rsrc2: rsrc2, Rsrc3: 3, Properties: 0x3F},
		Entry:   entry, PacketAddr: 0x1111_2222_3333, QueueAddr: 0x4444_5555_6666, KernargAddr: 0x7777_8888_9999,
		DispatchID: 0xABCD_EF01_2345, GridSize: [3]uint32{20, 7, 3}, WorkgroupSize: [3]uint32{8, 4, 2},
		PrivateSegmentSize: 40,
	}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	// 3*2*2 = 12 workgroups, each at most 64 items: 1 wave each.
	if len(recs) != 12 {
		t.Fatalf("%d waves recorded, want 12", len(recs))
	}
	offsets := map[uint32]bool{}
	for _, r := range recs {
		if r.nvgpr != 32 { // (3+1)*8 = 32 unified (ACCUM_OFFSET (3+1)*4 = 16 architected)
			t.Errorf("VGPR file %d, want 32", r.nvgpr)
		}
		if r.s[4] != 0x2222_3333 || r.s[5] != 0x1111 || r.s[6] != 0x5555_6666 || r.s[7] != 0x4444 ||
			r.s[8] != 0x8888_9999 || r.s[9] != 0x7777 || r.s[10] != 0xEF01_2345 || r.s[11] != 0xABCD {
			t.Errorf("user SGPRs s4..s11 = %x", r.s[4:12])
		}
		vs := [4]uint32{r.s[0], r.s[1], r.s[2], r.s[3]}
		base := uint64(vs[0]) | uint64(vs[1]&0xFFFF)<<32
		if vs[1]>>31 != 1 || vs[1]>>16&0x3FFF != 0 || vs[3]>>19&3 != 1 || vs[3]>>21&3 != 3 || vs[3]>>23&1 != 1 {
			t.Errorf("private segment V# %08x: want swizzled, stride 0, element size 4, index stride 64, add_tid", vs)
		}
		if fsi := uint64(r.s[12]) | uint64(r.s[13])<<32; fsi != base {
			t.Errorf("flat scratch init %x, want V# base %x", fsi, base)
		}
		if r.s[14] != r.wg[0] || r.s[15] != r.wg[1] || r.s[16] != r.wg[2] {
			t.Errorf("workgroup ids s14..s16 = %v, want %v", r.s[14:17], r.wg)
		}
		if r.s[17] != 1<<31|1 {
			t.Errorf("workgroup info %#x, want first wave, 1 wave", r.s[17])
		}
		if r.s[18]%(40*64) != 0 && r.s[18]%1024 != 0 {
			t.Errorf("wave offset %#x not slot aligned", r.s[18])
		}
		if offsets[r.s[18]] && len(recs) <= 4 {
			t.Errorf("wave offset %#x reused by resident waves", r.s[18])
		}
		offsets[r.s[18]] = true
		// Partial workgroups: x 20 = 8+8+4, y 7 = 4+3, z 3 = 2+1.
		ax, ay, az := uint32(8), uint32(4), uint32(2)
		if r.wg[0] == 2 {
			ax = 4
		}
		if r.wg[1] == 1 {
			ay = 3
		}
		if r.wg[2] == 1 {
			az = 1
		}
		n := ax * ay * az
		if want := uint64(1)<<n - 1; r.exec != want {
			t.Errorf("wg %v exec %#x want %#x", r.wg, r.exec, want)
		}
		for l := uint32(0); l < n; l++ {
			want := l%ax | (l/ax%ay)<<10 | (l/(ax*ay))<<20
			if r.v[0][l] != want {
				t.Errorf("wg %v lane %d v0 %#x want %#x", r.wg, l, r.v[0][l], want)
				break
			}
		}
		if want := uint32(2 | 3<<2 | 3<<4 | 1<<6 | 1<<8 | 1<<9); r.mode != want {
			t.Errorf("MODE %#x want %#x", r.mode, want)
		}
	}
}

func TestInitialStateUnpackedGFX900(t *testing.T) {
	var mu sync.Mutex
	var recs []waveRecord
	cfg := DefaultGFX90A(nil)
	cfg.Processor, cfg.PackedWorkItemIDs, cfg.UnifiedVGPRFile, cfg.AGPRs, cfg.KernargPreload = "gfx900", false, false, 0, false
	d, entry, _ := handKernel(t, cfg, probe(&mu, &recs), endpgm())
	// kernarg ptr only (2 user SGPRs), then wg id x and z (y disabled), no info.
	rsrc2 := uint32(2<<1 | 1<<7 | 1<<9 | 2<<11)
	k := &Dispatch{Program: Program{Rsrc1: 1, Rsrc2: rsrc2, Properties: propKernargSegmentPtr},
		Entry: entry, KernargAddr: 0x1234_5678_9ABC, GridSize: [3]uint32{4, 4, 10}, WorkgroupSize: [3]uint32{4, 4, 4}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d waves, want 3", len(recs))
	}
	for _, r := range recs {
		if r.nvgpr != 8 {
			t.Errorf("VGPRs %d want 8", r.nvgpr)
		}
		if r.s[0] != 0x5678_9ABC || r.s[1] != 0x1234 || r.s[2] != r.wg[0] || r.s[3] != r.wg[2] || r.s[4] != 0 {
			t.Errorf("s0..s4 = %x (wg %v)", r.s[:5], r.wg)
		}
		az := uint32(4)
		if r.wg[2] == 2 {
			az = 2
		}
		if want := uint64(1)<<(16*az) - 1; az == 4 && r.exec != ^uint64(0) || az == 2 && r.exec != want {
			t.Errorf("exec %#x for z size %d", r.exec, az)
		}
		for l := 0; l < int(16*az); l++ {
			if r.v[0][l] != uint32(l%4) || r.v[1][l] != uint32(l/4%4) || r.v[2][l] != uint32(l/16) {
				t.Fatalf("lane %d ids %d,%d,%d", l, r.v[0][l], r.v[1][l], r.v[2][l])
			}
		}
	}
}

// TestBarrierInterleaves checks that waves meet at s_barrier: every wave
// records a phase-1 value, then after the barrier reads all of them.
func TestBarrierInterleaves(t *testing.T) {
	var seen [16]int
	var afterBad int
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 1
	d, entry, _ := handKernel(t, cfg,
		&op{fn: func(w *wave, o *op) { seen[w.id]++ }},
		&op{fn: opBarrier},
		&op{fn: func(w *wave, o *op) {
			for i := 0; i < w.wg.nwaves; i++ {
				if seen[i] != 1 {
					afterBad++
				}
			}
		}},
		&op{fn: opBarrier},
		endpgm())
	k := &Dispatch{Entry: entry, GridSize: [3]uint32{1024, 1, 1}, WorkgroupSize: [3]uint32{1024, 1, 1}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if afterBad != 0 {
		t.Errorf("%d waves passed the barrier before all arrived", afterBad)
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("wave %d ran phase 1 %d times", i, n)
		}
	}
}

// TestSpinWaitAcrossWaves: wave 1 spins (backward branch) until wave 3
// sets a flag; interleaving at taken backward branches lets it finish.
func TestSpinWaitAcrossWaves(t *testing.T) {
	flag := false
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 1
	cfg.SwitchInterval = 100
	cfg.Budget = 1_000_000
	d, entry, _ := handKernel(t, cfg,
		// 0: if wave 3 set flag; 1: wave 1 sets scc = !flag; 2: s_cbranch_scc1 -2 (back to 1)
		&op{fn: func(w *wave, o *op) {
			if w.id == 3 {
				flag = true
			}
		}},
		&op{fn: func(w *wave, o *op) {
			w.scc = 0
			if w.id == 1 && !flag {
				w.scc = 1
			}
		}},
		&op{fn: opCbranchSCC1, simm: -2},
		endpgm())
	// Make wave 1 run first: wave order 0,1,2,3; wave 1 spins before wave 3 runs.
	k := &Dispatch{Entry: entry, GridSize: [3]uint32{256, 1, 1}, WorkgroupSize: [3]uint32{256, 1, 1}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if !flag {
		t.Fatal("flag never set")
	}
}

func TestBudgetFaultListsWaves(t *testing.T) {
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 1
	cfg.SwitchInterval = 50
	cfg.Budget = 100_000
	d, entry, _ := handKernel(t, cfg, &op{fn: opBranch, simm: -1, class: ClassBranch})
	k := &Dispatch{Kernel: "spin", Entry: entry, GridSize: [3]uint32{256, 1, 1}, WorkgroupSize: [3]uint32{128, 1, 1}}
	err := d.Dispatch(context.Background(), k)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultBudget {
		t.Fatalf("err = %v, want budget fault", err)
	}
	if len(f.WavePCs) != 4 {
		t.Errorf("fault lists %d waves, want 4: %v", len(f.WavePCs), f)
	}
	for _, p := range f.WavePCs {
		if p.PC != entry || !p.Spinning {
			t.Errorf("wave pc %#x spinning %v, want %#x spinning", p.PC, p.Spinning, entry)
		}
	}
	if !strings.Contains(f.Error(), "possible spin-wait deadlock") {
		t.Errorf("fault text lacks the deadlock hint: %v", f)
	}
	if f.Kernel != "spin" {
		t.Errorf("kernel %q", f.Kernel)
	}
	// The device is still usable.
	d2, entry2, _ := handKernel(t, cfg, endpgm())
	_ = d2
	k2 := &Dispatch{Entry: entry2, GridSize: [3]uint32{64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
	if err := d2.Dispatch(context.Background(), k2); err != nil {
		t.Fatal(err)
	}
}

func TestCancel(t *testing.T) {
	cfg := DefaultGFX90A(nil)
	cfg.SwitchInterval = 50
	d, entry, _ := handKernel(t, cfg, &op{fn: opBranch, simm: -1})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	k := &Dispatch{Entry: entry, GridSize: [3]uint32{64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
	err := d.Dispatch(ctx, k)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultCanceled || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want cancellation fault", err)
	}
	if len(f.WavePCs) != 1 || f.WavePCs[0].PC != entry {
		t.Errorf("wave PCs %v", f.WavePCs)
	}
}

func TestTrapFault(t *testing.T) {
	cfg := DefaultGFX90A(nil)
	d, entry, _ := handKernel(t, cfg, &op{fn: opTrap, simm: 3}, &op{fn: opTrap, simm: 2}, endpgm())
	k := &Dispatch{Kernel: "trap", Entry: entry, GridSize: [3]uint32{128, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
	err := d.Dispatch(context.Background(), k)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != FaultException || f.PC != entry+4 || f.Kernel != "trap" {
		t.Fatalf("err = %v, want exception fault at %#x", err, entry+4)
	}
}

func TestTrace(t *testing.T) {
	var mu sync.Mutex
	var events []TraceEvent
	cfg := DefaultGFX90A(nil)
	cfg.Trace = func(e TraceEvent) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	d, entry, _ := handKernel(t, cfg, &op{fn: opNop}, endpgm())
	k := &Dispatch{Entry: entry, GridSize: [3]uint32{100, 1, 1}, WorkgroupSize: [3]uint32{100, 1, 1}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if len(events) != 4 {
		t.Fatalf("%d events, want 4 (2 waves x 2 instructions)", len(events))
	}
	for _, e := range events {
		if e.Wave == 1 && e.Exec != 1<<36-1 || e.Wave == 0 && e.Exec != ^uint64(0) {
			t.Errorf("wave %d exec %#x", e.Wave, e.Exec)
		}
	}
}

func TestScratchMirroredIntoQueue(t *testing.T) {
	var mu sync.Mutex
	var recs []waveRecord
	d, entry, mem := handKernel(t, DefaultGFX90A(nil), probe(&mu, &recs), endpgm())
	q := mem.alloc(t, 256, false)
	k := &Dispatch{Program: Program{Rsrc2: 1 | 4<<1, Properties: propPrivateSegmentBuffer}, Entry: entry, QueueAddr: q.Base,
		GridSize: [3]uint32{64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}, PrivateSegmentSize: 100}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if got := le.Uint32(q.Data[144+4*i:]); got != recs[0].s[i] {
			t.Errorf("amd_queue_t scratch V# word %d = %#x, wave got %#x", i, got, recs[0].s[i])
		}
	}
	base := uint64(recs[0].s[0]) | uint64(recs[0].s[1]&0xFFFF)<<32
	if le.Uint64(q.Data[160:]) != base || le.Uint64(q.Data[168:]) < 64*100 || le.Uint32(q.Data[176:]) != 100 {
		t.Errorf("scratch location %#x size %d lane size %d", le.Uint64(q.Data[160:]), le.Uint64(q.Data[168:]), le.Uint32(q.Data[176:]))
	}
}

// TestKernargPreload: KERNARG_PRELOAD_SPEC (length 3 at dword offset 1)
// loads kernarg dwords into the user SGPRs after the kernarg pointer, and
// the command processor enters 256 bytes past the entry (INVENTORY §5.5).
func TestKernargPreload(t *testing.T) {
	var mu sync.Mutex
	var recs []waveRecord
	mem := &testMem{}
	cfg := DefaultGFX90A(mem)
	ops := make([]*op, 66)
	for i := range ops {
		ops[i] = &op{fn: func(w *wave, o *op) { t.Errorf("executed the compatibility prologue at %#x", o.pc) }}
	}
	ops[64] = probe(&mu, &recs) // entry + 256
	ops[65] = endpgm()
	d, entry, _ := handKernel(t, cfg, ops...)
	ka := mem.alloc(t, 64, false)
	for i := 0; i < 8; i++ {
		le.PutUint32(ka.Data[4*i:], 0x100+uint32(i))
	}
	k := &Dispatch{Program: Program{Rsrc2: 5<<1 | 1<<7, Properties: propKernargSegmentPtr, KernargPreload: 3 | 1<<7},
		Entry: entry, KernargAddr: ka.Base, GridSize: [3]uint32{64, 2, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d waves", len(recs))
	}
	for _, r := range recs {
		if uint64(r.s[0])|uint64(r.s[1])<<32 != ka.Base || r.s[2] != 0x101 || r.s[3] != 0x102 || r.s[4] != 0x103 || r.s[5] != r.wg[0] {
			t.Errorf("s0..s5 = %x, want kernarg ptr, 0x101..0x103, workgroup id %d", r.s[:6], r.wg[0])
		}
	}
}

// TestCodeV2GridCounts: amd_kernel_code_t's grid workgroup count SGPRs
// (bits 7-9 of the properties) follow the other user SGPRs.
func TestCodeV2GridCounts(t *testing.T) {
	var mu sync.Mutex
	var recs []waveRecord
	cfg := DefaultGFX90A(nil)
	cfg.PackedWorkItemIDs = false
	d, entry, _ := handKernel(t, cfg, probe(&mu, &recs), endpgm())
	k := &Dispatch{Program: Program{V2: true, Rsrc2: 5<<1 | 1<<7 | 1<<8 | 1<<10, Properties: propDispatchPtr | propV2GridCountX | propV2GridCountY | propV2GridCountZ},
		Entry: entry, PacketAddr: 0xAAAA_BBBB_CCCC, GridSize: [3]uint32{100, 30, 2}, WorkgroupSize: [3]uint32{32, 8, 1}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	// 4 x 4 x 2 workgroups of up to 4 waves (partial ones have fewer).
	wgs := map[[3]uint32]bool{}
	for _, r := range recs {
		wgs[r.wg] = true
		first := uint32(0)
		if r.wave == 0 {
			first = 1
		}
		if r.s[0] != 0xBBBB_CCCC || r.s[1] != 0xAAAA || r.s[2] != 4 || r.s[3] != 4 || r.s[4] != 2 ||
			r.s[5] != r.wg[0] || r.s[6] != r.wg[1] || r.s[7]>>31 != first {
			t.Errorf("wg %v wave %d: s0..s7 = %x", r.wg, r.wave, r.s[:8])
		}
	}
	if len(wgs) != 32 || len(recs) != 98 {
		t.Errorf("%d workgroups, %d waves; want 32 and 98", len(wgs), len(recs))
	}
}

// TestScratchBufferAndFlatAgree: a buffer_store through the private
// segment V# (with the wave offset as soffset) and a flat load through the
// private aperture (FLAT_SCRATCH = Flat Scratch Init + wave offset) reach
// the same bytes, per lane; and scratch_store / buffer_load the other way.
func TestScratchBufferAndFlatAgree(t *testing.T) {
	var mu sync.Mutex
	var recs []waveRecord
	sem := func(name string, o *op) *op {
		o.fn = semantics[name].fn
		return o
	}
	setup := &op{fn: func(w *wave, o *op) {
		for l := 0; l < 64; l++ {
			w.v[0*64+l] = 8                // buffer offset (offen)
			w.v[1*64+l] = 1000 + uint32(l) // data
			w.v[3*64+l] = 8                // flat address: private offset 8 ...
			w.v[4*64+l] = PrivateApertureHi
			w.v[5*64+l] = 2000 + uint32(l)
		}
	}}
	ops := []*op{
		setup,
		sem("s_add_u32", &op{dst: s(sFlatScrLo), src: [3]operand{s(4), s(6)}}),
		sem("s_addc_u32", &op{dst: s(sFlatScrHi), src: [3]operand{s(5), k(0)}}),
		sem("buffer_store_dword", &op{src: [3]operand{v(0), s(0), v(1)}, sdst: s(6), flags: fOffen, imm: mB32}),
		sem("flat_load_dword", &op{dst: v(2), src: [3]operand{v(3)}, imm: mB32}),
		sem("scratch_store_dword", &op{src: [3]operand{{}, {}, v(5)}, offset: 20, imm: mB32}),
		sem("buffer_load_dword", &op{dst: v(6), src: [3]operand{{}, s(0)}, sdst: s(6), offset: 20, imm: mB32}),
		probe(&mu, &recs),
		endpgm(),
	}
	d, entry, _ := handKernel(t, DefaultGFX90A(nil), ops...)
	k := &Dispatch{Program: Program{Rsrc1: 3, Rsrc3: 3, Rsrc2: 1 | 6<<1, Properties: propPrivateSegmentBuffer | propFlatScratchInit},
		Entry: entry, GridSize: [3]uint32{256, 1, 1}, WorkgroupSize: [3]uint32{128, 1, 1}, PrivateSegmentSize: 64}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d waves", len(recs))
	}
	for _, r := range recs {
		for l := 0; l < 64; l++ {
			if r.v[2][l] != 1000+uint32(l) {
				t.Fatalf("wave %d lane %d: flat load read %d, want %d", r.wave, l, r.v[2][l], 1000+l)
			}
			if r.v[6][l] != 2000+uint32(l) {
				t.Fatalf("wave %d lane %d: buffer load read %d, want %d", r.wave, l, r.v[6][l], 2000+l)
			}
		}
	}
}

// TestSleepWaitYieldsToHost: waves polling with s_sleep for a flag the host
// sets later do not burn the processor: after a run of idle passes the
// worker sleeps, so few instructions execute while waiting.
func TestSleepWaitYieldsToHost(t *testing.T) {
	var flag atomic.Bool
	cfg := DefaultGFX90A(nil)
	cfg.Workers = 1
	d, entry, _ := handKernel(t, cfg,
		&op{fn: func(w *wave, o *op) { w.scc = b2u(!flag.Load()) }},
		&op{fn: opSleep},
		&op{fn: opCbranchSCC1, simm: -3},
		endpgm())
	go func() {
		time.Sleep(30 * time.Millisecond)
		flag.Store(true)
	}()
	k := &Dispatch{Entry: entry, GridSize: [3]uint32{128, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
	if err := d.Dispatch(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if n := k.Stats.Total(); n > 200_000 {
		t.Errorf("%d instructions executed while waiting 30ms: the worker did not idle", n)
	}
}

// TestChunkedClaims: with several workers, workgroups are claimed in
// chunks; every workgroup still runs exactly once, and a chain in which
// each workgroup waits for the one before it (decoupled look-back) still
// completes.
func TestChunkedClaims(t *testing.T) {
	for _, workers := range []int{2, 3} {
		const n = 5003
		var runs [n]atomic.Int32
		var done [n]atomic.Bool
		cfg := DefaultGFX90A(nil)
		cfg.Workers = workers
		cfg.SwitchInterval = 50
		cfg.Budget = 50_000_000
		linear := func(w *wave) int { return int(w.wg.id[0]) }
		d, entry, _ := handKernel(t, cfg,
			&op{fn: func(w *wave, o *op) { runs[linear(w)].Add(1) }},
			// 1: scc = predecessor not done; 2: s_cbranch_scc1 back to 1
			&op{fn: func(w *wave, o *op) {
				i := linear(w)
				w.scc = 0
				if i > 0 && !done[i-1].Load() {
					w.scc = 1
				}
			}},
			&op{fn: opCbranchSCC1, simm: -2},
			&op{fn: func(w *wave, o *op) { done[linear(w)].Store(true) }},
			endpgm())
		k := &Dispatch{Entry: entry, GridSize: [3]uint32{n * 64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
		if err := d.Dispatch(context.Background(), k); err != nil {
			t.Fatalf("workers=%d: %v", workers, err)
		}
		if r := d.newRunChunk(t, k); r <= 1 {
			t.Errorf("workers=%d: chunk %d, the test does not exercise chunks", workers, r)
		}
		for i := range runs {
			if got := runs[i].Load(); got != 1 || !done[i].Load() {
				t.Fatalf("workers=%d: workgroup %d ran %d times (done %v)", workers, i, got, done[i].Load())
			}
		}
	}
}

// newRunChunk is the chunk size a dispatch like k gets.
func (d *Device) newRunChunk(t *testing.T, k *Dispatch) uint64 {
	r, err := d.newRun(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	defer r.release()
	return r.chunk
}
