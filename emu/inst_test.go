package emu

import (
	"errors"
	"math"
	"testing"
)

// Per-instruction tests of tricky semantics, run on a bare wave with
// hand-resolved operands (the ISA reference guides' definitions).

func testWave(t testing.TB) *wave {
	t.Helper()
	mem := &testMem{}
	d, err := NewDevice(DefaultGFX90A(mem))
	if err != nil {
		t.Fatal(err)
	}
	r := &run{dev: d, k: &Dispatch{}}
	w := &wave{r: r, wg: &workgroup{lds: make([]byte, 4096)}, v: make([]uint32, 32*64)}
	w.setExec(^uint64(0))
	w.mode = 0xF0 // round to nearest, no flushing
	w.wg.waves = []*wave{w}
	w.wg.nwaves = 1
	return w
}

func v(r uint16) operand { return operand{kind: kVGPR, idx: r} }
func s(r uint16) operand { return operand{kind: kSGPR, idx: r} }
func k(x uint64) operand { return operand{kind: kConst, val: x} }

func exec1(t *testing.T, w *wave, name string, o *op) {
	t.Helper()
	sem, ok := semantics[name]
	if !ok {
		t.Fatalf("no semantics for %s", name)
	}
	o.fn = sem.fn
	o.n = 4
	sem.fn(w, o)
}

func TestCarryChain64(t *testing.T) {
	w := testWave(t)
	// v[0:1] + v[2:3] as v_add_co_u32 / v_addc_co_u32 with VCC carrying.
	for l := 0; l < 64; l++ {
		a := uint64(l) * 0x1234_5678_9ABC_DEF1
		b := ^uint64(0) - uint64(l)*0x1111
		w.v[0*64+l], w.v[1*64+l] = uint32(a), uint32(a>>32)
		w.v[2*64+l], w.v[3*64+l] = uint32(b), uint32(b>>32)
	}
	w.setExec(0xFFFF_FFFF_FFFF_FFFE) // lane 0 inactive: its carry bit must be 0
	exec1(t, w, "v_add_co_u32", &op{dst: v(4), src: [3]operand{v(0), v(2)}, sdst: s(sVCCLo)})
	exec1(t, w, "v_addc_co_u32", &op{dst: v(5), src: [3]operand{v(1), v(3), s(sVCCLo)}, sdst: s(20)})
	for l := 1; l < 64; l++ {
		a := uint64(l) * 0x1234_5678_9ABC_DEF1
		b := ^uint64(0) - uint64(l)*0x1111
		want := a + b
		got := uint64(w.v[4*64+l]) | uint64(w.v[5*64+l])<<32
		if got != want {
			t.Fatalf("lane %d: %#x, want %#x", l, got, want)
		}
		wantCarry := (a+b < a)
		if w.s64(20)>>l&1 != b2u64(wantCarry) {
			t.Errorf("lane %d carry-out %d, want %v", l, w.s64(20)>>l&1, wantCarry)
		}
	}
	if w.s64(20)&1 != 0 || w.vcc()&1 != 0 {
		t.Error("inactive lane 0 carry bit set")
	}
	// Borrow chain: 0 - 1 over 64 bits = all ones, borrow out.
	w.setExec(1)
	w.v[0], w.v[64], w.v[128], w.v[192] = 0, 0, 1, 0
	exec1(t, w, "v_sub_co_u32", &op{dst: v(4), src: [3]operand{v(0), v(2)}, sdst: s(sVCCLo)})
	exec1(t, w, "v_subb_co_u32", &op{dst: v(5), src: [3]operand{v(1), v(3), s(sVCCLo)}, sdst: s(sVCCLo)})
	if w.v[256] != 0xFFFFFFFF || w.v[320] != 0xFFFFFFFF || w.vcc() != 1 {
		t.Errorf("0-1 = %#x:%#x borrow %d", w.v[320], w.v[256], w.vcc())
	}
	// Scalar chain s_add_u32 / s_addc_u32 through SCC.
	w.s[0], w.s[1], w.s[2], w.s[3] = 0xFFFFFFFF, 1, 1, 2
	exec1(t, w, "s_add_u32", &op{dst: s(4), src: [3]operand{s(0), s(2)}})
	exec1(t, w, "s_addc_u32", &op{dst: s(5), src: [3]operand{s(1), s(3)}})
	if w.s[4] != 0 || w.s[5] != 4 || w.scc != 0 {
		t.Errorf("s_add/addc = %#x:%#x scc %d", w.s[5], w.s[4], w.scc)
	}
}

