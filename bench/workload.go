package bench

import (
	"embed"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

//go:embed kernels/*.cl kernels/*.hsaco
var kernelFS embed.FS

// Source returns the OpenCL C source of kernel file name ("nbody").
func Source(name string) (string, error) {
	b, err := kernelFS.ReadFile("kernels/" + name + ".cl")
	return string(b), err
}

// CodeObject returns the embedded gfx90a code object built from name.cl.
func CodeObject(name string) ([]byte, error) {
	return kernelFS.ReadFile("kernels/" + name + ".hsaco")
}

// Size selects a problem size. Tiny is for tests only.
type Size int

const (
	Tiny Size = iota
	Small
	Medium
	Large
)

var sizeNames = [...]string{"tiny", "small", "medium", "large"}

func (s Size) String() string {
	if s < 0 || int(s) >= len(sizeNames) {
		return fmt.Sprintf("Size(%d)", int(s))
	}
	return sizeNames[s]
}

// ParseSize parses "tiny", "small", "medium" or "large".
func ParseSize(s string) (Size, error) {
	for i, n := range sizeNames {
		if strings.EqualFold(s, n) {
			return Size(i), nil
		}
	}
	return 0, fmt.Errorf("bench: unknown size %q (tiny, small, medium, large)", s)
}

// ArgKind says how a dispatch argument is passed.
type ArgKind int

const (
	ArgBuffer ArgKind = iota // a global buffer of the workload
	ArgScalar                // a by-value uint32, int32 or float32
	ArgLocal                 // a local-memory pointer of Local bytes
)

// Arg is one kernel argument of a dispatch.
type Arg struct {
	Kind  ArgKind
	Buf   int    // ArgBuffer: index into Workload.Buffers
	Value any    // ArgScalar: uint32, int32 or float32
	Local uint32 // ArgLocal: bytes
}

func buf(i int) Arg            { return Arg{Kind: ArgBuffer, Buf: i} }
func scalar(v any) Arg         { return Arg{Kind: ArgScalar, Value: v} }
func local(n uint32) Arg       { return Arg{Kind: ArgLocal, Local: n} }
func dims1(n uint32) [3]uint32 { return [3]uint32{n, 1, 1} }

// scalarBytes returns the little-endian bytes of a scalar argument.
func scalarBytes(v any) ([]byte, error) {
	switch x := v.(type) {
	case uint32:
		return binary.LittleEndian.AppendUint32(nil, x), nil
	case int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(x)), nil
	case float32:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(x)), nil
	}
	return nil, fmt.Errorf("bench: scalar argument of type %T", v)
}

// Dispatch is one kernel launch of a workload.
type Dispatch struct {
	Kernel        string
	Args          []Arg
	Global, Local [3]uint32 // work-items; Global is a multiple of Local
}

// Dims is the dispatch's work dimension (1..3).
func (d *Dispatch) Dims() int {
	n := 1
	for i := 0; i < 3; i++ {
		if d.Global[i] > 1 || d.Local[i] > 1 {
			n = i + 1
		}
	}
	return n
}

// Check says how an output buffer is compared between the two sides.
type Check int

const (
	NoCheck Check = iota // an input, or scratch
	Exact                // byte for byte
	Float32              // float32 elements within the benchmark's MaxULP
)

// Buffer is one global buffer with its initial contents; every timed run
// starts from Init.
type Buffer struct {
	Name  string
	Init  []byte
	Check Check
}

// Workload is a benchmark instantiated at one size: its buffers and the
// dispatches one run makes, in order.
type Workload struct {
	Buffers    []Buffer
	Dispatches []Dispatch
	Elements   int    // the work in Unit, for time per element
	Unit       string // "elements", "interactions", "compare-exchanges", ...
	// MaxULP, when set, replaces the benchmark's bound at this size.
	MaxULP int
}

// Benchmark is one kernel of the suite.
type Benchmark struct {
	Name string // also the kernel file's name
	Desc string
	// Sizes are the size parameters for Tiny, Small, Medium and Large.
	Sizes [4]int
	// MaxULP bounds the difference of Float32 outputs, in units in the
	// last place of the larger magnitude (0: exact). ULPFloor is the
	// magnitude below which differences are measured in ULPs of ULPFloor
	// (absolute error near zero, where cancellation makes ULPs meaningless).
	MaxULP   int
	ULPFloor float32
	Make     func(n int) *Workload
}

// Workload instantiates b at size s.
func (b *Benchmark) Workload(s Size) *Workload { return b.Make(b.Sizes[s]) }

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func f32s(n int, seed uint64, lo, hi float32) []byte {
	r := rng(seed)
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(lo+(hi-lo)*r.Float32()))
	}
	return b
}

