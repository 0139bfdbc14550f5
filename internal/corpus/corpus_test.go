package corpus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func load(t *testing.T) *Manifest {
	t.Helper()
	m, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var (
	targets  = []string{"gfx803", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx1030"}
	nameRE   = regexp.MustCompile(`^(obj|hip)/([a-z0-9_]+(-fpc-off)?)\.(gfx[0-9a-f]+)\.co([2-5])\.O([02])(\.hsaco)$`)
	symtabRE = regexp.MustCompile(`(?m)^Symbol table '\.symtab'`)
)

// symbols returns the names in the .symtab section of a readelf golden.
func symbols(t *testing.T, text string) map[string]string {
	t.Helper()
	loc := symtabRE.FindStringIndex(text)
	if loc == nil {
		t.Fatal("no .symtab in readelf output")
	}
	out := map[string]string{}
	for _, line := range strings.Split(text[loc[1]:], "\n")[2:] {
		if strings.TrimSpace(line) == "" {
			break
		}
		// Num: Value Size Type Bind Vis Ndx Name (the null symbol has no name).
		if f := strings.Fields(line); len(f) == 8 {
			out[f[7]] = f[3]
		}
	}
	if len(out) == 0 {
		t.Fatal("empty .symtab in readelf output")
	}
	return out
}

func TestObjectsMatchGoldens(t *testing.T) {
	m := load(t)
	if len(m.Objects) < 500 {
		t.Fatalf("manifest lists %d objects, want the full corpus (>= 500)", len(m.Objects))
	}
	seen := map[string]bool{}
	for i := range m.Objects {
		o := &m.Objects[i]
		if seen[o.File] {
			t.Errorf("%s listed twice", o.File)
		}
		seen[o.File] = true
		sm := nameRE.FindStringSubmatch(o.File)
		if sm == nil {
			t.Errorf("%s: name does not follow <name>.<target>.co<V>.O<n>.hsaco", o.File)
			continue
		}
		if sm[4] != o.Target || sm[5] != fmt.Sprint(o.Cov) || sm[6] != fmt.Sprint(o.Opt) {
			t.Errorf("%s: manifest says target %s cov %d opt %d", o.File, o.Target, o.Cov, o.Opt)
		}
		if (sm[3] != "") != (o.FPContract == "off") {
			t.Errorf("%s: fp_contract %q does not match the name", o.File, o.FPContract)
		}
		if o.Objdump == "" && !strings.HasPrefix(o.File, "hip/rocprim.") {
			t.Errorf("%s: no objdump golden", o.File)
		}
		for _, p := range []string{o.File, o.Readelf, o.Source} {
			if _, err := os.Stat(m.Path(p)); err != nil {
				t.Errorf("%s: %v", o.File, err)
			}
		}
		elf, err := m.ReadFile(o.File)
		if err != nil {
			t.Fatal(err)
		}
		// ELF64, little-endian, EM_AMDGPU (224), and the OS ABI byte says
		// HSA (64) for V2-V5 files.
		if !bytes.HasPrefix(elf, []byte("\x7fELF\x02\x01\x01")) || binary.LittleEndian.Uint16(elf[18:]) != 224 || elf[7] != 64 {
			t.Errorf("%s: not an AMDGPU HSA ELF", o.File)
		}
		// EI_ABIVERSION: 0 for V2 (and V3), 2 for V4, 3 for V5.
		wantABI := map[int]byte{2: 0, 3: 1, 4: 2, 5: 3}[o.Cov]
		if o.Cov == 2 {
			wantABI = 0
		}
		if elf[8] != wantABI {
			t.Errorf("%s: EI_ABIVERSION %d, want %d for code object v%d", o.File, elf[8], wantABI, o.Cov)
		}
		re, err := m.ReadFile(o.Readelf)
		if err != nil {
			t.Fatal(err)
		}
		syms := symbols(t, string(re))
		if len(o.Kernels) == 0 {
			t.Errorf("%s: no kernels", o.File)
		}
		for _, k := range o.Kernels {
			typ, ok := syms[k.Symbol]
			if !ok {
				t.Errorf("%s: kernel %s: symbol %s not in the readelf golden", o.File, k.Name, k.Symbol)
				continue
			}
			want := "OBJECT"
			if o.Cov == 2 {
				want = "AMDGPU_HSA_KERNEL"
			}
			if typ != want {
				t.Errorf("%s: %s is %s, want %s", o.File, k.Symbol, typ, want)
			}
		}
		if o.Objdump == "" {
			continue
		}
		od, err := m.ReadFile(o.Objdump)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(od, []byte(filepath.Base(o.File)+":\tfile format elf64-amdgpu")) {
			t.Errorf("%s: objdump golden does not start with its file name", o.File)
		}
	}
}

func TestMatrixComplete(t *testing.T) {
	m := load(t)
	srcs, err := filepath.Glob(filepath.Join(m.Root, "src", "opencl", "*.cl"))
	if err != nil || len(srcs) < 25 {
		t.Fatalf("want >= 25 OpenCL sources, got %d (%v)", len(srcs), err)
	}
	kernels := 0
	for _, s := range srcs {
		name := strings.TrimSuffix(filepath.Base(s), ".cl")
		for _, tg := range targets {
			for _, cov := range []int{4, 5} {
				o, ok := m.Find(name, tg, cov, 2)
				if !ok {
					t.Errorf("missing %s for %s v%d -O2", name, tg, cov)
					continue
				}
				if o.Lang != "opencl" || o.FPContract != "on" || o.Source != "src/opencl/"+name+".cl" {
					t.Errorf("%s: lang %q fp_contract %q source %q", o.File, o.Lang, o.FPContract, o.Source)
				}
				if want := map[bool]int{true: 32, false: 64}[tg == "gfx1030"]; o.WavefrontSize != want {
					t.Errorf("%s: wavefront size %d, want %d", o.File, o.WavefrontSize, want)
				}
				if tg == "gfx90a" && cov == 5 {
					kernels += len(o.Kernels)
				}
			}
		}
		for _, tg := range []string{"gfx803", "gfx900"} {
			if _, ok := m.Find(name, tg, 2, 2); !ok {
				t.Errorf("missing %s for %s v2", name, tg)
			}
		}
	}
	if kernels < 25 {
		t.Errorf("%d OpenCL kernels, want >= 25", kernels)
	}
	for _, want := range []string{"obj/initial_state_v3.gfx900.co4.O0.hsaco", "obj/initial_state_v2.gfx803.co2.O0.hsaco",
		"obj/saxpy-fpc-off.gfx90a.co5.O2.hsaco", "obj/scratch.gfx1030.co4.O0.hsaco",
		"obj/vector_add.gfx900.co3.O2.hsaco", "hip/rocprim.gfx90a.co4.O2.hsaco"} {
		if _, ok := m.Object(want); !ok {
			t.Errorf("missing %s", want)
		}
	}
}

func TestHIPPrograms(t *testing.T) {
	m := load(t)
	if len(m.HIP) < 14*2 {
		t.Fatalf("%d HIP builds, want every program for gfx90a and gfx1030", len(m.HIP))
	}
	names := map[string]bool{}
	for _, p := range m.HIP {
		for _, f := range []string{p.Exe, p.Bundle, p.CodeObject, p.Source} {
			if _, err := os.Stat(m.Path(f)); err != nil {
				t.Errorf("%s: %v", p.Exe, err)
			}
		}
		b, err := m.ReadFile(p.Bundle)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("__CLANG_OFFLOAD_BUNDLE__")) {
			t.Errorf("%s: not a clang offload bundle", p.Bundle)
		}
		exe, err := m.ReadFile(p.Exe)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(exe, []byte("\x7fELF")) || binary.LittleEndian.Uint16(exe[18:]) != 62 {
			t.Errorf("%s: not an x86-64 ELF", p.Exe)
		}
		if _, ok := m.Object(p.CodeObject); !ok {
			t.Errorf("%s: device code object not listed in objects", p.CodeObject)
		}
		names[strings.SplitN(filepath.Base(p.Exe), ".", 2)[0]] = true
		switch {
		case strings.Contains(p.Exe, "/assert."):
			if p.ExpectExit != 3 {
				t.Errorf("%s: expect_exit %d", p.Exe, p.ExpectExit)
			}
		case strings.Contains(p.Exe, "/fault."):
			if p.ExpectExit != 4 {
				t.Errorf("%s: expect_exit %d", p.Exe, p.ExpectExit)
			}
		default:
			if p.ExpectExit != 0 {
				t.Errorf("%s: expect_exit %d", p.Exe, p.ExpectExit)
			}
		}
	}
	for _, n := range []string{"vector_add", "reduce_shared", "atomics", "matmul_tiled", "printf", "shuffle_ballot",
		"dynamic_shared", "streams_events", "memcpy", "host_memory", "flag_wait", "rocprim", "assert", "fault"} {
		if !names[n] {
			t.Errorf("no HIP build of %s", n)
		}
	}
	if _, ok := m.Object("hip/vector_add.gfx90a.co4.O0.hsaco"); !ok {
		t.Error("no -O0 HIP build")
	}
}

// TestSpecs checks every kernel specification: inputs generate with the
// declared sizes, and every checked output names an implemented reference.
func TestSpecs(t *testing.T) {
	m := load(t)
	done := map[string]bool{}
	for i := range m.Objects {
		o := &m.Objects[i]
		if o.Lang == "hip" {
			continue
		}
		for j := range o.Kernels {
			k := &o.Kernels[j]
			l := k.Launch
			if l.Dims < 1 || l.Dims > 3 || l.WorkItems() <= 0 {
				t.Errorf("%s/%s: bad launch %+v", o.File, k.Name, l)
			}
			for _, c := range checksOf(k) {
				if c.Compare == "ulp" && c.ULP == 0 && len(c.SlotULP) == 0 {
					t.Errorf("%s/%s: ulp compare without a bound", o.File, k.Name)
				}
				if o.FPContract == "off" && c.Compare == "ulp" && c.Why == "" {
					t.Errorf("%s/%s: ulp bound without a reason", o.File, k.Name)
				}
			}
			if done[k.Name] {
				continue
			}
			done[k.Name] = true
			in, err := Inputs(k)
			if err != nil {
				t.Errorf("%s/%s: %v", o.File, k.Name, err)
				continue
			}
			for _, a := range k.Args {
				if a.Kind != "buffer" {
					continue
				}
				es, err := ElemSize(a.Type)
				if err != nil || len(in[a.Name]) != es*a.Count {
					t.Errorf("%s/%s: %s has %d bytes, want %d x %d (%v)", o.File, k.Name, a.Name, len(in[a.Name]), a.Count, es, err)
				}
				if a.Check != nil && a.Check.Compare != "none" {
					if _, err := Reference(a.Check.Ref); err != nil {
						t.Errorf("%s/%s: %v", o.File, k.Name, err)
					}
				}
			}
		}
	}
	if len(done) < 35 {
		t.Errorf("only %d distinct kernels", len(done))
	}
}

func checksOf(k *Kernel) []*Check {
	var out []*Check
	for _, a := range k.Args {
		if a.Check != nil {
			out = append(out, a.Check)
		}
	}
	return out
}

// TestContractModes pins how fp_contract changes the comparison: the same
// saxpy output is exact in the -ffp-contract=off build and 1 ulp otherwise.
func TestContractModes(t *testing.T) {
	m := load(t)
	on, ok1 := m.Find("saxpy", "gfx90a", 5, 2)
	off, ok2 := m.Find("saxpy-fpc-off", "gfx90a", 5, 2)
	if !ok1 || !ok2 {
		t.Fatal("saxpy builds missing")
	}
	con, coff := on.Kernels[0].Args[2].Check, off.Kernels[0].Args[2].Check
	if con.Compare != "ulp" || con.ULP != 1 || coff.Compare != "exact" {
		t.Errorf("saxpy checks: on %+v, off %+v", con, coff)
	}
	if on.FPContract != "on" || off.FPContract != "off" || !strings.Contains(off.Command, "-ffp-contract=off") {
		t.Errorf("fp_contract fields: %q %q %q", on.FPContract, off.FPContract, off.Command)
	}
}

func TestGenerators(t *testing.T) {
	// splitmix64 seeded with 0: first output is 0xE220A8397B1DCDAF.
	b, err := (&Gen{Kind: "bits"}).Fill("ulong", 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint64(b); got != 0xE220A8397B1DCDAF {
		t.Errorf("splitmix64(0) = %#x", got)
	}
	b, _ = (&Gen{Kind: "iota", Min: -2}).Fill("int2", 2)
	if got := i32s(b); fmt.Sprint(got) != "[-2 -1 0 1]" {
		t.Errorf("iota int2 = %v", got)
	}
	b, _ = (&Gen{Kind: "float", Seed: 3, Min: -1, Max: 1}).Fill("float", 1000)
	for _, f := range f32s(b) {
		if f < -1 || f >= 1 || math.Abs(float64(f)) < 1.0/1024 {
			t.Fatalf("float generator produced %g", f)
		}
	}
	b, _ = (&Gen{Kind: "special", Seed: 1, Min: -1, Max: 1}).Fill("float", 40)
	if v := f32s(b); v[0] == v[0] || !math.IsInf(float64(v[1]), 1) || !math.Signbit(float64(v[4])) {
		t.Errorf("special generator starts %v", v[:5])
	}
	b, _ = (&Gen{Kind: "list", List: []string{"-1", "0x7fffffff"}}).Fill("int", 3)
	if got := i32s(b); fmt.Sprint(got) != "[-1 2147483647 -1]" {
		t.Errorf("list = %v", got)
	}
	if _, err := (&Gen{Kind: "nope"}).Fill("int", 1); err == nil {
		t.Error("unknown generator accepted")
	}
	s, err := ScalarBytes("float4", "1,2,3,4")
	if err != nil || fmt.Sprint(f32s(s)) != "[1 2 3 4]" {
		t.Errorf("float4 scalar = %v %v", s, err)
	}
	s, err = ScalarBytes("int2", "3,-50")
	if err != nil || fmt.Sprint(i32s(s)) != "[3 -50]" {
		t.Errorf("int2 scalar = %v %v", s, err)
	}
}

func TestHalf(t *testing.T) {
	for _, c := range []struct {
		f float32
		h uint16
	}{
		{1, 0x3C00}, {-2, 0xC000}, {65504, 0x7BFF}, {65520, 0x7C00}, {65519.99, 0x7BFF},
		{0.1, 0x2E66}, {5.9604645e-08, 0x0001}, {2.9802322e-08, 0x0000}, {2.9802326e-08, 0x0001},
		{6.097555e-05, 0x03FF}, {1.0009766, 0x3C01}, {1.0004883, 0x3C00}, {1.0014648, 0x3C02},
		{float32(math.Inf(-1)), 0xFC00},
	} {
		if got := Float32ToHalf(c.f); got != c.h {
			t.Errorf("Float32ToHalf(%g) = %#04x, want %#04x", c.f, got, c.h)
		}
	}
	for h := 0; h < 0x10000; h++ {
		if h&0x7C00 == 0x7C00 && h&0x3FF != 0 {
			continue // NaN payloads are not preserved bit for bit
		}
		if got := Float32ToHalf(HalfToFloat32(uint16(h))); got != uint16(h) {
			t.Fatalf("half %#04x does not round-trip (got %#04x)", h, got)
		}
	}
}

// TestReferenceSpotValues pins reference results computed by hand.
func TestReferenceSpotValues(t *testing.T) {
	k := &Kernel{Name: "int_alu", Args: []Arg{{Name: "out", Kind: "buffer", Type: "int", Count: 32}}}
	in := &RefInput{Kernel: k, Args: map[string][]byte{
		"a": fromI32([]int32{math.MinInt32}), "b": fromI32([]int32{-1}),
	}}
	b, err := refIntALU(in)
	if err != nil {
		t.Fatal(err)
	}
	o := i32s(b)
	want := map[int]int32{
		0: math.MaxInt32, 2: math.MinInt32, 3: 0, 4: 0x7FFFFFFF, // mul_hi(0x80000000u, 0xFFFFFFFFu)
		5: math.MinInt32, 6: 0, 9: 0, 10: -1, 11: 1, 12: 0x40000000, 16: math.MaxInt32, 17: 1, 18: 0,
		19: math.MinInt32, 20: math.MinInt32, 21: -1, 28: math.MinInt32, 31: 31,
	}
	for i, w := range want {
		if o[i] != w {
			t.Errorf("int_alu slot %d = %d (%#x), want %d", i, o[i], uint32(o[i]), w)
		}
	}

	k = &Kernel{Name: "ids_2d", Launch: Launch{Dims: 2, Global: [3]int{4, 2, 1}, Local: [3]int{2, 2, 1}, Offset: [3]int{3, 5, 0}}}
	b, _ = refGridIDs(&RefInput{Kernel: k})
	r := u32s(b)[24*5 : 24*6] // global linear id 5 = (x 1, y 1)
	if fmt.Sprint(r) != "[2 4 6 0 1 1 0 0 0 0 2 2 1 4 2 1 2 1 1 3 5 0 3 2002]" {
		t.Errorf("grid_ids record 5 = %v", r)
	}

	k = &Kernel{Name: "amdgcn_builtins"}
	x := make([]int32, 64)
	for i := range x {
		x[i] = int32(i*2 + 1 - 64) // odd everywhere, negative below lane 32
	}
	b, _ = refBuiltins(&RefInput{Kernel: k, Args: map[string][]byte{"in": fromI32(x)}, WavefrontSize: 32})
	lane := i32s(b)[12*17 : 12*18] // lane 17 of the first wave32
	if fmt.Sprint(lane) != fmt.Sprint([]int32{x[0], x[3], x[16], x[16], x[18], x[18], -1, 0, -1, 17, 32, x[16]}) {
		t.Errorf("builtins lane 17 = %v", lane)
	}
	if _, err := Reference("no_such_ref"); !errors.Is(err, ErrNoReference) {
		t.Errorf("missing reference error = %v", err)
	}
}

func TestCompare(t *testing.T) {
	one := fromF32([]float32{1})
	next := fromF32([]float32{math.Nextafter32(1, 2)})
	nan := fromF32([]float32{float32(math.NaN())})
	if err := Compare("float", &Check{Compare: "exact"}, one, next); err == nil {
		t.Error("exact compare accepted 1 ulp")
	}
	if err := Compare("float", &Check{Compare: "ulp", ULP: 1}, one, next); err != nil {
		t.Error(err)
	}
	if err := Compare("float", &Check{Compare: "ulp", ULP: 1}, nan, nan); err != nil {
		t.Error(err)
	}
	if err := Compare("float", &Check{Compare: "ulp", ULP: 100}, nan, one); err == nil {
		t.Error("NaN matched 1")
	}
	negz, posz := fromF32([]float32{float32(math.Copysign(0, -1))}), fromF32([]float32{0})
	if err := Compare("float", &Check{Compare: "ulp", ULP: 0}, negz, posz); err != nil {
		t.Errorf("-0 vs +0 at 0 ulp: %v", err)
	}
	if err := Compare("int", &Check{Compare: "set"}, fromI32([]int32{3, 1, 2}), fromI32([]int32{1, 2, 3})); err != nil {
		t.Error(err)
	}
	if err := Compare("int", &Check{Compare: "set"}, fromI32([]int32{3, 3, 2}), fromI32([]int32{1, 2, 3})); err == nil {
		t.Error("set compare accepted a different multiset")
	}
	if err := Compare("float", &Check{Compare: "ulp", SlotULP: []int{0, 2}}, fromF32([]float32{1, 1}), append(append([]byte{}, one...), next...)); err != nil {
		t.Error(err)
	}
}
