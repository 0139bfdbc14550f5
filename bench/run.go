package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"time"

	"github.com/rocpu/rocpu/emu"
)

// Options configure a suite run.
type Options struct {
	Sizes   []Size         // default Small, Medium, Large
	Match   *regexp.Regexp // benchmarks to run; nil: all
	Reps    int            // timed runs per side after the warm-up; < 5 means 5
	Workers int            // rocpu workers and PoCL threads; 0: runtime.NumCPU()
	// Scaling also times rocpu with one worker at the largest size run.
	Scaling bool
	// Extras measures dispatch latency and throughput, code object load
	// and decoder throughput.
	Extras bool
	// NoPoCL measures rocpu alone (also the fallback when PoCL is
	// unavailable, with a note in the report).
	NoPoCL bool
	Log    io.Writer // progress lines; nil: none
}

// Times summarises repeated wall-clock times, in seconds.
type Times struct {
	Runs   []float64 `json:"runs"`
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
}

// mallocs is the number of heap allocations so far.
func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

func summarize(runs []float64) *Times {
	if len(runs) == 0 {
		return nil
	}
	s := append([]float64(nil), runs...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &Times{Runs: runs, Median: m, Min: s[0], Max: s[len(s)-1]}
}

// classNames name emu's instruction classes, indexed by emu.ClassSALU….
var classNames = [emu.NumClasses]string{"salu", "smem", "branch", "valu", "vmem", "lds", "other"}

// Result is one benchmark at one size.
type Result struct {
	Name       string  `json:"name"`
	Size       string  `json:"size"`
	Elements   int     `json:"elements"`
	Unit       string  `json:"unit"`
	Dispatches int     `json:"dispatches"`
	PoCL       *Times  `json:"pocl,omitempty"`
	Rocpu      *Times  `json:"rocpu"`
	Ratio      float64 `json:"ratio,omitempty"` // rocpu median / PoCL median
	// RocpuCPU and PoCLCPU are the median process CPU seconds (user +
	// system) per run: on a loaded machine they show the work done when
	// wall time also counts waiting for a core.
	RocpuCPU float64 `json:"rocpu_cpu_s"`
	PoCLCPU  float64 `json:"pocl_cpu_s,omitempty"`
	// Allocs is the median number of Go heap allocations per rocpu run
	// (Reset included, which allocates nothing).
	Allocs float64 `json:"rocpu_allocs"`
	// Check says how outputs were compared: "exact", or "≤ N ULP" with
	// the largest difference seen in MaxULPSeen.
	Check      string  `json:"check"`
	MaxULPSeen float64 `json:"max_ulp_seen"`
	// Mismatch describes how rocpu's outputs differ from PoCL's beyond
	// Check ("" when they agree); such results stay out of the geomean.
	Mismatch string `json:"mismatch,omitempty"`
	// Instructions are rocpu's executed instructions per run by class.
	Instructions map[string]uint64 `json:"instructions"`
	InstPerSec   float64           `json:"inst_per_sec"` // at the rocpu median
	VALUPerSec   float64           `json:"valu_per_sec"`
	// Rocpu1 is rocpu with one worker (Options.Scaling), Scaling the
	// speed-up of Workers workers over one: Rocpu1Time / Rocpu.Median.
	Rocpu1  *Times  `json:"rocpu_1_worker,omitempty"`
	Scaling float64 `json:"scaling,omitempty"`
	// Rocpu1Time is the one-worker time Scaling uses. A machine's CPUs
	// need not run one thread equally fast (this VM's two differ by up to
	// 75% on memory-bound kernels, depending on the minute), a one-worker
	// run takes the speed of whichever CPU it lands on, and the
	// Workers-worker run uses them all. So the CPU of each one-worker run
	// is read from /proc (runCPU; the run is not moved), and when runs
	// landed on two or more CPUs the one-worker time is the harmonic mean
	// of the per-CPU medians (Rocpu1PerCPU): the time on a CPU of average
	// speed, against which Workers workers ideally gain exactly Workers×.
	// Otherwise it is Rocpu1.Median.
	Rocpu1Time   float64   `json:"rocpu_1_worker_time,omitempty"`
	Rocpu1PerCPU []CPUTime `json:"rocpu_1_worker_per_cpu,omitempty"`
	// PoCL1 is PoCL on one thread (a one-compute-unit sub-device), and
	// PoCLScaling its Workers-thread speed-up: the native reference, its
	// one-thread time taken as rocpu's (PoCL1Time, PoCL1PerCPU).
	PoCL1       *Times    `json:"pocl_1_thread,omitempty"`
	PoCLScaling float64   `json:"pocl_scaling,omitempty"`
	PoCL1Time   float64   `json:"pocl_1_thread_time,omitempty"`
	PoCL1PerCPU []CPUTime `json:"pocl_1_thread_per_cpu,omitempty"`
	// Below is rocpu at the next smaller size (the largest size run:
	// medium below large) timed in the same rounds as this size, and
	// SizeRatio this size's median time per element over Below's. The
	// smaller size's own result comes from runs minutes earlier; on a
	// machine whose speed drifts from minute to minute that compares two
	// machines, where runs interleaved with this size's compare one.
	Below     *BelowTimes `json:"below,omitempty"`
	SizeRatio float64     `json:"size_ratio,omitempty"`
}

// BelowTimes are the interleaved runs of Result.Below.
type BelowTimes struct {
	Size     string `json:"size"`
	Elements int    `json:"elements"`
	Rocpu    *Times `json:"rocpu"`
}

// belowRuns is the number of smaller-size runs after each of the larger
// size's rocpu runs (Result.Below).
const belowRuns = 3

// CPUTime is the median of the one-worker runs confined to one CPU.
type CPUTime struct {
	CPU    int     `json:"cpu"`
	Median float64 `json:"median"`
	Runs   int     `json:"runs"`
}

// oneWorkerTime is the one-worker time of runs taken on cpus[i] (-1:
// unknown): the harmonic mean of the per-CPU medians of the runs whose CPU
// is known when they ran on two or more CPUs, else the median of all runs;
// and the per-CPU medians.
func oneWorkerTime(runs []float64, cpus []int) (float64, []CPUTime) {
	by := map[int][]float64{}
	var order []int
	for i, t := range runs {
		c := cpus[i]
		if c < 0 {
			continue
		}
		if by[c] == nil {
			order = append(order, c)
		}
		by[c] = append(by[c], t)
	}
	sort.Ints(order)
	var per []CPUTime
	inv := 0.0
	for _, c := range order {
		m := summarize(by[c]).Median
		per = append(per, CPUTime{CPU: c, Median: m, Runs: len(by[c])})
		inv += 1 / m
	}
	if len(per) < 2 {
		return summarize(runs).Median, per
	}
	return float64(len(order)) / inv, per
}

// NsPerElement is rocpu's median time per element.
func (r *Result) NsPerElement() float64 { return r.Rocpu.Median * 1e9 / float64(r.Elements) }

// Report is a whole suite run.
type Report struct {
	Date       string    `json:"date"`
	Commit     string    `json:"commit,omitempty"`
	GoVersion  string    `json:"go"`
	CPU        string    `json:"cpu"`
	Cores      int       `json:"cores"`
	Workers    int       `json:"workers"`
	PoCLDevice string    `json:"pocl_device,omitempty"`
	PoCLNote   string    `json:"pocl_note,omitempty"`
	Reps       int       `json:"reps"`
	Results    []*Result `json:"results"`
	// Geomean is the geometric mean of the ratios per size; Worst the
	// largest ratio per size and its kernel.
	Geomean map[string]float64 `json:"geomean"`
	Worst   map[string]string  `json:"worst"`
	Extras  *Extras            `json:"extras,omitempty"`
	Elapsed float64            `json:"elapsed_s"`
}

func (o *Options) logf(format string, a ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", a...)
	}
}

