package vmem

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The GFX9 apertures, where ROCr's KFD places them (kfd_flat_memory.c:
// MAKE_LDS_APP_BASE_V9 = 1<<48, MAKE_SCRATCH_APP_BASE_V9 = 2<<48, limit =
// base | 0xFFFFFFFF, "the aperture sizes are still 4GB implicitly"). They lie
// in the non-canonical hole of 4-level-paging x86-64, so no host mapping can
// be there; CheckApertures verifies it. Five consumers must agree on these
// values (DESIGN.md "Memory"): src_shared_base/src_private_base, s_getreg of
// SH_MEM_BASES, amd_queue_t's *_aperture_base_hi, the V5 hidden
// shared_base/private_base arguments, and Classify.
const (
	SharedApertureBase   uint64 = 0x0001_0000_0000_0000 // LDS (group segment)
	SharedApertureLimit  uint64 = 0x0001_0000_FFFF_FFFF // inclusive
	PrivateApertureBase  uint64 = 0x0002_0000_0000_0000 // scratch (private segment)
	PrivateApertureLimit uint64 = 0x0002_0000_FFFF_FFFF // inclusive

	// SharedApertureBaseHi and PrivateApertureBaseHi are the high 32 bits
	// of the bases: amd_queue_t.group_segment_aperture_base_hi and
	// private_segment_aperture_base_hi, and what LLVM compares a flat
	// address's high half with (INVENTORY §5.6).
	SharedApertureBaseHi  uint32 = uint32(SharedApertureBase >> 32)
	PrivateApertureBaseHi uint32 = uint32(PrivateApertureBase >> 32)

	// SharedApertureBase16 and PrivateApertureBase16 are the bases' bits
	// 63:48, the 16-bit SHARED_BASE and PRIVATE_BASE fields of SH_MEM_BASES.
	SharedApertureBase16  uint16 = uint16(SharedApertureBase >> 48)
	PrivateApertureBase16 uint16 = uint16(PrivateApertureBase >> 48)

	// SHMemBases is the value of hardware register SH_MEM_BASES as
	// s_getreg_b32 reads it: PRIVATE_BASE in bits 15:0 and SHARED_BASE in
	// bits 31:16, each holding address bits 63:48 (LLVM reads the shared
	// aperture with offset 16, width 16 and the private one with offset 0,
	// width 16, then shifts left by 16 to get the high 32 bits).
	SHMemBases uint32 = uint32(SharedApertureBase16)<<16 | uint32(PrivateApertureBase16)
)

// Aperture is the memory a flat address reaches.
type Aperture uint8

// Apertures.
const (
	ApertureGlobal  Aperture = iota // anything outside the two apertures
	ApertureShared                  // LDS: offset = low 32 bits
	AperturePrivate                 // scratch: offset = low 32 bits
)

// String returns "global", "shared" or "private".
func (a Aperture) String() string {
	switch a {
	case ApertureGlobal:
		return "global"
	case ApertureShared:
		return "shared"
	case AperturePrivate:
		return "private"
	}
	return fmt.Sprintf("Aperture(%d)", uint8(a))
}

// Classify routes a flat address: an address whose high 32 bits equal an
// aperture's base_hi is in that aperture, at the offset of its low 32 bits
// (the segment address); every other address is global (offset is then the
// address's low 32 bits and meaningless).
func Classify(addr uint64) (Aperture, uint32) {
	switch uint32(addr >> 32) {
	case SharedApertureBaseHi:
		return ApertureShared, uint32(addr)
	case PrivateApertureBaseHi:
		return AperturePrivate, uint32(addr)
	}
	return ApertureGlobal, uint32(addr)
}

// checkApertureOverlap rejects [base, base+size) if it meets an aperture.
func checkApertureOverlap(base, size uint64) error {
	end := base + size - 1 // inclusive; size > 0
	if base <= SharedApertureLimit && end >= SharedApertureBase {
		return fmt.Errorf("%w: [%#x, %#x] meets the shared aperture", ErrOverlap, base, end)
	}
	if base <= PrivateApertureLimit && end >= PrivateApertureBase {
		return fmt.Errorf("%w: [%#x, %#x] meets the private aperture", ErrOverlap, base, end)
	}
	return nil
}

// CheckApertures reads /proc/self/maps and returns an error wrapping
// ErrOverlap if any mapping of the process overlaps the shared or private
// aperture. The runtime calls it once at start-up: on a 5-level-paging host
// a program could have mapped memory there, and the emulator would then
// route that memory's flat accesses to LDS or scratch.
func CheckApertures() error {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return fmt.Errorf("vmem: checking apertures: %w", err)
	}
	defer f.Close()
	return checkMaps(f)
}

// checkMaps parses /proc/<pid>/maps text ("start-end perms …", hex).
func checkMaps(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		rng, _, _ := strings.Cut(text, " ")
		lo, hi, ok := strings.Cut(rng, "-")
		if !ok {
			return fmt.Errorf("vmem: maps line %d: malformed %q", line, text)
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			return fmt.Errorf("vmem: maps line %d: malformed %q", line, text)
		}
		if err := checkApertureOverlap(start, end-start); err != nil {
			return fmt.Errorf("%w (mapping %q)", err, text)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("vmem: reading maps: %w", err)
	}
	return nil
}
