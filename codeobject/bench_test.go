package codeobject

import (
	"os"
	"testing"
)

// BenchmarkOpenMetadataKernels parses the largest golden object, decodes
// its metadata and joins its kernels with their descriptors.
func BenchmarkOpenMetadataKernels(b *testing.B) {
	var largest string
	var size int64
	for _, p := range goldenObjects(b) {
		if st, err := os.Stat(p); err == nil && st.Size() > size {
			largest, size = p, st.Size()
		}
	}
	data, err := os.ReadFile(largest)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s (%d bytes)", largest, size)
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		f, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Metadata(); err != nil {
			b.Fatal(err)
		}
		ks, err := f.Kernels()
		if err != nil || len(ks) == 0 {
			b.Fatal(err)
		}
		p, err := f.Processor()
		if err != nil {
			b.Fatal(err)
		}
		for i := range ks {
			if _, err := ks[i].Resources(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
