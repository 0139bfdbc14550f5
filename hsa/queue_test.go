package hsa

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/abi"
	"github.com/rocpu/rocpu/internal/vmem"
)

// syncBuffer is a goroutine-safe stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testKernel writes a kernel descriptor (entry 256 bytes after it) into a
// pool allocation and registers it.
func testKernel(t testing.TB, r *Runtime, name string, groupSize uint32) *Kernel {
	t.Helper()
	gpu := r.GPUAgents()[0]
	mem, err := gpu.Pools()[0].Allocate(4096, 0)
	if err != nil {
		t.Fatal(err)
	}
	kd := abi.KernelDescriptor{GroupSegmentFixedSize: groupSize, PrivateSegmentFixedSize: 16, KernargSize: 24,
		KernelCodeEntryByteOffset: 256, ComputePgmRsrc1: 0x11, ComputePgmRsrc2: 0x22, ComputePgmRsrc3: 0x33,
		KernelCodeProperties: 0x8}
	b, _ := kd.MarshalBinary()
	dst, _ := r.Space().Slice(mem, 64)
	copy(dst, b)
	k, err := r.KernelFromDescriptor(gpu, name, mem)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

type qerr struct {
	st Status
	q  *Queue
}

func newQueue(t testing.TB, r *Runtime, size uint32) (*Queue, chan qerr) {
	t.Helper()
	errs := make(chan qerr, 4)
	q, err := r.CreateQueue(r.GPUAgents()[0], size, HSA_QUEUE_TYPE_MULTI, func(st Status, q *Queue) { errs <- qerr{st, q} }, ^uint32(0), ^uint32(0))
	if err != nil {
		t.Fatal(err)
	}
	return q, errs
}

// submit reserves a slot (waiting while the ring is full), lets fill write
// the body, publishes the header with release and rings the doorbell.
func submit(q *Queue, hdr abi.PacketHeader, rest uint16, fill func(p *abi.Packet)) uint64 {
	idx := q.AddWriteIndex(1)
	for idx >= q.LoadReadIndex()+uint64(q.Size()) {
		time.Sleep(10 * time.Microsecond)
	}
	p := q.Packet(idx)
	for i := 1; i < 8; i++ {
		p.Words[i] = 0
	}
	if fill != nil {
		fill(p)
	}
	p.Publish(hdr, rest)
	q.Ring(int64(idx))
	return idx
}

func dispatchHeader() abi.PacketHeader {
	return abi.MakePacketHeader(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, true, abi.HSA_FENCE_SCOPE_SYSTEM, abi.HSA_FENCE_SCOPE_SYSTEM)
}

func submitDispatch(q *Queue, k *Kernel, dims uint16, wg [3]uint16, grid [3]uint32, group uint32, kernarg, completion uint64) uint64 {
	return submit(q, dispatchHeader(), dims, func(p *abi.Packet) {
		kp := p.KernelDispatch()
		kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = wg[0], wg[1], wg[2]
		kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = grid[0], grid[1], grid[2]
		kp.GroupSegmentSize = group
		kp.KernelObject = k.Object
		kp.KernargAddress = kernarg
		kp.CompletionSignal = completion
	})
}

func waitZero(t testing.TB, s *Signal) {
	t.Helper()
	if v := s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, 10*time.Second, HSA_WAIT_STATE_BLOCKED); v != 0 {
		t.Fatalf("completion signal stuck at %d", v)
	}
}

