//go:build !amd64

package emu

import "unsafe"

const havePrefetch = false

func prefetchLines(p unsafe.Pointer, n uintptr) {}
