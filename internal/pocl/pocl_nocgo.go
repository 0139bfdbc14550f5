//go:build !cgo

package pocl

import "fmt"

func execute(r *Run, opts string) (*Result, error) {
	return nil, fmt.Errorf("%w: built without cgo", ErrUnavailable)
}