func TestCreateQueueErrors(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	for _, c := range []struct {
		a    *Agent
		size uint32
		typ  QueueType
		want Status
	}{
		{r.CPUAgent(), 64, HSA_QUEUE_TYPE_MULTI, HSA_STATUS_ERROR_INVALID_QUEUE_CREATION},
		{nil, 64, HSA_QUEUE_TYPE_MULTI, HSA_STATUS_ERROR_INVALID_AGENT},
		{gpu, 0, HSA_QUEUE_TYPE_MULTI, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{gpu, 100, HSA_QUEUE_TYPE_MULTI, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{gpu, 32, HSA_QUEUE_TYPE_MULTI, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{gpu, 1 << 18, HSA_QUEUE_TYPE_MULTI, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{r.CPUAgent(), 64, HSA_QUEUE_TYPE_COOPERATIVE, HSA_STATUS_ERROR_INVALID_QUEUE_CREATION},
		{gpu, 100, HSA_QUEUE_TYPE_COOPERATIVE, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{gpu, 64, QueueType(7), HSA_STATUS_ERROR_INVALID_ARGUMENT},
	} {
		_, err := r.CreateQueue(c.a, c.size, c.typ, nil, 0, 0)
		wantStatus(t, err, c.want)
	}
}

func TestQueueLayout(t *testing.T) {
	r, _ := newRT(t)
	q, _ := newQueue(t, r, 128)
	q2, _ := newQueue(t, r, 64)
	a := q.ABI()
	if q.Handle()%64 != 0 || q.Handle()>>32 != (q.Handle()+255)>>32 {
		t.Errorf("amd_queue_t at %#x misaligned or spans a 4 GiB boundary", q.Handle())
	}
	if a.HSAQueue.Type != HSA_QUEUE_TYPE_MULTI || a.HSAQueue.Features != abi.HSA_QUEUE_FEATURE_KERNEL_DISPATCH ||
		a.HSAQueue.Size != 128 || a.HSAQueue.BaseAddress != q.BaseAddress() || a.HSAQueue.BaseAddress%64 != 0 {
		t.Errorf("hsa_queue_t %+v", a.HSAQueue)
	}
	if q.ID() == q2.ID() {
		t.Error("two queues share an id")
	}
	if db, err := r.Signal(a.HSAQueue.DoorbellSignal); err != nil || db != q.Doorbell() {
		t.Errorf("doorbell %#x: %v", a.HSAQueue.DoorbellSignal, err)
	}
	if a.GroupSegmentApertureBaseHi != 0x10000 || a.PrivateSegmentApertureBaseHi != 0x20000 {
		t.Errorf("apertures %#x %#x", a.GroupSegmentApertureBaseHi, a.PrivateSegmentApertureBaseHi)
	}
	if a.GroupSegmentApertureBaseHi != vmem.SharedApertureBaseHi || a.PrivateSegmentApertureBaseHi != vmem.PrivateApertureBaseHi {
		t.Error("apertures disagree with vmem")
	}
	if a.MaxCUID != 103 || a.MaxWaveID != 31 || a.ReadDispatchIDFieldBaseByteOffset != 128 {
		t.Errorf("max cu %d max wave %d read offset %d", a.MaxCUID, a.MaxWaveID, a.ReadDispatchIDFieldBaseByteOffset)
	}
	if a.QueueProperties != abi.AMD_QUEUE_PROPERTIES_IS_PTR64 {
		t.Errorf("queue properties %#x", a.QueueProperties)
	}
	for i := uint64(0); i < 128; i++ {
		if h := q.Packet(i).LoadHeader(); h.Type() != abi.HSA_PACKET_TYPE_INVALID {
			t.Fatalf("slot %d header %v", i, h)
		}
	}
	// Index operations.
	if q.LoadWriteIndex() != 0 || q.LoadReadIndex() != 0 {
		t.Fatal("indices not 0 at creation")
	}
	q.StoreWriteIndex(0)
	if old := q.AddWriteIndex(0); old != 0 {
		t.Errorf("add returned %d", old)
	}
	if got := q.CASWriteIndex(5, 6); got != 0 || q.LoadWriteIndex() != 0 {
		t.Errorf("failed CAS returned %d", got)
	}
	wantStatus(t, q.SetProfiling(true), HSA_STATUS_SUCCESS)
	if a.QueueProperties&abi.AMD_QUEUE_PROPERTIES_ENABLE_PROFILING == 0 {
		t.Error("profiling bit not set")
	}
	wantStatus(t, q.SetPriority(HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS)
	wantStatus(t, q.SetPriority(3), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, q.SetCUMask([]uint32{0xF}), HSA_STATUS_SUCCESS)
	wantStatus(t, q.SetCUMask([]uint32{0}), HSA_STATUS_ERROR_INVALID_ARGUMENT)

	if got, err := r.Queue(q.Handle()); got != q || err != nil {
		t.Errorf("Queue(handle) = %v %v", got, err)
	}
	wantStatus(t, q.Destroy(), HSA_STATUS_SUCCESS)
	_, err := r.Queue(q.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_QUEUE)
	wantStatus(t, q.Destroy(), HSA_STATUS_ERROR_INVALID_QUEUE)
	wantStatus(t, q.SetPriority(1), HSA_STATUS_ERROR_INVALID_QUEUE)
	_, err = r.Signal(a.HSAQueue.DoorbellSignal)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_SIGNAL)
}

// TestCooperativeQueue: HIP 5.2 creates an HSA_QUEUE_TYPE_COOPERATIVE queue
// for hipLaunchCooperativeKernel (after checking
// HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES) and dispatches both its GWS init
// blit kernel and the kernel on it; the device must learn that those
// dispatches are cooperative, and a MULTI queue's are not.
func TestCooperativeQueue(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	if v, err := gpu.Info(HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES); err != nil || v != true {
		t.Fatalf("COOPERATIVE_QUEUES = %v, %v", v, err)
	}
	cus, _ := gpu.Info(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT)
	if v, err := gpu.Info(HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT); err != nil || v != cus {
		t.Errorf("COOPERATIVE_COMPUTE_UNIT_COUNT = %v, %v; want the CU count %v", v, err, cus)
	}
	k := testKernel(t, r, "kern", 128)
	kernarg, _ := r.CPUAgent().Pools()[0].Allocate(64, 0)
	done, _ := r.CreateSignal(1, nil, 0)
	for i, typ := range []QueueType{HSA_QUEUE_TYPE_COOPERATIVE, HSA_QUEUE_TYPE_MULTI} {
		q, err := r.CreateQueue(gpu, 64, typ, nil, ^uint32(0), ^uint32(0))
		if err != nil {
			t.Fatalf("CreateQueue(%v): %v", typ, err)
		}
		if got := q.ABI().HSAQueue.Type; got != typ {
			t.Errorf("hsa_queue_t.type = %v, want %v", got, typ)
		}
		done.Store(1)
		submitDispatch(q, k, 1, [3]uint16{64, 1, 1}, [3]uint32{256, 1, 1}, 0, kernarg, done.Handle())
		waitZero(t, done)
		all := devs[0].all()
		if len(all) != i+1 {
			t.Fatalf("%d dispatches, want %d", len(all), i+1)
		}
		if got, want := all[i].Cooperative, typ == HSA_QUEUE_TYPE_COOPERATIVE; got != want {
			t.Errorf("%v queue: Dispatch.Cooperative = %v, want %v", typ, got, want)
		}
		wantStatus(t, q.Destroy(), HSA_STATUS_SUCCESS)
	}
}

func TestKernelDispatch(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "kern", 128)
	q, errs := newQueue(t, r, 64)
	q.SetProfiling(true)
	done, _ := r.CreateSignal(1, nil, 0)
	kernarg, _ := r.CPUAgent().Pools()[0].Allocate(64, 0)
	before := Timestamp()
	idx := submitDispatch(q, k, 2, [3]uint16{8, 4, 1}, [3]uint32{64, 8, 1}, 256, kernarg, done.Handle())
	waitZero(t, done)
	if devs[0].count() != 1 {
		t.Fatalf("%d dispatches", devs[0].count())
	}
	d := devs[0].all()[0]
	want := emu.Dispatch{Kernel: "kern", Program: k.Program, Entry: k.Object + 256, PacketAddr: q.PacketAddr(idx),
		QueueAddr: q.Handle(), KernargAddr: kernarg, GridSize: [3]uint32{64, 8, 1}, WorkgroupSize: [3]uint32{8, 4, 1},
		GroupSegmentSize: 256, PrivateSegmentSize: 16, DispatchID: idx}
	if d != want {
		t.Errorf("dispatch\n got %+v\nwant %+v", d, want)
	}
	if k.Program.Rsrc1 != 0x11 || k.Program.Rsrc2 != 0x22 || k.Program.Rsrc3 != 0x33 || k.Program.Properties != 0x8 || k.KernargSize != 24 {
		t.Errorf("program from descriptor %+v", k.Program)
	}
	if q.LoadReadIndex() != idx+1 {
		t.Errorf("read index %d", q.LoadReadIndex())
	}
	if h := q.Packet(idx).LoadHeader(); h.Type() != abi.HSA_PACKET_TYPE_INVALID {
		t.Errorf("consumed slot header %v", h)
	}
	st, en := done.ABI().StartTS, done.ABI().EndTS
	if st < before || en < st || en > Timestamp() {
		t.Errorf("profiling timestamps %d..%d outside [%d, now]", st, en, before)
	}
	// Static group size wins when the packet asks for less.
	done.Store(1)
	submitDispatch(q, k, 1, [3]uint16{64, 1, 1}, [3]uint32{64, 1, 1}, 0, kernarg, done.Handle())
	waitZero(t, done)
	if g := devs[0].all()[1].GroupSegmentSize; g != 128 {
		t.Errorf("group segment %d, want the static 128", g)
	}
	select {
	case e := <-errs:
		t.Fatalf("unexpected queue error %v", e.st)
	default:
	}
}

// TestLatePublish: the write index moves and the doorbell rings before the
// header is published; the processor must wait, not fail.
func TestLatePublish(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "kern", 0)
	q, errs := newQueue(t, r, 64)
	done, _ := r.CreateSignal(1, nil, 0)
	idx := q.AddWriteIndex(1)
	p := q.Packet(idx)
	kp := p.KernelDispatch()
	kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 1, 1, 1
	kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = 1, 1, 1
	kp.KernelObject, kp.CompletionSignal = k.Object, done.Handle()
	q.Ring(int64(idx))
	time.Sleep(10 * time.Millisecond)
	if devs[0].count() != 0 {
		t.Fatal("unpublished packet was processed")
	}
	p.Publish(dispatchHeader(), 1)
	q.Ring(int64(idx))
	waitZero(t, done)
	select {
	case e := <-errs:
		t.Fatalf("queue error %v", e.st)
	default:
	}
}

func TestInvalidPackets(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "kern", 0)
	good := func(p *abi.Packet) {
		kp := p.KernelDispatch()
		kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 64, 1, 1
		kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = 64, 1, 1
		kp.KernelObject = k.Object
	}
	cases := []struct {
		name string
		hdr  abi.PacketHeader
		rest uint16
		mod  func(kp *abi.KernelDispatchPacket)
		want Status
	}{
		{"type 0xff", abi.PacketHeader(0xFF), 1, nil, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
		{"type 6", abi.PacketHeader(6), 1, nil, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
		{"reserved header bits", dispatchHeader() | 0x8000, 1, nil, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
		{"reserved fence scope", abi.MakePacketHeader(abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, false, 3, 0), 1, nil, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
		{"agent dispatch", abi.MakePacketHeader(abi.HSA_PACKET_TYPE_AGENT_DISPATCH, false, 0, 0), 0, nil, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
		{"vendor format", abi.MakePacketHeader(abi.HSA_PACKET_TYPE_VENDOR_SPECIFIC, false, 0, 0), 7, nil, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
		{"dimensions 0", dispatchHeader(), 0, nil, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
		{"workgroup x 0", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.WorkgroupSizeX = 0 }, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
		{"workgroup x 0xffff", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.WorkgroupSizeX = 0xFFFF }, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
		{"workgroup 32x32x2", dispatchHeader(), 3, func(kp *abi.KernelDispatchPacket) {
			kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 32, 32, 2
			kp.GridSizeY, kp.GridSizeZ = 32, 2
		}, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
		{"grid y 0", dispatchHeader(), 2, func(kp *abi.KernelDispatchPacket) { kp.GridSizeY = 0 }, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
		{"unused dimension > 1", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.GridSizeZ = 4 }, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
		{"kernel object 0", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.KernelObject = 0 }, HSA_STATUS_ERROR_INVALID_CODE_OBJECT},
		{"kernel object not a descriptor", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.KernelObject = k.Object + 64 }, HSA_STATUS_ERROR_INVALID_CODE_OBJECT},
		{"group segment too large", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.GroupSegmentSize = ^uint32(0) }, HSA_STATUS_ERROR_INVALID_ALLOCATION},
		{"completion signal bogus", dispatchHeader(), 1, func(kp *abi.KernelDispatchPacket) { kp.CompletionSignal = 0x1040 }, HSA_STATUS_ERROR_INVALID_SIGNAL},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stderr := &syncBuffer{}
			r.stderr = stderr
			q, errs := newQueue(t, r, 64)
			defer q.Destroy()
			n := devs[0].count()
			idx := submit(q, c.hdr, c.rest, func(p *abi.Packet) {
				good(p)
				if c.mod != nil {
					c.mod(p.KernelDispatch())
				}
			})
			// A later, valid packet must not run: the queue is in error.
			after, _ := r.CreateSignal(1, nil, 0)
			submit(q, dispatchHeader(), 1, func(p *abi.Packet) { good(p); p.KernelDispatch().CompletionSignal = after.Handle() })
			select {
			case e := <-errs:
				if e.st != c.want || e.q != q {
					t.Fatalf("callback status %v queue %v, want %v", e.st, e.q, c.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("error callback not called")
			}
			wantStatus(t, q.Err(), c.want)
			if is, err := r.Signal(q.ABI().QueueInactiveSignal); err != nil || is.Load() != int64(c.want) {
				t.Errorf("queue_inactive_signal %v holds %d, want the status", err, is.Load())
			}
			if q.LoadReadIndex() != idx {
				t.Errorf("read index %d, want the failing packet %d", q.LoadReadIndex(), idx)
			}
			if v := after.Wait(HSA_SIGNAL_CONDITION_EQ, 0, 20*time.Millisecond, HSA_WAIT_STATE_BLOCKED); v != 1 {
				t.Error("a packet after the invalid one ran")
			}
			if devs[0].count() != n {
				t.Error("invalid packet reached the device")
			}
			if !strings.Contains(stderr.String(), c.want.String()) {
				t.Errorf("stderr %q does not report %v", stderr.String(), c.want)
			}
		})
	}
}

func TestDeviceFaults(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "faulty", 0)
	for _, c := range []struct {
		fault *emu.Fault
		want  Status
	}{
		{&emu.Fault{Kind: emu.FaultMemory, Kernel: "faulty", PC: 0x1234, Wave: 0, Lane: 5, Address: 0xdead0000, Inst: "global_load_dword v0, v[0:1], off"}, HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION},
		{&emu.Fault{Kind: emu.FaultException, Kernel: "faulty", PC: 0x40, Wave: 1, Lane: -1, Inst: "s_trap 2"}, HSA_STATUS_ERROR_EXCEPTION},
		{&emu.Fault{Kind: emu.FaultIllegal, Kernel: "faulty", Wave: -1, Lane: -1}, HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION},
	} {
		stderr := &syncBuffer{}
		r.stderr = stderr
		devs[0].setFn(func(context.Context, *emu.Dispatch) error { return c.fault })
		q, errs := newQueue(t, r, 64)
		submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, 0)
		select {
		case e := <-errs:
			if e.st != c.want {
				t.Errorf("fault %v: status %v, want %v", c.fault.Kind, e.st, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("error callback not called")
		}
		out := stderr.String()
		if !strings.Contains(out, c.fault.Error()) {
			t.Errorf("stderr %q lacks the fault report %q", out, c.fault.Error())
		}
		if c.fault.Inst != "" && !strings.Contains(out, c.fault.Inst) {
			t.Errorf("stderr lacks the instruction")
		}
		q.Destroy()
	}
}

func TestBarrierPackets(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "k", 0)
	q, errs := newQueue(t, r, 64)
	dep1, _ := r.CreateSignal(1, nil, 0)
	dep2, _ := r.CreateSignal(1, nil, 0)
	barrierDone, _ := r.CreateSignal(1, nil, 0)
	kdone, _ := r.CreateSignal(1, nil, 0)
	andHdr := abi.MakePacketHeader(abi.HSA_PACKET_TYPE_BARRIER_AND, true, abi.HSA_FENCE_SCOPE_SYSTEM, abi.HSA_FENCE_SCOPE_SYSTEM)
	submit(q, andHdr, 0, func(p *abi.Packet) {
		b := p.BarrierAnd()
		b.DepSignal = [5]uint64{dep1.Handle(), 0, dep2.Handle(), 0, 0}
		b.CompletionSignal = barrierDone.Handle()
	})
	submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, kdone.Handle())
	time.Sleep(10 * time.Millisecond)
	dep1.Store(0)
	time.Sleep(10 * time.Millisecond)
	if devs[0].count() != 0 || barrierDone.Load() != 1 {
		t.Fatal("barrier-AND completed with one dependency outstanding")
	}
	dep2.Subtract(1) // any store wakes the processor
	waitZero(t, barrierDone)
	waitZero(t, kdone)

	// Barrier-OR: one dependency suffices; zero handles are ignored.
	dep1.Store(1)
	dep2.Store(1)
	orDone, _ := r.CreateSignal(1, nil, 0)
	submit(q, abi.MakePacketHeader(abi.HSA_PACKET_TYPE_BARRIER_OR, false, 0, 0), 0, func(p *abi.Packet) {
		b := p.BarrierOr()
		b.DepSignal = [5]uint64{0, dep1.Handle(), dep2.Handle()}
		b.CompletionSignal = orDone.Handle()
	})
	time.Sleep(5 * time.Millisecond)
	if orDone.Load() != 1 {
		t.Fatal("barrier-OR completed with no dependency satisfied")
	}
	// Released from an async handler, as HIP does.
	r.SetAsyncHandler(dep1, HSA_SIGNAL_CONDITION_EQ, 1, func(int64) bool { dep2.Store(0); return false })
	waitZero(t, orDone)

	// AMD barrier-value: wait until (value & mask) >= 4.
	bv, _ := r.CreateSignal(0, nil, 0)
	bvDone, _ := r.CreateSignal(1, nil, 0)
	submit(q, abi.MakePacketHeader(abi.HSA_PACKET_TYPE_VENDOR_SPECIFIC, true, 0, 0), abi.HSA_AMD_PACKET_TYPE_BARRIER_VALUE, func(p *abi.Packet) {
		v := p.AMDBarrierValue()
		v.Signal, v.Value, v.Mask, v.Cond = bv.Handle(), 4, 0xF, uint32(HSA_SIGNAL_CONDITION_GTE)
		v.CompletionSignal = bvDone.Handle()
	})
	bv.Store(0x13) // & 0xF = 3
	time.Sleep(5 * time.Millisecond)
	if bvDone.Load() != 1 {
		t.Fatal("barrier-value completed early")
	}
	bv.Store(0x14)
	waitZero(t, bvDone)

	// A negative dependency is an error.
	neg, _ := r.CreateSignal(-1, nil, 0)
	submit(q, andHdr, 0, func(p *abi.Packet) { p.BarrierAnd().DepSignal[0] = neg.Handle() })
	select {
	case e := <-errs:
		if e.st != HSA_STATUS_ERROR {
			t.Errorf("negative dependency: %v", e.st)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("negative dependency did not fail the queue")
	}
}

// TestBarrierBitOrder: packets complete in order; with the barrier bit a
// packet starts only after every earlier one completed.
func TestBarrierBitOrder(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "k", 0)
	q, _ := newQueue(t, r, 64)
	var running atomic.Int32
	devs[0].setFn(func(context.Context, *emu.Dispatch) error {
		if running.Add(1) != 1 {
			t.Error("two dispatches of one queue overlapped")
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		return nil
	})
	done, _ := r.CreateSignal(10, nil, 0)
	for i := 0; i < 10; i++ {
		submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{uint32(i + 1), 1, 1}, 0, 0, done.Handle())
	}
	waitZero(t, done)
	for i, d := range devs[0].all() {
		if d.GridSize[0] != uint32(i+1) || d.DispatchID != uint64(i) {
			t.Errorf("dispatch %d: grid %v id %d", i, d.GridSize, d.DispatchID)
		}
	}
}

// TestMultiProducer: several goroutines reserve slots with CAS on the write
// index of one small MULTI queue.
func TestMultiProducer(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "k", 0)
	q, errs := newQueue(t, r, 64)
	const producers, each = 6, 60
	done, _ := r.CreateSignal(producers*each, nil, 0)
	var wg sync.WaitGroup
	for g := 0; g < producers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				var idx uint64
				for {
					idx = q.LoadWriteIndex()
					if idx >= q.LoadReadIndex()+uint64(q.Size()) {
						time.Sleep(20 * time.Microsecond) // full
						continue
					}
					if q.CASWriteIndex(idx, idx+1) == idx {
						break
					}
				}
				kp := q.Packet(idx).KernelDispatch()
				kp.WorkgroupSizeX, kp.WorkgroupSizeY, kp.WorkgroupSizeZ = 1, 1, 1
				kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ = uint32(g*1000+i+1), 1, 1
				kp.KernelObject, kp.CompletionSignal = k.Object, done.Handle()
				kp.GroupSegmentSize, kp.PrivateSegmentSize, kp.KernargAddress = 0, 0, 0
				q.Packet(idx).Publish(dispatchHeader(), 1)
				q.Ring(int64(idx))
			}
		}(g)
	}
	wg.Wait()
	waitZero(t, done)
	if devs[0].count() != producers*each {
		t.Fatalf("%d dispatches, want %d", devs[0].count(), producers*each)
	}
	seen := map[uint32]bool{}
	for _, d := range devs[0].all() {
		if seen[d.GridSize[0]] {
			t.Fatalf("packet %d dispatched twice", d.GridSize[0])
		}
		seen[d.GridSize[0]] = true
	}
	select {
	case e := <-errs:
		t.Fatalf("queue error %v", e.st)
	default:
	}
}

func TestShutdownWithRunningKernel(t *testing.T) {
	devs := []*fakeDevice{}
	r, err := New(Config{Stderr: &syncBuffer{}, NewDevice: func(DeviceConfig) (Device, error) {
		d := &fakeDevice{fn: func(ctx context.Context, _ *emu.Dispatch) error {
			<-ctx.Done() // a kernel that never ends by itself
			return &emu.Fault{Kind: emu.FaultCanceled, Wave: -1, Lane: -1}
		}}
		devs = append(devs, d)
		return d, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	k := testKernel(t, r, "forever", 0)
	called := make(chan Status, 1)
	q, _ := r.CreateQueue(r.GPUAgents()[0], 64, HSA_QUEUE_TYPE_SINGLE, func(st Status, _ *Queue) { called <- st }, 0, 0)
	submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, 0)
	for devs[0].count() == 0 {
		time.Sleep(100 * time.Microsecond)
	}
	start := time.Now()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v", d)
	}
	select {
	case st := <-called:
		t.Errorf("shutdown reported a queue error %v", st)
	default:
	}
}

func TestInactivate(t *testing.T) {
	r, devs := newRT(t)
	k := testKernel(t, r, "k", 0)
	q, _ := newQueue(t, r, 64)
	wantStatus(t, q.Inactivate(), HSA_STATUS_SUCCESS)
	submitDispatch(q, k, 1, [3]uint16{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, 0)
	time.Sleep(5 * time.Millisecond)
	if devs[0].count() != 0 {
		t.Fatal("inactive queue processed a packet")
	}
	wantStatus(t, q.Inactivate(), HSA_STATUS_SUCCESS) // no effect when already inactive
	wantStatus(t, q.Destroy(), HSA_STATUS_SUCCESS)
	wantStatus(t, q.Inactivate(), HSA_STATUS_ERROR_INVALID_QUEUE)
}

func TestRegisterKernelErrors(t *testing.T) {
	r, _ := newRT(t)
	wantStatus(t, r.RegisterKernel(nil), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.RegisterKernel(&Kernel{Object: 0x1001}), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.RegisterKernel(&Kernel{Object: 0x1000}), HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
	_, err := r.KernelFromDescriptor(nil, "x", 0x2000)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
	k := testKernel(t, r, "k", 0)
	if got, ok := r.KernelAt(k.Object); !ok || got != k {
		t.Fatal("KernelAt")
	}
	r.UnregisterKernel(k.Object)
	if _, ok := r.KernelAt(k.Object); ok {
		t.Fatal("kernel still registered")
	}
	_ = unsafe.Sizeof(0)
}

// TestCallbackDestroysQueue: an error callback may destroy its queue.
func TestCallbackDestroysQueue(t *testing.T) {
	r, _ := newRT(t)
	destroyed := make(chan error, 1)
	q, err := r.CreateQueue(r.GPUAgents()[0], 64, HSA_QUEUE_TYPE_MULTI, func(st Status, q *Queue) { destroyed <- q.Destroy() }, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	submit(q, abi.PacketHeader(0x7F), 0, nil)
	select {
	case err := <-destroyed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Destroy inside the error callback deadlocked")
	}
	_, err = r.Queue(q.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_QUEUE)
}

func TestSoftQueue(t *testing.T) {
	r, _ := newRT(t)
	db, _ := r.CreateSignal(0, nil, 0)
	region := r.CPUAgent().Pools()[1]
	q, err := r.CreateSoftQueue(region, 16, HSA_QUEUE_TYPE_SINGLE, abi.HSA_QUEUE_FEATURE_AGENT_DISPATCH, db)
	if err != nil {
		t.Fatal(err)
	}
	a := q.ABI().HSAQueue
	if a.Size != 16 || a.DoorbellSignal != db.Handle() || a.Features != abi.HSA_QUEUE_FEATURE_AGENT_DISPATCH || a.Type != HSA_QUEUE_TYPE_SINGLE {
		t.Errorf("hsa_queue_t %+v", a)
	}
	// The application is the packet processor: a packet stays put.
	idx := submit(q, abi.MakePacketHeader(abi.HSA_PACKET_TYPE_AGENT_DISPATCH, false, 0, 0), 7, nil)
	time.Sleep(5 * time.Millisecond)
	if q.LoadReadIndex() != 0 || q.Packet(idx).AgentDispatch().Type != 7 {
		t.Error("a soft queue's packet was consumed")
	}
	wantStatus(t, q.Destroy(), HSA_STATUS_SUCCESS)
	if !db.Live() {
		t.Error("destroying a soft queue destroyed the application's doorbell")
	}
	for _, c := range []struct {
		size     uint32
		features uint32
		db       *Signal
		want     Status
	}{
		{12, 1, db, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{16, 0, db, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{16, 8, db, HSA_STATUS_ERROR_INVALID_ARGUMENT},
		{16, 1, nil, HSA_STATUS_ERROR_INVALID_ARGUMENT},
	} {
		_, err := r.CreateSoftQueue(region, c.size, HSA_QUEUE_TYPE_MULTI, c.features, c.db)
		wantStatus(t, err, c.want)
	}
	_, err = r.CreateSoftQueue(r.GPUAgents()[0].Pools()[1], 16, HSA_QUEUE_TYPE_MULTI, 1, db)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.CreateSoftQueue(nil, 16, HSA_QUEUE_TYPE_MULTI, 1, db)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_REGION)
}
