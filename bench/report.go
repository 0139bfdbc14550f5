package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func ms(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.1f µs", s*1e6)
}

func timesCell(t *Times) string {
	if t == nil {
		return "—"
	}
	return fmt.Sprintf("%s (%s–%s)", ms(t.Median), ms(t.Min), ms(t.Max))
}

// oneWorkerCell shows a one-worker side: the time the speed-up uses and
// the medians per CPU with their number of runs.
func oneWorkerCell(t *Times, one float64, per []CPUTime) string {
	if len(per) == 0 {
		return timesCell(t)
	}
	s := ms(one) + " ["
	for i, c := range per {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("CPU%d %s ×%d", c.CPU, ms(c.Median), c.Runs)
	}
	return s + "]"
}

func (r *Report) sizes() []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range r.Results {
		if !seen[x.Size] {
			seen[x.Size] = true
			out = append(out, x.Size)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := ParseSize(out[i])
		b, _ := ParseSize(out[j])
		return a < b
	})
	return out
}

func (r *Report) find(name, size string) *Result {
	for _, x := range r.Results {
		if x.Name == name && x.Size == size {
			return x
		}
	}
	return nil
}

func (r *Report) names() []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range r.Results {
		if !seen[x.Name] {
			seen[x.Name] = true
			out = append(out, x.Name)
		}
	}
	return out
}

