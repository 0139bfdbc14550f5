package bench

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/emu"
)

// knownBroken lists kernels whose rocpu outputs are known to differ, with
// the reason; the test logs them instead of failing. Keep it empty.
var knownBroken = map[string]string{}

func f32(b []byte, i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])) }
func u32(b []byte, i int) uint32  { return binary.LittleEndian.Uint32(b[4*i:]) }

func putF32(b []byte, i int, v float32) { binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v)) }
func putU32(b []byte, i int, v uint32)  { binary.LittleEndian.PutUint32(b[4*i:], v) }

// reference computes in Go what a benchmark's checked buffers hold after
// one run, for the kernels whose results are exact; nil entries are not
// checked.
func reference(name string, n int, w *Workload) map[int][]byte {
	in := func(i int) []byte { return w.Buffers[i].Init }
	switch name {
	case "vector_add":
		c := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			putF32(c, i, f32(in(0), i)+f32(in(1), i))
		}
		return map[int][]byte{2: c}
	case "saxpy":
		y := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			putF32(y, i, float32(2.5*f32(in(0), i))+f32(in(1), i))
		}
		return map[int][]byte{1: y}
	case "dot":
		var s int32
		for i := 0; i < n; i++ {
			s += int32(u32(in(0), i)) * int32(u32(in(1), i))
		}
		r := make([]byte, 4)
		putU32(r, 0, uint32(s))
		return map[int][]byte{2: r}
	case "histogram":
		bins := make([]byte, 1024)
		for i := 0; i < n; i++ {
			v := in(0)[i]
			putU32(bins, int(v), u32(bins, int(v))+1)
		}
		return map[int][]byte{1: bins}
	case "matmul":
		c := make([]byte, 4*n*n)
		for r := 0; r < n; r++ {
			for col := 0; col < n; col++ {
				var acc float32
				for k := 0; k < n; k++ {
					acc = acc + float32(f32(in(0), r*n+k)*f32(in(1), k*n+col))
				}
				putF32(c, r*n+col, acc)
			}
		}
		return map[int][]byte{2: c}
	case "stencil":
		out := make([]byte, 4*n*n)
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				v := f32(in(0), i)
				if x > 0 && y > 0 && x < n-1 && y < n-1 {
					s := float32(float32(float32(f32(in(0), i-1)+f32(in(0), i+1))+f32(in(0), i-n)) + f32(in(0), i+n))
					v = float32(0.5*v) + float32(0.125*s)
				}
				putF32(out, i, v)
			}
		}
		return map[int][]byte{1: out}
	case "bitonic":
		v := make([]uint32, n)
		for i := range v {
			v[i] = u32(in(0), i)
		}
		slices.Sort(v)
		out := make([]byte, 4*n)
		for i, x := range v {
			putU32(out, i, x)
		}
		return map[int][]byte{0: out}
	case "scan":
		out := make([]byte, 4*n)
		var s uint32
		for i := 0; i < n; i++ {
			s += u32(in(0), i)
			putU32(out, i, s)
		}
		return map[int][]byte{0: out}
	}
	return nil
}

// TestRocpuMatchesReference runs every kernel at the tiny size on rocpu
// and compares the exact kernels with Go references (the float kernels
// with transcendentals are compared with PoCL in TestSuiteTiny).
func TestRocpuMatchesReference(t *testing.T) {
	rc, err := NewRocpu(2)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	for _, b := range Suite {
		w := b.Workload(Tiny)
		in, err := rc.Prepare(b, w)
		if err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		if err := in.Reset(); err != nil {
			t.Fatal(err)
		}
		if err := in.Run(context.Background()); err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		ref := reference(b.Name, b.Sizes[Tiny], w)
		if ref == nil && b.MaxULP == 0 {
			t.Errorf("%s: exact kernel without a Go reference", b.Name)
		}
		for i, want := range ref {
			got, _ := in.Read(i)
			if _, err := compare(&Benchmark{}, &Buffer{Name: w.Buffers[i].Name, Check: Exact}, want, got); err != nil {
				if why, ok := knownBroken[b.Name]; ok {
					t.Logf("%s (known broken: %s): %v", b.Name, why, err)
					continue
				}
				t.Errorf("%s: rocpu vs Go reference: %v", b.Name, err)
			}
		}
		// The instance counted the instructions it ran.
		if st := in.(*rocpuInstance).stats; st.Total() == 0 || st.Waves == 0 {
			t.Errorf("%s: no instructions counted: %+v", b.Name, st)
		}
		in.Close()
	}
}

