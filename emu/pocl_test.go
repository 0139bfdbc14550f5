package emu_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"regexp"
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
// optimisation level and -ffp-contract mode built), on the NDRange sizes of
// poclSizes: the manifest's, a smaller uniform one, and two whose global
// sizes are not multiples of the workgroup size in any dimension (partial
// workgroups in every dimension: 1D, 2D and 3D kernels, including the
// work-item and group query kernels ids_2d, ids_3d and partial_groups;
// kernels declared with reqd_work_group_size, which need full workgroups,
// run at three uniform sizes instead). PoCL runs once per (source, kernel,
// size); every object's results are compared with that run.
//
// Comparison per output buffer (the object's own manifest check decides):
//   - integer and exact float outputs: bit-exact;
//   - "set" outputs (order-dependent atomic return values): same multiset;
//   - "ulp" outputs: see poclBounds; for -ffp-contract=off builds of kernels
//     using only correctly rounded operations the bound is 0 (exact).
//
// With -short or under the race detector each kernel runs at the last
// (ragged) size only.
//
// Known device-libs differences are explained element by element in
// knownPoCLDifference; nothing else is tolerated. Kernels PoCL cannot run
// (spin-waits across work-items, builtins PoCL lacks) keep their Go
// references in TestCorpus. Printed output is compared with PoCL by
// TestPoCLPrintf.
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
			if (!k.PoCL && !poclNonUniform[k.Name]) || len(k.Printf) > 0 {
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
			sizes := poclSizes(base.Launch, needsUniform(string(src), kk.kernel), usesNDRangeFuncs(string(src)))
			if testing.Short() || raceTest {
				sizes = sizes[len(sizes)-1:]
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
// workgroup size; and two sizes that are not multiples of the workgroup size
// in any dimension with a workgroup size above 1 (see runPoCL for how PoCL
// runs them): one whose last workgroup has a single work-item in each such
// dimension, and one about half the manifest's (only the latter for
// sources that call the work-item functions runPoCL redefines, prefixed).
// Kernels whose source requires full workgroups (uniform) get a third
// uniform size instead, one workgroup per dimension. Sizes never exceed the manifest's, so its buffer
// sizes suffice (buffer tails a smaller grid leaves untouched keep their
// initial bytes on both sides).
func poclSizes(l corpus.Launch, uniform, prefixed bool) [][3]int {
	var half, one, last, odd [3]int
	ragged := false
	for d := 0; d < 3; d++ {
		g, w := max(l.Global[d], 1), max(l.Local[d], 1)
		half[d], one[d], last[d], odd[d] = max(w, g/2/w*w), w, g, g
		if d >= l.Dims {
			half[d], one[d] = g, g
			continue
		}
		if w > 1 && g > w {
			ragged = true
			last[d] = g - w + 1
			if last[d]%w == 0 {
				last[d] = g - 1
			}
			odd[d] = g/2 + 1
			if odd[d]%w == 0 {
				odd[d]++
			}
		}
	}
	sizes := [][3]int{l.Global, half}
	switch {
	case ragged && !uniform && prefixed:
		// A prefixed source is a new PoCL program per NDRange (about 5 s
		// of PoCL compiling per size with a cold kernel cache): one
		// ragged size.
		return append(sizes, odd)
	case ragged && !uniform:
		return append(sizes, last, odd)
	}
	return append(sizes, one)
}

// poclNonUniform are kernels the manifest marks as not runnable on PoCL only
// because their launch is a non-uniform NDRange, which runPoCL runs.
var poclNonUniform = map[string]bool{"partial_groups": true}

// needsUniform reports whether the source declares kernel name with
// reqd_work_group_size: such kernels (matmul, transpose, reduce_sum_static)
// index their local tiles assuming every workgroup is full, so a partial
// workgroup reads uninitialised local memory on any device.
func needsUniform(src, name string) bool {
	re := regexp.MustCompile(`reqd_work_group_size\s*\([^()]*\)\s*\)\s*\)\s*void\s+` + regexp.QuoteMeta(name) + `\s*\(`)
	return re.MatchString(src)
}

// poclPieces splits an NDRange into uniform pieces PoCL accepts (Debian's
// PoCL rejects a global size that is not a multiple of the workgroup size:
// CL_INVALID_WORK_GROUP_SIZE, no non-uniform workgroups). In each dimension
// of global size g and workgroup size L = q*L + r, the full workgroups form
// one piece (global q*L, local L) and the partial one another (global r,
// local r, global offset moved by q*L); the pieces are the product over the
// dimensions, at most 8. Each piece's workgroups are exactly workgroups of
// the non-uniform NDRange, so every work-item sees its get_global_id,
// get_local_id, get_local_size and get_local_linear_id and shares barriers
// and local memory with the same work-items.
func poclPieces(l corpus.Launch) (pieces []corpus.Launch) {
	pieces = []corpus.Launch{{Dims: l.Dims, Global: [3]int{1, 1, 1}, Local: [3]int{1, 1, 1}, Offset: l.Offset}}
	for d := 0; d < l.Dims; d++ {
		g, w := l.Global[d], l.Local[d]
		if w <= 0 {
			w = g
		}
		var next []corpus.Launch
		for _, p := range pieces {
			if q := g / w * w; q > 0 {
				p1 := p
				p1.Global[d], p1.Local[d] = q, w
				next = append(next, p1)
			}
			if r := g % w; r > 0 {
				p2 := p
				p2.Global[d], p2.Local[d], p2.Offset[d] = r, r, l.Offset[d]+g/w*w
				next = append(next, p2)
			}
		}
		pieces = next
	}
	for i := range pieces {
		for d := l.Dims; d < 3; d++ {
			pieces[i].Global[d], pieces[i].Local[d], pieces[i].Offset[d] = l.Global[d], l.Local[d], l.Offset[d]
		}
	}
	return pieces
}

// poclNDRangeMacros returns the source prefix that makes every piece of a
// split NDRange (poclPieces) report the work-item functions whose values
// differ between the piece and the whole NDRange as OpenCL 2.0 §6.13.1
// defines them for the whole NDRange l: get_num_groups, get_global_size,
// get_enqueued_local_size, get_global_offset and get_global_linear_id are
// l's constants; get_group_id adds the piece's first workgroup, derived from
// the piece's own global offset (PoCL's get_global_offset, read through a
// function defined before the macros), so one prefix (one PoCL build) serves
// all pieces. A function-like macro is not expanded inside its own
// replacement (C11 6.10.3.4), so the inner get_group_id is PoCL's.
// Dimension arguments of 3 and more are not used by the corpus and are not
// handled.
func poclNDRangeMacros(l corpus.Launch) string {
	var gs, ls, ng, off [3]int
	for d := 0; d < 3; d++ {
		gs[d], ls[d], off[d] = max(l.Global[d], 1), max(l.Local[d], 1), l.Offset[d]
		ng[d] = (gs[d] + ls[d] - 1) / ls[d]
	}
	sel := func(name string, v [3]int) string {
		return fmt.Sprintf("#define %s(d) ((size_t)((d) == 0 ? %du : (d) == 1 ? %du : %du))\n", name, v[0], v[1], v[2])
	}
	return "static size_t rocpu_piece_offset(uint d) { return get_global_offset(d); }\n" +
		sel("get_num_groups", ng) + sel("get_global_size", gs) + sel("get_enqueued_local_size", ls) + sel("get_global_offset", off) +
		"#define get_group_id(d) (get_group_id(d) + (rocpu_piece_offset(d) - get_global_offset(d)) / get_enqueued_local_size(d))\n" +
		fmt.Sprintf("#define get_global_linear_id() ((get_global_id(2) - %du) * %du + (get_global_id(1) - %du) * %du + (get_global_id(0) - %du))\n",
			off[2], gs[1]*gs[0], off[1], gs[0], off[0])
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
//   - ids_2d, ids_3d (record slot 22 = get_local_linear_id()) in a partial
//     workgroup: OpenCL 2.0 §6.13.1 and PoCL use the work-group's actual
//     get_local_size; ROCm device-libs' __ockl_get_local_linear_id uses the
//     dispatch packet's workgroup_size_x/y (the enqueued sizes), so a real
//     GPU gives (lz*Ly + ly)*Lx + lx with the enqueued L.
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
	case (k.Name == "ids_2d" || k.Name == "ids_3d") && a.Name == "out":
		const nrec = 24
		recs := max(k.Launch.Global[0], 1) * max(k.Launch.Global[1], 1) * max(k.Launch.Global[2], 1)
		u := func(r, s int) uint32 { return binary.LittleEndian.Uint32(want[(r*nrec+s)*4:]) }
		for r := 0; r < recs && (r+1)*nrec*4 <= len(want); r++ {
			spec := (u(r, 6)*u(r, 11)+u(r, 5))*u(r, 10) + u(r, 4)
			if u(r, 22) != spec {
				return 0, fmt.Errorf("%s record %d: PoCL get_local_linear_id %d, not the spec's %d", k.Name, r, u(r, 22), spec)
			}
			l1, l0 := uint32(max(k.Launch.Local[1], 1)), uint32(max(k.Launch.Local[0], 1))
			if dl := (u(r, 6)*l1+u(r, 5))*l0 + u(r, 4); dl != spec {
				binary.LittleEndian.PutUint32(want[(r*nrec+22)*4:], dl)
				n++
			}
		}
	}
	return n, nil
}

// poclOptions are PoCL's build options (OpenCL C 3.0; PoCL's 2.0 headers
// lack some vload overloads the corpus uses).
const poclOptions = pocl.DefaultOptions

// runPoCL is pocl.RunKernel for any NDRange: a non-uniform one runs as the
// uniform pieces poclPieces gives, one after another on the same buffers,
// each with the prefix of poclNDRangeMacros when the source calls a
// function it redefines.
func runPoCL(source string, k *corpus.Kernel, inputs map[string][]byte) (map[string][]byte, error) {
	pieces := poclPieces(k.Launch)
	if len(pieces) == 1 && pieces[0] == k.Launch {
		return runPoCLPiece(source, k, inputs)
	}
	in := maps.Clone(inputs)
	prefix := ""
	if usesNDRangeFuncs(source) {
		// Only then: a prefixed source is another program for PoCL to build.
		prefix = poclNDRangeMacros(k.Launch)
	}
	for i, p := range pieces {
		kp := *k
		kp.Launch = p
		out, err := runPoCLPiece(prefix+source, &kp, in)
		if err != nil {
			return nil, fmt.Errorf("piece %d of %d (global %v local %v offset %v): %w", i+1, len(pieces), p.Global, p.Local, p.Offset, err)
		}
		maps.Copy(in, out)
	}
	out := map[string][]byte{}
	for _, a := range k.Args {
		if a.Kind == "buffer" && a.Access != "in" {
			out[a.Name] = in[a.Name]
		}
	}
	return out, nil
}

// ndRangeFuncs are the work-item functions whose values differ between a
// piece of a split NDRange and the whole (see poclNDRangeMacros).
var ndRangeFuncs = []string{"get_group_id", "get_num_groups", "get_global_size",
	"get_enqueued_local_size", "get_global_linear_id", "get_global_offset"}

// usesNDRangeFuncs reports whether source calls any of ndRangeFuncs.
func usesNDRangeFuncs(source string) bool {
	for _, f := range ndRangeFuncs {
		if strings.Contains(source, f) {
			return true
		}
	}
	return false
}

// runPoCLPiece runs one uniform NDRange on PoCL.
func runPoCLPiece(source string, k *corpus.Kernel, inputs map[string][]byte) (map[string][]byte, error) {
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

// TestPoCLPieces pins poclPieces on a 2D NDRange ragged in both dimensions
// (33 = 4*8 + 1, 21 = 5*4 + 1, offset (3, 5)): four uniform pieces covering
// it workgroup by workgroup.
func TestPoCLPieces(t *testing.T) {
	l := corpus.Launch{Dims: 2, Global: [3]int{33, 21, 1}, Local: [3]int{8, 4, 1}, Offset: [3]int{3, 5, 0}}
	got := poclPieces(l)
	want := []corpus.Launch{
		{Dims: 2, Global: [3]int{32, 20, 1}, Local: [3]int{8, 4, 1}, Offset: [3]int{3, 5, 0}},
		{Dims: 2, Global: [3]int{32, 1, 1}, Local: [3]int{8, 1, 1}, Offset: [3]int{3, 25, 0}},
		{Dims: 2, Global: [3]int{1, 20, 1}, Local: [3]int{1, 4, 1}, Offset: [3]int{35, 5, 0}},
		{Dims: 2, Global: [3]int{1, 1, 1}, Local: [3]int{1, 1, 1}, Offset: [3]int{35, 25, 0}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pieces:\n got %v\nwant %v", got, want)
	}
	if p := poclPieces(corpus.Launch{Dims: 1, Global: [3]int{128, 1, 1}, Local: [3]int{64, 1, 1}}); len(p) != 1 || p[0].Global != [3]int{128, 1, 1} {
		t.Errorf("uniform launch split: %v", p)
	}
}
