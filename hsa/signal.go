package hsa

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/abi"
	"github.com/rocpu/rocpu/internal/vmem"
)

// Condition is hsa_signal_condition_t.
type Condition uint32

// Signal conditions.
const (
	HSA_SIGNAL_CONDITION_EQ  Condition = 0
	HSA_SIGNAL_CONDITION_NE  Condition = 1
	HSA_SIGNAL_CONDITION_LT  Condition = 2
	HSA_SIGNAL_CONDITION_GTE Condition = 3
)

// Holds reports whether value satisfies c against compare. Unknown
// conditions never hold.
func (c Condition) Holds(value, compare int64) bool {
	switch c {
	case HSA_SIGNAL_CONDITION_EQ:
		return value == compare
	case HSA_SIGNAL_CONDITION_NE:
		return value != compare
	case HSA_SIGNAL_CONDITION_LT:
		return value < compare
	case HSA_SIGNAL_CONDITION_GTE:
		return value >= compare
	}
	return false
}

// WaitState is hsa_wait_state_t.
type WaitState uint32

// Wait states.
const (
	HSA_WAIT_STATE_BLOCKED WaitState = 0
	HSA_WAIT_STATE_ACTIVE  WaitState = 1
)

// Signal attributes (hsa_amd_signal_attribute_t).
const (
	HSA_AMD_SIGNAL_AMD_GPU_ONLY = 1
	HSA_AMD_SIGNAL_IPC          = 2
)

// WaitForever is the timeout that never expires (UINT64_MAX ticks in C).
const WaitForever = time.Duration(math.MaxInt64)

// Waiting tunables: an ACTIVE wait spins (yielding) this long before it
// blocks — on two cores a spinning host thread starves the emulator — and a
// blocked wait re-reads the value at least this often, which catches
// stores that wake nobody (plain device stores without s_sendmsg).
const (
	activeSpin = 20 * time.Microsecond
	pollMin    = 50 * time.Microsecond
	pollMax    = 2 * time.Millisecond
)

// Signal is an HSA signal: an amd_signal_t (64 bytes) in device-visible
// memory; its handle is that address, which device code and HIP
// dereference.
type Signal struct {
	rt        *Runtime
	addr      uint64
	s         *abi.AMDSignal
	eventID   uint32
	consumers []*Agent
	dead      atomic.Bool
	waiters   atomic.Int32

	mu sync.Mutex
	ch chan struct{} // closed and replaced to wake waiters

	hb atomic.Uint64 // race-detector happens-before carrier (raceEnabled)
}

// watch adds d to the number of goroutines watching s (waiters of every
// kind: Wait, WaitAny, async handlers, barrier packets, asynchronous
// copies, the packet processor on its doorbell) and mirrors it into
// amd_signal_t.reserved1, padding in the ABI that neither ROCr, HIP nor
// device code use. The C ABI's lock-free signal operations read that word
// after updating the value and call Runtime.WakeSignal only when it is
// non-zero; a watcher increments it before re-reading the value, so with
// sequentially consistent operations on both sides no wake is lost. The
// mirror is written under s.mu and never after s is destroyed, so a freed
// signal's memory is not touched.
func (s *Signal) watch(d int32) {
	s.mu.Lock()
	n := s.waiters.Add(d)
	if !s.dead.Load() {
		atomic.StoreUint32(&s.s.Reserved1, uint32(max(n, 0)))
	}
	s.mu.Unlock()
}

// markDead marks s destroyed under s.mu (see watch), and sets
// amd_signal_t.kind to AMD_SIGNAL_KIND_INVALID so that threads sleeping in
// C (see wakeSleepers) leave.
func (s *Signal) markDead() {
	s.mu.Lock()
	if !s.dead.Load() {
		atomic.StoreInt64((*int64)(&s.s.Kind), int64(abi.AMD_SIGNAL_KIND_INVALID))
	}
	s.dead.Store(true)
	s.mu.Unlock()
}

