package hsa

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rocpu/rocpu/internal/vmem"
	"github.com/rocpu/rocpu/target"
)

// DeviceType is hsa_device_type_t (hsa.h).
type DeviceType uint32

// Device types.
const (
	HSA_DEVICE_TYPE_CPU DeviceType = 0
	HSA_DEVICE_TYPE_GPU DeviceType = 1
	HSA_DEVICE_TYPE_DSP DeviceType = 2
)

// Enumerations agent and ISA attributes return (hsa.h).
const (
	HSA_AGENT_FEATURE_KERNEL_DISPATCH = 1
	HSA_AGENT_FEATURE_AGENT_DISPATCH  = 2

	HSA_MACHINE_MODEL_SMALL = 0
	HSA_MACHINE_MODEL_LARGE = 1

	HSA_PROFILE_BASE = 0
	HSA_PROFILE_FULL = 1

	HSA_ENDIANNESS_LITTLE = 0
	HSA_ENDIANNESS_BIG    = 1

	HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT = 0
	HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO    = 1
	HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR    = 2

	// hsa_extension_t values.
	HSA_EXTENSION_FINALIZER            = 0
	HSA_EXTENSION_IMAGES               = 1
	HSA_EXTENSION_PERFORMANCE_COUNTERS = 2
	HSA_EXTENSION_PROFILING_EVENTS     = 3
	HSA_EXTENSION_AMD_PROFILER         = 0x200
	HSA_EXTENSION_AMD_LOADER           = 0x201
	HSA_EXTENSION_AMD_AQLPROFILE       = 0x202
)

// AgentInfo is hsa_agent_info_t (hsa.h) together with hsa_amd_agent_info_t
// (hsa_ext_amd.h).
type AgentInfo uint32