// TestSuiteTiny runs the whole suite at the tiny size with the extras:
// rocpu against PoCL (when installed), and the report renders.
func TestSuiteTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	rep, err := Run(context.Background(), Options{Sizes: []Size{Tiny}, Workers: 2, Extras: true, Scaling: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != len(Suite) {
		t.Fatalf("%d results, want %d", len(rep.Results), len(Suite))
	}
	pocl := rep.PoCLNote == ""
	if !pocl {
		t.Logf("PoCL not available: %s", rep.PoCLNote)
	}
	for _, r := range rep.Results {
		if p := r.Rocpu1PerCPU; r.Rocpu1 != nil && len(p) >= 2 {
			lo, hi, n := p[0].Median, p[0].Median, 0
			for _, c := range p {
				lo, hi, n = min(lo, c.Median), max(hi, c.Median), n+c.Runs
			}
			if n > len(r.Rocpu1.Runs) || !(r.Rocpu1Time >= lo && r.Rocpu1Time <= hi) {
				t.Errorf("%s: one-worker runs per CPU %+v, time %v", r.Name, p, r.Rocpu1Time)
			}
		} else if r.Rocpu1 != nil && r.Rocpu1Time != r.Rocpu1.Median {
			t.Errorf("%s: one-worker time %v, want the median %v with runs on one CPU", r.Name, r.Rocpu1Time, r.Rocpu1.Median)
		}
		if r.Mismatch != "" {
			if why, ok := knownBroken[r.Name]; ok {
				t.Logf("%s (known broken: %s): %s", r.Name, why, r.Mismatch)
			} else {
				t.Errorf("%s: %s", r.Name, r.Mismatch)
			}
		}
		if len(r.Rocpu.Runs) < 5 || r.Rocpu.Min > r.Rocpu.Median || r.Rocpu.Median > r.Rocpu.Max || r.Rocpu.Min <= 0 {
			t.Errorf("%s: bad rocpu times %+v", r.Name, r.Rocpu)
		}
		if pocl && (r.PoCL == nil || len(r.PoCL.Runs) != len(r.Rocpu.Runs) || r.Ratio <= 0) {
			t.Errorf("%s: PoCL not measured alongside: %+v", r.Name, r.PoCL)
		}
		if r.Instructions["total"] == 0 || r.InstPerSec <= 0 {
			t.Errorf("%s: no instruction counts", r.Name)
		}
		if r.Rocpu1 == nil || len(r.Rocpu1.Runs) != len(r.Rocpu.Runs) || r.Scaling <= 0 {
			t.Errorf("%s: one worker not measured alongside: %+v", r.Name, r.Rocpu1)
		}
		if pocl && (r.PoCL1 == nil || len(r.PoCL1.Runs) != len(r.Rocpu.Runs) || r.PoCLScaling <= 0) {
			t.Errorf("%s: PoCL on one thread not measured alongside: %+v", r.Name, r.PoCL1)
		}
	}
	if pocl {
		if g := rep.Geomean["tiny"]; !(g > 0) {
			t.Errorf("geomean %v", g)
		}
	}
	ex := rep.Extras
	if ex == nil || ex.DispatchLatencyUs <= 0 || ex.DispatchPerSec <= 0 || ex.DecodePerSec <= 0 || len(ex.LoadFreezeUs) != len(Suite)+1 {
		t.Fatalf("extras: %+v", ex)
	}
	md := rep.Markdown()
	for _, want := range []string{"| vector_add | tiny | 1000 elements | 1 |", "| bitonic | tiny | 28160 compare-exchanges | 55 |", "CPU s per run", "geometric mean", "decoder", "PoCL speed-up"} {
		if !pocl && (want == "geometric mean" || want == "PoCL speed-up") {
			continue
		}
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	js, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil || len(back.Results) != len(rep.Results) || back.Results[0].Rocpu.Median != rep.Results[0].Rocpu.Median {
		t.Errorf("JSON does not round-trip: %v", err)
	}
	svg := rep.SVG()
	if !strings.HasPrefix(svg, "<svg") || !strings.HasSuffix(svg, "</svg>\n") || strings.Count(svg, "<polyline") != len(Suite) {
		t.Errorf("bad SVG:\n%s", svg)
	}
}

func TestULPDiff(t *testing.T) {
	one := float32(1)
	next := math.Nextafter32(one, 2)
	for _, c := range []struct {
		a, b, floor float32
		want        float64
	}{
		{1, 1, 0, 0},
		{one, next, 0, 1},
		{next, one, 0, 1},
		{-one, -next, 0, 1},
		{1024, math.Nextafter32(1024, 0), 0, 0.5}, // the larger magnitude's ULP
		{0, 1e-10, 1, 1e-10 / float64(next-one)},  // below the floor: ULPs of the floor
		{float32(math.NaN()), float32(math.NaN()), 0, 0},
		{float32(math.NaN()), 1, 0, math.Inf(1)},
		{float32(math.Inf(1)), math.MaxFloat32, 0, math.Inf(1)},
	} {
		if got := ulpDiff(c.a, c.b, c.floor); math.Abs(got-c.want) > 1e-9*max(1, c.want) && got != c.want {
			t.Errorf("ulpDiff(%g, %g, %g) = %g, want %g", c.a, c.b, c.floor, got, c.want)
		}
	}
}

func TestCompare(t *testing.T) {
	b := &Benchmark{MaxULP: 2, ULPFloor: 1}
	x := make([]byte, 8)
	y := make([]byte, 8)
	putF32(x, 1, 1)
	putF32(y, 1, math.Nextafter32(math.Nextafter32(1, 2), 2))
	if d, err := compare(b, &Buffer{Name: "v", Check: Float32}, x, y); err != nil || d != 2 {
		t.Errorf("2 ULP within bound 2: %v, %v", d, err)
	}
	putF32(y, 0, 1e-6) // 1e-6 / ulp(1) ≈ 8.4 ULP of the floor
	if _, err := compare(b, &Buffer{Name: "v", Check: Float32}, x, y); err == nil || !strings.Contains(err.Error(), "v[0]") {
		t.Errorf("want v[0] beyond the bound, got %v", err)
	}
	if _, err := compare(b, &Buffer{Name: "e", Check: Exact}, x, y); err == nil || !strings.Contains(err.Error(), "byte 0") {
		t.Errorf("exact: %v", err)
	}
	if _, err := compare(b, &Buffer{Name: "n", Check: NoCheck}, x, y); err != nil {
		t.Errorf("NoCheck: %v", err)
	}
}

func TestSizesAndWorkloads(t *testing.T) {
	if s, err := ParseSize("Large"); err != nil || s != Large || s.String() != "large" {
		t.Errorf("ParseSize: %v %v", s, err)
	}
	if _, err := ParseSize("huge"); err == nil {
		t.Error("ParseSize(huge) succeeded")
	}
	for _, b := range Suite {
		if _, err := CodeObject(b.Name); err != nil {
			t.Errorf("%s: %v", b.Name, err)
		}
		if _, err := Source(b.Name); err != nil {
			t.Errorf("%s: %v", b.Name, err)
		}
		for s := Tiny; s <= Large; s++ {
			if s > Tiny && b.Sizes[s] <= b.Sizes[s-1] {
				t.Errorf("%s: sizes not increasing: %v", b.Name, b.Sizes)
			}
		}
		w := b.Workload(Tiny)
		for _, d := range w.Dispatches {
			for i := 0; i < 3; i++ {
				if d.Local[i] == 0 || d.Global[i]%d.Local[i] != 0 {
					t.Errorf("%s: grid %v not a multiple of %v", b.Name, d.Global, d.Local)
				}
			}
			for _, a := range d.Args {
				if a.Kind == ArgScalar {
					if _, err := scalarBytes(a.Value); err != nil {
						t.Error(err)
					}
				}
			}
		}
	}
	if w := mustLookup(t, "bitonic").Make(1 << 10); len(w.Dispatches) != 55 {
		t.Errorf("bitonic 2^10: %d dispatches, want 55", len(w.Dispatches))
	}
}

func mustLookup(t testing.TB, name string) *Benchmark {
	b, ok := Lookup(name)
	if !ok {
		t.Fatalf("no benchmark %s", name)
	}
	return b
}

// TestPoCLOneThread: the one-thread PoCL side is a device of one compute
// unit and computes what the whole device computes.
func TestPoCLOneThread(t *testing.T) {
	if _, err := NewPoCL(2); err != nil {
		t.Skipf("PoCL: %v", err)
	}
	p1, err := NewPoCLOne()
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("PoCL one thread: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := p1.ComputeUnits(); n != 1 {
		t.Errorf("one-thread PoCL has %d compute units", n)
	}
	b, _ := Lookup("saxpy")
	w := b.Workload(Tiny)
	var outs [][]byte
	for _, side := range []Side{&PoCL{}, p1} {
		in, err := side.Prepare(b, w)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		if _, _, err := timeRun(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		out, err := in.Read(1)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	if string(outs[0]) != string(outs[1]) || len(outs[0]) == 0 {
		t.Error("one-thread PoCL computes a different saxpy")
	}
}

func TestPoCLUnavailableIsReported(t *testing.T) {
	// Either PoCL works, or the error says why through ErrUnavailable.
	if _, err := NewPoCL(2); err != nil && !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewPoCL: %v is not ErrUnavailable", err)
	}
}

// benchRocpu times one kernel's Run on rocpu (Reset excluded).
func benchRocpu(b *testing.B, name string, s Size) {
	bm := mustLookup(b, name)
	rc, err := NewRocpu(0)
	if err != nil {
		b.Fatal(err)
	}
	defer rc.Close()
	in, err := rc.Prepare(bm, bm.Workload(s))
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	var valu uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		in.Reset()
		b.StartTimer()
		if err := in.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		valu += in.(*rocpuInstance).stats.Instructions[emu.ClassVALU]
	}
	b.ReportMetric(float64(valu)/b.Elapsed().Seconds()/1e6, "MVALU/s")
}

// BenchmarkNBody is n-body at the small size on rocpu: the one to profile
// (go test -run '^$' -bench NBody -cpuprofile cpu.out ./bench).
func BenchmarkNBody(b *testing.B) { benchRocpu(b, "nbody", Small) }

// BenchmarkKernels runs every kernel at the small size on rocpu.
func BenchmarkKernels(b *testing.B) {
	for _, bm := range Suite {
		b.Run(bm.Name, func(b *testing.B) { benchRocpu(b, bm.Name, Small) })
	}
}

// TestScanThreeLevels: beyond (256*16)² elements the scan workload adds a
// third level of block sums (five dispatches), as the large size needs;
// rocpu's result matches a Go prefix sum.
func TestScanThreeLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("a 67 MB scan")
	}
	b, _ := Lookup("scan")
	const n = 4096*4096 + 3*4096 + 5
	w := b.Make(n)
	if len(w.Dispatches) != 5 {
		t.Fatalf("%d dispatches, want 5", len(w.Dispatches))
	}
	if small := b.Make(4096 * 4096); len(small.Dispatches) != 3 {
		t.Errorf("(256*16)² elements: %d dispatches, want 3", len(small.Dispatches))
	}
	rc, err := NewRocpu(2)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	in, err := rc.Prepare(b, w)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := in.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, _ := in.Read(0)
	want := reference("scan", n, w)[0]
	if _, err := compare(&Benchmark{}, &Buffer{Name: "data", Check: Exact}, want, got); err != nil {
		t.Error(err)
	}
}

