package emu

import (
	"encoding/binary"
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// TestDSAddTID: ds_write_addtid_b32 / ds_read_addtid_b32 access LDS at
// {OFFSET1, OFFSET0} + M0[15:0] + 4·lane (MI200 ISA guide), decoded from
// llvm-mc-15 -mcpu=gfx90a encodings of "ds_write_addtid_b32 v5 offset:256"
// and "ds_read_addtid_b32 v6 offset:260".
func TestDSAddTID(t *testing.T) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	build := func(enc []byte) *op {
		in, err := isa.Decode(tg, enc)
		if err != nil {
			t.Fatal(err)
		}
		o, err := buildOp(&in)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	wr := build([]byte{0x00, 0x01, 0x3a, 0xd8, 0x00, 0x05, 0x00, 0x00})
	rd := build([]byte{0x04, 0x01, 0x6c, 0xd9, 0x00, 0x00, 0x00, 0x06})
	w := testWave(t)
	w.setExec(0xFFFF_FFFF_FFFF_FFF5) // lanes 1 and 3 inactive
	w.s[sM0] = 0xABCD_0010           // only M0[15:0] = 16 counts
	for l := 0; l < 64; l++ {
		w.v[5*64+l] = 0x1000 + uint32(l)
		w.v[6*64+l] = 0xDEAD
	}
	wr.fn(w, wr)
	lds := w.wg.lds
	for l := 0; l < 64; l++ {
		got := binary.LittleEndian.Uint32(lds[256+16+4*l:])
		want := 0x1000 + uint32(l)
		if l == 1 || l == 3 {
			want = 0
		}
		if got != want {
			t.Errorf("lane %d wrote %#x at LDS %d, want %#x", l, got, 256+16+4*l, want)
		}
	}
	// The read is 4 bytes further on: lane l reads what lane l+1 wrote.
	rd.fn(w, rd)
	for l := 0; l < 64; l++ {
		want := 0x1000 + uint32(l+1)
		switch {
		case l == 1 || l == 3:
			want = 0xDEAD // inactive: unchanged
		case l == 0 || l == 2:
			want = 0 // lanes 1 and 3 wrote nothing
		case l == 63:
			want = 0 // beyond what the write covered
		}
		if got := w.v[6*64+l]; got != want {
			t.Errorf("lane %d read %#x, want %#x", l, got, want)
		}
	}
}
