package corpus

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Reference implementations of the corpus kernels, registered under the
// names manifest.json's checks use. Each computes one output buffer from
// the initial arguments exactly as the OpenCL C source specifies it (float
// references are unfused: a*b+c rounds twice, matching fp_contract=off).

// word is an element type of a kernel buffer.
type word interface {
	~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// decodeLE reads b as little-endian elements of T (a trailing partial
// element is ignored).
func decodeLE[T word](b []byte) []T {
	out := make([]T, len(b)/binary.Size(*new(T)))
	if _, err := binary.Decode(b, binary.LittleEndian, out); err != nil {
		panic(err) // cannot happen: out is sized from b
	}
	return out
}

// encodeLE returns v as little-endian bytes.
func encodeLE[T word](v []T) []byte {
	b, err := binary.Append(make([]byte, 0, len(v)*binary.Size(*new(T))), binary.LittleEndian, v)
	if err != nil {
		panic(err) // cannot happen: T is fixed-size
	}
	return b
}

func i32s(b []byte) []int32      { return decodeLE[int32](b) }
func u32s(b []byte) []uint32     { return decodeLE[uint32](b) }
func i64s(b []byte) []int64      { return decodeLE[int64](b) }
func f32s(b []byte) []float32    { return decodeLE[float32](b) }
func f64s(b []byte) []float64    { return decodeLE[float64](b) }
func fromI32(v []int32) []byte   { return encodeLE(v) }
func fromU32(v []uint32) []byte  { return encodeLE(v) }
func fromI64(v []int64) []byte   { return encodeLE(v) }
func fromF32(v []float32) []byte { return encodeLE(v) }
func fromF64(v []float64) []byte { return encodeLE(v) }

// argOf returns the initial bytes of a named argument.
func (in *RefInput) arg(name string) ([]byte, error) {
	b, ok := in.Args[name]
	if !ok {
		return nil, fmt.Errorf("missing argument %q", name)
	}
	return b, nil
}

func (in *RefInput) argCount(name string) int {
	for _, a := range in.Kernel.Args {
		if a.Name == name {
			return a.Count
		}
	}
	return 0
}

func (in *RefInput) outputs(name string) ([]byte, error) {
	b, ok := in.Outputs[name]
	if !ok {
		return nil, fmt.Errorf("reference needs the actual output %q", name)
	}
	return b, nil
}

// must returns the named args, panicking-free: refs below use get.
func get(in *RefInput, names ...string) ([][]byte, error) {
	out := make([][]byte, len(names))
	for i, n := range names {
		b, err := in.arg(n)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func init() {
	refs["vector_add"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "a", "b", "n")
		if err != nil {
			return nil, err
		}
		x, y, n := f32s(a[0]), f32s(a[1]), int(binary.LittleEndian.Uint32(a[2]))
		c := make([]float32, in.argCount("c"))
		for i := range c {
			if i < n {
				c[i] = x[i] + y[i]
			}
		}
		return fromF32(c), nil
	}
	refs["saxpy"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "alpha", "x", "y")
		if err != nil {
			return nil, err
		}
		alpha := math.Float32frombits(binary.LittleEndian.Uint32(a[0]))
		x, y := f32s(a[1]), f32s(a[2])
		for i := range y {
			y[i] = float32(alpha*x[i]) + y[i]
		}
		return fromF32(y), nil
	}
	refs["int_alu"] = refIntALU
	refs["int_sat"] = refIntSat
	refs["int64_alu"] = refInt64ALU
	refs["f32_exact"] = refF32Exact
	refs["f32_math"] = refF32Math
	refs["f32_compare"] = refF32Compare
	refs["f32_convert"] = refF32Convert
	refs["f64_arith"] = refF64Arith
	refs["f64_math"] = refF64Math
	refs["half_convert_out"] = func(in *RefInput) ([]byte, error) {
		h, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		out := make([]float32, len(h)/2)
		for i := range out {
			out[i] = HalfToFloat32(binary.LittleEndian.Uint16(h[2*i:])) * 2
		}
		return fromF32(out), nil
	}
	refs["half_convert_hout"] = func(in *RefInput) ([]byte, error) {
		f, err := in.arg("f")
		if err != nil {
			return nil, err
		}
		v := f32s(f)
		out := make([]byte, 2*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint16(out[2*i:], Float32ToHalf(x))
		}
		return out, nil
	}
	registerControl()
	registerMemory()
}

func refIntALU(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := i32s(a[0]), i32s(a[1])
	out := make([]int32, 0, 32*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		ux, uy := uint32(x), uint32(y)
		d := y
		if d == 0 {
			d = 1
		}
		if x == math.MinInt32 && d == -1 {
			d = 1
		}
		ud := uy
		if ud == 0 {
			ud = 1
		}
		s := uint(y & 31)
		x24, y24 := int32(ux<<8)>>8, int32(uy<<8)>>8
		ux24, uy24 := ux&0xFFFFFF, uy&0xFFFFFF
		abs := ux
		if x < 0 {
			abs = -ux
		}
		sel := x
		if !(x < y) {
			sel = int32(uy * 3)
		}
		lt := int32(0)
		if ux < uy {
			lt = 1
		}
		out = append(out,
			int32(ux+uy), int32(ux-uy), int32(ux*uy),
			int32((int64(x)*int64(y))>>32), int32((uint64(ux)*uint64(uy))>>32),
			x/d, x%d, int32(ux/ud), int32(ux%ud),
			int32(ux<<s), x>>s, int32(ux>>s),
			int32(bits.RotateLeft32(ux, int(uy&31))),
			x&y, x|y, x^y, ^x,
			int32(bits.OnesCount32(ux)), int32(bits.LeadingZeros32(ux)), int32(abs),
			min(x, y), max(x, y), int32(min(ux, uy)), int32(max(ux, uy)),
			int32(int64(x24)*int64(y24)),
			int32(int64(x24>>12)*int64(y24>>12))+x>>8,
			int32(uint64(ux24)*uint64(uy24)),
			int32(uint32(uint64(ux24)*uint64(uy24))+uy),
			int32(-ux), sel, lt, int32(bits.TrailingZeros32(ux)))
	}
	return fromI32(out), nil
}

func sat32(v int64) int32 { return int32(max(math.MinInt32, min(math.MaxInt32, v))) }

func refIntSat(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := i32s(a[0]), i32s(a[1])
	out := make([]int32, 0, 12*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		ux, uy := uint32(x), uint32(y)
		uadd := uint64(ux) + uint64(uy)
		if uadd > math.MaxUint32 {
			uadd = math.MaxUint32
		}
		usub := uint32(0)
		if ux > uy {
			usub = ux - uy
		}
		ad := int64(x) - int64(y)
		if ad < 0 {
			ad = -ad
		}
		out = append(out,
			sat32(int64(x)+int64(y)), sat32(int64(x)-int64(y)),
			int32(uint32(uadd)), int32(usub),
			int32((int64(x)+int64(y))>>1), int32((int64(x)+int64(y)+1)>>1),
			max(-1000, min(1000, x)), int32(uint32(ad)),
			sat32(int64(x)*3+int64(y)),
			int32(uint32(int32(int16(x)))<<16|uint32(uint16(y))),
			int32((int64(x)*int64(y))>>32)+7,
			int32((uint64(ux)*0x9E3779B9)>>32))
	}
	return fromI32(out), nil
}

func mulhi64(x, y int64) int64 {
	hi, _ := bits.Mul64(uint64(x), uint64(y))
	h := int64(hi)
	if x < 0 {
		h -= y
	}
	if y < 0 {
		h -= x
	}
	return h
}

func refInt64ALU(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := i64s(a[0]), i64s(a[1])
	out := make([]int64, 0, 20*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		ux, uy := uint64(x), uint64(y)
		d := y
		if d == 0 {
			d = 1
		}
		if x == math.MinInt64 && d == -1 {
			d = 1
		}
		ud := uy
		if ud == 0 {
			ud = 1
		}
		s := uint(y & 63)
		uhi, _ := bits.Mul64(ux, uy)
		out = append(out,
			int64(ux+uy), int64(ux-uy), int64(ux*uy), mulhi64(x, y), int64(uhi),
			x/d, x%d, int64(ux/ud), int64(ux%ud),
			int64(ux<<s), x>>s, int64(ux>>s), x&y, x|y, x^y,
			int64(bits.OnesCount64(ux)), int64(bits.LeadingZeros64(ux)),
			min(x, y), int64(max(ux, uy)), int64(bits.RotateLeft64(ux, int(uy&63))))
	}
	return fromI64(out), nil
}

func fminf(x, y float32) float32 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case y < x:
		return y
	}
	return x
}

