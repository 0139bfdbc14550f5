package bench

import (
	"context"
	"errors"
)

// ErrUnavailable is returned (wrapped) when PoCL cannot be used: no cgo,
// no OpenCL ICD loader or no PoCL platform.
var ErrUnavailable = errors.New("bench: PoCL is not available")

// Side is one way of running the suite's kernels: PoCL or rocpu.
type Side interface {
	Name() string
	// Prepare compiles or loads b's kernels and creates w's buffers.
	Prepare(b *Benchmark, w *Workload) (Instance, error)
	Close() error
}

// Instance is a workload ready to run on one side.
type Instance interface {
	// Reset restores every buffer to its initial contents (not timed).
	Reset() error
	// Run makes the workload's dispatches in order and waits for the last
	// (the timed part).
	Run(ctx context.Context) error
	// Read returns buffer i's current contents, which may be the buffer
	// itself: valid until the next Reset, Run or Close.
	Read(i int) ([]byte, error)
	Close() error
}
