package capi

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/hsa"
)

// queueStats remembers every queue the application created, so that the
// --stats summary `rocpu exec` asks for (ROCPU_STATS=1) covers destroyed
// queues too: a queue's counters stay readable after Destroy.
var queueStats = struct {
	sync.Mutex
	queues []*hsa.Queue
}{}

func trackQueue(q *hsa.Queue) {
	queueStats.Lock()
	queueStats.queues = append(queueStats.queues, q)
	queueStats.Unlock()
}

// Totals sums the device counters over every queue created through the C
// API.
func Totals() emu.Counters {
	queueStats.Lock()
	defer queueStats.Unlock()
	var t emu.Counters
	for _, q := range queueStats.queues {
		s := q.Stats()
		t.Workgroups += s.Workgroups
		t.Waves += s.Waves
		for i := range s.Instructions {
			t.Instructions[i] += s.Instructions[i]
		}
		t.BytesLoaded += s.BytesLoaded
		t.BytesStored += s.BytesStored
	}
	return t
}

// runtimes remembers every runtime hsa_init opened (normally one; another
// after hsa_shut_down and hsa_init again), for their kernel counts and
// busy time.
var runtimes struct {
	sync.Mutex
	list []*hsa.Runtime
}

func trackRuntime(r *hsa.Runtime) {
	runtimes.Lock()
	defer runtimes.Unlock()
	for _, x := range runtimes.list {
		if x == r {
			return
		}
	}
	runtimes.list = append(runtimes.list, r)
}

// RuntimeTotals sums hsa.Runtime.Stats over every runtime hsa_init opened.
func RuntimeTotals() hsa.Stats {
	runtimes.Lock()
	defer runtimes.Unlock()
	var t hsa.Stats
	for _, r := range runtimes.list {
		s := r.Stats()
		t.Kernels += s.Kernels
		t.Busy += s.Busy
	}
	return t
}

// rocpu_stats_report prints the summary; the library's C destructor calls
// it at exit when ROCPU_STATS is set, after HIP's own destructors ran.
//
//export rocpu_stats_report
func rocpu_stats_report() {
	t := Totals()
	queueStats.Lock()
	n := len(queueStats.queues)
	queueStats.Unlock()
	rt := RuntimeTotals()
	fmt.Fprintf(os.Stderr, "rocpu: %d kernels dispatched, %d queues, %d workgroups, %d waves, %d instructions executed, %d bytes loaded, %d bytes stored, %v emulated time\n",
		rt.Kernels, n, t.Workgroups, t.Waves, t.Total(), t.BytesLoaded, t.BytesStored, rt.Busy.Round(time.Microsecond))
}
