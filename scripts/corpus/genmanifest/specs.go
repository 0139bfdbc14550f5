package main

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/rocpu/rocpu/internal/corpus"
)

// spec is a kernel specification shared by every object built from one
// source. contract maps an output argument to the ULP bound that replaces
// its exact comparison in builds where clang may contract a*b+c into an FMA
// (fp_contract "on"); builds with fp_contract "off" compare exactly.
type spec struct {
	k        corpus.Kernel
	contract map[string]int
}

// Argument constructors.
func in(name, typ string, n int, g *corpus.Gen) corpus.Arg {
	return corpus.Arg{Name: name, Kind: "buffer", Type: typ, Count: n, Access: "in", Init: g}
}
func out(name, typ string, n int, c *corpus.Check) corpus.Arg {
	return corpus.Arg{Name: name, Kind: "buffer", Type: typ, Count: n, Access: "out", Check: c}
}
func inout(name, typ string, n int, g *corpus.Gen, c *corpus.Check) corpus.Arg {
	return corpus.Arg{Name: name, Kind: "buffer", Type: typ, Count: n, Access: "inout", Init: g, Check: c}
}
func scalar(name, typ, v string) corpus.Arg {
	return corpus.Arg{Name: name, Kind: "scalar", Type: typ, Value: v}
}
func local(name string, size int) corpus.Arg {
	return corpus.Arg{Name: name, Kind: "local", Type: "char", Size: size}
}

// Generators.
func gInt(seed uint64, min, max float64) *corpus.Gen {
	return &corpus.Gen{Kind: "int", Seed: seed, Min: min, Max: max}
}
func gFloat(seed uint64, min, max float64) *corpus.Gen {
	return &corpus.Gen{Kind: "float", Seed: seed, Min: min, Max: max}
}
func gSpecial(seed uint64, min, max float64) *corpus.Gen {
	return &corpus.Gen{Kind: "special", Seed: seed, Min: min, Max: max}
}
func gBits(seed uint64) *corpus.Gen   { return &corpus.Gen{Kind: "bits", Seed: seed} }
func gIota(start float64) *corpus.Gen { return &corpus.Gen{Kind: "iota", Min: start} }
func gConst(v float64) *corpus.Gen    { return &corpus.Gen{Kind: "const", Value: v} }
func gList(v ...string) *corpus.Gen   { return &corpus.Gen{Kind: "list", List: v} }
func exact(ref string) *corpus.Check  { return &corpus.Check{Ref: ref, Compare: "exact"} }
func setOf(ref string) *corpus.Check  { return &corpus.Check{Ref: ref, Compare: "set"} }
func ulp(ref string, n int, why string) *corpus.Check {
	return &corpus.Check{Ref: ref, Compare: "ulp", ULP: n, Why: why}
}
func slots(ref string, why string, s ...int) *corpus.Check {
	return &corpus.Check{Ref: ref, Compare: "ulp", SlotULP: s, Why: why}
}

func l1(global, local int) corpus.Launch {
	return corpus.Launch{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{local, 1, 1}}
}

func k(name string, pocl bool, l corpus.Launch, args ...corpus.Arg) spec {
	return spec{k: corpus.Kernel{Name: name, PoCL: pocl, Launch: l, Args: args}}
}

func (s spec) fused(arg string, ulps int) spec {
	if s.contract == nil {
		s.contract = map[string]int{}
	}
	s.contract[arg] = ulps
	return s
}

func (s spec) note(n string) spec         { s.k.Notes = n; return s }
func (s spec) waveDependent() spec        { s.k.WaveDependent = true; return s }
func (s spec) prints(lines []string) spec { s.k.Printf = lines; return s }

// instantiate copies a spec for one object, fixing the symbol name and the
// comparison mode its fp-contract setting allows.
func instantiate(s spec, o *corpus.Object) corpus.Kernel {
	kk := s.k
	kk.Symbol = symbolFor(kk.Name, o.Cov)
	kk.Args = make([]corpus.Arg, len(s.k.Args))
	for i, a := range s.k.Args {
		if a.Check != nil {
			c := *a.Check
			if n, ok := s.contract[a.Name]; ok {
				if o.FPContract == "off" {
					c.Why = "fp_contract=off: no a*b+c is fused, so the result equals the unfused reference exactly"
				} else {
					c.Compare, c.ULP = "ulp", n
					c.Why = fmt.Sprintf("fp_contract=%s: clang may fuse a*b+c into one FMA; inputs avoid cancellation, so the fused result is within %d ulp of the unfused reference", o.FPContract, n)
				}
			}
			a.Check = &c
		}
		kk.Args[i] = a
	}
	return kk
}

