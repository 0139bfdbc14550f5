package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dir is the corpus directory relative to the repository root.
const Dir = "testdata/kernels"

// Manifest is manifest.json: every code object of the corpus and every HIP
// program, with the toolchain that built them.
type Manifest struct {
	// Version is the schema version (currently 1).
	Version   int       `json:"version"`
	Toolchain Toolchain `json:"toolchain"`
	// Objects lists every code object: OpenCL and assembly objects under
	// obj/, and the device code objects unbundled from the HIP programs
	// under hip/.
	Objects []Object `json:"objects"`
	// HIP lists the HIP host executables.
	HIP []HIPProgram `json:"hip"`

	// Root is the absolute path of the corpus directory (set by Load).
	Root string `json:"-"`
}

// Toolchain records the tools that produced the corpus.
type Toolchain struct {
	Clang      string `json:"clang"`
	DeviceLibs string `json:"device_libs"`
}

// Object is one compiled code object and its LLVM goldens. Paths are
// relative to the corpus directory.
type Object struct {
	File    string `json:"file"`
	Readelf string `json:"readelf"` // llvm-readelf-15 -h -l -S -s -r -n --dyn-syms
	Objdump string `json:"objdump"` // llvm-objdump-15 -d --mcpu=<target>; "" when not kept (rocPRIM for gfx1030)
	Source  string `json:"source"`
	// Lang is "opencl", "asm" or "hip".
	Lang   string `json:"lang"`
	Target string `json:"target"` // processor, e.g. gfx90a
	Cov    int    `json:"cov"`    // code object version 2..5
	Opt    int    `json:"opt"`    // optimisation level 0 or 2
	// FPContract is clang's -ffp-contract mode: "on" (OpenCL default: mul+add
	// in one expression may fuse), "off" (never fused), "fast" (HIP default),
	// or "" for assembly.
	FPContract    string `json:"fp_contract"`
	WavefrontSize int    `json:"wavefront_size"`
	// Command is the build command, for the record.
	Command string   `json:"command"`
	Kernels []Kernel `json:"kernels"`
}

// HIPProgram is a self-checking HIP host executable. It exits with
// ExpectExit (0 = all results correct) and prints the lines in
// ExpectStdout (in any order).
type HIPProgram struct {
	Exe        string `json:"exe"`
	Bundle     string `json:"bundle"`      // the .hip_fatbin section (clang offload bundle)
	CodeObject string `json:"code_object"` // the unbundled device code object (also in Objects)
	Source     string `json:"source"`
	Target     string `json:"target"`
	Cov        int    `json:"cov"`
	Opt        int    `json:"opt"`
	// ExpectExit is the exit status of a correct run on a working GPU:
	// 0, except for the assert and fault programs, whose kernels must fail
	// (they exit 0 only when the failure went unnoticed).
	ExpectExit   int      `json:"expect_exit"`
	ExpectStdout []string `json:"expect_stdout,omitempty"`
	Notes        string   `json:"notes,omitempty"`
}

// Kernel describes one kernel of an object and a launch of it that the
// corpus knows how to check.
type Kernel struct {
	Name string `json:"name"`
	// Symbol is the symbol LLVM emits for the kernel: "<name>.kd" (the
	// kernel descriptor) for code object V3+, "<name>" for V2.
	Symbol string `json:"symbol"`
	// PoCL is true when the OpenCL source of this kernel runs on PoCL
	// (portable OpenCL C that does not rely on waves interleaving).
	PoCL   bool   `json:"pocl"`
	Launch Launch `json:"launch"`
	Args   []Arg  `json:"args"`
	// WaveDependent is true when the expected results depend on the
	// wavefront size (the Go reference takes it as a parameter).
	WaveDependent bool `json:"wave_dependent,omitempty"`
	// Printf lists the lines the kernel prints (in any order), if it
	// prints.
	Printf []string `json:"printf,omitempty"`
	Notes  string   `json:"notes,omitempty"`
}

// Launch is an NDRange: sizes in work-items, as OpenCL's clEnqueueNDRangeKernel
// takes them (Global need not be a multiple of Local).
type Launch struct {
	Dims   int    `json:"dims"`
	Global [3]int `json:"global"`
	Local  [3]int `json:"local"`
	Offset [3]int `json:"offset"`
}

// Groups returns the number of workgroups per dimension.
func (l Launch) Groups() [3]int {
	var g [3]int
	for d := 0; d < 3; d++ {
		if l.Local[d] <= 0 {
			g[d] = 1
			continue
		}
		g[d] = (l.Global[d] + l.Local[d] - 1) / l.Local[d]
	}
	return g
}

// WorkItems returns the total number of work-items.
func (l Launch) WorkItems() int { return l.Global[0] * l.Global[1] * l.Global[2] }

