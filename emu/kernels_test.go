package emu

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/target"
)

// Kernel tests: clang-compiled OpenCL kernels (testdata/kernels.cl) run on
// the engine and are compared with Go references, on sizes that are and are
// not multiples of the workgroup size.

var testTargets = []struct{ cpu, opt string }{{"gfx90a", "O2"}, {"gfx90a", "O0"}, {"gfx900", "O2"}, {"gfx900", "O0"},
	{"gfx940", "O2"}, {"gfx940", "O0"}}

func newTestDevice(t testing.TB, cpu string, mem *testMem) *Device {
	t.Helper()
	p, err := target.Lookup(cpu)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFor(p, mem)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Budget = 200_000_000
	d, err := NewDevice(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func forTargets(t *testing.T, f func(t *testing.T, obj *testObject, d *Device)) {
	for _, tg := range testTargets {
		t.Run(tg.cpu+"."+tg.opt, func(t *testing.T) {
			path := testObjectPath(tg.cpu, tg.opt)
			haveObject(t, path)
			mem := &testMem{}
			obj := loadObject(t, mem, path)
			f(t, obj, newTestDevice(t, tg.cpu, mem))
		})
	}
}

func f32s(r Region) []float32 {
	out := make([]float32, len(r.Data)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.Data[4*i:]))
	}
	return out
}

func putF32s(r Region, v []float32) {
	for i, x := range v {
		binary.LittleEndian.PutUint32(r.Data[4*i:], math.Float32bits(x))
	}
}

func u32s(r Region) []uint32 {
	out := make([]uint32, len(r.Data)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(r.Data[4*i:])
	}
	return out
}

func putU32s(r Region, v []uint32) {
	for i, x := range v {
		binary.LittleEndian.PutUint32(r.Data[4*i:], x)
	}
}

// lcg is a deterministic generator for test inputs.
type lcg uint64

func (g *lcg) next() uint32 {
	*g = *g*6364136223846793005 + 1442695040888963407
	return uint32(*g >> 32)
}

func (g *lcg) float() float32 { return float32(int32(g.next())) / (1 << 24) }

var sizes = []int{1, 64, 100, 256, 1000, 4099}

func TestKernelVadd(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range sizes {
			g := lcg(n)
			a, b, c := obj.buf(t, 4*n), obj.buf(t, 4*n), obj.buf(t, 4*n+4)
			av, bv := make([]float32, n), make([]float32, n)
			for i := range av {
				av[i], bv[i] = g.float(), g.float()
			}
			putF32s(a, av)
			putF32s(b, bv)
			putU32s(c, []uint32{0: 0}) // keep the guard word after n
			binary.LittleEndian.PutUint32(c.Data[4*n:], 0xC0FFEE)
			grid := uint32((n + 255) / 256 * 256)
			if _, err := obj.launch(t, d, "vadd", [3]uint32{grid, 1, 1}, [3]uint32{256, 1, 1}, 0, kargs(a.Base, b.Base, c.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got := f32s(c)
			for i := 0; i < n; i++ {
				if want := av[i] + bv[i]; got[i] != want {
					t.Fatalf("n=%d c[%d] = %v, want %v", n, i, got[i], want)
				}
			}
			if binary.LittleEndian.Uint32(c.Data[4*n:]) != 0xC0FFEE {
				t.Fatalf("n=%d: wrote past the end", n)
			}
		}
	})
}

