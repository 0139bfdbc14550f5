package vmem

import (
	"errors"
	"strings"
	"testing"
)

func TestApertureConstants(t *testing.T) {
	// The values DESIGN.md "Memory" fixes; every consumer reads them here.
	if SharedApertureBase != 0x0001_0000_0000_0000 || SharedApertureLimit != 0x0001_0000_FFFF_FFFF ||
		PrivateApertureBase != 0x0002_0000_0000_0000 || PrivateApertureLimit != 0x0002_0000_FFFF_FFFF {
		t.Error("aperture bases/limits changed")
	}
	if SharedApertureBaseHi != 0x0001_0000 || PrivateApertureBaseHi != 0x0002_0000 {
		t.Errorf("base_hi %#x %#x", SharedApertureBaseHi, PrivateApertureBaseHi)
	}
	if SharedApertureBase16 != 1 || PrivateApertureBase16 != 2 {
		t.Errorf("16-bit bases %#x %#x", SharedApertureBase16, PrivateApertureBase16)
	}
	// s_getreg_b32 SH_MEM_BASES: shared in 31:16, private in 15:0.
	if SHMemBases != 0x0001_0002 {
		t.Errorf("SH_MEM_BASES = %#x", SHMemBases)
	}
	// LLVM's reconstruction: (getreg(offset 16, width 16) << 16) << 32.
	if uint64(SHMemBases>>16)<<48 != SharedApertureBase || uint64(SHMemBases&0xffff)<<48 != PrivateApertureBase {
		t.Error("SH_MEM_BASES does not reconstruct the bases")
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		addr uint64
		ap   Aperture
		off  uint32
	}{
		{0, ApertureGlobal, 0},
		{0x7fff_ffff_f000, ApertureGlobal, 0xffff_f000},
		{SharedApertureBase, ApertureShared, 0},
		{SharedApertureBase + 0x1234, ApertureShared, 0x1234},
		{SharedApertureLimit, ApertureShared, 0xffff_ffff},
		{SharedApertureBase - 1, ApertureGlobal, 0xffff_ffff},
		{SharedApertureLimit + 1, ApertureGlobal, 0},
		{PrivateApertureBase, AperturePrivate, 0},
		{PrivateApertureBase + 0x40, AperturePrivate, 0x40},
		{PrivateApertureLimit, AperturePrivate, 0xffff_ffff},
		{PrivateApertureLimit + 1, ApertureGlobal, 0},
		{PrivateApertureBase - 1, ApertureGlobal, 0xffff_ffff},
	}
	for _, c := range cases {
		ap, off := Classify(c.addr)
		if ap != c.ap || (ap != ApertureGlobal && off != c.off) {
			t.Errorf("Classify(%#x) = %v %#x, want %v %#x", c.addr, ap, off, c.ap, c.off)
		}
	}
	if ApertureShared.String() != "shared" || Aperture(7).String() != "Aperture(7)" {
		t.Error("Aperture.String")
	}
}

func TestCheckMaps(t *testing.T) {
	ok := `55d0c3a00000-55d0c3a21000 r--p 00000000 08:01 1234 /usr/bin/x
7ffd5b2e0000-7ffd5b301000 rw-p 00000000 00:00 0                          [stack]
ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
`
	if err := checkMaps(strings.NewReader(ok)); err != nil {
		t.Errorf("ordinary maps: %v", err)
	}
	for _, bad := range []string{
		"1000000000000-1000000001000 rw-p 00000000 00:00 0\n", // at the shared base
		"ffffffff000-1000000000000 rw-p 00000000 00:00 0\n",   // ends exactly at it: fine
		"10000fffff000-1000100001000 rw-p 00000000 00:00 0\n", // across the shared limit
		"1ffffffff0000-2000000010000 rw-p 00000000 00:00 0\n", // across the private base
		"2000080000000-2000080001000 rw-p 00000000 00:00 0\n", // inside private
	} {
		err := checkMaps(strings.NewReader(bad))
		if strings.HasPrefix(bad, "ffffffff000-") {
			if err != nil {
				t.Errorf("mapping ending at the base rejected: %v", err)
			}
			continue
		}
		if !errors.Is(err, ErrOverlap) {
			t.Errorf("%q: %v, want ErrOverlap", bad, err)
		}
	}
	for _, bad := range []string{"garbage\n", "2000-1000 rw-p\n", "zz-10 r\n"} {
		if err := checkMaps(strings.NewReader(bad)); err == nil || errors.Is(err, ErrOverlap) {
			t.Errorf("%q: %v, want a parse error", bad, err)
		}
	}
	// This process must pass.
	if err := CheckApertures(); err != nil {
		t.Errorf("CheckApertures: %v", err)
	}
}

func TestRegisterRejectsApertures(t *testing.T) {
	for _, c := range []struct{ base, size uint64 }{
		{SharedApertureBase, 16},
		{SharedApertureBase - 8, 16},
		{PrivateApertureLimit, 1},
	} {
		if err := checkApertureOverlap(c.base, c.size); !errors.Is(err, ErrOverlap) {
			t.Errorf("[%#x +%d): %v", c.base, c.size, err)
		}
	}
	if err := checkApertureOverlap(SharedApertureBase-16, 16); err != nil {
		t.Errorf("range ending at the aperture: %v", err)
	}
	if err := checkApertureOverlap(SharedApertureLimit+1, 16); err != nil {
		t.Errorf("range after the shared aperture: %v", err)
	}
}

// FuzzCheckMaps: the maps parser never panics, and every error it returns
// either wraps ErrOverlap or names a malformed line.
func FuzzCheckMaps(f *testing.F) {
	f.Add("55d0c3a00000-55d0c3a21000 r--p 00000000 08:01 1234 /usr/bin/x\n")
	f.Add("1000000000000-1000000001000 rw-p 00000000 00:00 0\n")
	f.Add("-\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		err := checkMaps(strings.NewReader(s))
		if err != nil && !errors.Is(err, ErrOverlap) && !strings.Contains(err.Error(), "malformed") &&
			!strings.Contains(err.Error(), "reading maps") {
			t.Fatalf("unexpected error %v", err)
		}
	})
}
