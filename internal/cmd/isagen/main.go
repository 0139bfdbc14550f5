// Command isagen generates the isa package's GFX9 opcode tables by probing
// LLVM's disassembler (llvm-objdump-15) across the encoding space.
//
// For every encoding family, processor and opcode field value it builds
// instruction words whose register fields hold distinct "marker" values,
// disassembles them, and learns from the text: the mnemonic, which encoding
// field each printed operand comes from and how many registers it spans, how
// immediates of each source are typed (from how LLVM prints a few probe
// constants), and, for each modifier bit, whether LLVM prints it, ignores it
// or rejects the encoding. Only these learned facts are written out; the raw
// probe output is not kept.
//
// Usage (from the isa package, via go generate):
//
//	go run ../internal/cmd/isagen -o tables_gfx9.go
//
// It needs llvm-objdump-15 on PATH (or -objdump). Its output is committed, so
// building and testing rocpu never needs LLVM.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// procs are the GFX9 processors, in the order of the isa package's Proc
// constants (ProcGFX900 = 0 ...). LLVM 15 cannot disassemble gfx941 and
// gfx942 ("Disassembly not yet supported for subtarget"); they implement the
// gfx940 instruction set, so their rows are gfx940's (bits 9 and 10 are set
// wherever bit 8 is).
var procs = []string{"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940"}

// Marker register numbers. Every register field of a probe holds one of
// these, so the printed register tells which field an operand came from.
const (
	mDst  = 8   // vdst / sdst / sdata
	mSrc0 = 24  // src0 / vaddr / ssrc0 / addr
	mSrc1 = 40  // src1 / vsrc1 / data0 / data
	mSrc2 = 56  // src2 / data1
	mBase = 16  // sbase / srsrc / saddr (a register index; sbase is stored /2)
	mSOff = 44  // soffset (MUBUF/MTBUF/SMEM)
	mSDst = 100 // VOP3B sdst
	mSrc3 = 72  // EXP vsrc3
)

const nop = 0xbf800000 // s_nop 0, pads each probe slot

// dstFixed names the SDWA canonical word with dst_sel DWORD; rows found
// with it get modPrint bit sdwaDstFixedBit.
const (
	dstFixed        = "DSTFIXED"
	sdwaDstFixedBit = 1 << 26
)

type probe struct {
	words []uint32
	text  string // disassembly; "" when LLVM rejected the encoding
	n     int    // bytes LLVM decoded
}

// family describes how to probe one encoding family.
type fprobe struct {
	name string // isa Field constant suffix
	set  func(w []uint32)
}

type family struct {
	enc    string                // isa Encoding constant suffix
	encGo  string                // Go constant naming the table encoding, when not "Enc"+enc
	nops   int                   // opcode field values
	zero   func(op int) []uint32 // every register field zero
	fields []fprobe
	mods   []mod    // single-bit/field modifier probes, in isa order
	lits   []litSrc // sources whose immediate type is probed
	alts   []alt    // alternative operand layouts (FLAT saddr, ...)
	canon  []alt    // extra canonical zero words (after the modifier probes), tried when the zero word is rejected
	e32    bool     // mnemonics end in _e32
	vop3   bool
	mimg   bool // probe the data register count per dmask/tfe/d16 (mimgCounts)
}

// mimgCount returns the MIMG probe words for data count index k: dmask
// with k&3+1 low bits set, tfe (bit 16) if k&4, d16 (bit 63) if k&8.
func mimgCount(base []uint32, k int) []uint32 {
	w := append([]uint32(nil), base...)
	w[0] = w[0]&^(0xf<<8|1<<16) | uint32(1<<(k&3+1)-1)<<8
	if k&4 != 0 {
		w[0] |= 1 << 16
	}
	if k&8 != 0 {
		w[1] |= 1 << 31
	}
	return w
}

type mod struct {
	name string
	set  func(w []uint32) // modifies a copy of the base words
}

type litSrc struct {
	field string
	set   func(w []uint32, v uint32) []uint32 // v: 9-bit source value; may append literal
}

type alt struct {
	name string
	set  func(w []uint32)
}

func bit(word, b int) mod {
	return mod{fmt.Sprintf("w%db%d", word, b), func(w []uint32) { w[word] ^= 1 << b }}
}

func named(name string, word, b int) mod {
	m := bit(word, b)
	m.name = name
	return m
}

func fld(name string, word, shift int, val uint32) fprobe {
	return fprobe{name, func(w []uint32) { w[word] |= val << shift }}
}

// flatAlts are the FLAT layouts other than the base: index-1 of
// glc<<2 | lds<<1 | saddr-used.
func flatAlts() []alt {
	var as []alt
	for i := 1; i < 8; i++ {
		i := i
		as = append(as, alt{fmt.Sprintf("flat%d", i), func(w []uint32) {
			if i&1 != 0 {
				w[1] = w[1]&^(0x7f<<16) | mBase<<16
			}
			if i&2 != 0 {
				w[0] |= 1 << 13
			}
			if i&4 != 0 {
				w[0] |= 1 << 16
			}
		}})
	}
	return as
}

