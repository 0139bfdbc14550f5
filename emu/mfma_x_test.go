package emu

import (
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/rocpu/rocpu/internal/corpus"
)

// mfmaXCase is one kernel of testdata/mfma_x.cl.
type mfmaXCase struct {
	name              string
	m, n, k, blocks   int
	ea, eb            byte // 'f' f32 (also xf32), 'h' f16, 'b' bf16, 'i' i8, 'd' f64, '8' FP8, '5' BF8
	e                 int  // elements per lane per operand
	cbsz, abid, blgp  int
	neg               int // gfx940 f64: BLGP read as neg bits (A, B, C)
	blocksInsideKGrps bool
}

// TestMFMAX checks the MFMA forms and modifiers TestMFMA does not: the f64
// forms (gfx90a; gfx940 with BLGP as neg bits), gfx940's xf32 and FP8/BF8
// forms, and CBSZ/ABID broadcasts with every BLGP lane pattern, each against
// a Go matrix multiply on small integers (so every result is exact). The
// operand layouts are the AMD Matrix Instruction Calculator's (CDNA2, CDNA3
// --register-layout, checked by hand for these instructions): A[b][i][k] in
// lane i + M·g, element k mod e, with g = b·(K/e) + k/e, except
// v_mfma_f64_4x4x4f64 where g = b + 4k; f64 D elements (i, j) of
// 16×16x4 in register pair i/4 of lane j + 16(i mod 4), of 4×4x4 in lane
// j + 4b + 16i; f32 D as in TestMFMA. The modifiers are applied in the
// reference as the calculator's README states them: CBSZ = c, ABID = a:
// every block of each group of 2^c reads block a of its group's A; BLGP:
// 1 lanes 0-31 broadcast into 32-63, 2 lanes 32-63 into 0-31, 3 every
// lane's data rotated down by 16 (lane 0's into lane 48, lane 16's into
// lane 0), 4-7 lanes 16(p-4)…+15 broadcast into the other three groups of
// 16.
func TestMFMAX(t *testing.T) {
	cases := map[string][]mfmaXCase{
		"gfx90a": {
			{name: "x_f64_16x16x4", m: 16, n: 16, k: 4, blocks: 1, ea: 'd', eb: 'd', e: 1},
			{name: "x_f64_4x4x4", m: 4, n: 4, k: 4, blocks: 4, ea: 'd', eb: 'd', e: 1, blocksInsideKGrps: true},
			{name: "x_f32_32x32x1_c1a1g3", m: 32, n: 32, k: 1, blocks: 2, ea: 'f', eb: 'f', e: 1, cbsz: 1, abid: 1, blgp: 3},
			{name: "x_f32_16x16x1_c2a2g5", m: 16, n: 16, k: 1, blocks: 4, ea: 'f', eb: 'f', e: 1, cbsz: 2, abid: 2, blgp: 5},
			{name: "x_f32_4x4x1_c3a5g1", m: 4, n: 4, k: 1, blocks: 16, ea: 'f', eb: 'f', e: 1, cbsz: 3, abid: 5, blgp: 1},
			{name: "x_i32_4x4x4_c4a9g7", m: 4, n: 4, k: 4, blocks: 16, ea: 'i', eb: 'i', e: 4, cbsz: 4, abid: 9, blgp: 7},
			{name: "x_f16_16x16x4_c1a0g2", m: 16, n: 16, k: 4, blocks: 4, ea: 'h', eb: 'h', e: 4, cbsz: 1, abid: 0, blgp: 2},
			{name: "x_f32_32x32x2_g4", m: 32, n: 32, k: 2, blocks: 1, ea: 'f', eb: 'f', e: 1, blgp: 4},
			{name: "x_bf16_16x16x2_c2a3g6", m: 16, n: 16, k: 2, blocks: 4, ea: 'b', eb: 'b', e: 2, cbsz: 2, abid: 3, blgp: 6},
			{name: "x_f16_16x16x16_g3", m: 16, n: 16, k: 16, blocks: 1, ea: 'h', eb: 'h', e: 4, blgp: 3},
		},
		"gfx940": {
			{name: "x_f64_16x16x4_neg5", m: 16, n: 16, k: 4, blocks: 1, ea: 'd', eb: 'd', e: 1, neg: 5},
			{name: "x_f64_4x4x4_neg2", m: 4, n: 4, k: 4, blocks: 4, ea: 'd', eb: 'd', e: 1, neg: 2, blocksInsideKGrps: true},
			{name: "x_xf32_16x16x8", m: 16, n: 16, k: 8, blocks: 1, ea: 'f', eb: 'f', e: 2},
			{name: "x_xf32_32x32x4", m: 32, n: 32, k: 4, blocks: 1, ea: 'f', eb: 'f', e: 2},
			{name: "x_fp8_fp8_16x16x32", m: 16, n: 16, k: 32, blocks: 1, ea: '8', eb: '8', e: 8},
			{name: "x_fp8_bf8_16x16x32", m: 16, n: 16, k: 32, blocks: 1, ea: '8', eb: '5', e: 8},
			{name: "x_bf8_fp8_16x16x32", m: 16, n: 16, k: 32, blocks: 1, ea: '5', eb: '8', e: 8},
			{name: "x_bf8_bf8_16x16x32", m: 16, n: 16, k: 32, blocks: 1, ea: '5', eb: '5', e: 8},
			{name: "x_fp8_fp8_32x32x16", m: 32, n: 32, k: 16, blocks: 1, ea: '8', eb: '8', e: 8},
			{name: "x_bf8_fp8_32x32x16", m: 32, n: 32, k: 16, blocks: 1, ea: '5', eb: '8', e: 8},
			{name: "x_f32_32x32x1_c1a0g1", m: 32, n: 32, k: 1, blocks: 2, ea: 'f', eb: 'f', e: 1, cbsz: 1, abid: 0, blgp: 1},
		},
	}
	for _, cpu := range []string{"gfx90a", "gfx940"} {
		t.Run(cpu, func(t *testing.T) {
			path := filepath.Join("testdata", "mfma_x."+cpu+".hsaco")
			haveObject(t, path)
			mem := &testMem{}
			obj := loadObject(t, mem, path)
			d := newTestDevice(t, cpu, mem)
			for ci, c := range cases[cpu] {
				t.Run(c.name, func(t *testing.T) { testMFMAX(t, obj, d, ci, c) })
			}
		})
	}
}

