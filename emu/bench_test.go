package emu

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkSaxpy runs the saxpy kernel over 1M elements and reports VALU
// instructions per second and allocations.
func BenchmarkSaxpy(b *testing.B) {
	path := testObjectPath("gfx90a", "O2")
	haveObject(b, path)
	mem := &testMem{}
	obj := loadObject(b, mem, path)
	d := newTestDevice(b, "gfx90a", mem)
	n := 1 << 20
	x, y := obj.buf(b, 4*n), obj.buf(b, 4*n)
	args := kargs(float32(2), x.Base, y.Base, n)
	b.ReportAllocs()
	b.ResetTimer()
	var insts, valu uint64
	for i := 0; i < b.N; i++ {
		k, err := obj.launch(b, d, "saxpy", [3]uint32{uint32(n), 1, 1}, [3]uint32{256, 1, 1}, 0, args)
		if err != nil {
			b.Fatal(err)
		}
		insts += k.Stats.Total()
		valu += k.Stats.Instructions[ClassVALU]
	}
	b.ReportMetric(float64(insts)/b.Elapsed().Seconds()/1e6, "Minst/s")
	b.ReportMetric(float64(valu)/b.Elapsed().Seconds()/1e6, "MVALU/s")
}

func cpuTime() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// TestNoAllocationsPerInstruction: the extra allocations of a dispatch
// that executes many more instructions stay far below one per instruction
// (only per-dispatch and per-worker set-up allocates; a GC emptying the
// device's pools may add a few).
func TestNoAllocationsPerInstruction(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation counts are not meaningful with -race")
	}
	path := testObjectPath("gfx90a", "O2")
	haveObject(t, path)
	needDecoder(t)
	mem := &testMem{}
	obj := loadObject(t, mem, path)
	d := newTestDevice(t, "gfx90a", mem)
	n := 1 << 16
	in, out := obj.buf(t, 4*n), obj.buf(t, 4*n)
	p, entry, _ := obj.kernel(t, "divloop")
	ka := obj.buf(t, 64)
	copy(ka.Data, kargs(in.Base, out.Base, n))
	pkt := obj.buf(t, 64)
	run := func(n int) (allocs float64, insts uint64) {
		k := &Dispatch{Program: p, Entry: entry, KernargAddr: ka.Base, PacketAddr: pkt.Base,
			GridSize: [3]uint32{uint32(n), 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}
		le.PutUint16(pkt.Data[4:], 64)
		le.PutUint32(pkt.Data[12:], uint32(n))
		allocs = testing.AllocsPerRun(3, func() {
			if err := d.Dispatch(t.Context(), k); err != nil {
				t.Fatal(err)
			}
		})
		return allocs, k.Stats.Total()
	}
	for i := range in.Data {
		in.Data[i] = 0xFF // 63 loop iterations per lane
	}
	run(64 * 64) // fill the device's pools
	a1, n1 := run(64 * 16)
	a2, n2 := run(64 * 160)
	if per := (a2 - a1) / float64(n2-n1); per > 1e-3 {
		t.Errorf("%.4f allocations per instruction (%v allocs for %d instructions, %v for %d)", per, a1, n1, a2, n2)
	}
}

// BenchmarkNbody measures VALU throughput on the n-body inner loop (float
// mul/add/rsqrt on loaded data) with one worker: the per-core figure.
func BenchmarkNbody(b *testing.B) {
	path := testObjectPath("gfx90a", "O2")
	haveObject(b, path)
	mem := &testMem{}
	obj := loadObject(b, mem, path)
	d := newTestDevice(b, "gfx90a", mem)
	d.cfg.Workers = 1
	n := 1024
	pos, acc := obj.buf(b, 16*n), obj.buf(b, 16*n)
	g := lcg(1)
	for i := 0; i < 4*n; i++ {
		le.PutUint32(pos.Data[4*i:], mathFloat32bits(g.float()))
	}
	args := kargs(pos.Base, acc.Base, n)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	var valu uint64
	for i := 0; i < b.N; i++ {
		k, err := obj.launch(b, d, "nbody", [3]uint32{uint32(n), 1, 1}, [3]uint32{256, 1, 1}, 0, args)
		if err != nil {
			b.Fatal(err)
		}
		valu += k.Stats.Instructions[ClassVALU]
	}
	b.ReportMetric(float64(valu)/b.Elapsed().Seconds()/1e6, "MVALU/s")
	// On a shared machine wall time understates the engine: also report
	// VALU instructions per second of process CPU time.
	b.ReportMetric(float64(valu)/(cpuTime()-cpu0)/1e6, "MVALU/cpu-s")
}

// BenchmarkWorkers runs a compute-bound kernel (divloop, 63 iterations per
// lane) over a large grid with one and with two workers and reports the
// speed-up (the target is at least 1.8 on an otherwise idle machine).
func BenchmarkWorkers(b *testing.B) {
	path := testObjectPath("gfx90a", "O2")
	haveObject(b, path)
	mem := &testMem{}
	obj := loadObject(b, mem, path)
	d := newTestDevice(b, "gfx90a", mem)
	n := 1 << 16
	in, out := obj.buf(b, 4*n), obj.buf(b, 4*n)
	for i := range in.Data {
		in.Data[i] = 0xFF
	}
	args := kargs(in.Base, out.Base, n)
	var elapsed [2]float64
	for i := 0; i < b.N; i++ {
		for wk := 1; wk <= 2; wk++ {
			d.cfg.Workers = wk
			st := time.Now()
			if _, err := obj.launch(b, d, "divloop", [3]uint32{uint32(n), 1, 1}, [3]uint32{256, 1, 1}, 0, args); err != nil {
				b.Fatal(err)
			}
			elapsed[wk-1] += time.Since(st).Seconds()
		}
	}
	b.ReportMetric(elapsed[0]/elapsed[1], "speedup-2w")
}
