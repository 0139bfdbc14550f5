package hsa

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/abi"
	"github.com/rocpu/rocpu/internal/vmem"
)

// QueueType is hsa_queue_type_t.
type QueueType = abi.QueueType

// Queue types.
const (
	HSA_QUEUE_TYPE_MULTI       = abi.HSA_QUEUE_TYPE_MULTI
	HSA_QUEUE_TYPE_SINGLE      = abi.HSA_QUEUE_TYPE_SINGLE
	HSA_QUEUE_TYPE_COOPERATIVE = abi.HSA_QUEUE_TYPE_COOPERATIVE
)

// Queue priorities (hsa_amd_queue_priority_t).
const (
	HSA_AMD_QUEUE_PRIORITY_LOW    = 0
	HSA_AMD_QUEUE_PRIORITY_NORMAL = 1
	HSA_AMD_QUEUE_PRIORITY_HIGH   = 2
)

// QueueErrorCallback is hsa_queue_create's callback: called once, on the
// queue's packet-processor goroutine with no rocpu lock held, when the
// queue enters its error state.
type QueueErrorCallback func(status Status, q *Queue)

// Queue states.
const (
	queueActive int32 = iota
	queueError
	queueInactive
	queueDestroyed
)

// Queue is an AQL queue: an amd_queue_t (beginning with hsa_queue_t) and
// its packet ring in device-visible memory, a doorbell signal, and a
// packet-processor goroutine that consumes packets when the doorbell is
// rung. Its handle (hsa_queue_t*) is the amd_queue_t's address.
type Queue struct {
	rt       *Runtime
	agent    *Agent
	addr     uint64
	amd      *abi.AMDQueue
	ring     *vmem.Region
	size     uint32
	doorbell *Signal
	inactive *Signal // amd_queue_t.queue_inactive_signal: the error status once the queue fails
	cb       QueueErrorCallback

	state  atomic.Int32
	errMu  sync.Mutex
	err    error
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	priority atomic.Int32
	cuMask   atomic.Pointer[[]uint32]

	statsMu sync.Mutex
	stats   emu.Counters

	launch launchCache  // kernarg blocks and completion signals for Launch
	disp   emu.Dispatch // the packet processor's dispatch description, reused

	idlePoll time.Duration // the processor's current fallback poll (its goroutine only)
	idleT    *time.Timer   // the processor's poll timer (waitDoorbell without futex)
	soft     bool          // a soft queue: the application processes its packets
	coop     bool          // HSA_QUEUE_TYPE_COOPERATIVE: dispatches are emu.Dispatch.Cooperative
	// wokeGo: the last packet's completion woke goroutines (processor
	// goroutine only), so the spin after it yields its P at once.
	wokeGo bool
}

type queueState struct {
	mu     sync.Mutex
	byAddr map[uint64]*Queue
	nextID uint64
}

func (qs *queueState) init() { qs.byAddr = map[uint64]*Queue{} }

func (qs *queueState) closeAll() {
	qs.mu.Lock()
	qs2 := make([]*Queue, 0, len(qs.byAddr))
	for _, q := range qs.byAddr {
		qs2 = append(qs2, q)
	}
	qs.mu.Unlock()
	for _, q := range qs2 {
		q.stop(queueInactive)
	}
}