// Agent attributes. The comment gives the Go type Agent.Info returns.
const (
	HSA_AGENT_INFO_NAME                                      AgentInfo = 0  // string (char[64])
	HSA_AGENT_INFO_VENDOR_NAME                               AgentInfo = 1  // string (char[64])
	HSA_AGENT_INFO_FEATURE                                   AgentInfo = 2  // uint32 (hsa_agent_feature_t)
	HSA_AGENT_INFO_MACHINE_MODEL                             AgentInfo = 3  // uint32
	HSA_AGENT_INFO_PROFILE                                   AgentInfo = 4  // uint32
	HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE               AgentInfo = 5  // uint32
	HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES AgentInfo = 23 // uint32
	HSA_AGENT_INFO_FAST_F16_OPERATION                        AgentInfo = 24 // bool
	HSA_AGENT_INFO_WAVEFRONT_SIZE                            AgentInfo = 6  // uint32
	HSA_AGENT_INFO_WORKGROUP_MAX_DIM                         AgentInfo = 7  // [3]uint16
	HSA_AGENT_INFO_WORKGROUP_MAX_SIZE                        AgentInfo = 8  // uint32
	HSA_AGENT_INFO_GRID_MAX_DIM                              AgentInfo = 9  // Dim3
	HSA_AGENT_INFO_GRID_MAX_SIZE                             AgentInfo = 10 // uint32
	HSA_AGENT_INFO_FBARRIER_MAX_SIZE                         AgentInfo = 11 // uint32
	HSA_AGENT_INFO_QUEUES_MAX                                AgentInfo = 12 // uint32
	HSA_AGENT_INFO_QUEUE_MIN_SIZE                            AgentInfo = 13 // uint32
	HSA_AGENT_INFO_QUEUE_MAX_SIZE                            AgentInfo = 14 // uint32
	HSA_AGENT_INFO_QUEUE_TYPE                                AgentInfo = 15 // uint32 (hsa_queue_type32_t)
	HSA_AGENT_INFO_NODE                                      AgentInfo = 16 // uint32
	HSA_AGENT_INFO_DEVICE                                    AgentInfo = 17 // DeviceType
	HSA_AGENT_INFO_CACHE_SIZE                                AgentInfo = 18 // [4]uint32
	HSA_AGENT_INFO_ISA                                       AgentInfo = 19 // *ISA (nil for the CPU)
	HSA_AGENT_INFO_EXTENSIONS                                AgentInfo = 20 // [128]byte
	HSA_AGENT_INFO_VERSION_MAJOR                             AgentInfo = 21 // uint16
	HSA_AGENT_INFO_VERSION_MINOR                             AgentInfo = 22 // uint16

	HSA_AMD_AGENT_INFO_CHIP_ID                        AgentInfo = 0xA000 // uint32
	HSA_AMD_AGENT_INFO_CACHELINE_SIZE                 AgentInfo = 0xA001 // uint32
	HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT             AgentInfo = 0xA002 // uint32
	HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY            AgentInfo = 0xA003 // uint32 (MHz)
	HSA_AMD_AGENT_INFO_DRIVER_NODE_ID                 AgentInfo = 0xA004 // uint32
	HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS       AgentInfo = 0xA005 // uint32
	HSA_AMD_AGENT_INFO_BDFID                          AgentInfo = 0xA006 // uint32
	HSA_AMD_AGENT_INFO_MEMORY_WIDTH                   AgentInfo = 0xA007 // uint32
	HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY           AgentInfo = 0xA008 // uint32 (MHz)
	HSA_AMD_AGENT_INFO_PRODUCT_NAME                   AgentInfo = 0xA009 // string (char[64])
	HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU               AgentInfo = 0xA00A // uint32
	HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU               AgentInfo = 0xA00B // uint32
	HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES             AgentInfo = 0xA00C // uint32
	HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE       AgentInfo = 0xA00D // uint32
	HSA_AMD_AGENT_INFO_HDP_FLUSH                      AgentInfo = 0xA00E // HDPFlush
	HSA_AMD_AGENT_INFO_DOMAIN                         AgentInfo = 0xA00F // uint32
	HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES             AgentInfo = 0xA010 // bool
	HSA_AMD_AGENT_INFO_UUID                           AgentInfo = 0xA011 // string (char[21])
	HSA_AMD_AGENT_INFO_ASIC_REVISION                  AgentInfo = 0xA012 // uint32
	HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS         AgentInfo = 0xA013 // bool
	HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT AgentInfo = 0xA014 // uint32

	// hsa_ext_agent_info_t (hsa_ext_image.h): GPU agents implement the
	// images extension (image.go). The header calls these values size_t,
	// but ROCr writes uint32 (image_runtime.cpp GetImageInfoMaxDimension,
	// the GPU agent's GetInfo) and ROCclr reads them into uint32 variables
	// and arrays: eight-byte values overran them and gave HIP a 2D maximum
	// height of 0.
	HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS            AgentInfo = 0x3000 // uint32
	HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS           AgentInfo = 0x3001 // uint32
	HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS           AgentInfo = 0x3002 // uint32
	HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS            AgentInfo = 0x3003 // [2]uint32
	HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS           AgentInfo = 0x3004 // [2]uint32
	HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS       AgentInfo = 0x3005 // [2]uint32
	HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS      AgentInfo = 0x3006 // [2]uint32
	HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS            AgentInfo = 0x3007 // [3]uint32
	HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS           AgentInfo = 0x3008 // uint32
	HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES             AgentInfo = 0x3009 // uint32
	HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES           AgentInfo = 0x300A // uint32
	HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS             AgentInfo = 0x300B // uint32
	HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT AgentInfo = 0x300C // uint32
)

// Dim3 is hsa_dim3_t.
type Dim3 struct{ X, Y, Z uint32 }

// HDPFlush is hsa_amd_hdp_flush_t: the addresses of the HDP flush
// registers. rocpu gives two words of device-visible memory, so writes to
// them are harmless.
type HDPFlush struct{ MemFlushCntl, RegFlushCntl uint64 }

// Agent limits reported for GPU agents (the values ROCr reports for GFX9).
const (
	WorkgroupMaxSize = 1024
	QueueMinSize     = 64     // packets
	QueueMaxSize     = 131072 // packets
	QueuesMax        = 128
	FbarrierMaxSize  = 32
	gridMax          = 0xFFFFFFFF
)

// chip holds the board facts the target table does not: what the agent
// reports for a processor (its most common board).
type chip struct {
	id            uint32
	product       string
	cus           int
	wavesPerCU    int
	clockMHz      uint32
	memClockMHz   uint32
	memWidth      uint32
	l1, l2        uint32
	shaderEngines uint32
}