// Markdown renders the report as Markdown tables.
func (r *Report) Markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("# rocpu vs PoCL — %s\n\n", r.Date)
	p("CPU: %s, %d cores; rocpu workers = PoCL threads = %d; %s", r.CPU, r.Cores, r.Workers, r.GoVersion)
	if r.Commit != "" {
		p("; commit %s", r.Commit)
	}
	p(".\n")
	if r.PoCLDevice != "" {
		p("PoCL device: %s.\n", r.PoCLDevice)
	}
	if r.PoCLNote != "" {
		p("PoCL not measured: %s.\n", r.PoCLNote)
	}
	p("Each cell: median (min–max) wall time of %d+ runs per side after a warm-up, alternating PoCL, rocpu; the ratio is of the medians. "+
		"CPU s is the process's user + system time per run (median). Suite time %.0f s.\n\n", r.Reps, r.Elapsed)
	p("| kernel | size | elements | dispatches | PoCL | rocpu | rocpu/PoCL | CPU s per run PoCL / rocpu | outputs |\n|---|---|---:|---:|---|---|---:|---|---|\n")
	for _, x := range r.Results {
		ratio := "—"
		if x.Ratio > 0 {
			ratio = fmt.Sprintf("%.1f×", x.Ratio)
		}
		chk := x.Check
		if x.Check != "exact" {
			chk += fmt.Sprintf(" (max seen %.0f)", x.MaxULPSeen)
		}
		if x.Mismatch != "" {
			chk = "**DIFFER**: " + x.Mismatch
		}
		p("| %s | %s | %d %s | %d | %s | %s | %s | %s / %s | %s |\n", x.Name, x.Size, x.Elements, x.Unit, x.Dispatches,
			timesCell(x.PoCL), timesCell(x.Rocpu), ratio, ms(x.PoCLCPU), ms(x.RocpuCPU), chk)
	}
	p("\n| size | geometric mean rocpu/PoCL | worst |\n|---|---:|---|\n")
	for _, s := range r.sizes() {
		if g, ok := r.Geomean[s]; ok {
			p("| %s | %.1f× | %s |\n", s, g, r.Worst[s])
		}
	}
	var mism []string
	for _, x := range r.Results {
		if x.Mismatch != "" {
			mism = append(mism, x.Name+"/"+x.Size)
		}
	}
	if len(mism) > 0 {
		p("\nLeft out of the geometric means because the outputs differ: %s.\n", strings.Join(mism, ", "))
	}

	// Time per element across sizes.
	sz := r.sizes()
	p("\n## rocpu time per element\n\n| kernel |")
	for _, s := range sz {
		p(" %s |", s)
	}
	inter := false // some result has Below (runs interleaved with the largest size's)
	for _, x := range r.Results {
		inter = inter || x.Below != nil
	}
	if len(sz) >= 2 {
		p(" %s / %s |", sz[len(sz)-1], sz[len(sz)-2])
	}
	if inter {
		p(" %s / %s, interleaved runs |", sz[len(sz)-1], sz[len(sz)-2])
	}
	pocl := false // PoCL measured at the two largest sizes: its ratio as the reference
	if len(sz) >= 2 {
		for _, n := range r.names() {
			a, c := r.find(n, sz[len(sz)-2]), r.find(n, sz[len(sz)-1])
			pocl = pocl || a != nil && c != nil && a.PoCL != nil && c.PoCL != nil
		}
	}
	if pocl {
		p(" PoCL %s / %s |", sz[len(sz)-1], sz[len(sz)-2])
	}
	p("\n|---|")
	for range sz {
		p("---:|")
	}
	if len(sz) >= 2 {
		p("---:|")
	}
	if inter {
		p("---:|")
	}
	if pocl {
		p("---:|")
	}
	p("\n")
	for _, n := range r.names() {
		p("| %s |", n)
		var last []float64
		for _, s := range sz {
			if x := r.find(n, s); x != nil {
				p(" %.2f ns |", x.NsPerElement())
				last = append(last, x.NsPerElement())
			} else {
				p(" — |")
				last = append(last, 0)
			}
		}
		if len(sz) >= 2 {
			a, c := last[len(last)-2], last[len(last)-1]
			if a > 0 && c > 0 {
				p(" %.2f |", c/a)
			} else {
				p(" — |")
			}
		}
		if inter {
			if x := r.find(n, sz[len(sz)-1]); x != nil && x.SizeRatio > 0 {
				p(" %.2f |", x.SizeRatio)
			} else {
				p(" — |")
			}
		}
		if pocl {
			a, c := r.find(n, sz[len(sz)-2]), r.find(n, sz[len(sz)-1])
			if a != nil && c != nil && a.PoCL != nil && c.PoCL != nil && a.PoCL.Median > 0 {
				p(" %.2f |", (c.PoCL.Median/float64(c.Elements))/(a.PoCL.Median/float64(a.Elements)))
			} else {
				p(" — |")
			}
		}
		p("\n")
	}
	if inter {
		p("\nThe interleaved column times the %s size again in the %s size's rounds, %d runs after each of its rocpu runs, so that both come from the same minutes of the machine.",
			sz[len(sz)-2], sz[len(sz)-1], belowRuns)
	}
	if pocl {
		p(" PoCL's ratio, from its own runs at the two sizes, shows how much of a kernel's change in time per element comes with the problem rather than with the emulator.")
	}
	if inter || pocl {
		p("\n")
	}

	// Scaling and instruction rates at the largest size.
	var big []*Result
	if len(sz) > 0 {
		for _, x := range r.Results {
			if x.Size == sz[len(sz)-1] {
				big = append(big, x)
			}
		}
	}
	if len(big) > 0 && big[0].Rocpu1 != nil {
		p("\n## Worker scaling (%s)\n\n", sz[len(sz)-1])
		p("Each round of the timed runs also ran rocpu with one worker and, as the native reference, PoCL on one thread (a sub-device of one compute unit).")
		p(" This machine's CPUs need not run a thread equally fast, so the CPU each one-worker run ran on is read from /proc and the medians per CPU are given in brackets; where the runs landed on two or more CPUs the one-worker time is the harmonic mean of those medians (the time on a CPU of average speed), else the median of all runs. The speed-up is that time over the median with %d workers.", r.Workers)
		p("\n\n")
		p("| kernel | rocpu 1 worker | rocpu %d workers | rocpu speed-up | PoCL 1 thread | PoCL %d threads | PoCL speed-up |\n|---|---|---|---:|---|---|---:|\n", r.Workers, r.Workers)
		for _, x := range big {
			if x.Rocpu1 == nil {
				continue
			}
			p("| %s | %s | %s | %.2f× |", x.Name, oneWorkerCell(x.Rocpu1, x.Rocpu1Time, x.Rocpu1PerCPU), timesCell(x.Rocpu), x.Scaling)
			if x.PoCL1 != nil {
				p(" %s | %s | %.2f× |\n", oneWorkerCell(x.PoCL1, x.PoCL1Time, x.PoCL1PerCPU), timesCell(x.PoCL), x.PoCLScaling)
			} else {
				p(" — | — | — |\n")
			}
		}
	}
	if len(big) > 0 {
		p("\n## Emulated instructions (%s, per run, rates at the rocpu median)\n\n", sz[len(sz)-1])
		p("| kernel | instructions | SALU | VALU | VMEM | LDS | SMEM | branch | M inst/s | M VALU/s | allocations per run |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, x := range big {
			in := x.Instructions
			p("| %s | %d | %d | %d | %d | %d | %d | %d | %.1f | %.1f | %.0f |\n", x.Name, in["total"], in["salu"], in["valu"], in["vmem"],
				in["lds"], in["smem"], in["branch"], x.InstPerSec/1e6, x.VALUPerSec/1e6, x.Allocs)
		}
		p("\nInstructions are wave instructions (one per wave, up to 64 lanes).\n")
	}
	if e := r.Extras; e != nil {
		p("\n## Dispatch, loading, decoding\n\n| measurement | value |\n|---|---:|\n")
		p("| empty-kernel Launch round trip, Go API (median / min) | %.1f µs / %.1f µs |\n", e.DispatchLatencyUs, e.DispatchLatencyMinUs)
		p("| empty-kernel dispatches, batches of 256 packets, Go API | %.0f /s |\n", e.DispatchPerSec)
		if e.CDispatchLatencyUs > 0 {
			p("| empty-kernel packet round trip, C library (wait ACTIVE / BLOCKED, medians) | %.1f µs / %.1f µs |\n", e.CDispatchLatencyUs, e.CDispatchLatencyBlockedUs)
			p("| the same packet sequence, Go API (ACTIVE / BLOCKED, medians) | %.1f µs / %.1f µs |\n", e.GoPacketLatencyUs, e.GoPacketLatencyBlockedUs)
			p("| C library / Go API | %.2f× / %.2f× |\n", e.CDispatchLatencyUs/max(e.GoPacketLatencyUs, 1e-3), e.CDispatchLatencyBlockedUs/max(e.GoPacketLatencyBlockedUs, 1e-3))
		} else if e.CLibraryNote != "" {
			p("| empty-kernel packet round trip, C library | %s |\n", e.CLibraryNote)
		}
		if e.PoCLDispatchLatencyUs > 0 {
			p("| PoCL empty kernel enqueue + clFinish (median) | %.1f µs |\n", e.PoCLDispatchLatencyUs)
			p("| PoCL empty kernels, 256 enqueues + clFinish | %.0f /s |\n", e.PoCLDispatchPerSec)
		}
		var names []string
		for n := range e.LoadFreezeUs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p("| load + freeze %s.hsaco (median) | %.0f µs |\n", n, e.LoadFreezeUs[n])
		}
		p("| decoder (isa.DecodeInto over %d bytes of .text) | %.1f M inst/s |\n", e.DecodeBytes, e.DecodePerSec/1e6)
	}
	return b.String()
}