// CreateQueue is hsa_queue_create: a queue of size packets (a power of two
// between QueueMinSize and QueueMaxSize) on a GPU agent, of type MULTI,
// SINGLE or COOPERATIVE (whose dispatches the device runs with all their
// workgroups resident, for grid barriers). privateSegmentSize and groupSegmentSize are hints (UINT32_MAX
// means the default) that rocpu ignores: scratch belongs to the device.
func (r *Runtime) CreateQueue(a *Agent, size uint32, typ QueueType, cb QueueErrorCallback, privateSegmentSize, groupSegmentSize uint32) (*Queue, error) {
	const op = "CreateQueue"
	if err := r.check(op); err != nil {
		return nil, err
	}
	if a == nil || a.rt != r {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent of another runtime")
	}
	if a.typ != HSA_DEVICE_TYPE_GPU {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, "%v does not support kernel dispatch queues", a)
	}
	switch typ {
	case HSA_QUEUE_TYPE_MULTI, HSA_QUEUE_TYPE_SINGLE:
	case HSA_QUEUE_TYPE_COOPERATIVE:
		// A cooperative queue's dispatches may synchronise every
		// workgroup through GWS (HIP's grid sync): they run as
		// emu.Dispatch.Cooperative.
	default:
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "queue type %d", typ)
	}
	if size == 0 || bits.OnesCount32(size) != 1 || size < QueueMinSize || size > QueueMaxSize {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "size %d is not a power of two in [%d, %d]", size, QueueMinSize, QueueMaxSize)
	}
	qs := &r.q
	qs.mu.Lock()
	n := 0
	for _, q := range qs.byAddr {
		if q.agent == a {
			n++
		}
	}
	qs.mu.Unlock()
	if n >= QueuesMax {
		return nil, errorf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, "%v already has %d queues", a, n)
	}

	qreg, err := r.space.Alloc(uint64(unsafe.Sizeof(abi.AMDQueue{})), 256, vmem.KindQueue, "amd_queue_t")
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "amd_queue_t")
	}
	ring, err := r.space.Alloc(uint64(size)*abi.PacketSize, 4096, vmem.KindQueue, "AQL ring")
	if err != nil {
		r.space.Free(qreg.Base)
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "ring of %d packets", size)
	}
	db, err := r.CreateSignal(0, nil, 0)
	if err != nil {
		r.space.Free(qreg.Base)
		r.space.Free(ring.Base)
		return nil, err
	}
	inactive, err := r.CreateSignal(0, nil, 0)
	if err != nil {
		db.Destroy()
		r.space.Free(qreg.Base)
		r.space.Free(ring.Base)
		return nil, err
	}
	q := &Queue{rt: r, agent: a, addr: qreg.Base, amd: vmem.ViewIn[abi.AMDQueue](qreg, qreg.Base), ring: ring,
		size: size, doorbell: db, inactive: inactive, cb: cb, done: make(chan struct{}), coop: typ == HSA_QUEUE_TYPE_COOPERATIVE}
	// Every slot starts INVALID: a producer's header store is what makes a
	// packet valid.
	for i := uint32(0); i < size; i++ {
		abi.PublishPacket(ring.Pointer(ring.Base+uint64(i)*abi.PacketSize, abi.PacketSize),
			abi.MakePacketHeader(abi.HSA_PACKET_TYPE_INVALID, false, 0, 0), 0)
	}
	qs.mu.Lock()
	id := qs.nextID
	qs.nextID++
	qs.byAddr[q.addr] = q
	qs.mu.Unlock()

	aq := q.amd
	aq.HSAQueue = abi.HSAQueue{Type: typ, Features: abi.HSA_QUEUE_FEATURE_KERNEL_DISPATCH, BaseAddress: ring.Base,
		DoorbellSignal: db.Handle(), Size: size, ID: id}
	aq.GroupSegmentApertureBaseHi = vmem.SharedApertureBaseHi
	aq.PrivateSegmentApertureBaseHi = vmem.PrivateApertureBaseHi
	aq.MaxCUID = uint32(a.chip.cus - 1)
	aq.MaxWaveID = uint32(a.chip.wavesPerCU - 1)
	aq.ReadDispatchIDFieldBaseByteOffset = uint32(unsafe.Offsetof(abi.AMDQueue{}.ReadDispatchID))
	aq.QueueProperties = abi.AMD_QUEUE_PROPERTIES_IS_PTR64
	aq.QueueInactiveSignal = inactive.Handle()
	q.priority.Store(HSA_AMD_QUEUE_PRIORITY_NORMAL)
	q.ctx, q.cancel = context.WithCancel(r.ctx)
	go q.run()
	return q, nil
}

// Queue returns the live queue whose hsa_queue_t* is addr, or an error with
// HSA_STATUS_ERROR_INVALID_QUEUE.
func (r *Runtime) Queue(addr uint64) (*Queue, error) {
	if err := r.check("Queue"); err != nil {
		return nil, err
	}
	r.q.mu.Lock()
	q := r.q.byAddr[addr]
	r.q.mu.Unlock()
	if q == nil {
		return nil, errorf("Queue", HSA_STATUS_ERROR_INVALID_QUEUE, "no queue at %#x", addr)
	}
	return q, nil
}

// Handle returns the hsa_queue_t* (the amd_queue_t's address).
func (q *Queue) Handle() uint64 { return q.addr }

// ABI returns the amd_queue_t.
func (q *Queue) ABI() *abi.AMDQueue { return q.amd }

// Agent returns the queue's agent.
func (q *Queue) Agent() *Agent { return q.agent }

// Size returns the ring size in packets.
func (q *Queue) Size() uint32 { return q.size }

// ID returns hsa_queue_t.id.
func (q *Queue) ID() uint64 { return q.amd.HSAQueue.ID }

// BaseAddress returns the ring's address.
func (q *Queue) BaseAddress() uint64 { return q.ring.Base }

// Doorbell returns the doorbell signal.
func (q *Queue) Doorbell() *Signal { return q.doorbell }

// Err returns the error that put the queue into its error state, or nil.
func (q *Queue) Err() error {
	q.errMu.Lock()
	defer q.errMu.Unlock()
	return q.err
}

// Stats returns the device counters summed over the queue's dispatches.
func (q *Queue) Stats() emu.Counters {
	q.statsMu.Lock()
	defer q.statsMu.Unlock()
	return q.stats
}

