package hsa

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/abi"
)

func TestSignalCreate(t *testing.T) {
	r, _ := newRT(t)
	s, err := r.CreateSignal(42, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handle()
	if h%64 != 0 || r.Space().Find(h) == nil {
		t.Fatalf("handle %#x is not a 64-byte aligned device address", h)
	}
	a := s.ABI()
	if a.Kind != abi.AMD_SIGNAL_KIND_USER || a.Value != 42 || a.EventMailboxPtr == 0 || a.EventID == 0 || a.EventID != s.EventID() {
		t.Errorf("amd_signal_t %+v", *a)
	}
	if r.Space().Find(a.EventMailboxPtr) == nil {
		t.Error("event mailbox is not device-visible memory")
	}
	if s.ValueAddr() != h+8 {
		t.Errorf("value address %#x", s.ValueAddr())
	}
	s2, _ := r.CreateSignal(0, []*Agent{r.GPUAgents()[0]}, 0)
	if s2.EventID() == s.EventID() || s2.Handle() == h {
		t.Error("two signals share an event id or handle")
	}
	gpuOnly, err := r.CreateSignal(1, nil, HSA_AMD_SIGNAL_AMD_GPU_ONLY)
	if err != nil {
		t.Fatal(err)
	}
	if gpuOnly.ABI().EventMailboxPtr != 0 || gpuOnly.EventID() != 0 {
		t.Error("GPU-only signal has an event mailbox")
	}
	_, err = r.CreateSignal(0, nil, HSA_AMD_SIGNAL_IPC)
	wantStatus(t, err, HSA_STATUS_ERROR)
	if !errors.Is(err, ErrNotSupported) {
		t.Errorf("IPC signal error %v does not wrap ErrNotSupported", err)
	}
	_, err = r.CreateSignal(0, nil, 8)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	other, _ := newRT(t)
	_, err = r.CreateSignal(0, []*Agent{other.CPUAgent()}, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)

	if got, err := r.Signal(h); got != s || err != nil {
		t.Errorf("Signal(handle) = %v, %v", got, err)
	}
	wantStatus(t, s.Destroy(), HSA_STATUS_SUCCESS)
	_, err = r.Signal(h)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_SIGNAL)
	_, err = r.Signal(0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_SIGNAL)
	wantStatus(t, s.Destroy(), HSA_STATUS_ERROR_INVALID_SIGNAL)
	// Operations on a destroyed signal are harmless no-ops.
	s.Store(5)
	s.Add(1)
	if v := s.Load(); v != 0 {
		t.Errorf("destroyed signal loads %d", v)
	}
	if v := s.Wait(HSA_SIGNAL_CONDITION_EQ, 99, WaitForever, HSA_WAIT_STATE_BLOCKED); v != 0 {
		t.Errorf("wait on destroyed signal returned %d", v)
	}
}

func TestSignalOps(t *testing.T) {
	r, _ := newRT(t)
	s, _ := r.CreateSignal(10, nil, 0)
	s.Store(0b1100)
	s.And(0b0110)
	if v := s.Load(); v != 0b0100 {
		t.Fatalf("and: %b", v)
	}
	s.Or(0b0011)
	if v := s.Load(); v != 0b0111 {
		t.Fatalf("or: %b", v)
	}
	s.Xor(0b0101)
	if v := s.Load(); v != 0b0010 {
		t.Fatalf("xor: %b", v)
	}
	s.Add(40)
	s.Subtract(2)
	if v := s.Load(); v != 40 {
		t.Fatalf("add/sub: %d", v)
	}
	if old := s.Exchange(-7); old != 40 || s.Load() != -7 {
		t.Fatalf("exchange: old %d new %d", old, s.Load())
	}
	if old := s.CAS(5, 6); old != -7 || s.Load() != -7 {
		t.Fatalf("failed CAS: old %d new %d", old, s.Load())
	}
	if old := s.CAS(-7, 6); old != -7 || s.Load() != 6 {
		t.Fatalf("CAS: old %d new %d", old, s.Load())
	}
	s.SilentStore(9)
	if v := s.Load(); v != 9 {
		t.Fatalf("silent store: %d", v)
	}
	for _, c := range []struct {
		c    Condition
		v, x int64
		want bool
	}{
		{HSA_SIGNAL_CONDITION_EQ, 1, 1, true}, {HSA_SIGNAL_CONDITION_EQ, 1, 2, false},
		{HSA_SIGNAL_CONDITION_NE, 1, 2, true}, {HSA_SIGNAL_CONDITION_NE, 2, 2, false},
		{HSA_SIGNAL_CONDITION_LT, 1, 2, true}, {HSA_SIGNAL_CONDITION_LT, 2, 2, false},
		{HSA_SIGNAL_CONDITION_GTE, 2, 2, true}, {HSA_SIGNAL_CONDITION_GTE, 1, 2, false},
		{Condition(4), 1, 1, false},
	} {
		if got := c.c.Holds(c.v, c.x); got != c.want {
			t.Errorf("%d.Holds(%d, %d) = %v", c.c, c.v, c.x, got)
		}
	}
}

