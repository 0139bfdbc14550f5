package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/rocpu/rocpu/bench"
)

// rocpu bench: the performance suite of package bench, rocpu's emulated
// gfx90a against native PoCL on the same OpenCL C kernels.

func init() {
	register(&command{
		name:    "bench",
		summary: "run the benchmark suite: rocpu's gfx90a against native PoCL on the same kernels",
		usage: "[--sizes small,medium,large] [--kernels REGEXP] [--reps N] [--workers N] [--out DIR] [--json] [--no-pocl] [--no-scaling] [--no-extras]\n\n" +
			"Progress goes to stderr; the Markdown report (or JSON with --json) to stdout.\n" +
			"--out DIR also writes DIR/results.md, results.json and results.svg.\n" +
			"The large sizes take at least a second each on rocpu: the full suite runs for\n" +
			"about 15 minutes on 2 cores and needs up to 15 GB of memory; --sizes small,medium\n" +
			"takes about a minute.",
		run: runBench,
	})
}

func runBench(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	sizes := fs.String("sizes", "small,medium,large", "comma-separated `SIZES` (tiny, small, medium, large)")
	kernels := fs.String("kernels", "", "run only the kernels matching `REGEXP`")
	reps := fs.Int("reps", 5, "timed runs per side after the warm-up (at least 5)")
	workers := fs.Int("workers", 0, "rocpu workers and PoCL threads (0: the number of CPUs)")
	out := fs.String("out", "", "write results.md, results.json and results.svg into `DIR`")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	noPoCL := fs.Bool("no-pocl", false, "measure rocpu alone")
	noScaling := fs.Bool("no-scaling", false, "skip the one-worker rocpu and one-thread PoCL runs at the largest size")
	noExtras := fs.Bool("no-extras", false, "skip dispatch, load and decoder measurements")
	commit := fs.String("commit", "", "commit to record in the report (default: the binary's VCS revision)")
	if st, ok := parse(fs, args, stdout); !ok {
		return st
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "rocpu bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	o := bench.Options{Reps: *reps, Workers: *workers, NoPoCL: *noPoCL, Scaling: !*noScaling, Extras: !*noExtras, Log: stderr}
	for _, s := range strings.Split(*sizes, ",") {
		sz, err := bench.ParseSize(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintf(stderr, "rocpu bench: --sizes: %v\n", err)
			return 2
		}
		o.Sizes = append(o.Sizes, sz)
	}
	if *kernels != "" {
		re, err := regexp.Compile(*kernels)
		if err != nil {
			fmt.Fprintf(stderr, "rocpu bench: --kernels: %v\n", err)
			return 2
		}
		var any bool
		for _, b := range bench.Suite {
			any = any || re.MatchString(b.Name)
		}
		if !any {
			var names []string
			for _, b := range bench.Suite {
				names = append(names, b.Name)
			}
			fmt.Fprintf(stderr, "rocpu bench: --kernels %q matches none of %s\n", *kernels, strings.Join(names, ", "))
			return 2
		}
		o.Match = re
	}
	if *workers < 0 {
		fmt.Fprintf(stderr, "rocpu bench: --workers must be ≥ 0\n")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := bench.Run(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "rocpu bench: %v\n", err)
		return 1
	}
	rep.Commit = *commit
	if rep.Commit == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					rep.Commit = s.Value
				}
			}
		}
	}
	if *out != "" {
		if err := rep.WriteFiles(*out); err != nil {
			fmt.Fprintf(stderr, "rocpu bench: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		js, err := rep.JSON()
		if err != nil {
			fmt.Fprintf(stderr, "rocpu bench: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", js)
	} else {
		io.WriteString(stdout, rep.Markdown())
	}
	return 0
}