var chips = map[string]chip{
	"gfx900": {0x687f, "Radeon RX Vega", 64, 40, 1630, 945, 2048, 16 << 10, 4 << 20, 4},
	"gfx906": {0x66a1, "AMD Instinct MI50", 60, 40, 1725, 1000, 4096, 16 << 10, 4 << 20, 4},
	"gfx908": {0x738c, "AMD Instinct MI100", 120, 40, 1502, 1200, 4096, 16 << 10, 8 << 20, 8},
	"gfx90a": {0x740f, "AMD Instinct MI210", 104, 32, 1700, 1600, 4096, 16 << 10, 8 << 20, 8},
	"gfx940": {0x7408, "AMD Instinct MI300", 228, 32, 2100, 1300, 8192, 16 << 10, 4 << 20, 32},
	"gfx941": {0x7408, "AMD Instinct MI300", 228, 32, 2100, 1300, 8192, 16 << 10, 4 << 20, 32},
	"gfx942": {0x74a1, "AMD Instinct MI300X", 304, 32, 2100, 1300, 8192, 16 << 10, 4 << 20, 32},
}

func chipFor(p *target.Processor) chip {
	if c, ok := chips[p.Name]; ok {
		return c
	}
	return chip{0, "rocpu " + p.Name, 64, 40, 1500, 1000, 2048, 16 << 10, 4 << 20, 4}
}

// Agent is an HSA agent: the CPU, or a GPU backed by a Device.
type Agent struct {
	rt     *Runtime
	handle uint64
	typ    DeviceType
	node   uint32
	name   string
	vendor string
	uuid   string
	// GPU agents only:
	id     target.ID
	isa    *ISA
	dev    Device
	chip   chip
	hdp    uint64 // two uint32 words for HSA_AMD_AGENT_INFO_HDP_FLUSH
	pools  []*MemoryPool
	caches []*Cache
	cpu    cpuFacts
}

// Handle returns the opaque hsa_agent_t handle.
func (a *Agent) Handle() uint64 { return a.handle }

// SetWorkers sets how many worker goroutines a GPU agent's device gives
// the dispatches that start after the call (n <= 0: GOMAXPROCS), in place
// of Config.Workers. Memory, queues and loaded code stay as they are, so
// one set of buffers can be measured at several worker counts (rocpu
// bench's scaling). An agent without an emulated device (a CPU agent, or
// a Config.NewDevice device lacking SetWorkers) returns
// HSA_STATUS_ERROR_INVALID_AGENT.
func (a *Agent) SetWorkers(n int) error {
	if a == nil {
		return errorf("Agent.SetWorkers", HSA_STATUS_ERROR_INVALID_AGENT, "nil agent")
	}
	d, ok := a.dev.(interface{ SetWorkers(int) })
	if !ok {
		return errorf("Agent.SetWorkers", HSA_STATUS_ERROR_INVALID_AGENT, "agent %s has no emulated device whose workers can be set", a.name)
	}
	d.SetWorkers(n)
	return nil
}

// Type returns the device type.
func (a *Agent) Type() DeviceType { return a.typ }

// Name returns HSA_AGENT_INFO_NAME ("gfx90a" for a GPU).
func (a *Agent) Name() string { return a.name }

// Node returns HSA_AGENT_INFO_NODE.
func (a *Agent) Node() uint32 { return a.node }

// ISA returns the agent's ISA (nil for the CPU agent).
func (a *Agent) ISA() *ISA { return a.isa }

// ISAs returns the ISAs hsa_agent_iterate_isas visits: exactly one for a
// GPU agent, none for the CPU.
func (a *Agent) ISAs() []*ISA {
	if a.isa == nil {
		return nil
	}
	return []*ISA{a.isa}
}

// TargetID returns a GPU agent's target ID.
func (a *Agent) TargetID() target.ID { return a.id }

// Device returns a GPU agent's device (nil for the CPU).
func (a *Agent) Device() Device { return a.dev }

// Pools returns the memory pools hsa_amd_agent_iterate_memory_pools visits
// (also the regions hsa_agent_iterate_regions visits).
func (a *Agent) Pools() []*MemoryPool { return a.pools }

// Caches returns the caches hsa_agent_iterate_caches visits.
func (a *Agent) Caches() []*Cache { return a.caches }

// Runtime returns the agent's runtime.
func (a *Agent) Runtime() *Runtime { return a.rt }

func (a *Agent) String() string { return fmt.Sprintf("agent %d (%s)", a.node, a.name) }

// Agents returns every agent, the CPU first (hsa_iterate_agents order).
func (r *Runtime) Agents() ([]*Agent, error) {
	if err := r.check("Agents"); err != nil {
		return nil, err
	}
	return r.agents, nil
}