// Queue index operations (hsa_queue_{load,store,cas,add}_{read,write}_index_*):
// atomic operations on amd_queue_t's read_dispatch_id and
// write_dispatch_id, one method for every memory-order variant.

// LoadReadIndex is hsa_queue_load_read_index_*.
func (q *Queue) LoadReadIndex() uint64 { return q.amd.LoadReadIndex() }

// StoreReadIndex is hsa_queue_store_read_index_*.
func (q *Queue) StoreReadIndex(v uint64) { q.amd.StoreReadIndex(v) }

// LoadWriteIndex is hsa_queue_load_write_index_*.
func (q *Queue) LoadWriteIndex() uint64 { return q.amd.LoadWriteIndex() }

// StoreWriteIndex is hsa_queue_store_write_index_*.
func (q *Queue) StoreWriteIndex(v uint64) { q.amd.StoreWriteIndex(v) }

// CASWriteIndex is hsa_queue_cas_write_index_*: it returns the value
// observed.
func (q *Queue) CASWriteIndex(expected, v uint64) uint64 { return q.amd.CASWriteIndex(expected, v) }

// AddWriteIndex is hsa_queue_add_write_index_*: it returns the previous
// value.
func (q *Queue) AddWriteIndex(n uint64) uint64 { return q.amd.AddWriteIndex(n) }

// PacketAddr returns the address of the ring slot of packet index i.
func (q *Queue) PacketAddr(i uint64) uint64 {
	return q.ring.Base + (i&uint64(q.size-1))*abi.PacketSize
}

// Packet returns the ring slot of packet index i.
func (q *Queue) Packet(i uint64) *abi.Packet {
	return vmem.ViewIn[abi.Packet](q.ring, q.PacketAddr(i))
}

// SetProfiling is hsa_amd_profiling_set_profiler_enabled: with profiling
// on, every packet's completion signal receives start and end timestamps.
func (q *Queue) SetProfiling(on bool) error {
	if err := q.check("Queue.SetProfiling"); err != nil {
		return err
	}
	for {
		old := atomic.LoadUint32(&q.amd.QueueProperties)
		nv := old &^ abi.AMD_QUEUE_PROPERTIES_ENABLE_PROFILING
		if on {
			nv |= abi.AMD_QUEUE_PROPERTIES_ENABLE_PROFILING
		}
		if atomic.CompareAndSwapUint32(&q.amd.QueueProperties, old, nv) {
			return nil
		}
	}
}

func (q *Queue) profiling() bool {
	return atomic.LoadUint32(&q.amd.QueueProperties)&abi.AMD_QUEUE_PROPERTIES_ENABLE_PROFILING != 0
}

// SetPriority is hsa_amd_queue_set_priority. Priorities order nothing on
// the emulator; they are recorded.
func (q *Queue) SetPriority(p int) error {
	const op = "Queue.SetPriority"
	if err := q.check(op); err != nil {
		return err
	}
	if p < HSA_AMD_QUEUE_PRIORITY_LOW || p > HSA_AMD_QUEUE_PRIORITY_HIGH {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "priority %d", p)
	}
	q.priority.Store(int32(p))
	return nil
}

// Priority returns the priority SetPriority recorded.
func (q *Queue) Priority() int { return int(q.priority.Load()) }

// SetCUMask is hsa_amd_queue_cu_set_mask: mask holds one bit per compute
// unit (32 per word). The emulator schedules workgroups on goroutines, not
// CUs, so the mask is recorded only; a mask enabling no CU is refused.
func (q *Queue) SetCUMask(mask []uint32) error {
	const op = "Queue.SetCUMask"
	if err := q.check(op); err != nil {
		return err
	}
	if len(mask) == 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "empty CU mask")
	}
	any := false
	for _, w := range mask {
		any = any || w != 0
	}
	if !any {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "CU mask enables no compute unit")
	}
	m := append([]uint32(nil), mask...)
	q.cuMask.Store(&m)
	return nil
}

func (q *Queue) check(op string) error {
	if err := q.rt.check(op); err != nil {
		return err
	}
	if q.state.Load() == queueDestroyed {
		return errorf(op, HSA_STATUS_ERROR_INVALID_QUEUE, "queue %#x is destroyed", q.addr)
	}
	return nil
}

// stop moves the queue to state st (inactive or destroyed), cancels a
// running dispatch and waits (bounded) for the packet processor to exit.
func (q *Queue) stop(st int32) {
	for {
		old := q.state.Load()
		if old >= st {
			break
		}
		if q.state.CompareAndSwap(old, st) {
			break
		}
	}
	q.cancel()
	q.doorbell.broadcast()
	select {
	case <-q.done:
	case <-time.After(10 * time.Second):
	}
}

