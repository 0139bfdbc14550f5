package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rocpu/rocpu/hsa"
)

// rocpu info: every agent, ISA, pool and cache the runtime reports, like
// rocminfo, from the same hsa API the C library exposes.

type infoReport struct {
	Runtime struct {
		Version            string `json:"version"`
		BuildVersion       string `json:"build_version"`
		TimestampFrequency uint64 `json:"timestamp_frequency_hz"`
		MachineModel       string `json:"machine_model"`
		Endianness         string `json:"endianness"`
		Extensions         []int  `json:"extensions"`
	} `json:"runtime"`
	Agents []infoAgent `json:"agents"`
}

type infoAgent struct {
	Name              string      `json:"name"`
	UUID              string      `json:"uuid"`
	MarketingName     string      `json:"marketing_name"`
	Vendor            string      `json:"vendor"`
	DeviceType        string      `json:"device_type"`
	Feature           string      `json:"feature"`
	Profile           string      `json:"profile"`
	FloatRoundingMode string      `json:"float_rounding_mode"`
	Node              uint32      `json:"node"`
	ChipID            uint32      `json:"chip_id"`
	ASICRevision      uint32      `json:"asic_revision"`
	CachelineSize     uint32      `json:"cacheline_size"`
	MaxClockMHz       uint32      `json:"max_clock_mhz"`
	BDFID             uint32      `json:"bdfid"`
	Domain            uint32      `json:"domain"`
	ComputeUnits      uint32      `json:"compute_units"`
	SIMDsPerCU        uint32      `json:"simds_per_cu"`
	ShaderEngines     uint32      `json:"shader_engines"`
	ShaderArraysPerSE uint32      `json:"shader_arrays_per_se"`
	MaxWavesPerCU     uint32      `json:"max_waves_per_cu"`
	WavefrontSize     uint32      `json:"wavefront_size"`
	WorkgroupMaxDim   [3]uint16   `json:"workgroup_max_dim"`
	WorkgroupMaxSize  uint32      `json:"workgroup_max_size"`
	GridMaxDim        hsa.Dim3    `json:"grid_max_dim"`
	GridMaxSize       uint32      `json:"grid_max_size"`
	FbarrierMaxSize   uint32      `json:"fbarrier_max_size"`
	QueuesMax         uint32      `json:"queues_max"`
	QueueMinSize      uint32      `json:"queue_min_size"`
	QueueMaxSize      uint32      `json:"queue_max_size"`
	QueueType         string      `json:"queue_type"`
	CooperativeQueues bool        `json:"cooperative_queues"`
	CacheSizes        [4]uint32   `json:"cache_sizes"`
	Caches            []infoCache `json:"caches"`
	Pools             []infoPool  `json:"pools"`
	ISAs              []infoISA   `json:"isas"`
}

type infoCache struct {
	Name  string `json:"name"`
	Level uint8  `json:"level"`
	Size  uint32 `json:"size"`
}

type infoPool struct {
	Segment        string   `json:"segment"`
	Flags          []string `json:"flags"`
	Size           uint64   `json:"size"`
	AllocAllowed   bool     `json:"alloc_allowed"`
	AllocGranule   uint64   `json:"alloc_granule"`
	AllocAlignment uint64   `json:"alloc_alignment"`
	AccessibleAll  bool     `json:"accessible_by_all"`
}

type infoISA struct {
	Name             string    `json:"name"`
	MachineModels    []string  `json:"machine_models"`
	Profiles         []string  `json:"profiles"`
	RoundingModes    []string  `json:"default_rounding_modes"`
	FastF16          bool      `json:"fast_f16"`
	WavefrontSize    uint32    `json:"wavefront_size"`
	WavesPerCU       uint32    `json:"wavefronts_per_cu"`
	WorkgroupMaxDim  [3]uint16 `json:"workgroup_max_dim"`
	WorkgroupMaxSize uint32    `json:"workgroup_max_size"`
	GridMaxDim       hsa.Dim3  `json:"grid_max_dim"`
	GridMaxSize      uint32    `json:"grid_max_size"`
	FbarrierMaxSize  uint32    `json:"fbarrier_max_size"`
}