const (
	why32 = "OpenCL 2.0 full-profile accuracy (section 7.4): ULP bound per record slot vs the correctly rounded result"
)

// paramsBytes is the kernarg image of byval_args's Params struct:
// {float scale; int offset; float4 bias (at 16); int2 range (at 32);
// char tag (at 40); long big (at 48)}, 64 bytes (aligned to float4).
func paramsBytes() string {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint32(b[0:], math.Float32bits(1.5))
	binary.LittleEndian.PutUint32(b[4:], uint32(0xFFFFFFF9)) // -7
	for i, f := range []float32{0.25, 0.5, -1, 2} {
		binary.LittleEndian.PutUint32(b[16+4*i:], math.Float32bits(f))
	}
	binary.LittleEndian.PutUint32(b[32:], uint32(0xFFFFFF9C)) // -100
	binary.LittleEndian.PutUint32(b[36:], 100)
	b[40] = 'A'
	binary.LittleEndian.PutUint64(b[48:], 0x123456789ABCDEF0)
	return hex.EncodeToString(b)
}

// printfLines is what printf_formats prints for in[i] = i, f[i] = 1.25,
// global size 256 (items 0, 64, 128, 192 print).
func printfLines() []string {
	var l []string
	for i := 0; i < 256; i += 64 {
		l = append(l,
			fmt.Sprintf("item %d: d=%d i=%d u=%d x=%x X=%X o=%o c=%c", i, i, -i, i, i, i+255, i, 'A'+i/64),
			fmt.Sprintf("item %d: f=1.250000 e=1.250000e+03 g=1.25 5.2f=[ 1.25] -8d=[%-8d] str %%", i, i),
			fmt.Sprintf("item %d: ld=%d lu=%d v4=1,2,3,%d", i, i*100000, i, i))
	}
	return l
}

