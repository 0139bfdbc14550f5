package hsa

import (
	"context"
	"io"
	"testing"
	"time"
)

// TestIdleProcessorWait: an idle packet processor watches its doorbell
// from a Go channel, so it holds no P while idle; when C code may ring the
// doorbell (Config.CDoorbells) it is a poll sleeper, woken through the
// eventfd (pollwake.go), rather than a watcher that C stores would wake
// with a call into Go. Either way a packet submitted to the idle queue
// (Launch rings the doorbell) runs at once, not at the idle poll.
func TestIdleProcessorWait(t *testing.T) {
	for _, c := range []bool{false, true} {
		if c && WakeFD() < 0 {
			continue
		}
		r, err := New(Config{Workers: 2, Stderr: io.Discard, CDoorbells: c})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		gpu := r.GPUAgents()[0]
		e, _, err := loadExe(t, r, gpu, "kernels.gfx90a.co4.hsaco")
		if err != nil {
			t.Fatal(err)
		}
		sym, err := e.Symbol("add.kd", gpu)
		if err != nil {
			t.Fatal(err)
		}
		q, err := r.CreateQueue(gpu, 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := gpu.Pools()[0].Allocate(256*4, 0)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for round := 0; round < 3; round++ {
			// Idle: past the processor's spin.
			db := q.Doorbell()
			deadline := time.Now().Add(10 * time.Second)
			for db.Sleepers()+db.Watchers()+db.PollSleepers() == 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			wantSleepers, wantWatchers, wantPoll := 0, 1, 0
			if c {
				wantSleepers, wantWatchers, wantPoll = 0, 0, 1
			}
			if db.Sleepers() != wantSleepers || db.Watchers() != wantWatchers || db.PollSleepers() != wantPoll {
				t.Errorf("CDoorbells %v: idle processor: %d futex sleepers, %d channel watchers, %d poll sleepers; want %d, %d, %d",
					c, db.Sleepers(), db.Watchers(), db.PollSleepers(), wantSleepers, wantWatchers, wantPoll)
			}
			start := time.Now()
			if err := q.Launch(ctx, sym.Kernel(), [3]uint32{256, 1, 1}, [3]uint32{64, 1, 1}, out, int32(100)); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > idlePollMax/2 {
				t.Errorf("CDoorbells %v: a launch on an idle queue took %v (the idle poll is %v)", c, d, idlePollMax)
			}
		}
	}
}
