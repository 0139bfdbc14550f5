package emu_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/hsa"
	"github.com/rocpu/rocpu/internal/corpus"
	"github.com/rocpu/rocpu/internal/pocl"
)

// TestPoCLDifferential runs every OpenCL kernel of the corpus that PoCL can
// run (manifest pocl=true) natively on PoCL and on the engine, for every
// GFX9 object built from its source (each target, code object version,
// optimisation level and -ffp-contract mode built), on three NDRange sizes:
// the manifest's, and two whose global sizes are not multiples of the
// workgroup size in any dimension (partial workgroups). PoCL runs once per
// (source, kernel, size); every object's results are compared with that run.
//
// Comparison per output buffer (the object's own manifest check decides):
//   - integer and exact float outputs: bit-exact;
//   - "set" outputs (order-dependent atomic return values): same multiset;
//   - "ulp" outputs: see poclBounds; for -ffp-contract=off builds of kernels
//     using only correctly rounded operations the bound is 0 (exact).
//
// Known device-libs differences are explained element by element in
// knownPoCLDifference; nothing else is tolerated. Kernels PoCL cannot run
// (spin-waits across work-items, builtins PoCL lacks) keep their Go
// references in TestCorpus. Printf output is checked by TestCorpus only.
func TestPoCLDifferential(t *testing.T) {
	m, err := corpus.Load()
	if err != nil {
		t.Skipf("no corpus: %v", err)
	}
	var targets []string
	for _, tg := range gfx9Targets {
		targets = append(targets, tg+":xnack-", tg+":xnack+")
	}
	r, err := hsa.New(hsa.Config{Targets: targets, Stderr: io.Discard, PrintfOutput: io.Discard, Budget: 2_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	agents := map[string][]*hsa.Agent{}
	for _, a := range r.GPUAgents() {
		n := a.TargetID().Processor.Name
		agents[n] = append(agents[n], a)
	}
	queues := map[*hsa.Agent]*hsa.Queue{}
	defer func() {
		for _, q := range queues {
			q.Destroy()
		}
	}()
	type loaded struct {
		o   *corpus.Object
		exe *hsa.Executable
		a   *hsa.Agent
	}
	exes := map[*corpus.Object]*loaded{}
	defer func() {
		for _, l := range exes {
			l.exe.Destroy()
		}
	}()
	load := func(o *corpus.Object) (*loaded, error) {
		if l, ok := exes[o]; ok {
			return l, nil
		}
		data, err := os.ReadFile(m.Path(o.File))
		if err != nil {
			return nil, err
		}
		var loadErr error
		for _, cand := range agents[o.Target] {
			rd, err := r.CodeObjectReaderFromMemory(data)
			if err != nil {
				return nil, err
			}
			e, err := r.CreateExecutable(hsa.HSA_PROFILE_BASE, hsa.HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "")
			if err != nil {
				return nil, err
			}
			if _, loadErr = e.LoadAgentCodeObject(cand, rd, ""); loadErr != nil {
				e.Destroy()
				continue
			}
			if err := e.Freeze(""); err != nil {
				e.Destroy()
				return nil, err
			}
			if queues[cand] == nil {
				q, err := r.CreateQueue(cand, 64, hsa.HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
				if err != nil {
					e.Destroy()
					return nil, err
				}
				queues[cand] = q
			}
			l := &loaded{o, e, cand}
			exes[o] = l
			return l, nil
		}
		return nil, loadErr
	}

	// Group the objects' kernels by (source, kernel).
	type key struct{ src, kernel string }
	groups := map[key][]*corpus.Object{}
	var keys []key
	for _, o := range m.Select(func(o *corpus.Object) bool {
		return o.Lang == "opencl" && agents[o.Target] != nil
	}) {
		if _, err := os.Stat(m.Path(o.File)); err != nil {
			continue
		}
		for _, k := range o.Kernels {
			if !k.PoCL || len(k.Printf) > 0 {
				continue
			}
			kk := key{o.Source, k.Name}
			if groups[kk] == nil {
				keys = append(keys, kk)
			}
			groups[kk] = append(groups[kk], o)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].kernel < keys[j].kernel })
	if len(keys) == 0 {
		t.Skip("no GFX9 OpenCL objects in the corpus")
	}
	launches, compared := 0, 0
	for _, kk := range keys {
		t.Run(kk.kernel, func(t *testing.T) {
			src, err := m.ReadFile(kk.src)
			if err != nil {
				t.Fatal(err)
			}
			base, _ := groups[kk][0].Kernel(kk.kernel)
			sizes := poclSizes(base.Launch, splittable(string(src)))
			if testing.Short() {
				sizes = sizes[1:2]
			}
			for _, g := range sizes {
				pk := *base
				pk.Launch.Global = g
				inputs, err := corpus.Inputs(&pk)
				if err != nil {
					t.Fatal(err)
				}
				want, err := runPoCL(string(src), &pk, inputs)
				if errors.Is(err, pocl.ErrUnavailable) {
					t.Skip(err)
				}
				if err != nil {
					t.Fatalf("PoCL, global %v: %v", g, err)
				}
				for _, o := range groups[kk] {
					k, _ := o.Kernel(kk.kernel)
					k2 := *k
					k2.Launch.Global = g
					l, err := load(o)
					if err != nil {
						t.Errorf("%s: load: %v", o.Name(), err)
						continue
					}
					got, err := launchCorpusKernel(r, l.exe, l.a, queues[l.a], &k2, inputs)
					launches++
					if err != nil {
						t.Errorf("%s global %v: %v", o.File, g, err)
						continue
					}
					for i := range k2.Args {
						a := &k2.Args[i]
						if a.Kind != "buffer" || a.Access == "in" {
							continue
						}
						compared++
						if err := comparePoCL(o, &k2, a, inputs, got, want); err != nil {
							t.Errorf("%s global %v: %s: %v", o.File, g, a.Name, err)
						}
					}
				}
			}
		})
	}
	t.Logf("%d engine launches, %d output buffers compared with PoCL", launches, compared)
}

// poclSizes returns the global sizes a kernel runs at: the manifest's;
// about half of it in each dimension, rounded down to a multiple of the
// workgroup size; and, for 1D kernels PoCL can run split (see runPoCL),
// two sizes that are not multiples of the workgroup size: one whose last
// workgroup has a single work-item and one about half the manifest's. Other
// kernels get a third uniform size, one workgroup per dimension. Sizes never
// exceed the manifest's, so its buffer sizes suffice (buffer tails a smaller
// grid leaves untouched keep their initial bytes on both sides).
func poclSizes(l corpus.Launch, splittable bool) [][3]int {
	var half, one [3]int
	for d := 0; d < 3; d++ {
		g, w := max(l.Global[d], 1), max(l.Local[d], 1)
		half[d], one[d] = max(w, g/2/w*w), w
		if d >= l.Dims {
			half[d], one[d] = g, g
		}
	}
	sizes := [][3]int{l.Global, half}
	if l.Dims == 1 && splittable && l.Local[0] > 1 {
		g, w := l.Global[0], l.Local[0]
		h := g/2 + 1
		if h%w == 0 {
			h++
		}
		return append(sizes, [3]int{g - w + 1, 1, 1}, [3]int{h, 1, 1})
	}
	return append(sizes, one)
}

// poclNotSplittable are the work-item functions whose values differ when a
// non-uniform NDRange is run as two launches (see runPoCL).
var poclNotSplittable = []string{"get_group_id", "get_num_groups", "get_global_size",
	"get_enqueued_local_size", "get_global_linear_id", "get_global_offset"}

func splittable(src string) bool {
	for _, f := range poclNotSplittable {
		if strings.Contains(src, f) {
			return false
		}
	}
	return true
}

// poclBound returns the ULP bound between the engine and PoCL for element
// slot s of an output checked "ulp" against the Go reference with bound b.
//
//   - Kernels whose float operations are all correctly rounded (saxpy,
//     f32_exact, f64_arith, byval_args): their manifest bound (1 or 2 ulp)
//     covers only -ffp-contract=on fusing a*b+c into one FMA; PoCL runs
//     unfused (pocl.NoContract), so the bound is unchanged for contract=on
//     objects and 0 (exact) for -ffp-contract=off objects.
//   - Kernels calling builtins with OpenCL accuracy bounds (f32_math,
//     f64_math: sin, exp, pow, ...): the device-libs result and PoCL's are
//     each within b ulp of the exact value, hence within 2b of each other.
func poclBound(o *corpus.Object, k *corpus.Kernel, b int) int {
	switch k.Name {
	case "saxpy", "f32_exact", "f64_arith", "byval_args":
		if o.FPContract == "off" {
			return 0
		}
		return b
	}
	return 2 * b
}

// comparePoCL compares one output buffer of the engine (got) with PoCL's
// (want) under the object's manifest check (see TestPoCLDifferential).
func comparePoCL(o *corpus.Object, k *corpus.Kernel, a *corpus.Arg, inputs, gotAll, wantAll map[string][]byte) error {
	got, want := gotAll[a.Name], wantAll[a.Name]
	if want == nil {
		return fmt.Errorf("PoCL returned no %s", a.Name)
	}
	want = append([]byte(nil), want...)
	if _, err := knownPoCLDifference(o, k, a, inputs, got, want); err != nil {
		return err
	}
	if k.Name == "atomic_ops" && a.Name == "res" {
		// res[7] is the last value atomic_xchg stored: which work-item came
		// last depends on the order, so it is checked together with
		// xchg_old (see the "xchg_old" case).
		got, want = append([]byte(nil), got...), append(want[:0:0], want...)
		copy(got[28:32], want[28:32])
		return corpus.Compare(a.Type, &corpus.Check{Compare: "exact"}, got, want)
	}
	if k.Name == "atomic_ops" && a.Name == "xchg_old" {
		// The values atomic_xchg returned plus the one left in res[7] are,
		// in any order, the initial res[7] and every work-item's id: compare
		// that multiset.
		gr, wr := gotAll["res"], wantAll["res"]
		if gr == nil || wr == nil {
			return fmt.Errorf("atomic_ops: res not available for the xchg check")
		}
		n := 4 * k.Launch.Global[0]
		return corpus.Compare(a.Type, &corpus.Check{Compare: "set"},
			append(append([]byte(nil), got[:n]...), gr[28:32]...), append(append([]byte(nil), want[:n]...), wr[28:32]...))
	}
	c := &corpus.Check{Compare: "exact"}
	if a.Check != nil {
		switch a.Check.Compare {
		case "set":
			c = a.Check
		case "ulp":
			c = &corpus.Check{Compare: "ulp", ULP: poclBound(o, k, a.Check.ULP)}
			for _, b := range a.Check.SlotULP {
				c.SlotULP = append(c.SlotULP, poclBound(o, k, b))
			}
		}
	}
	return corpus.Compare(a.Type, c, got, want)
}

// knownPoCLDifference rewrites, in want, the elements where the GPU code
// LLVM 15 and ROCm device-libs produce legitimately differs from PoCL, to
// the value the GPU code computes, after checking each such element's
// inputs and PoCL's value precisely. It returns how many it rewrote.
//
//   - f32_convert (out[i*16+s], x = a[i]): device-libs implements
//     convert_<int|short>_sat[_rte|_rtp|_rtn](x) as fptosi(minnum(maxnum(x,
//     MIN), MAX)); maxnum(NaN, MIN) is MIN, so a NaN x gives INT_MIN in
//     slots 1 and 3-5 (convert_int_sat*) and SHRT_MIN in slot 6
//     (convert_short_sat), where OpenCL (and PoCL) give 0. Slots 2, 7 and
//     15 (uint, uchar: MIN is 0; (int)convert_long_sat: (int)LONG_MIN is 0)
//     agree.
//   - f32_exact, -ffp-contract=off build (out[i*16+9] = round(x), x = a[i]):
//     LLVM 15 lowers round(x) as trunc(x) + select(|x - trunc(x)| >= 0.5,
//     copysign(1, x), 0), so x in (-0.5, -0] gives +0 where PoCL gives -0.
//     The contract=on builds of the same source keep the sign (as PoCL).
func knownPoCLDifference(o *corpus.Object, k *corpus.Kernel, a *corpus.Arg, inputs map[string][]byte, got, want []byte) (int, error) {
	n := 0
	switch {
	case k.Name == "f32_convert" && a.Name == "out":
		x := inputs["a"]
		for i := 0; i < k.Launch.Global[0] && (i+1)*64 <= len(want); i++ {
			if !math.IsNaN(float64(math.Float32frombits(binary.LittleEndian.Uint32(x[4*i:])))) {
				continue
			}
			for s, v := range map[int]int32{1: math.MinInt32, 3: math.MinInt32, 4: math.MinInt32, 5: math.MinInt32, 6: math.MinInt16} {
				e := want[(i*16+s)*4:][:4]
				if binary.LittleEndian.Uint32(e) != 0 {
					return 0, fmt.Errorf("f32_convert element %d (slot %d, NaN input): PoCL gave %#x, not 0", i*16+s, s, binary.LittleEndian.Uint32(e))
				}
				binary.LittleEndian.PutUint32(e, uint32(v))
				n++
			}
		}
	case k.Name == "f32_exact" && a.Name == "out" && o.FPContract == "off":
		x := inputs["a"]
		for i := 0; i < k.Launch.Global[0] && (i+1)*64 <= len(want); i++ {
			v := math.Float32frombits(binary.LittleEndian.Uint32(x[4*i:]))
			if !(v > -0.5 && v <= 0) {
				continue
			}
			e := want[(i*16+9)*4:][:4]
			if binary.LittleEndian.Uint32(e) != 0x80000000 {
				return 0, fmt.Errorf("f32_exact element %d (round(%g)): PoCL gave %#x, not -0", i*16+9, v, binary.LittleEndian.Uint32(e))
			}
			binary.LittleEndian.PutUint32(e, 0)
			n++
		}
	}
	return n, nil
}

// poclOptions are PoCL's build options (OpenCL C 3.0; PoCL's 2.0 headers
// lack some vload overloads the corpus uses).
const poclOptions = pocl.DefaultOptions

// runPoCL is pocl.RunKernel. PoCL (Debian's) rejects a global size that is
// not a multiple of the workgroup size (CL_INVALID_WORK_GROUP_SIZE: no
// non-uniform workgroups), so a 1D NDRange of q full workgroups of L and a
// last one of r < L work-items runs as two launches on the same buffers:
// global q*L, local L, then global r, local r at global offset q*L. Every
// work-item sees the get_global_id, get_local_id and get_local_size of the
// non-uniform NDRange and shares barriers and local memory with the same
// work-items; only the functions in poclNotSplittable differ, and
// poclSizes uses such sizes only for sources that call none of them.
func runPoCL(source string, k *corpus.Kernel, inputs map[string][]byte) (map[string][]byte, error) {
	g, w := k.Launch.Global[0], k.Launch.Local[0]
	if k.Launch.Dims == 1 && w > 0 && g%w != 0 {
		if !splittable(source) {
			return nil, fmt.Errorf("non-uniform NDRange for a source PoCL cannot run split")
		}
		in := maps.Clone(inputs)
		if q := g / w * w; q > 0 {
			k1 := *k
			k1.Launch.Global[0] = q
			out, err := runPoCL(source, &k1, in)
			if err != nil {
				return nil, err
			}
			maps.Copy(in, out)
		}
		k2 := *k
		k2.Launch.Global[0], k2.Launch.Local[0], k2.Launch.Offset[0] = g%w, g%w, k.Launch.Offset[0]+g/w*w
		out, err := runPoCL(source, &k2, in)
		if err != nil {
			return nil, err
		}
		for _, a := range k.Args {
			if _, ok := out[a.Name]; !ok && a.Kind == "buffer" && a.Access != "in" {
				out[a.Name] = in[a.Name]
			}
		}
		return out, nil
	}
	r := &pocl.Run{Source: pocl.NoContract + source, Kernel: k.Name, Options: poclOptions, Dims: k.Launch.Dims,
		Global: k.Launch.Global, Local: k.Launch.Local, Offset: k.Launch.Offset}
	for _, a := range k.Args {
		switch a.Kind {
		case "buffer":
			r.Args = append(r.Args, pocl.Arg{Kind: pocl.Buffer, Data: append([]byte(nil), inputs[a.Name]...), Out: a.Access != "in"})
		case "scalar":
			r.Args = append(r.Args, pocl.Arg{Kind: pocl.Scalar, Data: inputs[a.Name]})
		case "local":
			r.Args = append(r.Args, pocl.Arg{Kind: pocl.Local, Size: a.Size})
		default:
			return nil, fmt.Errorf("arg %s: kind %q", a.Name, a.Kind)
		}
	}
	res, err := pocl.Execute(r)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for i, a := range k.Args {
		if res.Buffers[i] != nil {
			out[a.Name] = res.Buffers[i]
		}
	}
	return out, nil
}