func allSpecs() map[string][]spec {
	const n = 1024
	s := map[string][]spec{}
	s["vector_add"] = []spec{k("vector_add", true, l1(n, 64),
		in("a", "float", n, gFloat(1, -100, 100)), in("b", "float", n, gFloat(2, -100, 100)),
		out("c", "float", n, exact("vector_add")), scalar("n", "uint", "1000")).
		note("work-items >= n store nothing: c[1000:] keeps its zero fill")}
	s["saxpy"] = []spec{k("saxpy", true, l1(n, 128),
		scalar("alpha", "float", "2.5"), in("x", "float", n, gFloat(3, 1, 100)),
		inout("y", "float", n, gFloat(4, 1, 100), exact("saxpy"))).fused("y", 1)}
	s["int_alu"] = []spec{k("int_alu", true, l1(n, 64),
		in("a", "int", n, gBits(5)), in("b", "int", n, gInt(6, -70000, 70000)),
		out("out", "int", 32*n, exact("int_alu")))}
	s["int_sat"] = []spec{k("int_sat", true, l1(n, 64),
		in("a", "int", n, gBits(7)), in("b", "int", n, gBits(8)),
		out("out", "int", 12*n, exact("int_sat")))}
	s["int64_alu"] = []spec{k("int64_alu", true, l1(n, 64),
		in("a", "long", n, gBits(9)), in("b", "long", n, gInt(10, -3e9, 3e9)),
		out("out", "long", 20*n, exact("int64_alu")))}
	s["f32_exact"] = []spec{k("f32_exact", true, l1(n, 64),
		in("a", "float", n, gFloat(11, -100, 100)), in("b", "float", n, gFloat(12, 0.001, 100)),
		out("out", "float", 16*n, exact("f32_exact"))).fused("out", 1).
		note("slots 3 and 14 (x*y+x, -x*y-x) are the contractible ones; b > 0 keeps them free of cancellation")}
	s["f32_math"] = []spec{k("f32_math", true, l1(n, 64),
		in("a", "float", n, gFloat(13, -10, 10)), in("b", "float", n, gFloat(14, -4, 4)),
		out("out", "float", 12*n, slots("f32_math", why32+"; slot 10 is x/y (2.5 ulp, rounded up to 3), slot 11 hypot (4)",
			3, 2, 3, 3, 3, 3, 4, 4, 5, 16, 3, 4)))}
	s["f32_convert"] = []spec{k("f32_convert", true, l1(n, 64),
		in("a", "float", n, gSpecial(15, -3e9, 3e9)), in("b", "int", n, gBits(16)),
		out("out", "int", 16*n, exact("f32_convert")))}
	s["f32_compare"] = []spec{k("f32_compare", true, l1(n, 64),
		in("a", "float", n, gSpecial(17, -10, 10)), in("b", "float", n, gSpecial(18, -10, 10)),
		out("out", "int", 12*n, exact("f32_compare")))}
	s["f64"] = []spec{
		k("f64_arith", true, l1(n, 64),
			in("a", "double", n, gFloat(19, -100, 100)), in("b", "double", n, gFloat(20, 0.001, 100)),
			out("out", "double", 12*n, exact("f64_arith"))).fused("out", 1).
			note("slot 6 (x*y+x) is contractible; b > 0 keeps it free of cancellation"),
		k("f64_math", true, l1(n, 64),
			in("a", "double", n, gFloat(21, -10, 10)), in("b", "double", n, gFloat(22, -4, 4)),
			out("out", "double", 9*n, slots("f64_math", "OpenCL 2.0 double accuracy (exp/log/exp2/log2 3, sin/cos 4, pow 16, rsqrt 2) plus 2 ulp for the Go reference, whose math functions are not correctly rounded either; slot 8 is sqrt, which LLVM 15 lowers to the bare v_sqrt_f64 (not correctly rounded), bound 2 assumed",
				5, 5, 6, 6, 18, 5, 5, 4, 2))),
	}
	s["half"] = []spec{
		k("half_convert", true, l1(n, 64),
			in("in", "half", n, gFloat(23, -100, 100)), in("f", "float", n, gFloat(24, -60000, 60000)),
			out("out", "float", n, exact("half_convert_out")), out("hout", "half", n, exact("half_convert_hout"))),
		k("half_arith", false, l1(n, 64),
			in("a", "half", n, gFloat(25, -8, 8)), in("b", "half", n, gFloat(26, -8, 8)),
			out("out", "half", 4*n, slots("half_arith", "add, mul and fmax-fmin are correctly rounded (exact); the Go reference may round the fma slot twice", 0, 0, 1, 0))).note("needs cl_khr_fp16, which PoCL's CPU device may not offer"),
	}
	s["divergence"] = []spec{
		k("divergent_if", true, l1(n, 64), in("in", "int", n, gInt(27, -1000, 1000)), out("out", "int", n, exact("divergent_if"))),
		k("divergent_loop", true, l1(n, 64), in("in", "uint", n, gBits(28)), out("out", "uint", n, exact("divergent_loop"))),
		k("early_return", true, l1(n, 64), in("in", "int", n, gInt(29, -50, 50)), out("out", "int", n, exact("early_return"))),
		k("switch_case", true, l1(n, 64), in("in", "int", n, gInt(30, -1000, 1000)), out("out", "int", n, exact("switch_case"))),
	}
	s["reduce_lds"] = []spec{
		k("reduce_sum", true, l1(4096, 256), in("in", "int", 4096, gInt(31, -1000, 1000)),
			out("partial", "int", 16, exact("reduce_sum")), local("tmp", 256*4)),
		k("reduce_sum_static", true, l1(4096, 256), in("in", "int", 4096, gInt(31, -1000, 1000)),
			out("partial", "int", 16, exact("reduce_sum"))),
	}
	s["transpose_lds"] = []spec{k("transpose", true,
		corpus.Launch{Dims: 2, Global: [3]int{64, 48, 1}, Local: [3]int{16, 16, 1}},
		in("in", "float", 64*48, gFloat(32, -100, 100)), out("out", "float", 64*48, exact("transpose")),
		scalar("width", "uint", "64"), scalar("height", "uint", "48"))}
	s["matmul_tiled"] = []spec{k("matmul", true,
		corpus.Launch{Dims: 2, Global: [3]int{64, 64, 1}, Local: [3]int{16, 16, 1}},
		in("A", "float", 64*64, gInt(33, -8, 8)), in("B", "float", 64*64, gInt(34, -8, 8)),
		out("C", "float", 64*64, exact("matmul")), scalar("n", "uint", "64")).
		note("inputs are small integers, so every partial sum is exact and the result is exact with or without contraction")}
	s["atomics_global"] = []spec{
		k("histogram", true, l1(4096, 256), in("in", "uint", 4096, gBits(35)),
			out("hist", "uint", 64, exact("histogram")), scalar("nbins", "uint", "64")),
		k("atomic_ops", true, l1(n, 64), in("in", "int", n, gInt(36, -1000, 1000)),
			inout("res", "int", 13, gList("0", "0", "2147483647", "-2147483648", "-1", "0", "0", "-1", "0", "0", "0", "-1", "0"), exact("atomic_ops")),
			out("xchg_old", "int", n, setOf("atomic_ops_xchg"))).
			note("res[7] ends as the id of the last xchg, which is order-dependent: the reference takes it from the actual output after checking it is a valid id; xchg_old plus the final res[7] is a permutation of {-1, 0..n-1}"),
		k("atomic_ops64", true, l1(n, 64), in("in", "long", n, gInt(37, -1e12, 1e12)),
			inout("res", "long", 5, gList("0", "9223372036854775807", "-9223372036854775808", "0", "0"), exact("atomic_ops64"))),
	}
	s["atomics_lds"] = []spec{k("lds_histogram", true, l1(4096, 256), in("in", "uint", 4096, gBits(38)),
		out("hist", "uint", 64, exact("lds_histogram")), out("stats", "int", 16*3, exact("lds_histogram_stats")))}
	s["scratch"] = []spec{k("private_array", true, l1(n, 64), in("idx", "uint", n, gBits(39)), out("out", "uint", n, exact("private_array")))}
	s["byval_args"] = []spec{k("byval_args", true, l1(256, 64),
		corpus.Arg{Name: "p", Kind: "scalar", Type: "struct", Size: 64, Bytes: paramsBytes()},
		scalar("v", "float4", "1,2,3,4"), scalar("iv", "int2", "3,-50"),
		in("in", "float4", 256, gFloat(40, 1, 100)), out("out", "float4", 256, exact("byval_args")),
		out("iout", "int", 4*256, exact("byval_args_int"))).fused("out", 2)}
	s["grid_ids"] = []spec{
		k("ids_2d", true, corpus.Launch{Dims: 2, Global: [3]int{40, 24, 1}, Local: [3]int{8, 4, 1}, Offset: [3]int{3, 5, 0}},
			out("out", "uint", 40*24*24, exact("grid_ids"))),
		k("ids_3d", true, corpus.Launch{Dims: 3, Global: [3]int{12, 10, 6}, Local: [3]int{4, 5, 3}, Offset: [3]int{1, 2, 3}},
			out("out", "uint", 12*10*6*24, exact("grid_ids"))),
	}
	s["nonmultiple"] = []spec{k("partial_groups", false, l1(1000, 64), in("in", "int", 1000, gIota(0)),
		out("out", "int", 4000, exact("partial_groups"))).note("1000 = 15*64 + 40: the last workgroup has 40 work-items; PoCL's device lacks non-uniform work-groups (CL_INVALID_WORK_GROUP_SIZE)")}
	s["printf"] = []spec{k("printf_formats", true, l1(256, 64), in("in", "int", 256, gIota(0)), in("f", "float", 256, gConst(1.25))).
		prints(printfLines())}
	s["calls"] = []spec{k("calls", true, l1(512, 64), in("in", "int", 512, gInt(41, -100, 100)),
		out("out", "int", 512, exact("calls")), out("fout", "float", 512, exact("calls_poly"))).
		note("fout is exact with or without contraction: every intermediate of (0.5x-2)x+3 with x = in/4 is a small dyadic rational")}
	s["amdgcn_builtins"] = []spec{k("amdgcn_builtins", false, l1(256, 64), in("in", "int", 256, gInt(42, -1000, 1000)),
		out("out", "int", 12*256, exact("amdgcn_builtins"))).waveDependent().
		note("AMDGPU-only: readfirstlane, readlane, ds_swizzle, DPP, ds_bpermute/permute, icmp ballots, mbcnt")}
	s["char_short"] = []spec{k("char_short", true, l1(256, 64),
		in("c", "char", 4*256, gBits(43)), in("uc", "uchar", 256, gBits(44)), in("s", "short", 256, gBits(45)),
		in("us", "ushort", 256, gBits(46)), out("out", "int", 4*256, exact("char_short")), out("sout", "short", 2*256, exact("char_short_vec")))}
	s["spin_lds_flag"] = []spec{k("spin_lds_flag", false, l1(1024, 256), in("in", "int", 4, gIota(100)),
		out("out", "int", 4, exact("spin_lds_flag"))).note("terminates only if waves of a workgroup interleave; PoCL would hang")}
	s["spin_lds_lock"] = []spec{k("spin_lds_lock", false, l1(1024, 256), out("out", "int", 8, exact("spin_lds_lock")),
		scalar("delay", "int", "50")).waveDependent().note("out[2g] = out[2g+1] = waves per workgroup (256 / wavefront size); PoCL would hang")}
	s["spin_global_chain"] = []spec{k("spin_global_chain", false, l1(16*64, 64),
		inout("flags", "int", 17, &corpus.Gen{Kind: "zero"}, exact("spin_global_chain_flags")),
		out("order", "int", 16, exact("spin_global_chain")), scalar("n", "uint", "16")).
		note("workgroup g spins until g-1 finishes: needs linear workgroup start order and fair scheduling")}
	rec := 64 + 32*128
	initial := corpus.Launch{Dims: 3, Global: [3]int{16, 4, 2}, Local: [3]int{8, 2, 2}}
	s["initial_state_v3"] = []spec{k("initial_state", false, initial,
		inout("out", "uint", rec, &corpus.Gen{Kind: "zero"}, &corpus.Check{Ref: "initial_state", Compare: "none"})).
		note("writes one 32-dword record per work-item at byte 256 + slot*128 (see the source): v0-v2, the slot, s0-s19, exec; checked register by register by the emulator tests")}
	s["initial_state_v2"] = []spec{
		k("initial_state_v2", false, initial,
			inout("out", "uint", rec, &corpus.Gen{Kind: "zero"}, &corpus.Check{Ref: "initial_state_v2", Compare: "none"})),
		k("initial_state_v2_gridcount", false, initial,
			inout("out", "uint", rec, &corpus.Gen{Kind: "zero"}, &corpus.Check{Ref: "initial_state_v2_gridcount", Compare: "none"})),
	}
	return s
}

