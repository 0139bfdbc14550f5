package emu

import "errors"

// decodeOp decodes the instruction at pc into an op. It is replaced by the
// isa-backed decoder (build.go).
var decodeOp = func(t *codeTable, pc uint64) (*op, error) {
	return nil, errors.New("no decoder")
}

func isNotSupported(err error) bool { return errors.Is(err, ErrNotSupported) }

// disasm prints the instruction at the start of b as llvm-objdump does.
var disasm = func(b []byte) string { return "" }
