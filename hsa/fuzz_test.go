package hsa

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/rocpu/rocpu/internal/abi"
)

// FuzzPacket feeds arbitrary 64-byte packets to a packet processor: each
// is either processed (completion signal decremented) or puts the queue in
// its error state; nothing crashes, and destroying the queue never hangs
// (barriers waiting on real signals are canceled).
func FuzzPacket(f *testing.F) {
	r, _ := newRT(f)
	k := testKernel(f, r, "k", 0)
	dep, _ := r.CreateSignal(1, nil, 0)
	seed := func(hdr abi.PacketHeader, rest uint16, fill func(p *abi.Packet)) {
		var p abi.Packet
		if fill != nil {
			fill(&p)
		}
		b := make([]byte, 64)
		for i, w := range p.Words {
			binary.LittleEndian.PutUint64(b[8*i:], w)
		}
		binary.LittleEndian.PutUint32(b, uint32(hdr)|uint32(rest)<<16)
		f.Add(b)
	}
	seed(dispatchHeader(), 1, func(p *abi.Packet) {
		kp := p.KernelDispatch()
		kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 64, 1, 1
		kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = 256, 1, 1
		kp.KernelObject = k.Object
	})
	seed(abi.MakePacketHeader(abi.HSA_PACKET_TYPE_BARRIER_AND, true, 2, 2), 0, func(p *abi.Packet) { p.BarrierAnd().DepSignal[0] = dep.Handle() })
	seed(abi.MakePacketHeader(abi.HSA_PACKET_TYPE_BARRIER_OR, false, 1, 1), 0, nil)
	seed(abi.MakePacketHeader(abi.HSA_PACKET_TYPE_VENDOR_SPECIFIC, false, 0, 0), abi.HSA_AMD_PACKET_TYPE_BARRIER_VALUE, func(p *abi.Packet) {
		p.AMDBarrierValue().Signal = dep.Handle()
	})
	seed(abi.PacketHeader(0xFFFF), 0xFFFF, nil)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 64 {
			return
		}
		q, err := r.CreateQueue(r.GPUAgents()[0], 64, HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		idx := q.AddWriteIndex(1)
		p := q.Packet(idx)
		for i := 1; i < 8; i++ {
			p.Words[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		first := binary.LittleEndian.Uint32(b)
		if abi.PacketHeader(first).Type() == abi.HSA_PACKET_TYPE_INVALID {
			first = first&^0xFF | uint32(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH)
		}
		p.Publish(abi.PacketHeader(first), uint16(first>>16))
		q.Ring(int64(idx))
		deadline := time.Now().Add(50 * time.Millisecond)
		for time.Now().Before(deadline) && q.LoadReadIndex() == idx && q.Err() == nil {
			time.Sleep(100 * time.Microsecond)
		}
		if err := q.Destroy(); err != nil {
			t.Fatal(err)
		}
	})
}
