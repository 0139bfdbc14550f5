package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/hsa"
)

// rocpu run: run one kernel of a code object on the software GPU with
// arguments given on the command line.

func init() {
	register(&command{
		name:    "run",
		summary: "run a kernel of a code object on the software GPU",
		usage: "FILE --kernel NAME --grid X[,Y,Z] --workgroup X[,Y,Z] [--target T] [--out DIR] [--expect FILE] [--stats] --arg A ...\n\n" +
			"One --arg per explicit kernel argument, in order:\n" +
			"  buf:ELEMBYTES:COUNT:INIT   a device buffer; INIT is zero, seq (element i holds i), rand:SEED or file:PATH\n" +
			"  i32:V u32:V i64:V u64:V f32:V f64:V   a value\n" +
			"  local:BYTES                dynamic LDS for a __local pointer argument\n" +
			"  raw:HEX                    a by-value argument's bytes (structs)\n" +
			"GRID is in work-items, as in OpenCL. --out DIR writes buffer argument N to DIR/argN.bin;\n" +
			"--expect FILE compares the last buffer argument with FILE byte for byte.",
		run: runRun,
	})
}

type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(s string) error { *a = append(*a, s); return nil }

// runArg is one parsed --arg.
type runArg struct {
	spec  string
	value any    // for Launch
	buf   []byte // initial contents of a buffer argument
	addr  uint64 // its device address once allocated
	isBuf bool
}

func parseDims(s string) ([3]uint32, error) {
	d := [3]uint32{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 || s == "" {
		return d, fmt.Errorf("%q: want X[,Y[,Z]]", s)
	}
	for i, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || v == 0 {
			return d, fmt.Errorf("%q: %q is not a positive integer", s, p)
		}
		d[i] = uint32(v)
	}
	return d, nil
}

func parseRunArg(spec string) (*runArg, error) {
	kind, rest, ok := strings.Cut(spec, ":")
	if !ok {
		return nil, fmt.Errorf("%q: want KIND:VALUE", spec)
	}
	a := &runArg{spec: spec}
	var err error
	switch kind {
	case "buf":
		f := strings.SplitN(rest, ":", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("%q: want buf:ELEMBYTES:COUNT:INIT", spec)
		}
		eb, err1 := strconv.ParseUint(f[0], 10, 8)
		n, err2 := strconv.ParseUint(f[1], 10, 32)
		if err1 != nil || err2 != nil || eb == 0 || eb > 64 || n*eb > 1<<30 {
			return nil, fmt.Errorf("%q: bad element size or count", spec)
		}
		a.isBuf = true
		a.buf = make([]byte, eb*n)
		init, param, _ := strings.Cut(f[2], ":")
		switch init {
		case "zero":
		case "seq":
			for i := uint64(0); i < n; i++ {
				var w [8]byte
				binary.LittleEndian.PutUint64(w[:], i)
				copy(a.buf[i*eb:(i+1)*eb], w[:min(eb, 8)])
			}
		case "rand":
			seed, err := strconv.ParseInt(param, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q: rand needs an integer seed", spec)
			}
			rand.New(rand.NewSource(seed)).Read(a.buf)
		case "file":
			b, err := os.ReadFile(param)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", spec, err)
			}
			if len(b) > len(a.buf) {
				return nil, fmt.Errorf("%q: %s has %d bytes, the buffer %d", spec, param, len(b), len(a.buf))
			}
			copy(a.buf, b)
		default:
			return nil, fmt.Errorf("%q: INIT is zero, seq, rand:SEED or file:PATH", spec)
		}
	case "i32":
		var v int64
		v, err = strconv.ParseInt(rest, 0, 32)
		a.value = int32(v)
	case "u32":
		var v uint64
		v, err = strconv.ParseUint(rest, 0, 32)
		a.value = uint32(v)
	case "i64":
		a.value, err = strconv.ParseInt(rest, 0, 64)
	case "u64":
		a.value, err = strconv.ParseUint(rest, 0, 64)
	case "f32":
		var v float64
		v, err = strconv.ParseFloat(rest, 32)
		a.value = float32(v)
	case "f64":
		a.value, err = strconv.ParseFloat(rest, 64)
	case "local":
		var v uint64
		v, err = strconv.ParseUint(rest, 0, 32)
		a.value = codeobject.LocalMem(v)
	case "raw":
		var b []byte
		b, err = hex.DecodeString(rest)
		if err == nil && len(b) == 0 {
			err = errors.New("empty")
		}
		a.value = b
	default:
		return nil, fmt.Errorf("%q: unknown kind %q (buf, i32, u32, i64, u64, f32, f64, local, raw)", spec, kind)
	}
	if err != nil {
		return nil, fmt.Errorf("%q: %v", spec, err)
	}
	return a, nil
}

