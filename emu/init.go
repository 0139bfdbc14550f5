package emu

import (
	"encoding/binary"
	"fmt"
)

// setup is what a dispatch computes once from its Program: register file
// sizes, the user SGPR values shared by all waves and the positions of the
// per-wave system SGPRs (INVENTORY §5.1-§5.5).
type setup struct {
	entry       uint64
	vgprs       int // architected VGPRs
	agprs       int
	user        [16]uint32
	nuser       int // user SGPRs initialised (≤ 16)
	userCount   int // COMPUTE_PGM_RSRC2.USER_SGPR_COUNT: system SGPRs start here
	wgID        [3]bool
	wgInfo      bool
	waveOffset  bool // Private Segment Wave Byte Offset SGPR
	archFlat    bool // architected flat scratch: FLAT_SCRATCH set by hardware
	tidig       int  // ENABLE_VGPR_WORKITEM_ID
	packed      bool
	mode        uint32
	lds         int
	privateSize uint32 // per work-item scratch bytes, dword aligned
	wavesPerWG  int
	psbAt       int // index of the private segment buffer V# in the user SGPRs, or -1
	fsiAt       int // index of Flat Scratch Init, or -1
}

// MODE register fields (GFX9 HW_REG_MODE).
const (
	modeRound32    = 0x3
	modeRound1664  = 0x3 << 2
	modeDenorm32   = 0x3 << 4
	modeDenorm1664 = 0x3 << 6
	modeDX10Clamp  = 1 << 8
	modeIEEE       = 1 << 9
	modeFP16Ovfl   = 1 << 23
)

// bits extracts v[lo+n-1:lo].
func field(v uint32, lo, n uint) uint32 { return v >> lo & (1<<n - 1) }