func TestKernelSaxpyAndDiv(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range sizes {
			g := lcg(n + 1)
			x, y, z := obj.buf(t, 4*n), obj.buf(t, 4*n), obj.buf(t, 4*n)
			xv, yv := make([]float32, n), make([]float32, n)
			for i := range xv {
				xv[i], yv[i] = g.float(), g.float()
			}
			xv[0] = 0x1p-140 // a denormal
			putF32s(x, xv)
			putF32s(y, yv)
			alpha := float32(1.75)
			// Grid not rounded up: the last workgroup is partial.
			if _, err := obj.launch(t, d, "saxpy", [3]uint32{uint32(n), 1, 1}, [3]uint32{128, 1, 1}, 0, kargs(alpha, x.Base, y.Base, n)); err != nil {
				t.Fatalf("saxpy n=%d: %v", n, err)
			}
			got := f32s(y)
			for i := 0; i < n; i++ {
				if want := float32(alpha*xv[i]) + yv[i]; got[i] != want {
					t.Fatalf("saxpy n=%d y[%d] = %v, want %v", n, i, got[i], want)
				}
			}
			putF32s(y, yv)
			if _, err := obj.launch(t, d, "fdiv", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(x.Base, y.Base, z.Base, n)); err != nil {
				t.Fatalf("fdiv n=%d: %v", n, err)
			}
			got = f32s(z)
			for i := 0; i < n; i++ {
				q := float32(float64(xv[i]) / float64(yv[i]))
				s := float32(math.Sqrt(math.Abs(float64(xv[i]))))
				if want := q + s; got[i] != want {
					t.Fatalf("fdiv n=%d z[%d] = %v (%#x), want %v (%#x)", n, i, got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
				}
			}
		}
	})
}

func intaluRef(x, y uint32) uint32 {
	sx, sy := int32(x), int32(y)
	p := uint64(x) * uint64(y)
	var r uint32
	r ^= uint32(p >> 32)
	r ^= uint32(int64(sx)*int64(sy)>>32) * 3
	r ^= bits.RotateLeft32(x, int(y&31))
	r ^= uint32(bits.LeadingZeros32(x)) + uint32(bits.OnesCount32(y))*7
	r ^= uint32(p>>17) + uint32(p)
	if y != 0 {
		r ^= x / y
	} else {
		r ^= 0xdead
	}
	if sy != 0 && !(sx == math.MinInt32 && sy == -1) {
		r ^= uint32(sx % sy)
	} else {
		r ^= 0xbeef
	}
	r ^= uint32(int64(sx) * int64(sy) >> 40)
	if sx > sy {
		r ^= uint32(int64(sx) - int64(sy))
	} else {
		r ^= uint32(int64(sy) - int64(sx))
	}
	r ^= uint32(max(sx, sy)) + min(x, y)
	if sx < 0 {
		r ^= uint32(sx >> 3)
	} else {
		r ^= x << (y & 7)
	}
	r ^= uint32(sx&0xffff)*uint32(sy&0xffff) + 5
	r ^= uint32(p % 1000003)
	return r
}

func TestKernelIntALU(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{1, 100, 1000} {
			g := lcg(n + 7)
			a, b, out := obj.buf(t, 4*n), obj.buf(t, 4*n), obj.buf(t, 4*n)
			av, bv := make([]uint32, n), make([]uint32, n)
			for i := range av {
				av[i], bv[i] = g.next(), g.next()
				switch i % 7 {
				case 1:
					bv[i] = 0
				case 2:
					av[i], bv[i] = 0x80000000, 0xFFFFFFFF
				case 3:
					bv[i] &= 0xFF
				}
			}
			putU32s(a, av)
			putU32s(b, bv)
			if _, err := obj.launch(t, d, "intalu", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, b.Base, out.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got := u32s(out)
			for i := 0; i < n; i++ {
				if want := intaluRef(av[i], bv[i]); got[i] != want {
					t.Fatalf("n=%d out[%d] (a=%#x b=%#x) = %#x, want %#x", n, i, av[i], bv[i], got[i], want)
				}
			}
		}
	})
}

func TestKernelReduce(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, c := range []struct{ n, wg int }{{1, 64}, {256, 256}, {1000, 256}, {3000, 1024}, {77, 128}} {
			g := lcg(c.n)
			nwg := (c.n + c.wg - 1) / c.wg
			in, out := obj.buf(t, 4*c.n), obj.buf(t, 4*nwg)
			iv := make([]uint32, c.n)
			for i := range iv {
				iv[i] = g.next() % 1000
			}
			putU32s(in, iv)
			// Grid is rounded up: all workgroups full, tail lanes read 0.
			grid := uint32(nwg * c.wg)
			if _, err := obj.launch(t, d, "reduce", [3]uint32{grid, 1, 1}, [3]uint32{uint32(c.wg), 1, 1}, uint32(4*c.wg), kargs(in.Base, out.Base, c.n, uint32(0))); err != nil {
				t.Fatalf("n=%d wg=%d: %v", c.n, c.wg, err)
			}
			got := u32s(out)
			for w := 0; w < nwg; w++ {
				var want uint32
				for i := w * c.wg; i < min((w+1)*c.wg, c.n); i++ {
					want += iv[i]
				}
				if got[w] != want {
					t.Fatalf("n=%d wg=%d: out[%d] = %d, want %d", c.n, c.wg, w, got[w], want)
				}
			}
		}
	})
}

