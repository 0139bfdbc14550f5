package emu_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/hsa"
	"github.com/rocpu/rocpu/internal/corpus"
	"github.com/rocpu/rocpu/internal/pocl"
)

// TestPoCLPrintf runs every GFX9 object of the corpus's printing OpenCL
// kernels (manifest printf lines, pocl=true: printf_formats) on the engine,
// whose printf buffer the hsa runtime decodes with codeobject.PrintfOutput,
// and compares the printed lines with what PoCL prints for the same source,
// inputs and NDRange (PoCL's stdout captured by pocl.Run.CaptureStdout,
// which redirects file descriptor 1 while the kernel runs). Lines are
// compared as multisets: the order of work-items' printf calls is not
// defined. Sizes: the manifest's and two not multiples of the workgroup size
// (run on PoCL as uniform pieces, poclPieces).
func TestPoCLPrintf(t *testing.T) {
	m, err := corpus.Load()
	if err != nil {
		t.Skipf("no corpus: %v", err)
	}
	var printed bytes.Buffer
	var targets []string
	for _, tg := range gfx9Targets {
		targets = append(targets, tg+":xnack-", tg+":xnack+")
	}
	r, err := hsa.New(hsa.Config{Targets: targets, Stderr: io.Discard, PrintfOutput: &printed, Budget: 1_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	agents := map[string][]*hsa.Agent{}
	for _, a := range r.GPUAgents() {
		agents[a.TargetID().Processor.Name] = append(agents[a.TargetID().Processor.Name], a)
	}
	queues := map[*hsa.Agent]*hsa.Queue{}
	defer func() {
		for _, q := range queues {
			q.Destroy()
		}
	}()
	objs := m.Select(func(o *corpus.Object) bool {
		if o.Lang != "opencl" || agents[o.Target] == nil {
			return false
		}
		for _, k := range o.Kernels {
			if k.PoCL && len(k.Printf) > 0 {
				return true
			}
		}
		return false
	})
	if len(objs) == 0 {
		t.Skip("no printing GFX9 OpenCL objects in the corpus")
	}
	poclOut := map[string]string{} // by source, kernel, size
	compared := 0
	for _, o := range objs {
		data, err := os.ReadFile(m.Path(o.File))
		if err != nil {
			t.Fatal(err)
		}
		src, err := m.ReadFile(o.Source)
		if err != nil {
			t.Fatal(err)
		}
		var exe *hsa.Executable
		var agent *hsa.Agent
		for _, cand := range agents[o.Target] {
			rd, err := r.CodeObjectReaderFromMemory(data)
			if err != nil {
				t.Fatal(err)
			}
			e, err := r.CreateExecutable(hsa.HSA_PROFILE_BASE, hsa.HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.LoadAgentCodeObject(cand, rd, ""); err != nil {
				e.Destroy()
				continue
			}
			if err := e.Freeze(""); err != nil {
				t.Fatal(err)
			}
			exe, agent = e, cand
			break
		}
		if exe == nil {
			t.Errorf("%s: no agent loads it", o.File)
			continue
		}
		if queues[agent] == nil {
			q, err := r.CreateQueue(agent, 64, hsa.HSA_QUEUE_TYPE_MULTI, nil, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			queues[agent] = q
		}
		for _, k := range o.Kernels {
			if !k.PoCL || len(k.Printf) == 0 {
				continue
			}
			sym, err := exe.Symbol(k.Symbol, agent)
			if err != nil {
				t.Fatal(err)
			}
			noFormats := sym.Kernel().Printf == nil
			g, w := k.Launch.Global[0], max(k.Launch.Local[0], 1)
			for _, size := range []int{g, g - w + 1, g/2 + w/2 + 3} {
				kk := k
				kk.Launch.Global[0] = size
				inputs, err := corpus.Inputs(&kk)
				if err != nil {
					t.Fatal(err)
				}
				key := o.Source + "\x00" + k.Name + "\x00" + string(rune(size))
				want, ok := poclOut[key]
				if !ok {
					want, err = runPoCLPrintf(string(src), &kk, inputs)
					if errors.Is(err, pocl.ErrUnavailable) {
						t.Skip(err)
					}
					if err != nil {
						t.Fatalf("PoCL %s global %d: %v", k.Name, size, err)
					}
					poclOut[key] = want
				}
				printed.Reset()
				if _, err := launchCorpusKernel(r, exe, agent, queues[agent], &kk, inputs); err != nil {
					t.Errorf("%s %s global %d: %v", o.File, k.Name, size, err)
					continue
				}
				got := printed.String()
				if noFormats {
					// Every printf object of the corpus carries its formats
					// (the -O0 build lowers printf explicitly since d210244).
					t.Errorf("%s: no amdhsa.printf formats in the object; it printed %q", o.File, got)
					continue
				}
				if n := strings.Count(want, "\n"); n == 0 {
					t.Errorf("PoCL printed nothing for %s global %d", k.Name, size)
				}
				if g, w := sortedLines(got), sortedLines(want); g != w {
					t.Errorf("%s %s global %d: printed\n%s\nPoCL printed\n%s", o.File, k.Name, size, g, w)
				}
				compared++
			}
		}
		exe.Destroy()
	}
	if compared == 0 {
		t.Error("no printf output compared")
	}
	t.Logf("%d printf outputs compared with PoCL's", compared)
}

// runPoCLPrintf runs a kernel on PoCL (as uniform pieces when the NDRange is
// not, see runPoCL) and returns what it printed.
func runPoCLPrintf(source string, k *corpus.Kernel, inputs map[string][]byte) (string, error) {
	prefix := ""
	pieces := poclPieces(k.Launch)
	if len(pieces) > 1 && usesNDRangeFuncs(source) {
		prefix = poclNDRangeMacros(k.Launch)
	}
	var out strings.Builder
	for _, p := range pieces {
		r := &pocl.Run{Source: pocl.NoContract + prefix + source, Kernel: k.Name, Options: poclOptions, Dims: p.Dims,
			Global: p.Global, Local: p.Local, Offset: p.Offset, CaptureStdout: true}
		for _, a := range k.Args {
			switch a.Kind {
			case "buffer":
				r.Args = append(r.Args, pocl.Arg{Kind: pocl.Buffer, Data: append([]byte(nil), inputs[a.Name]...)})
			case "scalar":
				r.Args = append(r.Args, pocl.Arg{Kind: pocl.Scalar, Data: inputs[a.Name]})
			case "local":
				r.Args = append(r.Args, pocl.Arg{Kind: pocl.Local, Size: a.Size})
			}
		}
		res, err := pocl.Execute(r)
		if err != nil {
			return "", err
		}
		out.Write(res.Stdout)
	}
	return out.String(), nil
}

// sortedLines returns s's lines sorted, one per line.
func sortedLines(s string) string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}