func families() []family {
	var fs []family
	sopLits := []litSrc{{"Src0", func(w []uint32, v uint32) []uint32 { w[0] = w[0]&^0xff | v&0xff; return w }},
		{"Src1", func(w []uint32, v uint32) []uint32 { w[0] = w[0]&^0xff00 | (v&0xff)<<8; return w }}}
	// SOP2: 10 op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]
	fs = append(fs, family{enc: "SOP2", nops: 0x2f + 1,
		zero:   func(op int) []uint32 { return []uint32{0x80000000 | uint32(op)<<23} },
		fields: []fprobe{fld("Dst", 0, 16, mDst), fld("Src0", 0, 0, mSrc0), fld("Src1", 0, 8, mSrc1)},
		lits:   sopLits,
	})
	// SOPK: 1011 op[27:23] sdst[22:16] simm16
	fs = append(fs, family{enc: "SOPK", nops: 32,
		zero:   func(op int) []uint32 { return []uint32{0xb0000000 | uint32(op)<<23} },
		fields: []fprobe{fld("Dst", 0, 16, mDst), fld("SImm16", 0, 0, 0x0803)},
	})
	// SOP1: 101111101 sdst[22:16] op[15:8] ssrc0[7:0]
	fs = append(fs, family{enc: "SOP1", nops: 256,
		zero:   func(op int) []uint32 { return []uint32{0xbe800000 | uint32(op)<<8} },
		fields: []fprobe{fld("Dst", 0, 16, mDst), fld("Src0", 0, 0, mSrc0)},
		lits:   sopLits[:1],
	})
	// SOPC: 101111110 op[22:16] ssrc1 ssrc0
	fs = append(fs, family{enc: "SOPC", nops: 128,
		zero:   func(op int) []uint32 { return []uint32{0xbf000000 | uint32(op)<<16} },
		fields: []fprobe{fld("Src0", 0, 0, mSrc0), fld("Src1", 0, 8, mSrc1)},
		lits:   sopLits,
	})
	// SOPP: 101111111 op[22:16] simm16
	fs = append(fs, family{enc: "SOPP", nops: 128,
		zero: func(op int) []uint32 { return []uint32{0xbf800000 | uint32(op)<<16} },
		alts: []alt{{"nonzero", func(w []uint32) { w[0] |= 0x803 }}},
	})
	// SMEM: 110000 op[25:18] imm[17] glc[16] nv[15] soe[14] sdata[12:6] sbase[5:0]; offset[20:0] / soffset[31:25]
	fs = append(fs, family{enc: "SMEM", nops: 256,
		zero:   func(op int) []uint32 { return []uint32{0xc0000000 | uint32(op)<<18 | 1<<17, 0} },
		fields: []fprobe{fld("Dst", 0, 6, mDst), fld("Base", 0, 0, mBase/2), fld("Offset", 1, 0, 0x1c)},
		// IMM toggles the imm bit: s_memtime, s_memrealtime and
		// s_dcache_* exist only with imm = 0 (they have no offset).
		mods: []mod{named("GLC", 0, 16), named("NV", 0, 15), named("IMM", 0, 17)},
		alts: []alt{{"soe", func(w []uint32) { w[0] |= 1<<14 | 1<<17; w[1] |= mSOff << 25 }},
			{"sgproff", func(w []uint32) { w[0] &^= 1 << 17; w[1] = mSOff }},
			{"soeonly", func(w []uint32) { w[0] = w[0]&^(1<<17) | 1<<14; w[1] = mSOff << 25 }}},
	})
	vsrc := func(shift int, word int) func(w []uint32, v uint32) []uint32 {
		return func(w []uint32, v uint32) []uint32 {
			w[word] = w[word]&^(0x1ff<<shift) | v<<shift
			if v == 255 {
				w = append(w, 0x00013800)
			}
			return w
		}
	}
	// VOP2: 0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]
	fs = append(fs, family{enc: "VOP2", nops: 64, e32: true,
		zero:   func(op int) []uint32 { return []uint32{uint32(op) << 25} },
		fields: []fprobe{fld("Dst", 0, 17, mDst), fld("Src0", 0, 0, 256+mSrc0), fld("Src1", 0, 9, mSrc1)},
		lits:   []litSrc{{"Src0", vsrc(0, 0)}},
	})
	// VOP1: 0111111 vdst[24:17] op[16:9] src0[8:0]
	fs = append(fs, family{enc: "VOP1", nops: 256, e32: true,
		zero:   func(op int) []uint32 { return []uint32{0x7e000000 | uint32(op)<<9} },
		fields: []fprobe{fld("Dst", 0, 17, mDst), fld("Src0", 0, 0, 256+mSrc0)},
		lits:   []litSrc{{"Src0", vsrc(0, 0)}},
	})
	// VOPC: 0111110 op[24:17] vsrc1[16:9] src0[8:0]
	fs = append(fs, family{enc: "VOPC", nops: 256, e32: true,
		zero:   func(op int) []uint32 { return []uint32{0x7c000000 | uint32(op)<<17} },
		fields: []fprobe{fld("Src0", 0, 0, 256+mSrc0), fld("Src1", 0, 9, mSrc1)},
		lits:   []litSrc{{"Src0", vsrc(0, 0)}},
	})
	vsrc3 := func(shift int) func(w []uint32, v uint32) []uint32 {
		return func(w []uint32, v uint32) []uint32 {
			w[1] = w[1]&^(0x1ff<<shift) | v<<shift
			return w
		}
	}
	v3fields := []fprobe{fld("Dst", 0, 0, mDst), fld("Src0", 1, 0, 256+mSrc0), fld("Src1", 1, 9, 256+mSrc1), fld("Src2", 1, 18, 256+mSrc2)}
	// VOP3: 110100 op[25:16] clamp[15] opsel[14:11] abs[10:8] vdst[7:0]; neg[31:29] omod[28:27] src2 src1 src0
	// Opcodes 0x380-0x3ff of the 10-bit field would make the word a VOP3P
	// (bits 31:23 = 0x1a7) instruction; they are probed there.
	fs = append(fs, family{enc: "VOP3", nops: 0x380, vop3: true,
		zero:   func(op int) []uint32 { return []uint32{0xd0000000 | uint32(op)<<16, 0} },
		fields: append(v3fields[:4:4], fld("SDst", 0, 8, mSDst)),
		mods: []mod{named("ABS0", 0, 8), named("ABS1", 0, 9), named("ABS2", 0, 10),
			named("OPSEL0", 0, 11), named("OPSEL1", 0, 12), named("OPSEL2", 0, 13), named("OPSEL3", 0, 14),
			named("CLAMP", 0, 15), named("NEG0", 1, 29), named("NEG1", 1, 30), named("NEG2", 1, 31),
			named("OMOD", 1, 27)},
		lits: []litSrc{{"Src0", vsrc3(0)}, {"Src1", vsrc3(9)}, {"Src2", vsrc3(18)}},
	})
	// VOP3P: 110100111 op[22:16] clamp[15] opsel_hi2[14] opsel[13:11] neg_hi[10:8] vdst; neg[31:29] opsel_hi[28:27] src2 src1 src0
	fs = append(fs, family{enc: "VOP3P", nops: 128, vop3: true,
		zero:   func(op int) []uint32 { return []uint32{0xd3800000 | uint32(op)<<16 | 1<<14, 3 << 27} },
		fields: v3fields,
		mods: []mod{named("NEGHI0", 0, 8), named("NEGHI1", 0, 9), named("NEGHI2", 0, 10),
			named("OPSEL0", 0, 11), named("OPSEL1", 0, 12), named("OPSEL2", 0, 13), named("OPSELHI2", 0, 14),
			named("CLAMP", 0, 15), named("NEG0", 1, 29), named("NEG1", 1, 30), named("NEG2", 1, 31),
			named("OPSELHI0", 1, 27), named("OPSELHI1", 1, 28)},
		lits: []litSrc{{"Src0", vsrc3(0)}, {"Src1", vsrc3(9)}, {"Src2", vsrc3(18)}},
	})
	// DS: 110110 acc[25] op[24:17] gds[16] offset1[15:8] offset0[7:0]; vdst[31:24] data1[23:16] data0[15:8] addr[7:0]
	fs = append(fs, family{enc: "DS", nops: 256,
		zero:   func(op int) []uint32 { return []uint32{0xd8000000 | uint32(op)<<17, 0} },
		fields: []fprobe{fld("Dst", 1, 24, mDst), fld("Src0", 1, 0, mSrc0), fld("Src1", 1, 8, mSrc1), fld("Src2", 1, 16, mSrc2)},
		mods: []mod{named("GDS", 0, 16), named("ACC", 0, 25),
			{"OFFSET", func(w []uint32) { w[0] |= 0x3412 }}},
	})
	// FLAT: 110111 op[24:18] slc[17] glc[16] seg[15:14] lds[13] offset[12:0]; vdst[31:24] nv[23] saddr[22:16] data[15:8] addr[7:0]
	for seg, name := range []string{"FLAT", "SCRATCH", "GLOBAL"} {
		seg := seg
		off := uint32(0x7f) // saddr "off" for GLOBAL/SCRATCH; FLAT has no saddr and wants 0
		if seg == 0 {
			off = 0
		}
		fs = append(fs, family{enc: name, nops: 128,
			zero: func(op int) []uint32 {
				return []uint32{0xdc000000 | uint32(op)<<18 | uint32(seg)<<14, off << 16}
			},
			fields: []fprobe{fld("Dst", 1, 24, mDst), fld("Src0", 1, 0, mSrc0), fld("Src1", 1, 8, mSrc1)},
			mods: []mod{named("GLC", 0, 16), named("SLC", 0, 17), named("NV", 1, 23), named("SC1", 0, 25),
				{"OFFSET", func(w []uint32) { w[0] |= 0x10 }}},
			alts: flatAlts(),
		})
	}
	// MUBUF: 111000 op[24:18] slc[17] lds[16] scc[15] glc[14] idxen[13] offen[12] offset[11:0]; soffset[31:24] tfe/acc[23] srsrc[20:16] vdata[15:8] vaddr[7:0]
	fs = append(fs, family{enc: "MUBUF", nops: 128,
		zero:   func(op int) []uint32 { return []uint32{0xe0000000 | uint32(op)<<18, 0} },
		fields: []fprobe{fld("Dst", 1, 8, mDst), fld("Base", 1, 16, mBase/4), fld("SOff", 1, 24, mSOff)},
		mods: []mod{named("GLC", 0, 14), named("SLC", 0, 17), named("LDS", 0, 16), named("SCC", 0, 15),
			named("TFE", 1, 23), named("ACC", 1, 21), named("OFFEN", 0, 12), named("IDXEN", 0, 13),
			{"OFFSET", func(w []uint32) { w[0] |= 0x10 }}, {"VADDR", func(w []uint32) { w[1] |= mSrc0 }}},
		alts: []alt{{"lds", func(w []uint32) { w[0] |= 1 << 16 }}},
	})
	// MTBUF: 111010 nfmt[25:23] dfmt[22:19] op[18:15] glc[14] idxen[13] offen[12] offset[11:0];
	// soffset[31:24] tfe[23] slc[22] srsrc[20:16] vdata[15:8] vaddr[7:0]. Probed with dfmt=1,
	// nfmt=0 (the format LLVM does not print).
	fs = append(fs, family{enc: "MTBUF", nops: 16,
		zero:   func(op int) []uint32 { return []uint32{0xe8000000 | uint32(op)<<15 | 1<<19, 0} },
		fields: []fprobe{fld("Dst", 1, 8, mDst), fld("Base", 1, 16, mBase/4), fld("SOff", 1, 24, mSOff)},
		mods: []mod{named("GLC", 0, 14), named("SLC", 1, 22), named("TFE", 1, 23), named("OFFEN", 0, 12), named("IDXEN", 0, 13),
			{"OFFSET", func(w []uint32) { w[0] |= 0x10 }}, {"VADDR", func(w []uint32) { w[1] |= mSrc0 }}, named("SCC", 1, 21)},
	})
	// MIMG: 111100 slc[25] op[24:18] lwe[17] tfe/acc[16] r128/a16[15] da[14] glc[13] unorm[12]
	// dmask[11:8] scc[7] op7[0]; d16[63] ssamp[57:53] srsrc[52:48] vdata[47:40] vaddr[39:32]
	// (LLVM MIMGe_gfx6789 / MIMGe_gfx90a). Probed with dmask 0x1; the data
	// register count for other dmask/tfe/d16 values is probed separately
	// (mimgCounts), since LLVM's convertMIMGInst derives it from them.
	fs = append(fs, family{enc: "MIMG", nops: 256, mimg: true,
		zero: func(op int) []uint32 { return []uint32{0xf0000000 | uint32(op&0x7f)<<18 | uint32(op>>7) | 1<<8, 0} },
		fields: []fprobe{fld("Dst", 1, 8, mDst), fld("Src0", 1, 0, mSrc0), fld("Base", 1, 16, mBase/4),
			fld("Src1", 1, 21, mSrc1/4)},
		mods: []mod{named("UNORM", 0, 12), named("GLC", 0, 13), named("DA", 0, 14), named("R128", 0, 15),
			named("TFE", 0, 16), named("LWE", 0, 17), named("SLC", 0, 25), named("SCC", 0, 7), named("D16", 1, 31),
			{"W0UNUSED", func(w []uint32) { w[0] |= 0x7e }}, {"W1UNUSED", func(w []uint32) { w[1] |= 0x1f << 26 }}},
	})
	// VINTRP: 110101 vdst[25:18] op[17:16] attr[15:10] attrchan[9:8] vsrc[7:0]
	// (gfx900-gfx90c; LLVM rejects the family on gfx90a and gfx940).
	fs = append(fs, family{enc: "VINTRP", nops: 4, e32: true,
		zero:   func(op int) []uint32 { return []uint32{0xd4000000 | uint32(op)<<16} },
		fields: []fprobe{fld("Dst", 0, 18, mDst), fld("Src0", 0, 0, mSrc0), fld("SImm16", 0, 8, 0x0d)},
	})
	// EXP: 110001 vm[12] done[11] compr[10] target[9:4] en[3:0]; vsrc3..vsrc0 bytes
	// (gfx900-gfx90c). Probed with every source enabled and target mrt0.
	fs = append(fs, family{enc: "EXP", nops: 1,
		zero: func(op int) []uint32 { return []uint32{0xc4000000 | 0xf, 0} },
		fields: []fprobe{fld("Src0", 1, 0, mSrc0), fld("Src1", 1, 8, mSrc1), fld("Src2", 1, 16, mSrc2),
			fld("Src3", 1, 24, mSrc3)},
		mods: []mod{named("DONE", 0, 11), named("COMPR", 0, 10), named("VM", 0, 12)},
	})
	// SDWA (src0 = 0xF9) and DPP (src0 = 0xFA) forms of VOP1/VOP2/VOPC.
	// SDWA dword: src0[7:0] dst_sel[10:8] dst_unused[12:11] clamp[13]
	// omod[15:14] src0_sel[18:16] sext0[19] neg0[20] abs0[21] s0[23]
	// src1_sel[26:24] sext1[27] neg1[28] abs1[29] s1[31]; VOPC: sdst[14:8] sd[15].
	// DPP dword: src0[7:0] dpp_ctrl[16:8] bound_ctrl[19] neg0[20] abs0[21]
	// neg1[22] abs1[23] bank_mask[27:24] row_mask[31:28].
	type vopForm struct {
		name string
		nops int
		zero func(op int) uint32
		flds []fprobe
	}
	forms := []vopForm{
		{"VOP1", 256, func(op int) uint32 { return 0x7e000000 | uint32(op)<<9 }, []fprobe{fld("Dst", 0, 17, mDst)}},
		{"VOP2", 64, func(op int) uint32 { return uint32(op) << 25 }, []fprobe{fld("Dst", 0, 17, mDst), fld("Src1", 0, 9, mSrc1)}},
		{"VOPC", 256, func(op int) uint32 { return 0x7c000000 | uint32(op)<<17 }, []fprobe{fld("Src1", 0, 9, mSrc1)}},
	}
	for _, vf := range forms {
		vf := vf
		sdwaFields := append(append([]fprobe{}, vf.flds...), fld("Src0", 1, 0, mSrc0), fld("Src0Sel", 1, 16, 5), fld("Src1Sel", 1, 24, 5))
		sdwaMods := []mod{named("SEXT0", 1, 19), named("NEG0", 1, 20), named("ABS0", 1, 21), named("S0", 1, 23),
			named("SEXT1", 1, 27), named("NEG1", 1, 28), named("ABS1", 1, 29), named("S1", 1, 31)}
		if vf.name == "VOPC" {
			sdwaFields = append(sdwaFields, fprobe{"SDst", func(w []uint32) { w[1] |= 1<<15 | mSDst<<8 }})
		} else {
			sdwaFields = append(sdwaFields, fld("DstSel", 1, 8, 5), fld("DstUnused", 1, 11, 1))
			sdwaMods = append(sdwaMods, named("CLAMP", 1, 13), named("OMOD", 1, 14))
		}
		sdwa := family{enc: vf.name, encGo: "enc" + vf.name + "SDWA", nops: vf.nops,
			zero:   func(op int) []uint32 { return []uint32{vf.zero(op) | 0xf9, 0} },
			fields: sdwaFields,
			mods:   sdwaMods,
		}
		if vf.name != "VOPC" {
			// gfx940's v_cvt_*_fp8/bf8 SDWA forms have dst_sel fixed to
			// DWORD; neither it nor dst_unused (ignored) is printed.
			sdwa.canon = []alt{{dstFixed, func(w []uint32) { w[1] = w[1]&^0x700 | 6<<8 }}}
		}
		fs = append(fs, sdwa)
		fs = append(fs, family{enc: vf.name, encGo: "enc" + vf.name + "DPP", nops: vf.nops,
			zero:   func(op int) []uint32 { return []uint32{vf.zero(op) | 0xfa, 0} },
			fields: append(append([]fprobe{}, vf.flds...), fld("Src0", 1, 0, mSrc0)),
			mods: []mod{named("BOUND", 1, 19), named("NEG0", 1, 20), named("ABS0", 1, 21), named("NEG1", 1, 22), named("ABS1", 1, 23),
				{"CTRL64", func(w []uint32) { w[1] |= 0x150 << 8 }}},
		})
	}
	return fs
}

