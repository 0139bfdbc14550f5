package hsa_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"log"
	"os"

	"github.com/rocpu/rocpu/hsa"
)

// Example loads a code object, runs one of its kernels over 256
// work-items and reads the result: the path `rocpu run` takes.
func Example() {
	r, err := hsa.Open(hsa.Config{}) // one gfx90a GPU agent on the emulator
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	gpu := r.GPUAgents()[0]

	data, err := os.ReadFile("testdata/kernels.gfx90a.co4.hsaco")
	if err != nil {
		log.Fatal(err)
	}
	rd, _ := r.CodeObjectReaderFromMemory(data)
	exe, _ := r.CreateExecutable(hsa.HSA_PROFILE_BASE, hsa.HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "")
	if _, err := exe.LoadAgentCodeObject(gpu, rd, ""); err != nil {
		log.Fatal(err)
	}
	exe.Freeze("")
	sym, err := exe.Symbol("add.kd", gpu)
	if err != nil {
		log.Fatal(err)
	}

	out, _ := gpu.Pools()[0].Allocate(256*4, 0) // coarse-grained device memory
	q, _ := r.CreateQueue(gpu, 64, hsa.HSA_QUEUE_TYPE_SINGLE, nil, ^uint32(0), ^uint32(0))
	if err := q.Launch(context.Background(), sym.Kernel(), [3]uint32{256, 1, 1}, [3]uint32{64, 1, 1}, out, int32(100)); err != nil {
		log.Fatal(err) // an *emu.Fault names kernel, PC, lane, address and instruction
	}
	b, _ := r.Space().Slice(out, 256*4)
	fmt.Println(binary.LittleEndian.Uint32(b[4*5:]))
}
