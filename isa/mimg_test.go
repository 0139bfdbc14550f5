package isa

import (
	"encoding/binary"
	"testing"
)

// TestMIMG pins MIMG words whose text llvm-objdump-15 printed (probes made
// while writing the decoder): the data register count from dmask, tfe and
// packed d16, the fallback to the narrowest tuple near v255, the gfx90a acc
// bit, and the Inst model the emulator would read.
func TestMIMG(t *testing.T) {
	for _, c := range []struct {
		cpu    string
		w0, w1 uint32
		want   string
		count  uint8 // data registers
	}{
		{"gfx900", 0xf0000100, 0x00040818, "image_load v8, v24, s[16:23] dmask:0x1", 1},
		{"gfx900", 0xf0010f00, 0x00040818, "image_load v[8:12], v24, s[16:23] dmask:0xf tfe", 5},
		{"gfx900", 0xf0000700, 0x80040818, "image_load v[8:9], v24, s[16:23] dmask:0x7 d16", 2},
		{"gfx900", 0xf0030f00, 0x80040818, "image_load v[8:10], v24, s[16:23] dmask:0xf tfe lwe d16", 3},
		{"gfx900", 0xf0000f00, 0x0004fd18, "image_load v253, v24, s[16:23] dmask:0xf", 1},
		{"gfx900", 0xf0000300, 0x00040918, "image_load v[9:10], v24, s[16:23] dmask:0x3", 2},
		{"gfx900", 0xf0440f00, 0x00040818, "image_atomic_cmpswap v[8:11], v24, s[16:23] dmask:0xf", 4},
		{"gfx900", 0xf0400700, 0x00040818, "image_atomic_swap v8, v24, s[16:23] dmask:0x7", 1},
		{"gfx900", 0xf0800f00, 0x00a40919, "image_sample v[9:12], v25, s[16:23], s[20:23] dmask:0xf", 4},
		{"gfx900", 0xf283ff80, 0x80a40818, "image_sample v[8:10], v24, s[16:23], s[20:23] dmask:0xf unorm glc slc a16 tfe lwe da d16", 3},
		{"gfx90a", 0xf0452300, 0x00040919, "image_atomic_cmpswap a[9:10], v25, s[16:23] dmask:0x3 glc", 2},
		{"gfx90a", 0xf203ff80, 0x80040818, "image_load a[8:9], v24, s[16:23] dmask:0xf unorm glc slc scc a16 lwe da d16", 2},
	} {
		tg, _ := LookupTarget(c.cpu)
		code := binary.LittleEndian.AppendUint32(nil, c.w0)
		code = binary.LittleEndian.AppendUint32(code, c.w1)
		in, err := Decode(tg, code)
		if err != nil {
			t.Errorf("%s %08x %08x: %v", c.cpu, c.w0, c.w1, err)
			continue
		}
		if s := in.String(); s != c.want {
			t.Errorf("%s %08x %08x: got %q, want %q", c.cpu, c.w0, c.w1, s, c.want)
		}
		if in.Enc != EncMIMG || in.Len != 8 || in.Ops[0].Field != FieldDst || in.Ops[0].Count != c.count || in.Mod.DMask != uint8(c.w0>>8&0xf) {
			t.Errorf("%s %08x %08x: Inst %+v", c.cpu, c.w0, c.w1, in)
		}
	}
	// Non-sampler opcodes require ssamp = 0 (LLVM: let ssamp = 0), and
	// gfx940 has no MIMG at all.
	tg, _ := LookupTarget("gfx900")
	if _, err := Decode(tg, []byte{0x00, 0x0f, 0x00, 0xf0, 0x18, 0x08, 0x04, 0x01}); err == nil {
		t.Errorf("image_load with ssamp decoded")
	}
	tg, _ = LookupTarget("gfx940")
	if _, err := Decode(tg, []byte{0x00, 0x01, 0x00, 0xf0, 0x18, 0x08, 0x04, 0x00}); err == nil {
		t.Errorf("gfx940 image_load decoded")
	}
}