var (
	objdump = flag.String("objdump", "llvm-objdump-15", "llvm-objdump to probe")
	out     = flag.String("o", "tables_gfx9.go", "output file")
	lineRE  = regexp.MustCompile(`^\s+(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+)`)
)

func main() {
	flag.Parse()
	fams := families()
	// results[proc][fam][op] -> probes
	type opProbes struct {
		zero     probe
		fields   []probe
		zeroMask uint32
		base     probe
		mods     []probe
		lits     [][3]probe // per lit source: inline 240, inline 248, literal
		alts     []probe
		counts   []probe // MIMG: mimgCount probes
		canon    []probe // phase 0: the zero word with each modifier probe applied
		modSet   uint32  // modifier probe applied to the zero word (canonical fallback), or 0
		canonAlt string  // family canon variant used as the zero word, or ""
	}
	results := make([][][]opProbes, len(procs))
	for pi, cpu := range procs {
		// Phase 0: does the opcode exist? Besides the zero word (every
		// register field zero), the zero word with each single modifier
		// probe applied (gds, glc, SMEM imm, ...) is tried: some opcodes
		// exist only with a fixed flag (ds_gws_* need gds; s_memtime and
		// s_dcache_* need imm = 0), and random probing of the other fields
		// never finds them. When the zero word is rejected, the first
		// canonical word LLVM decodes becomes the opcode's zero word, and
		// its modifier probe is recorded (opDesc.ModSet).
		var all []*probe
		results[pi] = make([][]opProbes, len(fams))
		for fi, f := range fams {
			results[pi][fi] = make([]opProbes, f.nops)
			for op := 0; op < f.nops; op++ {
				r := &results[pi][fi][op]
				r.zero.words = f.zero(op)
				all = append(all, &r.zero)
				for _, m := range f.mods {
					w := append([]uint32(nil), r.zero.words...)
					m.set(w)
					r.canon = append(r.canon, probe{words: w})
				}
				for _, c := range f.canon {
					w := append([]uint32(nil), r.zero.words...)
					c.set(w)
					r.canon = append(r.canon, probe{words: w})
				}
				for k := range r.canon {
					all = append(all, &r.canon[k])
				}
			}
		}
		if err := run(cpu, all); err != nil {
			log.Fatal(err)
		}
		// Phase 1: which register fields does each opcode use? A field
		// whose marker makes LLVM reject the word must be zero.
		all = all[:0]
		for fi, f := range fams {
			for op := 0; op < f.nops; op++ {
				r := &results[pi][fi][op]
				if z := r.zero; z.text == "" || z.n < 4*len(z.words) {
					for k, c := range r.canon {
						if c.text != "" && c.n == 4*len(c.words) {
							r.zero = c
							if k < len(f.mods) {
								r.modSet = 1 << k
							} else {
								r.canonAlt = f.canon[k-len(f.mods)].name
							}
							break
						}
					}
				}
				r.zero = probe{words: r.zero.words}
				all = append(all, &r.zero)
				for _, fp := range f.fields {
					w := append([]uint32(nil), r.zero.words...)
					fp.set(w)
					r.fields = append(r.fields, probe{words: w})
				}
				for k := range r.fields {
					all = append(all, &r.fields[k])
				}
			}
		}
		if err := run(cpu, all); err != nil {
			log.Fatal(err)
		}
		// Phase 2: the base probe has every used field at its marker.
		all = all[:0]
		for fi, f := range fams {
			for op := 0; op < f.nops; op++ {
				r := &results[pi][fi][op]
				r.base.words = append([]uint32(nil), r.zero.words...)
				if r.zero.text == "" {
					continue
				}
				for k, fp := range f.fields {
					p := r.fields[k]
					switch {
					case p.text == "" || p.n != r.zero.n:
						if fp.name != "SDst" { // VOP3A: modifier bits, checked as modifiers
							r.zeroMask |= 1 << fieldIndex(fp.name)
						}
					case p.text != r.zero.text:
						if fp.name == "SDst" && !strings.Contains(p.text, "s[100:101]") && !strings.Contains(p.text, "s100") {
							continue // VOP3A: these bits are abs/op_sel
						}
						fp.set(r.base.words)
					}
				}
				all = append(all, &r.base)
				for _, m := range f.mods {
					w := append([]uint32(nil), r.base.words...)
					m.set(w)
					r.mods = append(r.mods, probe{words: w})
				}
				for _, l := range f.lits {
					var t [3]probe
					for k, v := range []uint32{240, 248, 255} {
						t[k].words = l.set(append([]uint32(nil), r.base.words...), v)
					}
					r.lits = append(r.lits, t)
				}
				// Alternative layouts start from every field that may be
				// non-zero, since a layout can print a field the base omits.
				altBase := append([]uint32(nil), r.zero.words...)
				for k, fp := range f.fields {
					if p := r.fields[k]; p.text != "" && p.n == r.zero.n && fp.name != "SDst" {
						fp.set(altBase)
					}
				}
				for _, a := range f.alts {
					w := append([]uint32(nil), altBase...)
					a.set(w)
					r.alts = append(r.alts, probe{words: w})
				}
				if f.mimg {
					for k := 0; k < 16; k++ {
						r.counts = append(r.counts, probe{words: mimgCount(r.base.words, k)})
					}
				}
			}
			for op := range results[pi][fi] {
				r := &results[pi][fi][op]
				for k := range r.mods {
					all = append(all, &r.mods[k])
				}
				for k := range r.lits {
					for j := range r.lits[k] {
						all = append(all, &r.lits[k][j])
					}
				}
				for k := range r.alts {
					all = append(all, &r.alts[k])
				}
				for k := range r.counts {
					all = append(all, &r.counts[k])
				}
			}
		}
		if err := run(cpu, all); err != nil {
			log.Fatal(err)
		}
		log.Printf("%s: %d probes", cpu, len(all))
	}

	// Build entries.
	g := newGen()
	for fi, f := range fams {
		for op := 0; op < f.nops; op++ {
			for pi := range procs {
				r := results[pi][fi][op]
				if r.base.text == "" || r.base.n < 4*len(r.base.words) {
					continue
				}
				enc := "Enc" + f.enc
				if f.encGo != "" {
					enc = f.encGo
				}
				e := entry{enc: enc, code: op, zeroMask: r.zeroMask, modSet: r.modSet}
				if r.canonAlt == dstFixed {
					// dst_sel holds a fixed non-zero value; the decoder
					// checks it (sdwaDstFixed), not the zero mask.
					e.modPrint |= sdwaDstFixedBit
					e.zeroMask &^= 1<<fieldIndex("DstSel") | 1<<fieldIndex("DstUnused")
				}
				mn, toks := split(r.base.text)
				base := mn
				suffix := ""
				for _, s := range []string{"_e32", "_e64", "_sdwa", "_dpp"} {
					if strings.HasSuffix(mn, s) {
						base, suffix = strings.TrimSuffix(mn, s), s
					}
				}
				e.name = base
				e.suffix = suffix
				e.ops = g.template(f, base, toks, r.lits, r.base.n)
				if f.enc == "VOP3" && strings.Contains(e.ops, "TypeInterpAttr") {
					// The attribute field is not a register: only its high
					// bit (src0 bit 8) is checked, by the decoder.
					e.zeroMask &^= 1 << fieldIndex("Src0")
					if strings.HasSuffix(r.base.text, " high") || strings.Contains(r.base.text, " high ") {
						e.modPrint |= 1 << 27 // vop3High: the opcode has the high operand
					}
				}
				if strings.Contains(r.base.text, "op_sel_hi:") {
					e.modPrint |= 1 << 31 // op_sel_hi defaults to 0 (mad_mix, fma_mix)
				}
				for k, m := range r.mods {
					if (f.vop3 || strings.HasSuffix(f.encGo, "DPP")) && f.mods[k].name[:3] == "NEG" && len(f.mods[k].name) == 4 && strings.Contains(m.text, "sext(") {
						e.modPrint |= 1 << (28 + int(f.mods[k].name[3]-'0')) // neg prints as sext()
					}
					switch {
					case m.text == "" || m.n != r.base.n:
						e.modInvalid |= 1 << k
					case m.text != r.base.text:
						e.modPrint |= 1 << k
					}
					_ = m
				}
				for _, a := range r.alts {
					if a.text == "" || a.n < 4*len(a.words) {
						e.alts = append(e.alts, "")
						continue
					}
					_, at := split(a.text)
					e.alts = append(e.alts, g.template(f, base, at, nil, a.n))
				}
				if f.mimg {
					e.counts = mimgCounts(r.counts)
				}
				g.add(pi, e)
			}
		}
	}
	// hwreg(...) names: s_getreg_b32 s0, hwreg(id) for every id.
	hw := map[string]uint32{} // "id\tname" -> processor mask
	for pi, cpu := range procs {
		var ps []*probe
		for id := uint32(0); id < 64; id++ {
			ps = append(ps, &probe{words: []uint32{0xb8800000 | 31<<11 | id}})
		}
		if err := run(cpu, ps); err != nil {
			log.Fatal(err)
		}
		for id, p := range ps {
			if i := strings.Index(p.text, "hwreg("); i >= 0 {
				name := strings.TrimSuffix(p.text[i+len("hwreg("):], ")")
				if !strings.HasPrefix(name, "HW_REG_") {
					continue
				}
				key := fmt.Sprintf("%d\t%s", id, name)
				hw[key] |= 1 << pi
				if cpu == "gfx940" {
					hw[key] |= 3 << (pi + 1)
				}
			}
		}
	}
	g.hwregs = hw
	// MTBUF format:[...] text for every dfmt/nfmt (tbuffer_load_format_x).
	{
		var ps []*probe
		for fm := uint32(0); fm < 128; fm++ {
			ps = append(ps, &probe{words: []uint32{0xe8000000 | fm<<19, 0x00000800}})
		}
		if err := run("gfx900", ps); err != nil {
			log.Fatal(err)
		}
		for _, p := range ps {
			t := ""
			if i := strings.Index(p.text, "format:"); i >= 0 {
				t = p.text[i:]
				if j := strings.Index(t, " "); j >= 0 {
					t = t[:j]
				}
			}
			if p.text == "" {
				t = "<invalid>"
			}
			g.formats = append(g.formats, t)
		}
	}
	// EXP target names (exp <target> off, off, off, off) for every target.
	{
		var ps []*probe
		for tgt := uint32(0); tgt < 64; tgt++ {
			ps = append(ps, &probe{words: []uint32{0xc4000000 | tgt<<4, 0}})
		}
		if err := run("gfx900", ps); err != nil {
			log.Fatal(err)
		}
		for _, p := range ps {
			f := strings.Fields(p.text)
			if len(f) < 2 || f[0] != "exp" {
				log.Fatalf("exp target probe: %q", p.text)
			}
			g.expTargets = append(g.expTargets, f[1])
		}
	}
	src := g.emit(fams)
	fmtd, err := format.Source(src)
	if err != nil {
		os.WriteFile(*out, src, 0o644)
		log.Fatalf("gofmt: %v", err)
	}
	if err := os.WriteFile(*out, fmtd, 0o644); err != nil {
		log.Fatal(err)
	}
}

