package vmem_test

import (
	"fmt"
	"sync/atomic"

	"github.com/rocpu/rocpu/internal/vmem"
)

// A wave's global store: one range check over the active lanes, then raw
// per-lane stores; per-lane checks only when the lanes leave one region.
func ExampleCache() {
	s := vmem.New()
	defer s.Close()
	buf, _ := s.Alloc(64*4, 0, vmem.KindPool, "out")

	var addrs [64]uint64
	for lane := range addrs {
		addrs[lane] = buf.Base + uint64(lane)*4
	}
	lo, hi := addrs[0], addrs[63]+4 // min and max over the active lanes

	var c vmem.Cache // one per wave
	if r := c.Range(s, lo, hi, vmem.AccessWrite); r != nil {
		for lane, a := range addrs {
			*r.U32(a) = uint32(lane)
		}
	} else {
		for lane, a := range addrs {
			r, err := c.Lookup(s, a, 4, vmem.AccessWrite)
			if err != nil {
				fmt.Println("fault in lane", lane, err)
				return
			}
			*r.U32(a) = uint32(lane)
		}
	}
	// An atomic goes through Lookup for its alignment check.
	r, err := c.Lookup(s, buf.Base+8, 4, vmem.AccessAtomic)
	if err == nil {
		atomic.AddUint32(r.U32(buf.Base+8), 100)
	}
	fmt.Println(*buf.U32(buf.Base + 8), *buf.U32(buf.Base + 252))

	// A store one past the end faults.
	_, err = c.Lookup(s, buf.End(), 4, vmem.AccessWrite)
	fmt.Println(err != nil)
	// Output:
	// 102 63
	// true
}
