package isa

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// llvmObjdump returns the llvm-objdump-15 path, or skips the test.
func llvmObjdump(t testing.TB) string {
	p, err := exec.LookPath("llvm-objdump-15")
	if err != nil {
		t.Skip("llvm-objdump-15 not installed")
	}
	return p
}

// wrapELF returns a minimal ELF64 relocatable AMDGPU object whose .text
// section holds code.
func wrapELF(code []byte) []byte {
	shstr := []byte("\x00.text\x00.shstrtab\x00")
	textOff := uint64(64)
	strOff := textOff + uint64(len(code))
	shOff := (strOff + uint64(len(shstr)) + 7) &^ 7
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.Write([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 64, 2, 0, 0, 0, 0, 0, 0, 0})
	w(uint16(1))
	w(uint16(224))
	w(uint32(1))
	w(uint64(0))
	w(uint64(0))
	w(shOff)
	w(uint32(0x3f))
	w(uint16(64))
	w(uint16(0))
	w(uint16(0))
	w(uint16(64))
	w(uint16(3))
	w(uint16(2))
	b.Write(code)
	b.Write(shstr)
	for uint64(b.Len()) < shOff {
		b.WriteByte(0)
	}
	sh := func(name, typ uint32, flags, off, size, align uint64) {
		w(name)
		w(typ)
		w(flags)
		w(uint64(0))
		w(off)
		w(size)
		w(uint32(0))
		w(uint32(0))
		w(align)
		w(uint64(0))
	}
	sh(0, 0, 0, 0, 0, 0)
	sh(1, 1, 6, textOff, uint64(len(code)), 4)
	sh(7, 3, 0, strOff, uint64(len(shstr)), 1)
	return b.Bytes()
}

var objdumpLine = regexp.MustCompile(`^\s+(.*?)\s*// ([0-9A-F]+): ([0-9A-F ]+)`)

// llvmDisasm disassembles 16-byte slots with llvm-objdump for cpu and
// returns, per slot, LLVM's text ("" for an invalid encoding) and length.
// Slots are padded with zero words (v_cndmask_b32_e32 v0, s0, v0, vcc): an
// s_nop padding word would read as SDWA select 7 after an SDWA-looking word
// (see randomWord).
// llvm-objdump-15 crashes on a few words (an assertion in the gfx908 MAI
// printer); the batch is then split until the crashing slots are isolated,
// and those get the text "<crash>".
func llvmDisasm(t testing.TB, tool, cpu string, slots [][]uint32) ([]string, []int) {
	texts, lens, err := llvmDisasm1(t, tool, cpu, slots)
	if err == nil {
		return texts, lens
	}
	if len(slots) == 1 {
		return []string{"<crash>"}, []int{0}
	}
	h := len(slots) / 2
	t1, l1 := llvmDisasm(t, tool, cpu, slots[:h])
	t2, l2 := llvmDisasm(t, tool, cpu, slots[h:])
	return append(t1, t2...), append(l1, l2...)
}

func llvmDisasm1(t testing.TB, tool, cpu string, slots [][]uint32) ([]string, []int, error) {
	const slot = 16
	code := make([]byte, 0, slot*len(slots))
	for _, s := range slots {
		for i := 0; i < slot/4; i++ {
			w := uint32(0)
			if i < len(s) {
				w = s[i]
			}
			code = binary.LittleEndian.AppendUint32(code, w)
		}
	}
	f := filepath.Join(t.TempDir(), "probe.o")
	if err := os.WriteFile(f, wrapELF(code), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-d", "--mcpu="+cpu, f).Output()
	if err != nil {
		return nil, nil, err
	}
	texts := make([]string, len(slots))
	lens := make([]int, len(slots))
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := objdumpLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		addr, _ := strconv.ParseUint(m[2], 16, 64)
		if addr%slot != 0 {
			continue
		}
		if strings.HasPrefix(m[1], ".long") || m[1] == "<unknown>" {
			continue
		}
		texts[addr/slot] = m[1]
		lens[addr/slot] = 4 * len(strings.Fields(m[3]))
	}
	return texts, lens, sc.Err()
}

// randomWord builds a word of encoding enc with opcode field code and random
// other fields. llvm-objdump-15 aborts on an SDWA select of 7
// (llvm_unreachable in AMDGPUInstPrinter::printSDWASel), also when it
// resynchronises on a later word of the slot after an invalid one, which
// would kill the whole batch: after every word that reads as a VOP1/VOP2/VOPC
// SDWA word (src0 = 0xf9) the following word's selects are kept below 7.
func randomWord(r *rand.Rand, enc Encoding, code uint32) []uint32 {
	w := randomWord1(r, enc, code)
	for i := 0; i+1 < len(w); i++ {
		if w[i]>>31 == 0 && w[i]&0x1ff == 0xf9 {
			for _, sh := range []uint{8, 16, 24} {
				if (w[i+1]>>sh)&7 == 7 {
					w[i+1] &^= 1 << sh
				}
			}
		}
	}
	return w
}

