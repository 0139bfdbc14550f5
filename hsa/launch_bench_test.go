package hsa

import (
	"context"
	"testing"
)

// BenchmarkLaunch measures Queue.Launch of a small kernel with arguments
// on the emulator (bitonic's pattern: many small dispatches): time and
// allocations per Launch, runtime overhead included.
func BenchmarkLaunch(b *testing.B) {
	r := newEmuRT(b)
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(b, r, gpu, "kernels.gfx90a.co4.hsaco")
	if err != nil {
		b.Fatal(err)
	}
	sym, err := e.Symbol("add.kd", gpu)
	if err != nil {
		b.Fatal(err)
	}
	q, err := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := gpu.Pools()[0].Allocate(64*4, 0)
	ctx := context.Background()
	k := sym.Kernel()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := q.Launch(ctx, k, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(100)); err != nil {
			b.Fatal(err)
		}
	}
}
