package emu

import (
	"sync/atomic"
	"unsafe"
)

// Atomic operations (op.imm of atomic instructions: aXxx | aWide for 64-bit).
const (
	aSwap = iota
	aCmpSwap
	aAdd
	aSub
	aRsub
	aSMin
	aUMin
	aSMax
	aUMax
	aAnd
	aOr
	aXor
	aInc
	aDec
	aFAdd
	aFMin
	aFMax
	aPkFAdd16
	aMskor
	aWide = 1 << 8
)

// apply32 computes the new value of a 32-bit atomic.
func apply32(op uint32, old, src, cmp uint32) uint32 {
	switch op {
	case aSwap:
		return src
	case aCmpSwap:
		if old == cmp {
			return src
		}
		return old
	case aAdd:
		return old + src
	case aSub:
		return old - src
	case aRsub:
		return src - old
	case aSMin:
		return uint32(min(int32(old), int32(src)))
	case aUMin:
		return min(old, src)
	case aSMax:
		return uint32(max(int32(old), int32(src)))
	case aUMax:
		return max(old, src)
	case aAnd:
		return old & src
	case aOr:
		return old | src
	case aXor:
		return old ^ src
	case aInc:
		if old >= src {
			return 0
		}
		return old + 1
	case aDec:
		if old == 0 || old > src {
			return src
		}
		return old - 1
	case aFAdd:
		return u32(f32(old) + f32(src))
	case aFMin:
		return u32(minF32(f32(old), f32(src)))
	case aFMax:
		return u32(maxF32(f32(old), f32(src)))
	case aPkFAdd16:
		lo := f16from64(f16to64(uint16(old))+f16to64(uint16(src)), 0)
		hi := f16from64(f16to64(uint16(old>>16))+f16to64(uint16(src>>16)), 0)
		return uint32(lo) | uint32(hi)<<16
	case aMskor:
		return old&^cmp | src
	}
	return old
}

func apply64(op uint32, old, src, cmp uint64) uint64 {
	switch op {
	case aSwap:
		return src
	case aCmpSwap:
		if old == cmp {
			return src
		}
		return old
	case aAdd:
		return old + src
	case aSub:
		return old - src
	case aRsub:
		return src - old
	case aSMin:
		return uint64(min(int64(old), int64(src)))
	case aUMin:
		return min(old, src)
	case aSMax:
		return uint64(max(int64(old), int64(src)))
	case aUMax:
		return max(old, src)
	case aAnd:
		return old & src
	case aOr:
		return old | src
	case aXor:
		return old ^ src
	case aInc:
		if old >= src {
			return 0
		}
		return old + 1
	case aDec:
		if old == 0 || old > src {
			return src
		}
		return old - 1
	case aFAdd:
		return u64(f64(old) + f64(src))
	case aFMin:
		return u64(minF64(f64(old), f64(src)))
	case aFMax:
		return u64(maxF64(f64(old), f64(src)))
	case aMskor:
		return old&^cmp | src
	}
	return old
}

// hostAtomic32 performs a 32-bit atomic on host memory with sync/atomic and
// returns the old value.
func hostAtomic32(p []byte, op uint32, src, cmp uint32) uint32 {
	ptr := (*uint32)(unsafe.Pointer(&p[0]))
	switch op {
	case aSwap:
		return atomic.SwapUint32(ptr, src)
	case aAdd:
		return atomic.AddUint32(ptr, src) - src
	case aSub:
		return atomic.AddUint32(ptr, -src) + src
	case aAnd:
		return atomic.AndUint32(ptr, src)
	case aOr:
		return atomic.OrUint32(ptr, src)
	}
	for {
		old := atomic.LoadUint32(ptr)
		n := apply32(op, old, src, cmp)
		if op == aCmpSwap && n == old {
			return old
		}
		if atomic.CompareAndSwapUint32(ptr, old, n) {
			return old
		}
	}
}

func hostAtomic64(p []byte, op uint32, src, cmp uint64) uint64 {
	ptr := (*uint64)(unsafe.Pointer(&p[0]))
	switch op {
	case aSwap:
		return atomic.SwapUint64(ptr, src)
	case aAdd:
		return atomic.AddUint64(ptr, src) - src
	case aSub:
		return atomic.AddUint64(ptr, -src) + src
	case aAnd:
		return atomic.AndUint64(ptr, src)
	case aOr:
		return atomic.OrUint64(ptr, src)
	}
	for {
		old := atomic.LoadUint64(ptr)
		n := apply64(op, old, src, cmp)
		if op == aCmpSwap && n == old {
			return old
		}
		if atomic.CompareAndSwapUint64(ptr, old, n) {
			return old
		}
	}
}

// atomicLane performs atomic op (with aWide for 64 bits) at flat address a
// for one lane and returns the old value. Global memory uses host atomics;
// LDS and scratch belong to one goroutine and use plain accesses.
func (w *wave) atomicLane(o *op, l int, a uint64, op uint32, src, cmp uint64) uint64 {
	wide := op&aWide != 0
	op &^= aWide
	n := 4
	if wide {
		n = 8
	}
	if a&uint64(n-1) != 0 {
		w.fault(o, FaultMisaligned, l, a, "misaligned atomic")
	}
	var p []byte
	plain := true
	switch uint32(a >> 32) {
	case SharedApertureHi:
		p = w.ldsBytes(o, l, uint32(a), n)
		if p == nil {
			return 0
		}
	case PrivateApertureHi:
		p = w.gbytes(o, l, w.scratchAddr(l, uint32(a)), n, true)
		if wide {
			// 64-bit scratch atomics span two swizzled dwords.
			lo := w.gbytes(o, l, w.scratchAddr(l, uint32(a)), 4, true)
			hi := w.gbytes(o, l, w.scratchAddr(l, uint32(a)+4), 4, true)
			old := uint64(le.Uint32(lo)) | uint64(le.Uint32(hi))<<32
			nv := apply64(op, old, src, cmp)
			le.PutUint32(lo, uint32(nv))
			le.PutUint32(hi, uint32(nv>>32))
			return old
		}
	default:
		p = w.gbytes(o, l, a, n, true)
		plain = false
	}
	if plain {
		if wide {
			old := le.Uint64(p)
			le.PutUint64(p, apply64(op, old, src, cmp))
			return old
		}
		old := le.Uint32(p)
		le.PutUint32(p, apply32(op, old, uint32(src), uint32(cmp)))
		return uint64(old)
	}
	if wide {
		return hostAtomic64(p, op, src, cmp)
	}
	return uint64(hostAtomic32(p, op, uint32(src), uint32(cmp)))
}