func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func TestShifts64(t *testing.T) {
	w := testWave(t)
	x := uint64(0x8000_0001_0000_0003)
	for l := 0; l < 64; l++ {
		w.v[l] = uint32(l) + 64*uint32(l&1) // shift amounts 0..127 (only 6 bits count)
		w.v[64*2+l], w.v[64*3+l] = uint32(x), uint32(x>>32)
	}
	exec1(t, w, "v_lshlrev_b64", &op{dst: v(4), src: [3]operand{v(0), v(2)}})
	exec1(t, w, "v_lshrrev_b64", &op{dst: v(6), src: [3]operand{v(0), v(2)}})
	exec1(t, w, "v_ashrrev_i64", &op{dst: v(8), src: [3]operand{v(0), v(2)}})
	for l := 0; l < 64; l++ {
		sh := uint(l+64*(l&1)) & 63
		get := func(r int) uint64 { return uint64(w.v[r*64+l]) | uint64(w.v[(r+1)*64+l])<<32 }
		if get(4) != x<<sh || get(6) != x>>sh || get(8) != uint64(int64(x)>>sh) {
			t.Fatalf("lane %d shift %d: %#x %#x %#x", l, sh, get(4), get(6), get(8))
		}
	}
	// Scalar 64-bit shifts and SCC.
	w.sets64(0, 1<<63)
	w.s[2] = 63 + 64
	exec1(t, w, "s_lshr_b64", &op{dst: s(4), src: [3]operand{s(0), s(2)}})
	if w.s64(4) != 1 || w.scc != 1 {
		t.Errorf("s_lshr_b64 = %#x scc %d", w.s64(4), w.scc)
	}
	exec1(t, w, "s_ashr_i64", &op{dst: s(4), src: [3]operand{s(0), s(2)}})
	if w.s64(4) != ^uint64(0) {
		t.Errorf("s_ashr_i64 = %#x", w.s64(4))
	}
	// 64-bit literal/inline operands: -1 inline sign-extends to 64 bits.
	c, _ := constOperand(193, 0, tI64)
	exec1(t, w, "s_mov_b64", &op{dst: s(6), src: [3]operand{c}})
	if w.s64(6) != ^uint64(0) {
		t.Errorf("s_mov_b64 -1 = %#x", w.s64(6))
	}
	c, _ = constOperand(242, 0, tF64)
	exec1(t, w, "s_mov_b64", &op{dst: s(6), src: [3]operand{c}})
	if w.s64(6) != math.Float64bits(1) {
		t.Errorf("s_mov_b64 1.0 = %#x", w.s64(6))
	}
}

