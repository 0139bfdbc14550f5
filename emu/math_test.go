package emu

import (
	"math"
	"testing"
)

// ULP-bound tests of the math builtins (ocml compiled for GFX9): the
// transcendental instructions (v_sin/v_cos take revolutions, v_exp/v_log are
// base 2, v_rcp, v_rsq, v_sqrt, v_frexp, v_ldexp, v_fract, v_trig_preop, the
// f64 division helpers) are checked through the library code that uses
// them. Bounds are the OpenCL 2.0 full-profile ULP limits plus one ulp for
// rounding the float64 Go reference.

func ulp32(a, b float32) float64 {
	if math.IsNaN(float64(a)) && math.IsNaN(float64(b)) || a == b {
		return 0
	}
	if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) || math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) {
		return math.Inf(1)
	}
	ord := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return float64(d)
}

func ulp64(a, b float64) float64 {
	if math.IsNaN(a) && math.IsNaN(b) || a == b {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	ord := func(f float64) int64 {
		u := math.Float64bits(f)
		if u>>63 != 0 {
			return -int64(u &^ (1 << 63))
		}
		return int64(u)
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return float64(d)
}

func TestMathBuiltinsF32(t *testing.T) {
	for _, cpu := range []string{"gfx90a", "gfx900"} {
		t.Run(cpu, func(t *testing.T) {
			path := "testdata/math." + cpu + ".O2.hsaco"
			haveObject(t, path)
			mem := &testMem{}
			obj := loadObject(t, mem, path)
			d := newTestDevice(t, cpu, mem)
			n := 1000
			g := lcg(5)
			xs := make([]float32, n)
			for i := range xs {
				xs[i] = g.float() / 16 // [-8, 8)
			}
			xs[0], xs[1], xs[2] = 0, -0.0, 1e-30
			a, o := obj.buf(t, 4*n), obj.buf(t, 64*n)
			putF32s(a, xs)
			if _, err := obj.launch(t, d, "mathf", [3]uint32{uint32(n), 1, 1}, [3]uint32{128, 1, 1}, 0, kargs(a.Base, o.Base, n)); err != nil {
				t.Fatal(err)
			}
			got := f32s(o)
			type ref struct {
				name  string
				bound float64
				f     func(x float64) float64
			}
			seven := float64(float32(0.7))
			refs := []ref{
				{"sin", 4, math.Sin}, {"cos", 4, math.Cos}, {"exp", 3, math.Exp},
				{"log", 3, func(x float64) float64 { return math.Log(float64(float32(math.Abs(x)) + 0.5)) }},
				{"pow", 16, func(x float64) float64 { return math.Pow(float64(float32(math.Abs(x))+0.25), float64(float32(1.3))) }},
				{"fmod", 0, func(x float64) float64 { return math.Mod(x, seven) }},
				{"tan", 5, math.Tan},
				{"atan2", 6, func(x float64) float64 { return math.Atan2(x, 1.5) }},
				{"cbrt", 2, math.Cbrt}, {"exp2", 3, math.Exp2},
				{"log2", 3, func(x float64) float64 { return math.Log2(float64(float32(math.Abs(x)) + 0.5)) }},
				{"sqrt", 3, func(x float64) float64 { return math.Sqrt(math.Abs(x)) }},
				{"rint", 0, func(x float64) float64 { return math.RoundToEven(float64(float32(x * 3))) }},
				{"ldexp", 0, func(x float64) float64 { return math.Ldexp(x, 7) }},
				{"recip", 2.5, func(x float64) float64 { return 1 / float64(float32(x+2.5)) }},
				{"floor+trunc", 0, func(x float64) float64 {
					return float64(float32(math.Floor(x)) + float32(math.Trunc(float64(float32(x*1.5)))))
				}},
			}
			for i, x := range xs {
				for j, r := range refs {
					want := float32(r.f(float64(x)))
					bound := r.bound
					if bound > 0 {
						bound++
					}
					if u := ulp32(got[i*16+j], want); u > bound {
						t.Errorf("%s(%v) = %v, want %v (%v ulp > %v)", r.name, x, got[i*16+j], want, u, bound)
					}
				}
			}
		})
	}
}

func TestMathBuiltinsF64(t *testing.T) {
	for _, cpu := range []string{"gfx90a", "gfx900"} {
		t.Run(cpu, func(t *testing.T) {
			path := "testdata/math." + cpu + ".O2.hsaco"
			haveObject(t, path)
			mem := &testMem{}
			obj := loadObject(t, mem, path)
			d := newTestDevice(t, cpu, mem)
			n := 700
			g := lcg(9)
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(int64(g.next())<<20|int64(g.next())) / (1 << 47) // about [-16, 16)
			}
			xs[0], xs[1] = 0, 1e-310
			a, o := obj.buf(t, 8*n), obj.buf(t, 80*n)
			for i, x := range xs {
				le.PutUint64(a.Data[8*i:], math.Float64bits(x))
			}
			if _, err := obj.launch(t, d, "mathd", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, o.Base, n)); err != nil {
				t.Fatal(err)
			}
			type ref struct {
				name  string
				bound float64
				f     func(x float64) float64
			}
			refs := []ref{
				{"sin", 5, math.Sin}, {"cos", 5, math.Cos}, {"exp", 4, math.Exp},
				{"log", 4, func(x float64) float64 { return math.Log(math.Abs(x) + 0.5) }},
				{"pow", 17, func(x float64) float64 { return math.Pow(math.Abs(x)+0.25, 1.3) }},
				{"sqrt", 0, func(x float64) float64 { return math.Sqrt(math.Abs(x)) }},
				{"div", 0, func(x float64) float64 { return x / (x + 3.5) }},
				{"fma", 0, func(x float64) float64 { return math.FMA(x, x, -1) }},
				{"rounding", 0, func(x float64) float64 {
					return math.Floor(x) + math.Ceil(x*1.5) + math.Trunc(x) + math.RoundToEven(x*0.5)
				}},
				{"conversions", 0, func(x float64) float64 { return float64(float32(x)) + float64(int32(x*1000)) }},
			}
			for i, x := range xs {
				for j, r := range refs {
					got := math.Float64frombits(le.Uint64(o.Data[8*(i*10+j):]))
					want := r.f(x)
					if u := ulp64(got, want); u > r.bound {
						t.Errorf("%s(%v) = %v, want %v (%v ulp > %v)", r.name, x, got, want, u, r.bound)
					}
				}
			}
		})
	}
}