// Inactivate is hsa_queue_inactivate: the packet processor stops (a running
// kernel is canceled) and later packets are ignored.
func (q *Queue) Inactivate() error {
	if err := q.check("Queue.Inactivate"); err != nil {
		return err
	}
	q.stop(queueInactive)
	return nil
}

// Destroy is hsa_queue_destroy: it inactivates the queue and frees its
// memory and doorbell; the handle becomes invalid.
func (q *Queue) Destroy() error {
	const op = "Queue.Destroy"
	if err := q.rt.check(op); err != nil {
		return err
	}
	r := q.rt
	r.q.mu.Lock()
	if r.q.byAddr[q.addr] != q {
		r.q.mu.Unlock()
		return errorf(op, HSA_STATUS_ERROR_INVALID_QUEUE, "queue %#x already destroyed", q.addr)
	}
	delete(r.q.byAddr, q.addr)
	r.q.mu.Unlock()
	q.stop(queueDestroyed)
	q.launch.drain(r)
	if !q.soft {
		q.doorbell.Destroy() // a soft queue's doorbell belongs to the application
	}
	q.inactive.Destroy()
	r.space.Free(q.ring.Base)
	r.space.Free(q.addr)
	return nil
}

// Ring stores v to the doorbell (hsa_signal_store_screlease on
// hsa_queue_t.doorbell_signal).
func (q *Queue) Ring(v int64) { q.doorbell.Store(v) }

// packetError is a packet the processor refuses or a dispatch that failed.
type packetError struct {
	status Status
	index  uint64
	err    error
}

func (e *packetError) Error() string {
	return fmt.Sprintf("packet %d: %v", e.index, e.err)
}

func (e *packetError) Unwrap() error { return e.err }

// process is the packet processor (INVENTORY §6.8, §8.7): it consumes
// packets in order from the read index. Packets are processed one at a
// time, each completing before the next starts, which satisfies every
// packet's barrier bit; fences are no-ops because every device access is a
// host access (x86-64 TSO) and the Go atomics around each packet are
// sequentially consistent.
func (q *Queue) process() error {
	for q.state.Load() == queueActive {
		rd := q.amd.LoadReadIndex()
		if rd >= q.amd.LoadWriteIndex() {
			if q.idlePoll == 0 && q.spin(rd) {
				continue
			}
			q.waitDoorbell(func() bool { return q.amd.LoadWriteIndex() > rd })
			continue
		}
		pkt := q.ring.Pointer(q.PacketAddr(rd), abi.PacketSize)
		hdr := abi.LoadPacketHeader(pkt)
		if hdr.Type() == abi.HSA_PACKET_TYPE_INVALID {
			// Reserved but not yet published: the producer is not done.
			q.waitDoorbell(func() bool {
				return abi.LoadPacketHeader(pkt).Type() != abi.HSA_PACKET_TYPE_INVALID
			})
			continue
		}
		q.doorbell.acquire()
		q.idlePoll = 0
		if err := q.execute(pkt, hdr, rd); err != nil {
			if q.ctx.Err() != nil || q.state.Load() != queueActive {
				return nil // inactivated or shut down: not a queue error
			}
			q.state.CompareAndSwap(queueActive, queueError)
			return err
		}
	}
	return nil
}

// run is the packet processor's goroutine. A failure is reported after
// done is closed, so an error callback may destroy the queue.
func (q *Queue) run() {
	err := q.process()
	close(q.done)
	if err != nil {
		q.fail(err)
	}
}

// waitDoorbell blocks until ready holds, the doorbell is rung, the queue
// stops or a poll interval passes.
func (q *Queue) waitDoorbell(ready func() bool) {
	db := q.doorbell
	if q.rt.cfg.CDoorbells && WakeFD() >= 0 {
		// A poll sleeper (pollwake.go): a doorbell rung from C (HIP)
		// wakes it through the eventfd, and it holds no P meanwhile.
		ch := db.pollBegin()
		defer db.pollEnd()
		if ready() || q.state.Load() != queueActive {
			return
		}
		q.idleWait(ch)
		return
	}
	if haveFutex && q.rt.cfg.CDoorbells {
		// Sleep in the kernel: a doorbell rung from C (HIP) then wakes
		// this thread directly, with no cgo callback into Go's
		// scheduler (see Signal.sleep).
		if q.state.Load() != queueActive {
			return
		}
		// Rings wake the processor; the timeout only catches doorbell
		// writes that wake nobody, so the sleep is idlePollMax at once
		// (the spin before it covers a quick next packet).
		q.idlePoll = idlePollMax
		if db.sleep(func() bool { return ready() || q.state.Load() != queueActive }, q.idlePoll) {
			q.idlePoll = 0
		}
		return
	}
	db.watch(1)
	defer db.watch(-1)
	db.mu.Lock()
	ch := db.ch
	db.mu.Unlock()
	if ready() || q.state.Load() != queueActive {
		return
	}
	q.idleWait(ch)
}

