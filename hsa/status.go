package hsa

import (
	"context"
	"errors"
	"fmt"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/vmem"
)

// Status is hsa_status_t (hsa.h, extended by hsa_ext_amd.h). It implements
// error, so a Status is also a sentinel: errors.Is(err,
// HSA_STATUS_ERROR_INVALID_SIGNAL) holds for every error this package
// returns with that status.
type Status int32

// Status codes with the values of the Debian libhsa-runtime-dev 5.2.3
// headers.
const (
	HSA_STATUS_SUCCESS                          Status = 0x0
	HSA_STATUS_INFO_BREAK                       Status = 0x1
	HSA_STATUS_ERROR                            Status = 0x1000
	HSA_STATUS_ERROR_INVALID_ARGUMENT           Status = 0x1001
	HSA_STATUS_ERROR_INVALID_QUEUE_CREATION     Status = 0x1002
	HSA_STATUS_ERROR_INVALID_ALLOCATION         Status = 0x1003
	HSA_STATUS_ERROR_INVALID_AGENT              Status = 0x1004
	HSA_STATUS_ERROR_INVALID_REGION             Status = 0x1005
	HSA_STATUS_ERROR_INVALID_SIGNAL             Status = 0x1006
	HSA_STATUS_ERROR_INVALID_QUEUE              Status = 0x1007
	HSA_STATUS_ERROR_OUT_OF_RESOURCES           Status = 0x1008
	HSA_STATUS_ERROR_INVALID_PACKET_FORMAT      Status = 0x1009
	HSA_STATUS_ERROR_RESOURCE_FREE              Status = 0x100A
	HSA_STATUS_ERROR_NOT_INITIALIZED            Status = 0x100B
	HSA_STATUS_ERROR_REFCOUNT_OVERFLOW          Status = 0x100C
	HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS     Status = 0x100D
	HSA_STATUS_ERROR_INVALID_INDEX              Status = 0x100E
	HSA_STATUS_ERROR_INVALID_ISA                Status = 0x100F
	HSA_STATUS_ERROR_INVALID_ISA_NAME           Status = 0x1017
	HSA_STATUS_ERROR_INVALID_CODE_OBJECT        Status = 0x1010
	HSA_STATUS_ERROR_INVALID_EXECUTABLE         Status = 0x1011
	HSA_STATUS_ERROR_FROZEN_EXECUTABLE          Status = 0x1012
	HSA_STATUS_ERROR_INVALID_SYMBOL_NAME        Status = 0x1013
	HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED   Status = 0x1014
	HSA_STATUS_ERROR_VARIABLE_UNDEFINED         Status = 0x1015
	HSA_STATUS_ERROR_EXCEPTION                  Status = 0x1016
	HSA_STATUS_ERROR_INVALID_CODE_SYMBOL        Status = 0x1018
	HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL  Status = 0x1019
	HSA_STATUS_ERROR_INVALID_FILE               Status = 0x1020
	HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER Status = 0x1021
	HSA_STATUS_ERROR_INVALID_CACHE              Status = 0x1022
	HSA_STATUS_ERROR_INVALID_WAVEFRONT          Status = 0x1023
	HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP       Status = 0x1024
	HSA_STATUS_ERROR_INVALID_RUNTIME_STATE      Status = 0x1025
	HSA_STATUS_ERROR_FATAL                      Status = 0x1026

	// hsa_ext_amd.h additions.
	HSA_STATUS_ERROR_INVALID_MEMORY_POOL       Status = 40
	HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION Status = 41
	HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION       Status = 42
	HSA_STATUS_ERROR_MEMORY_FAULT              Status = 43
	HSA_STATUS_CU_MASK_REDUCED                 Status = 44

	// hsa_ext_image.h additions.
	HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED       Status = 0x3000
	HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED         Status = 0x3001
	HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED        Status = 0x3002
	HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED Status = 0x3003
)

// statusInfo holds a status's C name and the description
// hsa_status_string returns for it.
type statusInfo struct{ name, text string }