func TestFloatConversionsAndModes(t *testing.T) {
	w := testWave(t)
	in := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 3e9, -3e9, -1.5, 2.5, 1e-45}
	for l, x := range in {
		w.v[l] = math.Float32bits(x)
	}
	w.setExec(1<<len(in) - 1)
	exec1(t, w, "v_cvt_i32_f32", &op{dst: v(1), src: [3]operand{v(0)}})
	exec1(t, w, "v_cvt_u32_f32", &op{dst: v(2), src: [3]operand{v(0)}})
	wantI := []int32{0, math.MaxInt32, math.MinInt32, math.MaxInt32, math.MinInt32, -1, 2, 0}
	wantU := []uint32{0, math.MaxUint32, 0, 3000000000, 0, 0, 2, 0}
	for l := range in {
		if int32(w.v[64+l]) != wantI[l] || w.v[128+l] != wantU[l] {
			t.Errorf("cvt(%v) = %d / %d, want %d / %d", in[l], int32(w.v[64+l]), w.v[128+l], wantI[l], wantU[l])
		}
	}
	// Denormals: 1e-45 (the smallest f32 denormal) * 2 is 2.8e-45 with
	// denormals allowed, +0 when MODE flushes (FP_DENORM f32 = 0).
	w.setExec(1 << 7)
	two, _ := constOperand(244, 0, tF32)
	exec1(t, w, "v_mul_f32", &op{dst: v(3), src: [3]operand{v(0), two}})
	if w.v[3*64+7] != 2 {
		t.Errorf("denormal*2 = %#x, want 0x2", w.v[3*64+7])
	}
	w.mode = 0xC0 // f32 denormals flushed, f64/f16 kept
	exec1(t, w, "v_mul_f32", &op{dst: v(3), src: [3]operand{v(0), two}})
	if w.v[3*64+7] != 0 {
		t.Errorf("flushed denormal*2 = %#x, want 0", w.v[3*64+7])
	}
	// v_mad_f32 always flushes f32 denormals; v_fma_f32 honours MODE.
	w.mode = 0xF0
	one, _ := constOperand(242, 0, tF32)
	zero := k(0)
	exec1(t, w, "v_mad_f32", &op{dst: v(4), src: [3]operand{v(0), one, zero}})
	exec1(t, w, "v_fma_f32", &op{dst: v(5), src: [3]operand{v(0), one, zero}})
	if w.v[4*64+7] != 0 || w.v[5*64+7] != 1 {
		t.Errorf("v_mad_f32 denormal %#x (want 0), v_fma_f32 %#x (want 1)", w.v[4*64+7], w.v[5*64+7])
	}
	// Directed rounding from MODE: 1 + 2^-30 rounds up only in round-up mode.
	w.setExec(1)
	w.v[0] = math.Float32bits(1)
	tiny := k(uint64(math.Float32bits(0x1p-30)))
	w.mode = 0xF0 | rndPlusInf
	exec1(t, w, "v_add_f32", &op{dst: v(6), src: [3]operand{v(0), tiny}})
	w.mode = 0xF0 | rndZero
	exec1(t, w, "v_add_f32", &op{dst: v(7), src: [3]operand{v(0), tiny}})
	if w.v[6*64] != 0x3F800001 || w.v[7*64] != 0x3F800000 {
		t.Errorf("1+2^-30: round up %#x, toward zero %#x", w.v[6*64], w.v[7*64])
	}
	// s_setreg of MODE (hwreg(HW_REG_MODE, 0, 4)) changes the rounding the next instruction uses.
	w.mode = 0xF0
	w.s[10] = rndPlusInf
	exec1(t, w, "s_setreg_b32", &op{imm: hwMode | 0<<6 | 3<<11, src: [3]operand{s(10)}})
	exec1(t, w, "v_add_f32", &op{dst: v(6), src: [3]operand{v(0), tiny}})
	if w.v[6*64] != 0x3F800001 || w.mode&0xF != rndPlusInf {
		t.Errorf("after s_setreg mode %#x: %#x", w.mode, w.v[6*64])
	}
	exec1(t, w, "s_getreg_b32", &op{imm: hwSHMemBases | 16<<6 | 15<<11, dst: s(11)})
	if uint64(w.s[11])<<48 != SharedApertureBase {
		t.Errorf("SH_MEM_BASES shared base %#x", w.s[11])
	}
}

func TestCompareWritesMaskAndExec(t *testing.T) {
	w := testWave(t)
	for l := 0; l < 64; l++ {
		w.v[l] = uint32(l)
	}
	w.setExec(0x0000_FFFF_0000_FFFF)
	exec1(t, w, "v_cmp_gt_u32", &op{sdst: s(sVCCLo), src: [3]operand{k(40), v(0)}})
	if w.vcc() != 0x0000_00FF_0000_FFFF {
		t.Errorf("vcc %#x", w.vcc())
	}
	exec1(t, w, "v_cmpx_lt_u32", &op{sdst: s(sVCCLo), src: [3]operand{k(8), v(0)}})
	if w.exec() != 0x0000_FFFF_0000_FE00 || w.vcc() != w.exec() {
		t.Errorf("cmpx exec %#x vcc %#x", w.exec(), w.vcc())
	}
	exec1(t, w, "s_and_saveexec_b64", &op{dst: s(4), src: [3]operand{k(0xF0F0)}})
	if w.s64(4) != 0x0000_FFFF_0000_FE00 || w.exec() != 0xF000 || w.scc != 1 {
		t.Errorf("saveexec: saved %#x exec %#x scc %d", w.s64(4), w.exec(), w.scc)
	}
	// v_cmp_class_f32: quiet NaN (bit 1) and +inf (bit 9).
	w.setExec(3)
	w.v[64], w.v[65] = 0x7FC00000, 0x7F800000
	exec1(t, w, "v_cmp_class_f32", &op{sdst: s(6), src: [3]operand{v(1), k(1<<1 | 1<<9)}})
	if w.s64(6) != 3 {
		t.Errorf("class mask %#x", w.s64(6))
	}
}

