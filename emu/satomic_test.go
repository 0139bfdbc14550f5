package emu

import (
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// TestScalarAtomics decodes llvm-mc-15 -mcpu=gfx90a encodings of scalar
// atomics and runs them: s_atomic_add with GLC returns the old value,
// s_atomic_cmpswap_x2 (data, then compare value) swaps when equal, and
// s_buffer_atomic_add addresses through a V# and skips offsets at or past
// NUM_RECORDS.
func TestScalarAtomics(t *testing.T) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	w := testWave(t)
	mem := w.r.dev.cfg.Memory.(*testMem)
	buf := mem.alloc(t, 64, false)
	run := func(enc []byte) {
		t.Helper()
		in, err := isa.Decode(tg, enc)
		if err != nil {
			t.Fatal(err)
		}
		o, err := buildOp(&in)
		if err != nil {
			t.Fatal(err)
		}
		o.fn(w, o)
	}
	w.s[2], w.s[3] = uint32(buf.Base), uint32(buf.Base>>32)
	le.PutUint32(buf.Data[8:], 40)
	w.s[5] = 2
	run([]byte{0x41, 0x01, 0x0b, 0xc2, 0x08, 0x00, 0x00, 0x00}) // s_atomic_add s5, s[2:3], 0x8 glc
	if le.Uint32(buf.Data[8:]) != 42 || w.s[5] != 40 {
		t.Errorf("s_atomic_add: memory %d, returned %d", le.Uint32(buf.Data[8:]), w.s[5])
	}
	le.PutUint64(buf.Data[16:], 0x1122334455667788)
	w.s[9] = 16
	w.s[4], w.s[5], w.s[6], w.s[7] = 0xAAAA, 0xBBBB, 0x55667788, 0x11223344
	run([]byte{0x01, 0x01, 0x84, 0xc2, 0x09, 0x00, 0x00, 0x00}) // s_atomic_cmpswap_x2 s[4:7], s[2:3], s9
	if got := le.Uint64(buf.Data[16:]); got != 0xBBBB_0000_AAAA {
		t.Errorf("s_atomic_cmpswap_x2: memory %#x", got)
	}
	if w.s[4] != 0xAAAA {
		t.Errorf("s_atomic_cmpswap_x2 without glc changed sdata: %#x", w.s[4])
	}
	// V#: base, num_records 8.
	w.s[8], w.s[9], w.s[10], w.s[11] = uint32(buf.Base), uint32(buf.Base>>32)&0xFFFF, 8, 0
	le.PutUint32(buf.Data[4:], 7)
	w.s[5] = 3
	run([]byte{0x44, 0x01, 0x0b, 0xc1, 0x04, 0x00, 0x00, 0x00}) // s_buffer_atomic_add s5, s[8:11], 0x4 glc
	if le.Uint32(buf.Data[4:]) != 10 || w.s[5] != 7 {
		t.Errorf("s_buffer_atomic_add: memory %d, returned %d", le.Uint32(buf.Data[4:]), w.s[5])
	}
	w.s[10] = 4 // offset 4 now out of range: no access
	w.s[5] = 3
	run([]byte{0x44, 0x01, 0x0b, 0xc1, 0x04, 0x00, 0x00, 0x00})
	if le.Uint32(buf.Data[4:]) != 10 {
		t.Errorf("out-of-range s_buffer_atomic_add wrote: %d", le.Uint32(buf.Data[4:]))
	}
}