var statusTable = map[Status]statusInfo{
	HSA_STATUS_SUCCESS:                                  {"HSA_STATUS_SUCCESS", "The function has been executed successfully."},
	HSA_STATUS_INFO_BREAK:                               {"HSA_STATUS_INFO_BREAK", "A traversal over a list of elements has been interrupted by the application before completing."},
	HSA_STATUS_ERROR:                                    {"HSA_STATUS_ERROR", "A generic error has occurred."},
	HSA_STATUS_ERROR_INVALID_ARGUMENT:                   {"HSA_STATUS_ERROR_INVALID_ARGUMENT", "One of the actual arguments does not meet a precondition stated in the documentation of the corresponding formal argument."},
	HSA_STATUS_ERROR_INVALID_QUEUE_CREATION:             {"HSA_STATUS_ERROR_INVALID_QUEUE_CREATION", "The requested queue creation is not valid."},
	HSA_STATUS_ERROR_INVALID_ALLOCATION:                 {"HSA_STATUS_ERROR_INVALID_ALLOCATION", "The requested allocation is not valid."},
	HSA_STATUS_ERROR_INVALID_AGENT:                      {"HSA_STATUS_ERROR_INVALID_AGENT", "The agent is invalid."},
	HSA_STATUS_ERROR_INVALID_REGION:                     {"HSA_STATUS_ERROR_INVALID_REGION", "The memory region is invalid."},
	HSA_STATUS_ERROR_INVALID_SIGNAL:                     {"HSA_STATUS_ERROR_INVALID_SIGNAL", "The signal is invalid."},
	HSA_STATUS_ERROR_INVALID_QUEUE:                      {"HSA_STATUS_ERROR_INVALID_QUEUE", "The queue is invalid."},
	HSA_STATUS_ERROR_OUT_OF_RESOURCES:                   {"HSA_STATUS_ERROR_OUT_OF_RESOURCES", "The HSA runtime failed to allocate the necessary resources."},
	HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:              {"HSA_STATUS_ERROR_INVALID_PACKET_FORMAT", "The AQL packet is malformed."},
	HSA_STATUS_ERROR_RESOURCE_FREE:                      {"HSA_STATUS_ERROR_RESOURCE_FREE", "An error has been detected while releasing a resource."},
	HSA_STATUS_ERROR_NOT_INITIALIZED:                    {"HSA_STATUS_ERROR_NOT_INITIALIZED", "An API other than hsa_init has been invoked while the reference count of the HSA runtime is 0."},
	HSA_STATUS_ERROR_REFCOUNT_OVERFLOW:                  {"HSA_STATUS_ERROR_REFCOUNT_OVERFLOW", "The maximum reference count for the object has been reached."},
	HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS:             {"HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS", "The arguments passed to a functions are not compatible."},
	HSA_STATUS_ERROR_INVALID_INDEX:                      {"HSA_STATUS_ERROR_INVALID_INDEX", "The index is invalid."},
	HSA_STATUS_ERROR_INVALID_ISA:                        {"HSA_STATUS_ERROR_INVALID_ISA", "The instruction set architecture is invalid."},
	HSA_STATUS_ERROR_INVALID_ISA_NAME:                   {"HSA_STATUS_ERROR_INVALID_ISA_NAME", "The instruction set architecture name is invalid."},
	HSA_STATUS_ERROR_INVALID_CODE_OBJECT:                {"HSA_STATUS_ERROR_INVALID_CODE_OBJECT", "The code object is invalid."},
	HSA_STATUS_ERROR_INVALID_EXECUTABLE:                 {"HSA_STATUS_ERROR_INVALID_EXECUTABLE", "The executable is invalid."},
	HSA_STATUS_ERROR_FROZEN_EXECUTABLE:                  {"HSA_STATUS_ERROR_FROZEN_EXECUTABLE", "The executable is frozen."},
	HSA_STATUS_ERROR_INVALID_SYMBOL_NAME:                {"HSA_STATUS_ERROR_INVALID_SYMBOL_NAME", "There is no symbol with the given name."},
	HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED:           {"HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED", "The variable is already defined."},
	HSA_STATUS_ERROR_VARIABLE_UNDEFINED:                 {"HSA_STATUS_ERROR_VARIABLE_UNDEFINED", "The variable is undefined."},
	HSA_STATUS_ERROR_EXCEPTION:                          {"HSA_STATUS_ERROR_EXCEPTION", "An HSAIL operation resulted in a hardware exception."},
	HSA_STATUS_ERROR_INVALID_CODE_SYMBOL:                {"HSA_STATUS_ERROR_INVALID_CODE_SYMBOL", "The code object symbol is invalid."},
	HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL:          {"HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL", "The executable symbol is invalid."},
	HSA_STATUS_ERROR_INVALID_FILE:                       {"HSA_STATUS_ERROR_INVALID_FILE", "The file descriptor is invalid."},
	HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER:         {"HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER", "The code object reader is invalid."},
	HSA_STATUS_ERROR_INVALID_CACHE:                      {"HSA_STATUS_ERROR_INVALID_CACHE", "The cache is invalid."},
	HSA_STATUS_ERROR_INVALID_WAVEFRONT:                  {"HSA_STATUS_ERROR_INVALID_WAVEFRONT", "The wavefront is invalid."},
	HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP:               {"HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP", "The signal group is invalid."},
	HSA_STATUS_ERROR_INVALID_RUNTIME_STATE:              {"HSA_STATUS_ERROR_INVALID_RUNTIME_STATE", "The HSA runtime is not in the configuration state."},
	HSA_STATUS_ERROR_FATAL:                              {"HSA_STATUS_ERROR_FATAL", "The queue received an error that may require process termination."},
	HSA_STATUS_ERROR_INVALID_MEMORY_POOL:                {"HSA_STATUS_ERROR_INVALID_MEMORY_POOL", "The memory pool is invalid."},
	HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:          {"HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", "The agent accessed memory beyond the maximum legal address."},
	HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION:                {"HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION", "The agent executed an invalid shader instruction."},
	HSA_STATUS_ERROR_MEMORY_FAULT:                       {"HSA_STATUS_ERROR_MEMORY_FAULT", "The agent attempted to access an inaccessible address."},
	HSA_STATUS_CU_MASK_REDUCED:                          {"HSA_STATUS_CU_MASK_REDUCED", "The CU mask was set, but some CUs it enables are disabled for the process."},
	HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED:       {"HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED", "Image format is not supported."},
	HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED:         {"HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED", "Image size is not supported."},
	HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED:        {"HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED", "Image pitch is not supported or invalid."},
	HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED: {"HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED", "Sampler descriptor is not supported or invalid."},
}