// TestBelowInterleaved: with two sizes, the larger one's rounds also time
// the smaller one (belowRuns runs after each rocpu run), and its time per
// element over those runs' is the SizeRatio the report shows.
func TestBelowInterleaved(t *testing.T) {
	rep, err := Run(context.Background(), Options{Sizes: []Size{Small, Tiny}, Workers: 2, NoPoCL: true,
		Match: regexp.MustCompile(`^vector_add$`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results, want 2", len(rep.Results))
	}
	small, tiny := rep.Results[0], rep.Results[1]
	if small.Size != "small" || tiny.Size != "tiny" {
		small, tiny = tiny, small
	}
	if tiny.Below != nil || tiny.SizeRatio != 0 {
		t.Errorf("tiny, the smallest size, has runs below it: %+v", tiny.Below)
	}
	bl := small.Below
	if bl == nil {
		t.Fatal("small: no interleaved tiny runs")
	}
	if bl.Size != "tiny" || bl.Elements != tiny.Elements || len(bl.Rocpu.Runs) != belowRuns*len(small.Rocpu.Runs) {
		t.Errorf("small: below %s, %d elements, %d runs; want tiny, %d, %d", bl.Size, bl.Elements, len(bl.Rocpu.Runs),
			tiny.Elements, belowRuns*len(small.Rocpu.Runs))
	}
	want := (small.Rocpu.Median / float64(small.Elements)) / (bl.Rocpu.Median / float64(bl.Elements))
	if math.Abs(small.SizeRatio-want) > 1e-9*want || !(want > 0) {
		t.Errorf("size ratio %v, want %v", small.SizeRatio, want)
	}
	if md := rep.Markdown(); !strings.Contains(md, "small / tiny, interleaved runs") ||
		!strings.Contains(md, fmt.Sprintf(" %.2f |\n", small.SizeRatio)) {
		t.Errorf("markdown lacks the interleaved ratio %.2f:\n%s", small.SizeRatio, md)
	}
}

// TestPoCLSizeRatioColumn: with PoCL times at the two largest sizes the
// time-per-element table gives PoCL's own ratio beside rocpu's.
func TestPoCLSizeRatioColumn(t *testing.T) {
	tm := func(s float64) *Times { return &Times{Runs: []float64{s}, Median: s, Min: s, Max: s} }
	rep := &Report{Geomean: map[string]float64{}, Worst: map[string]string{}, Results: []*Result{
		{Name: "k", Size: "medium", Elements: 100, Rocpu: tm(1), PoCL: tm(0.5), Ratio: 2},
		{Name: "k", Size: "large", Elements: 1000, Rocpu: tm(10), PoCL: tm(3), Ratio: 10.0 / 3},
	}}
	md := rep.Markdown()
	// rocpu 10 ns -> 10 ns per element (1.00); PoCL 5 -> 3 ns (0.60).
	if !strings.Contains(md, "| PoCL large / medium |") || !strings.Contains(md, "| k | 10000000.00 ns | 10000000.00 ns | 1.00 | 0.60 |") {
		t.Errorf("time per element table lacks PoCL's ratio:\n%s", md)
	}
}