// Agent returns the agent whose handle is h, or an error with
// HSA_STATUS_ERROR_INVALID_AGENT.
func (r *Runtime) Agent(h uint64) (*Agent, error) {
	if err := r.check("Agent"); err != nil {
		return nil, err
	}
	i := r.index(tagAgent, h)
	if i < 0 || i >= len(r.agents) {
		return nil, errorf("Agent", HSA_STATUS_ERROR_INVALID_AGENT, "no agent with handle %#x", h)
	}
	return r.agents[i], nil
}

// CPUAgent returns the CPU agent.
func (r *Runtime) CPUAgent() *Agent { return r.agents[0] }

// GPUAgents returns the GPU agents in node order.
func (r *Runtime) GPUAgents() []*Agent { return r.agents[1:] }

// cpuFacts is what the CPU agent reports, read from the host.
type cpuFacts struct {
	model    string
	mhz      uint32
	cores    int
	caches   []cacheFact
	ramBytes uint64
}

type cacheFact struct {
	level uint8
	size  uint32
	name  string
}

func readCPUFacts() cpuFacts {
	f := cpuFacts{model: "rocpu host CPU", cores: numCPU(), ramBytes: 16 << 30}
	if fh, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			switch k {
			case "model name":
				if f.model == "rocpu host CPU" && v != "" {
					f.model = v
				}
			case "cpu MHz":
				if f.mhz == 0 {
					if x, err := strconv.ParseFloat(v, 64); err == nil {
						f.mhz = uint32(x)
					}
				}
			}
		}
		fh.Close()
	}
	if fh, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) >= 2 && fs[0] == "MemTotal:" {
				if kb, err := strconv.ParseUint(fs[1], 10, 64); err == nil && kb > 0 {
					f.ramBytes = kb << 10
				}
			}
		}
		fh.Close()
	}
	for i := 0; i < 8; i++ {
		dir := fmt.Sprintf("/sys/devices/system/cpu/cpu0/cache/index%d/", i)
		lv, err1 := os.ReadFile(dir + "level")
		sz, err2 := os.ReadFile(dir + "size")
		ty, _ := os.ReadFile(dir + "type")
		if err1 != nil || err2 != nil {
			break
		}
		level, _ := strconv.Atoi(strings.TrimSpace(string(lv)))
		s := strings.TrimSpace(string(sz))
		mult := uint64(1)
		switch {
		case strings.HasSuffix(s, "K"):
			mult, s = 1<<10, strings.TrimSuffix(s, "K")
		case strings.HasSuffix(s, "M"):
			mult, s = 1<<20, strings.TrimSuffix(s, "M")
		}
		n, _ := strconv.ParseUint(s, 10, 64)
		typ := strings.TrimSpace(string(ty))
		if typ == "Instruction" || level <= 0 || n == 0 {
			continue
		}
		f.caches = append(f.caches, cacheFact{uint8(level), uint32(n * mult), fmt.Sprintf("L%d", level)})
	}
	if len(f.caches) == 0 {
		f.caches = []cacheFact{{1, 32 << 10, "L1"}, {2, 1 << 20, "L2"}}
	}
	if f.mhz == 0 {
		f.mhz = 2000
	}
	return f
}