func TestSignalWait(t *testing.T) {
	r, _ := newRT(t)
	s, _ := r.CreateSignal(1, nil, 0)
	// Already satisfied, and a zero timeout, return at once.
	if v := s.Wait(HSA_SIGNAL_CONDITION_GTE, 1, WaitForever, HSA_WAIT_STATE_BLOCKED); v != 1 {
		t.Fatalf("satisfied wait returned %d", v)
	}
	if v := s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, 0, HSA_WAIT_STATE_BLOCKED); v != 1 {
		t.Fatalf("zero-timeout wait returned %d", v)
	}
	start := time.Now()
	if v := s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, 20*time.Millisecond, HSA_WAIT_STATE_ACTIVE); v != 1 {
		t.Fatalf("timed-out wait returned %d", v)
	}
	if d := time.Since(start); d < 20*time.Millisecond || d > 2*time.Second {
		t.Fatalf("20ms timeout took %v", d)
	}
	for _, state := range []WaitState{HSA_WAIT_STATE_BLOCKED, HSA_WAIT_STATE_ACTIVE} {
		s.Store(1)
		done := make(chan int64)
		go func() { done <- s.Wait(HSA_SIGNAL_CONDITION_LT, 1, WaitForever, state) }()
		time.Sleep(5 * time.Millisecond)
		s.Subtract(1)
		select {
		case v := <-done:
			if v != 0 {
				t.Fatalf("woken wait returned %d", v)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("store did not wake the waiter")
		}
	}
	// A silent store wakes nobody; the polling fallback still sees it.
	s.Store(1)
	done := make(chan int64)
	go func() { done <- s.Wait(HSA_SIGNAL_CONDITION_EQ, 3, WaitForever, HSA_WAIT_STATE_BLOCKED) }()
	time.Sleep(5 * time.Millisecond)
	s.SilentStore(3)
	select {
	case v := <-done:
		if v != 3 {
			t.Fatalf("got %d", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("polling fallback missed a silent store")
	}
}

// TestSignalWakeFromDevice stores to the signal as ockl does (value, then
// the event id to the mailbox, then s_sendmsg) and delivers the interrupt.
func TestSignalWakeFromDevice(t *testing.T) {
	r, _ := newRT(t)
	s, _ := r.CreateSignal(1, nil, 0)
	other, _ := r.CreateSignal(1, nil, 0)
	woke := make(chan int64, 1)
	go func() { woke <- s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, WaitForever, HSA_WAIT_STATE_BLOCKED) }()
	for s.waiters.Load() == 0 {
		time.Sleep(100 * time.Microsecond)
	}
	a := s.ABI()
	atomic.StoreInt64(&a.Value, 0) // the device's store: no wake by itself
	atomic.StoreUint64(r.Space().Find(a.EventMailboxPtr).U64(a.EventMailboxPtr), uint64(a.EventID))
	// Wrong mailbox word: wakes everyone; right one: wakes s.
	r.Interrupt(emu.Interrupt{M0: a.EventID & 0xFF, MailboxAddr: a.EventMailboxPtr, MailboxValue: uint64(a.EventID)})
	select {
	case v := <-woke:
		if v != 0 {
			t.Fatalf("got %d", v)
		}
	case <-time.After(pollMin): // faster than the polling fallback would be
		select {
		case <-woke:
		case <-time.After(5 * time.Second):
			t.Fatal("interrupt did not wake the waiter")
		}
	}
	_ = other
	// Wake with an unknown id wakes all without crashing.
	r.Wake(0xFFFFFF)
	r.Interrupt(emu.Interrupt{})
	r.WakeSignal(12345)
}

func TestManyWaiters(t *testing.T) {
	r, _ := newRT(t)
	s, _ := r.CreateSignal(1, nil, 0)
	const n = 32
	var wg sync.WaitGroup
	var got atomic.Int64
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			state := HSA_WAIT_STATE_BLOCKED
			if i%2 == 0 {
				state = HSA_WAIT_STATE_ACTIVE
			}
			if s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, WaitForever, state) == 0 {
				got.Add(1)
			}
		}(i)
	}
	time.Sleep(10 * time.Millisecond)
	s.Store(0)
	wg.Wait()
	if got.Load() != n {
		t.Fatalf("%d of %d waiters saw 0", got.Load(), n)
	}
}