// prepare computes the dispatch's setup from the Program.
func (r *run) prepare() error {
	k, cfg := r.k, &r.dev.cfg
	p := &k.Program
	s := &r.setup
	rsrc1, rsrc2, rsrc3 := p.Rsrc1, p.Rsrc2, p.Rsrc3
	if !p.V2 && p.Properties&propWavefrontSize32 != 0 {
		return fmt.Errorf("emu: wave32 kernel: %w", ErrNotSupported)
	}
	// Register counts (INVENTORY §4.2).
	g := int(field(rsrc1, 0, 6))
	if cfg.UnifiedVGPRFile {
		// One file of (g+1)*8 registers: architected VGPRs below
		// ACCUM_OFFSET, AGPRs above. The engine keeps the two in separate
		// arrays, so the VGPR array simply covers the whole allocation
		// (amd_kernel_code_t has no COMPUTE_PGM_RSRC3 at all).
		total := (g + 1) * 8
		acc := (int(field(rsrc3, 0, 6)) + 1) * 4
		if acc > total {
			acc = total
		}
		s.vgprs = total
		s.agprs = total - acc
		if rsrc3 == 0 || p.V2 {
			s.agprs = total
		}
	} else {
		s.vgprs = (g + 1) * 4
		if cfg.AGPRs > 0 {
			s.agprs = s.vgprs
		}
	}
	if s.vgprs > cfg.VGPRs {
		s.vgprs = cfg.VGPRs
	}
	// MODE from the descriptor's float fields.
	s.mode = field(rsrc1, 12, 2) | field(rsrc1, 14, 2)<<2 | field(rsrc1, 16, 2)<<4 | field(rsrc1, 18, 2)<<6 |
		field(rsrc1, 21, 1)<<8 | field(rsrc1, 23, 1)<<9 | field(rsrc1, 26, 1)<<23
	s.tidig = int(field(rsrc2, 11, 2))
	if s.tidig == 3 {
		return fmt.Errorf("emu: ENABLE_VGPR_WORKITEM_ID is 3 (undefined)")
	}
	s.packed = cfg.PackedWorkItemIDs
	s.archFlat = cfg.FlatScratch == FlatScratchArchitected
	s.wgID = [3]bool{field(rsrc2, 7, 1) != 0, field(rsrc2, 8, 1) != 0, field(rsrc2, 9, 1) != 0}
	s.wgInfo = field(rsrc2, 10, 1) != 0
	s.waveOffset = field(rsrc2, 0, 1) != 0 && !s.archFlat
	s.userCount = int(field(rsrc2, 1, 5))

	// Sizes.
	s.lds = int(k.GroupSegmentSize)
	if int(p.GroupSegmentFixedSize) > s.lds {
		s.lds = int(p.GroupSegmentFixedSize)
	}
	if s.lds > cfg.LDSSize {
		return fmt.Errorf("emu: group segment of %d bytes exceeds the %d bytes of LDS", s.lds, cfg.LDSSize)
	}
	priv := k.PrivateSegmentSize
	if p.PrivateSegmentFixedSize > priv {
		priv = p.PrivateSegmentFixedSize
	}
	s.privateSize = (priv + 3) &^ 3
	wgItems := uint64(k.WorkgroupSize[0]) * uint64(k.WorkgroupSize[1]) * uint64(k.WorkgroupSize[2])
	if wgItems > 1024 {
		return fmt.Errorf("emu: workgroup of %d work-items exceeds 1024", wgItems)
	}
	s.wavesPerWG = int((wgItems + 63) / 64)

	// Entry: the command processor skips the 256-byte compatibility
	// prologue when kernargs are preloaded (INVENTORY §5.5).
	s.entry = k.Entry
	preloadLen := int(p.KernargPreload & 0x7F)
	preloadOff := int(p.KernargPreload >> 7)
	if !cfg.KernargPreload || p.V2 {
		preloadLen = 0
	}
	if preloadLen != 0 {
		s.entry += 256
	}

	// User SGPRs in INVENTORY §5.1 order; only the first 16 are initialised.
	var user []uint32
	s.psbAt, s.fsiAt = -1, -1
	props := p.Properties
	add64 := func(v uint64) { user = append(user, uint32(v), uint32(v>>32)) }
	if props&propPrivateSegmentBuffer != 0 {
		s.psbAt = len(user)
		user = append(user, 0, 0, 0, 0) // filled per dispatch below
	}
	if props&propDispatchPtr != 0 {
		add64(k.PacketAddr)
	}
	if props&propQueuePtr != 0 {
		add64(k.QueueAddr)
	}
	if props&propKernargSegmentPtr != 0 {
		add64(k.KernargAddr)
	}
	if props&propDispatchID != 0 {
		add64(k.DispatchID)
	}
	if props&propFlatScratchInit != 0 {
		s.fsiAt = len(user)
		add64(0) // filled below
	}
	if props&propPrivateSegmentSize != 0 {
		user = append(user, s.privateSize)
	}
	if p.V2 {
		for i, bit := range []uint16{propV2GridCountX, propV2GridCountY, propV2GridCountZ} {
			if props&bit != 0 {
				user = append(user, r.numWG[i])
			}
		}
	}
	// Kernarg preload follows the last enabled non-preload user SGPR
	// (INVENTORY §5.5; position relative to Private Segment Size is [GAP],
	// LLVM allocates preloads after all other user SGPRs).
	if preloadLen > 0 {
		mem := cfg.Memory
		for i := 0; i < preloadLen && len(user) < 16; i++ {
			a := k.KernargAddr + uint64(preloadOff+i)*4
			reg, ok := mem.Lookup(a)
			if !ok || a+4 > reg.Base+uint64(len(reg.Data)) {
				return fmt.Errorf("emu: kernarg preload reads 0x%x outside device memory", a)
			}
			user = append(user, binary.LittleEndian.Uint32(reg.Data[a-reg.Base:]))
		}
	}
	s.nuser = copy(s.user[:], user)
	return nil
}

// vSharp builds a buffer resource descriptor (GFX9 V#): base, stride,
// num_records, swizzle, element size 4, index stride 64, ADD_TID, 32-bit
// UINT format — the private segment V# ROCr puts in amd_queue_t.
func scratchVSharp(base uint64, size uint32) [4]uint32 {
	const (
		dstSel      = 4 | 5<<3 | 6<<6 | 7<<9 // X, Y, Z, W
		numFmtUint  = 4 << 12
		dataFmt32   = 4 << 15
		elemSize4   = 1 << 19
		idxStride64 = 3 << 21
		addTID      = 1 << 23
	)
	return [4]uint32{
		uint32(base),
		uint32(base>>32)&0xFFFF | 1<<31, // SWIZZLE_ENABLE, stride 0
		size,
		dstSel | numFmtUint | dataFmt32 | elemSize4 | idxStride64 | addTID,
	}
}