// Sleepers: threads that block in the kernel rather than on s.ch — the C
// ABI's waits after their spin (C threads cannot block on a Go channel
// without a cgo callback, and the callback's wake-up goes through Go's
// scheduler and its locked-thread hand-offs) and the queue's packet
// processor on its doorbell. They count themselves in
// amd_signal_t.reserved3[0] and sleep in futex(2) on reserved3[1], a wake
// sequence; both words are padding that neither ROCr, HIP nor device code
// use. A sleeper raises the count, reads the sequence, re-reads the value
// and sleeps only if the sequence is unchanged; a waker updates the value
// and then, if the count is non-zero, bumps the sequence and wakes the
// word. With sequentially consistent operations on both sides (Dekker's
// protocol) no wake-up is lost. The C ABI's signal operations do the same
// in C, so a doorbell rung from C wakes the packet processor without
// entering Go.

func (s *Signal) sleepCount() *uint32 { return &s.s.Reserved3[0] }
func (s *Signal) wakeSeq() *uint32    { return &s.s.Reserved3[1] }

// Sleepers returns the number of threads sleeping on s in futex(2) (the
// low half of amd_signal_t.reserved3[0]; see pollwake.go for the high).
func (s *Signal) Sleepers() int { return int(atomic.LoadUint32(s.sleepCount()) & futexSleepers) }

// wakeSleepers wakes the threads sleeping on s in futex(2) and the poll
// sleepers, if any.
func (s *Signal) wakeSleepers() {
	n := atomic.LoadUint32(s.sleepCount())
	if n&futexSleepers != 0 {
		atomic.AddUint32(s.wakeSeq(), 1)
		futexWake(s.wakeSeq())
	}
	if n >= pollSleeper {
		s.closeCh()
	}
}

// sleep blocks the calling thread until ready reports true, s is woken,
// or d passes; it reports whether it was woken (or found ready) before d.
func (s *Signal) sleep(ready func() bool, d time.Duration) bool {
	atomic.AddUint32(s.sleepCount(), 1)
	defer atomic.AddUint32(s.sleepCount(), ^uint32(0))
	seq := atomic.LoadUint32(s.wakeSeq())
	if ready() {
		return true
	}
	return futexWait(s.wakeSeq(), seq, d)
}

// Watchers returns the number of goroutines watching s
// (amd_signal_t.reserved1).
func (s *Signal) Watchers() int { return int(s.waiters.Load()) }

// release and acquire make the detector see what the atomics on the
// signal value order: writes before an update happen before reads after a
// load or wait that observes it.
func (s *Signal) release() {
	if raceEnabled {
		s.hb.Add(1)
	}
}

func (s *Signal) acquire() {
	if raceEnabled {
		s.hb.Load()
	}
}

type signalState struct {
	mu        sync.RWMutex
	byAddr    map[uint64]*Signal
	byEvent   map[uint32]*Signal
	nextEvent uint32
	mailbox   uint64 // the event mailbox word every signal shares

	anyWaiters atomic.Int32
	anyMu      sync.Mutex
	anyCh      chan struct{}

	inflight atomic.Int64 // Wait calls in progress

	h handlerState
}

func (st *signalState) init(r *Runtime) {
	st.byAddr = map[uint64]*Signal{}
	st.byEvent = map[uint32]*Signal{}
	st.anyCh = make(chan struct{})
	reg, err := r.space.Alloc(8, 8, vmem.KindSignal, "event mailbox")
	if err == nil {
		st.mailbox = reg.Base
	}
	st.h.init()
}

// closeAll marks every signal destroyed and wakes every waiter.
func (st *signalState) closeAll() {
	st.mu.Lock()
	sigs := make([]*Signal, 0, len(st.byAddr))
	for _, s := range st.byAddr {
		sigs = append(sigs, s)
	}
	st.mu.Unlock()
	for _, s := range sigs {
		s.markDead()
		s.broadcast()
	}
	st.broadcastAny()
	st.h.stop()
}

// drainWaiters waits (bounded) until no Wait and no sleeper (a C wait,
// see Signal.sleep) touches signal memory.
func (st *signalState) drainWaiters() {
	sleepers := func() bool {
		st.mu.RLock()
		defer st.mu.RUnlock()
		for _, s := range st.byAddr {
			if s.Sleepers() > 0 {
				return true
			}
		}
		return false
	}
	for i := 0; i < 5000 && (st.inflight.Load() > 0 || sleepers()); i++ {
		time.Sleep(time.Millisecond)
	}
}

