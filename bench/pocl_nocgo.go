//go:build !cgo

package bench

import "fmt"

// PoCL runs workloads natively on PoCL; without cgo it is unavailable.
type PoCL struct{}

// PoCLOptions are the clBuildProgram options.
const PoCLOptions = "-cl-std=CL3.0"

// NewPoCL returns an error wrapping ErrUnavailable: built without cgo.
func NewPoCL(threads int) (*PoCL, error) {
	return nil, fmt.Errorf("%w: built without cgo", ErrUnavailable)
}

// NewPoCLOne returns an error wrapping ErrUnavailable: built without cgo.
func NewPoCLOne() (*PoCL, error) {
	return nil, fmt.Errorf("%w: built without cgo", ErrUnavailable)
}

func (*PoCL) ComputeUnits() int { return 0 }
func (*PoCL) Name() string      { return "pocl" }
func (*PoCL) Device() string    { return "" }
func (*PoCL) Close() error      { return nil }

func (*PoCL) Prepare(b *Benchmark, w *Workload) (Instance, error) {
	return nil, fmt.Errorf("%w: built without cgo", ErrUnavailable)
}
