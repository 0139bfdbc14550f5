package emu

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotSupported is wrapped by errors about features the engine does not
// implement (unimplemented instructions, unsupported descriptor settings).
var ErrNotSupported = errors.New("not supported")

// FaultKind classifies a Fault.
type FaultKind int

// Fault kinds. MemoryViolation corresponds to
// HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, Exception to
// HSA_STATUS_ERROR_EXCEPTION (s_trap 2), IllegalInstruction to
// HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION.
const (
	FaultMemory        FaultKind = iota + 1 // access outside every region, or store to read-only memory
	FaultMisaligned                         // misaligned atomic
	FaultException                          // s_trap 2 (abort/assert)
	FaultUnimplemented                      // an instruction the engine does not implement
	FaultIllegal                            // undecodable instruction or register outside the allocated file
	FaultBudget                             // instruction budget exhausted
	FaultCanceled                           // context canceled
	FaultSetup                              // the dispatch could not be set up
	FaultDeadlock                           // every wave waits at a GWS barrier or semaphore no wave can open
)

var faultKindNames = [...]string{
	FaultMemory:        "memory violation",
	FaultMisaligned:    "misaligned atomic",
	FaultException:     "exception (s_trap)",
	FaultUnimplemented: "unimplemented instruction",
	FaultIllegal:       "illegal instruction",
	FaultBudget:        "instruction budget exhausted",
	FaultCanceled:      "canceled",
	FaultSetup:         "dispatch setup",
	FaultDeadlock:      "deadlock",
}

// String returns a short description of the kind.
func (k FaultKind) String() string {
	if k > 0 && int(k) < len(faultKindNames) {
		return faultKindNames[k]
	}
	return fmt.Sprintf("FaultKind(%d)", int(k))
}

// Fault is the error Device.Dispatch returns when a kernel fails, as a GPU
// reports a page fault or an exception: which kernel, where and in which
// wave and lane, at which address, executing which instruction. The device
// stays usable after a fault.
type Fault struct {
	Kind      FaultKind
	Kernel    string    // kernel name from the Dispatch, if given
	PC        uint64    // address of the faulting instruction
	Workgroup [3]uint32 // workgroup id of the faulting wave
	Wave      int       // wave index within its workgroup; -1 if none
	Lane      int       // faulting lane; -1 if not lane-specific
	Address   uint64    // faulting memory address, if any
	Inst      string    // the instruction as llvm-objdump prints it, if known
	Detail    string    // further explanation
	WavePCs   []WavePC  // for budget and cancellation faults: every live wave's PC
	err       error     // wrapped cause (e.g. ErrNotSupported)
}

// WavePC locates one live wave when a dispatch is stopped.
type WavePC struct {
	Workgroup [3]uint32
	Wave      int
	PC        uint64
	Spinning  bool // the wave was looping on a backward branch when stopped
	// WaitGWS is set when the wave was waiting at GWS resource
	// GWSResource (ds_gws_barrier or ds_gws_sema_p).
	WaitGWS     bool
	GWSResource int
}

// Error formats the fault on one line (plus one line per listed wave).
func (f *Fault) Error() string {
	var b strings.Builder
	b.WriteString("emu: ")
	b.WriteString(f.Kind.String())
	if f.Kernel != "" {
		fmt.Fprintf(&b, " in kernel %s", f.Kernel)
	}
	if f.Wave >= 0 {
		fmt.Fprintf(&b, " at pc 0x%x (workgroup %d,%d,%d wave %d", f.PC, f.Workgroup[0], f.Workgroup[1], f.Workgroup[2], f.Wave)
		if f.Lane >= 0 {
			fmt.Fprintf(&b, " lane %d", f.Lane)
		}
		b.WriteString(")")
	}
	if f.Kind == FaultMemory || f.Kind == FaultMisaligned {
		fmt.Fprintf(&b, " address 0x%x", f.Address)
	}
	if f.Inst != "" {
		fmt.Fprintf(&b, ": %s", f.Inst)
	}
	if f.Detail != "" {
		fmt.Fprintf(&b, ": %s", f.Detail)
	}
	for _, w := range f.WavePCs {
		fmt.Fprintf(&b, "\n  workgroup %d,%d,%d wave %d pc 0x%x", w.Workgroup[0], w.Workgroup[1], w.Workgroup[2], w.Wave, w.PC)
		if w.Spinning {
			b.WriteString(" (spinning)")
		}
		if w.WaitGWS {
			fmt.Fprintf(&b, " (waiting at GWS resource %d)", w.GWSResource)
		}
	}
	return b.String()
}

// Unwrap returns the cause, so errors.Is(f, ErrNotSupported) holds for
// unimplemented instructions.
func (f *Fault) Unwrap() error { return f.err }