// fp8Small and bf8Small encode the integers -4…4 in gfx940's FP8 (E4M3,
// bias 8: 1 = exponent 8, mantissa 0 = 0x40) and BF8 (E5M2, bias 16: 1 =
// exponent 16 = 0x40), worked out by hand from the formats.
var (
	fp8Small = map[int]uint8{0: 0x00, 1: 0x40, 2: 0x48, 3: 0x4C, 4: 0x50}
	bf8Small = map[int]uint8{0: 0x00, 1: 0x40, 2: 0x44, 3: 0x46, 4: 0x48}
)

func mfmaXBits(elem byte) int {
	switch elem {
	case 'h', 'b':
		return 16
	case 'i', '8', '5':
		return 8
	case 'd':
		return 64
	}
	return 32
}

func mfmaXEnc(elem byte, v int) uint64 {
	switch elem {
	case 'f':
		return uint64(math.Float32bits(float32(v)))
	case 'd':
		return math.Float64bits(float64(v))
	case 'h':
		return uint64(corpus.Float32ToHalf(float32(v)))
	case 'b':
		return uint64(math.Float32bits(float32(v)) >> 16)
	case '8', '5':
		tab := fp8Small
		if elem == '5' {
			tab = bf8Small
		}
		a := v
		if a < 0 {
			a = -a
		}
		b := tab[a]
		if v < 0 {
			b |= 0x80
		}
		return uint64(b)
	}
	return uint64(uint8(int8(v)))
}

