//go:build linux

package bench

import (
	"math"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestOneWorkerTime: runs on one CPU, or of unknown CPU, give the median
// of all runs; runs on two CPUs the harmonic mean of the per-CPU medians,
// the time of a CPU whose speed is the average of theirs.
func TestOneWorkerTime(t *testing.T) {
	if m, per := oneWorkerTime([]float64{3, 1, 2}, []int{-1, -1, -1}); m != 2 || per != nil {
		t.Errorf("unknown CPUs: %v %v, want the median 2", m, per)
	}
	if m, per := oneWorkerTime([]float64{3, 1, 2}, []int{1, 1, -1}); m != 2 || len(per) != 1 || per[0] != (CPUTime{1, 2, 2}) {
		t.Errorf("one CPU: %v %+v, want the median 2 and CPU 1's median 2 over 2 runs", m, per)
	}
	// CPU 1 twice as fast as CPU 0: 1/2 + 1/1 runs per second = two CPUs
	// doing 3/4 each, 4/3 s per run.
	m, per := oneWorkerTime([]float64{2, 1, 2.2, 0.9, 1.8, 1.1, 7}, []int{0, 1, 0, 1, 0, 1, -1})
	if math.Abs(m-4.0/3) > 1e-12 || len(per) != 2 || per[0] != (CPUTime{0, 2, 3}) || per[1] != (CPUTime{1, 1, 3}) {
		t.Errorf("two CPUs: %v %+v, want 4/3 with medians 2 (CPU 0) and 1 (CPU 1)", m, per)
	}
}

// TestRunCPU: a thread confined to each allowed CPU in turn and kept busy
// is found on that CPU; work spread over two CPUs is on none.
func TestRunCPU(t *testing.T) {
	var all [16]uint64
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(all), uintptr(unsafe.Pointer(&all))); e != 0 {
		t.Skip(e)
	}
	var cpus []int
	for c := 0; c < 64; c++ {
		if all[0]>>c&1 != 0 {
			cpus = append(cpus, c)
		}
	}
	if len(cpus) < 2 {
		t.Skip("fewer than two CPUs")
	}
	setAff := func(m *[16]uint64) {
		if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(*m), uintptr(unsafe.Pointer(m))); e != 0 {
			t.Fatal(e)
		}
	}
	spin := func(d time.Duration) {
		for t0 := time.Now(); time.Since(t0) < d; {
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer setAff(&all)
	for _, c := range cpus[:2] {
		var one [16]uint64
		one[0] = 1 << c
		setAff(&one)
		time.Sleep(time.Millisecond) // on the CPU before the sample
		a := sampleThreads()
		spin(100 * time.Millisecond)
		if got := runCPU(a, sampleThreads()); got != c {
			t.Errorf("a thread confined to CPU %d ran on CPU %d by runCPU", c, got)
		}
	}
	// Half the time on each of two CPUs: a migration, so no CPU.
	var one [16]uint64
	one[0] = 1 << cpus[0]
	setAff(&one)
	time.Sleep(time.Millisecond)
	a := sampleThreads()
	spin(50 * time.Millisecond)
	one[0] = 1 << cpus[1]
	setAff(&one)
	spin(50 * time.Millisecond)
	if got := runCPU(a, sampleThreads()); got != -1 {
		t.Errorf("work on CPUs %d and %d attributed to CPU %d", cpus[0], cpus[1], got)
	}
}