func divloopRef(x int32, i int32) float32 {
	k := x & 63
	var acc float32
	var iacc int32
	for j := int32(0); j < k; j++ {
		acc = float32(acc*0.5) + float32(j)
		iacc += j * i
		if iacc&1 != 0 {
			iacc ^= 0x55
		}
	}
	return acc + float32(iacc)
}

func TestKernelDivergentLoop(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{1, 65, 700} {
			g := lcg(n)
			in, out := obj.buf(t, 4*n), obj.buf(t, 4*n)
			iv := make([]uint32, n)
			for i := range iv {
				iv[i] = g.next()
			}
			putU32s(in, iv)
			if _, err := obj.launch(t, d, "divloop", [3]uint32{uint32(n), 1, 1}, [3]uint32{192, 1, 1}, 0, kargs(in.Base, out.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got := f32s(out)
			for i := 0; i < n; i++ {
				if want := divloopRef(int32(iv[i]), int32(i)); got[i] != want {
					t.Fatalf("n=%d out[%d] = %v, want %v", n, i, got[i], want)
				}
			}
		}
	})
}

// TestKernelLDSFlagSpin: wave 0 spins on an LDS flag that wave 1 sets; the
// engine must switch waves at the spinning backward branch.
func TestKernelLDSFlagSpin(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		nwg := 5
		out := obj.buf(t, 4*nwg)
		if _, err := obj.launch(t, d, "ldsflag", [3]uint32{uint32(128 * nwg), 1, 1}, [3]uint32{128, 1, 1}, 0, kargs(out.Base)); err != nil {
			t.Fatal(err)
		}
		for i, v := range u32s(out) {
			if v != uint32(42+i) {
				t.Errorf("out[%d] = %d, want %d", i, v, 42+i)
			}
		}
	})
}

func TestKernelAtomics(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{1, 1000, 20000} {
			g := lcg(n)
			in, sum, mx, cnt := obj.buf(t, 4*n), obj.buf(t, 8), obj.buf(t, 4), obj.buf(t, 4)
			iv := make([]uint32, n)
			var want, wmax uint32
			for i := range iv {
				iv[i] = g.next() % 100000
				want += iv[i]
				wmax = max(wmax, iv[i])
			}
			putU32s(in, iv)
			if _, err := obj.launch(t, d, "atomics", [3]uint32{uint32(n), 1, 1}, [3]uint32{256, 1, 1}, 0, kargs(in.Base, sum.Base, mx.Base, cnt.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			if got := u32s(sum); got[0] != want || got[1] != 0 {
				t.Errorf("n=%d: sum %d (flag %d), want %d", n, got[0], got[1], want)
			}
			if got := u32s(mx)[0]; got != wmax {
				t.Errorf("n=%d: max %d, want %d", n, got, wmax)
			}
			if got := u32s(cnt)[0]; got != uint32(n) {
				t.Errorf("n=%d: count %d", n, got)
			}
		}
	})
}

func TestKernelPrivateArray(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{50, 300} {
			g := lcg(n)
			in, out := obj.buf(t, 4*n), obj.buf(t, 4*n)
			iv := make([]uint32, n)
			for i := range iv {
				iv[i] = g.next() % 1000
			}
			putU32s(in, iv)
			if _, err := obj.launch(t, d, "privarr", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(in.Base, out.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got := u32s(out)
			for i := 0; i < n; i++ {
				var a [40]int32
				for j := range a {
					a[j] = int32(iv[(i+j)%n]) * int32(j)
				}
				var s int32
				for j := 0; j < 40; j++ {
					s += a[(j*7+i)%40]
				}
				if got[i] != uint32(s) {
					t.Fatalf("n=%d out[%d] = %d, want %d", n, i, int32(got[i]), s)
				}
			}
		}
	})
}

