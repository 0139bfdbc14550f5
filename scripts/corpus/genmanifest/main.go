// Command genmanifest writes testdata/kernels/manifest.json from the list of
// objects scripts/corpus.sh built and the kernel specifications in specs.go.
// It cross-checks every specification against LLVM's readelf golden of every
// object (the kernel descriptor symbols) and fails on any mismatch, so the
// manifest cannot drift from the objects.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rocpu/rocpu/internal/corpus"
)

func main() {
	objects := flag.String("objects", "", "tab-separated object rows from corpus.sh")
	toolchain := flag.String("toolchain", "", "clang --version first line")
	devlibs := flag.String("devicelibs", "", "device library bitcode directory")
	out := flag.String("out", "", "manifest.json to write")
	flag.Parse()
	if err := run(*objects, *toolchain, *devlibs, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genmanifest:", err)
		os.Exit(1)
	}
}

func run(objects, toolchain, devlibs, out string) error {
	dir := filepath.Dir(out)
	rows, err := readRows(objects)
	if err != nil {
		return err
	}
	m := corpus.Manifest{Version: 1, Toolchain: corpus.Toolchain{Clang: toolchain, DeviceLibs: devlibs}}
	specs := allSpecs()
	var errs []string
	for _, r := range rows {
		o := corpus.Object{
			File: r[0], Source: r[1], Lang: r[2], Target: r[3],
			Cov: atoi(r[4]), Opt: atoi(r[5]), FPContract: r[6], WavefrontSize: atoi(r[7]), Command: r[8],
		}
		if o.Lang == "hip" {
			exe := o.File
			o.File = exe + ".hsaco"
			m.HIP = append(m.HIP, hipProgram(exe, o))
		}
		o.Readelf = o.File + ".readelf.txt"
		o.Objdump = o.File + ".objdump.txt"
		if _, err := os.Stat(filepath.Join(dir, o.Objdump)); err != nil {
			o.Objdump = "" // not kept (see corpus.sh)
		}
		syms, err := kdSymbols(filepath.Join(dir, o.Readelf), o.Cov)
		if err != nil {
			return err
		}
		if o.Lang == "hip" {
			for _, s := range syms {
				o.Kernels = append(o.Kernels, corpus.Kernel{Name: s, Symbol: symbolFor(s, o.Cov)})
			}
		} else {
			src := strings.TrimSuffix(filepath.Base(o.Source), filepath.Ext(o.Source))
			sp, ok := specs[src]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: no kernel specification for source %s", o.File, src))
				continue
			}
			var names []string
			for _, ks := range sp {
				o.Kernels = append(o.Kernels, instantiate(ks, &o))
				names = append(names, ks.k.Name)
			}
			sort.Strings(names)
			if strings.Join(names, ",") != strings.Join(syms, ",") {
				errs = append(errs, fmt.Sprintf("%s: specs list kernels %v but the object has %v", o.File, names, syms))
			}
		}
		m.Objects = append(m.Objects, o)
	}
	if len(errs) > 0 {
		return fmt.Errorf("manifest does not match the objects:\n  %s", strings.Join(errs, "\n  "))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&m); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

func readRows(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if sc.Text() == "" {
			continue
		}
		r := strings.Split(sc.Text(), "\t")
		if len(r) != 9 {
			return nil, fmt.Errorf("%s: bad row %q", path, sc.Text())
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// kdSymbols returns the sorted kernel names found in a readelf golden's
// .symtab: "<name>.kd" OBJECT symbols for V3+, AMDGPU_HSA_KERNEL symbols
// for V2.
func kdSymbols(readelf string, cov int) ([]string, error) {
	b, err := os.ReadFile(readelf)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Symbol table '.symtab'") {
			in = true
			continue
		}
		if in && strings.TrimSpace(line) == "" {
			in = false
		}
		if !in {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 8 {
			continue
		}
		name, typ := f[7], f[3]
		switch {
		case cov >= 3 && typ == "OBJECT" && strings.HasSuffix(name, ".kd"):
			set[strings.TrimSuffix(name, ".kd")] = true
		case cov == 2 && typ == "AMDGPU_HSA_KERNEL":
			set[name] = true
		}
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no kernel symbols", readelf)
	}
	return out, nil
}

func symbolFor(name string, cov int) string {
	if cov == 2 {
		return name
	}
	return name + ".kd"
}
