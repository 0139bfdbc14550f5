package hsa

import (
	"os"
	"sync"
	"sync/atomic"
)

// Poll sleepers: packet processors that wait for a doorbell C code rings
// (Config.CDoorbells) without holding one of Go's Ps.
//
// A goroutine sleeping in futex(2) is, to Go, in an ordinary system call:
// it keeps its P until sysmon takes it back, which can be 10 ms later. An
// idle queue's processor sleeping that way took a P from the workers of a
// dispatch on another queue: a 7 ms HIP kernel launched 40 times, each
// followed by hipStreamSynchronize, in turn on two streams ran 40-65%
// slower than on one stream (two cores). A poll sleeper instead waits on the doorbell's Go
// channel and counts itself in the high half of amd_signal_t.reserved3[0]
// (futex sleepers count in the low half). C stores that see a poll sleeper
// write to a process-wide eventfd (rocpu_wake_fd in capi); one goroutine
// reads it through Go's netpoller, which holds no P while it waits, and
// wakes the channels of the signals that have poll sleepers. Go stores
// wake those channels directly (Signal.wakeSleepers). The counting follows
// the same Dekker protocol as the futex sleepers, so no wake-up is lost.

// pollSleeper is the unit of poll sleepers in amd_signal_t.reserved3[0].
const pollSleeper = 1 << 16

// futexSleepers masks the futex sleepers' count in reserved3[0].
const futexSleepers = pollSleeper - 1

// wakePoll is the process-wide eventfd and the signals with poll sleepers.
// The eventfd is never closed: a C store racing with a runtime's shutdown
// may still write to it, and a stale descriptor number must not name some
// other file by then.
var wakePoll struct {
	once    sync.Once
	fd      int // -1: no eventfd (not Linux, or it could not be made)
	mu      sync.Mutex
	signals map[*Signal]int
}

// WakeFD returns the eventfd C stores write to when a signal has poll
// sleepers, creating it (and the goroutine reading it) on first use; -1
// when there is none, and then packet processors sleep in futex(2).
func WakeFD() int {
	wakePoll.once.Do(func() {
		wakePoll.fd = -1
		wakePoll.signals = map[*Signal]int{}
		fd, err := newEventFD()
		if err != nil {
			return
		}
		f := os.NewFile(uintptr(fd), "rocpu-wake")
		if f == nil {
			return
		}
		wakePoll.fd = fd
		go readWakes(f)
	})
	return wakePoll.fd
}

// readWakes wakes the poll sleepers each time the eventfd is written. The
// write does not say which doorbell was rung, so every idle processor
// re-checks its queue (a handful: HIP's queues per device) and the ones
// with nothing to do wait again.
func readWakes(f *os.File) {
	var b [8]byte
	for {
		if _, err := f.Read(b[:]); err != nil {
			return
		}
		wakePoll.mu.Lock()
		for s := range wakePoll.signals {
			s.closeCh()
		}
		wakePoll.mu.Unlock()
	}
}

// pollBegin makes the caller a poll sleeper on s and returns the channel
// to wait on; the caller must re-check its condition after pollBegin and
// call pollEnd when it stops waiting.
func (s *Signal) pollBegin() <-chan struct{} {
	wakePoll.mu.Lock()
	wakePoll.signals[s]++
	wakePoll.mu.Unlock()
	atomic.AddUint32(s.sleepCount(), pollSleeper)
	s.mu.Lock()
	ch := s.ch
	s.mu.Unlock()
	return ch
}

// pollEnd undoes pollBegin.
func (s *Signal) pollEnd() {
	atomic.AddUint32(s.sleepCount(), ^uint32(pollSleeper-1))
	wakePoll.mu.Lock()
	if wakePoll.signals[s]--; wakePoll.signals[s] <= 0 {
		delete(wakePoll.signals, s)
	}
	wakePoll.mu.Unlock()
}

// PollSleepers returns the number of goroutines waiting on s as poll
// sleepers (the high half of amd_signal_t.reserved3[0]).
func (s *Signal) PollSleepers() int { return int(atomic.LoadUint32(s.sleepCount()) / pollSleeper) }