// blgpSource returns, for each lane, the lane whose B data it reads under
// BLGP p, built from the calculator's wording (source lanes → destinations).
func blgpSource(p int) [64]int {
	var src [64]int
	for l := range src {
		src[l] = l
	}
	switch p {
	case 1: // lanes 0-31 also broadcast into lanes 32-63
		for l := 32; l < 64; l++ {
			src[l] = l - 32
		}
	case 2: // lanes 32-63 broadcast into lanes 0-31
		for l := 0; l < 32; l++ {
			src[l] = l + 32
		}
	case 3: // rotated down by 16: lane 0's data into lane 48, lane 16's into lane 0
		for from := 0; from < 64; from++ {
			src[(from+48)%64] = from
		}
	case 4, 5, 6, 7: // lanes 16(p-4)…+15 broadcast into the other groups
		g := p - 4
		for dst := 0; dst < 4; dst++ {
			for i := 0; i < 16; i++ {
				src[16*dst+i] = 16*g + i
			}
		}
	}
	return src
}

func testMFMAX(t *testing.T, obj *testObject, d *Device, ci int, c mfmaXCase) {
	le := binary.LittleEndian
	bitsA, bitsB := mfmaXBits(c.ea), mfmaXBits(c.eb)
	nina, ninb := (c.e*bitsA+31)/32, (c.e*bitsB+31)/32
	wide := c.ea == 'd'
	nelem := c.blocks * c.m * c.n / 64
	nout := nelem
	if wide {
		nout *= 2
	}
	g := lcg(100 + ci)
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
	a, b := obj.buf(t, 64*nina*4), obj.buf(t, 64*ninb*4)
	cb, db := obj.buf(t, 64*nout*4), obj.buf(t, 64*nout*4)
	put := func(r Region, nin, bits, lane, el int, v uint64) {
		off := lane*nin*4 + el*bits/8
		switch bits {
		case 64:
			le.PutUint64(r.Data[off:], v)
		case 32:
			le.PutUint32(r.Data[off:], uint32(v))
		case 16:
			le.PutUint16(r.Data[off:], uint16(v))
		default:
			r.Data[off] = byte(v)
		}
	}
	kg := c.k / c.e
	grp := func(bl, k int) int {
		if c.blocksInsideKGrps {
			return bl + c.blocks*k
		}
		return bl*kg + k/c.e
	}
	// What each lane holds, to apply BLGP in the reference.
	bAt := make([][]int, 64)
	for l := range bAt {
		bAt[l] = make([]int, c.e)
	}
	aAt := make([][]int, 64)
	for l := range aAt {
		aAt[l] = make([]int, c.e)
	}
	for bl := 0; bl < c.blocks; bl++ {
		for k := 0; k < c.k; k++ {
			for i := 0; i < c.m; i++ {
				l := i + c.m*grp(bl, k)
				aAt[l][k%c.e] = A[(bl*c.m+i)*c.k+k]
				put(a, nina, bitsA, l, k%c.e, mfmaXEnc(c.ea, A[(bl*c.m+i)*c.k+k]))
			}
			for j := 0; j < c.n; j++ {
				l := j + c.n*grp(bl, k)
				bAt[l][k%c.e] = B[(bl*c.k+k)*c.n+j]
				put(b, ninb, bitsB, l, k%c.e, mfmaXEnc(c.eb, B[(bl*c.k+k)*c.n+j]))
			}
		}
	}
	where := func(bl, i, j int) (lane, reg int) {
		switch {
		case wide && c.m == 16:
			return j + 16*(i%4), 2 * (i / 4)
		case wide:
			return j + 4*bl + 16*i, 0
		case c.m == 32:
			return j + 32*(i/4%2), 16*bl + 4*(i/8) + i%4
		case c.m == 16:
			return j + 16*(i/4), 4*bl + i%4
		}
		return j + 4*bl, i
	}
	word := func(v int) uint64 {
		switch {
		case wide:
			return math.Float64bits(float64(v))
		case c.ea == 'i':
			return uint64(uint32(int32(v)))
		}
		return uint64(math.Float32bits(float32(v)))
	}
	for bl := 0; bl < c.blocks; bl++ {
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.n; j++ {
				l, r := where(bl, i, j)
				w := word(C[(bl*c.m+i)*c.n+j])
				le.PutUint32(cb.Data[(l*nout+r)*4:], uint32(w))
				if wide {
					le.PutUint32(cb.Data[(l*nout+r+1)*4:], uint32(w>>32))
				}
			}
		}
	}
	if _, err := obj.launch(t, d, c.name, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, b.Base, cb.Base, db.Base)); err != nil {
		t.Fatal(err)
	}
	src := blgpSource(c.blgp)
	sign := func(bit int) int {
		if c.neg&bit != 0 {
			return -1
		}
		return 1
	}
	bad := 0
	for bl := 0; bl < c.blocks; bl++ {
		ab := bl // the block A is read from (CBSZ/ABID)
		if c.cbsz > 0 {
			ab = bl/(1<<c.cbsz)*(1<<c.cbsz) + c.abid
		}
		for i := 0; i < c.m; i++ {
			for j := 0; j < c.n; j++ {
				want := sign(4) * C[(bl*c.m+i)*c.n+j]
				for k := 0; k < c.k; k++ {
					av := aAt[i+c.m*grp(ab, k)][k%c.e]
					bv := bAt[src[j+c.n*grp(bl, k)]][k%c.e]
					want += sign(1) * av * sign(2) * bv
				}
				l, r := where(bl, i, j)
				got := uint64(le.Uint32(db.Data[(l*nout+r)*4:]))
				if wide {
					got |= uint64(le.Uint32(db.Data[(l*nout+r+1)*4:])) << 32
				}
				if got != word(want) && bad < 5 {
					bad++
					t.Errorf("block %d D[%d][%d] (lane %d reg %d) = %#x, want %d (%#x)", bl, i, j, l, r, got, want, word(want))
				}
			}
		}
	}
}