func (st *signalState) broadcastAny() {
	st.anyMu.Lock()
	close(st.anyCh)
	st.anyCh = make(chan struct{})
	st.anyMu.Unlock()
}

// anyChan returns the channel the next wake of any signal closes.
func (st *signalState) anyChan() <-chan struct{} {
	st.anyMu.Lock()
	defer st.anyMu.Unlock()
	return st.anyCh
}

// CreateSignal is hsa_amd_signal_create (hsa_signal_create with
// attributes 0): a signal with the initial value, the agents that may
// wait on it (nil means all) and hsa_amd_signal_attribute_t bits. Every
// signal except HSA_AMD_SIGNAL_AMD_GPU_ONLY ones gets the shared event
// mailbox and a non-zero event id. IPC signals are not supported.
func (r *Runtime) CreateSignal(initial int64, consumers []*Agent, attributes uint64) (*Signal, error) {
	const op = "CreateSignal"
	if err := r.check(op); err != nil {
		return nil, err
	}
	for _, a := range consumers {
		if a == nil || a.rt != r {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "consumer of another runtime")
		}
	}
	if attributes&^uint64(HSA_AMD_SIGNAL_AMD_GPU_ONLY|HSA_AMD_SIGNAL_IPC) != 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown signal attributes %#x", attributes)
	}
	if attributes&HSA_AMD_SIGNAL_IPC != 0 {
		return nil, notSupported(op, "IPC signals")
	}
	reg, err := r.space.Alloc(abi.AMD_SIGNAL_ALIGN_BYTES, abi.AMD_SIGNAL_ALIGN_BYTES, vmem.KindSignal, "signal")
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "amd_signal_t")
	}
	s := &Signal{rt: r, addr: reg.Base, s: vmem.ViewIn[abi.AMDSignal](reg, reg.Base), consumers: consumers,
		ch: make(chan struct{})}
	s.s.Kind = abi.AMD_SIGNAL_KIND_USER
	atomic.StoreInt64(&s.s.Value, initial)
	st := &r.sig
	st.mu.Lock()
	if attributes&HSA_AMD_SIGNAL_AMD_GPU_ONLY == 0 && st.mailbox != 0 {
		for {
			st.nextEvent++
			if st.nextEvent != 0 && st.byEvent[st.nextEvent] == nil {
				break
			}
		}
		s.eventID = st.nextEvent
		s.s.EventMailboxPtr = st.mailbox
		s.s.EventID = s.eventID
		st.byEvent[s.eventID] = s
	}
	st.byAddr[s.addr] = s
	st.mu.Unlock()
	return s, nil
}

// Signal returns the live signal whose handle is h, or an error with
// HSA_STATUS_ERROR_INVALID_SIGNAL (0, never created, or destroyed).
func (r *Runtime) Signal(h uint64) (*Signal, error) {
	if err := r.check("Signal"); err != nil {
		return nil, err
	}
	r.sig.mu.RLock()
	s := r.sig.byAddr[h]
	r.sig.mu.RUnlock()
	if s == nil {
		return nil, errorf("Signal", HSA_STATUS_ERROR_INVALID_SIGNAL, "no signal with handle %#x", h)
	}
	return s, nil
}

// Destroy is hsa_signal_destroy. Waiters return; later operations on s
// are no-ops that read 0, and its handle becomes invalid.
func (s *Signal) Destroy() error {
	const op = "Signal.Destroy"
	if s == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, "nil signal")
	}
	r := s.rt
	if err := r.check(op); err != nil {
		return err
	}
	st := &r.sig
	st.mu.Lock()
	if st.byAddr[s.addr] != s {
		st.mu.Unlock()
		return errorf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, "signal %#x already destroyed", s.addr)
	}
	delete(st.byAddr, s.addr)
	if s.eventID != 0 {
		delete(st.byEvent, s.eventID)
	}
	s.markDead()
	st.mu.Unlock()
	s.broadcast()
	st.broadcastAny()
	st.h.drop(s)
	// Let waiters that were woken leave before the memory is reused: they
	// check dead after every wake.
	for i := 0; i < 1000 && (s.waiters.Load() > 0 || s.Sleepers() > 0); i++ {
		time.Sleep(50 * time.Microsecond)
	}
	if err := r.space.Free(s.addr); err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, err, "freeing %#x", s.addr)
	}
	return nil
}

