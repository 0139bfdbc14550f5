package codeobject

import (
	"testing"
)

// TestImageRelocate loads the gfx90a object whose global pointer "tptr"
// is initialised with &table (one R_AMDGPU_RELATIVE64, see
// testdata/kernels.cl) at a base and checks the pointer and the code bytes.
func TestImageRelocate(t *testing.T) {
	for _, name := range []string{"kernels.gfx90a.co4.hsaco", "kernels.gfx1030.co5.hsaco"} {
		f, err := Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		img, lo, err := f.Image()
		if err != nil {
			t.Fatal(err)
		}
		const base = 0x7f12_3400_0000
		if err := f.Relocate(img, lo, base, nil); err != nil {
			t.Fatal(err)
		}
		tptr, ok1 := f.LookupSymbol("tptr")
		table, ok2 := f.LookupSymbol("table")
		if !ok1 || !ok2 {
			t.Fatalf("%s: symbols tptr/table missing", name)
		}
		if got := le.Uint64(img[tptr.Value-lo:]); got != base+table.Value {
			t.Errorf("%s: tptr = %#x, want base+&table = %#x", name, got, base+table.Value)
		}
		if got := le.Uint32(img[table.Value-lo+8:]); got != 3 {
			t.Errorf("%s: table[2] = %d, want 3", name, got)
		}
		ks, _ := f.Kernels()
		for _, k := range ks {
			off, _ := f.AddrToOffset(k.CodeAddr)
			if string(img[k.CodeAddr-lo:k.CodeAddr-lo+k.CodeSize]) != string(f.Data()[off:off+k.CodeSize]) {
				t.Errorf("%s: %s code differs in the image", name, k.Name)
			}
		}
	}
}
