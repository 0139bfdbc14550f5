package hsa

import (
	"testing"
	"time"
)

func TestAsyncCopy(t *testing.T) {
	r, _ := newRT(t)
	cpu, gpu := r.CPUAgent(), r.GPUAgents()[0]
	src, _ := cpu.Pools()[1].Allocate(4096, 0)
	dst, _ := gpu.Pools()[0].Allocate(4096, 0)
	sb, _ := r.Space().Slice(src, 4096)
	for i := range sb {
		sb[i] = byte(i * 7)
	}
	dep, _ := r.CreateSignal(1, nil, 0)
	done, _ := r.CreateSignal(1, nil, 0)
	wantStatus(t, r.AsyncCopy(dst, gpu, src, cpu, 4096, []*Signal{dep}, done), HSA_STATUS_SUCCESS)
	time.Sleep(5 * time.Millisecond)
	db, _ := r.Space().Slice(dst, 4096)
	if db[1] != 0 || done.Load() != 1 {
		t.Fatal("copy ran before its dependency reached 0")
	}
	before := Timestamp()
	dep.Store(0)
	waitZero(t, done)
	for i := range db {
		if db[i] != byte(i*7) {
			t.Fatalf("byte %d = %d", i, db[i])
		}
	}
	if st, en := done.ProfilingTimes(); st < before || en < st {
		t.Errorf("copy times %d..%d, dependency released at %d", st, en, before)
	}
	wantStatus(t, r.AsyncCopy(dst, gpu, src, cpu, 16, nil, nil), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.AsyncCopy(dst, nil, src, cpu, 16, nil, done), HSA_STATUS_ERROR_INVALID_AGENT)
	wantStatus(t, r.AsyncCopy(dst, gpu, src, cpu, 4097, nil, done), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.AsyncCopy(0, gpu, src, cpu, 1, nil, done), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	gone, _ := r.CreateSignal(0, nil, 0)
	gone.Destroy()
	wantStatus(t, r.AsyncCopy(dst, gpu, src, cpu, 16, []*Signal{gone}, done), HSA_STATUS_ERROR_INVALID_SIGNAL)
	wantStatus(t, r.AsyncCopy(dst, gpu, src, cpu, 16, nil, gone), HSA_STATUS_ERROR_INVALID_SIGNAL)
}

func TestAsyncCopyRect(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	src, _ := gpu.Pools()[0].Allocate(8192, 0)
	dst, _ := gpu.Pools()[0].Allocate(8192, 0)
	sb, _ := r.Space().Slice(src, 8192)
	for i := range sb {
		sb[i] = byte(i % 251)
	}
	// src: pitch 64, slice 64*16; dst: pitch 32, slice 32*8.
	sp := &PitchedPtr{Base: src, Pitch: 64, Slice: 64 * 16}
	dp := &PitchedPtr{Base: dst, Pitch: 32, Slice: 32 * 8}
	srcOff, dstOff, rng := Dim3{4, 2, 1}, Dim3{8, 1, 0}, Dim3{12, 5, 2}
	done, _ := r.CreateSignal(1, nil, 0)
	wantStatus(t, r.AsyncCopyRect(dp, dstOff, sp, srcOff, rng, gpu, HsaDeviceToDevice, nil, done), HSA_STATUS_SUCCESS)
	waitZero(t, done)
	db, _ := r.Space().Slice(dst, 8192)
	for z := uint64(0); z < 8; z++ {
		for y := uint64(0); y < 8; y++ {
			for x := uint64(0); x < 32; x++ {
				got := db[z*256+y*32+x]
				var want byte
				if z < 2 && y >= 1 && y < 6 && x >= 8 && x < 20 {
					sx, sy, sz := x-8+4, y-1+2, z+1
					want = sb[sz*1024+sy*64+sx]
				}
				if got != want {
					t.Fatalf("dst (%d,%d,%d) = %d, want %d", x, y, z, got, want)
				}
			}
		}
	}
	wantStatus(t, r.AsyncCopyRect(dp, dstOff, sp, srcOff, rng, r.CPUAgent(), 0, nil, done), HSA_STATUS_ERROR_INVALID_AGENT)
	wantStatus(t, r.AsyncCopyRect(nil, dstOff, sp, srcOff, rng, gpu, 0, nil, done), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.AsyncCopyRect(dp, dstOff, sp, srcOff, rng, gpu, 4, nil, done), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.AsyncCopyRect(&PitchedPtr{dst, 8, 256}, dstOff, sp, srcOff, rng, gpu, 0, nil, done), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	// An extent past the end of the allocation is refused up front.
	wantStatus(t, r.AsyncCopyRect(dp, Dim3{0, 0, 40}, sp, srcOff, rng, gpu, 0, nil, done), HSA_STATUS_ERROR_INVALID_ARGUMENT)
}