// Fault tests: each fault is followed by a successful dispatch on the same device.
func TestKernelFaults(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		n := 100
		p := obj.buf(t, 4*n)
		checkOK := func() {
			t.Helper()
			a, b, c := obj.buf(t, 256), obj.buf(t, 256), obj.buf(t, 256)
			putF32s(a, []float32{1, 2})
			putF32s(b, []float32{3, 4})
			if _, err := obj.launch(t, d, "vadd", [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, b.Base, c.Base, 2)); err != nil {
				t.Fatalf("dispatch after fault: %v", err)
			}
			if got := f32s(c); got[0] != 4 || got[1] != 6 {
				t.Fatalf("dispatch after fault computed %v", got[:2])
			}
		}
		_, err := obj.launch(t, d, "oobwrite", [3]uint32{256, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(p.Base, n))
		var f *Fault
		if !errors.As(err, &f) || f.Kind != FaultMemory || f.Lane != n%64 || f.Wave != 0 || f.Workgroup[0] != uint32(n/64) || f.Address != p.Base+4*uint64(n+(1<<28)) {
			t.Fatalf("oob write: %v", err)
		}
		if f.Kernel != "oobwrite" || f.Inst == "" {
			t.Errorf("fault lacks kernel or instruction: %v", f)
		}
		checkOK()
		out := obj.buf(t, 1024)
		_, err = obj.launch(t, d, "nullread", [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(uint64(0), out.Base))
		if !errors.As(err, &f) || f.Kind != FaultMemory || f.Lane != 0 || f.Address != 0 {
			t.Fatalf("null read: %v", err)
		}
		checkOK()
		_, err = obj.launch(t, d, "trap", [3]uint32{128, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(out.Base, 70))
		if !errors.As(err, &f) || f.Kind != FaultException || f.Workgroup[0] != 1 {
			t.Fatalf("s_trap: %v", err)
		}
		checkOK()
	})
}

func TestKernelPrivateFlat(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{1, 70, 300} {
			g := lcg(n)
			in, out := obj.buf(t, 4*n), obj.buf(t, 4*n)
			iv := make([]uint32, n)
			for i := range iv {
				iv[i] = g.next() % 1000
			}
			putU32s(in, iv)
			if _, err := obj.launch(t, d, "privflat", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(in.Base, out.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got := u32s(out)
			for i := 0; i < n; i++ {
				a := func(j int) uint32 { return iv[(i+j)%n] + uint32(j) }
				if want := a(i%16)*3 + a((i+5)%16); got[i] != want {
					t.Fatalf("n=%d out[%d] = %d, want %d", n, i, got[i], want)
				}
			}
		}
	})
}

// TestKernelChain: workgroup g spins until workgroup g-1 has published;
// workgroups start in linear order and resident ones are time-sliced, so
// the chain completes with any worker count.
func TestKernelChain(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, workers := range []int{1, 2} {
			d.cfg.Workers = workers
			nwg := 40
			flags, out := obj.buf(t, 4*nwg), obj.buf(t, 4*nwg)
			if _, err := obj.launch(t, d, "chain", [3]uint32{uint32(64 * nwg), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(flags.Base, out.Base)); err != nil {
				t.Fatalf("workers=%d: %v", workers, err)
			}
			for g, v := range u32s(out) {
				if v != uint32(g*(g+1)/2) {
					t.Fatalf("workers=%d out[%d] = %d, want %d", workers, g, v, g*(g+1)/2)
				}
			}
		}
	})
}

func nbodyRef(pos []float32, n int) []float32 {
	acc := make([]float32, 4*n)
	for i := 0; i < n; i++ {
		px, py, pz := pos[4*i], pos[4*i+1], pos[4*i+2]
		var ax, ay, az float32
		for j := 0; j < n; j++ {
			dx, dy, dz := pos[4*j]-px, pos[4*j+1]-py, pos[4*j+2]-pz
			r2 := float32(float32(float32(dx*dx)+float32(dy*dy))+float32(dz*dz)) + 0.01
			// v_rsq_f32: the OpenCL rsqrt bound is 2 ulp; the engine rounds 1/sqrt correctly.
			inv := float32(1 / math.Sqrt(float64(r2)))
			s := float32(float32(pos[4*j+3]*inv)*inv) * inv
			ax += float32(dx * s)
			ay += float32(dy * s)
			az += float32(dz * s)
		}
		acc[4*i], acc[4*i+1], acc[4*i+2] = ax, ay, az
	}
	return acc
}

