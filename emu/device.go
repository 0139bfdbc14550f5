package emu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// FlatScratch is how a target initialises FLAT_SCRATCH (INVENTORY §5.3).
type FlatScratch int

// Flat scratch methods.
const (
	// FlatScratchAbsolute: FLAT_SCRATCH = Flat Scratch Init (64-bit base)
	// plus the wave's scratch offset, set by the kernel prolog (GFX9-GFX10.3,
	// GFX90A).
	FlatScratchAbsolute FlatScratch = iota
	// FlatScratchArchitected: hardware initialises FLAT_SCRATCH to the wave's
	// scratch base; no private segment buffer (GFX94x, GFX11+).
	FlatScratchArchitected
)

// Config describes the processor a Device models and how it runs
// dispatches. The processor fields come from the target package's processor
// table (DESIGN.md "target.Processor").
type Config struct {
	Processor          string      // processor name, e.g. "gfx90a"
	CUs                int         // compute units
	WavesPerCU         int         // wave slots per CU
	LDSSize            int         // LDS bytes available to one workgroup
	VGPRs              int         // architected VGPRs per wave (256)
	AGPRs              int         // accumulation VGPRs per wave (0 on gfx900/906)
	UnifiedVGPRFile    bool        // AGPRs follow the VGPRs in one file, placed by ACCUM_OFFSET (gfx90a, gfx94x)
	SGPRs              int         // addressable SGPRs per wave (102 on GFX9)
	WaveSize           int         // 64 (32 is reserved for later targets)
	PackedWorkItemIDs  bool        // v0 = X | Y<<10 | Z<<20 (gfx90a, gfx94x)
	FlatScratch        FlatScratch // FLAT_SCRATCH initialisation method
	KernargPreload     bool        // the target supports KERNARG_PRELOAD_SPEC (gfx90a, gfx94x)
	Memory             Memory      // the device address space; required
	Workers            int         // worker goroutines; 0 means GOMAXPROCS
	ResidentWorkgroups int         // workgroups each worker time-slices; 0 means 4
	SwitchInterval     int         // instructions before a taken backward branch switches waves; 0 means 2048
	Budget             uint64      // instruction budget per dispatch (all waves); 0 means unlimited
	FaultOnLDSRange    bool        // fault on out-of-range LDS accesses instead of GFX9 behaviour
	// OnInterrupt, if set, is called (from a worker goroutine) when a wave
	// sends MSG_INTERRUPT; the runtime wakes the signal's waiters.
	OnInterrupt func(Interrupt)
	// Trace, if set, is called before every executed instruction (slow;
	// for debugging and teaching). Workers call it concurrently.
	Trace func(TraceEvent)
}

// DefaultGFX90A returns the configuration of the default agent, gfx90a
// (MI200: 104 CUs, 32 waves per CU, 64 KiB LDS, 512 unified VGPRs).
func DefaultGFX90A(mem Memory) Config {
	return Config{
		Processor: "gfx90a", CUs: 104, WavesPerCU: 32, LDSSize: 65536,
		VGPRs: 256, AGPRs: 256, UnifiedVGPRFile: true, SGPRs: 102, WaveSize: 64,
		PackedWorkItemIDs: true, FlatScratch: FlatScratchAbsolute, KernargPreload: true,
		Memory: mem,
	}
}

// Device is one software GPU agent. It is safe for concurrent use: several
// dispatches may run at once (each with its own workers).
type Device struct {
	cfg Config

	mu      sync.Mutex
	tables  map[codeKey]*codeTable
	scratch []*scratchArena // free scratch arenas, reused across dispatches
	target  any
	wgPool  sync.Pool
	gws     gwsUnit      // global wave sync resources; they outlive dispatches
	running atomic.Int32 // dispatches in progress (the GWS deadlock check needs to be alone)
	workers atomic.Int32 // SetWorkers' count, or 0 for cfg.Workers
}

// SetWorkers sets the number of worker goroutines of the dispatches that
// start after it returns (n <= 0: GOMAXPROCS), in place of
// Config.Workers; dispatches already running keep theirs. It lets one
// device, with its memory and loaded code, be measured at several worker
// counts.
func (d *Device) SetWorkers(n int) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	d.workers.Store(int32(min(n, 1<<20)))
}

