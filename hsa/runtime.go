package hsa

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/vmem"
	"github.com/rocpu/rocpu/target"
)

// Device is the GPU an agent drives: the whole interface between the
// runtime and the emulator (DESIGN.md "emu.Device.Dispatch"). *emu.Device
// implements it. Dispatch runs a kernel to completion and returns nil, an
// *emu.Fault, or another error when the dispatch could not start; it must
// return promptly when ctx is canceled.
type Device interface {
	Dispatch(ctx context.Context, d *emu.Dispatch) error
}

// DeviceConfig is what Config.NewDevice gets to build one GPU agent's
// device.
type DeviceConfig struct {
	Processor  *target.Processor
	Memory     emu.Memory // the runtime's address space, as the emulator reads it
	Workers    int        // worker goroutines per dispatch; 0 means GOMAXPROCS
	CUs        int        // compute units the agent reports
	WavesPerCU int        // wave slots per CU the agent reports
	Budget     uint64     // instruction budget per dispatch; 0 means unlimited
	// OnInterrupt is the runtime's s_sendmsg(MSG_INTERRUPT) hook
	// (Runtime.Interrupt), for emu.Config.OnInterrupt.
	OnInterrupt func(emu.Interrupt)
}

// DefaultTarget is the target ID of the default GPU agent (DESIGN.md
// "Looking like a GPU to HIP 5.2").
const DefaultTarget = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"

// Config configures a Runtime. The zero value gives one gfx90a GPU agent.
type Config struct {
	// Targets are the GPU agents' target IDs ("gfx90a",
	// "gfx90a:sramecc+:xnack-", or with the triple), one agent each.
	// Target-ID features left unspecified get sramecc+ and xnack- (xnack+
	// would make HIP assume HMM). Empty means one DefaultTarget agent.
	Targets []string
	// Workers is the number of emulator worker goroutines per dispatch;
	// 0 means GOMAXPROCS.
	Workers int
	// Budget is the instruction budget per dispatch; 0 means unlimited.
	Budget uint64
	// NewDevice builds a GPU agent's device; nil means emu.NewDevice.
	// Tests plug in fakes here.
	NewDevice func(DeviceConfig) (Device, error)
	// Stderr receives fault reports (kernel, PC, lane, address,
	// instruction) when a queue enters its error state; nil means
	// os.Stderr.
	Stderr io.Writer
	// PrintfOutput receives what kernels print with OpenCL printf when
	// launched with Queue.Launch; nil means os.Stdout.
	PrintfOutput io.Writer
	// PrintfBufferSize is the size of the printf buffer Launch allocates
	// for kernels that use printf; 0 means 1 MiB.
	PrintfBufferSize uint64
	// CDoorbells says C code also rings the queues' doorbells (the C
	// library sets it): an idle packet processor then sleeps in futex(2),
	// which a store from C wakes without entering Go. Otherwise it waits
	// on a Go channel, which holds no P while it waits. To Go, futex is an
	// ordinary system call: the sleeping goroutine keeps its P until
	// sysmon takes it back, up to 10 ms later, and a worker of another
	// queue's dispatch waits for that P (runtime/trace, matmul medium with
	// a second runtime's processor asleep: the second worker started 4 ms
	// into a 4 ms dispatch).
	CDoorbells bool
}

// ConfigFromEnv returns a Config from the environment:
// ROCPU_TARGETS=gfx90a[,gfx90a…] and ROCPU_WORKERS=N.
func ConfigFromEnv() (Config, error) {
	var c Config
	if v := strings.TrimSpace(os.Getenv("ROCPU_TARGETS")); v != "" {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				c.Targets = append(c.Targets, t)
			}
		}
	}
	if v := strings.TrimSpace(os.Getenv("ROCPU_WORKERS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, errorf("ConfigFromEnv", HSA_STATUS_ERROR_INVALID_ARGUMENT, "ROCPU_WORKERS=%q is not a non-negative integer", v)
		}
		c.Workers = n
	}
	return c, nil
}

// agentTargetID parses a configured target and pins the target-ID
// features it leaves open.
func agentTargetID(s string) (target.ID, error) {
	id, err := target.ParseID(s)
	if err != nil {
		return target.ID{}, err
	}
	if err := id.Processor.CheckExecutable(); err != nil {
		return target.ID{}, err
	}
	if id.Processor.Generic {
		return target.ID{}, fmt.Errorf("target %s: an agent cannot have a generic processor", s)
	}
	feats := map[target.Feature]target.FeatureSetting{}
	for _, f := range id.Processor.IDFeatures() {
		st := id.Features[f]
		if st == target.Any {
			st = target.Off
			if f == target.FeatureSRAMECC {
				st = target.On
			}
		}
		feats[f] = st
	}
	id.Features = feats
	id.Legacy = false
	return id, nil
}

// Handle kinds: the top byte of an opaque handle names the table it indexes,
// so a pool handle passed as an agent is rejected, and bits 55:32 hold the
// runtime's generation, so handles from a shut-down runtime are stale.
const (
	tagAgent     = 0xA1
	tagPool      = 0xA2
	tagISA       = 0xA3
	tagCache     = 0xA4
	tagWavefront = 0xA5
)