// idleWait blocks until ch is closed, the queue stops or the idle poll
// passes.
func (q *Queue) idleWait(ch <-chan struct{}) {
	// Rings wake the processor; the timer only catches doorbell writes
	// that wake nobody, so the sleep is idlePollMax at once.
	q.idlePoll = idlePollMax
	if q.idleT == nil {
		q.idleT = time.NewTimer(q.idlePoll)
	} else {
		q.idleT.Reset(q.idlePoll)
	}
	select {
	case <-ch:
		q.idlePoll = 0
	case <-q.ctx.Done():
	case <-q.idleT.C:
	}
	q.idleT.Stop()
}

// spin polls the write index for up to processorSpin after a packet
// completed or a ring woke the processor, and reports whether a packet
// index beyond rd was reserved. A producer that submits its next packet
// within the spin (HIP's launch after a wait, a batch being written)
// finds the processor awake: while it spins it is not a watcher of the
// doorbell, so ringing it costs the producer no wake-up (in C, no call
// into Go). The spin yields the processor's CPU every few reads, so a
// producer thread sharing that CPU (a loaded machine) runs, and after
// processorQuietSpin also its P between reads, so workers and waiters on
// the same P run.
func (q *Queue) spin(rd uint64) bool {
	start := time.Now()
	// With a single P a quiet spin would keep every goroutine, the
	// producer included, from running for its length.
	quiet := !q.wokeGo && runtime.GOMAXPROCS(0) > 1
	q.wokeGo = false
	for i := 0; ; i++ {
		if q.amd.LoadWriteIndex() > rd {
			return true
		}
		if q.state.Load() != queueActive {
			return false
		}
		if i&7 == 7 {
			el := time.Since(start)
			if el > processorSpin {
				return false
			}
			quiet = quiet && el < processorQuietSpin
			osYield()
		}
		if !quiet {
			runtime.Gosched()
		}
	}
}

// processorQuietSpin is the start of the spin, during which the processor
// keeps its P (it still yields its CPU). runtime.Gosched wakes an idle
// thread whenever a P is idle, as one is while the producer is a C thread
// (HIP) rather than a goroutine: every Gosched of the spin woke a Go
// thread that looked for work on the producer's CPU, and the producer's
// own sched_yield in its wait handed that CPU over. The C library's
// empty-kernel round trip took 10-15 µs that way; with the quiet spin
// (and a one-worker dispatch on the processor's goroutine, emu
// run.execute) it takes 4-6 µs, and 6 µs instead of 12-17 µs beside a
// busy process. A completion that woke goroutines (a Go waiter) skips
// the quiet spin, so the waiter, readied onto this P, runs at once: with
// the quiet spin it waited for its end (Go API round trip with BLOCKED
// waits 16 µs instead of 3 µs).
const processorQuietSpin = 10 * time.Microsecond

// processorSpin bounds how long a packet processor polls its write index
// before it blocks on the doorbell. It outlasts the wake-up of a Launch
// waiting for the packet just completed (50-100 µs on a VM), so a
// back-to-back launch finds the processor awake; at 20 µs it had gone to
// sleep and each of bitonic's 171 dispatches paid a second wake-up (2
// workers: 399-456 ms against 379-441 ms at 200 µs, alternated runs).
const processorSpin = 200 * time.Microsecond

// idlePollMax bounds how long an idle packet processor sleeps between
// looks at its queue when no doorbell store wakes it. Every store through
// the API (Go or C) wakes it; the poll only catches plain writes to the
// doorbell's memory, so it can be rare. It was 20 ms: the 50 wake-ups a
// second of each idle queue cost a two-worker dispatch on another queue
// about 10% (n-body large, two cores, 207 ms with a 1 s poll against 230 ms).
//
// An idle processor sleeps this long at once, with no back-off from a short
// poll. The back-off (50 µs doubling to 1 s) woke it about 12 times in the
// first 200 ms after its last packet, and each wake-up on a machine whose
// cores all run another queue's workers costs one worker 10-20 ms: futex(2)
// is an ordinary system call to Go, so the processor's P stays attached to
// the sleeping thread until sysmon retakes it, and the preempted worker
// waits for it (runtime/trace). vector_add large with a second, idle
// queue alive: two workers 1.72x one worker with the back-off, 1.94x
// without (8 alternated pairs each).
const idlePollMax = time.Second