// run disassembles every probe with llvm-objdump for cpu and fills text/n.
func run(cpu string, ps []*probe) error { return run1(cpu, ps) }

func run1(cpu string, ps []*probe) error {
	const slot = 16
	code := make([]byte, 0, slot*len(ps))
	for _, p := range ps {
		var s [slot]byte
		for i := 0; i < slot/4; i++ {
			w := uint32(nop)
			if i < len(p.words) {
				w = p.words[i]
			}
			binary.LittleEndian.PutUint32(s[4*i:], w)
		}
		code = append(code, s[:]...)
	}
	f, err := os.CreateTemp("", "isagen-*.o")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	f.Write(wrapELF(code))
	f.Close()
	cmd := exec.Command(*objdump, "-d", "--mcpu="+cpu, f.Name())
	outb, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: %v", *objdump, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(outb))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := lineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		addr, _ := strconv.ParseUint(m[2], 16, 64)
		if addr%slot != 0 {
			continue
		}
		p := ps[addr/slot]
		if m[1] == "<unknown>" || strings.HasPrefix(m[1], ".long") {
			continue
		}
		p.text = m[1]
		p.n = 4 * len(strings.Fields(m[3]))
	}
	return sc.Err()
}

// split separates a disassembly line into mnemonic and top-level tokens:
// comma-separated operands, then space-separated modifiers.
func split(text string) (string, []string) {
	mn, rest, _ := strings.Cut(text, " ")
	rest = strings.TrimSpace(rest)
	if mn == "exp" {
		rest = strings.Replace(rest, " ", ", ", 1) // the export target is an operand
	}
	var toks []string
	depth := 0
	start := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				toks = append(toks, strings.TrimSpace(rest[start:i]))
				start = i + 1
			}
		}
	}
	if start < len(rest) {
		toks = append(toks, strings.TrimSpace(rest[start:]))
	}
	// Modifiers follow the last operand, separated by spaces.
	if n := len(toks); n > 0 {
		parts := splitSpaces(toks[n-1])
		toks = append(toks[:n-1], parts...)
	}
	return mn, toks
}