// argName names kernel argument i: its metadata name, or #i when the code
// object was built without argument names.
func argName(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("#%d", i)
	}
	return name
}

func runRun(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	kernel := fs.String("kernel", "", "kernel `NAME`")
	gridS := fs.String("grid", "", "grid size in work-items, X[,Y,Z]")
	wgS := fs.String("workgroup", "", "work-group size, X[,Y,Z] (default 64 or the grid if smaller)")
	tgt := fs.String("target", "", "GPU agent target ID (default $ROCPU_TARGETS or gfx90a)")
	outDir := fs.String("out", "", "write buffer argument N to `DIR`/argN.bin after the run")
	expect := fs.String("expect", "", "compare the last buffer argument with `FILE`")
	stats := fs.Bool("stats", false, "print the device's counters")
	var argSpecs argList
	fs.Var(&argSpecs, "arg", "a kernel argument (repeat, in order)")
	// Flags may follow FILE.
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if st, ok := parse(fs, args, stdout); !ok {
		return st
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rocpu run: unexpected arguments %q\n", fs.Args())
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "rocpu run: "+format+"\n", a...)
		return 1
	}
	if file == "" || *kernel == "" || *gridS == "" {
		fmt.Fprintf(stderr, "rocpu run: FILE, --kernel and --grid are required\n")
		return 2
	}
	grid, err := parseDims(*gridS)
	if err != nil {
		fmt.Fprintf(stderr, "rocpu run: --grid %v\n", err)
		return 2
	}
	wg := [3]uint32{min(64, grid[0]), 1, 1}
	if *wgS != "" {
		if wg, err = parseDims(*wgS); err != nil {
			fmt.Fprintf(stderr, "rocpu run: --workgroup %v\n", err)
			return 2
		}
	}
	var rargs []*runArg
	for _, s := range argSpecs {
		a, err := parseRunArg(s)
		if err != nil {
			fmt.Fprintf(stderr, "rocpu run: --arg %v\n", err)
			return 2
		}
		rargs = append(rargs, a)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fail("%v", err)
	}

	cfg, err := hsa.ConfigFromEnv()
	if err != nil {
		return fail("%v", err)
	}
	if *tgt != "" {
		cfg.Targets = []string{*tgt}
	}
	cfg.Stderr = io.Discard // the fault is reported once, below
	r, err := hsa.New(cfg)
	if err != nil {
		return fail("%v", err)
	}
	defer r.Close()
	gpu := r.GPUAgents()[0]
	rd, err := r.CodeObjectReaderFromMemory(data)
	if err != nil {
		return fail("%v", err)
	}
	exe, err := r.CreateExecutable(hsa.HSA_PROFILE_BASE, hsa.HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "")
	if err != nil {
		return fail("%v", err)
	}
	if _, err := exe.LoadAgentCodeObject(gpu, rd, ""); err != nil {
		return fail("%s: %v", file, err)
	}
	if err := exe.Freeze(""); err != nil {
		return fail("%v", err)
	}
	sym, err := exe.Symbol(*kernel+".kd", gpu)
	if err != nil {
		if sym, err = exe.Symbol(*kernel, gpu); err != nil || sym.Kind() != hsa.HSA_SYMBOL_KIND_KERNEL {
			var names []string
			syms, _ := exe.Symbols(gpu)
			for _, s := range syms {
				if s.Kind() == hsa.HSA_SYMBOL_KIND_KERNEL {
					names = append(names, strings.TrimSuffix(s.Name(), ".kd"))
				}
			}
			return fail("%s has no kernel %q (kernels: %s)", file, *kernel, strings.Join(names, ", "))
		}
	}
	k := sym.Kernel()
	if k.Meta != nil && k.Meta.Args != nil {
		if layout, err := k.Meta.KernargLayout(); err == nil && len(layout.Explicit) != len(rargs) {
			var want []string
			for i, s := range layout.Explicit {
				want = append(want, fmt.Sprintf("%s (%s)", argName(i, s.Name), s.Kind))
			}
			return fail("kernel %s takes %d arguments, %d given: %s", *kernel, len(layout.Explicit), len(rargs), strings.Join(want, ", "))
		} else if err == nil {
			for i, s := range layout.Explicit {
				if rargs[i].isBuf != (s.Kind == codeobject.ValueKindGlobalBuffer) {
					return fail("argument %d %s is %s; --arg %q does not fit it", i, argName(i, s.Name), s.Kind, rargs[i].spec)
				}
			}
		}
	}
	values := make([]any, len(rargs))
	for i, a := range rargs {
		if !a.isBuf {
			values[i] = a.value
			continue
		}
		n := max(uint64(len(a.buf)), 1)
		if a.addr, err = gpu.Pools()[0].Allocate(n, 0); err != nil {
			return fail("argument %d: %v", i, err)
		}
		dst, _ := r.Space().Slice(a.addr, uint64(len(a.buf)))
		copy(dst, a.buf)
		values[i] = a.addr
	}
	q, err := r.CreateQueue(gpu, 64, hsa.HSA_QUEUE_TYPE_SINGLE, nil, ^uint32(0), ^uint32(0))
	if err != nil {
		return fail("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := q.Launch(ctx, k, grid, wg, values...); err != nil {
		var f *emu.Fault
		if errors.As(err, &f) {
			fmt.Fprintf(stderr, "rocpu run: kernel %s faulted (%v)\n  %s\n", *kernel, hsa.StatusOf(err), f.Error())
			return 1
		}
		return fail("%v", err)
	}
	var last *runArg
	for i, a := range rargs {
		if !a.isBuf {
			continue
		}
		last = a
		b, _ := r.Space().Slice(a.addr, uint64(len(a.buf)))
		a.buf = append(a.buf[:0], b...)
		if *outDir != "" {
			if err := os.MkdirAll(*outDir, 0o755); err != nil {
				return fail("%v", err)
			}
			if err := os.WriteFile(filepath.Join(*outDir, fmt.Sprintf("arg%d.bin", i)), a.buf, 0o644); err != nil {
				return fail("%v", err)
			}
		}
	}
	if *stats {
		s := q.Stats()
		fmt.Fprintf(stdout, "workgroups %d waves %d instructions %d (salu %d smem %d branch %d valu %d vmem %d lds %d other %d) bytes loaded %d stored %d\n",
			s.Workgroups, s.Waves, s.Total(), s.Instructions[emu.ClassSALU], s.Instructions[emu.ClassSMEM], s.Instructions[emu.ClassBranch],
			s.Instructions[emu.ClassVALU], s.Instructions[emu.ClassVMEM], s.Instructions[emu.ClassLDS], s.Instructions[emu.ClassOther],
			s.BytesLoaded, s.BytesStored)
	}
	if *expect != "" {
		if last == nil {
			return fail("--expect needs a buffer argument")
		}
		want, err := os.ReadFile(*expect)
		if err != nil {
			return fail("%v", err)
		}
		if !bytes.Equal(want, last.buf) {
			i := 0
			for i < len(want) && i < len(last.buf) && want[i] == last.buf[i] {
				i++
			}
			return fail("output differs from %s at byte %d (%d vs %d bytes)", *expect, i, len(last.buf), len(want))
		}
		fmt.Fprintf(stdout, "output matches %s (%d bytes)\n", *expect, len(want))
	}
	return 0
}