var generation atomic.Uint32

func (r *Runtime) handle(tag byte, index int) uint64 {
	return uint64(tag)<<56 | uint64(r.gen&0xFFFFFF)<<32 | uint64(index+1)
}

// index decodes a handle of kind tag; -1 if it is not one of this runtime's.
func (r *Runtime) index(tag byte, h uint64) int {
	if byte(h>>56) != tag || uint32(h>>32)&0xFFFFFF != r.gen&0xFFFFFF || uint32(h) == 0 {
		return -1
	}
	return int(uint32(h)) - 1
}

// Runtime is one instance of the HSA runtime: its agents, memory, signals
// and queues. All methods are safe for concurrent use.
type Runtime struct {
	cfg    Config
	gen    uint32
	stderr io.Writer

	refMu sync.Mutex
	refs  int
	open  atomic.Bool

	space *vmem.Space

	agents  []*Agent
	pools   []*MemoryPool
	caches  []*Cache
	isaMu   sync.Mutex
	isas    []*ISA
	isaByID map[string]*ISA
	waves   []*Wavefront

	mem memoryState
	sig signalState
	q   queueState

	ldr    loaderState
	events eventState
	img    imageState // image.go

	kernMu  sync.RWMutex
	kernels map[uint64]*Kernel
	layouts sync.Map // *codeobject.Kernel -> *codeobject.KernargLayout (Launch)

	statsMu sync.Mutex
	stats   Stats

	ctx    context.Context
	cancel context.CancelFunc
	bgMu   sync.RWMutex   // orders goBackground against shutdown's Wait
	bg     sync.WaitGroup // asynchronous copies and Launch clean-ups
}

// goBackground runs fn on a goroutine shutdown waits for, unless the
// runtime is already shutting down (then it reports false).
func (r *Runtime) goBackground(fn func()) bool {
	r.bgMu.RLock()
	defer r.bgMu.RUnlock()
	if !r.open.Load() {
		return false
	}
	r.bg.Add(1)
	go func() {
		defer r.bg.Done()
		fn()
	}()
	return true
}

var (
	defaultMu sync.Mutex
	defaultRT *Runtime
)

// Open is hsa_init: it returns the process-wide runtime, creating it from
// cfg when there is none (cfg is ignored otherwise) and incrementing its
// reference count. Each Open needs one Close.
func Open(cfg Config) (*Runtime, error) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultRT != nil {
		if err := defaultRT.Acquire(); err == nil {
			return defaultRT, nil
		}
	}
	r, err := New(cfg)
	if err != nil {
		return nil, err
	}
	defaultRT = r
	return r, nil
}

// Default returns the process-wide runtime Open made, or nil when it is not
// open.
func Default() *Runtime {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultRT != nil && defaultRT.open.Load() {
		return defaultRT
	}
	return nil
}

// New creates an independent runtime with reference count 1.
func New(cfg Config) (*Runtime, error) {
	const op = "Open"
	if err := vmem.CheckApertures(); err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "aperture check")
	}
	if len(cfg.Targets) == 0 {
		cfg.Targets = []string{DefaultTarget}
	}
	if cfg.Workers < 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "Workers %d < 0", cfg.Workers)
	}
	r := &Runtime{
		cfg:     cfg,
		gen:     generation.Add(1),
		stderr:  cfg.Stderr,
		refs:    1,
		space:   vmem.New(),
		isaByID: map[string]*ISA{},
		kernels: map[uint64]*Kernel{},
	}
	if r.stderr == nil {
		r.stderr = os.Stderr
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.open.Store(true)
	if err := r.mem.init(r); err != nil {
		r.space.Close()
		return nil, err
	}
	r.sig.init(r)
	if err := r.buildAgents(); err != nil {
		r.shutdown()
		return nil, err
	}
	r.q.init()
	r.startHandlers()
	return r, nil
}

// Acquire increments the reference count (hsa_init on an initialised
// runtime). It fails with HSA_STATUS_ERROR_NOT_INITIALIZED after the last
// Close and with HSA_STATUS_ERROR_REFCOUNT_OVERFLOW at 2^31-1 references.
func (r *Runtime) Acquire() error {
	r.refMu.Lock()
	defer r.refMu.Unlock()
	if r.refs == 0 {
		return errorf("Acquire", HSA_STATUS_ERROR_NOT_INITIALIZED, "runtime is shut down")
	}
	if r.refs >= 1<<31-1 {
		return errorf("Acquire", HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, "%d references", r.refs)
	}
	r.refs++
	return nil
}

