package isa

import (
	"encoding/binary"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// canonical describes the canonical words of one table encoding: the word
// of an opcode with every other field zero, and the flag bits tried one at
// a time on top of it.
type canonical struct {
	zero  func(op uint32) []uint32
	flags [][2]int // {word, bit}
	w1    []uint32 // further canonical words: the zero word with word 1 replaced
}

// canonicals are the canonical words of every table encoding (field
// layouts: AMD "Vega" ISA reference, chapter 12 "Microcode Formats").
// They are written here independently of the generator
// (internal/cmd/isagen), whose probes they check.
var canonicals = map[Encoding]canonical{
	EncSOP2: {zero: func(op uint32) []uint32 { return []uint32{0x80000000 | op<<23} }},
	EncSOPK: {zero: func(op uint32) []uint32 { return []uint32{0xb0000000 | op<<23} }},
	EncSOP1: {zero: func(op uint32) []uint32 { return []uint32{0xbe800000 | op<<8} }},
	EncSOPC: {zero: func(op uint32) []uint32 { return []uint32{0xbf000000 | op<<16} }},
	EncSOPP: {zero: func(op uint32) []uint32 { return []uint32{0xbf800000 | op<<16} }},
	// SMEM: imm[17] glc[16] nv[15] soe[14]. The zero word has imm = 0
	// (s_memtime, s_dcache_wb need it); the imm flag gives the offset form.
	EncSMEM: {zero: func(op uint32) []uint32 { return []uint32{0xc0000000 | op<<18, 0} },
		flags: [][2]int{{0, 17}, {0, 16}, {0, 15}, {0, 14}}},
	EncVOP2: {zero: func(op uint32) []uint32 { return []uint32{op << 25} }},
	EncVOP1: {zero: func(op uint32) []uint32 { return []uint32{0x7e000000 | op<<9} }},
	EncVOPC: {zero: func(op uint32) []uint32 { return []uint32{0x7c000000 | op<<17} }},
	// VOP3: abs[10:8] op_sel[14:11] clamp[15]; omod[60:59] neg[63:61].
	EncVOP3: {zero: func(op uint32) []uint32 { return []uint32{0xd0000000 | op<<16, 0} },
		flags: [][2]int{{0, 8}, {0, 9}, {0, 10}, {0, 11}, {0, 12}, {0, 13}, {0, 14}, {0, 15}, {1, 27}, {1, 28}, {1, 29}, {1, 30}, {1, 31}}},
	// VOP3P: neg_hi[10:8] op_sel[13:11] op_sel_hi2[14] clamp[15];
	// op_sel_hi[60:59] neg[63:61]. The zero word has op_sel_hi = 0; the
	// flags include LLVM's default op_sel_hi bits.
	EncVOP3P: {zero: func(op uint32) []uint32 { return []uint32{0xd3800000 | op<<16, 0} },
		flags: [][2]int{{0, 8}, {0, 9}, {0, 10}, {0, 11}, {0, 12}, {0, 13}, {0, 14}, {0, 15}, {1, 27}, {1, 28}, {1, 29}, {1, 30}, {1, 31}}},
	// DS: gds[16] acc[25].
	EncDS: {zero: func(op uint32) []uint32 { return []uint32{0xd8000000 | op<<17, 0} },
		flags: [][2]int{{0, 16}, {0, 25}}},
	// FLAT: lds[13] glc[16] slc[17] sc1[25]; nv[55]. FLAT has no saddr.
	EncFLAT: {zero: func(op uint32) []uint32 { return []uint32{0xdc000000 | op<<18, 0} },
		flags: [][2]int{{0, 13}, {0, 16}, {0, 17}, {0, 25}, {1, 23}}},
	// SCRATCH/GLOBAL: saddr[54:48] = 0x7f ("off").
	EncSCRATCH: {zero: func(op uint32) []uint32 { return []uint32{0xdc000000 | op<<18 | 1<<14, 0x7f << 16} },
		flags: [][2]int{{0, 13}, {0, 16}, {0, 17}, {0, 25}, {1, 23}}},
	EncGLOBAL: {zero: func(op uint32) []uint32 { return []uint32{0xdc000000 | op<<18 | 2<<14, 0x7f << 16} },
		flags: [][2]int{{0, 13}, {0, 16}, {0, 17}, {0, 25}, {1, 23}}},
	// MUBUF: offen[12] idxen[13] glc[14] scc[15] lds[16] slc[17]; acc[53] tfe[55].
	EncMUBUF: {zero: func(op uint32) []uint32 { return []uint32{0xe0000000 | op<<18, 0} },
		flags: [][2]int{{0, 12}, {0, 13}, {0, 14}, {0, 15}, {0, 16}, {0, 17}, {1, 21}, {1, 23}}},
	// MTBUF (dfmt = 1): offen[12] idxen[13] glc[14]; scc[53] slc[54] tfe[55].
	EncMTBUF: {zero: func(op uint32) []uint32 { return []uint32{0xe8000000 | op<<15 | 1<<19, 0} },
		flags: [][2]int{{0, 12}, {0, 13}, {0, 14}, {1, 21}, {1, 22}, {1, 23}}},
	// MIMG (dmask = 1): scc[7] unorm[12] glc[13] da[14] r128[15] tfe[16]
	// lwe[17] slc[25]; d16[63].
	EncMIMG: {zero: func(op uint32) []uint32 { return []uint32{0xf0000000 | (op&0x7f)<<18 | op>>7 | 1<<8, 0} },
		flags: [][2]int{{0, 7}, {0, 12}, {0, 13}, {0, 14}, {0, 15}, {0, 16}, {0, 17}, {0, 25}, {1, 31}}},
	EncVINTRP: {zero: func(op uint32) []uint32 { return []uint32{0xd4000000 | op<<16} }},
	// EXP (every source enabled): compr[10] done[11] vm[12].
	EncEXP: {zero: func(op uint32) []uint32 { return []uint32{0xc4000000 | 0xf, 0} },
		flags: [][2]int{{0, 10}, {0, 11}, {0, 12}}},
	// SDWA (src0 = 0xf9): clamp[45] s0[55] s1[63] (VOPC: sd[47]).
	// Also with dst_sel DWORD (gfx940's v_cvt_*_fp8/bf8_sdwa have it
	// fixed), with dst_unused UNUSED_PRESERVE, and with all selects DWORD.
	encVOP1SDWA: {zero: func(op uint32) []uint32 { return []uint32{0x7e0000f9 | op<<9, 0} },
		flags: [][2]int{{1, 13}, {1, 23}, {1, 31}}, w1: []uint32{0x0600, 0x1600, 0x06060600}},
	encVOP2SDWA: {zero: func(op uint32) []uint32 { return []uint32{0xf9 | op<<25, 0} },
		flags: [][2]int{{1, 13}, {1, 23}, {1, 31}}, w1: []uint32{0x0600, 0x1600, 0x06060600}},
	encVOPCSDWA: {zero: func(op uint32) []uint32 { return []uint32{0x7c0000f9 | op<<17, 0} },
		flags: [][2]int{{1, 15}, {1, 23}, {1, 31}}},
	// DPP (src0 = 0xfa): bound_ctrl[51].
	encVOP1DPP: {zero: func(op uint32) []uint32 { return []uint32{0x7e0000fa | op<<9, 0} },
		flags: [][2]int{{1, 19}}},
	encVOP2DPP: {zero: func(op uint32) []uint32 { return []uint32{0xfa | op<<25, 0} },
		flags: [][2]int{{1, 19}}},
	encVOPCDPP: {zero: func(op uint32) []uint32 { return []uint32{0x7c0000fa | op<<17, 0} },
		flags: [][2]int{{1, 19}}},
}

// canonicalWords returns every canonical word of every table encoding:
// for each opcode field value, the zero word and the zero word with each
// single flag bit set.
func canonicalWords() [][]uint32 {
	var ws [][]uint32
	for e := Encoding(0); e < numTableEncodings; e++ {
		c, ok := canonicals[e]
		if !ok {
			continue
		}
		for op := 0; op < encOps[e]; op++ {
			z := c.zero(uint32(op))
			ws = append(ws, z)
			for _, f := range c.flags {
				w := append([]uint32(nil), z...)
				w[f[0]] ^= 1 << f[1]
				ws = append(ws, w)
			}
			for _, w1 := range c.w1 {
				ws = append(ws, []uint32{z[0], w1})
			}
		}
	}
	return ws
}

// TestCanonicalEncodings checks that every table encoding has canonical
// words.
func TestCanonicalEncodings(t *testing.T) {
	for e := Encoding(0); e < numTableEncodings; e++ {
		if encOps[e] > 0 {
			if _, ok := canonicals[e]; !ok {
				t.Errorf("encoding %d has no canonical words", e)
			}
		}
	}
}

// TestLLVMCompleteness is the check that catches opcodes missing from the
// tables, which TestLLVMDifferential (drawing opcodes from the tables)
// cannot see: for each processor, the canonical words of every opcode
// value of every encoding (canonicalWords) are disassembled by one
// llvm-objdump-15 run, and every word LLVM decodes must decode here with
// the same text and length; words LLVM rejects must be rejected.
func TestLLVMCompleteness(t *testing.T) {
	tool := llvmObjdump(t)
	slots := canonicalWords()
	// Every processor LLVM 15 disassembles (gfx941/gfx942 use gfx940's rows).
	for _, cpu := range []string{"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940"} {
		t.Run(cpu, func(t *testing.T) {
			tg, err := LookupTarget(cpu)
			if err != nil {
				t.Fatal(err)
			}
			texts, lens := llvmDisasm(t, tool, cpu, slots)
			valid, bad := 0, 0
			missing := map[string]bool{}
			var buf [16]byte
			for i, s := range slots {
				buf = [16]byte{}
				for k, w := range s {
					binary.LittleEndian.PutUint32(buf[4*k:], w)
				}
				in, err := Decode(tg, buf[:])
				got := ""
				if err == nil {
					got = in.String()
				}
				want := texts[i]
				if s[0] == 0 && len(s) == 1 {
					// v_cndmask_b32_e32 v0, s0, v0, vcc: llvm-objdump
					// prints a run of zero bytes as "...", so the
					// all-zero slot has no text (the padding words
					// between the other slots decode as this).
					continue
				}
				if want == "<crash>" {
					t.Errorf("%08x: llvm-objdump-15 crashed", s)
					continue
				}
				if want != "" {
					valid++
				}
				if got == want && (want == "" || int(in.Len) == lens[i]) {
					continue
				}
				bad++
				if want != "" && err != nil {
					mn, _, _ := strings.Cut(want, " ")
					missing[mn] = true
				}
				if bad <= 20 {
					t.Errorf("%08x: llvm %q (%d), got %q (%d) err=%v", s, want, lens[i], got, in.Len, err)
				}
			}
			var ms []string
			for m := range missing {
				ms = append(ms, m)
			}
			sort.Strings(ms)
			t.Logf("%d canonical words, %d valid for LLVM, %d mismatches; not decoded: %v", len(slots), valid, bad, ms)
			if bad > 0 {
				t.Errorf("%d mismatches", bad)
			}
		})
	}
}

// TestFixedFlagOpcodes pins words of opcodes that exist only with a fixed
// flag (found by TestLLVMCompleteness; the texts are llvm-objdump-15's, ""
// where it prints <unknown>), so that they hold without LLVM installed.
func TestFixedFlagOpcodes(t *testing.T) {
	for _, c := range []struct {
		cpu   string
		words []uint32
		want  string
		op    Opcode
	}{
		// SMEM without an offset: imm must be 0.
		{"gfx90a", []uint32{0xc0900000, 0}, "s_memtime s[0:1]", S_MEMTIME},
		{"gfx90a", []uint32{0xc0940000, 0}, "s_memrealtime s[0:1]", S_MEMREALTIME},
		{"gfx900", []uint32{0xc0900200, 0}, "s_memtime s[8:9]", S_MEMTIME},
		// The words of emu/repro_h_test.go (llvm-mc-15 -mcpu=gfx90a).
		{"gfx90a", []uint32{0xc0900180, 0}, "s_memtime s[6:7]", S_MEMTIME},
		{"gfx90a", []uint32{0xc0940100, 0}, "s_memrealtime s[4:5]", S_MEMREALTIME},
		{"gfx90a", []uint32{0xc0920000, 0}, "", 0},
		{"gfx90a", []uint32{0xc0840000, 0}, "s_dcache_wb", S_DCACHE_WB},
		{"gfx90a", []uint32{0xc0800000, 0}, "s_dcache_inv", S_DCACHE_INV},
		{"gfx906", []uint32{0xc08c0000, 0}, "s_dcache_wb_vol", S_DCACHE_WB_VOL},
		{"gfx906", []uint32{0xc0880000, 0}, "s_dcache_inv_vol", S_DCACHE_INV_VOL},
		// Global wave sync: gds must be set.
		{"gfx90a", []uint32{0xd9330000, 2}, "ds_gws_init v2 gds", DS_GWS_INIT},
		{"gfx90a", []uint32{0xd93b0000, 2}, "ds_gws_barrier v2 gds", DS_GWS_BARRIER},
		{"gfx90a", []uint32{0xd93a0000, 2}, "", 0},
		{"gfx90a", []uint32{0xd9330000, 0x00000102}, "", 0},
		{"gfx90a", []uint32{0xd9350000, 0}, "ds_gws_sema_v gds", DS_GWS_SEMA_V},
		{"gfx90a", []uint32{0xd9370000, 2}, "ds_gws_sema_br v2 gds", DS_GWS_SEMA_BR},
		{"gfx90a", []uint32{0xd9390000, 0}, "ds_gws_sema_p gds", DS_GWS_SEMA_P},
		{"gfx90a", []uint32{0xd9310000, 0}, "ds_gws_sema_release_all gds", DS_GWS_SEMA_RELEASE_ALL},
		{"gfx908", []uint32{0xd93b0000, 2}, "ds_gws_barrier v2 gds", DS_GWS_BARRIER},
		{"gfx940", []uint32{0xdb33bd78, 8}, "ds_gws_init a8 offset:48504 gds", DS_GWS_INIT},
		{"gfx900", []uint32{0xd97f0000, 0x01000002}, "ds_ordered_count v1, v2 gds", DS_ORDERED_COUNT},
		{"gfx900", []uint32{0xd97f0000, 0x01000202}, "", 0},
		// gfx940 fp8/bf8 conversions: SDWA only with dst_sel DWORD;
		// dst_sel and dst_unused (ignored) are not printed.
		{"gfx940", []uint32{0x7fc8a8f9, 0x00001600}, "v_cvt_f32_fp8_sdwa v228, v0 src0_sel:BYTE_0", V_CVT_F32_FP8},
		{"gfx940", []uint32{0x7e32aef9, 0x00408600}, "v_cvt_pk_f32_bf8_sdwa v[25:26], v0 mul:4 src0_sel:BYTE_0", V_CVT_PK_F32_BF8},
		{"gfx940", []uint32{0x7fc8a8f9, 0x00000600}, "v_cvt_f32_fp8_sdwa v228, v0 src0_sel:BYTE_0", V_CVT_F32_FP8},
		{"gfx940", []uint32{0x7fc8a8f9, 0x00000500}, "", 0},
		// buffer_store_lds_dword: lds must be set; it prints before glc.
		{"gfx906", []uint32{0xe0f54083, 0x20100240}, "buffer_store_lds_dword s[64:67], s32 offset:131 lds glc", BUFFER_STORE_LDS_DWORD},
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
		if got != c.want || err == nil && (in.Op != c.op || int(in.Len) != 4*len(c.words)) {
			t.Errorf("%s %08x: got %q (%v, len %d, %v), want %q (%v)", c.cpu, c.words, got, in.Op, in.Len, err, c.want, c.op)
		}
	}
}

// TestLLVMAbsentOpcodes complements TestLLVMCompleteness with random
// operand fields: for each processor, every opcode value of every encoding
// that has no table row gets absentWords random words (randomWord), all
// disassembled by one llvm-objdump-15 run; LLVM must reject them all (or
// decode them as another encoding exactly as Decode does). It found the
// gfx940 v_cvt_*_fp8/bf8 SDWA forms, which exist only with dst_sel DWORD.
func TestLLVMAbsentOpcodes(t *testing.T) {
	tool := llvmObjdump(t)
	absentWords := 10
	if testing.Short() {
		absentWords = 2
	}
	for _, cpu := range []string{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx940"} {
		t.Run(cpu, func(t *testing.T) {
			tg, err := LookupTarget(cpu)
			if err != nil {
				t.Fatal(err)
			}
			tab := tableFor(tg.Proc)
			r := rand.New(rand.NewSource(int64(tg.Proc) + 1000))
			var slots [][]uint32
			for e := Encoding(1); e < numTableEncodings; e++ {
				for op := 0; op < encOps[e]; op++ {
					if tab.idx[encBase[e]+op] != 0 {
						continue
					}
					for k := 0; k < absentWords; k++ {
						slots = append(slots, randomWord(r, e, uint32(op)))
					}
				}
			}
			texts, lens := llvmDisasm(t, tool, cpu, slots)
			bad, valid := 0, 0
			for i, s := range slots {
				var buf [16]byte
				for k, w := range s {
					if k < 4 {
						binary.LittleEndian.PutUint32(buf[4*k:], w)
					}
				}
				in, err := Decode(tg, buf[:])
				got := ""
				if err == nil {
					got = in.String()
				}
				want := texts[i]
				if want == "<crash>" {
					continue
				}
				if want != "" {
					valid++
				}
				if got == want && (want == "" || int(in.Len) == lens[i]) {
					continue
				}
				bad++
				if bad <= 20 {
					t.Errorf("%08x: llvm %q (%d), got %q (%d) err=%v", s, want, lens[i], got, in.Len, err)
				}
			}
			t.Logf("%d words of absent opcode values, %d valid for LLVM (as other encodings), %d mismatches", len(slots), valid, bad)
		})
	}
}
