package emu

import (
	"context"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A small test loader (until the hsa package's loader exists): it maps a
// code object's loadable segments into one read-only test region, finds
// kernel descriptors by their .kd symbols, and builds AQL packets and
// kernargs by hand.

type testObject struct {
	mem   *testMem
	image Region
	syms  map[string]uint64 // symbol -> device address
}

func loadObject(t testing.TB, mem *testMem, path string) *testObject {
	t.Helper()
	needDecoder(t)
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var span uint64
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Vaddr+p.Memsz > span {
			span = p.Vaddr + p.Memsz
		}
	}
	img := mem.alloc(t, int(span), true)
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		if _, err := p.ReadAt(img.Data[p.Vaddr:p.Vaddr+p.Filesz], 0); err != nil {
			t.Fatal(err)
		}
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	o := &testObject{mem: mem, image: img, syms: map[string]uint64{}}
	for _, s := range syms {
		o.syms[s.Name] = img.Base + s.Value
	}
	return o
}

// kernel returns the Program and entry of kernel name.
func (o *testObject) kernel(t testing.TB, name string) (Program, uint64, uint64) {
	t.Helper()
	kd, ok := o.syms[name+".kd"]
	if !ok {
		t.Fatalf("no kernel descriptor %s.kd", name)
	}
	b := o.image.Data[kd-o.image.Base:]
	le := binary.LittleEndian
	p := Program{
		GroupSegmentFixedSize:   le.Uint32(b[0:]),
		PrivateSegmentFixedSize: le.Uint32(b[4:]),
		Rsrc3:                   le.Uint32(b[44:]),
		Rsrc1:                   le.Uint32(b[48:]),
		Rsrc2:                   le.Uint32(b[52:]),
		Properties:              le.Uint16(b[56:]),
		KernargPreload:          le.Uint16(b[58:]),
	}
	entry := uint64(int64(kd) + int64(le.Uint64(b[16:])))
	return p, entry, kd
}

// buffers for kernel arguments and results.
func (o *testObject) buf(t testing.TB, n int) Region { return o.mem.alloc(t, n, false) }

// launch runs kernel name over grid/wg with the given explicit kernarg
// bytes (hidden arguments zero: global offsets 0, no printf buffer).
func (o *testObject) launch(t testing.TB, d *Device, name string, grid, wg [3]uint32, lds uint32, args []byte) (*Dispatch, error) {
	t.Helper()
	p, entry, kd := o.kernel(t, name)
	ka := o.buf(t, 512)
	copy(ka.Data, args)
	pkt := o.buf(t, 64)
	le := binary.LittleEndian
	le.PutUint16(pkt.Data[0:], 2|1<<9)
	le.PutUint16(pkt.Data[2:], 3)
	le.PutUint16(pkt.Data[4:], uint16(wg[0]))
	le.PutUint16(pkt.Data[6:], uint16(wg[1]))
	le.PutUint16(pkt.Data[8:], uint16(wg[2]))
	le.PutUint32(pkt.Data[12:], grid[0])
	le.PutUint32(pkt.Data[16:], grid[1])
	le.PutUint32(pkt.Data[20:], grid[2])
	le.PutUint32(pkt.Data[24:], p.PrivateSegmentFixedSize)
	le.PutUint32(pkt.Data[28:], p.GroupSegmentFixedSize+lds)
	le.PutUint64(pkt.Data[32:], kd)
	le.PutUint64(pkt.Data[40:], ka.Base)
	k := &Dispatch{
		Kernel: name, Program: p, Entry: entry, PacketAddr: pkt.Base, KernargAddr: ka.Base,
		GridSize: grid, WorkgroupSize: wg, GroupSegmentSize: p.GroupSegmentFixedSize + lds,
		PrivateSegmentSize: p.PrivateSegmentFixedSize, DispatchID: 7,
	}
	return k, d.Dispatch(context.Background(), k)
}

// kargs packs kernel arguments: uint64 (pointers), uint32/int32, float32,
// each at its natural alignment.
func kargs(vals ...any) []byte {
	var b []byte
	align := func(n int) {
		for len(b)%n != 0 {
			b = append(b, 0)
		}
	}
	for _, v := range vals {
		switch x := v.(type) {
		case uint64:
			align(8)
			b = binary.LittleEndian.AppendUint64(b, x)
		case int:
			align(4)
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(x)))
		case uint32:
			align(4)
			b = binary.LittleEndian.AppendUint32(b, x)
		case float32:
			align(4)
			b = binary.LittleEndian.AppendUint32(b, mathFloat32bits(x))
		default:
			panic(fmt.Sprintf("kargs: %T", v))
		}
	}
	return b
}

func testObjectPath(cpu, opt string) string {
	return filepath.Join("testdata", "kernels."+cpu+"."+opt+".hsaco")
}

func haveObject(t testing.TB, path string) {
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s missing (run testdata/build.sh): %v", path, err)
	}
}

// needDecoder skips tests that run machine code when the isa decoder is
// not linked in.
func needDecoder(t testing.TB) {
	t.Helper()
	if !haveDecoder() {
		t.Skip("no instruction decoder linked in")
	}
}