func randomWord1(r *rand.Rand, enc Encoding, code uint32) []uint32 {
	w0, w1, w2 := r.Uint32(), r.Uint32(), r.Uint32()
	// Bias towards small/zero fields so that valid encodings are common.
	if r.Intn(2) == 0 {
		w1 &= r.Uint32() & r.Uint32()
	}
	if r.Intn(2) == 0 {
		w0 &= r.Uint32() | 0xffff0000
	}
	switch enc {
	case EncSOP2:
		return []uint32{0x80000000 | code<<23 | w0&0x7fffff, w1}
	case EncSOPK:
		return []uint32{0xb0000000 | code<<23 | w0&0x7fffff, w1}
	case EncSOP1:
		return []uint32{0xbe800000 | code<<8 | w0&0x7f00ff, w1}
	case EncSOPC:
		return []uint32{0xbf000000 | code<<16 | w0&0xffff, w1}
	case EncSOPP:
		if r.Intn(3) == 0 {
			w0 = 0
		}
		return []uint32{0xbf800000 | code<<16 | w0&0xffff}
	case EncSMEM:
		return []uint32{0xc0000000 | code<<18 | w0&0x3ffff, w1}
	case EncVOP2:
		w0 &^= 0x100
		return []uint32{code<<25 | w0&0x1ffffff, w1}
	case EncVOP1:
		w0 &^= 0x100
		return []uint32{0x7e000000 | code<<9 | w0&0x1fe01ff, w1}
	case EncVOPC:
		w0 &^= 0x100
		return []uint32{0x7c000000 | code<<17 | w0&0x1ffff, w1}
	case EncVOP3:
		if r.Intn(2) == 0 {
			w0 &^= 0x7f00
			w1 &^= 0xf8000000
		}
		return []uint32{0xd0000000 | code<<16 | w0&0xffff, w1, w2}
	case EncVOP3P:
		return []uint32{0xd3800000 | code<<16 | w0&0xffff, w1, w2}
	case EncDS:
		return []uint32{0xd8000000 | code<<17 | w0&0x201ffff, w1}
	case EncFLAT, EncSCRATCH, EncGLOBAL:
		seg := map[Encoding]uint32{EncFLAT: 0, EncSCRATCH: 1, EncGLOBAL: 2}[enc]
		if r.Intn(2) == 0 {
			w1 |= 0x7f << 16
		}
		return []uint32{0xdc000000 | code<<18 | seg<<14 | w0&0x2033fff, w1}
	case EncMUBUF:
		return []uint32{0xe0000000 | code<<18 | w0&0x3ffff, w1}
	case EncMTBUF:
		return []uint32{0xe8000000 | code<<15 | w0&0x3ff87fff, w1}
	case EncEXP:
		return []uint32{0xc4000000 | w0&0x3ffffff, w1}
	case EncVINTRP:
		return []uint32{0xd4000000 | code<<16 | w0&0x3fcffff}
	case EncMIMG:
		if r.Intn(2) == 0 {
			w1 &^= 0x03e00000 // ssamp 0: loads/stores/atomics want it
		}
		if r.Intn(4) != 0 {
			w0 &^= 0x7e // unused bits
			w1 &^= 0x7c000000
		}
		if r.Intn(3) == 0 {
			w1 = w1&^0xff00 | 0xf000 // vdata near v255: wide tuples fall back
		}
		return []uint32{0xf0000000 | (code&0x7f)<<18 | code>>7 | w0&0x203fffe, w1}
	case encVOP1SDWA, encVOP1DPP, encVOP2SDWA, encVOP2DPP, encVOPCSDWA, encVOPCDPP:
		base := map[Encoding]Encoding{encVOP1SDWA: EncVOP1, encVOP1DPP: EncVOP1, encVOP2SDWA: EncVOP2,
			encVOP2DPP: EncVOP2, encVOPCSDWA: EncVOPC, encVOPCDPP: EncVOPC}[enc]
		w := randomWord1(r, base, code)
		sel := uint32(0xf9)
		if enc == encVOP1DPP || enc == encVOP2DPP || enc == encVOPCDPP {
			sel = 0xfa
		} else if r.Intn(2) == 0 {
			// Mostly valid selects: DWORD/zero fields.
			w1 = w1&^0x07070700 | 0x06060600&r.Uint32()
		}
		if sel == 0xf9 {
			// llvm-objdump-15 aborts on select value 7 (llvm_unreachable in
			// AMDGPUInstPrinter::printSDWASel); keep such words out.
			for _, sh := range []uint{8, 16, 24} {
				if (w1>>sh)&7 == 7 {
					w1 &^= 1 << sh
				}
			}
		}
		return []uint32{w[0]&^0x1ff | sel, w1}
	}
	return nil
}