// fail reports the error that put the queue into its error state: the
// fault goes to stderr, queue_inactive_signal gets the status, system
// event handlers hear of memory faults, and the error callback runs (no
// lock held, on the processor's goroutine after it stopped processing, so
// the callback may destroy the queue). The failing packet stays at the
// read index, unconsumed.
func (q *Queue) fail(err error) {
	st := StatusOf(err)
	var pe *packetError
	if errors.As(err, &pe) {
		st = pe.status
	}
	q.errMu.Lock()
	q.err = &Error{Op: "packet processor", Status: st, Msg: fmt.Sprintf("queue %d", q.ID()), Err: err}
	q.errMu.Unlock()
	q.rt.sig.broadcastAny() // wake Launch and other waiters watching Err
	fmt.Fprintf(q.rt.stderr, "rocpu: queue %d (%s) error %s: %v\n", q.ID(), q.agent.name, st, err)
	q.inactive.Store(int64(st))
	q.rt.memoryFaultEvent(q.agent, err)
	if q.cb != nil {
		q.cb(st, q)
	}
}

// execute runs one packet and retires it: release, slot back to INVALID,
// read index advanced, completion signal decremented (with profiling
// timestamps when enabled).
func (q *Queue) execute(pkt unsafe.Pointer, hdr abi.PacketHeader, index uint64) error {
	bad := func(st Status, format string, args ...any) error {
		return &packetError{status: st, index: index, err: fmt.Errorf(format, args...)}
	}
	if hdr.Reserved() != 0 {
		return bad(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "reserved header bits %#x set (%v)", hdr.Reserved(), hdr)
	}
	if hdr.AcquireFenceScope() > abi.HSA_FENCE_SCOPE_SYSTEM || hdr.ReleaseFenceScope() > abi.HSA_FENCE_SCOPE_SYSTEM {
		return bad(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "reserved fence scope (%v)", hdr)
	}
	start := Timestamp()
	var err error
	switch hdr.Type() {
	case abi.HSA_PACKET_TYPE_KERNEL_DISPATCH, abi.HSA_PACKET_TYPE_BARRIER_AND, abi.HSA_PACKET_TYPE_BARRIER_OR:
	case abi.HSA_PACKET_TYPE_VENDOR_SPECIFIC:
		if f := (*abi.AMDVendorPacketHeader)(pkt).AmdFormat; f != abi.HSA_AMD_PACKET_TYPE_BARRIER_VALUE {
			return bad(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "unknown AMD vendor packet format %d", f)
		}
	case abi.HSA_PACKET_TYPE_AGENT_DISPATCH:
		return bad(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "agent dispatch packets are not supported on a GPU queue")
	default:
		return bad(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "packet type %d (%v)", uint8(hdr.Type()), hdr)
	}
	// Every packet type keeps its completion signal at byte 56; check it
	// before running the packet.
	completion := (*abi.BarrierAndPacket)(pkt).CompletionSignal
	var cs *Signal
	if completion != 0 {
		if cs, err = q.rt.Signal(completion); err != nil {
			return bad(HSA_STATUS_ERROR_INVALID_SIGNAL, "completion signal %#x is not a live signal", completion)
		}
	}
	switch hdr.Type() {
	case abi.HSA_PACKET_TYPE_KERNEL_DISPATCH:
		kp := *(*abi.KernelDispatchPacket)(pkt)
		err = q.dispatch(&kp, q.PacketAddr(index), index)
	case abi.HSA_PACKET_TYPE_BARRIER_AND, abi.HSA_PACKET_TYPE_BARRIER_OR:
		bp := *(*abi.BarrierAndPacket)(pkt)
		err = q.barrier(bp.DepSignal, hdr.Type() == abi.HSA_PACKET_TYPE_BARRIER_AND)
	case abi.HSA_PACKET_TYPE_VENDOR_SPECIFIC:
		vp := *(*abi.AMDBarrierValuePacket)(pkt)
		err = q.barrierValue(&vp)
	}
	if err != nil {
		var pe *packetError
		if errors.As(err, &pe) {
			pe.index = index
			return pe
		}
		return &packetError{status: StatusOf(err), index: index, err: err}
	}
	if cs != nil && !cs.Live() {
		return bad(HSA_STATUS_ERROR_INVALID_SIGNAL, "completion signal %#x destroyed while its packet ran", completion)
	}
	abi.StorePacketHeader(pkt, abi.MakePacketHeader(abi.HSA_PACKET_TYPE_INVALID, false, 0, 0))
	q.amd.StoreReadIndex(index + 1)
	q.wokeGo = false
	if cs != nil {
		if q.profiling() {
			atomic.StoreUint64(&cs.s.StartTS, start)
			atomic.StoreUint64(&cs.s.EndTS, Timestamp())
		}
		q.wokeGo = cs.waiters.Load() > 0 || q.rt.sig.anyWaiters.Load() > 0
		cs.Subtract(1)
	}
	return nil
}

