package hsa

import (
	"syscall"
	"time"
	"unsafe"
)

// haveFutex reports whether sleepers block in futex(2) on amd_signal_t's
// wake sequence (see Signal.wakeSleepers).
const haveFutex = true

const (
	_FUTEX_WAIT_PRIVATE = 128
	_FUTEX_WAKE_PRIVATE = 129
)

// futexWait blocks while *addr == val, at most d, or until futexWake. It
// reports whether it returned before the timeout (woken, or *addr had
// already changed).
func futexWait(addr *uint32, val uint32, d time.Duration) bool {
	ts := syscall.NsecToTimespec(d.Nanoseconds())
	_, _, e := syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), _FUTEX_WAIT_PRIVATE,
		uintptr(val), uintptr(unsafe.Pointer(&ts)), 0, 0)
	return e != syscall.ETIMEDOUT
}

// futexWake wakes every thread blocked in futexWait on addr.
func futexWake(addr *uint32) {
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), _FUTEX_WAKE_PRIVATE, 1<<31-1, 0, 0, 0)
}

// osYield gives the thread's CPU to another runnable thread, if any
// (sched_yield(2)). Spinning loops call it so that a thread they wait for
// that shares their CPU (on a loaded machine, the C thread that will ring
// the doorbell) gets to run.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }

// newEventFD makes a non-blocking eventfd(2) (for WakeFD), so that reading
// it through an *os.File goes through Go's netpoller.
func newEventFD() (int, error) {
	const efdCloexec, efdNonblock = 0x80000, 0x800
	fd, _, e := syscall.RawSyscall(syscall.SYS_EVENTFD2, 0, efdCloexec|efdNonblock, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}