func TestAtomicReturnValues(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 64, false)
	le.PutUint32(buf.Data[0:], 10)
	le.PutUint32(buf.Data[8:], 5)
	w.setExec(0xF) // four lanes increment the same address
	for l := 0; l < 4; l++ {
		w.v[l], w.v[64+l] = uint32(buf.Base), uint32(buf.Base>>32)
		w.v[128+l] = uint32(l + 1)
	}
	o := &op{dst: v(3), src: [3]operand{v(0), {}, v(2)}, flags: fGLC, imm: aAdd}
	exec1(t, w, "global_atomic_add", o)
	if got := le.Uint32(buf.Data); got != 20 {
		t.Errorf("sum %d, want 20", got)
	}
	for l, want := range []uint32{10, 11, 13, 16} {
		if w.v[192+l] != want {
			t.Errorf("lane %d returned %d, want %d", l, w.v[192+l], want)
		}
	}
	// cmpswap: data {src, cmp}; only the first lane's compare matches.
	w.setExec(3)
	for l := 0; l < 2; l++ {
		w.v[l] = uint32(buf.Base + 8)
		w.v[128+l], w.v[192+l] = 100+uint32(l), 5 // src, cmp
	}
	exec1(t, w, "global_atomic_cmpswap", &op{dst: v(4), src: [3]operand{v(0), {}, v(2)}, flags: fGLC, imm: aCmpSwap})
	if le.Uint32(buf.Data[8:]) != 100 || w.v[256] != 5 || w.v[257] != 100 {
		t.Errorf("cmpswap mem %d returns %d %d", le.Uint32(buf.Data[8:]), w.v[256], w.v[257])
	}
	// inc wraps at the operand; dec wraps to the operand.
	le.PutUint32(buf.Data[16:], 3)
	w.setExec(1)
	w.v[0], w.v[128] = uint32(buf.Base+16), 3
	exec1(t, w, "global_atomic_inc", &op{dst: v(4), src: [3]operand{v(0), {}, v(2)}, flags: fGLC, imm: aInc})
	if le.Uint32(buf.Data[16:]) != 0 || w.v[256] != 3 {
		t.Errorf("inc: mem %d ret %d", le.Uint32(buf.Data[16:]), w.v[256])
	}
	exec1(t, w, "global_atomic_dec", &op{dst: v(4), src: [3]operand{v(0), {}, v(2)}, flags: fGLC, imm: aDec})
	if le.Uint32(buf.Data[16:]) != 3 {
		t.Errorf("dec from 0: mem %d, want 3", le.Uint32(buf.Data[16:]))
	}
	// Misaligned atomics fault.
	w.v[0] = uint32(buf.Base + 2)
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMisaligned || f.Address != buf.Base+2 || f.Lane != 0 {
				t.Errorf("misaligned atomic: %v", f)
			}
		}()
		exec1(t, w, "global_atomic_add", &op{src: [3]operand{v(0), {}, v(2)}, imm: aAdd})
	}()
	// LDS atomics: ds_cmpst_rtn_b32 data0 = compare, data1 = new value.
	le.PutUint32(w.wg.lds[12:], 7)
	w.v[0], w.v[64], w.v[128] = 12, 7, 99
	exec1(t, w, "ds_cmpst_rtn_b32", &op{dst: v(3), src: [3]operand{v(0), v(1), v(2)}, imm: aCmpSwap | 1<<9})
	if le.Uint32(w.wg.lds[12:]) != 99 || w.v[192] != 7 {
		t.Errorf("ds_cmpst: lds %d ret %d", le.Uint32(w.wg.lds[12:]), w.v[192])
	}
}

func TestBufferOutOfRange(t *testing.T) {
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 64, false)
	for i := range buf.Data {
		buf.Data[i] = byte(i)
	}
	// Raw buffer: base, stride 0, num_records 16.
	w.s[8], w.s[9], w.s[10], w.s[11] = uint32(buf.Base), uint32(buf.Base>>32)&0xFFFF, 16, 0
	w.setExec(0xF)
	for l := 0; l < 4; l++ {
		w.v[l] = uint32(8 * l) // offsets 0, 8, 16, 24
		w.v[64+l] = 0xDEAD
	}
	exec1(t, w, "buffer_load_dword", &op{dst: v(1), src: [3]operand{v(0), s(8)}, sdst: k(0), flags: fOffen, imm: mB32})
	want := []uint32{0x03020100, 0x0B0A0908, 0, 0}
	for l := 0; l < 4; l++ {
		if w.v[64+l] != want[l] {
			t.Errorf("lane %d: %#x, want %#x", l, w.v[64+l], want[l])
		}
	}
	for l := 0; l < 4; l++ {
		w.v[128+l] = 0xFFFFFFFF
	}
	exec1(t, w, "buffer_store_dword", &op{src: [3]operand{v(0), s(8), v(2)}, sdst: k(0), flags: fOffen, imm: mB32})
	if le.Uint32(buf.Data[16:]) != 0x13121110 || le.Uint32(buf.Data[8:]) != 0xFFFFFFFF {
		t.Errorf("out-of-range store was not dropped: %x", buf.Data[:32])
	}
}

