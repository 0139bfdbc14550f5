#include "textflag.h"

// func prefetchLines(p unsafe.Pointer, n uintptr)
// PREFETCHT0 of the n/64 cache lines from p (n a multiple of 64, at least
// 64). A prefetch never faults and changes no memory.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	SUBQ $64, CX
	JHI  loop
	RET