// JSON renders the report as indented JSON.
func (r *Report) JSON() ([]byte, error) { return json.MarshalIndent(r, "", "  ") }

// SVG plots the ratio rocpu/PoCL per kernel and size (log scale) and
// rocpu's time per element across sizes.
func (r *Report) SVG() string {
	names, sz := r.names(), r.sizes()
	const W, H, pad = 900, 760, 60
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", W, H)
	p(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	colors := []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

	// Panel 1: ratio bars, log10 axis from 1 to 100 (or the max).
	top, h1 := 40.0, 300.0
	maxR := 100.0
	for _, x := range r.Results {
		maxR = max(maxR, x.Ratio)
	}
	decades := math.Ceil(math.Log10(maxR))
	yOf := func(v float64) float64 {
		if v < 1 {
			v = 1
		}
		return top + h1 - h1*math.Log10(v)/decades
	}
	p(`<text x="%d" y="24" font-size="15">rocpu / PoCL wall time per kernel (log scale; targets: geomean ≤ 10×, none &gt; 50×)</text>`+"\n", pad)
	for d := 0.0; d <= decades; d++ {
		y := yOf(math.Pow(10, d))
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ccc"/><text x="%d" y="%.1f" text-anchor="end">%g×</text>`+"\n", pad, y, W-20, y, pad-5, y+4, math.Pow(10, d))
	}
	for _, t := range []float64{10, 50} {
		y := yOf(t)
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#c00" stroke-dasharray="4 3"/>`+"\n", pad, y, W-20, y)
	}
	if len(names) > 0 {
		gw := float64(W-pad-20) / float64(len(names))
		bw := gw * 0.8 / float64(max(len(sz), 1))
		for i, n := range names {
			x0 := float64(pad) + gw*float64(i) + gw*0.1
			for j, s := range sz {
				x := r.find(n, s)
				if x == nil || x.Ratio <= 0 {
					continue
				}
				y := yOf(x.Ratio)
				fill := colors[j%len(colors)]
				if x.Mismatch != "" {
					fill = "#999"
				}
				p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %.1f×</title></rect>`+"\n",
					x0+bw*float64(j), y, bw-1, top+h1-y, fill, n, s, x.Ratio)
			}
			p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x0+gw*0.4, top+h1+16, n)
		}
	}
	for j, s := range sz {
		p(`<rect x="%d" y="%.1f" width="12" height="12" fill="%s"/><text x="%d" y="%.1f">%s</text>`+"\n",
			pad+10+j*90, top+h1+28, colors[j%len(colors)], pad+26+j*90, top+h1+38, s)
	}
	p(`<rect x="%d" y="%.1f" width="12" height="12" fill="#999"/><text x="%d" y="%.1f">outputs differ</text>`+"\n",
		pad+10+len(sz)*90, top+h1+28, pad+26+len(sz)*90, top+h1+38)

	// Panel 2: rocpu ns per element vs size, log scale.
	top2, h2 := 440.0, 260.0
	lo, hi := math.Inf(1), 0.0
	for _, x := range r.Results {
		v := x.NsPerElement()
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 {
		p("</svg>\n")
		return b.String()
	}
	dlo, dhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if dhi == dlo {
		dhi++
	}
	y2 := func(v float64) float64 { return top2 + h2 - h2*(math.Log10(v)-dlo)/(dhi-dlo) }
	p(`<text x="%d" y="%.0f" font-size="15">rocpu time per element (ns, log scale) by size</text>`+"\n", pad, top2-16)
	for d := dlo; d <= dhi; d++ {
		y := y2(math.Pow(10, d))
		p(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ccc"/><text x="%d" y="%.1f" text-anchor="end">%g</text>`+"\n", pad, y, 560, y, pad-5, y+4, math.Pow(10, d))
	}
	xs := func(j int) float64 { return float64(pad) + 40 + float64(j)*float64(420)/float64(max(len(sz)-1, 1)) }
	for j, s := range sz {
		p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", xs(j), top2+h2+16, s)
	}
	for i, n := range names {
		var pts []string
		for j, s := range sz {
			if x := r.find(n, s); x != nil && x.NsPerElement() > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", xs(j), y2(x.NsPerElement())))
			}
		}
		c := colors[i%len(colors)]
		p(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), c)
		p(`<rect x="590" y="%.1f" width="12" height="12" fill="%s"/><text x="608" y="%.1f">%s</text>`+"\n", top2+float64(i)*20, c, top2+float64(i)*20+10, n)
	}
	p("</svg>\n")
	return b.String()
}

// WriteFiles writes results.md, results.json and results.svg into dir.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := r.JSON()
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"results.md": []byte(r.Markdown()), "results.json": append(js, '\n'), "results.svg": []byte(r.SVG())} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