func TestWaitAny(t *testing.T) {
	r, _ := newRT(t)
	a, _ := r.CreateSignal(1, nil, 0)
	b, _ := r.CreateSignal(1, nil, 0)
	conds := []Condition{HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ}
	vals := []int64{0, 0}
	i, v, err := r.WaitAny([]*Signal{a, b}, conds, vals, 10*time.Millisecond, HSA_WAIT_STATE_BLOCKED)
	if err != nil || i != 2 || v != 0 {
		t.Fatalf("timed-out WaitAny = %d, %d, %v", i, v, err)
	}
	go func() {
		time.Sleep(5 * time.Millisecond)
		b.Store(0)
	}()
	i, v, err = r.WaitAny([]*Signal{a, b}, conds, vals, WaitForever, HSA_WAIT_STATE_ACTIVE)
	if err != nil || i != 1 || v != 0 {
		t.Fatalf("WaitAny = %d, %d, %v", i, v, err)
	}
	_, _, err = r.WaitAny([]*Signal{a}, conds, vals, 0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, _, err = r.WaitAny([]*Signal{a, nil}, conds, vals, 0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_SIGNAL)

	g, err := r.NewSignalGroup([]*Signal{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, v, err := g.WaitAny(conds, vals, HSA_WAIT_STATE_BLOCKED)
	if s != b || v != 0 || err != nil {
		t.Fatalf("group WaitAny = %v, %d, %v", s, v, err)
	}
	_, err = r.NewSignalGroup([]*Signal{a, a}, nil)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.NewSignalGroup(nil, nil)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

func TestAsyncHandlers(t *testing.T) {
	r, _ := newRT(t)
	s, _ := r.CreateSignal(0, nil, 0)
	// Level-triggered: the condition already holds, so it fires at once.
	fired := make(chan int64, 10)
	wantStatus(t, r.SetAsyncHandler(s, HSA_SIGNAL_CONDITION_EQ, 0, func(v int64) bool {
		fired <- v
		return false
	}), HSA_STATUS_SUCCESS)
	select {
	case v := <-fired:
		if v != 0 {
			t.Fatalf("handler got %d", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("level-triggered handler did not fire")
	}

	// Re-registering through the return value: fires once per increment
	// until the value reaches 3.
	var calls atomic.Int32
	var running atomic.Int32
	done := make(chan struct{})
	r.SetAsyncHandler(s, HSA_SIGNAL_CONDITION_GTE, 1, func(v int64) bool {
		if running.Add(1) != 1 {
			t.Error("handlers ran concurrently")
		}
		defer running.Add(-1)
		calls.Add(1)
		if v >= 3 {
			close(done)
			return false
		}
		s.Store(v + 1) // handlers may store to signals
		return true
	})
	s.Store(1)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("re-registering handler stopped after %d calls", calls.Load())
	}
	if calls.Load() != 3 {
		t.Errorf("%d calls, want 3", calls.Load())
	}

	// A handler may destroy its signal and block.
	d, _ := r.CreateSignal(5, nil, 0)
	destroyed := make(chan error, 1)
	r.SetAsyncHandler(d, HSA_SIGNAL_CONDITION_EQ, 5, func(int64) bool {
		time.Sleep(2 * time.Millisecond)
		destroyed <- d.Destroy()
		return true // ignored: the signal is gone
	})
	if err := <-destroyed; err != nil {
		t.Fatal(err)
	}

	wantStatus(t, r.SetAsyncHandler(d, HSA_SIGNAL_CONDITION_EQ, 0, func(int64) bool { return false }), HSA_STATUS_ERROR_INVALID_SIGNAL)
	wantStatus(t, r.SetAsyncHandler(s, HSA_SIGNAL_CONDITION_EQ, 0, nil), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.SetAsyncHandler(s, Condition(9), 0, func(int64) bool { return false }), HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

// TestHandlersWhileDestroying races handler registration and firing with
// signal destruction (run with -race).
func TestHandlersWhileDestroying(t *testing.T) {
	r, _ := newRT(t)
	var wg sync.WaitGroup
	var fired atomic.Int32
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				s, err := r.CreateSignal(1, nil, 0)
				if err != nil {
					t.Error(err)
					return
				}
				r.SetAsyncHandler(s, HSA_SIGNAL_CONDITION_EQ, 0, func(int64) bool { fired.Add(1); return false })
				if i%2 == 0 {
					s.Store(0)
				}
				if err := s.Destroy(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d handlers fired before their signals were destroyed", fired.Load())
}

func TestCloseWakesWaiters(t *testing.T) {
	r, err := New(Config{NewDevice: func(DeviceConfig) (Device, error) { return &fakeDevice{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.CreateSignal(1, nil, 0)
	r.SetAsyncHandler(s, HSA_SIGNAL_CONDITION_EQ, 0, func(int64) bool { return true })
	done := make(chan struct{})
	go func() {
		s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, WaitForever, HSA_WAIT_STATE_BLOCKED)
		close(done)
	}()
	time.Sleep(5 * time.Millisecond)
	r.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close left a waiter blocked")
	}
	_, err = r.CreateSignal(0, nil, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_NOT_INITIALIZED)
}

// TestWatchersMirror: amd_signal_t.reserved1 counts the goroutines watching
// a signal (the C ABI's "call Go to wake" test).
func TestWatchersMirror(t *testing.T) {
	r, _ := newRT(t)
	s, _ := r.CreateSignal(1, nil, 0)
	reserved := func() uint32 { return atomic.LoadUint32(&s.ABI().Reserved1) }
	if reserved() != 0 {
		t.Fatalf("new signal reserved1 = %d", reserved())
	}
	done := make(chan struct{})
	go func() {
		s.Wait(HSA_SIGNAL_CONDITION_EQ, 0, WaitForever, HSA_WAIT_STATE_BLOCKED)
		close(done)
	}()
	for reserved() != 1 {
		time.Sleep(50 * time.Microsecond)
	}
	r.SetAsyncHandler(s, HSA_SIGNAL_CONDITION_EQ, 5, func(int64) bool { return false })
	if reserved() != 2 || s.Watchers() != 2 {
		t.Errorf("with a waiter and a handler reserved1 = %d", reserved())
	}
	// A C-side store: value updated directly, then the wake call the
	// non-zero reserved1 asks for.
	atomic.StoreInt64(&s.ABI().Value, 0)
	r.WakeSignal(s.Handle())
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("WakeSignal did not wake the waiter")
	}
	for reserved() != 1 {
		time.Sleep(50 * time.Microsecond)
	}
	s.Store(5) // fires the handler, which unregisters
	for reserved() != 0 {
		time.Sleep(50 * time.Microsecond)
	}
}

// TestDestroyInsideHandler: a handler that destroys another signal with a
// registered handler does not wait for the handler goroutine (itself).
func TestDestroyInsideHandler(t *testing.T) {
	r, _ := newRT(t)
	a, _ := r.CreateSignal(0, nil, 0)
	b, _ := r.CreateSignal(1, nil, 0)
	r.SetAsyncHandler(b, HSA_SIGNAL_CONDITION_EQ, 0, func(int64) bool { t.Error("handler of a destroyed signal ran"); return false })
	took := make(chan time.Duration, 1)
	r.SetAsyncHandler(a, HSA_SIGNAL_CONDITION_EQ, 0, func(int64) bool {
		start := time.Now()
		if err := b.Destroy(); err != nil {
			t.Error(err)
		}
		took <- time.Since(start)
		return false
	})
	select {
	case d := <-took:
		if d > 40*time.Millisecond {
			t.Errorf("Destroy inside a handler took %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("handler did not run")
	}
}