func TestGlobalFaults(t *testing.T) {
	w := testWave(t)
	w.setExec(1 << 5)
	w.v[5], w.v[64+5] = 0x10, 0 // null page
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMemory || f.Lane != 5 || f.Address != 0x10 {
				t.Errorf("null read: %v", f)
			}
		}()
		exec1(t, w, "global_load_dword", &op{dst: v(2), src: [3]operand{v(0)}, imm: mB32})
	}()
	code := w.r.dev.cfg.Memory.(*testMem).alloc(t, 64, true)
	w.v[5], w.v[64+5] = uint32(code.Base), uint32(code.Base>>32)
	func() {
		defer func() {
			f, _ := recover().(*Fault)
			if f == nil || f.Kind != FaultMemory || !errors.Is(f, f) || f.Address != code.Base {
				t.Errorf("store to code: %v", f)
			}
		}()
		exec1(t, w, "global_store_dword", &op{src: [3]operand{v(0), {}, v(2)}, imm: mB32})
	}()
}

func TestDPPAndSDWA(t *testing.T) {
	for l := 0; l < 64; l++ {
		if got := dppLane(0x111, l); (l&15 == 0 && got != -1) || (l&15 != 0 && got != l-1) {
			t.Fatalf("row_shr:1 lane %d -> %d", l, got)
		}
		if got := dppLane(0x1B, l); got != l&^3|[]int{3, 2, 1, 0}[l&3] {
			t.Fatalf("quad_perm [3,2,1,0] lane %d -> %d", l, got)
		}
		if got := dppLane(0x142, l); l >= 16 && got != l&^15-1 {
			t.Fatalf("row_bcast:15 lane %d -> %d", l, got)
		}
		if got := dppLane(0x140, l); got != l&^15|(15-l&15) {
			t.Fatalf("row_mirror lane %d -> %d", l, got)
		}
	}
	if sdwaExtract(0x80FF_7F01, 3, true) != 0xFFFFFF80 || sdwaExtract(0x80FF_7F01, 5, false) != 0x80FF ||
		sdwaExtract(0x80FF_7F01, 1, true) != 0x7F {
		t.Error("sdwa selects")
	}
}

func TestDPPExecution(t *testing.T) {
	w := testWave(t)
	for l := 0; l < 64; l++ {
		w.v[l] = uint32(100 + l)
		w.v[64+l] = 0xEEEE
	}
	mov := &op{fn: semantics["v_mov_b32"].fn, dst: v(1), src: [3]operand{{kind: kTmp, idx: 6}}}
	// row_shr:1 without bound_ctrl: lane 0 of each row keeps its old value.
	o := &op{fn: execDPP, aux: &opAux{dpp: &dppAux{inner: mov, src: v(0), ctrl: 0x111, rowMask: 0xF, bank: 0xF}}}
	w.setExec(^uint64(0))
	o.fn(w, o)
	for l := 0; l < 64; l++ {
		want := uint32(100 + l - 1)
		if l%16 == 0 {
			want = 0xEEEE
		}
		if w.v[64+l] != want {
			t.Fatalf("row_shr:1 lane %d = %#x, want %#x", l, w.v[64+l], want)
		}
	}
	if w.exec() != ^uint64(0) {
		t.Errorf("EXEC not restored: %#x", w.exec())
	}
	// bound_ctrl writes 0 for out-of-row lanes; row_mask 0x5 disables rows 1 and 3.
	o.aux.dpp.bound, o.aux.dpp.rowMask = true, 0x5
	for l := 0; l < 64; l++ {
		w.v[64+l] = 0xEEEE
	}
	o.fn(w, o)
	for l := 0; l < 64; l++ {
		want := uint32(100 + l - 1)
		switch {
		case (l>>4)&1 == 1:
			want = 0xEEEE
		case l%16 == 0:
			want = 0
		}
		if w.v[64+l] != want {
			t.Fatalf("bound_ctrl/row_mask lane %d = %#x, want %#x", l, w.v[64+l], want)
		}
	}
	// row_bcast:15 (used by wave reductions) with an inactive source lane 15.
	w.setExec(^uint64(0) &^ (1 << 15))
	o.aux.dpp.ctrl, o.aux.dpp.bound, o.aux.dpp.rowMask = 0x142, false, 0xA
	for l := 0; l < 64; l++ {
		w.v[64+l] = 0xEEEE
	}
	o.fn(w, o)
	if w.v[64+16] != 0xEEEE || w.v[64+48] != 100+47 || w.v[64+5] != 0xEEEE {
		t.Errorf("row_bcast:15: lane16 %#x lane48 %#x lane5 %#x", w.v[64+16], w.v[64+48], w.v[64+5])
	}
}