// String returns the C name of s, or a numeric form for unknown values.
func (s Status) String() string {
	if i, ok := statusTable[s]; ok {
		return i.name
	}
	return fmt.Sprintf("hsa_status_t(%#x)", int32(s))
}

// Description returns the text hsa_status_string gives for s, prefixed
// with its C name ("HSA_STATUS_ERROR_INVALID_AGENT: The agent is
// invalid."), and false when s is not a known status.
func (s Status) Description() (string, bool) {
	i, ok := statusTable[s]
	if !ok {
		return "", false
	}
	return i.name + ": " + i.text, true
}

// Error makes a Status usable as an error sentinel; it returns the C name.
func (s Status) Error() string { return s.String() }

// Error is the error type the package returns: the operation, the status
// the C ABI must report, and what was wrong.
type Error struct {
	Op     string // the API operation, e.g. "Signal.Wait"
	Status Status
	Msg    string
	Err    error // a wrapped cause, if any
}

func (e *Error) Error() string {
	s := "hsa: " + e.Op + ": " + e.Status.String()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports whether target is e's Status (or, through Unwrap, its cause).
func (e *Error) Is(target error) bool {
	s, ok := target.(Status)
	return ok && s == e.Status
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errorf builds an *Error.
func errorf(op string, st Status, format string, args ...any) error {
	return &Error{Op: op, Status: st, Msg: fmt.Sprintf(format, args...)}
}

// wrapf builds an *Error around a cause.
func wrapf(op string, st Status, cause error, format string, args ...any) error {
	return &Error{Op: op, Status: st, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// ErrNotSupported is wrapped by errors about features rocpu does not
// implement; StatusOf maps it to HSA_STATUS_ERROR.
var ErrNotSupported = errors.New("not supported")

// notSupported builds an *Error that wraps ErrNotSupported.
func notSupported(op, what string) error {
	return &Error{Op: op, Status: HSA_STATUS_ERROR, Msg: what, Err: ErrNotSupported}
}

// StatusOf is the one table that maps a Go error to the hsa_status_t the C
// ABI returns:
//
//	nil                               HSA_STATUS_SUCCESS
//	*Error                            its Status
//	Status                            itself
//	*emu.Fault FaultMemory, Misaligned HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
//	*emu.Fault FaultIllegal, Unimplemented HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
//	*emu.Fault (other kinds)          HSA_STATUS_ERROR_EXCEPTION
//	*vmem.Fault                       HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
//	vmem.ErrNoMemory                  HSA_STATUS_ERROR_OUT_OF_RESOURCES
//	vmem.ErrClosed                    HSA_STATUS_ERROR_NOT_INITIALIZED
//	vmem.ErrInvalid, vmem.ErrOverlap  HSA_STATUS_ERROR_INVALID_ARGUMENT
//	context.Canceled, DeadlineExceeded HSA_STATUS_ERROR_EXCEPTION
//	ErrNotSupported                   HSA_STATUS_ERROR
//	anything else                     HSA_STATUS_ERROR
func StatusOf(err error) Status {
	if err == nil {
		return HSA_STATUS_SUCCESS
	}
	var he *Error
	if errors.As(err, &he) {
		return he.Status
	}
	var st Status
	if errors.As(err, &st) {
		return st
	}
	var ef *emu.Fault
	if errors.As(err, &ef) {
		switch ef.Kind {
		case emu.FaultMemory, emu.FaultMisaligned:
			return HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
		case emu.FaultIllegal, emu.FaultUnimplemented:
			return HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
		}
		return HSA_STATUS_ERROR_EXCEPTION
	}
	var vf *vmem.Fault
	switch {
	case errors.As(err, &vf):
		return HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
	case errors.Is(err, vmem.ErrNoMemory):
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES
	case errors.Is(err, vmem.ErrClosed):
		return HSA_STATUS_ERROR_NOT_INITIALIZED
	case errors.Is(err, vmem.ErrInvalid), errors.Is(err, vmem.ErrOverlap):
		return HSA_STATUS_ERROR_INVALID_ARGUMENT
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return HSA_STATUS_ERROR_EXCEPTION
	}
	return HSA_STATUS_ERROR
}
