package hsa

import (
	"io"
	"testing"
)

// BenchmarkOpen measures opening and closing a runtime with the emulated
// gfx90a.
func BenchmarkOpen(b *testing.B) {
	for i := 0; i < b.N; i++ {
		r, err := New(Config{Targets: []string{"gfx90a"}, Stderr: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}