// Arg is one explicit kernel argument.
type Arg struct {
	Name string `json:"name"`
	// Kind is "buffer" (a global pointer), "scalar" (by value, including
	// vectors and structs) or "local" (a local-memory pointer whose size
	// the launcher chooses: the dynamic group segment).
	Kind string `json:"kind"`
	// Type is the element type of a buffer or the type of a scalar:
	// char uchar short ushort int uint long ulong half float double,
	// OpenCL vectors such as float4 or int2, or "struct" (see Bytes).
	Type string `json:"type"`
	// Count is the number of elements of a buffer.
	Count int `json:"count,omitempty"`
	// Size is the size in bytes of a local buffer or of a by-value struct.
	Size int `json:"size,omitempty"`
	// Access is "in", "out" or "inout" for buffers.
	Access string `json:"access,omitempty"`
	// Init says how a buffer's initial contents are generated (nil: zero).
	Init *Gen `json:"init,omitempty"`
	// Value is a scalar's value: a number, or for vectors the components
	// separated by commas ("1.5,2,3,4").
	Value string `json:"value,omitempty"`
	// Bytes is a by-value struct's exact kernarg image in hex (OpenCL C
	// layout, little-endian), Size bytes long.
	Bytes string `json:"bytes,omitempty"`
	// Check says how an out/inout buffer is checked.
	Check *Check `json:"check,omitempty"`
}

// Gen describes deterministic input generation; see Gen.Fill.
type Gen struct {
	// Kind is one of:
	//   "zero"     all zero
	//   "const"    every element = Value
	//   "iota"     element i = Min + i
	//   "int"      uniform integers in [Min, Max] (inclusive)
	//   "float"    uniform reals in [Min, Max), magnitude >= 2^-10 (no
	//              denormals, no exact zeros)
	//   "special"  floats mixing NaN, ±Inf, ±0, ±max, integers at rounding
	//              boundaries and uniform values in [Min, Max)
	//   "bits"     uniform random bits
	//   "list"     element i = List[i % len(List)] (integers or floats as text)
	Kind  string   `json:"kind"`
	List  []string `json:"list,omitempty"`
	Seed  uint64   `json:"seed,omitempty"`
	Min   float64  `json:"min,omitempty"`
	Max   float64  `json:"max,omitempty"`
	Value float64  `json:"value,omitempty"`
}

// Check describes how an output buffer is compared.
type Check struct {
	// Ref names the Go reference function (see Reference) that computes
	// the expected contents of this buffer from the inputs.
	Ref string `json:"ref"`
	// Compare is "exact" (bit-exact), "ulp" (floats within ULP units in
	// the last place; NaN matches NaN), "set" (same multiset of elements:
	// order-dependent results such as atomic_xchg return values) or "none"
	// (only PoCL/hardware-agreement is meaningful).
	Compare string `json:"compare"`
	// ULP is the bound for "ulp" comparisons. When SlotULP is set the
	// buffer is a sequence of records of len(SlotULP) elements and element
	// k of every record has bound SlotULP[k] (0 = exact).
	ULP     int   `json:"ulp,omitempty"`
	SlotULP []int `json:"slot_ulp,omitempty"`
	// Why explains the bound (which OpenCL accuracy rule, which contraction).
	Why string `json:"why,omitempty"`
}

// Load finds the repository root (the nearest ancestor of the working
// directory that holds go.mod) and reads the corpus manifest.
func Load() (*Manifest, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	return LoadDir(filepath.Join(root, Dir))
}

// LoadDir reads manifest.json from a corpus directory.
func LoadDir(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	m := new(Manifest)
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("corpus: manifest.json: %w", err)
	}
	if m.Version != 1 {
		return nil, fmt.Errorf("corpus: manifest.json: unsupported version %d", m.Version)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	m.Root = abs
	return m, nil
}

// RepoRoot returns the nearest ancestor of the working directory that
// contains go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("corpus: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Path returns the absolute path of a file named relative to the corpus.
func (m *Manifest) Path(rel string) string { return filepath.Join(m.Root, filepath.FromSlash(rel)) }

// ReadFile reads a file named relative to the corpus.
func (m *Manifest) ReadFile(rel string) ([]byte, error) {
	b, err := os.ReadFile(m.Path(rel))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	return b, nil
}

// Object returns the object whose File is rel (e.g.
// "obj/vector_add.gfx90a.co5.O2.hsaco").
func (m *Manifest) Object(rel string) (*Object, bool) {
	for i := range m.Objects {
		if m.Objects[i].File == rel {
			return &m.Objects[i], true
		}
	}
	return nil, false
}

// Select returns the objects for which keep returns true.
func (m *Manifest) Select(keep func(*Object) bool) []*Object {
	var out []*Object
	for i := range m.Objects {
		if keep(&m.Objects[i]) {
			out = append(out, &m.Objects[i])
		}
	}
	return out
}

// Find returns the object built from source name (the file name without
// extension, plus "-fpc-off" for -ffp-contract=off builds) for the given
// target, code object version and optimisation level.
func (m *Manifest) Find(name, target string, cov, opt int) (*Object, bool) {
	return m.Object(fmt.Sprintf("obj/%s.%s.co%d.O%d.hsaco", name, target, cov, opt))
}

// Kernel returns the kernel with the given name.
func (o *Object) Kernel(name string) (*Kernel, bool) {
	for i := range o.Kernels {
		if o.Kernels[i].Name == name {
			return &o.Kernels[i], true
		}
	}
	return nil, false
}

// Name returns the object's corpus name: the file name up to the target.
func (o *Object) Name() string {
	base := o.File[strings.LastIndexByte(o.File, '/')+1:]
	if i := strings.IndexByte(base, '.'); i >= 0 {
		return base[:i]
	}
	return base
}
