package emu

// wave states.
const (
	waveRunning = iota
	waveBarrier
	waveDone
	waveGWS // waiting at a GWS barrier or semaphore (gws.go)
)

// wave is one wavefront's architectural state plus scheduling bookkeeping.
type wave struct {
	s       [sNumRegs]uint32 // scalar operand space 0..127: SGPRs, FLAT_SCRATCH, XNACK, VCC, TTMP, M0, EXEC
	v       []uint32         // VGPRs, structure of arrays: v[reg<<6+lane]
	a       []uint32         // AGPRs, same layout
	pc      uint64
	curPC   uint64 // address of the executing instruction
	scc     uint32
	mode    uint32 // hardware MODE register
	trapsts uint32

	state int
	yield bool // leave the run loop after the current instruction
	spin  bool // last switch was a taken backward branch after the switch interval
	slept bool // last switch was an s_sleep
	since int  // instructions since the last switch
	// signature of the state at the last spin switch (spinStalled)
	sigS, sigV    uint64
	sigOK, sigVOK bool
	wg            *workgroup
	id            int // wave index within the workgroup
	code          *codeTable
	cpage         *codePage // the page of code holding the last fetched op
	cbase         uint64    // address of cpage's first instruction
	r             *run
	slot          int    // scratch slot
	scratchOff    uint32 // byte offset of this wave's scratch from the arena base
	lastStore     uint64 // last 64-bit value stored by the wave (ockl event mailbox)
	lastStoreAddr uint64
	// the GWS resource, wait kind and barrier generation of a wave in
	// state waveGWS (gws.go)
	gwsRes, gwsOp int
	gwsGen        uint64

	// slow holds the conditions under which the run loop takes its slow
	// step (slowStep) for every instruction: slowGPRIdx, slowPosted.
	slow  uint8
	idxOp op // the current instruction with its operands offset (slowGPRIdx)

	icount [NumClasses]uint64
	loaded uint64
	stored uint64

	// cached global region for memory instructions, and the regions used
	// recently in this dispatch (consulted before Memory.Lookup)
	rbase, rend uint64
	rdata       []byte
	rro         bool
	rc          [8]regionEntry
	rcNext      int
	pf          [8]pfEntry // unit-stride loads' recent addresses (stridePrefetch)

	tmp   [12][64]uint32 // broadcast / modified source scratch
	mfma  []uint32       // MFMA accumulator scratch (allocated on first use)
	addrs [64]uint64
	comb  combineScratch // addCombined
	post  postedAdds     // posted atomic adds (postAdd)
}

// wave.slow bits.
const (
	slowGPRIdx = 1 << iota // s_set_gpr_idx_on: VALU VGPR operands are offset by M0[7:0]
	slowPosted             // the wave holds posted atomic adds (postAdd)
)

// exec returns the EXEC mask.
func (w *wave) exec() uint64 { return uint64(w.s[sEXECLo]) | uint64(w.s[sEXECHi])<<32 }

func (w *wave) setExec(m uint64) { w.s[sEXECLo] = uint32(m); w.s[sEXECHi] = uint32(m >> 32) }

func (w *wave) vcc() uint64 { return uint64(w.s[sVCCLo]) | uint64(w.s[sVCCHi])<<32 }

func (w *wave) setVCC(m uint64) { w.s[sVCCLo] = uint32(m); w.s[sVCCHi] = uint32(m >> 32) }

// s64 reads an aligned scalar register pair.
func (w *wave) s64(i uint16) uint64 { return uint64(w.s[i]) | uint64(w.s[i+1])<<32 }

func (w *wave) sets64(i uint16, v uint64) { w.s[i] = uint32(v); w.s[i+1] = uint32(v >> 32) }

// vreg returns the 64 lanes of VGPR r.
func (w *wave) vreg(r uint16) []uint32 { i := int(r) << 6; return w.v[i : i+64 : i+64] }

func (w *wave) areg(r uint16) []uint32 { i := int(r) << 6; return w.a[i : i+64 : i+64] }

// fault panics with a fault located at the current instruction.
func (w *wave) fault(o *op, kind FaultKind, lane int, addr uint64, detail string) {
	panic(&Fault{Kind: kind, PC: o.pc, Lane: lane, Address: addr, Detail: detail, Wave: w.id})
}

// workgroup is a resumable workgroup: its waves, LDS and barrier state.
type workgroup struct {
	id      [3]uint32
	size    [3]uint32 // actual (possibly partial) size
	waves   []*wave
	nwaves  int
	lds     []byte
	live    int
	cur     int
	barrier int // waves waiting at s_barrier
}

// regionEntry is one cached device memory region.
type regionEntry struct {
	base, end uint64
	data      []byte
	ro        bool
}
