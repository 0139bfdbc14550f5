package pocl

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/internal/corpus"
)

func skipUnavailable(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
}

func f32bytes(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// TestExecuteRaw drives the raw API: a scalar, an input and an output
// buffer, a local buffer, a 2D range with a global offset.
func TestExecuteRaw(t *testing.T) {
	src := `kernel void k(float s, global const float *a, global float *o, local float *tmp) {
		size_t i = get_global_id(0) - get_global_offset(0) + (get_global_id(1) - get_global_offset(1)) * get_global_size(0);
		tmp[get_local_id(0)] = a[i] * s;
		barrier(CLK_LOCAL_MEM_FENCE);
		o[i] = tmp[get_local_id(0)] + (float)get_global_offset(1);
	}`
	r := &Run{Source: src, Kernel: "k", Dims: 2, Global: [3]int{4, 2, 1}, Local: [3]int{2, 1, 1}, Offset: [3]int{10, 7, 0},
		Args: []Arg{
			{Kind: Scalar, Data: f32bytes(2)},
			{Kind: Buffer, Data: f32bytes(1, 2, 3, 4, 5, 6, 7, 8)},
			{Kind: Buffer, Data: make([]byte, 32), Out: true},
			{Kind: Local, Size: 8},
		}}
	res, err := Execute(r)
	skipUnavailable(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if res.Buffers[0] != nil || res.Buffers[1] != nil {
		t.Error("non-output buffers were returned")
	}
	want := f32bytes(9, 11, 13, 15, 17, 19, 21, 23)
	if string(res.Buffers[2]) != string(want) {
		t.Errorf("output %v, want %v", res.Buffers[2], want)
	}
}

func TestBuildErrorHasLog(t *testing.T) {
	_, err := Execute(&Run{Source: "kernel void k(global int *p) { p[0] = undeclared_thing; }", Kernel: "k", Dims: 1,
		Global: [3]int{1, 1, 1}, Args: []Arg{{Kind: Buffer, Data: make([]byte, 4), Out: true}}})
	skipUnavailable(t, err)
	if err == nil || !strings.Contains(err.Error(), "CL_BUILD_PROGRAM_FAILURE") || !strings.Contains(err.Error(), "undeclared_thing") {
		t.Fatalf("err = %v, want a build failure with the log", err)
	}
}

// TestCorpusKernels runs corpus OpenCL kernels on PoCL and checks their
// outputs against the Go reference functions of internal/corpus, using the
// launch, inputs and checks of the -ffp-contract=off (or plain) gfx90a V5
// build in the manifest. ROCPU_POCL_ALL=1 runs every kernel the manifest
// marks runnable on PoCL (about two minutes); by default a representative
// set runs.
func TestCorpusKernels(t *testing.T) {
	m, err := corpus.Load()
	if err != nil {
		t.Fatal(err)
	}
	type tc struct{ src, kernel string }
	cases := []tc{
		{"vector_add", "vector_add"},
		{"saxpy", "saxpy"},
		{"int_alu", "int_alu"},
		{"reduce_lds", "reduce_sum"},
		{"grid_ids", "ids_3d"},
		{"atomics_global", "atomic_ops"},
		{"f32_exact", "f32_exact"},
		{"f32_math", "f32_math"},
		{"byval_args", "byval_args"},
		{"printf", "printf_formats"},
	}
	if os.Getenv("ROCPU_POCL_ALL") != "" {
		cases = nil
		for _, o := range m.Select(func(o *corpus.Object) bool {
			return o.Lang == "opencl" && o.Target == "gfx90a" && o.Cov == 5 && o.Opt == 2 && o.FPContract == "on"
		}) {
			for _, k := range o.Kernels {
				if k.PoCL {
					cases = append(cases, tc{o.Name(), k.Name})
				}
			}
		}
	} else if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			o, ok := m.Find(c.src+"-fpc-off", "gfx90a", 5, 2)
			if !ok {
				o, ok = m.Find(c.src, "gfx90a", 5, 2)
			}
			if !ok {
				t.Fatalf("no gfx90a v5 object for %s", c.src)
			}
			k, ok := o.Kernel(c.kernel)
			if !ok {
				t.Fatalf("%s has no kernel %s", o.File, c.kernel)
			}
			src, err := m.ReadFile(o.Source)
			if err != nil {
				t.Fatal(err)
			}
			in, err := corpus.Inputs(k)
			if err != nil {
				t.Fatal(err)
			}
			out, err := RunKernel(string(src), k, in)
			skipUnavailable(t, err)
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, a := range k.Args {
				if a.Check != nil && a.Check.Compare != "none" {
					checked++
				}
			}
			if checked == 0 && len(k.Printf) == 0 {
				t.Fatal("kernel has no checked outputs")
			}
			if err := corpus.Verify(k, in, out, o.WavefrontSize); err != nil {
				t.Fatal(err)
			}
			if len(k.Printf) > 0 {
				if err := corpus.VerifyPrintf(k, out[StdoutKey]); err != nil {
					t.Error(err)
				}
				t.Logf("%d printf lines as expected", len(k.Printf))
			}
		})
	}
}