// Close is hsa_shut_down: it decrements the reference count and, when it
// reaches 0, stops every queue (canceling running kernels), the async
// handler goroutine and asynchronous copies, wakes every waiter, and
// releases all memory. Closing a shut-down runtime returns
// HSA_STATUS_ERROR_NOT_INITIALIZED.
func (r *Runtime) Close() error {
	r.refMu.Lock()
	if r.refs == 0 {
		r.refMu.Unlock()
		return errorf("Close", HSA_STATUS_ERROR_NOT_INITIALIZED, "runtime is not initialised")
	}
	r.refs--
	last := r.refs == 0
	r.refMu.Unlock()
	if !last {
		return nil
	}
	r.shutdown()
	defaultMu.Lock()
	if defaultRT == r {
		defaultRT = nil
	}
	defaultMu.Unlock()
	return nil
}

func (r *Runtime) shutdown() {
	r.bgMu.Lock()
	r.open.Store(false)
	r.bgMu.Unlock()
	r.cancel()
	r.q.closeAll()
	r.sig.closeAll()
	r.bg.Wait()
	r.sig.drainWaiters()
	for _, e := range r.Executables() {
		e.mu.Lock()
		e.releaseLocked()
		e.mu.Unlock()
	}
	r.space.Close()
}

// check returns HSA_STATUS_ERROR_NOT_INITIALIZED once the runtime is shut
// down.
func (r *Runtime) check(op string) error {
	if r == nil || !r.open.Load() {
		return errorf(op, HSA_STATUS_ERROR_NOT_INITIALIZED, "runtime is not initialised")
	}
	return nil
}

// Space returns the runtime's device address space (for the emulator, the
// loader and the C ABI's hot paths).
func (r *Runtime) Space() *vmem.Space { return r.space }

// Memory returns the address space as the emulator reads it.
func (r *Runtime) Memory() emu.Memory { return emuMemory{r.space} }

// emuMemory adapts a vmem.Space to emu.Memory.
type emuMemory struct{ s *vmem.Space }

func (m emuMemory) Lookup(addr uint64) (emu.Region, bool) {
	reg := m.s.Find(addr)
	if reg == nil {
		return emu.Region{}, false
	}
	return emu.Region{Base: reg.Base, Data: reg.Bytes(reg.Base, reg.Size), ReadOnly: !reg.Kind.DeviceWritable()}, true
}

// epoch is when epochMono was read; Timestamp counts from there with Go's
// monotonic clock.
var epoch, epochMono = time.Now(), clockMonotonic()

// clockMonotonic reads CLOCK_MONOTONIC in nanoseconds. The system
// timestamp is in that clock's domain, as ROCr's is: HIP's
// hipEventElapsedTime may subtract a host timestamp (its
// amd::Os::timeNanos, CLOCK_MONOTONIC) from a packet's profiling
// timestamp, and got a negative time when rocpu counted from its own start.
func clockMonotonic() uint64 {
	var ts syscall.Timespec
	const clockMonotonic = 1 // CLOCK_MONOTONIC
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return uint64(ts.Nano())
}

// TimestampFrequency is HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY: 1 GHz, so a
// tick is a nanosecond.
const TimestampFrequency = 1_000_000_000

// Timestamp returns HSA_SYSTEM_INFO_TIMESTAMP: nanoseconds of
// CLOCK_MONOTONIC (see clockMonotonic), never 0.
func Timestamp() uint64 { return epochMono + uint64(time.Since(epoch).Nanoseconds()) + 1 }

// defaultDevice builds an emu.Device for a GPU agent.
func defaultDevice(c DeviceConfig) (Device, error) {
	p := c.Processor
	fs := emu.FlatScratchAbsolute
	if p.FlatScratch == target.FlatScratchArchitected {
		fs = emu.FlatScratchArchitected
	}
	return emu.NewDevice(emu.Config{
		Processor: p.Name, CUs: c.CUs, WavesPerCU: c.WavesPerCU, LDSSize: p.LDSSize,
		VGPRs: p.VGPRs, AGPRs: p.AGPRs, UnifiedVGPRFile: p.UnifiedVGPRFile, SGPRs: p.SGPRs,
		WaveSize: p.DefaultWaveSize, PackedWorkItemIDs: p.PackedWorkItemIDs, FlatScratch: fs,
		KernargPreload: p.KernargPreload, Memory: c.Memory, Workers: c.Workers, Budget: c.Budget,
		OnInterrupt: c.OnInterrupt,
	})
}

func numCPU() int { return runtime.NumCPU() }

// Stats are runtime-wide counters over every kernel dispatch of every
// queue, destroyed ones included (rocpu exec --stats).
type Stats struct {
	Kernels  uint64        // kernel dispatch packets run (faulting ones included)
	Busy     time.Duration // wall time spent executing them, summed over dispatches
	Counters emu.Counters  // the device counters, summed
}

// Stats returns the runtime-wide counters; it may be called after Close.
func (r *Runtime) Stats() Stats {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	return r.stats
}

func (r *Runtime) countDispatch(busy time.Duration, c *emu.Counters) {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	s := &r.stats
	s.Kernels++
	s.Busy += busy
	s.Counters.Workgroups += c.Workgroups
	s.Counters.Waves += c.Waves
	for i := range c.Instructions {
		s.Counters.Instructions[i] += c.Instructions[i]
	}
	s.Counters.BytesLoaded += c.BytesLoaded
	s.Counters.BytesStored += c.BytesStored
}