// Handle returns the hsa_signal_t handle: the amd_signal_t's address.
func (s *Signal) Handle() uint64 { return s.addr }

// ValueAddr returns the address of the signal's value
// (hsa_amd_signal_value_pointer).
func (s *Signal) ValueAddr() uint64 { return s.addr + 8 }

// EventID returns the signal's event id (0 for GPU-only signals).
func (s *Signal) EventID() uint32 { return s.eventID }

// ABI returns the amd_signal_t itself, for the C ABI's hot paths and for
// profiling timestamps.
func (s *Signal) ABI() *abi.AMDSignal { return s.s }

// Consumers returns the agents given at creation.
func (s *Signal) Consumers() []*Agent { return s.consumers }

// Live reports whether s has not been destroyed.
func (s *Signal) Live() bool { return !s.dead.Load() }

func (s *Signal) String() string { return fmt.Sprintf("signal %#x", s.addr) }

// broadcast wakes s's waiters and sleepers.
func (s *Signal) broadcast() {
	s.closeCh()
	if atomic.LoadUint32(s.sleepCount())&futexSleepers != 0 {
		atomic.AddUint32(s.wakeSeq(), 1)
		futexWake(s.wakeSeq())
	}
}

// closeCh wakes the goroutines waiting on s's channel.
func (s *Signal) closeCh() {
	s.mu.Lock()
	close(s.ch)
	s.ch = make(chan struct{})
	s.mu.Unlock()
}

// wake wakes whoever waits on s: its own waiters, wait-any waiters, async
// handlers, packet processors blocked on barrier packets or sleeping on
// their doorbell, and C threads sleeping in a wait.
func (s *Signal) wake() {
	if s.waiters.Load() > 0 {
		s.broadcast()
		if st := &s.rt.sig; st.anyWaiters.Load() > 0 {
			st.broadcastAny()
		}
		return
	}
	s.wakeSleepers()
}

// Wake wakes the waiters of the signal whose event id is id, as a
// device's s_sendmsg(MSG_INTERRUPT) does; id 0 or unknown wakes every
// signal's waiters.
func (r *Runtime) Wake(id uint32) {
	st := &r.sig
	st.mu.RLock()
	s := st.byEvent[id]
	st.mu.RUnlock()
	if s != nil {
		s.wake()
		return
	}
	r.WakeAll()
}

// WakeAll wakes every waiter of every signal.
func (r *Runtime) WakeAll() {
	st := &r.sig
	st.mu.RLock()
	sigs := make([]*Signal, 0, len(st.byAddr))
	for _, s := range st.byAddr {
		if s.waiters.Load() > 0 || s.Sleepers() > 0 {
			sigs = append(sigs, s)
		}
	}
	st.mu.RUnlock()
	for _, s := range sigs {
		s.broadcast()
	}
	st.broadcastAny()
}

// WakeSignal wakes the waiters of the signal at handle h (the C ABI calls
// it after updating a signal in C).
func (r *Runtime) WakeSignal(h uint64) {
	r.sig.mu.RLock()
	s := r.sig.byAddr[h]
	r.sig.mu.RUnlock()
	if s != nil {
		s.wake()
	}
}

// Interrupt is the emulator's MSG_INTERRUPT hook (emu.Config.OnInterrupt):
// ockl stores the event id to the mailbox just before the message, so the
// last value the wave stored there names the signal; otherwise the low 8
// bits of M0 are all there is, and every waiter is woken.
func (r *Runtime) Interrupt(irq emu.Interrupt) {
	if irq.MailboxAddr == r.sig.mailbox && irq.MailboxAddr != 0 && irq.MailboxValue != 0 && irq.MailboxValue <= math.MaxUint32 {
		r.Wake(uint32(irq.MailboxValue))
		return
	}
	r.WakeAll()
}

// Signal value operations. Each is one sequentially consistent atomic
// operation on amd_signal_t.value, which covers every HSA memory-order
// variant; the updating ones then wake waiters. On a destroyed signal
// they do nothing and return 0.