func TestSDWAExecution(t *testing.T) {
	w := testWave(t)
	w.setExec(1)
	w.v[0], w.v[64], w.v[128] = 0x0000_80FF, 0x0003_0002, 0xAAAA_BBBB
	// v_add_u32_sdwa v2, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_1, src0 sext.
	add := &op{fn: semantics["v_add_u32"].fn, dst: operand{kind: kTmp, idx: 8}, src: [3]operand{{kind: kTmp, idx: 6}, {kind: kTmp, idx: 7}}}
	o := &op{fn: execSDWA, aux: &opAux{sdwa: &sdwaAux{inner: add, src: [2]operand{v(0), v(1)}, sel: [2]uint8{1, 5},
		sext: [2]bool{true, false}, dst: v(2), dstSel: 5, dstUnused: 2}}}
	o.fn(w, o)
	// byte1 of 0x80FF sign-extended = -128; + 3 = -125 -> low 16 bits 0xFF83 into the high word.
	if w.v[128] != 0xFF83_BBBB {
		t.Errorf("sdwa result %#x, want 0xff83bbbb", w.v[128])
	}
	o.aux.sdwa.dstUnused = 1 // UNUSED_SEXT with WORD_0
	o.aux.sdwa.dstSel = 4
	o.fn(w, o)
	if w.v[128] != 0xFFFF_FF83 {
		t.Errorf("sdwa sext result %#x, want 0xffffff83", w.v[128])
	}
}