func u32s(n int, seed uint64, mod uint32) []byte {
	r := rng(seed)
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		v := r.Uint32()
		if mod != 0 {
			v %= mod
		}
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// Suite is the benchmark suite, in report order.
var Suite = []*Benchmark{
	{Name: "vector_add", Desc: "c = a + b (memory-bound)", Sizes: [4]int{1000, 1 << 16, 1 << 20, 1 << 28},
		Make: func(n int) *Workload {
			return &Workload{Elements: n, Unit: "elements",
				Buffers: []Buffer{{"a", f32s(n, 1, -1, 1), NoCheck}, {"b", f32s(n, 2, -1, 1), NoCheck}, {"c", make([]byte, 4*n), Float32}},
				Dispatches: []Dispatch{{Kernel: "vector_add", Args: []Arg{buf(0), buf(1), buf(2), scalar(uint32(n))},
					Global: dims1(uint32(roundUp(n, 256))), Local: dims1(256)}}}
		}},
	{Name: "saxpy", Desc: "y = a*x + y", Sizes: [4]int{1000, 1 << 16, 1 << 20, 1 << 28},
		Make: func(n int) *Workload {
			return &Workload{Elements: n, Unit: "elements",
				Buffers: []Buffer{{"x", f32s(n, 3, -1, 1), NoCheck}, {"y", f32s(n, 4, -1, 1), Float32}},
				Dispatches: []Dispatch{{Kernel: "saxpy", Args: []Arg{scalar(float32(2.5)), buf(0), buf(1), scalar(uint32(n))},
					Global: dims1(uint32(roundUp(n, 256))), Local: dims1(256)}}}
		}},
	{Name: "dot", Desc: "integer dot product: LDS reduction, one global atomic per work-group", Sizes: [4]int{1000, 1 << 17, 1 << 21, 3 << 27},
		Make: func(n int) *Workload {
			groups := min(64, (n+1023)/1024)
			return &Workload{Elements: n, Unit: "elements",
				Buffers: []Buffer{{"a", u32s(n, 5, 2001), NoCheck}, {"b", u32s(n, 6, 2001), NoCheck}, {"result", make([]byte, 4), Exact}},
				Dispatches: []Dispatch{{Kernel: "dot_product", Args: []Arg{buf(0), buf(1), buf(2), scalar(uint32(n)), local(256 * 4)},
					Global: dims1(uint32(groups * 256)), Local: dims1(256)}}}
		}},
	{Name: "histogram", Desc: "256-bin byte histogram with global atomics", Sizes: [4]int{1000, 1 << 16, 1 << 20, 3 << 27},
		Make: func(n int) *Workload {
			data := make([]byte, roundUp(n, 4))
			r := rng(7)
			for i := range data {
				// Skewed, so some bins are contended.
				data[i] = byte(r.IntN(256) & r.IntN(256))
			}
			items := min(roundUp(n, 256), 64*256)
			return &Workload{Elements: n, Unit: "bytes",
				Buffers: []Buffer{{"data", data, NoCheck}, {"bins", make([]byte, 256*4), Exact}},
				Dispatches: []Dispatch{{Kernel: "histogram", Args: []Arg{buf(0), buf(1), scalar(uint32(n))},
					Global: dims1(uint32(items)), Local: dims1(256)}}}
		}},
	{Name: "matmul", Desc: "tiled float matrix multiply (16x16 LDS tiles), n x n", Sizes: [4]int{32, 64, 128, 1088},
		Make: func(n int) *Workload {
			return &Workload{Elements: n * n * n, Unit: "multiply-adds",
				Buffers: []Buffer{{"A", f32s(n*n, 8, -1, 1), NoCheck}, {"B", f32s(n*n, 9, -1, 1), NoCheck}, {"C", make([]byte, 4*n*n), Float32}},
				Dispatches: []Dispatch{{Kernel: "matmul", Args: []Arg{buf(0), buf(1), buf(2), scalar(uint32(n))},
					Global: [3]uint32{uint32(n), uint32(n), 1}, Local: [3]uint32{16, 16, 1}}}}
		}},
	{Name: "stencil", Desc: "2D 5-point stencil, n x n, one step", Sizes: [4]int{32, 256, 1024, 9216},
		Make: func(n int) *Workload {
			return &Workload{Elements: n * n, Unit: "points",
				Buffers: []Buffer{{"in", f32s(n*n, 10, 0, 1), NoCheck}, {"out", make([]byte, 4*n*n), Float32}},
				Dispatches: []Dispatch{{Kernel: "stencil", Args: []Arg{buf(0), buf(1), scalar(uint32(n)), scalar(uint32(n))},
					Global: [3]uint32{uint32(roundUp(n, 16)), uint32(roundUp(n, 16)), 1}, Local: [3]uint32{16, 16, 1}}}}
		}},
	{Name: "nbody", Desc: "n-body accelerations, all pairs (float ALU + rsqrt)", Sizes: [4]int{128, 512, 2048, 20480},
		MaxULP: 64, ULPFloor: 1,
		Make: func(n int) *Workload {
			pos := f32s(4*n, 11, -10, 10)
			for i := 0; i < n; i++ { // masses in [0.5, 1.5)
				m := math.Float32frombits(binary.LittleEndian.Uint32(pos[16*i+12:]))
				binary.LittleEndian.PutUint32(pos[16*i+12:], math.Float32bits(1+m/20))
			}
			// Each acceleration sums n terms, and rocpu's and PoCL's terms
			// differ by a few ULP (v_rsq_f32 against PoCL's rsqrt, FMA
			// contraction) in the same direction, so the worst difference
			// grows with n (seen: 11.5 ULP at 512 bodies, 19 at 2048, 59 at
			// 8192, 118 at 20480): the bound is 64 ULP up to 8192 bodies
			// and grows linearly beyond, the worst case for such sums.
			return &Workload{Elements: n * n, Unit: "interactions", MaxULP: max(64, 64*n/8192),
				Buffers: []Buffer{{"pos", pos, NoCheck}, {"acc", make([]byte, 16*n), Float32}},
				Dispatches: []Dispatch{{Kernel: "nbody", Args: []Arg{buf(0), buf(1), scalar(uint32(n)), scalar(float32(0.01))},
					Global: dims1(uint32(roundUp(n, 64))), Local: dims1(64)}}}
		}},
	{Name: "blackscholes", Desc: "Black-Scholes call and put (exp, log, sqrt)", Sizes: [4]int{1000, 1 << 14, 1 << 17, 3 << 22},
		MaxULP: 64, ULPFloor: 1,
		Make: func(n int) *Workload {
			return &Workload{Elements: n, Unit: "options",
				Buffers: []Buffer{{"S", f32s(n, 12, 5, 30), NoCheck}, {"X", f32s(n, 13, 1, 100), NoCheck}, {"T", f32s(n, 14, 0.25, 10), NoCheck},
					{"call", make([]byte, 4*n), Float32}, {"put", make([]byte, 4*n), Float32}},
				Dispatches: []Dispatch{{Kernel: "blackscholes", Args: []Arg{buf(0), buf(1), buf(2), buf(3), buf(4),
					scalar(float32(0.02)), scalar(float32(0.30)), scalar(uint32(n))},
					Global: dims1(uint32(roundUp(n, 256))), Local: dims1(256)}}}
		}},
	{Name: "bitonic", Desc: "bitonic sort of 2^k uints, k(k+1)/2 dispatches", Sizes: [4]int{1 << 10, 1 << 12, 1 << 15, 1 << 21},
		Make: func(n int) *Workload {
			k := 0
			for 1<<k < n {
				k++
			}
			// The work is n/2 compare-exchanges in each of k(k+1)/2 passes:
			// per key it grows with log² n, so time per key would not stay
			// constant even on a perfect machine (per element is per unit
			// of work, as matmul's multiply-adds and nbody's interactions).
			w := &Workload{Elements: n / 2 * k * (k + 1) / 2, Unit: "compare-exchanges", Buffers: []Buffer{{"data", u32s(n, 15, 0), Exact}}}
			for stage := 0; stage < k; stage++ {
				for pass := stage; pass >= 0; pass-- {
					w.Dispatches = append(w.Dispatches, Dispatch{Kernel: "bitonic",
						Args:   []Arg{buf(0), scalar(uint32(stage)), scalar(uint32(pass))},
						Global: dims1(uint32(n / 2)), Local: dims1(uint32(min(256, n/2)))})
				}
			}
			return w
		}},
	{Name: "scan", Desc: "inclusive prefix sum of uints (block scans level by level, then adds)", Sizes: [4]int{1000, 1 << 16, 1 << 20, 1 << 27},
		Make: func(n int) *Workload {
			// Level 0 is the data; level i+1 holds the totals of level i's
			// blocks of ls*elems, down to a level of at most one block,
			// whose scan writes the grand total. Then each level from the
			// top adds its exclusive block prefixes to the one below: up
			// to (ls*elems)² elements that is scan, scan, add; beyond, two
			// more dispatches per level.
			const ls, elems = 256, 16
			const per = ls * elems
			counts := []int{n}
			for c := n; ; {
				c = (c + per - 1) / per
				counts = append(counts, c)
				if c <= per {
					break
				}
			}
			w := &Workload{Elements: n, Unit: "elements", Buffers: []Buffer{{"data", u32s(n, 16, 1000), Exact}}}
			for i := 1; i < len(counts); i++ {
				w.Buffers = append(w.Buffers, Buffer{fmt.Sprintf("sums%d", i), make([]byte, 4*counts[i]), NoCheck})
			}
			w.Buffers = append(w.Buffers, Buffer{"total", make([]byte, 4), NoCheck})
			blocks := func(c int) int { return (c + per - 1) / per }
			for i, c := range counts {
				w.Dispatches = append(w.Dispatches, Dispatch{Kernel: "scan_block", Args: []Arg{buf(i), buf(i + 1), scalar(uint32(c)), local(ls * 4)},
					Global: dims1(uint32(blocks(c) * ls)), Local: dims1(ls)})
			}
			for i := len(counts) - 2; i >= 0; i-- {
				w.Dispatches = append(w.Dispatches, Dispatch{Kernel: "add_sums", Args: []Arg{buf(i), buf(i + 1), scalar(uint32(counts[i]))},
					Global: dims1(uint32(blocks(counts[i]) * ls)), Local: dims1(ls)})
			}
			return w
		}},
}

// Lookup returns the suite's benchmark called name.
func Lookup(name string) (*Benchmark, bool) {
	for _, b := range Suite {
		if b.Name == name {
			return b, true
		}
	}
	return nil, false
}