// TestFP8Decode pins fp8ToF64 on values worked out from the gfx940 formats
// (FP8 E4M3 bias 8, BF8 E5M2 bias 16, no infinities, 0x80 NaN).
func TestFP8Decode(t *testing.T) {
	for _, c := range []struct {
		b     uint8
		ebits uint
		bias  int
		want  float64
	}{
		{0x40, 4, 8, 1}, {0x4C, 4, 8, 3}, {0xD0, 4, 8, -4},
		{0x01, 4, 8, 0x1p-10}, // smallest subnormal: 2^(1-8-3)
		{0x08, 4, 8, 0x1p-7},  // smallest normal: exponent 1
		{0x7F, 4, 8, 240},     // 1.875 · 2^7, the largest (no infinity)
		{0x40, 5, 16, 1}, {0x46, 5, 16, 3}, {0xC8, 5, 16, -4},
		{0x01, 5, 16, 0x1p-17}, // 2^(1-16-2)
		{0x7F, 5, 16, 57344},   // 1.75 · 2^15
		{0x00, 4, 8, 0}, {0x00, 5, 16, 0},
	} {
		if got := fp8ToF64(c.b, c.ebits, c.bias); got != c.want {
			t.Errorf("fp8ToF64(%#x, E%dM%d) = %g, want %g", c.b, c.ebits, 7-c.ebits, got, c.want)
		}
	}
	if !math.IsNaN(fp8ToF64(0x80, 4, 8)) || !math.IsNaN(fp8ToF64(0x80, 5, 16)) {
		t.Error("0x80 is not NaN")
	}
}

