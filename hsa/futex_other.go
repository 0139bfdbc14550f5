//go:build !linux

package hsa

import (
	"errors"
	"time"
)

// haveFutex is false: packet processors block on channels and the C ABI's
// waits enter Go.
const haveFutex = false

func futexWait(addr *uint32, val uint32, d time.Duration) bool { return false }

func futexWake(addr *uint32) {}

func osYield() {}

func newEventFD() (int, error) { return -1, errors.New("no eventfd") }