// Run runs the suite.
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	if o.Reps < 5 {
		o.Reps = 5
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if len(o.Sizes) == 0 {
		o.Sizes = []Size{Small, Medium, Large}
	}
	rep := &Report{Date: time.Now().UTC().Format(time.RFC3339), GoVersion: runtime.Version(), CPU: cpuName(),
		Cores: runtime.NumCPU(), Workers: o.Workers, Reps: o.Reps, Geomean: map[string]float64{}, Worst: map[string]string{}}
	var pocl Side
	if !o.NoPoCL {
		p, err := NewPoCL(o.Workers)
		if err != nil {
			rep.PoCLNote = err.Error()
			o.logf("PoCL unavailable, measuring rocpu alone: %v", err)
		} else {
			pocl = p
			rep.PoCLDevice = p.Device()
		}
	}
	var pocl1 Side
	if pocl != nil && o.Scaling && o.Workers > 1 {
		p1, err := NewPoCLOne()
		if err != nil {
			o.logf("PoCL on one thread unavailable, scaling without its reference: %v", err)
		} else {
			pocl1 = p1
		}
	}
	rc, err := NewRocpu(o.Workers)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	largest := o.Sizes[0]
	for _, s := range o.Sizes {
		largest = max(largest, s)
	}
	for _, b := range Suite {
		if o.Match != nil && !o.Match.MatchString(b.Name) {
			continue
		}
		for _, s := range o.Sizes {
			// The size just below the largest one run is also timed in
			// the largest one's rounds (Result.Below).
			below := Size(-1)
			if s == largest {
				for _, t := range o.Sizes {
					if t < s && t > below {
						below = t
					}
				}
			}
			r, err := runOne(ctx, &o, b, s, below, pocl, pocl1, rc, o.Scaling && s == largest)
			// The large sizes hold gigabytes (inputs, outputs read back):
			// give them back before the next kernel's buffers are made.
			debug.FreeOSMemory()
			if err != nil {
				return rep, fmt.Errorf("%s/%s: %w", b.Name, s, err)
			}
			rep.Results = append(rep.Results, r)
		}
	}
	for _, s := range o.Sizes {
		logSum, n, worst, wn := 0.0, 0, 0.0, ""
		for _, r := range rep.Results {
			if r.Size == s.String() && r.Ratio > 0 && r.Mismatch == "" {
				logSum += math.Log(r.Ratio)
				n++
				if r.Ratio > worst {
					worst, wn = r.Ratio, r.Name
				}
			}
		}
		if n > 0 {
			rep.Geomean[s.String()] = math.Exp(logSum / float64(n))
			rep.Worst[s.String()] = fmt.Sprintf("%s %.1f×", wn, worst)
		}
	}
	if o.Extras {
		ex, err := measureExtras(ctx, &o, pocl, rc)
		if err != nil {
			return rep, err
		}
		rep.Extras = ex
	}
	rep.Elapsed = time.Since(start).Seconds()
	return rep, nil
}

