package capi

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"os"
	"sync"

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

// rocpu_stats_report prints the summary; the library's C destructor calls
// it at exit when ROCPU_STATS is set, after HIP's own destructors ran.
//
//export rocpu_stats_report
func rocpu_stats_report() {
	t := Totals()
	queueStats.Lock()
	n := len(queueStats.queues)
	queueStats.Unlock()
	fmt.Fprintf(os.Stderr, "rocpu: %d queues, %d workgroups, %d waves, %d instructions executed, %d bytes loaded, %d bytes stored\n",
		n, t.Workgroups, t.Waves, t.Total(), t.BytesLoaded, t.BytesStored)
}