func fmaxf(x, y float32) float32 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case y > x:
		return y
	}
	return x
}

func refF32Exact(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := f32s(a[0]), f32s(a[1])
	out := make([]float32, 0, 16*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		X := float64(x)
		fma := float32(math.FMA(X, float64(y), X)) // exact product: the sum rounds once
		out = append(out,
			x+y, x-y, x*y, float32(x*y)+x, fma, fminf(x, y), fmaxf(x, y),
			float32(math.Floor(X)), float32(math.Ceil(X)), float32(math.Round(X)), float32(math.Trunc(X)),
			float32(math.Abs(X)), float32(math.Copysign(X, float64(y))), float32(math.RoundToEven(X)),
			float32(-x*y)-x, 0)
	}
	return fromF32(out), nil
}

func refF32Math(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := f32s(a[0]), f32s(a[1])
	out := make([]float32, 0, 12*len(xs))
	for i := range xs {
		x, y := float64(xs[i]), float64(ys[i])
		ax := float64(float32(math.Abs(x) + 0.5))
		den := float64(float32(math.Abs(y) + 1))
		out = append(out,
			float32(math.Sqrt(ax)), float32(1/math.Sqrt(ax)), float32(math.Exp(x)), float32(math.Exp2(x)),
			float32(math.Log(ax)), float32(math.Log2(ax)), float32(math.Sin(x)), float32(math.Cos(x)),
			float32(math.Tan(x)), float32(math.Pow(ax, y)), float32(x/den), float32(math.Hypot(x, y)))
	}
	return fromF32(out), nil
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func refF32Compare(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := f32s(a[0]), f32s(a[1])
	out := make([]int32, 0, 12*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		X := float64(x)
		nan := x != x
		abs := math.Abs(X)
		sel := x
		if x > y {
			sel = y
		}
		out = append(out,
			b2i(nan), b2i(math.IsInf(X, 0)), b2i(!nan && !math.IsInf(X, 0)),
			b2i(!nan && !math.IsInf(X, 0) && abs >= 0x1p-126),
			b2i(math.Signbit(X)), b2i(x == y), b2i(x < y), b2i(x < y || x > y),
			b2i(nan || y != y), b2i(x < y), b2i(x >= y), int32(math.Float32bits(sel)))
	}
	return fromI32(out), nil
}

// satInt converts a rounded float64 to an integer range, NaN to 0.
func satInt(v float64, lo, hi int64) int64 {
	switch {
	case v != v:
		return 0
	case v <= float64(lo):
		return lo
	case v >= float64(hi):
		return hi
	}
	return int64(v)
}

// floatRound converts an integer to float32 with the given rounding:
// 0 nearest-even, 1 toward zero, 2 toward +inf.
func floatRound(n int64, mode int) float32 {
	f := float32(n) // nearest-even
	diff := new(big3).cmp(f, n)
	switch mode {
	case 1:
		if diff > 0 && n >= 0 || diff < 0 && n < 0 {
			f = math.Nextafter32(f, 0)
		}
	case 2:
		if diff < 0 {
			f = math.Nextafter32(f, float32(math.Inf(1)))
		}
	}
	return f
}

// big3 compares a float32 with an int64 exactly (both fit in float64 when
// |n| < 2^53, which the corpus inputs satisfy: they come from 32-bit ints).
type big3 struct{}

func (big3) cmp(f float32, n int64) int {
	F, N := float64(f), float64(n)
	switch {
	case F > N:
		return 1
	case F < N:
		return -1
	}
	return 0
}

func refF32Convert(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ns := f32s(a[0]), i32s(a[1])
	out := make([]int32, 0, 16*len(xs))
	for i := range xs {
		x, n := xs[i], ns[i]
		X := float64(x)
		xc := 0.0
		if x == x {
			xc = math.Max(-2147483520, math.Min(2147483520, X))
		}
		p := float64(x * 1e9) // one float32 multiply, as the kernel does
		out = append(out,
			int32(math.Trunc(xc)),
			int32(satInt(math.Trunc(X), math.MinInt32, math.MaxInt32)),
			int32(uint32(satInt(math.Trunc(X), 0, math.MaxUint32))),
			int32(satInt(math.RoundToEven(X), math.MinInt32, math.MaxInt32)),
			int32(satInt(math.Ceil(X), math.MinInt32, math.MaxInt32)),
			int32(satInt(math.Floor(X), math.MinInt32, math.MaxInt32)),
			int32(satInt(math.Trunc(X), math.MinInt16, math.MaxInt16)),
			int32(satInt(math.Trunc(X), 0, math.MaxUint8)),
			int32(max(-128, min(127, n))),
			int32(max(0, min(65535, n))),
			int32(math.Float32bits(float32(n))),
			int32(math.Float32bits(float32(uint32(n)))),
			int32(math.Float32bits(floatRound(int64(n), 1))),
			int32(math.Float32bits(floatRound(int64(uint32(n)), 2))),
			int32(math.Float32bits(float32(int64(n)*123457))),
			int32(satInt(math.Trunc(p), math.MinInt64, math.MaxInt64)))
	}
	return fromI32(out), nil
}

func fmind(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case y < x:
		return y
	}
	return x
}