// dispatch validates a kernel dispatch packet and hands it to the device.
func (q *Queue) dispatch(kp *abi.KernelDispatchPacket, addr, index uint64) error {
	bad := func(st Status, format string, args ...any) error {
		return &packetError{status: st, err: fmt.Errorf(format, args...)}
	}
	dims := kp.Dimensions()
	if dims < 1 || dims > 3 {
		return bad(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "dimensions %d not in 1..3", dims)
	}
	wg := [3]uint32{uint32(kp.WorkgroupSizeX), uint32(kp.WorkgroupSizeY), uint32(kp.WorkgroupSizeZ)}
	grid := [3]uint32{kp.GridSizeX, kp.GridSizeY, kp.GridSizeZ}
	for i := 0; i < 3; i++ {
		if i >= dims {
			// Unused dimensions must be 1; 0 is taken as 1.
			if wg[i] == 0 {
				wg[i] = 1
			}
			if grid[i] == 0 {
				grid[i] = 1
			}
			if wg[i] != 1 || grid[i] != 1 {
				return bad(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "dimension %d unused (dimensions %d) but workgroup %d grid %d", i, dims, wg[i], grid[i])
			}
			continue
		}
		if wg[i] == 0 {
			return bad(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "workgroup size %v has a zero dimension", wg)
		}
		if grid[i] == 0 {
			return bad(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "grid size %v has a zero dimension", grid)
		}
	}
	if n := uint64(wg[0]) * uint64(wg[1]) * uint64(wg[2]); n > WorkgroupMaxSize {
		return bad(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "workgroup size %v (%d work-items) exceeds %d", wg, n, WorkgroupMaxSize)
	}
	k, ok := q.rt.KernelAt(kp.KernelObject)
	if !ok {
		return bad(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel object %#x is not a loaded kernel descriptor", kp.KernelObject)
	}
	if k.Agent != nil && k.Agent != q.agent {
		return bad(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel %s was loaded for %v, not %v", k.Name, k.Agent, q.agent)
	}
	lds := uint32(q.agent.id.Processor.LDSSize)
	group := max(kp.GroupSegmentSize, k.GroupSize)
	if group > lds {
		return bad(HSA_STATUS_ERROR_INVALID_ALLOCATION, "group segment %d bytes exceeds the agent's %d", group, lds)
	}
	d := &q.disp // the processor's goroutine only; the device keeps no reference
	*d = emu.Dispatch{
		Kernel: k.Name, Program: k.Program, Entry: k.Entry, PacketAddr: addr, QueueAddr: q.addr,
		KernargAddr: kp.KernargAddress, GridSize: grid, WorkgroupSize: wg,
		GroupSegmentSize: group, PrivateSegmentSize: max(kp.PrivateSegmentSize, k.PrivateSize), DispatchID: index,
		Cooperative: q.coop,
	}
	start := time.Now()
	err := q.agent.dev.Dispatch(q.ctx, d)
	q.rt.countDispatch(time.Since(start), &d.Stats)
	q.statsMu.Lock()
	q.stats.Workgroups += d.Stats.Workgroups
	q.stats.Waves += d.Stats.Waves
	for i := range d.Stats.Instructions {
		q.stats.Instructions[i] += d.Stats.Instructions[i]
	}
	q.stats.BytesLoaded += d.Stats.BytesLoaded
	q.stats.BytesStored += d.Stats.BytesStored
	q.statsMu.Unlock()
	return err
}

// waitSignals blocks until done reports true (or an error) or the queue
// stops.
func (q *Queue) waitSignals(watched []*Signal, done func() (bool, error)) error {
	return q.rt.waitCond(q.ctx, watched, func() (bool, error) {
		if q.state.Load() != queueActive {
			return false, context.Canceled
		}
		return done()
	})
}

// barrier runs a barrier-AND (all dependencies 0) or barrier-OR (any
// dependency 0) packet. A zero handle is a satisfied dependency for AND and
// ignored for OR; a dependency with a negative value is an error
// (INVENTORY §8.7).
func (q *Queue) barrier(deps [5]uint64, and bool) error {
	var sigs []*Signal
	for _, h := range deps {
		if h == 0 {
			continue
		}
		s, err := q.rt.Signal(h)
		if err != nil {
			return &packetError{status: HSA_STATUS_ERROR_INVALID_SIGNAL, err: fmt.Errorf("dependency signal %#x is not a live signal", h)}
		}
		sigs = append(sigs, s)
	}
	if len(sigs) == 0 {
		return nil
	}
	return q.waitSignals(sigs, func() (bool, error) {
		n := 0
		for _, s := range sigs {
			if !s.Live() {
				return false, &packetError{status: HSA_STATUS_ERROR_INVALID_SIGNAL, err: fmt.Errorf("dependency %v destroyed while waited on", s)}
			}
			v := s.Load()
			if v < 0 {
				return false, &packetError{status: HSA_STATUS_ERROR, err: fmt.Errorf("dependency %v has error value %d", s, v)}
			}
			if v == 0 {
				n++
				if !and {
					return true, nil
				}
			}
		}
		return and && n == len(sigs), nil
	})
}

// barrierValue runs an AMD barrier-value packet: it completes when
// (value & mask) satisfies cond against the packet's value.
func (q *Queue) barrierValue(vp *abi.AMDBarrierValuePacket) error {
	s, err := q.rt.Signal(vp.Signal)
	if err != nil {
		return &packetError{status: HSA_STATUS_ERROR_INVALID_SIGNAL, err: fmt.Errorf("barrier-value signal %#x is not a live signal", vp.Signal)}
	}
	cond := Condition(vp.Cond)
	if cond > HSA_SIGNAL_CONDITION_GTE {
		return &packetError{status: HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, err: fmt.Errorf("barrier-value condition %d", vp.Cond)}
	}
	return q.waitSignals([]*Signal{s}, func() (bool, error) {
		if !s.Live() {
			return false, &packetError{status: HSA_STATUS_ERROR_INVALID_SIGNAL, err: fmt.Errorf("%v destroyed while waited on", s)}
		}
		return cond.Holds(s.Load()&vp.Mask, vp.Value), nil
	})
}

// CreateSoftQueue is hsa_soft_queue_create: a queue whose packets the
// application processes itself (no packet processor runs), with its ring
// allocated from region (a global region that allows allocation), the
// given features (HSA_QUEUE_FEATURE_KERNEL_DISPATCH and/or
// _AGENT_DISPATCH) and the application's doorbell signal.
func (r *Runtime) CreateSoftQueue(region *MemoryPool, size uint32, typ QueueType, features uint32, doorbell *Signal) (*Queue, error) {
	const op = "CreateSoftQueue"
	if err := r.check(op); err != nil {
		return nil, err
	}
	if region == nil || region.rt != r {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_REGION, "region of another runtime")
	}
	if !region.AllocAllowed() {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%v does not allow allocation", region)
	}
	if size == 0 || bits.OnesCount32(size) != 1 || size > QueueMaxSize {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "size %d is not a power of two up to %d", size, QueueMaxSize)
	}
	if typ != HSA_QUEUE_TYPE_MULTI && typ != HSA_QUEUE_TYPE_SINGLE {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "queue type %d", typ)
	}
	if features == 0 || features&^uint32(abi.HSA_QUEUE_FEATURE_KERNEL_DISPATCH|abi.HSA_QUEUE_FEATURE_AGENT_DISPATCH) != 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "features %#x", features)
	}
	if doorbell == nil || doorbell.rt != r || !doorbell.Live() {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "the doorbell signal is not a live signal")
	}
	qreg, err := r.space.Alloc(uint64(unsafe.Sizeof(abi.AMDQueue{})), 256, vmem.KindQueue, "amd_queue_t (soft)")
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "amd_queue_t")
	}
	ring, err := r.space.Alloc(uint64(size)*abi.PacketSize, 4096, vmem.KindQueue, "AQL ring (soft)")
	if err != nil {
		r.space.Free(qreg.Base)
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "ring of %d packets", size)
	}
	inactive, err := r.CreateSignal(0, nil, 0)
	if err != nil {
		r.space.Free(qreg.Base)
		r.space.Free(ring.Base)
		return nil, err
	}
	q := &Queue{rt: r, agent: region.owner, addr: qreg.Base, amd: vmem.ViewIn[abi.AMDQueue](qreg, qreg.Base), ring: ring,
		size: size, doorbell: doorbell, inactive: inactive, done: make(chan struct{}), soft: true}
	close(q.done)
	for i := uint32(0); i < size; i++ {
		abi.PublishPacket(ring.Pointer(ring.Base+uint64(i)*abi.PacketSize, abi.PacketSize),
			abi.MakePacketHeader(abi.HSA_PACKET_TYPE_INVALID, false, 0, 0), 0)
	}
	qs := &r.q
	qs.mu.Lock()
	id := qs.nextID
	qs.nextID++
	qs.byAddr[q.addr] = q
	qs.mu.Unlock()
	q.amd.HSAQueue = abi.HSAQueue{Type: typ, Features: features, BaseAddress: ring.Base, DoorbellSignal: doorbell.Handle(), Size: size, ID: id}
	q.amd.ReadDispatchIDFieldBaseByteOffset = uint32(unsafe.Offsetof(abi.AMDQueue{}.ReadDispatchID))
	q.amd.QueueProperties = abi.AMD_QUEUE_PROPERTIES_IS_PTR64
	q.amd.QueueInactiveSignal = inactive.Handle()
	q.priority.Store(HSA_AMD_QUEUE_PRIORITY_NORMAL)
	q.ctx, q.cancel = context.WithCancel(r.ctx)
	return q, nil
}