func init() {
	register(&command{
		name:    "info",
		summary: "list the runtime's agents, ISAs, memory pools and caches (like rocminfo)",
		usage:   "[--json]",
		run:     runInfo,
	})
}

func runInfo(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	asJSON := fs.Bool("json", false, "print JSON")
	if st, ok := parse(fs, args, stdout); !ok {
		return st
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "rocpu info: takes no arguments\n")
		return 2
	}
	cfg, err := hsa.ConfigFromEnv()
	if err != nil {
		fmt.Fprintf(stderr, "rocpu info: %v\n", err)
		return 1
	}
	// The CPU-only report needs no emulator; a fake device keeps info
	// cheap and independent of the engine.
	cfg.NewDevice = func(hsa.DeviceConfig) (hsa.Device, error) { return nil, nil }
	r, err := hsa.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "rocpu info: %v\n", err)
		return 1
	}
	defer r.Close()
	rep, err := collectInfo(r)
	if err != nil {
		fmt.Fprintf(stderr, "rocpu info: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "rocpu info: %v\n", err)
			return 1
		}
		return 0
	}
	printInfo(stdout, rep)
	return 0
}

// infoGetter collects attribute values, remembering the first error.
type infoGetter struct{ err error }

// as returns a function that takes an Info call's results and returns
// the value as a T.
func as[T any](g *infoGetter) func(any, error) T {
	return func(v any, err error) T {
		var z T
		if err != nil {
			if g.err == nil {
				g.err = err
			}
			return z
		}
		t, ok := v.(T)
		if !ok && g.err == nil {
			g.err = fmt.Errorf("attribute has type %T, want %T", v, z)
		}
		return t
	}
}