func TestF16AndF64EdgeCases(t *testing.T) {
	w := testWave(t)
	w.setExec(0xF)
	// v_cvt_f16_f32: overflow to inf, f16 denormal, NaN stays NaN.
	for l, x := range []float32{70000, 3e-6, float32(math.NaN()), -1.5} {
		w.v[l] = math.Float32bits(x)
	}
	exec1(t, w, "v_cvt_f16_f32", &op{dst: v(1), src: [3]operand{v(0)}})
	if w.v[64] != 0x7C00 || w.v[65] != 0x0032 || w.v[66]&0x7C00 != 0x7C00 || w.v[66]&0x3FF == 0 || w.v[67] != 0xBE00 {
		t.Errorf("v_cvt_f16_f32 = %#x %#x %#x %#x", w.v[64], w.v[65], w.v[66], w.v[67])
	}
	// v_add_f16 rounds once: 2048 + 1 (exact half-way) rounds to even 2048; 2048 + 3 -> 2052.
	w.v[0], w.v[1] = 0x6800, 0x6800   // 2048
	w.v[64], w.v[65] = 0x3C00, 0x4200 // 1, 3
	exec1(t, w, "v_add_f16", &op{dst: v(2), src: [3]operand{v(0), v(1)}})
	if w.v[128] != 0x6800 || w.v[129] != 0x6802 {
		t.Errorf("v_add_f16 = %#x %#x, want 0x6800 0x6802", w.v[128], w.v[129])
	}
	// f64 division helpers: fixup gives NaN for 0/0, signed inf for x/0, the quotient otherwise.
	set64 := func(r, l int, x float64) {
		u := math.Float64bits(x)
		w.v[r*64+l], w.v[(r+1)*64+l] = uint32(u), uint32(u>>32)
	}
	get64 := func(r, l int) float64 { return math.Float64frombits(uint64(w.v[r*64+l]) | uint64(w.v[(r+1)*64+l])<<32) }
	for l, c := range []struct{ q, den, num float64 }{{1, 0, 0}, {1, 0, -3}, {0.25, 4, 1}, {1, math.Inf(1), 5}} {
		set64(0, l, c.q)
		set64(2, l, c.den)
		set64(4, l, c.num)
	}
	exec1(t, w, "v_div_fixup_f64", &op{dst: v(6), src: [3]operand{v(0), v(2), v(4)}})
	if !math.IsNaN(get64(6, 0)) || !math.IsInf(get64(6, 1), -1) || get64(6, 2) != 0.25 || get64(6, 3) != 0 {
		t.Errorf("v_div_fixup_f64 = %v %v %v %v", get64(6, 0), get64(6, 1), get64(6, 2), get64(6, 3))
	}
	// v_fma_f64 is fused: (1+2^-52)^2 - (1+2^-51) = 2^-104 exactly.
	set64(0, 0, 1+0x1p-52)
	set64(2, 0, -(1 + 0x1p-51))
	w.setExec(1)
	exec1(t, w, "v_fma_f64", &op{dst: v(6), src: [3]operand{v(0), v(0), v(2)}})
	if get64(6, 0) != 0x1p-104 {
		t.Errorf("v_fma_f64 = %v, want 2^-104", get64(6, 0))
	}
	// v_mul_f64 then v_add_f64 round twice: the product rounds to 1+2^-51 and the sum is 0.
	exec1(t, w, "v_mul_f64", &op{dst: v(8), src: [3]operand{v(0), v(0)}})
	exec1(t, w, "v_add_f64", &op{dst: v(8), src: [3]operand{v(8), v(2)}})
	if get64(8, 0) != 0 {
		t.Errorf("v_mul_f64+v_add_f64 = %v, want 0", get64(8, 0))
	}
	// v_frexp_mant_f64(inf) is inf; v_frexp_exp_i32_f64(8) is 4.
	set64(0, 0, math.Inf(-1))
	set64(2, 0, 8)
	exec1(t, w, "v_frexp_mant_f64", &op{dst: v(6), src: [3]operand{v(0)}})
	exec1(t, w, "v_frexp_exp_i32_f64", &op{dst: v(8), src: [3]operand{v(2)}})
	if !math.IsInf(get64(6, 0), -1) || w.v[8*64] != 4 {
		t.Errorf("frexp: %v %d", get64(6, 0), w.v[8*64])
	}
}

func TestLDSOutOfRange(t *testing.T) {
	w := testWave(t)
	w.setExec(3)
	w.v[0], w.v[1] = 4092, 4096 // lane 1 is past the 4 KiB allocation
	w.v[64], w.v[65] = 7, 9
	w.v[128], w.v[129] = 0xAAAA, 0xBBBB
	exec1(t, w, "ds_write_b32", &op{src: [3]operand{v(0), v(1)}, imm: mB32})
	exec1(t, w, "ds_read_b32", &op{dst: v(2), src: [3]operand{v(0)}, imm: mB32})
	if w.v[128] != 7 || w.v[129] != 0 {
		t.Errorf("LDS read in range %d, out of range %d; want 7 and 0", w.v[128], w.v[129])
	}
	w.r.dev.cfg.FaultOnLDSRange = true
	defer func() {
		f, _ := recover().(*Fault)
		if f == nil || f.Kind != FaultMemory || f.Lane != 1 || f.Address != SharedApertureBase+4096 {
			t.Errorf("FaultOnLDSRange: %v", f)
		}
	}()
	exec1(t, w, "ds_read_b32", &op{dst: v(2), src: [3]operand{v(0)}, imm: mB32})
}

func TestGPRIndexMode(t *testing.T) {
	w := testWave(t)
	w.setExec(1)
	for r := 0; r < 8; r++ {
		w.v[r*64] = uint32(100 + r)
	}
	w.s[5] = 3
	exec1(t, w, "s_set_gpr_idx_on", &op{src: [3]operand{s(5), k(1)}}) // index 3, src0 enabled
	if w.slow&slowGPRIdx == 0 || w.s[sM0]&0xF0FF != 0x1003 {
		t.Fatalf("M0 %#x gprIdx %v", w.s[sM0], w.slow&slowGPRIdx != 0)
	}
	o := &op{fn: semantics["v_mov_b32"].fn, class: ClassVALU, dst: v(10), src: [3]operand{v(1)}}
	w.execIndexed(o)
	if w.v[10*64] != 104 {
		t.Errorf("indexed v_mov read %d, want v4 = 104", w.v[10*64])
	}
	exec1(t, w, "s_set_gpr_idx_off", &op{})
	if w.slow&slowGPRIdx != 0 {
		t.Error("s_set_gpr_idx_off left index mode on")
	}
}

