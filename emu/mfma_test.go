package emu

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/internal/corpus"
)

// TestMFMA runs each MFMA builtin of testdata/mfma.cl (built for gfx90a and
// gfx908 (without the _1k forms) by
// testdata/mfma.sh: the compiler's own register allocation and AGPR
// traffic) on random small-integer matrices, so every result is exact, and
// compares D with a Go matrix multiply D[b] = C[b] + A[b]·B[b] for every
// block. The operands are packed into lanes as the MI100/MI200 ISA guides'
// layouts (AMD Matrix Instruction Calculator) give them: lane i + M·g holds
// elements k = e·(g mod K/e) … of row i of A in block g / (K/e) (columns of
// B likewise), and D/C element (i, j) of block b is in
//   - 32×32: register 16b + 4(i/8) + i%4 of lane j + 32((i/4)%2);
//   - 16×16: register 4b + i%4 of lane j + 16(i/4);
//   - 4×4: register i of lane j + 4b.
func TestMFMA(t *testing.T) {
	for _, cpu := range []string{"gfx90a", "gfx908"} {
		t.Run(cpu, func(t *testing.T) { testMFMA(t, cpu) })
	}
}

func testMFMA(t *testing.T, cpu string) {
	path := filepath.Join("testdata", "mfma."+cpu+".hsaco")
	haveObject(t, path)
	mem := &testMem{}
	obj := loadObject(t, mem, path)
	d := newTestDevice(t, cpu, mem)
	cases := []struct {
		name            string
		m, n, k, blocks int
		elem            byte
		e               int
	}{
		{"mfma_f32_32x32x1f32", 32, 32, 1, 2, 'f', 1},
		{"mfma_f32_16x16x1f32", 16, 16, 1, 4, 'f', 1},
		{"mfma_f32_4x4x1f32", 4, 4, 1, 16, 'f', 1},
		{"mfma_f32_32x32x2f32", 32, 32, 2, 1, 'f', 1},
		{"mfma_f32_16x16x4f32", 16, 16, 4, 1, 'f', 1},
		{"mfma_f32_32x32x4f16", 32, 32, 4, 2, 'h', 4},
		{"mfma_f32_16x16x4f16", 16, 16, 4, 4, 'h', 4},
		{"mfma_f32_4x4x4f16", 4, 4, 4, 16, 'h', 4},
		{"mfma_f32_32x32x8f16", 32, 32, 8, 1, 'h', 4},
		{"mfma_f32_16x16x16f16", 16, 16, 16, 1, 'h', 4},
		{"mfma_i32_32x32x4i8", 32, 32, 4, 2, 'i', 4},
		{"mfma_i32_16x16x4i8", 16, 16, 4, 4, 'i', 4},
		{"mfma_i32_4x4x4i8", 4, 4, 4, 16, 'i', 4},
		{"mfma_i32_32x32x8i8", 32, 32, 8, 1, 'i', 4},
		{"mfma_i32_16x16x16i8", 16, 16, 16, 1, 'i', 4},
		{"mfma_f32_32x32x2bf16", 32, 32, 2, 2, 'b', 2},
		{"mfma_f32_16x16x2bf16", 16, 16, 2, 4, 'b', 2},
		{"mfma_f32_4x4x2bf16", 4, 4, 2, 16, 'b', 2},
		{"mfma_f32_32x32x4bf16", 32, 32, 4, 1, 'b', 2},
		{"mfma_f32_16x16x8bf16", 16, 16, 8, 1, 'b', 2},
		{"mfma_f32_32x32x4bf16_1k", 32, 32, 4, 2, 'b', 4},
		{"mfma_f32_16x16x4bf16_1k", 16, 16, 4, 4, 'b', 4},
		{"mfma_f32_4x4x4bf16_1k", 4, 4, 4, 16, 'b', 4},
		{"mfma_f32_32x32x8bf16_1k", 32, 32, 8, 1, 'b', 4},
		{"mfma_f32_16x16x16bf16_1k", 16, 16, 16, 1, 'b', 4},
	}
	le := binary.LittleEndian
	for ci, c := range cases {
		if _, ok := obj.syms[c.name+".kd"]; !ok {
			if cpu == "gfx908" && strings.HasSuffix(c.name, "_1k") {
				continue // gfx90a only
			}
			t.Fatalf("%s: no kernel %s", path, c.name)
		}
		t.Run(c.name, func(t *testing.T) {
			bits := map[byte]int{'f': 32, 'h': 16, 'b': 16, 'i': 8}[c.elem]
			nin := (c.e*bits + 31) / 32
			nout := c.blocks * c.m * c.n / 64
			g := lcg(ci + 1)
			small := func(r int) int { return int(g.next()%uint32(2*r+1)) - r }
			A := make([]int, c.blocks*c.m*c.k) // [b][i][k]
			B := make([]int, c.blocks*c.k*c.n) // [b][k][j]
			C := make([]int, c.blocks*c.m*c.n) // [b][i][j]
			for i := range A {
				A[i] = small(4)
			}
			for i := range B {
				B[i] = small(4)
			}
			for i := range C {
				C[i] = small(100)
			}
			enc := func(v int) uint32 {
				switch c.elem {
				case 'f':
					return math.Float32bits(float32(v))
				case 'h':
					return uint32(corpus.Float32ToHalf(float32(v)))
				case 'b':
					return math.Float32bits(float32(v)) >> 16
				}
				return uint32(uint8(int8(v)))
			}
			a, b := obj.buf(t, 64*nin*4), obj.buf(t, 64*nin*4)
			cb, db := obj.buf(t, 64*nout*4), obj.buf(t, 64*nout*4)
			kg := c.k / c.e
			put := func(r Region, lane, t int, v uint32) {
				off := lane*nin*4 + t*bits/8
				switch bits {
				case 32:
					le.PutUint32(r.Data[off:], v)
				case 16:
					le.PutUint16(r.Data[off:], uint16(v))
				default:
					r.Data[off] = byte(v)
				}
			}
			for bl := 0; bl < c.blocks; bl++ {
				for k := 0; k < c.k; k++ {
					grp := bl*kg + k/c.e
					for i := 0; i < c.m; i++ {
						put(a, i+c.m*grp, k%c.e, enc(A[(bl*c.m+i)*c.k+k]))
					}
					for j := 0; j < c.n; j++ {
						put(b, j+c.n*grp, k%c.e, enc(B[(bl*c.k+k)*c.n+j]))
					}
				}
			}
			where := func(bl, i, j int) (lane, reg int) {
				switch c.m {
				case 32:
					return j + 32*(i/4%2), 16*bl + 4*(i/8) + i%4
				case 16:
					return j + 16*(i/4), 4*bl + i%4
				}
				return j + 4*bl, i
			}
			word := func(v int) uint32 {
				if c.elem == 'i' {
					return uint32(int32(v))
				}
				return math.Float32bits(float32(v))
			}
			for bl := 0; bl < c.blocks; bl++ {
				for i := 0; i < c.m; i++ {
					for j := 0; j < c.n; j++ {
						l, r := where(bl, i, j)
						le.PutUint32(cb.Data[(l*nout+r)*4:], word(C[(bl*c.m+i)*c.n+j]))
					}
				}
			}
			if _, err := obj.launch(t, d, c.name, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, b.Base, cb.Base, db.Base)); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for bl := 0; bl < c.blocks; bl++ {
				for i := 0; i < c.m; i++ {
					for j := 0; j < c.n; j++ {
						want := C[(bl*c.m+i)*c.n+j]
						for k := 0; k < c.k; k++ {
							want += A[(bl*c.m+i)*c.k+k] * B[(bl*c.k+k)*c.n+j]
						}
						l, r := where(bl, i, j)
						if got := le.Uint32(db.Data[(l*nout+r)*4:]); got != word(want) && bad < 5 {
							bad++
							t.Errorf("block %d D[%d][%d] (lane %d reg %d) = %#x, want %d (%#x)", bl, i, j, l, r, got, want, word(want))
						}
					}
				}
			}
		})
	}
}