// hipProgram describes a HIP executable row.
func hipProgram(exe string, o corpus.Object) corpus.HIPProgram {
	name := o.Name()
	p := corpus.HIPProgram{Exe: exe, Bundle: exe + ".hipfb", CodeObject: exe + ".hsaco", Source: o.Source,
		Target: o.Target, Cov: o.Cov, Opt: o.Opt}
	switch name {
	case "assert":
		p.ExpectExit = 3
		p.Notes = "the kernel's assert fails for thread 77: hipDeviceSynchronize must return an error (exit 3); exit 0 means the failure went unnoticed. On real ROCm the runtime may abort the process instead (exit 134)."
	case "fault":
		p.ExpectExit = 4
		p.Notes = "thread 5 stores 1 TiB past its buffer: the dispatch must fail with a memory fault (exit 4 if HIP returns the error; ROCm's default queue error handler aborts with exit 134); exit 0 means the fault went unnoticed."
	case "printf":
		for b := 0; b < 4; b++ {
			for t := 0; t < 256; t += 64 {
				i := b*256 + t
				nm := "odd"
				if i%128 == 0 {
					nm = "even"
				}
				p.ExpectStdout = append(p.ExpectStdout, fmt.Sprintf("block %d thread %d: value=%f name=%s", b, t, float64(i)*0.5, nm))
			}
		}
		p.ExpectStdout = append(p.ExpectStdout, "PASSED printf")
	case "shuffle_ballot":
		ws := 64
		if o.WavefrontSize == 32 {
			ws = 32
		}
		p.ExpectStdout = []string{fmt.Sprintf("PASSED shuffle_ballot (warpSize %d)", ws)}
	case "streams_events":
		p.Notes = "prints PASSED streams_events (<elapsed> ms)"
	default:
		p.ExpectStdout = []string{"PASSED " + name}
	}
	return p
}