// TestLLVMDifferential decodes random words of every opcode of every
// processor and compares the text with llvm-objdump-15's, batching all words
// of a processor into one llvm-objdump run.
func TestLLVMDifferential(t *testing.T) {
	tool := llvmObjdump(t)
	// 60,000 words per processor, 300,000 for the GFX9 family (the issue
	// asks for at least 200,000); about 15 s with llvm-objdump-15.
	n := 60000
	if testing.Short() {
		n = 3000
	}
	if s := os.Getenv("ROCPU_ISA_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for _, cpu := range []string{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx940"} {
		t.Run(cpu, func(t *testing.T) {
			tg, err := LookupTarget(cpu)
			if err != nil {
				t.Fatal(err)
			}
			var descs []*opDesc
			for i := range gfx9Descs {
				if gfx9Descs[i].Procs&(1<<tg.Proc) != 0 {
					descs = append(descs, &gfx9Descs[i])
				}
			}
			r := rand.New(rand.NewSource(int64(tg.Proc) + 1))
			slots := make([][]uint32, n)
			for i := range slots {
				d := descs[r.Intn(len(descs))]
				slots[i] = randomWord(r, d.Enc, uint32(d.Code))
			}
			texts, lens := llvmDisasm(t, tool, cpu, slots)
			bad := map[string]int{}
			gaps := 0
			valid := map[Encoding]int{} // words LLVM decoded, by encoding
			nvalid := 0
			var shown = map[string]int{}
			var buf [16]byte
			for i, s := range slots {
				for k := range buf {
					buf[k] = 0
				}
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
				if want != "" && want != "<crash>" {
					nvalid++
					if e, err := decodeEnc(s[0]); err == nil {
						valid[e]++
					}
				}
				if strings.TrimRight(got, " ") == want && (want == "" || int(in.Len) == lens[i]) {
					continue
				}
				if want == "<crash>" || knownGap(want, got) {
					gaps++
					continue
				}
				enc := "?"
				if err == nil {
					enc = in.Enc.String()
				} else {
					if in2, e2 := decodeEnc(s[0]); e2 == nil {
						enc = in2.String()
					}
				}
				bad[enc]++
				if shown[enc] < 8 {
					shown[enc]++
					t.Logf("%s %08x: llvm %q (%d) got %q (%d) err=%v", enc, s[:min(len(s), 3)], want, lens[i], got, in.Len, err)
				}
			}
			var keys []string
			total := 0
			for k, v := range bad {
				keys = append(keys, fmt.Sprintf("%s:%d", k, v))
				total += v
			}
			sort.Strings(keys)
			t.Logf("%d words (%d valid for LLVM, %d of them MIMG, %d VOP3P), %d in known gaps, %d mismatches: %v",
				n, nvalid, valid[EncMIMG], valid[EncVOP3P], gaps, total, keys)
			// Strict: every word outside the known gaps (knownGap, with
			// its reasons, and words llvm-objdump-15 crashes on) must
			// match LLVM text for text.
			if total > 0 {
				t.Errorf("%d/%d mismatches outside the known gaps: %v", total, n, keys)
			}
		})
	}
}

// decodeEnc classifies a word's encoding family (for reporting).
func decodeEnc(w0 uint32) (Encoding, error) {
	switch {
	case w0>>31 == 0:
		switch w0 >> 25 {
		case 0x3f:
			return EncVOP1, nil
		case 0x3e:
			return EncVOPC, nil
		}
		return EncVOP2, nil
	case w0>>23 == 0x17d:
		return EncSOP1, nil
	case w0>>23 == 0x17e:
		return EncSOPC, nil
	case w0>>23 == 0x17f:
		return EncSOPP, nil
	case w0>>28 == 0xb:
		return EncSOPK, nil
	case w0>>30 == 2:
		return EncSOP2, nil
	}
	switch w0 >> 26 {
	case 0x30:
		return EncSMEM, nil
	case 0x34:
		if w0>>23 == 0x1a7 {
			return EncVOP3P, nil
		}
		return EncVOP3, nil
	case 0x36:
		return EncDS, nil
	case 0x37:
		return [4]Encoding{EncFLAT, EncSCRATCH, EncGLOBAL, EncInvalid}[(w0>>14)&3], nil
	case 0x38:
		return EncMUBUF, nil
	case 0x3a:
		return EncMTBUF, nil
	case 0x3c:
		return EncMIMG, nil
	}
	return EncInvalid, fmt.Errorf("unknown")
}