func refF64Arith(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := f64s(a[0]), f64s(a[1])
	out := make([]float64, 0, 12*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		out = append(out, x+y, x-y, x*y, x/y, x-math.Floor(x), math.FMA(x, y, x), float64(x*y)+x,
			fmind(x, y), math.Floor(x), float64(int64(float64(x*1000.0))), float64(float32(x)),
			math.Copysign(math.Abs(x), y))
	}
	return fromF64(out), nil
}

func refF64Math(in *RefInput) ([]byte, error) {
	a, err := get(in, "a", "b")
	if err != nil {
		return nil, err
	}
	xs, ys := f64s(a[0]), f64s(a[1])
	out := make([]float64, 0, 9*len(xs))
	for i := range xs {
		x, y := xs[i], ys[i]
		ax := math.Abs(x) + 0.5
		// math.Log2 loses ~16 ulp near 1 (it adds the exponent to a
		// negative logarithm); Log1p of the exact ax-1 does not.
		log2 := math.Log1p(ax-1) * (1 / math.Ln2)
		if ax >= 2 {
			log2 = math.Log(ax) * (1 / math.Ln2)
		}
		out = append(out, math.Exp(x), math.Log(ax), math.Sin(x), math.Cos(x), math.Pow(ax, y),
			math.Exp2(x), log2, 1/math.Sqrt(ax), math.Sqrt(ax))
	}
	return fromF64(out), nil
}