func collectInfo(r *hsa.Runtime) (*infoReport, error) {
	g := &infoGetter{}
	rep := &infoReport{}
	v1 := as[uint16](g)(r.SystemInfo(hsa.HSA_SYSTEM_INFO_VERSION_MAJOR))
	v2 := as[uint16](g)(r.SystemInfo(hsa.HSA_SYSTEM_INFO_VERSION_MINOR))
	rep.Runtime.Version = fmt.Sprintf("%d.%d", v1, v2)
	rep.Runtime.BuildVersion = as[string](g)(r.SystemInfo(hsa.HSA_AMD_SYSTEM_INFO_BUILD_VERSION))
	rep.Runtime.TimestampFrequency = as[uint64](g)(r.SystemInfo(hsa.HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY))
	rep.Runtime.MachineModel = map[uint32]string{0: "SMALL", 1: "LARGE"}[as[uint32](g)(r.SystemInfo(hsa.HSA_SYSTEM_INFO_MACHINE_MODEL))]
	rep.Runtime.Endianness = map[uint32]string{0: "LITTLE", 1: "BIG"}[as[uint32](g)(r.SystemInfo(hsa.HSA_SYSTEM_INFO_ENDIANNESS))]
	ext := as[[128]byte](g)(r.SystemInfo(hsa.HSA_SYSTEM_INFO_EXTENSIONS))
	for i := 0; i < 1024; i++ {
		if ext[i/8]&(1<<(i%8)) != 0 {
			rep.Runtime.Extensions = append(rep.Runtime.Extensions, i)
		}
	}
	agents, err := r.Agents()
	if err != nil {
		return nil, err
	}
	for _, a := range agents {
		var ia infoAgent
		ia.Name = as[string](g)(a.Info(hsa.HSA_AGENT_INFO_NAME))
		ia.UUID = as[string](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_UUID))
		ia.MarketingName = as[string](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_PRODUCT_NAME))
		ia.Vendor = as[string](g)(a.Info(hsa.HSA_AGENT_INFO_VENDOR_NAME))
		ia.DeviceType = map[hsa.DeviceType]string{0: "CPU", 1: "GPU", 2: "DSP"}[as[hsa.DeviceType](g)(a.Info(hsa.HSA_AGENT_INFO_DEVICE))]
		switch as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_FEATURE)) {
		case hsa.HSA_AGENT_FEATURE_KERNEL_DISPATCH:
			ia.Feature = "KERNEL_DISPATCH"
		case hsa.HSA_AGENT_FEATURE_AGENT_DISPATCH:
			ia.Feature = "AGENT_DISPATCH"
		default:
			ia.Feature = "None specified"
		}
		ia.Profile = map[uint32]string{0: "BASE_PROFILE", 1: "FULL_PROFILE"}[as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_PROFILE))]
		ia.FloatRoundingMode = map[uint32]string{0: "DEFAULT", 1: "ZERO", 2: "NEAR"}[as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE))]
		ia.Node = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_NODE))
		ia.ChipID = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_CHIP_ID))
		ia.ASICRevision = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_ASIC_REVISION))
		ia.CachelineSize = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_CACHELINE_SIZE))
		ia.MaxClockMHz = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY))
		ia.BDFID = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_BDFID))
		ia.Domain = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_DOMAIN))
		ia.ComputeUnits = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT))
		ia.SIMDsPerCU = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU))
		ia.ShaderEngines = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES))
		ia.ShaderArraysPerSE = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE))
		ia.MaxWavesPerCU = as[uint32](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU))
		ia.WavefrontSize = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_WAVEFRONT_SIZE))
		ia.WorkgroupMaxDim = as[[3]uint16](g)(a.Info(hsa.HSA_AGENT_INFO_WORKGROUP_MAX_DIM))
		ia.WorkgroupMaxSize = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_WORKGROUP_MAX_SIZE))
		ia.GridMaxDim = as[hsa.Dim3](g)(a.Info(hsa.HSA_AGENT_INFO_GRID_MAX_DIM))
		ia.GridMaxSize = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_GRID_MAX_SIZE))
		ia.FbarrierMaxSize = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_FBARRIER_MAX_SIZE))
		ia.QueuesMax = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_QUEUES_MAX))
		ia.QueueMinSize = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_QUEUE_MIN_SIZE))
		ia.QueueMaxSize = as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_QUEUE_MAX_SIZE))
		ia.QueueType = map[uint32]string{0: "MULTI", 1: "SINGLE"}[as[uint32](g)(a.Info(hsa.HSA_AGENT_INFO_QUEUE_TYPE))]
		ia.CooperativeQueues = as[bool](g)(a.Info(hsa.HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES))
		ia.CacheSizes = as[[4]uint32](g)(a.Info(hsa.HSA_AGENT_INFO_CACHE_SIZE))
		for _, c := range a.Caches() {
			ia.Caches = append(ia.Caches, infoCache{
				Name:  as[string](g)(c.Info(hsa.HSA_CACHE_INFO_NAME)),
				Level: as[uint8](g)(c.Info(hsa.HSA_CACHE_INFO_LEVEL)),
				Size:  as[uint32](g)(c.Info(hsa.HSA_CACHE_INFO_SIZE)),
			})
		}
		for _, p := range a.Pools() {
			ip := infoPool{
				Segment:        map[hsa.Segment]string{0: "GLOBAL", 1: "READONLY", 2: "PRIVATE", 3: "GROUP"}[as[hsa.Segment](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_SEGMENT))],
				Size:           as[uint64](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_SIZE)),
				AllocAllowed:   as[bool](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED)),
				AllocGranule:   as[uint64](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE)),
				AllocAlignment: as[uint64](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT)),
				AccessibleAll:  as[bool](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL)),
			}
			fl := as[uint32](g)(p.Info(hsa.HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS))
			for bit, name := range map[uint32]string{1: "KERNARG", 2: "FINE GRAINED", 4: "COARSE GRAINED"} {
				if fl&bit != 0 {
					ip.Flags = append(ip.Flags, name)
				}
			}
			sortStrings(ip.Flags)
			ia.Pools = append(ia.Pools, ip)
		}
		for _, isa := range a.ISAs() {
			ii := infoISA{Name: as[string](g)(isa.Info(hsa.HSA_ISA_INFO_NAME, 0))}
			for i, ok := range as[[2]bool](g)(isa.Info(hsa.HSA_ISA_INFO_MACHINE_MODELS, 0)) {
				if ok {
					ii.MachineModels = append(ii.MachineModels, []string{"SMALL", "LARGE"}[i])
				}
			}
			for i, ok := range as[[2]bool](g)(isa.Info(hsa.HSA_ISA_INFO_PROFILES, 0)) {
				if ok {
					ii.Profiles = append(ii.Profiles, []string{"BASE", "FULL"}[i])
				}
			}
			for i, ok := range as[[3]bool](g)(isa.Info(hsa.HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, 0)) {
				if ok {
					ii.RoundingModes = append(ii.RoundingModes, []string{"DEFAULT", "ZERO", "NEAR"}[i])
				}
			}
			ii.FastF16 = as[bool](g)(isa.Info(hsa.HSA_ISA_INFO_FAST_F16_OPERATION, 0))
			ii.WavefrontSize = as[uint32](g)(isa.Info(hsa.HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 0))
			ii.WavesPerCU = as[uint32](g)(isa.Info(hsa.HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT, 0))
			ii.WorkgroupMaxDim = as[[3]uint16](g)(isa.Info(hsa.HSA_ISA_INFO_WORKGROUP_MAX_DIM, 0))
			ii.WorkgroupMaxSize = as[uint32](g)(isa.Info(hsa.HSA_ISA_INFO_WORKGROUP_MAX_SIZE, 0))
			ii.GridMaxDim = as[hsa.Dim3](g)(isa.Info(hsa.HSA_ISA_INFO_GRID_MAX_DIM, 0))
			ii.GridMaxSize = as[uint32](g)(isa.Info(hsa.HSA_ISA_INFO_GRID_MAX_SIZE, 0))
			ii.FbarrierMaxSize = as[uint32](g)(isa.Info(hsa.HSA_ISA_INFO_FBARRIER_MAX_SIZE, 0))
			ia.ISAs = append(ia.ISAs, ii)
		}
		rep.Agents = append(rep.Agents, ia)
	}
	return rep, g.err
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func printInfo(w io.Writer, rep *infoReport) {
	line := func(indent int, k string, v any) {
		fmt.Fprintf(w, "%s%-34s%v\n", strings.Repeat("  ", indent), k+":", v)
	}
	dim := func(d [3]uint16) string { return fmt.Sprintf("x %d, y %d, z %d", d[0], d[1], d[2]) }
	fmt.Fprintf(w, "Runtime Version:              %s\n", rep.Runtime.Version)
	fmt.Fprintf(w, "Runtime Build:                %s\n", rep.Runtime.BuildVersion)
	fmt.Fprintf(w, "Timestamp Frequency:          %d Hz\n", rep.Runtime.TimestampFrequency)
	fmt.Fprintf(w, "Machine Model:                %s\n", rep.Runtime.MachineModel)
	fmt.Fprintf(w, "System Endianness:            %s\n", rep.Runtime.Endianness)
	for i, a := range rep.Agents {
		fmt.Fprintf(w, "\n==========\nAgent %d\n", i+1)
		line(1, "Name", a.Name)
		line(1, "Uuid", a.UUID)
		line(1, "Marketing Name", a.MarketingName)
		line(1, "Vendor Name", a.Vendor)
		line(1, "Feature", a.Feature)
		line(1, "Profile", a.Profile)
		line(1, "Float Round Mode", a.FloatRoundingMode)
		line(1, "Max Queue Number", a.QueuesMax)
		line(1, "Queue Min Size", a.QueueMinSize)
		line(1, "Queue Max Size", a.QueueMaxSize)
		line(1, "Queue Type", a.QueueType)
		line(1, "Node", a.Node)
		line(1, "Device Type", a.DeviceType)
		fmt.Fprintf(w, "  Cache Info:\n")
		for _, c := range a.Caches {
			line(2, c.Name, fmt.Sprintf("%d(%#x) KB", c.Size/1024, c.Size/1024))
		}
		line(1, "Chip ID", fmt.Sprintf("%d(%#x)", a.ChipID, a.ChipID))
		line(1, "ASIC Revision", fmt.Sprintf("%d(%#x)", a.ASICRevision, a.ASICRevision))
		line(1, "Cacheline Size", a.CachelineSize)
		line(1, "Max Clock Freq. (MHz)", a.MaxClockMHz)
		line(1, "BDFID", a.BDFID)
		line(1, "Internal Node ID", a.Node)
		line(1, "Compute Unit", a.ComputeUnits)
		line(1, "SIMDs per CU", a.SIMDsPerCU)
		line(1, "Shader Engines", a.ShaderEngines)
		line(1, "Shader Arrs. per Eng.", a.ShaderArraysPerSE)
		line(1, "Cooperative Queues", a.CooperativeQueues)
		line(1, "Wavefront Size", fmt.Sprintf("%d(%#x)", a.WavefrontSize, a.WavefrontSize))
		line(1, "Workgroup Max Size", fmt.Sprintf("%d(%#x)", a.WorkgroupMaxSize, a.WorkgroupMaxSize))
		line(1, "Workgroup Max Size per Dimension", dim(a.WorkgroupMaxDim))
		line(1, "Max Waves Per CU", a.MaxWavesPerCU)
		line(1, "Grid Max Size", fmt.Sprintf("%d(%#x)", a.GridMaxSize, a.GridMaxSize))
		line(1, "Grid Max Size per Dimension", fmt.Sprintf("x %d, y %d, z %d", a.GridMaxDim.X, a.GridMaxDim.Y, a.GridMaxDim.Z))
		line(1, "Max fbarriers/Workgrp", a.FbarrierMaxSize)
		fmt.Fprintf(w, "  Pool Info:\n")
		for j, p := range a.Pools {
			fmt.Fprintf(w, "    Pool %d\n", j+1)
			seg := p.Segment
			if len(p.Flags) > 0 {
				seg += "; FLAGS: " + strings.Join(p.Flags, ", ")
			}
			line(3, "Segment", seg)
			line(3, "Size", fmt.Sprintf("%d(%#x) KB", p.Size/1024, p.Size/1024))
			line(3, "Allocatable", p.AllocAllowed)
			line(3, "Alloc Granule", fmt.Sprintf("%dKB", p.AllocGranule/1024))
			line(3, "Alloc Alignment", fmt.Sprintf("%dKB", p.AllocAlignment/1024))
			line(3, "Accessible by all", p.AccessibleAll)
		}
		fmt.Fprintf(w, "  ISA Info:\n")
		if len(a.ISAs) == 0 {
			fmt.Fprintf(w, "    N/A\n")
		}
		for j, isa := range a.ISAs {
			fmt.Fprintf(w, "    ISA %d\n", j+1)
			line(3, "Name", isa.Name)
			line(3, "Machine Models", strings.Join(isa.MachineModels, ", "))
			line(3, "Profiles", strings.Join(isa.Profiles, ", "))
			line(3, "Default Rounding Mode", strings.Join(isa.RoundingModes, ", "))
			line(3, "Fast f16", isa.FastF16)
			line(3, "Workgroup Max Size", fmt.Sprintf("%d(%#x)", isa.WorkgroupMaxSize, isa.WorkgroupMaxSize))
			line(3, "Workgroup Max Size per Dimension", dim(isa.WorkgroupMaxDim))
			line(3, "Grid Max Size", fmt.Sprintf("%d(%#x)", isa.GridMaxSize, isa.GridMaxSize))
			line(3, "FBarrier Max Size", isa.FbarrierMaxSize)
		}
	}
}