// NewDevice returns a device for cfg.
func NewDevice(cfg Config) (*Device, error) {
	if cfg.Memory == nil {
		return nil, errors.New("emu: Config.Memory is nil")
	}
	if cfg.WaveSize == 0 {
		cfg.WaveSize = 64
	}
	if cfg.WaveSize != 64 {
		return nil, fmt.Errorf("emu: wave size %d: %w", cfg.WaveSize, ErrNotSupported)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.ResidentWorkgroups <= 0 {
		cfg.ResidentWorkgroups = 4
	}
	if cfg.SwitchInterval <= 0 {
		cfg.SwitchInterval = 2048
	}
	if cfg.VGPRs <= 0 {
		cfg.VGPRs = 256
	}
	if cfg.SGPRs <= 0 {
		cfg.SGPRs = 102
	}
	if cfg.LDSSize <= 0 {
		cfg.LDSSize = 65536
	}
	d := &Device{cfg: cfg, tables: make(map[codeKey]*codeTable)}
	if cfg.Processor != "" {
		t, err := lookupTarget(cfg.Processor)
		if err != nil {
			return nil, fmt.Errorf("emu: %w", err)
		}
		d.target = t
	}
	return d, nil
}

// Config returns the device's configuration (with defaults filled in).
func (d *Device) Config() Config { return d.cfg }

// Program is what the kernel descriptor (code object V3+) or
// amd_kernel_code_t (V2) says about setting up waves: the raw register
// fields, as the command processor reads them.
type Program struct {
	Rsrc1, Rsrc2, Rsrc3 uint32 // COMPUTE_PGM_RSRC1/2/3 (INVENTORY §4.3-§4.5)
	// Properties holds bits 448..463 of the descriptor (kernel_code_properties):
	// the user-SGPR enables (INVENTORY §4.1), or for V2 the same bits of
	// amd_kernel_code_t (§4.7) when V2 is set.
	Properties     uint16
	KernargPreload uint16 // descriptor bytes 58-59: preload length (6:0), offset in dwords (15:7)
	V2             bool   // Properties uses the amd_kernel_code_t layout (grid workgroup counts in bits 7-9)
	// GroupSegmentFixedSize and PrivateSegmentFixedSize are the static sizes
	// the code object records; the Dispatch's sizes (which include dynamic
	// parts) take precedence when larger.
	GroupSegmentFixedSize   uint32
	PrivateSegmentFixedSize uint32
}

// Kernel code property bits (INVENTORY §4.1, §4.7).
const (
	propPrivateSegmentBuffer = 1 << 0
	propDispatchPtr          = 1 << 1
	propQueuePtr             = 1 << 2
	propKernargSegmentPtr    = 1 << 3
	propDispatchID           = 1 << 4
	propFlatScratchInit      = 1 << 5
	propPrivateSegmentSize   = 1 << 6
	propV2GridCountX         = 1 << 7
	propV2GridCountY         = 1 << 8
	propV2GridCountZ         = 1 << 9
	propWavefrontSize32      = 1 << 10
)

// Dispatch is one kernel dispatch as the packet processor hands it to the
// device (DESIGN.md "emu.Device.Dispatch").
type Dispatch struct {
	Kernel        string  // kernel name, for faults
	Program       Program // from the kernel descriptor or amd_kernel_code_t
	Entry         uint64  // absolute entry address (descriptor + KERNEL_CODE_ENTRY_BYTE_OFFSET)
	PacketAddr    uint64  // address of the AQL dispatch packet (Dispatch Ptr)
	QueueAddr     uint64  // address of the amd_queue_t (Queue Ptr)
	KernargAddr   uint64  // kernarg segment address
	GridSize      [3]uint32
	WorkgroupSize [3]uint32
	// GroupSegmentSize is the LDS bytes per workgroup: static plus dynamic.
	GroupSegmentSize uint32
	// PrivateSegmentSize is the scratch bytes per work-item (static plus call stack).
	PrivateSegmentSize uint32
	DispatchID         uint64
	// Cooperative marks a dispatch from a cooperative queue
	// (HSA_QUEUE_TYPE_COOPERATIVE): its workgroups may wait for each other
	// at a GWS barrier (HIP's grid sync), so when the grid fits the
	// device's wave slots (CUs x WavesPerCU) scratch is sized for every
	// workgroup and all of them can be resident at once.
	Cooperative bool

	// Stats receives the dispatch's counters when Dispatch returns.
	Stats Counters
}

// Instruction classes counted per dispatch.
const (
	ClassSALU = iota
	ClassSMEM
	ClassBranch
	ClassVALU
	ClassVMEM
	ClassLDS
	ClassOther
	NumClasses
)

// Counters are a dispatch's statistics.
type Counters struct {
	Workgroups   uint64
	Waves        uint64
	Instructions [NumClasses]uint64 // executed instructions by class (ClassSALU …)
	BytesLoaded  uint64             // global/flat/buffer bytes loaded by active lanes
	BytesStored  uint64             // global/flat/buffer bytes stored by active lanes
}

// Total returns the number of executed instructions.
func (c *Counters) Total() uint64 {
	var t uint64
	for _, n := range c.Instructions {
		t += n
	}
	return t
}

func (c *Counters) add(o *Counters) {
	c.Workgroups += o.Workgroups
	c.Waves += o.Waves
	for i := range c.Instructions {
		c.Instructions[i] += o.Instructions[i]
	}
	c.BytesLoaded += o.BytesLoaded
	c.BytesStored += o.BytesStored
}

// Dispatch runs a kernel to completion. It returns nil, or a *Fault when a
// wave faulted, the instruction budget ran out or ctx was canceled; any
// other error means the dispatch could not start. The device stays usable
// in every case.
func (d *Device) Dispatch(ctx context.Context, k *Dispatch) error {
	run, err := d.newRun(ctx, k)
	if err != nil {
		return err
	}
	defer run.release()
	d.running.Add(1)
	defer d.running.Add(-1)
	return run.execute()
}
