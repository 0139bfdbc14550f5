package hsa

import (
	"sort"
	"testing"
	"time"

	"github.com/rocpu/rocpu/internal/abi"
)

// BenchmarkDispatchRoundTrip measures one empty dispatch through the Go
// API: write the packet, ring the doorbell, wait on the completion signal
// (the device returns at once). The target is a median ≤ 10 µs.
func BenchmarkDispatchRoundTrip(b *testing.B) {
	r, _ := newRT(b)
	k := testKernel(b, r, "empty", 0)
	q, _ := newQueue(b, r, 1024)
	done, _ := r.CreateSignal(0, nil, 0)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		done.Store(1)
		submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, done.Handle())
		done.Wait(HSA_SIGNAL_CONDITION_EQ, 0, WaitForever, HSA_WAIT_STATE_ACTIVE)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkDispatchBatched measures dispatches submitted in batches of 256
// with one completion signal: the target is ≥ 100,000 per second.
func BenchmarkDispatchBatched(b *testing.B) {
	r, _ := newRT(b)
	k := testKernel(b, r, "empty", 0)
	q, _ := newQueue(b, r, 1024)
	done, _ := r.CreateSignal(0, nil, 0)
	const batch = 256
	b.ResetTimer()
	for n := 0; n < b.N; n += batch {
		m := min(batch, b.N-n)
		done.Store(int64(m))
		for i := 0; i < m; i++ {
			idx := q.AddWriteIndex(1)
			for idx >= q.LoadReadIndex()+uint64(q.Size()) {
			}
			kp := q.Packet(idx).KernelDispatch()
			kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 1, 1, 1
			kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = 1, 1, 1
			kp.KernelObject, kp.CompletionSignal = k.Object, done.Handle()
			q.Packet(idx).Publish(abi.MakePacketHeader(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, false, 2, 2), 1)
		}
		q.Ring(int64(q.LoadWriteIndex() - 1))
		done.Wait(HSA_SIGNAL_CONDITION_EQ, 0, WaitForever, HSA_WAIT_STATE_ACTIVE)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "dispatches/s")
}