func splitSpaces(s string) []string {
	var r []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ' ':
			if depth == 0 {
				if i > start {
					r = append(r, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(s) {
		r = append(r, s[start:])
	}
	return r
}

var regRE = regexp.MustCompile(`^([sva])(?:(\d+)|\[(\d+):(\d+)\])$`)

type entry struct {
	enc        string
	code       int
	name       string
	suffix     string
	ops        string // template expression
	alts       []string
	modPrint   uint32
	modInvalid uint32
	modSet     uint32 // modifier probe applied to the zero word (a fixed flag), 0 if none
	zeroMask   uint32 // fields that must be zero
	counts     string // MIMG: data register counts, "" for other encodings
}

// mimgCounts turns the mimgCount probes into a Go [16]uint8 literal: the
// number of data registers LLVM prints, 0 where it rejects the word.
func mimgCounts(ps []probe) string {
	var cs []string
	for _, p := range ps {
		n := 0
		if p.text != "" && p.n == 8 {
			_, toks := split(p.text)
			m := regRE.FindStringSubmatch(toks[0])
			if m == nil {
				log.Fatalf("MIMG count probe: %q", p.text)
			}
			n = 1
			if m[3] != "" {
				lo, _ := strconv.Atoi(m[3])
				hi, _ := strconv.Atoi(m[4])
				n = hi - lo + 1
			}
		}
		cs = append(cs, strconv.Itoa(n))
	}
	return "{" + strings.Join(cs, ", ") + "}"
}

type gen struct {
	hwregs     map[string]uint32
	formats    []string
	expTargets []string
	byKey      map[string]*merged
	order      []string
	names      map[string]bool
}

type merged struct {
	e     entry
	procs uint32
}

func newGen() *gen { return &gen{byKey: map[string]*merged{}, names: map[string]bool{}} }

func (g *gen) add(pi int, e entry) {
	key := fmt.Sprintf("%s|%d|%s|%s|%s|%v|%d|%d|%d|%d|%s", e.enc, e.code, e.name, e.suffix, e.ops, e.alts, e.modPrint, e.modInvalid, e.modSet, e.zeroMask, e.counts)
	m := g.byKey[key]
	if m == nil {
		m = &merged{e: e}
		g.byKey[key] = m
		g.order = append(g.order, key)
	}
	m.procs |= 1 << pi
	if procs[pi] == "gfx940" {
		m.procs |= 3 << (pi + 1) // gfx941, gfx942
	}
	g.names[e.name] = true
}

// template turns the printed tokens of a marker probe into a Go expression
// listing operand specs. Non-register tokens become fixed text or, for the
// immediate-carrying families, typed immediates.
func (g *gen) template(f family, mn string, toks []string, lits [][3]probe, n int) string {
	var specs []string
	for ti, t := range toks {
		if strings.HasPrefix(t, "/*") && t != "/*invalid" {
			break // a printer comment (DPP control diagnostics); not an operand
		}
		if m := regRE.FindStringSubmatch(t); m != nil {
			file := map[string]string{"s": "FileS", "v": "FileV", "a": "FileA"}[m[1]]
			var lo, hi int
			if m[2] != "" {
				lo, _ = strconv.Atoi(m[2])
				hi = lo
			} else {
				lo, _ = strconv.Atoi(m[3])
				hi, _ = strconv.Atoi(m[4])
			}
			field := fieldOf(f.enc, m[1], lo)
			typ := "TypeB32"
			if hi == lo+1 {
				typ = "TypeB64"
				if strings.Contains(mn, "f64") {
					typ = "TypeF64"
				}
			}
			if strings.HasPrefix(field, "Src") && (m[1] == "v" || m[1] == "a" || f.enc == "SOP2" || f.enc == "SOP1" || f.enc == "SOPC") {
				typ = g.srcType(f, mn, field, hi-lo+1, lits, ti, len(toks))
			}
			specs = append(specs, fmt.Sprintf("{Field: Field%s, File: %s, Count: %d, Type: %s}", field, file, hi-lo+1, typ))
			continue
		}
		if sp := g.immSpec(f, mn, t, n); sp != "" {
			specs = append(specs, sp)
		}
	}
	// s_waitcnt prints one token per counter; they are one operand.
	var dd []string
	for _, sp := range specs {
		if len(dd) > 0 && sp == dd[len(dd)-1] && strings.Contains(sp, "TypeWaitcnt") {
			continue
		}
		dd = append(dd, sp)
	}
	return "{" + strings.Join(dd, ", ") + "}"
}

// immSpec classifies a non-register token of a marker probe.
func (g *gen) immSpec(f family, mn, t string, n int) string {
	text := func() string { return fmt.Sprintf("{Field: FieldText, Text: %q}", t) }
	switch {
	case n > 4*len(f.zero(0)) && (t == "0xbf800000" || t == "-1.0"):
		return "{Field: FieldLiteral, Type: TypeB32}"
	case strings.HasPrefix(t, "hwreg("):
		return "{Field: FieldSImm16, Type: TypeHWReg}"
	case strings.HasPrefix(t, "sendmsg("):
		return "{Field: FieldSImm16, Type: TypeSendMsg}"
	case strings.HasPrefix(t, "gpr_idx("):
		return "{Field: FieldSImm16, Type: TypeGPRIdx}"
	case strings.HasPrefix(t, "vmcnt(") || strings.HasPrefix(t, "expcnt(") || strings.HasPrefix(t, "lgkmcnt("):
		return "{Field: FieldSImm16, Type: TypeWaitcnt}"
	}
	switch f.enc {
	case "SOPK":
		if strings.HasPrefix(t, "0x") {
			return "{Field: FieldSImm16, Type: TypeHex16}"
		}
		if _, err := strconv.Atoi(t); err == nil {
			return "{Field: FieldSImm16, Type: TypeDec16}"
		}
	case "SOPP":
		if strings.HasPrefix(mn, "s_sendmsg") {
			return "{Field: FieldSImm16, Type: TypeSendMsg}"
		}
		if strings.HasPrefix(t, "0x") && mn == "s_set_gpr_idx_mode" {
			return "{Field: FieldSImm16, Type: TypeGPRIdx}" // printGPRIdxMode: hex when bits above 3 are set
		}
		if strings.HasPrefix(t, "0x") {
			return "{Field: FieldSImm16, Type: TypeU16}"
		}
		if _, err := strconv.Atoi(t); err == nil {
			if strings.HasPrefix(mn, "s_branch") || strings.HasPrefix(mn, "s_cbranch") {
				return "{Field: FieldSImm16, Type: TypeBranch}"
			}
			return "{Field: FieldSImm16, Type: TypeDec16}"
		}
	case "SOPC":
		if t == "0x28" {
			return "{Field: FieldSrc1, Type: TypeGPRIdx}"
		}
	case "VINTRP":
		if strings.HasPrefix(t, "attr") {
			return "{Field: FieldSImm16, Type: TypeAttr}" // attr<<2 | attrchan
		}
		if strings.HasPrefix(t, "invalid_param_") || t == "p10" || t == "p20" || t == "p0" {
			return "{Field: FieldSrc0, Type: TypeInterpParam}"
		}
	case "VOP3":
		// VOP3-encoded v_interp_*: the src0 field holds high[8]
		// attrchan[7:6] attr[5:0]; the src1 field is the source (or, for
		// v_interp_mov_f32, the p10/p20/p0 slot). high is printed from the
		// field (vop3High).
		if strings.HasPrefix(mn, "v_interp_") {
			switch {
			case strings.HasPrefix(t, "attr"):
				return "{Field: FieldSrc0, Type: TypeInterpAttr}"
			case strings.HasPrefix(t, "invalid_param_") || t == "p10" || t == "p20" || t == "p0":
				return "{Field: FieldSrc1, Type: TypeInterpParam}"
			case t == "high":
				return ""
			}
		}
	case "EXP":
		if !strings.HasPrefix(t, "v") && t != "off" {
			return "{Field: FieldSImm16, Type: TypeExpTgt}"
		}
	case "SMEM":
		if t == "0x1c" {
			return "{Field: FieldOffset, Type: TypeHex}"
		}
		if t == "offset:0x1c" || t == "offset:0x0" {
			return "{Field: FieldOffset, Type: TypeOffsetHex}"
		}
		if t == "8" {
			return "{Field: FieldDst, Type: TypeU16}"
		}
	}
	switch t {
	case "glc", "slc", "sc0", "sc1", "nt", "scc", "lds", "gds", "offen", "idxen", "tfe", "nv":
		return "" // cache/addressing modifiers are printed from the modifier fields
	}
	if strings.Contains(t, ":") && !strings.HasPrefix(t, "attr") {
		return "" // a modifier (abid:8, op_sel_hi:[..]); printed from the modifier fields
	}
	return text()
}

// fieldIndex is the isa.Field value of a field name.
func fieldIndex(name string) int {
	for i, n := range []string{"Text", "Dst", "Src0", "Src1", "Src2", "Base", "SOff", "SDst", "SImm16", "Offset", "Literal", "DstSel", "DstUnused", "Src0Sel", "Src1Sel", "Src3"} {
		if n == name {
			return i
		}
	}
	panic("unknown field " + name)
}

func fieldOf(enc, file string, lo int) string {
	if file == "s" {
		switch lo {
		case mDst:
			return "Dst"
		case mSrc0:
			return "Src0"
		case mSrc1:
			return "Src1"
		case mSrc2:
			return "Src2"
		case mBase:
			return "Base"
		case mSOff:
			return "SOff"
		case mSDst:
			return "SDst"
		}
		return "Unknown"
	}
	switch lo {
	case mDst:
		return "Dst"
	case mSrc0:
		return "Src0"
	case mSrc1:
		return "Src1"
	case mSrc2:
		return "Src2"
	case mSrc3:
		return "Src3"
	}
	return "Unknown"
}

// srcType classifies how a source operand's constants are typed, from how
// LLVM printed inline 0.5, inline 1/(2*pi) and the literal 0x13800 in it.
//
// tok is the operand's token index in the marker probe's ntok tokens. When
// the literal probe prints as many tokens, only the operand's own token
// decides between a 32-bit and a 16-bit literal, so that a mandatory K
// literal printed beside it (v_madak_f16 v1, 0x3800, v2, 0x13800) does not
// make a 16-bit source look 32-bit.
func (g *gen) srcType(f family, mn, field string, count int, lits [][3]probe, tok, ntok int) string {
	idx := map[string]int{"Src0": 0, "Src1": 1, "Src2": 2}[field]
	var inl, lit string
	if idx < len(lits) {
		_, t := split(lits[idx][0].text)
		inl = strings.Join(t, ",")
		_, t = split(lits[idx][2].text)
		if lits[idx][2].text != "" {
			lit = strings.Join(t, ",")
			if len(t) == ntok && tok < ntok {
				lit = t[tok]
			}
		}
	}
	if strings.Contains(inl, "invalid") {
		return "TypeRegOnly"
	}
	if strings.Contains(inl, "v240") || strings.Contains(inl, "v[240:") || strings.Contains(inl, "a240") || strings.Contains(inl, "a[240:") {
		return "TypeVGPROnly"
	}
	if count == 2 {
		if strings.Contains(mn, "f64") {
			return "TypeF64"
		}
		if strings.HasPrefix(mn, "v_pk_") {
			return "TypeV2F32"
		}
		return "TypeB64"
	}
	packed := strings.HasPrefix(mn, "v_pk_")
	switch {
	case strings.Contains(inl, "invalid"):
		return "TypeRegOnly"
	case strings.Contains(inl, "v240") || strings.Contains(inl, "a240"):
		return "TypeVGPROnly"
	case strings.Contains(lit, "0x13800"):
		return "TypeB32"
	case strings.Contains(inl, "0x3800"):
		if packed {
			return "TypeV2I16"
		}
		return "TypeI16"
	case strings.Contains(lit, "0x3800") && strings.Contains(inl, "0.5"):
		return "TypeF16Lit"
	case lit == "" && len(lits) == 0 && (strings.HasSuffix(mn, "_i16") || strings.HasSuffix(mn, "_u16") || strings.HasSuffix(mn, "_b16")):
		return "TypeI16"
	case strings.Contains(lit, "0.5") || (lit == "" && strings.HasSuffix(mn, "f16")):
		if packed {
			return "TypeV2F16"
		}
		return "TypeF16"
	}
	return "TypeB32"
}

func goName(mn string) string { return strings.ToUpper(mn) }

func (g *gen) emit(fams []family) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by isagen from llvm-objdump-15 probes; DO NOT EDIT.\n\npackage isa\n\n")
	names := make([]string, 0, len(g.names))
	for n := range g.names {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "// Opcodes, one per LLVM mnemonic (without _e32/_e64 suffix).\nconst (\n\tOpInvalid Opcode = iota\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s\n", goName(n))
	}
	fmt.Fprintf(&b, ")\n\n")
	fmt.Fprintf(&b, "var opcodeNames = [...]string{\n\tOpInvalid: \"<invalid>\",\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s: %q,\n", goName(n), n)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// Modifier probe names per encoding, in bit order of opDesc.ModPrint/ModInvalid.\n")
	for _, f := range fams {
		var ms []string
		for _, m := range f.mods {
			ms = append(ms, strconv.Quote(m.name))
		}
		_ = ms
	}
	tmpl := map[string]int{}
	var tlist []string
	ti := func(t string) int {
		i, ok := tmpl[t]
		if !ok {
			i = len(tlist)
			tmpl[t] = i
			tlist = append(tlist, t)
		}
		return i
	}
	ti("{}")
	var descs bytes.Buffer
	cidx := map[string]int{}
	var clist []string
	for _, k := range g.order {
		m := g.byKey[k]
		e := m.e
		alts := ""
		for i, a := range e.alts {
			if i > 0 {
				alts += ", "
			}
			if a == "" {
				alts += "-1"
			} else {
				alts += strconv.Itoa(ti(a))
			}
		}
		for i := len(e.alts); i < 7; i++ {
			if i > 0 {
				alts += ", "
			}
			alts += "-1"
		}
		ci := -1
		if e.counts != "" {
			i, ok := cidx[e.counts]
			if !ok {
				i = len(clist)
				cidx[e.counts] = i
				clist = append(clist, e.counts)
			}
			ci = i
		}
		fmt.Fprintf(&descs, "\t{%s, %#x, %#x, %s, %d, %#x, %#x, %#x, %#x, [7]int16{%s}, %d, %q},\n",
			e.enc, e.code, m.procs, goName(e.name), ti(e.ops), e.zeroMask, e.modPrint, e.modInvalid, e.modSet, alts, ci, e.suffix)
	}
	var hk []string
	for k := range g.hwregs {
		hk = append(hk, k)
	}
	sort.Slice(hk, func(i, j int) bool {
		a, _, _ := strings.Cut(hk[i], "\t")
		c, _, _ := strings.Cut(hk[j], "\t")
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(c)
		if x != y {
			return x < y
		}
		return hk[i] < hk[j]
	})
	fmt.Fprintf(&b, "// gfx9HWRegs are the hwreg(...) register names llvm-objdump prints, per processor.\nvar gfx9HWRegs = [...]hwregName{\n")
	for _, k := range hk {
		id, name, _ := strings.Cut(k, "\t")
		fmt.Fprintf(&b, "\t{%s, %#x, %q},\n", id, g.hwregs[k], name)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// mtbufFormats is the format:[...] text llvm-objdump prints for dfmt|nfmt<<4\n// (\"\" for the default format, \"<invalid>\" where LLVM rejects the word).\nvar mtbufFormats = [128]string{\n")
	for _, f := range g.formats {
		fmt.Fprintf(&b, "\t%q,\n", f)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// expTargets is the export target text llvm-objdump prints for EXP target[9:4].\nvar expTargets = [64]string{\n")
	for _, t := range g.expTargets {
		fmt.Fprintf(&b, "\t%q,\n", t)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// gfx9MIMGCounts are the MIMG data register counts llvm-objdump prints,\n// indexed by opDesc.Counts and then by dmask popcount-1 | tfe<<2 | d16<<3\n// (0: LLVM rejects the word).\nvar gfx9MIMGCounts = [...][16]uint8{\n")
	for _, c := range clist {
		fmt.Fprintf(&b, "\t%s,\n", c)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "var gfx9Templates = [...][]operandSpec{\n")
	for _, t := range tlist {
		fmt.Fprintf(&b, "\t%s,\n", t)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "var gfx9Descs = [...]opDesc{\n")
	b.Write(descs.Bytes())
	fmt.Fprintf(&b, "}\n")
	return b.Bytes()
}
