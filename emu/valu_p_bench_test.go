package emu

import (
	"runtime"
	"syscall"
	"testing"
)

// threadCPU is the calling thread's CPU time in nanoseconds (the machine
// is shared: wall time overstates).
func threadCPU() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// Per-instruction costs of the hot VALU handlers on a bare wave (EXEC all
// ones): the handler call only, without fetch and dispatch.
func BenchmarkVALUOps(b *testing.B) {
	semFor(0) // install the specialised handlers
	mem := &testMem{}
	d, err := NewDevice(DefaultGFX90A(mem))
	if err != nil {
		b.Fatal(err)
	}
	w := &wave{r: &run{dev: d, k: &Dispatch{}}, wg: &workgroup{}, v: make([]uint32, 32*64)}
	w.setExec(^uint64(0))
	w.mode = 0xF0
	for i := range w.v {
		w.v[i] = uint32(i*7) | 0x3F00_0000 // normal floats
	}
	cases := []struct {
		name string
		o    op
	}{
		{"v_add_u32", op{dst: v(4), src: [3]operand{v(0), v(1)}}},
		{"v_add_u32", op{dst: v(4), src: [3]operand{s(8), v(1)}}},
		{"v_and_b32", op{dst: v(4), src: [3]operand{k(3), v(1)}}},
		{"v_mov_b32", op{dst: v(4), src: [3]operand{s(8)}}},
		{"v_lshlrev_b64", op{dst: v(4), src: [3]operand{k(2), v(0)}}},
		{"v_add_co_u32", op{dst: v(4), src: [3]operand{s(8), v(1)}, sdst: s(sVCCLo)}},
		{"v_addc_co_u32", op{dst: v(5), src: [3]operand{v(3), v(2), s(sVCCLo)}, sdst: s(sVCCLo)}},
		{"v_cndmask_b32", op{dst: v(5), src: [3]operand{k(0), k(1), s(sVCCLo)}}},
		{"v_mul_f32", op{dst: v(5), src: [3]operand{v(3), v(2)}}},
		{"v_sub_f32", op{dst: v(5), src: [3]operand{s(8), v(2)}}},
		{"v_cmp_gt_u32", op{src: [3]operand{s(8), v(2)}, sdst: s(sVCCLo)}},
		{"v_rsq_f32", op{dst: v(5), src: [3]operand{v(2)}}},
		{"v_pk_mul_f32", op{dst: v(6), src: [3]operand{v(2), v(4)}, opselh: 3}},
	}
	for _, c := range cases {
		o := c.o
		o.fn = semantics[c.name].fn
		b.Run(c.name+"/"+string("xSVKT"[o.src[0].kind]), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0 := threadCPU()
			for i := 0; i < b.N; i++ {
				o.fn(w, &o)
			}
			b.ReportMetric(float64(threadCPU()-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}