// Load is hsa_signal_load_{relaxed,scacquire}.
func (s *Signal) Load() int64 {
	if s.dead.Load() {
		return 0
	}
	v := atomic.LoadInt64(&s.s.Value)
	s.acquire()
	return v
}

// Store is hsa_signal_store_{relaxed,screlease}.
func (s *Signal) Store(v int64) {
	if s.dead.Load() {
		return
	}
	s.release()
	atomic.StoreInt64(&s.s.Value, v)
	s.wake()
}

// SilentStore is hsa_signal_silent_store_{relaxed,screlease}: a store that
// wakes nobody (waiters notice it at their next poll).
func (s *Signal) SilentStore(v int64) {
	if s.dead.Load() {
		return
	}
	s.release()
	atomic.StoreInt64(&s.s.Value, v)
}

// Exchange is hsa_signal_exchange_*: it stores v and returns the previous
// value.
func (s *Signal) Exchange(v int64) int64 {
	if s.dead.Load() {
		return 0
	}
	s.release()
	old := atomic.SwapInt64(&s.s.Value, v)
	s.wake()
	return old
}

// CAS is hsa_signal_cas_*: if the value equals expected it becomes v; it
// returns the value observed.
func (s *Signal) CAS(expected, v int64) int64 {
	if s.dead.Load() {
		return 0
	}
	s.release()
	old := s.s.CAS(expected, v)
	if old == expected {
		s.wake()
	}
	return old
}

// Add is hsa_signal_add_*.
func (s *Signal) Add(d int64) {
	if s.dead.Load() {
		return
	}
	s.release()
	atomic.AddInt64(&s.s.Value, d)
	s.wake()
}

// Subtract is hsa_signal_subtract_*.
func (s *Signal) Subtract(d int64) { s.Add(-d) }

// And is hsa_signal_and_*.
func (s *Signal) And(m int64) {
	if s.dead.Load() {
		return
	}
	s.release()
	atomic.AndInt64(&s.s.Value, m)
	s.wake()
}

// Or is hsa_signal_or_*.
func (s *Signal) Or(m int64) {
	if s.dead.Load() {
		return
	}
	s.release()
	atomic.OrInt64(&s.s.Value, m)
	s.wake()
}

// Xor is hsa_signal_xor_*.
func (s *Signal) Xor(m int64) {
	if s.dead.Load() {
		return
	}
	s.release()
	for {
		old := atomic.LoadInt64(&s.s.Value)
		if atomic.CompareAndSwapInt64(&s.s.Value, old, old^m) {
			break
		}
	}
	s.wake()
}