// startWorkgroup initialises g as workgroup number idx (linear order, X
// fastest) with its waves' initial state; slot0 is its first scratch slot.
func (r *run) startWorkgroup(g *workgroup, idx uint64, slot0 int) {
	s := &r.setup
	k := r.k
	nx, ny := uint64(r.numWG[0]), uint64(r.numWG[1])
	g.id = [3]uint32{uint32(idx % nx), uint32(idx / nx % ny), uint32(idx / (nx * ny))}
	items := uint32(1)
	for i := 0; i < 3; i++ {
		sz := k.WorkgroupSize[i]
		if rem := k.GridSize[i] - g.id[i]*sz; rem < sz {
			sz = rem
		}
		g.size[i] = sz
		items *= sz
	}
	g.nwaves = int((items + 63) / 64)
	for len(g.waves) < g.nwaves {
		g.waves = append(g.waves, &wave{})
	}
	if cap(g.lds) < s.lds {
		g.lds = make([]byte, s.lds)
	}
	g.lds = g.lds[:s.lds]
	clear(g.lds)
	g.live = g.nwaves
	g.cur = g.nwaves - 1
	g.barrier = 0

	var scratchBase uint64
	if r.scratch != nil {
		scratchBase = r.scratch.base
	}
	for wi := 0; wi < g.nwaves; wi++ {
		w := g.waves[wi]
		if w.r != r {
			// A new dispatch: forget the regions of the last one (within
			// a dispatch they stay cached across workgroups).
			w.rbase, w.rend, w.rdata = 1, 0, nil
			w.rc, w.rcNext = [8]regionEntry{}, 0
		}
		w.r, w.wg, w.id, w.code, w.cpage = r, g, wi, r.code, nil
		w.state = waveRunning
		w.pc = s.entry
		w.scc, w.mode, w.trapsts = 0, s.mode, 0
		w.slow = 0
		w.sigOK, w.sigVOK = false, false
		if len(w.v) != s.vgprs*64 {
			w.v = make([]uint32, s.vgprs*64)
		} else {
			clear(w.v)
		}
		if len(w.a) != s.agprs*64 {
			w.a = make([]uint32, s.agprs*64)
		} else {
			clear(w.a)
		}
		w.s = [sNumRegs]uint32{}
		w.slot = slot0 + wi
		w.scratchOff = uint32(w.slot) * r.slotSize

		// User SGPRs.
		copy(w.s[:], s.user[:s.nuser])
		if s.psbAt >= 0 && s.psbAt+4 <= s.nuser {
			v := scratchVSharp(scratchBase, uint32(len(r.scratchBytes())))
			copy(w.s[s.psbAt:s.psbAt+4], v[:])
		}
		if s.fsiAt >= 0 && s.fsiAt+2 <= s.nuser {
			w.s[s.fsiAt], w.s[s.fsiAt+1] = uint32(scratchBase), uint32(scratchBase>>32)
		}
		// System SGPRs.
		n := s.userCount
		for i := 0; i < 3; i++ {
			if s.wgID[i] {
				w.s[n] = g.id[i]
				n++
			}
		}
		if s.wgInfo {
			info := uint32(g.nwaves) & 0x3F
			if wi == 0 {
				info |= 1 << 31
			}
			w.s[n] = info
			n++
		}
		if s.waveOffset {
			w.s[n] = w.scratchOff
		}
		if s.archFlat && r.k.Program.Rsrc2&1 != 0 {
			w.sets64(sFlatScrLo, scratchBase+uint64(w.scratchOff))
		}

		// Work-item IDs and EXEC (counters instead of per-lane divisions).
		var exec uint64
		ax, ay := g.size[0], g.size[1]
		first := uint32(wi * 64)
		if ay == 1 && g.size[2] == 1 && first+64 <= items {
			// A full wave of a 1D workgroup: X IDs first … first+63, Y and
			// Z IDs 0 (already cleared, packed or not).
			v := (*[64]uint32)(w.v[:64])
			for l := range v {
				v[l] = first + uint32(l)
			}
			w.setExec(^uint64(0))
			continue
		}
		x, y, z := first%ax, first/ax%ay, first/(ax*ay)
		for l := 0; l < 64; l++ {
			if first+uint32(l) >= items {
				break
			}
			exec |= 1 << l
			if s.packed {
				v := x
				if s.tidig > 0 {
					v |= y << 10
				}
				if s.tidig > 1 {
					v |= z << 20
				}
				w.v[l] = v
			} else {
				w.v[l] = x
				if s.tidig > 0 && len(w.v) > 64+l {
					w.v[64+l] = y
				}
				if s.tidig > 1 && len(w.v) > 128+l {
					w.v[128+l] = z
				}
			}
			if x++; x == ax {
				x = 0
				if y++; y == ay {
					y = 0
					z++
				}
			}
		}
		w.setExec(exec)
	}
}

// scratchBytes returns the dispatch's scratch backing.
func (r *run) scratchBytes() []byte {
	if r.scratch == nil {
		return nil
	}
	return r.scratch.data
}
