package hsa

import (
	"sync"
	"time"
)

// AsyncHandler is the callback of hsa_amd_signal_async_handler: it gets
// the signal's value and returns true to stay registered (the C callback's
// bool return).
type AsyncHandler func(value int64) bool

type asyncHandler struct {
	sig   *Signal
	cond  Condition
	value int64
	fn    AsyncHandler
}

type handlerState struct {
	mu      sync.Mutex
	list    []*asyncHandler
	kick    chan struct{}
	stopCh  chan struct{}
	done    chan struct{}
	once    sync.Once
	running bool     // the goroutine was started
	funcs   []func() // AsyncFunction calls not yet run
}

func (h *handlerState) init() {
	h.kick = make(chan struct{}, 1)
	h.stopCh = make(chan struct{})
	h.done = make(chan struct{})
}

func (h *handlerState) stop() {
	h.once.Do(func() { close(h.stopCh) })
	if !h.running {
		return
	}
	// A handler may block; shutdown waits for it only so long.
	select {
	case <-h.done:
	case <-time.After(2 * time.Second):
	}
}

// SetAsyncHandler is hsa_amd_signal_async_handler: fn runs when s's value
// satisfies cond against value. Handlers are level-triggered (one whose
// condition already holds runs at once), run serially on one dedicated
// goroutine, and are unregistered before they run: returning true
// registers them again with the same condition. A handler may store to or
// destroy signals, register handlers, and block (delaying the others).
// Handlers of destroyed signals are dropped.
func (r *Runtime) SetAsyncHandler(s *Signal, cond Condition, value int64, fn AsyncHandler) error {
	const op = "SetAsyncHandler"
	if err := r.check(op); err != nil {
		return err
	}
	if s == nil || s.rt != r || !s.Live() {
		return errorf(op, HSA_STATUS_ERROR_INVALID_SIGNAL, "invalid signal")
	}
	if fn == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "handler is nil")
	}
	if cond > HSA_SIGNAL_CONDITION_GTE {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "condition %d", cond)
	}
	h := &r.sig.h
	s.watch(1) // stores to s wake the handler goroutine, from Go or C
	h.mu.Lock()
	h.list = append(h.list, &asyncHandler{s, cond, value, fn})
	h.mu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
	return nil
}

func (r *Runtime) startHandlers() {
	st := &r.sig
	h := &st.h
	h.running = true
	go func() {
		defer close(h.done)
		timer := time.NewTimer(time.Hour)
		defer timer.Stop()
		poll := pollMin
		for {
			// Signal stores wake this goroutine only while it has
			// handlers: otherwise they would pay for a broadcast each.
			h.mu.Lock()
			waiting := len(h.list) > 0
			h.mu.Unlock()
			if waiting {
				st.anyWaiters.Add(1)
			}
			ch := st.anyChan()
			fired, stopped := h.runOnce()
			if stopped {
				if waiting {
					st.anyWaiters.Add(-1)
				}
				return
			}
			if fired {
				if waiting {
					st.anyWaiters.Add(-1)
				}
				poll = pollMin
				continue
			}
			var tick <-chan time.Time
			if waiting {
				timer.Reset(poll)
				tick = timer.C
			}
			select {
			case <-h.stopCh:
			case <-ch:
				poll = pollMin
			case <-h.kick:
				poll = pollMin
			case <-tick:
				poll = min(2*poll, pollMax)
			}
			if waiting {
				st.anyWaiters.Add(-1)
				if !timer.Stop() {
					select {
					case <-timer.C:
					default:
					}
				}
			}
			select {
			case <-h.stopCh:
				return
			default:
			}
		}
	}()
}

// runOnce examines the registered handlers and runs the first whose
// condition holds (unregistering it first; it is registered again if it
// returns true). It reports whether one ran and whether shutdown began.
func (h *handlerState) runOnce() (fired, stopped bool) {
	h.mu.Lock()
	if len(h.funcs) > 0 {
		fn := h.funcs[0]
		h.funcs = h.funcs[1:]
		h.mu.Unlock()
		fn()
		return true, false
	}
	list := h.list
	h.list = nil
	h.mu.Unlock()
	var keep []*asyncHandler
	for i, ah := range list {
		select {
		case <-h.stopCh:
			return false, true
		default:
		}
		if !ah.sig.Live() {
			ah.sig.watch(-1)
			continue // destroyed: dropped
		}
		v := ah.sig.Load()
		if !ah.cond.Holds(v, ah.value) {
			keep = append(keep, ah)
			continue
		}
		// Put back the handlers not run before calling out, so a handler
		// that registers others, or blocks, loses none.
		h.mu.Lock()
		h.list = append(append(h.list, keep...), list[i+1:]...)
		h.mu.Unlock()
		ah.sig.watch(-1)
		if ah.fn(v) && ah.sig.Live() {
			ah.sig.watch(1)
			h.mu.Lock()
			h.list = append(h.list, ah)
			h.mu.Unlock()
		}
		return true, false
	}
	h.mu.Lock()
	h.list = append(h.list, keep...)
	h.mu.Unlock()
	return false, false
}

// AsyncFunction is hsa_amd_async_function: fn runs once on the async
// handler goroutine, serially with the signal handlers.
func (r *Runtime) AsyncFunction(fn func()) error {
	const op = "AsyncFunction"
	if err := r.check(op); err != nil {
		return err
	}
	if fn == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "nil function")
	}
	h := &r.sig.h
	h.mu.Lock()
	h.funcs = append(h.funcs, fn)
	h.mu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
	return nil
}

// drop unregisters the handlers of a destroyed signal (so Destroy does not
// wait for the handler goroutine, which may be the caller).
func (h *handlerState) drop(s *Signal) {
	h.mu.Lock()
	kept := h.list[:0:0]
	n := 0
	for _, ah := range h.list {
		if ah.sig == s {
			n++
			continue
		}
		kept = append(kept, ah)
	}
	h.list = kept
	h.mu.Unlock()
	if n > 0 {
		s.watch(-int32(n))
	}
}
