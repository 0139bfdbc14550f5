package emu

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// op is one decoded instruction with its operands resolved: the unit the hot
// loop executes. fn holds the semantics; the loop advances pc by n before
// calling it, so branches are relative to the next instruction as in the ISA.
type op struct {
	fn    func(w *wave, o *op)
	n     uint8 // length in bytes
	class uint8 // ClassSALU …
	post  uint8 // what a wave holding posted atomic adds does before it (postFlush …)

	// Scalar and vector destinations and sources, pre-resolved.
	dst  operand
	src  [3]operand
	sdst operand // VOP3b carry-out / VOPC destination / readlane destination

	// Immediates and modifiers.
	simm   int32  // SOPP/SOPK immediate (sign-extended), branch offset
	imm    uint32 // SOPK unsigned immediate, hwreg fields, misc
	offset int32  // memory offsets (signed where the encoding is)
	off1   int32  // DS offset1
	neg    uint8  // VOP3 neg bits / VOP3P neg_lo
	abs    uint8  // VOP3 abs bits / VOP3P neg_hi
	opsel  uint8  // VOP3 op_sel / VOP3P op_sel
	opselh uint8  // VOP3P op_sel_hi
	clamp  bool
	omod   uint8
	flags  uint16 // memory flags (glc, slc, offen, idxen, saddr present …)
	dpp    uint32 // DPP control word (or SDWA selects)
	aux    *opAux // rarely used extras

	pc uint64 // address of the instruction (for faults)
}

// opAux holds what few instructions need.
type opAux struct {
	dpp  *dppAux
	sdwa *sdwaAux
}

// operand kinds.
const (
	kNone      uint8 = iota
	kSGPR            // idx = scalar operand code 0..127 (SGPRs, VCC, EXEC, M0, TTMP, FLAT_SCRATCH)
	kVGPR            // idx = VGPR number
	kAGPR            // idx = AGPR number
	kConst           // val holds the value (inline constant or literal), already in the operand's width
	kSCC             // src_scc
	kVCCZ            // src_vccz
	kEXECZ           // src_execz
	kLDSDirect       // lds_direct
	kTmp             // idx = w.tmp buffer (DPP/SDWA staging)
)

// operand is a pre-resolved instruction operand.
type operand struct {
	kind uint8
	idx  uint16
	val  uint64
}

// Scalar operand codes (GFX9).
const (
	sFlatScrLo = 102
	sFlatScrHi = 103
	sXnackLo   = 104
	sVCCLo     = 106
	sVCCHi     = 107
	sTTMP0     = 108
	sM0        = 124
	sEXECLo    = 126
	sEXECHi    = 127
	sNumRegs   = 128
)

const (
	pageShift = 12 // instructions per code page: 4096 (16 KiB of code)
	pageSize  = 1 << pageShift
)

// codeKey identifies a code region.
type codeKey struct{ base, size uint64 }

type codePage [pageSize]atomic.Pointer[op]

// codeTable is the decoded code of one memory region, shared by every
// dispatch that runs code from it. Entries are decoded lazily, the first time
// a wave reaches them, so padding and data between kernels are never decoded;
// indirect branch targets land in the same table.
type codeTable struct {
	base, size uint64
	data       []byte
	pages      []atomic.Pointer[codePage]
	decode     func(t *codeTable, pc uint64) (*op, error)
	target     any        // the decoder's target (isa.Target), set by build.go
	mu         sync.Mutex // serialises page creation
}

func newCodeTable(r Region) *codeTable {
	n := (uint64(len(r.Data))/4 + pageSize - 1) >> pageShift
	return &codeTable{base: r.Base, size: uint64(len(r.Data)), data: r.Data, pages: make([]atomic.Pointer[codePage], n), decode: decodeOp}
}

// fetch returns the op at pc; the fast path is two loads.
func (t *codeTable) fetch(pc uint64) *op {
	i := (pc - t.base) >> 2
	if p := i >> pageShift; p < uint64(len(t.pages)) {
		if pg := t.pages[p].Load(); pg != nil {
			if o := pg[i&(pageSize-1)].Load(); o != nil {
				return o
			}
		}
	}
	return t.slowFetch(pc)
}

