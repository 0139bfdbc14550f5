package emu

import "unsafe"

// havePrefetch: the unit-stride loads prefetch a strided loop's next
// access (stridePrefetch).
const havePrefetch = true

//go:noescape
func prefetchLines(p unsafe.Pointer, n uintptr)
