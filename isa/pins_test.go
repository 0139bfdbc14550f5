package isa

import (
	"encoding/binary"
	"testing"
)

// TestLLVMPins pins words whose llvm-objdump-15 text once differed from
// ours (found by TestLLVMDifferential), so the fixes hold without LLVM
// installed. The texts are llvm-objdump-15's; "" means LLVM prints
// <unknown>.
func TestLLVMPins(t *testing.T) {
	for _, c := range []struct {
		cpu   string
		words []uint32
		want  string
		n     uint8 // bytes LLVM consumed
	}{
		// VOP3-encoded interpolation: attribute in src0 (attr[5:0],
		// chan[7:6], high[8]), source in src1.
		{"gfx900", []uint32{0xd2740082, 0x00000800}, "v_interp_p1ll_f16 v130, s4, attr0.x", 8},
		{"gfx900", []uint32{0xd2708000, 0x00002400}, "v_interp_p1_f32_e64 v0, s18, attr0.x clamp", 8},
		{"gfx900", []uint32{0xd2710030, 0x00000040}, "v_interp_p2_f32_e64 v48, s0, attr0.y", 8},
		{"gfx900", []uint32{0xd2750000, 0x065453d7}, "v_interp_p1lv_f16 v0, s41, attr23.w, v149 high", 8},
		{"gfx900", []uint32{0xd2758099, 0xc0010400}, "v_interp_p1lv_f16 v153, neg(/*invalid immediate*/), attr0.x, -s0 clamp", 8},
		// A failing SDWA v_nop decodes as v_nop_e32.
		{"gfx908", []uint32{0x7e0000f9, 0x7a4098c2}, "v_nop", 4},
		// An SGPR vdst of 255 consumes the literal.
		{"gfx906", []uint32{0x7ffe04bf, 0x08240a70}, "v_readfirstlane_b32 /*invalid immediate*/, /*invalid immediate*/", 8},
		// v_madak_f16: src0 literal printed as 16 bits, K in full.
		{"gfx90a", []uint32{0x4af2d4ff, 0x11020000}, "v_madak_f16 v121, 0, v106, 0x11020000", 8},
		{"gfx90a", []uint32{0x4af2d4ff, 0x00001234}, "v_madak_f16 v121, 0x1234, v106, 0x1234", 8},
		// f16 literals: constant names only when the whole literal matches.
		{"gfx940", []uint32{0x7f2e7aff, 0x00004000}, "v_rcp_f16_e32 v151, 2.0", 8},
		{"gfx940", []uint32{0x7f2e7aff, 0x00013800}, "v_rcp_f16_e32 v151, 0x3800", 8},
		{"gfx940", []uint32{0x7f2e7aff, 0x00003118}, "v_rcp_f16_e32 v151, 0.15915494", 8},
		// Packed f32 sources print 1/(2*pi) with the f32 name.
		{"gfx90a", []uint32{0xd3b00000, 0x1be1f1f8}, "v_pk_fma_f32 v[0:1], v[248:249], 0.15915494, 0.15915494 op_sel_hi:[1,1,0]", 8},
		{"gfx940", []uint32{0xd3b008a1, 0xdbe19a78}, "v_pk_fma_f32 v[161:162], ttmp[12:13], -13, 0.15915494 op_sel:[1,0,0] op_sel_hi:[1,1,0] neg_lo:[0,1,1]", 8},
		// SOPP u16 immediates: 0-64 decimal, others hex.
		{"gfx906", []uint32{0xbf94fff9}, "s_incperflevel 0xfff9", 4},
		{"gfx906", []uint32{0xbf940040}, "s_incperflevel 64", 4},
		// MFMA src2 may be null at any width.
		{"gfx908", []uint32{0xd3d42662, 0x41f613c9}, "v_mfma_i32_32x32x8i8 a[98:113], v201, v9, null cbsz:6 abid:4 blgp:2", 8},
		// v_smfmac_*: blgp is fixed to 0 (VOP3Pe_SMFMAC).
		{"gfx940", []uint32{0xd3fc0000, 0x04a22108}, "v_smfmac_f32_32x32x32_bf8_bf8 v[0:15], v[8:9], v[16:19], v40", 8},
		{"gfx940", []uint32{0xd3fc0000, 0x24a22108}, "", 0},
	} {
		tg, _ := LookupTarget(c.cpu)
		var code []byte
		for _, w := range c.words {
			code = binary.LittleEndian.AppendUint32(code, w)
		}
		in, err := Decode(tg, code)
		got := ""
		if err == nil {
			got = in.String()
		}
		if got != c.want || err == nil && in.Len != c.n {
			t.Errorf("%s %08x: got %q (len %d, %v), want %q (len %d)", c.cpu, c.words, got, in.Len, err, c.want, c.n)
		}
	}
}

// TestTableLayout checks that the flat per-processor table has exactly one
// row per opcode field value of every encoding.
func TestTableLayout(t *testing.T) {
	last := numTableEncodings - 1
	if n := encBase[last] + encOps[last]; n != numTableRows {
		t.Fatalf("encOps sum to %d rows, numTableRows is %d", n, numTableRows)
	}
}
