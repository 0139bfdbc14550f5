package codeobject

import (
	"errors"
	"fmt"
)

// FormatError reports malformed input: Off is the byte offset (from the
// start of the data being parsed: the file, the note descriptor or the
// bundle) of the field that is wrong.
type FormatError struct {
	Off int64
	Msg string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("codeobject: %s (at offset %#x)", e.Msg, e.Off)
}

func formatErr(off int64, format string, args ...any) *FormatError {
	return &FormatError{Off: off, Msg: fmt.Sprintf(format, args...)}
}

// ErrNotSupported is wrapped by every error about input that is well formed
// but uses something this package does not implement (r600's ELFCLASS32,
// an unknown bundle compression method, ...).
var ErrNotSupported = errors.New("not supported")

func notSupported(format string, args ...any) error {
	return fmt.Errorf("codeobject: %s: %w", fmt.Sprintf(format, args...), ErrNotSupported)
}
