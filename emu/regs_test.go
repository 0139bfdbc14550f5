package emu

import (
	"context"
	"testing"
)

// TestRegistersStartZero: a wave object reused by a later dispatch starts
// with zero VGPRs (startWorkgroup clears them; a GPU leaves them undefined,
// the emulator keeps runs deterministic): kernel A sets v5 in every lane,
// then kernel B, in another code region, stores its v5 without writing
// it. One worker and one resident workgroup, so B runs on A's wave.
// Encodings from llvm-mc-15 -triple=amdgcn-amd-amdhsa -mcpu=gfx90a
// -show-encoding; Rsrc1 1 allocates 8 VGPRs.
func TestRegistersStartZero(t *testing.T) {
	mem := &testMem{}
	d, err := NewDevice(Config{Memory: mem, Workers: 1, ResidentWorkgroups: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := mem.alloc(t, 4096, false)
	codeA := mem.alloc(t, 4096, true)
	codeB := mem.alloc(t, 4096, true)
	copy(codeA.Data, []byte{
		0xc1, 0x02, 0x0a, 0x7e, // v_mov_b32_e32 v5, -1
		0x00, 0x00, 0x81, 0xbf, // s_endpgm
	})
	lo, hi := uint32(out.Base), uint32(out.Base>>32)
	copy(codeB.Data, []byte{
		0xff, 0x00, 0x80, 0xbe, byte(lo), byte(lo >> 8), byte(lo >> 16), byte(lo >> 24), // s_mov_b32 s0, lo
		0xff, 0x00, 0x81, 0xbe, byte(hi), byte(hi >> 8), byte(hi >> 16), byte(hi >> 24), // s_mov_b32 s1, hi
		0x00, 0x02, 0x00, 0x7e, // v_mov_b32_e32 v0, s0
		0x01, 0x02, 0x02, 0x7e, // v_mov_b32_e32 v1, s1
		0x00, 0x00, 0x70, 0xdc, 0x00, 0x05, 0x00, 0x00, // flat_store_dword v[0:1], v5
		0x70, 0x00, 0x8c, 0xbf, // s_waitcnt vmcnt(0) lgkmcnt(0)
		0x00, 0x00, 0x81, 0xbf, // s_endpgm
	})
	for round := 0; round < 3; round++ {
		le.PutUint32(out.Data, 0xdead)
		for _, entry := range []uint64{codeA.Base, codeB.Base} {
			if err := d.Dispatch(context.Background(), &Dispatch{Entry: entry, Program: Program{Rsrc1: 1}, GridSize: [3]uint32{64, 1, 1}, WorkgroupSize: [3]uint32{64, 1, 1}}); err != nil {
				t.Fatal(err)
			}
		}
		if got := le.Uint32(out.Data); got != 0 {
			t.Fatalf("round %d: kernel B stored v5 = %#x, want 0 (a register left over from kernel A)", round, got)
		}
	}
}