// TestMFMAModsUnsupported: modifiers a form does not have fault as not
// supported instead of being ignored.
func TestMFMAModsUnsupported(t *testing.T) {
	for _, c := range []struct {
		name string
		imm  uint32
	}{
		{"v_mfma_f64_16x16x4f64", 1 << 8},       // gfx90a f64: no BLGP
		{"v_mfma_f32_32x32x2f32", 1},            // single block: no CBSZ
		{"v_mfma_f32_32x32x1f32", 1 | 2<<4},     // ABID 2 >= 2^CBSZ
		{"v_mfma_f32_32x32x1f32", 2},            // 2^CBSZ = 4 > 2 blocks
		{"v_mfma_f32_16x16x32_fp8_fp8", 3 << 8}, // gfx940 fp8: no BLGP
	} {
		var s *mfmaShape
		func() {
			defer func() {
				r := recover()
				f, ok := r.(*Fault)
				if !ok || f.Kind != FaultUnimplemented || !errors.Is(f, ErrNotSupported) {
					t.Errorf("%s imm %#x: got %v, want a not-supported fault", c.name, c.imm, r)
				}
			}()
			s = mfmaShapeFor(c.name)
			mfmaMods(&wave{}, &op{imm: c.imm}, s)
		}()
	}
	// gfx94x dropped BLGP from the single-block f16 form; gfx90a has it.
	blgp := &op{imm: 3 << 8}
	s := mfmaShapeFor("v_mfma_f32_16x16x16f16")
	w90a := &wave{r: &run{dev: newTestDevice(t, "gfx90a", &testMem{})}}
	if cb, ab, bl, _ := mfmaMods(w90a, blgp, s); cb != 0 || ab != 0 || bl != 3 {
		t.Errorf("gfx90a 16x16x16f16 blgp:3 = %d %d %d", cb, ab, bl)
	}
	func() {
		defer func() {
			if f, ok := recover().(*Fault); !ok || !errors.Is(f, ErrNotSupported) {
				t.Errorf("gfx940 16x16x16f16 blgp:3: %v, want a not-supported fault", f)
			}
		}()
		mfmaMods(&wave{r: &run{dev: newTestDevice(t, "gfx940", &testMem{})}}, blgp, s)
	}()
}

