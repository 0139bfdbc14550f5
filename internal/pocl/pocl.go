package pocl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rocpu/rocpu/internal/corpus"
)

// ErrUnavailable is returned (wrapped) when PoCL cannot be used: no cgo, no
// OpenCL ICD loader, or no PoCL platform.
var ErrUnavailable = errors.New("pocl: PoCL is not available")

// ArgKind says how a kernel argument is passed.
type ArgKind int

const (
	// Buffer is a global buffer created from Data (read back if Out).
	Buffer ArgKind = iota
	// Scalar is a by-value argument whose bytes are Data.
	Scalar
	// Local is a local-memory pointer of Size bytes.
	Local
)

// Arg is one kernel argument.
type Arg struct {
	Kind ArgKind
	Data []byte
	Size int  // bytes, for Local
	Out  bool // read the buffer back after the kernel ran
}

// Run describes one kernel execution.
type Run struct {
	Source  string
	Kernel  string
	Options string // clBuildProgram options; "" means DefaultOptions
	Args    []Arg
	Dims    int
	Global  [3]int
	Local   [3]int // zeros let PoCL choose
	Offset  [3]int
	// CaptureStdout collects what the kernel prints (printf) into
	// Result.Stdout. It redirects the process's file descriptor 1 while the
	// kernel runs, so anything else printed meanwhile is captured too.
	CaptureStdout bool
}

// DefaultOptions are the build options used when Run.Options is empty:
// OpenCL C 3.0 (PoCL's newest; the corpus sources are written for 2.0 and
// use only what 3.0 with PoCL's optional features offers) with correctly
// rounded f32 division and sqrt.
const DefaultOptions = "-cl-std=CL3.0 -cl-fp32-correctly-rounded-divide-sqrt"

// NoContract is prepended to sources by RunKernel: the standard pragma that
// forbids fusing a*b+c, so PoCL computes what the -ffp-contract=off builds
// and the unfused Go references compute.
const NoContract = "#pragma OPENCL FP_CONTRACT OFF\n"

// Result holds the buffers read back: Buffers[i] is argument i's final
// contents when it was an Out buffer, nil otherwise.
type Result struct {
	Buffers [][]byte
	Stdout  []byte // with Run.CaptureStdout
}

// Execute compiles Source on PoCL and runs Kernel once.
func Execute(r *Run) (*Result, error) {
	if r.Dims < 1 || r.Dims > 3 {
		return nil, fmt.Errorf("pocl: bad work dimension %d", r.Dims)
	}
	for i, a := range r.Args {
		if a.Kind == Local && a.Size <= 0 {
			return nil, fmt.Errorf("pocl: arg %d: local size %d", i, a.Size)
		}
		if a.Kind != Local && len(a.Data) == 0 {
			return nil, fmt.Errorf("pocl: arg %d: no data", i)
		}
	}
	opts := r.Options
	if opts == "" {
		opts = DefaultOptions
	}
	return execute(r, opts)
}

// StdoutKey is the key under which RunKernel returns what a printing
// kernel (one whose spec lists Printf lines) printed.
const StdoutKey = "<stdout>"

// RunKernel runs a corpus kernel spec on PoCL without FMA contraction (see
// NoContract): it passes the arguments in
// the order the spec lists them with the given initial bytes (see
// corpus.Inputs), launches with the spec's NDRange and returns the final
// contents of every out/inout buffer by name.
func RunKernel(source string, k *corpus.Kernel, inputs map[string][]byte) (map[string][]byte, error) {
	if !k.PoCL {
		return nil, fmt.Errorf("pocl: kernel %s is not marked runnable on PoCL", k.Name)
	}
	r := &Run{Source: NoContract + source, Kernel: k.Name, Dims: k.Launch.Dims, Global: k.Launch.Global,
		Local: k.Launch.Local, Offset: k.Launch.Offset}
	for _, a := range k.Args {
		switch a.Kind {
		case "buffer":
			b, ok := inputs[a.Name]
			if !ok {
				return nil, fmt.Errorf("pocl: no input for %s", a.Name)
			}
			r.Args = append(r.Args, Arg{Kind: Buffer, Data: append([]byte(nil), b...), Out: a.Access != "in"})
		case "scalar":
			b, ok := inputs[a.Name]
			if !ok {
				return nil, fmt.Errorf("pocl: no value for %s", a.Name)
			}
			r.Args = append(r.Args, Arg{Kind: Scalar, Data: b})
		case "local":
			r.Args = append(r.Args, Arg{Kind: Local, Size: a.Size})
		default:
			return nil, fmt.Errorf("pocl: arg %s: unknown kind %q", a.Name, a.Kind)
		}
	}
	r.CaptureStdout = len(k.Printf) > 0
	res, err := Execute(r)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	if r.CaptureStdout {
		out[StdoutKey] = res.Stdout
	}
	for i, a := range k.Args {
		if res.Buffers[i] != nil {
			out[a.Name] = res.Buffers[i]
		}
	}
	return out, nil
}

// clError names an OpenCL status code.
func clError(op string, code int) error {
	name, ok := clErrors[code]
	if !ok {
		name = fmt.Sprintf("error %d", code)
	}
	return fmt.Errorf("pocl: %s: %s", op, name)
}

var clErrors = map[int]string{
	-1: "CL_DEVICE_NOT_FOUND", -2: "CL_DEVICE_NOT_AVAILABLE", -4: "CL_MEM_OBJECT_ALLOCATION_FAILURE",
	-5: "CL_OUT_OF_RESOURCES", -6: "CL_OUT_OF_HOST_MEMORY", -11: "CL_BUILD_PROGRAM_FAILURE",
	-30: "CL_INVALID_VALUE", -33: "CL_INVALID_DEVICE", -34: "CL_INVALID_CONTEXT", -36: "CL_INVALID_COMMAND_QUEUE",
	-38: "CL_INVALID_MEM_OBJECT", -43: "CL_INVALID_BUILD_OPTIONS", -44: "CL_INVALID_PROGRAM",
	-45: "CL_INVALID_PROGRAM_EXECUTABLE", -46: "CL_INVALID_KERNEL_NAME", -48: "CL_INVALID_KERNEL",
	-49: "CL_INVALID_ARG_INDEX", -50: "CL_INVALID_ARG_VALUE", -51: "CL_INVALID_ARG_SIZE",
	-52: "CL_INVALID_KERNEL_ARGS", -53: "CL_INVALID_WORK_DIMENSION", -54: "CL_INVALID_WORK_GROUP_SIZE",
	-55: "CL_INVALID_WORK_ITEM_SIZE", -56: "CL_INVALID_GLOBAL_OFFSET",
}

func trimLog(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 4000 {
		s = s[:4000] + "..."
	}
	return s
}
