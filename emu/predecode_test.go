package emu

import (
	"encoding/binary"
	"errors"
	"testing"
)

// TestPredecode decodes a whole code object image (text and the data after
// it) at "load time", then runs a kernel with lazy decoding disabled: every
// instruction the dispatch executes must come from the predecoded table.
func TestPredecode(t *testing.T) {
	forTargets(t, func(t *testing.T, obj *testObject, d *Device) {
		_, entry, _ := obj.kernel(t, "vadd")
		img := obj.image
		if err := d.Predecode(img.Base, uint64(len(img.Data))); err != nil {
			t.Fatal(err)
		}
		// Idempotent.
		if err := d.Predecode(entry, 64); err != nil {
			t.Fatal(err)
		}
		tab, err := d.codeTableFor(entry)
		if err != nil {
			t.Fatal(err)
		}
		if tab.lookup(entry) == nil {
			t.Fatal("entry not predecoded")
		}
		lazy := 0
		tab.decode = func(*codeTable, uint64) (*op, error) {
			lazy++
			return nil, errors.New("lazy decode after Predecode")
		}
		n := 1000
		a, b, c := obj.buf(t, 4*n), obj.buf(t, 4*n), obj.buf(t, 4*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(a.Data[4*i:], mathFloat32bits(float32(i)))
			binary.LittleEndian.PutUint32(b.Data[4*i:], 0x3f800000)
		}
		if _, err := obj.launch(t, d, "vadd", [3]uint32{1024, 1, 1}, [3]uint32{256, 1, 1}, 0, kargs(a.Base, b.Base, c.Base, n)); err != nil {
			t.Fatal(err)
		}
		if lazy != 0 {
			t.Fatalf("%d lazy decodes", lazy)
		}
		if got := f32s(c)[999]; got != 1000 {
			t.Fatalf("c[999] = %v", got)
		}
		// Ranges outside device memory or past the region fail.
		if err := d.Predecode(img.Base+uint64(len(img.Data))-4, 8); err == nil {
			t.Fatal("range past the region accepted")
		}
		if err := d.Predecode(1<<40, 4); err == nil {
			t.Fatal("range outside device memory accepted")
		}
	})
}