// TestSMFMAC checks gfx940's sparse v_smfmac_* forms against a dense Go
// matrix multiply D = C + A·B, where A has 4:2 structured sparsity. The
// packing follows the AMD Matrix Instruction Calculator (CDNA3
// --register-layout of A, B, D and --compression, checked against this
// description for all 14 forms): A[i][k] and the compression index in lane
// i + M·(k/e) (e = 8 for 16-bit, 16 for 8-bit inputs), the two values kept
// of chunk c = (k mod e)/4 in value slots 2c and 2c+1, their positions in
// the chunk in the index VGPR's bits 4c+1:4c and 4c+3:4c+2 of index set
// ABID (CBSZ = 0; set 0 otherwise), sets e bits wide; B[k][j] in lane
// j + N·(k/e), element k mod e; D as the dense forms. The other index sets
// hold random bits, so reading the wrong set fails.
func TestSMFMAC(t *testing.T) {
	path := filepath.Join("testdata", "mfma_x.gfx940.hsaco")
	haveObject(t, path)
	mem := &testMem{}
	obj := loadObject(t, mem, path)
	d := newTestDevice(t, "gfx940", mem)
	le := binary.LittleEndian
	for ci, c := range []struct {
		name       string
		m, n, k    int
		ea, eb     byte
		e          int
		cbsz, abid int
	}{
		{"xs_f16_16x16x32_a1", 16, 16, 32, 'h', 'h', 8, 0, 1},
		{"xs_f16_32x32x16", 32, 32, 16, 'h', 'h', 8, 0, 0},
		{"xs_bf16_16x16x32_a3", 16, 16, 32, 'b', 'b', 8, 0, 3},
		{"xs_bf16_32x32x16_c1a2", 32, 32, 16, 'b', 'b', 8, 1, 2},
		{"xs_i8_16x16x64_a1", 16, 16, 64, 'i', 'i', 16, 0, 1},
		{"xs_i8_32x32x32", 32, 32, 32, 'i', 'i', 16, 0, 0},
		{"xs_fp8_bf8_16x16x64", 16, 16, 64, '8', '5', 16, 0, 0},
		{"xs_bf8_fp8_32x32x32_a1", 32, 32, 32, '5', '8', 16, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			vb := mfmaXBits(c.ea)
			nina, ninb, nout := c.e/2*vb/32, c.e*vb/32, c.m*c.n/64
			a, b := obj.buf(t, 64*nina*4), obj.buf(t, 64*ninb*4)
			cb, db, xb := obj.buf(t, 64*nout*4), obj.buf(t, 64*nout*4), obj.buf(t, 64*4)
			g := lcg(300 + ci)
			small := func(r int) int { return int(g.next()%uint32(2*r+1)) - r }
			set := c.abid
			if c.cbsz != 0 {
				set = 0
			}
			for l := 0; l < 64; l++ {
				le.PutUint32(xb.Data[4*l:], g.next()) // garbage in the unused sets
			}
			put := func(r Region, nin, lane, el int, v uint64) {
				off := lane*nin*4 + el*vb/8
				if vb == 16 {
					le.PutUint16(r.Data[off:], uint16(v))
				} else {
					r.Data[off] = byte(v)
				}
			}
			A := make([]int, c.m*c.k) // dense [i][k]
			pairs := [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
			for i := 0; i < c.m; i++ {
				for grp := 0; grp < c.k/c.e; grp++ {
					lane := i + c.m*grp
					for ch := 0; ch < c.e/4; ch++ {
						p := pairs[g.next()%6]
						for s := 0; s < 2; s++ {
							v := small(4)
							A[i*c.k+grp*c.e+4*ch+p[s]] = v
							put(a, nina, lane, 2*ch+s, mfmaXEnc(c.ea, v))
						}
						bit := uint(set*c.e + 4*ch)
						x := le.Uint32(xb.Data[4*lane:])
						x = x&^(0xF<<bit) | uint32(p[0]|p[1]<<2)<<bit
						le.PutUint32(xb.Data[4*lane:], x)
					}
				}
			}
			B := make([]int, c.k*c.n)
			for k := 0; k < c.k; k++ {
				for j := 0; j < c.n; j++ {
					B[k*c.n+j] = small(4)
					put(b, ninb, j+c.n*(k/c.e), k%c.e, mfmaXEnc(c.eb, B[k*c.n+j]))
				}
			}
			where := func(i, j int) (lane, reg int) {
				if c.m == 32 {
					return j + 32*(i/4%2), 4*(i/8) + i%4
				}
				return j + 16*(i/4), i % 4
			}
			word := func(v int) uint32 {
				if c.ea == 'i' {
					return uint32(int32(v))
				}
				return math.Float32bits(float32(v))
			}
			C := make([]int, c.m*c.n)
			for i := 0; i < c.m; i++ {
				for j := 0; j < c.n; j++ {
					C[i*c.n+j] = small(100)
					l, r := where(i, j)
					le.PutUint32(cb.Data[(l*nout+r)*4:], word(C[i*c.n+j]))
				}
			}
			if _, err := obj.launch(t, d, c.name, [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 0, kargs(a.Base, b.Base, cb.Base, db.Base, xb.Base)); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i := 0; i < c.m; i++ {
				for j := 0; j < c.n; j++ {
					want := C[i*c.n+j]
					for k := 0; k < c.k; k++ {
						want += A[i*c.k+k] * B[k*c.n+j]
					}
					l, r := where(i, j)
					if got := le.Uint32(db.Data[(l*nout+r)*4:]); got != word(want) && bad < 5 {
						bad++
						t.Errorf("D[%d][%d] (lane %d reg %d) = %#x, want %d (%#x)", i, j, l, r, got, want, word(want))
					}
				}
			}
		})
	}
}
