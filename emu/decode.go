package emu

import "errors"

// The decoder hooks. build.go installs the isa-backed implementations; the
// defaults report that no decoder is linked in.
var (
	// decodeOp decodes the instruction at pc into an op.
	decodeOp = func(t *codeTable, pc uint64) (*op, error) {
		return nil, errNoDecoder
	}
	// disasm prints the instruction at the start of b as llvm-objdump does.
	disasm = func(target any, b []byte) string { return "" }
	// instLen returns the length in bytes of the instruction at the start
	// of b, or 0 when it does not decode.
	instLen = func(target any, b []byte) int { return 0 }
	// lookupTarget maps a processor name to the decoder's target.
	lookupTarget = func(name string) (any, error) { return nil, nil }
)

var errNoDecoder = errors.New("emu: no instruction decoder linked in: " + ErrNotSupported.Error())

// haveDecoder reports whether the isa-backed decoder is installed.
func haveDecoder() bool { return decoderInstalled }

var decoderInstalled bool

func isNotSupported(err error) bool { return errors.Is(err, ErrNotSupported) }