// Wait is hsa_signal_wait_{relaxed,scacquire}: it blocks until the value
// satisfies cond against compare, the timeout passes (WaitForever: never)
// or the signal is destroyed, and returns the last value it read (callers
// re-check the condition, as HSA says). HSA_WAIT_STATE_ACTIVE spins only
// briefly before blocking.
func (s *Signal) Wait(cond Condition, compare int64, timeout time.Duration, state WaitState) int64 {
	if s.dead.Load() {
		return 0
	}
	v := atomic.LoadInt64(&s.s.Value)
	if cond.Holds(v, compare) || timeout <= 0 {
		s.acquire()
		return v
	}
	st := &s.rt.sig
	st.inflight.Add(1)
	defer st.inflight.Add(-1)
	start := time.Now()
	expired := func() (time.Duration, bool) {
		if timeout == WaitForever {
			return WaitForever, false
		}
		left := timeout - time.Since(start)
		return left, left <= 0
	}
	s.watch(1)
	defer s.watch(-1)
	if state == HSA_WAIT_STATE_ACTIVE {
		for time.Since(start) < activeSpin {
			runtime.Gosched()
			if s.dead.Load() {
				return v
			}
			if v = atomic.LoadInt64(&s.s.Value); cond.Holds(v, compare) {
				s.acquire()
				return v
			}
		}
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	poll := pollMin
	for {
		s.mu.Lock()
		ch := s.ch
		s.mu.Unlock()
		if s.dead.Load() {
			return v
		}
		if v = atomic.LoadInt64(&s.s.Value); cond.Holds(v, compare) {
			s.acquire()
			return v
		}
		left, done := expired()
		if done {
			return v
		}
		d := min(poll, left)
		timer.Reset(d)
		select {
		case <-ch:
			poll = pollMin
		case <-timer.C:
			poll = min(2*poll, pollMax)
		}
	}
}

// WaitAny is hsa_amd_signal_wait_any: it blocks until some signal i
// satisfies conds[i] against values[i] or the timeout passes, and returns
// that index and value, or index len(signals) (UINT32_MAX in C) and 0 on
// timeout. A destroyed signal satisfies nothing.
func (r *Runtime) WaitAny(signals []*Signal, conds []Condition, values []int64, timeout time.Duration, state WaitState) (int, int64, error) {
	const op = "WaitAny"
	if err := r.check(op); err != nil {
		return 0, 0, err
	}
	if len(signals) == 0 || len(conds) != len(signals) || len(values) != len(signals) {
		return 0, 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%d signals, %d conditions, %d values", len(signals), len(conds), len(values))
	}
	for i, s := range signals {
		if s == nil || s.rt != r {
			return 0, 0, errorf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, "signal %d is not a signal of this runtime", i)
		}
	}
	st := &r.sig
	check := func() (int, int64, bool) {
		for i, s := range signals {
			if s.dead.Load() {
				continue
			}
			if v := atomic.LoadInt64(&s.s.Value); conds[i].Holds(v, values[i]) {
				s.acquire()
				return i, v, true
			}
		}
		return 0, 0, false
	}
	if i, v, ok := check(); ok || timeout <= 0 {
		if !ok {
			i = len(signals)
		}
		return i, v, nil
	}
	st.inflight.Add(1)
	defer st.inflight.Add(-1)
	st.anyWaiters.Add(1)
	defer st.anyWaiters.Add(-1)
	for _, s := range signals {
		s.watch(1)
		defer s.watch(-1)
	}
	start := time.Now()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	poll := pollMin
	if state == HSA_WAIT_STATE_ACTIVE {
		for time.Since(start) < activeSpin {
			runtime.Gosched()
			if i, v, ok := check(); ok {
				return i, v, nil
			}
		}
	}
	for {
		ch := st.anyChan()
		if i, v, ok := check(); ok {
			return i, v, nil
		}
		if !r.open.Load() {
			return len(signals), 0, errorf(op, HSA_STATUS_ERROR_NOT_INITIALIZED, "runtime shut down while waiting")
		}
		d := poll
		if timeout != WaitForever {
			left := timeout - time.Since(start)
			if left <= 0 {
				return len(signals), 0, nil
			}
			d = min(d, left)
		}
		timer.Reset(d)
		select {
		case <-ch:
			poll = pollMin
		case <-timer.C:
			poll = min(2*poll, pollMax)
		}
	}
}

// SignalGroup is an hsa_signal_group_t: a set of signals waited on
// together.
type SignalGroup struct {
	rt      *Runtime
	signals []*Signal
}

// NewSignalGroup is hsa_signal_group_create.
func (r *Runtime) NewSignalGroup(signals []*Signal, consumers []*Agent) (*SignalGroup, error) {
	const op = "NewSignalGroup"
	if err := r.check(op); err != nil {
		return nil, err
	}
	if len(signals) == 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "no signals")
	}
	seen := map[*Signal]bool{}
	for _, s := range signals {
		if s == nil || s.rt != r || !s.Live() {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "invalid signal in group")
		}
		if seen[s] {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%v appears twice", s)
		}
		seen[s] = true
	}
	return &SignalGroup{rt: r, signals: append([]*Signal(nil), signals...)}, nil
}

// WaitAny is hsa_signal_group_wait_any_{relaxed,scacquire}: it blocks
// until one signal satisfies its condition and returns that signal and
// value.
func (g *SignalGroup) WaitAny(conds []Condition, values []int64, state WaitState) (*Signal, int64, error) {
	i, v, err := g.rt.WaitAny(g.signals, conds, values, WaitForever, state)
	if err != nil {
		return nil, 0, err
	}
	if i >= len(g.signals) {
		return nil, 0, errorf("SignalGroup.WaitAny", HSA_STATUS_ERROR, "no signal satisfied its condition")
	}
	return g.signals[i], v, nil
}

// Signals returns the group's signals.
func (g *SignalGroup) Signals() []*Signal { return g.signals }