// timeRun resets in and times one Run: wall-clock seconds, and the
// process's CPU seconds (user + system, all threads: PoCL's and rocpu's
// workers alike) meanwhile.
func timeRun(ctx context.Context, in Instance) (wall, cpu float64, err error) {
	if err := in.Reset(); err != nil {
		return 0, 0, err
	}
	c := cpuSeconds()
	t := time.Now()
	err = in.Run(ctx)
	return time.Since(t).Seconds(), cpuSeconds() - c, err
}

// runOne measures benchmark b at size s: a warm-up run on each side whose
// outputs are compared, then Reps runs alternating PoCL, rocpu.
// With oneWorker (scaling) each of those rounds also runs PoCL on one
// thread (pocl1, a one-compute-unit sub-device; nil if unavailable) and
// rocpu with one worker (its own runtime, made here), so both sides'
// speed-ups come from times taken in the same minutes of a noisy machine.
func runOne(ctx context.Context, o *Options, b *Benchmark, s, below Size, pocl, pocl1 Side, rc *Rocpu, oneWorker bool) (*Result, error) {
	w := b.Workload(s)
	if w.MaxULP > 0 && w.MaxULP != b.MaxULP {
		bb := *b
		bb.MaxULP = w.MaxULP
		b = &bb
	}
	res := &Result{Name: b.Name, Size: s.String(), Elements: w.Elements, Unit: w.Unit, Dispatches: len(w.Dispatches),
		Check: "exact"}
	if b.MaxULP > 0 {
		res.Check = fmt.Sprintf("≤ %d ULP", b.MaxULP)
	}
	ri, err := rc.Prepare(b, w)
	if err != nil {
		return nil, err
	}
	defer ri.Close()
	var pi Instance
	if pocl != nil {
		if pi, err = pocl.Prepare(b, w); err != nil {
			return nil, err
		}
		defer pi.Close()
	}
	// Warm-up and check.
	tr, _, err := timeRun(ctx, ri)
	if err != nil {
		return nil, err
	}
	stats := ri.(*rocpuInstance).stats
	tp := 0.0
	if pi != nil {
		if tp, _, err = timeRun(ctx, pi); err != nil {
			return nil, err
		}
		for i := range w.Buffers {
			bf := &w.Buffers[i]
			if bf.Check == NoCheck {
				continue
			}
			x, err := pi.Read(i)
			if err != nil {
				return nil, err
			}
			y, _ := ri.Read(i)
			d, err := compare(b, bf, x, y)
			res.MaxULPSeen = max(res.MaxULPSeen, d)
			if err != nil && res.Mismatch == "" {
				// Measured and reported, but left out of the geometric mean.
				res.Mismatch = err.Error()
				o.logf("%s/%s: OUTPUTS DIFFER: %v", b.Name, s, err)
			}
		}
	}
	// One-worker sides for the scaling measurement. rocpu's is the same
	// runtime and buffers with the device set to one worker for the run
	// (a second runtime doubled the memory of the large sizes: 3 GiB more
	// for vector_add); PoCL's is its own context, warmed up.
	var pi1 Instance
	if oneWorker {
		if pocl1 != nil && pi != nil {
			if pi1, err = pocl1.Prepare(b, w); err != nil {
				return nil, err
			}
			defer pi1.Close()
			if _, _, err := timeRun(ctx, pi1); err != nil {
				return nil, err
			}
		}
	}
	// The smaller size's rocpu instance (below >= 0), warmed up. Its
	// outputs were checked in its own result.
	var bi Instance
	var bw *Workload
	if below >= 0 {
		bw = b.Workload(below)
		if bi, err = rc.Prepare(b, bw); err != nil {
			return nil, err
		}
		defer bi.Close()
		if _, _, err := timeRun(ctx, bi); err != nil {
			return nil, err
		}
	}
	reps := o.Reps
	if tr+tp < 0.05 {
		reps = max(reps, 21) // short runs: more samples
	}
	var pt, rt, pc, rcpu, allocs, pt1, rt1, bt []float64
	var cpus1, pcpus1 []int // the CPU each one-worker run ran on, or -1
	// oneSide times a one-worker side and notes the CPU it ran on.
	oneSide := func(in Instance, cpus *[]int) (float64, error) {
		a := sampleThreads()
		t, _, err := timeRun(ctx, in)
		*cpus = append(*cpus, runCPU(a, sampleThreads()))
		return t, err
	}
	for i := 0; i < reps; i++ {
		if pi != nil {
			t, c, err := timeRun(ctx, pi)
			if err != nil {
				return nil, err
			}
			pt, pc = append(pt, t), append(pc, c)
		}
		m0 := mallocs()
		t, c, err := timeRun(ctx, ri)
		if err != nil {
			return nil, err
		}
		rt, rcpu = append(rt, t), append(rcpu, c)
		allocs = append(allocs, float64(mallocs()-m0))
		for j := 0; bi != nil && j < belowRuns; j++ {
			t, _, err := timeRun(ctx, bi)
			if err != nil {
				return nil, err
			}
			bt = append(bt, t)
		}
		if pi1 != nil {
			t, err := oneSide(pi1, &pcpus1)
			if err != nil {
				return nil, err
			}
			pt1 = append(pt1, t)
		}
		if oneWorker {
			if err := rc.gpu.SetWorkers(1); err != nil {
				return nil, err
			}
			t, err := oneSide(ri, &cpus1)
			if e := rc.gpu.SetWorkers(rc.workers); e != nil && err == nil {
				err = e
			}
			if err != nil {
				return nil, err
			}
			rt1 = append(rt1, t)
		}
	}
	res.Rocpu, res.PoCL = summarize(rt), summarize(pt)
	res.RocpuCPU = summarize(rcpu).Median
	res.Allocs = summarize(allocs).Median
	if pi != nil {
		res.PoCLCPU = summarize(pc).Median
	}
	if res.PoCL != nil {
		res.Ratio = res.Rocpu.Median / res.PoCL.Median
	}
	res.Instructions = map[string]uint64{}
	var total uint64
	for c := 0; c < emu.NumClasses; c++ {
		res.Instructions[classNames[c]] = stats.Instructions[c]
		total += stats.Instructions[c]
	}
	res.Instructions["total"] = total
	res.InstPerSec = float64(total) / res.Rocpu.Median
	res.VALUPerSec = float64(stats.Instructions[emu.ClassVALU]) / res.Rocpu.Median
	if oneWorker {
		res.Rocpu1 = summarize(rt1)
		res.Rocpu1Time, res.Rocpu1PerCPU = oneWorkerTime(rt1, cpus1)
		res.Scaling = res.Rocpu1Time / res.Rocpu.Median
	}
	if pi1 != nil && res.PoCL != nil {
		res.PoCL1 = summarize(pt1)
		res.PoCL1Time, res.PoCL1PerCPU = oneWorkerTime(pt1, pcpus1)
		res.PoCLScaling = res.PoCL1Time / res.PoCL.Median
	}
	if bi != nil {
		res.Below = &BelowTimes{Size: below.String(), Elements: bw.Elements, Rocpu: summarize(bt)}
		res.SizeRatio = res.NsPerElement() / (res.Below.Rocpu.Median * 1e9 / float64(bw.Elements))
	}
	line := fmt.Sprintf("%-12s %-6s rocpu %9.3f ms (cpu %9.3f ms)", b.Name, s, res.Rocpu.Median*1e3, res.RocpuCPU*1e3)
	if res.PoCL != nil {
		line += fmt.Sprintf("  pocl %9.3f ms (cpu %8.3f ms)  ratio %6.1f×", res.PoCL.Median*1e3, res.PoCLCPU*1e3, res.Ratio)
	}
	if res.Scaling > 0 {
		line += fmt.Sprintf("  1→%d workers %.2f×", o.Workers, res.Scaling)
	}
	if res.PoCLScaling > 0 {
		line += fmt.Sprintf(" (PoCL %.2f×)", res.PoCLScaling)
	}
	if res.Below != nil {
		line += fmt.Sprintf("  per element %s/%s %.2f (interleaved)", s, below, res.SizeRatio)
	}
	o.logf("%s", line)
	return res, nil
}
