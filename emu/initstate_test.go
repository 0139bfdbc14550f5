package emu

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"testing"
)

// TestCorpusInitialState runs the corpus's assembly kernels that store the
// registers they received (testdata/kernels/src/asm/initial_state_v*.s) and
// checks every record register by register against INVENTORY §5: V3
// descriptors on gfx900 (unpacked IDs) and gfx90a (packed IDs), and V2
// amd_kernel_code_t with every item and with the grid work-group counts.
func TestCorpusInitialState(t *testing.T) {
	cases := []struct {
		file, cpu, kernel string
		v2, gridCount     bool
	}{
		{"initial_state_v3.gfx900.co4.O0.hsaco", "gfx900", "initial_state", false, false},
		{"initial_state_v3.gfx90a.co4.O0.hsaco", "gfx90a", "initial_state", false, false},
		{"initial_state_v2.gfx900.co2.O0.hsaco", "gfx900", "initial_state_v2", true, false},
		{"initial_state_v2.gfx900.co2.O0.hsaco", "gfx900", "initial_state_v2_gridcount", true, true},
	}
	for _, c := range cases {
		t.Run(c.kernel+"."+c.cpu, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "kernels", "obj", c.file)
			haveObject(t, path)
			mem := &testMem{}
			obj := loadObject(t, mem, path)
			d := newTestDevice(t, c.cpu, mem)
			var p Program
			var entry uint64
			if c.v2 {
				p, entry, _ = obj.kernelV2(t, c.kernel)
			} else {
				p, entry, _ = obj.kernel(t, c.kernel)
			}
			out := obj.buf(t, 4*4160)
			ka := obj.buf(t, 64)
			binary.LittleEndian.PutUint64(ka.Data, out.Base)
			pkt := obj.buf(t, 64)
			binary.LittleEndian.PutUint16(pkt.Data[4:], 8)
			binary.LittleEndian.PutUint16(pkt.Data[6:], 2)
			binary.LittleEndian.PutUint16(pkt.Data[8:], 2)
			queue := obj.buf(t, 256)
			k := &Dispatch{Kernel: c.kernel, Program: p, Entry: entry, PacketAddr: pkt.Base, QueueAddr: queue.Base,
				KernargAddr: ka.Base, GridSize: [3]uint32{16, 4, 2}, WorkgroupSize: [3]uint32{8, 2, 2},
				PrivateSegmentSize: 16, DispatchID: 0x1234_5678_9A}
			if err := d.Dispatch(context.Background(), k); err != nil {
				t.Fatal(err)
			}
			rec := u32s(out)
			if rec[0] != 128 {
				t.Fatalf("%d records, want 128", rec[0])
			}
			packed := c.cpu == "gfx90a"
			seen := map[[6]uint32]bool{}
			s64 := func(r []uint32, i int) uint64 { return uint64(r[4+i]) | uint64(r[5+i])<<32 }
			for slot := 0; slot < 128; slot++ {
				r := rec[64+32*slot : 64+32*slot+32]
				if r[3] != uint32(slot) {
					t.Fatalf("record %d holds slot %d", slot, r[3])
				}
				x, y, z := r[0], r[1], r[2]
				if packed {
					if r[1] != 0 || r[2] != 0 {
						t.Fatalf("packed target stored v1/v2 %d %d", r[1], r[2])
					}
					x, y, z = r[0]&0x3FF, r[0]>>10&0x3FF, r[0]>>20&0x3FF
				}
				if x >= 8 || y >= 2 || z >= 2 {
					t.Fatalf("work-item id %d,%d,%d outside the 8x2x2 workgroup", x, y, z)
				}
				var wg [3]uint32
				var execLo, execHi uint32
				if c.gridCount {
					// s[0:1] dispatch ptr, s[2:3] kernarg ptr, s4-s6 grid counts, s7-s9 wg ids, s10 info.
					if s64(r, 0) != pkt.Base || s64(r, 2) != ka.Base {
						t.Fatalf("dispatch/kernarg ptr %#x %#x", s64(r, 0), s64(r, 2))
					}
					if r[4+4] != 2 || r[4+5] != 2 || r[4+6] != 1 {
						t.Fatalf("grid workgroup counts %v, want 2 2 1", r[8:11])
					}
					wg = [3]uint32{r[4+7], r[4+8], r[4+9]}
					if r[4+10] != 1<<31|1 {
						t.Fatalf("workgroup info %#x", r[4+10])
					}
					execLo, execHi = r[15], r[16]
				} else {
					vs := r[4:8]
					base := uint64(vs[0]) | uint64(vs[1]&0xFFFF)<<32
					if vs[1]>>31 != 1 || vs[3]>>19&3 != 1 || vs[3]>>21&3 != 3 || vs[3]>>23&1 != 1 {
						t.Fatalf("private segment V# %08x", vs)
					}
					if s64(r, 4) != pkt.Base || s64(r, 6) != queue.Base || s64(r, 8) != ka.Base || s64(r, 10) != k.DispatchID {
						t.Fatalf("dispatch/queue/kernarg ptr, dispatch id: %#x %#x %#x %#x", s64(r, 4), s64(r, 6), s64(r, 8), s64(r, 10))
					}
					if s64(r, 12) != base {
						t.Fatalf("flat scratch init %#x, want the V# base %#x", s64(r, 12), base)
					}
					if r[4+14] != 16 {
						t.Fatalf("private segment size %d, want 16", r[4+14])
					}
					wg = [3]uint32{r[4+15], r[4+16], r[4+17]}
					if r[4+18] != 1<<31|1 {
						t.Fatalf("workgroup info %#x", r[4+18])
					}
					if off := r[4+19]; off%1024 != 0 {
						t.Fatalf("wave scratch offset %#x not slot aligned", off)
					}
					execLo, execHi = r[24], r[25]
				}
				if wg[0] >= 2 || wg[1] >= 2 || wg[2] != 0 {
					t.Fatalf("workgroup id %v", wg)
				}
				if execLo != 0xFFFF_FFFF || execHi != 0 {
					t.Fatalf("exec %#x:%#x, want 32 lanes", execHi, execLo)
				}
				key := [6]uint32{wg[0], wg[1], wg[2], x, y, z}
				if seen[key] {
					t.Fatalf("work-item %v stored twice", key)
				}
				seen[key] = true
			}
		})
	}
}

// kernelV2 returns the Program and entry of a code object V2 kernel: the
// symbol is its amd_kernel_code_t (INVENTORY §4.7).
func (o *testObject) kernelV2(t testing.TB, name string) (Program, uint64, uint64) {
	t.Helper()
	addr, ok := o.syms[name]
	if !ok {
		t.Fatalf("no symbol %s", name)
	}
	b := o.image.Data[addr-o.image.Base:]
	le := binary.LittleEndian
	p := Program{
		V2:                      true,
		Rsrc1:                   le.Uint32(b[48:]),
		Rsrc2:                   le.Uint32(b[52:]),
		Properties:              le.Uint16(b[56:]),
		PrivateSegmentFixedSize: le.Uint32(b[60:]),
		GroupSegmentFixedSize:   le.Uint32(b[64:]),
	}
	return p, uint64(int64(addr) + int64(le.Uint64(b[16:]))), addr
}