// TestDSRead2Offsets: the decoder gives DS offsets as the combined 16-bit
// field (offset1<<8 | offset0) plus offset1; the two-address forms scale
// offset0 and offset1 separately (by 4, or 256 for st64).
func TestDSRead2Offsets(t *testing.T) {
	w := testWave(t)
	w.setExec(1)
	for i := 0; i < 1024; i++ {
		le.PutUint32(w.wg.lds[4*i:], uint32(i))
	}
	w.v[0] = 8 // byte address: element 2
	exec1(t, w, "ds_read2_b32", &op{dst: v(2), src: [3]operand{v(0)}, offset: 32<<8 | 3, off1: 32, imm: 1 | 1<<4})
	if w.v[2*64] != 5 || w.v[3*64] != 34 {
		t.Errorf("ds_read2_b32 offset0:3 offset1:32 = %d, %d; want 5, 34", w.v[2*64], w.v[3*64])
	}
	exec1(t, w, "ds_read2st64_b32", &op{dst: v(2), src: [3]operand{v(0)}, offset: 2 << 8, off1: 2, imm: 1 | 64<<4})
	if w.v[2*64] != 2 || w.v[3*64] != 2+128 {
		t.Errorf("ds_read2st64_b32 offset1:2 = %d, %d; want 2, 130", w.v[2*64], w.v[3*64])
	}
}

// TestDenormModes: MODE.FP_DENORM for f32 (bits 5:4) under each of its four
// values: bit 4 keeps input denormals, bit 5 keeps output denormals.
func TestDenormModes(t *testing.T) {
	w := testWave(t)
	w.setExec(3)
	w.v[0] = 0x0000_0100                // lane 0: a denormal input
	w.v[1] = math.Float32bits(0x1p-100) // lane 1: a normal input whose product is denormal
	w.v[64], w.v[65] = math.Float32bits(1), math.Float32bits(0x1p-30)
	for mode := uint32(0); mode < 4; mode++ {
		w.mode = mode<<4 | 0xC0
		exec1(t, w, "v_mul_f32", &op{dst: v(2), src: [3]operand{v(0), v(1)}})
		wantIn := uint32(0) // denormal*1 with input flushing
		if mode&1 != 0 {
			wantIn = 0x100
		}
		if mode&2 == 0 {
			wantIn = 0 // and output flushing flushes it too
		}
		wantOut := uint32(0)
		if mode&2 != 0 {
			wantOut = math.Float32bits(0x1p-130)
		}
		if w.v[128] != wantIn || w.v[129] != wantOut {
			t.Errorf("FP_DENORM=%d: denormal*1 = %#x (want %#x), 2^-100*2^-30 = %#x (want %#x)", mode, w.v[128], wantIn, w.v[129], wantOut)
		}
	}
	// f64 uses bits 7:6 independently: with f32 flushing, f64 denormals survive.
	w.mode = 0xC0
	w.setExec(1)
	u := math.Float64bits(0x1p-1070)
	w.v[0], w.v[64] = uint32(u), uint32(u>>32)
	c, _ := constOperand(242, 0, tF64)
	exec1(t, w, "v_mul_f64", &op{dst: v(2), src: [3]operand{v(0), c}})
	if got := uint64(w.v[128]) | uint64(w.v[192])<<32; got != u {
		t.Errorf("f64 denormal*1 with f32 flushing = %#x, want %#x", got, u)
	}
}

func TestMinMaxIEEEMode(t *testing.T) {
	w := testWave(t)
	w.setExec(1)
	w.v[0], w.v[64] = 0x7F80_0001, math.Float32bits(2) // sNaN, 2
	w.mode = 0xF0 | modeIEEE
	exec1(t, w, "v_max_f32", &op{dst: v(2), src: [3]operand{v(0), v(1)}})
	if w.v[128] != 0x7FC0_0001 {
		t.Errorf("IEEE max(sNaN, 2) = %#x, want the quieted sNaN 0x7fc00001", w.v[128])
	}
	w.mode = 0xF0
	exec1(t, w, "v_max_f32", &op{dst: v(2), src: [3]operand{v(0), v(1)}})
	if w.v[128] != math.Float32bits(2) {
		t.Errorf("non-IEEE max(sNaN, 2) = %#x, want 2", w.v[128])
	}
}