func (r *Runtime) buildAgents() error {
	facts := readCPUFacts()
	cpu := &Agent{rt: r, typ: HSA_DEVICE_TYPE_CPU, node: 0, name: facts.model, vendor: "CPU",
		uuid: "CPU-XX", cpu: facts}
	r.addAgent(cpu)
	for _, fc := range facts.caches {
		r.addCache(cpu, fc.name, fc.level, fc.size)
	}
	r.addPool(cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT|HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, facts.ramBytes)
	r.addPool(cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED, facts.ramBytes)
	r.addPool(cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, facts.ramBytes)

	newDev := r.cfg.NewDevice
	if newDev == nil {
		newDev = defaultDevice
	}
	for i, t := range r.cfg.Targets {
		id, err := agentTargetID(t)
		if err != nil {
			return wrapf("Open", HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "GPU agent %d target %q", i, t)
		}
		c := chipFor(id.Processor)
		dev, err := newDev(DeviceConfig{Processor: id.Processor, Memory: r.Memory(), Workers: r.cfg.Workers,
			CUs: c.cus, WavesPerCU: c.wavesPerCU, Budget: r.cfg.Budget, OnInterrupt: r.Interrupt})
		if err != nil {
			return wrapf("Open", HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "GPU agent %d (%s) device", i, id)
		}
		hdp, err := r.space.Alloc(8, 8, vmem.KindSignal, "hdp flush registers")
		if err != nil {
			return wrapf("Open", HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "HDP flush registers")
		}
		gpu := &Agent{rt: r, typ: HSA_DEVICE_TYPE_GPU, node: uint32(len(r.agents)), name: id.Processor.Name,
			vendor: "AMD", uuid: fmt.Sprintf("GPU-%016x", uint64(0x726f637075)<<24|uint64(i)),
			id: id, dev: dev, chip: c, hdp: hdp.Base}
		gpu.isa = r.isaFor(id)
		r.addAgent(gpu)
		r.addCache(gpu, "L1", 1, c.l1)
		r.addCache(gpu, "L2", 2, c.l2)
		r.addPool(gpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED, facts.ramBytes)
		r.addPool(gpu, HSA_AMD_SEGMENT_GROUP, 0, uint64(id.Processor.LDSSize))
	}
	return nil
}

func (r *Runtime) addAgent(a *Agent) {
	a.handle = r.handle(tagAgent, len(r.agents))
	r.agents = append(r.agents, a)
}

