package hsa

import (
	"context"
	"testing"
)

// TestLaunchReuse: consecutive Launches on a queue reuse one kernarg
// block and one completion signal (no region-table update or madvise per
// launch), each launch sees its own arguments, few allocations remain,
// and Queue.Destroy frees what the cache holds.
func TestLaunchReuse(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	e, _, err := loadExe(t, r, gpu, "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := e.Symbol("add.kd", gpu)
	q, _ := newQueue(t, r, 64)
	out, _ := gpu.Pools()[0].Allocate(4096, 0)
	ctx := context.Background()
	k := sym.Kernel()
	var kaddr uint64
	for i := 0; i < 5; i++ {
		if err := q.Launch(ctx, k, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(100+i)); err != nil {
			t.Fatal(err)
		}
		d := devs[0].all()[i]
		if i == 0 {
			kaddr = d.KernargAddr
		} else if d.KernargAddr != kaddr {
			t.Errorf("launch %d: kernarg block %#x, want the reused %#x", i, d.KernargAddr, kaddr)
		}
		// add(global int *out, int v): v at offset 8.
		b, err := r.Space().Slice(d.KernargAddr+8, 4)
		if err != nil {
			t.Fatal(err)
		}
		if v := int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24); v != int32(100+i) {
			t.Errorf("launch %d: kernarg v = %d, want %d", i, v, 100+i)
		}
	}
	if q.launch.signals == nil || len(q.launch.signals) != 1 {
		t.Errorf("%d completion signals cached, want 1", len(q.launch.signals))
	}
	sig := q.launch.signals[0]
	allocs := testing.AllocsPerRun(50, func() {
		if err := q.Launch(ctx, k, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, out, int32(7)); err != nil {
			t.Fatal(err)
		}
	})
	// The fake device records each dispatch (its slice grows); Launch's
	// own share is the launch state and the kernarg image.
	if allocs > 8 {
		t.Errorf("%.0f allocations per Launch, want at most 8", allocs)
	}
	t.Logf("%.1f allocations per Launch (fake device)", allocs)
	if err := q.Destroy(); err != nil {
		t.Fatal(err)
	}
	if reg := r.Space().Find(kaddr); reg != nil {
		t.Errorf("kernarg block %#x still allocated after Queue.Destroy", kaddr)
	}
	if sig.Live() {
		t.Errorf("cached completion signal still live after Queue.Destroy")
	}
}

// TestSizeClass pins the kernarg block classes.
func TestSizeClass(t *testing.T) {
	for _, c := range []struct {
		n     uint64
		class int
		size  uint64
	}{{0, 0, 64}, {1, 0, 64}, {64, 0, 64}, {65, 1, 128}, {128, 1, 128}, {129, 2, 256}, {4096, 6, 4096}, {4097, 7, 8192}} {
		cl, size := sizeClass(c.n)
		if cl != c.class || size != c.size {
			t.Errorf("sizeClass(%d) = %d, %d; want %d, %d", c.n, cl, size, c.class, c.size)
		}
	}
}