func TestKernelNbody(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{1, 70, 200} {
			g := lcg(n)
			pos, acc := obj.buf(t, 16*n), obj.buf(t, 16*n)
			pv := make([]float32, 4*n)
			for i := range pv {
				pv[i] = g.float()
			}
			putF32s(pos, pv)
			if _, err := obj.launch(t, d, "nbody", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(pos.Base, acc.Base, n)); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got, want := f32s(acc), nbodyRef(pv, n)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d acc[%d] = %v, want %v", n, i, got[i], want[i])
				}
			}
		}
	})
}

// TestKernelLanes checks DPP, ds_swizzle, ds_bpermute, v_readlane and mbcnt
// against the ISA definitions, per wave of full workgroups.
func TestKernelLanes(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		n := 256
		g := lcg(11)
		in, out := obj.buf(t, 4*n), obj.buf(t, 32*n)
		iv := make([]uint32, n)
		for i := range iv {
			iv[i] = g.next()
		}
		putU32s(in, iv)
		if _, err := obj.launch(t, d, "lanes", [3]uint32{uint32(n), 1, 1}, [3]uint32{128, 1, 1}, 0, kargs(in.Base, out.Base)); err != nil {
			skipIfDecoderLacks(t, err)
			t.Fatal(err)
		}
		got := u32s(out)
		for i := 0; i < n; i++ {
			w, l := i&^63, i&63
			at := func(lane int) uint32 { return iv[w+lane] }
			want := [8]uint32{
				at(l&^3 | 3 - l&3),
				0,
				at(l&^15 | 15 - l&15),
				at(l ^ 1),
				at(l ^ 5),
				at(7),
				0,
				uint32(l),
			}
			if l&15 != 0 {
				want[1] = at(l - 1)
			}
			if l != 0 {
				want[6] = at(l - 1)
			}
			for j, wv := range want {
				if got[8*i+j] != wv {
					t.Fatalf("work-item %d op %d = %#x, want %#x", i, j, got[8*i+j], wv)
				}
			}
		}
	})
}

func TestKernelBytes(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		for _, n := range []int{1, 100, 300} {
			g := lcg(n)
			a, b, c, dd := obj.buf(t, 4*n), obj.buf(t, 4*n), obj.buf(t, 4*n), obj.buf(t, 4*n)
			av, bv := make([]uint32, n), make([]uint32, n)
			for i := range av {
				av[i], bv[i] = g.next(), g.next()
			}
			putU32s(a, av)
			putU32s(b, bv)
			if _, err := obj.launch(t, d, "bytes", [3]uint32{uint32(n), 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, b.Base, c.Base, dd.Base)); err != nil {
				skipIfDecoderLacks(t, err)
				t.Fatalf("n=%d: %v", n, err)
			}
			gc, gd := u32s(c), u32s(dd)
			for i := 0; i < n; i++ {
				var wc uint32
				for k := 0; k < 4; k++ {
					x := uint8(av[i] >> (8 * k))
					y := uint8(av[i] >> (8 * (3 - k)))
					wc |= uint32(x*3+y) << (8 * k)
				}
				yx, yy := int16(bv[i]), int16(bv[i]>>16)
				wd := uint32(uint16((yx*yy)>>1)) | uint32(uint16((yy-yx)>>1))<<16
				if gc[i] != wc || gd[i] != wd {
					t.Fatalf("n=%d [%d]: c %#x want %#x, d %#x want %#x", n, i, gc[i], wc, gd[i], wd)
				}
			}
		}
	})
}

// skipIfDecoderLacks skips a test whose kernel uses an encoding form the
// linked decoder reports as not supported (DPP/SDWA in early decoders).
func skipIfDecoderLacks(t *testing.T, err error) {
	var f *Fault
	if errors.As(err, &f) && f.Kind == FaultUnimplemented && strings.Contains(f.Detail, "isa:") {
		t.Skipf("decoder: %v", err)
	}
}