// Info returns the value of an agent attribute, with the Go type its
// constant's comment gives; unknown attributes get
// HSA_STATUS_ERROR_INVALID_ARGUMENT.
func (a *Agent) Info(attr AgentInfo) (any, error) {
	const op = "Agent.Info"
	if err := a.rt.check(op); err != nil {
		return nil, err
	}
	gpu := a.typ == HSA_DEVICE_TYPE_GPU
	u32 := func(gpuVal, cpuVal uint32) any {
		if gpu {
			return gpuVal
		}
		return cpuVal
	}
	switch attr {
	case HSA_AGENT_INFO_NAME:
		return a.name, nil
	case HSA_AGENT_INFO_VENDOR_NAME:
		return a.vendor, nil
	case HSA_AGENT_INFO_FEATURE:
		return u32(HSA_AGENT_FEATURE_KERNEL_DISPATCH, 0), nil
	case HSA_AGENT_INFO_MACHINE_MODEL:
		return uint32(HSA_MACHINE_MODEL_LARGE), nil
	case HSA_AGENT_INFO_PROFILE:
		// BASE for GPUs: FULL switches ROCclr to APU mode.
		return u32(HSA_PROFILE_BASE, HSA_PROFILE_FULL), nil
	case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE, HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
		return uint32(HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR), nil
	case HSA_AGENT_INFO_FAST_F16_OPERATION:
		return gpu, nil
	case HSA_AGENT_INFO_WAVEFRONT_SIZE:
		if gpu {
			return uint32(a.id.Processor.DefaultWaveSize), nil
		}
		return uint32(0), nil
	case HSA_AGENT_INFO_WORKGROUP_MAX_DIM:
		if gpu {
			return [3]uint16{WorkgroupMaxSize, WorkgroupMaxSize, WorkgroupMaxSize}, nil
		}
		return [3]uint16{}, nil
	case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
		return u32(WorkgroupMaxSize, 0), nil
	case HSA_AGENT_INFO_GRID_MAX_DIM:
		if gpu {
			return Dim3{gridMax, gridMax, gridMax}, nil
		}
		return Dim3{}, nil
	case HSA_AGENT_INFO_GRID_MAX_SIZE:
		return u32(gridMax, 0), nil
	case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
		return u32(FbarrierMaxSize, 0), nil
	case HSA_AGENT_INFO_QUEUES_MAX:
		return u32(QueuesMax, 0), nil
	case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
		return u32(QueueMinSize, 0), nil
	case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
		return u32(QueueMaxSize, 0), nil
	case HSA_AGENT_INFO_QUEUE_TYPE:
		return uint32(0), nil // HSA_QUEUE_TYPE_MULTI
	case HSA_AGENT_INFO_NODE, HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
		return a.node, nil
	case HSA_AGENT_INFO_DEVICE:
		return a.typ, nil
	case HSA_AGENT_INFO_CACHE_SIZE:
		var cs [4]uint32
		for _, c := range a.caches {
			if c.level >= 1 && c.level <= 4 {
				cs[c.level-1] = c.size
			}
		}
		return cs, nil
	case HSA_AGENT_INFO_ISA:
		return a.isa, nil
	case HSA_AGENT_INFO_EXTENSIONS:
		var ext [128]byte
		if gpu {
			ext[HSA_EXTENSION_AMD_LOADER/8] |= 1 << (HSA_EXTENSION_AMD_LOADER % 8)
			ext[HSA_EXTENSION_IMAGES/8] |= 1 << (HSA_EXTENSION_IMAGES % 8)
		}
		return ext, nil
	case HSA_AGENT_INFO_VERSION_MAJOR, HSA_AGENT_INFO_VERSION_MINOR:
		return uint16(1), nil
	case HSA_AMD_AGENT_INFO_CHIP_ID:
		return u32(a.chip.id, 0), nil
	case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
		return uint32(64), nil
	case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
		return u32(uint32(a.chip.cus), uint32(a.cpu.cores)), nil
	case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
		return u32(a.chip.clockMHz, a.cpu.mhz), nil
	case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
		return u32(4, 0), nil
	case HSA_AMD_AGENT_INFO_BDFID:
		// Bus n for GPU agent n, device 0, function 0.
		return u32(a.node<<8, 0), nil
	case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
		return u32(a.chip.memWidth, 0), nil
	case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
		return u32(a.chip.memClockMHz, 0), nil
	case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
		if gpu {
			return a.chip.product, nil
		}
		return a.name, nil
	case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
		return u32(uint32(a.chip.wavesPerCU), 0), nil
	case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
		return u32(4, 0), nil
	case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
		return u32(a.chip.shaderEngines, 0), nil
	case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
		return u32(1, 0), nil
	case HSA_AMD_AGENT_INFO_HDP_FLUSH:
		if gpu {
			return HDPFlush{a.hdp, a.hdp + 4}, nil
		}
		return HDPFlush{}, nil
	case HSA_AMD_AGENT_INFO_DOMAIN:
		return uint32(0), nil
	case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
		// GPU agents create HSA_QUEUE_TYPE_COOPERATIVE queues: the device
		// keeps every workgroup of a dispatch resident once its waves wait
		// at a global wave sync (GWS) barrier, and HIP 5.2 offers
		// hipLaunchCooperativeKernel only when this is true.
		return gpu, nil
	case HSA_AMD_AGENT_INFO_UUID:
		return a.uuid, nil
	case HSA_AMD_AGENT_INFO_ASIC_REVISION:
		return uint32(0), nil
	case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
		return true, nil
	}
	if gpu && attr >= HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS && attr <= HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT {
		return imageInfo(attr), nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown agent attribute %#x", uint32(attr))
}

// imageInfo answers the hsa_ext_agent_info_t attributes with gfx9's
// limits.
func imageInfo(attr AgentInfo) any {
	switch attr {
	case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS, HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
		return uint32(16384)
	case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
		return uint32(65536)
	case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS,
		HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS, HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
		return [2]uint32{16384, 16384}
	case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
		return [3]uint32{2048, 2048, 2048}
	case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
		return uint32(2048)
	case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
		return uint32(128)
	case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
		return uint32(64)
	case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
		return uint32(16)
	}
	return uint32(256) // HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT
}

// ExtensionSupported is hsa_system_extension_supported and
// hsa_agent_extension_supported: rocpu implements the AMD loader extension,
// versions 1.00 to 1.03, and the images extension 1.0-1.1 (image.go).
func (r *Runtime) ExtensionSupported(ext uint16, major, minor uint16) bool {
	switch ext {
	case HSA_EXTENSION_AMD_LOADER:
		return major == 1 && minor <= 3
	case HSA_EXTENSION_IMAGES:
		return major == 1 && minor <= 1
	}
	return false
}

// SystemInfo is hsa_system_info_t (hsa.h).
type SystemInfo uint32

// System attributes, with the Go type Runtime.SystemInfo returns.
const (
	HSA_SYSTEM_INFO_VERSION_MAJOR                 SystemInfo = 0     // uint16
	HSA_SYSTEM_INFO_VERSION_MINOR                 SystemInfo = 1     // uint16
	HSA_SYSTEM_INFO_TIMESTAMP                     SystemInfo = 2     // uint64
	HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY           SystemInfo = 3     // uint64
	HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT               SystemInfo = 4     // uint64
	HSA_SYSTEM_INFO_ENDIANNESS                    SystemInfo = 5     // uint32
	HSA_SYSTEM_INFO_MACHINE_MODEL                 SystemInfo = 6     // uint32
	HSA_SYSTEM_INFO_EXTENSIONS                    SystemInfo = 7     // [128]byte
	HSA_AMD_SYSTEM_INFO_BUILD_VERSION             SystemInfo = 0x200 // string
	HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED             SystemInfo = 0x201 // bool
	HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT SystemInfo = 0x202 // bool
)

// BuildVersion is HSA_AMD_SYSTEM_INFO_BUILD_VERSION.
const BuildVersion = "rocpu 0.1.0-devel (ROCr 5.2.3 ABI)"

// SystemInfo returns a system attribute (hsa_system_get_info).
func (r *Runtime) SystemInfo(attr SystemInfo) (any, error) {
	const op = "SystemInfo"
	if err := r.check(op); err != nil {
		return nil, err
	}
	switch attr {
	case HSA_SYSTEM_INFO_VERSION_MAJOR, HSA_SYSTEM_INFO_VERSION_MINOR:
		return uint16(1), nil
	case HSA_SYSTEM_INFO_TIMESTAMP:
		return Timestamp(), nil
	case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
		return uint64(TimestampFrequency), nil
	case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
		return ^uint64(0), nil
	case HSA_SYSTEM_INFO_ENDIANNESS:
		return uint32(HSA_ENDIANNESS_LITTLE), nil
	case HSA_SYSTEM_INFO_MACHINE_MODEL:
		return uint32(HSA_MACHINE_MODEL_LARGE), nil
	case HSA_SYSTEM_INFO_EXTENSIONS:
		var ext [128]byte
		ext[HSA_EXTENSION_AMD_LOADER/8] |= 1 << (HSA_EXTENSION_AMD_LOADER % 8)
		ext[HSA_EXTENSION_IMAGES/8] |= 1 << (HSA_EXTENSION_IMAGES % 8)
		return ext, nil
	case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:
		return BuildVersion, nil
	case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT:
		return false, nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown system attribute %#x", uint32(attr))
}

// Cache is an hsa_cache_t: one level of an agent's cache hierarchy.
type Cache struct {
	handle uint64
	name   string
	level  uint8
	size   uint32
}

// CacheInfo is hsa_cache_info_t (hsa.h).
type CacheInfo uint32

// Cache attributes, with the Go type Cache.Info returns.
const (
	HSA_CACHE_INFO_NAME_LENGTH CacheInfo = 0 // uint32 (without the NUL)
	HSA_CACHE_INFO_NAME        CacheInfo = 1 // string (char[64])
	HSA_CACHE_INFO_LEVEL       CacheInfo = 2 // uint8
	HSA_CACHE_INFO_SIZE        CacheInfo = 3 // uint32
)

func (r *Runtime) addCache(a *Agent, name string, level uint8, size uint32) {
	c := &Cache{handle: r.handle(tagCache, len(r.caches)), name: name, level: level, size: size}
	r.caches = append(r.caches, c)
	a.caches = append(a.caches, c)
}

// Handle returns the opaque hsa_cache_t handle.
func (c *Cache) Handle() uint64 { return c.handle }

// Cache returns the cache whose handle is h (HSA_STATUS_ERROR_INVALID_CACHE
// otherwise).
func (r *Runtime) Cache(h uint64) (*Cache, error) {
	if err := r.check("Cache"); err != nil {
		return nil, err
	}
	i := r.index(tagCache, h)
	if i < 0 || i >= len(r.caches) {
		return nil, errorf("Cache", HSA_STATUS_ERROR_INVALID_CACHE, "no cache with handle %#x", h)
	}
	return r.caches[i], nil
}

// Info returns a cache attribute (hsa_cache_get_info).
func (c *Cache) Info(attr CacheInfo) (any, error) {
	switch attr {
	case HSA_CACHE_INFO_NAME_LENGTH:
		return uint32(len(c.name)), nil
	case HSA_CACHE_INFO_NAME:
		return c.name, nil
	case HSA_CACHE_INFO_LEVEL:
		return c.level, nil
	case HSA_CACHE_INFO_SIZE:
		return c.size, nil
	}
	return nil, errorf("Cache.Info", HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown cache attribute %#x", uint32(attr))
}