func (t *codeTable) slowFetch(pc uint64) *op {
	if pc < t.base || pc-t.base >= t.size || pc&3 != 0 {
		panic(&Fault{Kind: FaultMemory, PC: pc, Address: pc, Lane: -1, Detail: "instruction fetch outside the code region"})
	}
	o, err := t.decode(t, pc)
	if err != nil {
		f := &Fault{Kind: FaultIllegal, PC: pc, Lane: -1, Detail: err.Error(), err: err}
		if isNotSupported(err) {
			f.Kind = FaultUnimplemented
		}
		f.Inst = t.text(pc)
		panic(f)
	}
	t.place(pc, o)
	return o
}

// place sets o's pc (and its DPP/SDWA inner op's) and installs it at pc.
func (t *codeTable) place(pc uint64, o *op) {
	o.pc = pc
	if o.aux != nil && o.aux.dpp != nil {
		o.aux.dpp.inner.pc = pc
	}
	if o.aux != nil && o.aux.sdwa != nil {
		o.aux.sdwa.inner.pc = pc
	}
	t.install(pc, o)
}

// Predecode decodes the instructions in [addr, addr+size) into the code
// table of the device memory region holding them, so that dispatches of
// kernels there run from the dense table without decoding (DESIGN.md
// "Execution": decode once, at load time). The loader calls it with a
// kernel's code range (entry point to the end of its code, or the whole
// text section). Decoding walks linearly from addr: words that do not
// decode, or decode to instructions the engine has no semantics for, are
// skipped (by the decoded length when known, else 4 bytes) and left to the
// lazy path, which faults with the usual report if they are ever executed;
// indirect-branch targets inside data are decoded lazily as well. It fails
// only when the range is not inside one device memory region. Calling it
// again for a decoded range is cheap; InvalidateCode forgets the table.
func (d *Device) Predecode(addr, size uint64) error {
	if size == 0 {
		return nil
	}
	t, err := d.codeTableFor(addr)
	if err != nil {
		return err
	}
	if addr+size < addr || addr+size > t.base+t.size {
		return fmt.Errorf("emu: predecode range 0x%x+0x%x is not inside the code region 0x%x+0x%x", addr, size, t.base, t.size)
	}
	pc := addr &^ 3
	for pc < addr+size {
		if o := t.lookup(pc); o != nil {
			pc += uint64(max(o.n, 4))
			continue
		}
		o, err := t.decode(t, pc)
		if err != nil {
			pc += uint64(max(instLen(t.target, t.data[pc-t.base:]), 4))
			continue
		}
		t.place(pc, o)
		pc += uint64(max(o.n, 4))
	}
	return nil
}

// lookup returns the op decoded at pc, or nil.
func (t *codeTable) lookup(pc uint64) *op {
	i := (pc - t.base) >> 2
	if pg := t.pages[i>>pageShift].Load(); pg != nil {
		return pg[i&(pageSize-1)].Load()
	}
	return nil
}

// install stores o as the decoded op at pc.
func (t *codeTable) install(pc uint64, o *op) {
	i := (pc - t.base) >> 2
	p := i >> pageShift
	pg := t.pages[p].Load()
	if pg == nil {
		t.mu.Lock()
		if pg = t.pages[p].Load(); pg == nil {
			pg = new(codePage)
			t.pages[p].Store(pg)
		}
		t.mu.Unlock()
	}
	pg[i&(pageSize-1)].Store(o)
}

// text disassembles the instruction at pc for fault reports.
func (t *codeTable) text(pc uint64) string {
	if pc < t.base || pc-t.base >= t.size {
		return ""
	}
	return disasm(t.target, t.data[pc-t.base:])
}

// codeTableFor returns the device's table for the region holding entry.
func (d *Device) codeTableFor(entry uint64) (*codeTable, error) {
	r, ok := d.cfg.Memory.Lookup(entry)
	if !ok {
		return nil, fmt.Errorf("emu: kernel entry 0x%x is not in device memory", entry)
	}
	k := codeKey{r.Base, uint64(len(r.Data))}
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.tables[k]
	if t == nil {
		t = newCodeTable(r)
		t.target = d.target
		d.tables[k] = t
	}
	return t, nil
}

// InvalidateCode forgets decoded code overlapping [addr, addr+size). The
// loader calls it when it unloads or rewrites code.
func (d *Device) InvalidateCode(addr, size uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for k := range d.tables {
		if k.base < addr+size && addr < k.base+k.size {
			delete(d.tables, k)
		}
	}
}
