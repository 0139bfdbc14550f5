package corpus

import (
	"encoding/binary"
	"fmt"
	"math"
)

func u32arg(in *RefInput, name string) (uint32, error) {
	b, err := in.arg(name)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func registerControl() {
	refs["divergent_if"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		out := make([]int32, len(v))
		for i, x := range v {
			if x&1 != 0 {
				out[i] = x*3 + 1
				if x > 100 {
					out[i] -= 7
				}
			} else {
				out[i] = x / 2
			}
		}
		return fromI32(out), nil
	}
	refs["divergent_loop"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := u32s(b)
		out := make([]uint32, len(v))
		for i, x := range v {
			x = x%1000 + 1
			steps := uint32(0)
			for x != 1 && steps < 500 {
				if x&1 != 0 {
					x = 3*x + 1
				} else {
					x >>= 1
				}
				steps++
			}
			out[i] = steps
		}
		return fromU32(out), nil
	}
	refs["early_return"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		out := make([]int32, len(v))
		for i, x := range v {
			out[i] = -1
			if x < 0 || x&15 > 9 {
				continue
			}
			acc := int32(0)
			for k := int32(0); k < x&15; k++ {
				acc += k * x
			}
			out[i] = acc
		}
		return fromI32(out), nil
	}
	refs["switch_case"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		out := make([]int32, len(v))
		for i, x := range v {
			var r int32
			switch x & 7 {
			case 0:
				r = x + 10
			case 1:
				r = x * 2
			case 2:
				r = x ^ 0x55
			case 3, 4:
				r = x << 1
			case 6:
				r = -x
			default:
				r = 42
			}
			out[i] = r
		}
		return fromI32(out), nil
	}
	refs["calls"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		n := len(v)
		sum := func(arr []int32, cnt, k int32) int32 {
			s := int32(0)
			for j := int32(0); j < cnt; j++ {
				s += arr[j] * (j + k)
			}
			return s
		}
		out := make([]int32, n)
		for i := range v {
			arr := make([]int32, 8)
			for j := range arr {
				arr[j] = v[(i+j)%n]
			}
			out[i] = sum(arr, 8, int32(i)&3) + sum(arr, 4, 1)
		}
		return fromI32(out), nil
	}
	refs["calls_poly"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		out := make([]float32, len(v))
		for i, x := range v {
			f := float32(x) * 0.25
			out[i] = float32(float32(float32(0.5*f)-2)*f) + 3
		}
		return fromF32(out), nil
	}
	refs["grid_ids"] = refGridIDs
	refs["partial_groups"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		l := in.Kernel.Launch
		out := make([]int32, 0, 4*len(v))
		for i, x := range v {
			g := i / l.Local[0]
			ls := min(l.Local[0], l.Global[0]-g*l.Local[0])
			out = append(out, x*2+1, int32(ls), int32(l.Local[0]), int32(g))
		}
		return fromI32(out), nil
	}
	refs["amdgcn_builtins"] = refBuiltins
	refs["spin_lds_flag"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		for i := range v {
			v[i]++
		}
		return fromI32(v), nil
	}
	refs["spin_lds_lock"] = func(in *RefInput) ([]byte, error) {
		if in.WavefrontSize != 32 && in.WavefrontSize != 64 {
			return nil, fmt.Errorf("wavefront size %d", in.WavefrontSize)
		}
		l := in.Kernel.Launch
		waves := int32((l.Local[0] + in.WavefrontSize - 1) / in.WavefrontSize)
		out := make([]int32, 2*l.Groups()[0])
		for i := range out {
			out[i] = waves
		}
		return fromI32(out), nil
	}
	refs["spin_global_chain"] = func(in *RefInput) ([]byte, error) {
		n, err := u32arg(in, "n")
		if err != nil {
			return nil, err
		}
		out := make([]int32, n)
		for i := range out {
			out[i] = int32(i)
		}
		return fromI32(out), nil
	}
	refs["spin_global_chain_flags"] = func(in *RefInput) ([]byte, error) {
		n, err := u32arg(in, "n")
		if err != nil {
			return nil, err
		}
		out := make([]int32, n+1)
		for i := range out {
			out[i] = 1
		}
		out[n] = int32(n)
		return fromI32(out), nil
	}
}

// refGridIDs computes every work-item's record of grid_ids.cl (OpenCL 2.0
// work-item functions; unused dimensions report size 1, id 0).
func refGridIDs(in *RefInput) ([]byte, error) {
	l := in.Kernel.Launch
	var gs, ls, off, ng [3]int
	for d := 0; d < 3; d++ {
		gs[d], ls[d], off[d] = 1, 1, 0
		if d < l.Dims {
			gs[d], ls[d], off[d] = l.Global[d], l.Local[d], l.Offset[d]
		}
		ng[d] = (gs[d] + ls[d] - 1) / ls[d]
	}
	out := make([]uint32, gs[0]*gs[1]*gs[2]*24)
	for z := 0; z < gs[2]; z++ {
		for y := 0; y < gs[1]; y++ {
			for x := 0; x < gs[0]; x++ {
				id := [3]int{x, y, z}
				lin := (z*gs[1]+y)*gs[0] + x
				o := out[lin*24 : lin*24+24]
				o[0] = uint32(l.Dims)
				var lid [3]int
				for d := 0; d < 3; d++ {
					g := id[d] / ls[d]
					lid[d] = id[d] % ls[d]
					o[1+d] = uint32(id[d] + off[d])
					o[4+d] = uint32(lid[d])
					o[7+d] = uint32(g)
					o[10+d] = uint32(min(ls[d], gs[d]-g*ls[d]))
					o[13+d] = uint32(gs[d])
					o[16+d] = uint32(ng[d])
					o[19+d] = uint32(off[d])
				}
				o[22] = uint32((lid[2]*ls[1]+lid[1])*ls[0] + lid[0])
				o[23] = uint32(ls[0]*1000 + ls[1])
			}
		}
	}
	return fromU32(out), nil
}

// refBuiltins models the AMDGPU cross-lane operations per wave (every lane
// active; launch local size is a multiple of the wave size).
func refBuiltins(in *RefInput) ([]byte, error) {
	b, err := in.arg("in")
	if err != nil {
		return nil, err
	}
	ws := in.WavefrontSize
	if ws != 32 && ws != 64 {
		return nil, fmt.Errorf("wavefront size %d", ws)
	}
	x := i32s(b)
	out := make([]int32, 12*len(x))
	for base := 0; base < len(x); base += ws {
		w := x[base : base+ws]
		var odd, neg uint64
		for l, v := range w {
			if v&1 != 0 {
				odd |= 1 << l
			}
			if v < 0 {
				neg |= 1 << l
			}
		}
		for l := 0; l < ws; l++ {
			o := out[(base+l)*12 : (base+l)*12+12]
			o[0] = w[0]
			o[1] = w[3]
			o[2] = w[l^1]
			if l%16 != 0 {
				o[3] = w[l-1]
			}
			o[4] = w[l&^3|(3-l&3)]
			o[5] = w[(l+1)%ws]
			o[6], o[7] = int32(uint32(odd)), int32(uint32(odd>>32))
			o[8] = int32(uint32(neg))
			o[9] = int32(l)
			o[10] = int32(ws)
			o[11] = w[l^1]
		}
	}
	return fromI32(out), nil
}

func registerMemory() {
	refs["reduce_sum"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		ls := in.Kernel.Launch.Local[0]
		out := make([]int32, len(v)/ls)
		for i, x := range v {
			out[i/ls] += x
		}
		return fromI32(out), nil
	}
	refs["transpose"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "in", "width", "height")
		if err != nil {
			return nil, err
		}
		v := f32s(a[0])
		w, h := int(binary.LittleEndian.Uint32(a[1])), int(binary.LittleEndian.Uint32(a[2]))
		out := make([]float32, w*h)
		for r := 0; r < w; r++ {
			for c := 0; c < h; c++ {
				out[r*h+c] = v[c*w+r]
			}
		}
		return fromF32(out), nil
	}
	refs["matmul"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "A", "B", "n")
		if err != nil {
			return nil, err
		}
		A, B, n := f32s(a[0]), f32s(a[1]), int(binary.LittleEndian.Uint32(a[2]))
		C := make([]float32, n*n)
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				acc := float32(0)
				for k := 0; k < n; k++ {
					acc = acc + float32(A[r*n+k]*B[k*n+c])
				}
				C[r*n+c] = acc
			}
		}
		return fromF32(C), nil
	}
	refs["histogram"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		nb, err := u32arg(in, "nbins")
		if err != nil {
			return nil, err
		}
		hist := make([]uint32, in.argCount("hist"))
		for _, x := range u32s(b) {
			hist[x%nb]++
		}
		return fromU32(hist), nil
	}
	refs["atomic_ops"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "in", "res")
		if err != nil {
			return nil, err
		}
		v, r := i32s(a[0]), i32s(a[1])
		for i, x := range v {
			r[0] += x
			r[1] -= x
			r[2] = min(r[2], x)
			r[3] = max(r[3], x)
			r[4] &= ^(int32(1) << (i & 31)) | (x & 1)
			r[5] |= int32(1) << (x & 31)
			r[6] ^= x
			r[8] += x
			r[9]++
			r[10]--
			r[11] = int32(min(uint32(r[11]), uint32(x)))
			r[12] = int32(max(uint32(r[12]), uint32(x)))
		}
		// The last exchange wins: any work-item id is valid; take the one
		// the device produced after checking it.
		got, err := in.outputs("res")
		if err != nil {
			return nil, err
		}
		last := i32s(got)[7]
		if last < 0 || int(last) >= len(v) {
			return nil, fmt.Errorf("res[7] = %d is not a work-item id", last)
		}
		r[7] = last
		return fromI32(r), nil
	}
	refs["atomic_ops_xchg"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "res")
		if err != nil {
			return nil, err
		}
		got, err := in.outputs("res")
		if err != nil {
			return nil, err
		}
		n := in.argCount("xchg_old")
		last := i32s(got)[7]
		// {initial res[7]} ∪ {0..n-1} minus the final value.
		want := []int32{i32s(a[0])[7]}
		for i := 0; i < n; i++ {
			if int32(i) != last {
				want = append(want, int32(i))
			}
		}
		if len(want) != n {
			return nil, fmt.Errorf("final res[7] = %d is not a work-item id", last)
		}
		return fromI32(want), nil
	}
	refs["atomic_ops64"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "in", "res")
		if err != nil {
			return nil, err
		}
		v, r := i64s(a[0]), i64s(a[1])
		for _, x := range v {
			r[0] += x
			r[1] = min(r[1], x)
			r[2] = max(r[2], x)
			r[3] ^= x
			r[4] ^= x
		}
		return fromI64(r), nil
	}
	refs["lds_histogram"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		hist := make([]uint32, 64)
		for _, x := range u32s(b) {
			hist[x%64]++
		}
		return fromU32(hist), nil
	}
	refs["lds_histogram_stats"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("in")
		if err != nil {
			return nil, err
		}
		v := i32s(b)
		ls := in.Kernel.Launch.Local[0]
		var out []int32
		for g := 0; g < len(v)/ls; g++ {
			mn, mx := int32(math.MaxInt32), int32(math.MinInt32)
			for _, x := range v[g*ls : (g+1)*ls] {
				mn, mx = min(mn, x), max(mx, x)
			}
			out = append(out, mn, mx, int32(ls))
		}
		return fromI32(out), nil
	}
	refs["private_array"] = func(in *RefInput) ([]byte, error) {
		b, err := in.arg("idx")
		if err != nil {
			return nil, err
		}
		const n = 96
		idx := u32s(b)
		out := make([]uint32, len(idx))
		for i, j := range idx {
			var arr [n]uint32
			for k := uint32(0); k < n; k++ {
				arr[k] = k*7 + uint32(i)
			}
			for k := uint32(0); k < 8; k++ {
				arr[(j+k*13)%n] ^= arr[(j*5+k)%n] + k
			}
			acc := uint32(0)
			for k := uint32(0); k < 4; k++ {
				acc = acc*31 + arr[(j+k*29)%n]
			}
			out[i] = acc
		}
		return fromU32(out), nil
	}
	refs["byval_args"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "p", "v", "in")
		if err != nil {
			return nil, err
		}
		p, v, x := a[0], f32s(a[1]), f32s(a[2])
		scale := math.Float32frombits(binary.LittleEndian.Uint32(p[0:]))
		bias := f32s(p[16:32])
		out := make([]float32, len(x))
		for i := range x {
			c := i % 4
			out[i] = float32(float32(x[i]*scale)+bias[c]) + v[c]
		}
		return fromF32(out), nil
	}
	refs["byval_args_int"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "p", "iv")
		if err != nil {
			return nil, err
		}
		p, iv := a[0], i32s(a[1])
		offset := int32(binary.LittleEndian.Uint32(p[4:]))
		lo, hi := int32(binary.LittleEndian.Uint32(p[32:])), int32(binary.LittleEndian.Uint32(p[36:]))
		tag := int32(int8(p[40]))
		big := int64(binary.LittleEndian.Uint64(p[48:]))
		n := in.argCount("iout") / 4
		out := make([]int32, 0, 4*n)
		for i := 0; i < n; i++ {
			k := int32(i)*iv[0] + iv[1] + offset
			out = append(out, max(lo, min(hi, k)), tag, int32(big>>32), int32(big))
		}
		return fromI32(out), nil
	}
	refs["char_short"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "c", "uc", "s", "us")
		if err != nil {
			return nil, err
		}
		n := len(a[1])
		out := make([]int32, 0, 4*n)
		for i := 0; i < n; i++ {
			s := int16(binary.LittleEndian.Uint16(a[2][2*i:]))
			us := binary.LittleEndian.Uint16(a[3][2*i:])
			out = append(out, int32(int8(a[0][i]))*3, int32(a[1][i])+1000, int32(s)>>2, int32(us)^0x8000)
		}
		return fromI32(out), nil
	}
	refs["char_short_vec"] = func(in *RefInput) ([]byte, error) {
		c, err := in.arg("c")
		if err != nil {
			return nil, err
		}
		n := len(c) / 4
		out := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			v := func(k int) int32 { return int32(int8(c[4*i+k])) }
			binary.LittleEndian.PutUint16(out[4*i:], uint16(int16(v(0)+v(1))))
			binary.LittleEndian.PutUint16(out[4*i+2:], uint16(int16(v(2)*v(3))))
		}
		return out, nil
	}
}

func init() {
	refs["half_arith"] = func(in *RefInput) ([]byte, error) {
		a, err := get(in, "a", "b")
		if err != nil {
			return nil, err
		}
		n := len(a[0]) / 2
		out := make([]byte, 8*n)
		h := func(b []byte, i int) float64 { return float64(HalfToFloat32(binary.LittleEndian.Uint16(b[2*i:]))) }
		for i := 0; i < n; i++ {
			x, y := h(a[0], i), h(a[1], i)
			// Sums, products and differences of halves are exact in
			// float32, so rounding them to half once is exact rounding;
			// the fma slot may round twice (hence its 1-ulp bound).
			vals := []float64{x + y, x * y, math.FMA(x, y, x), math.Max(x, y) - math.Min(x, y)}
			for k, v := range vals {
				binary.LittleEndian.PutUint16(out[8*i+2*k:], Float32ToHalf(float32(v)))
			}
		}
		return out, nil
	}
}
