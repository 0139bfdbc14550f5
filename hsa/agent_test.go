package hsa

import (
	"strings"
	"testing"

	"github.com/rocpu/rocpu/target"
)

func TestDefaultAgents(t *testing.T) {
	r, devs := newRT(t)
	agents, err := r.Agents()
	if err != nil {
		t.Fatal(err)
	}
	if len(agents) != 2 || len(devs) != 1 {
		t.Fatalf("%d agents, %d devices; want 2 and 1", len(agents), len(devs))
	}
	cpu, gpu := agents[0], agents[1]
	if cpu.Type() != HSA_DEVICE_TYPE_CPU || gpu.Type() != HSA_DEVICE_TYPE_GPU {
		t.Fatalf("agent types %v %v", cpu.Type(), gpu.Type())
	}
	if gpu.Device() != Device(devs[0]) {
		t.Error("GPU agent does not hold its device")
	}
	want := map[AgentInfo]any{
		HSA_AGENT_INFO_NAME:                                      "gfx90a",
		HSA_AGENT_INFO_VENDOR_NAME:                               "AMD",
		HSA_AGENT_INFO_FEATURE:                                   uint32(HSA_AGENT_FEATURE_KERNEL_DISPATCH),
		HSA_AGENT_INFO_MACHINE_MODEL:                             uint32(HSA_MACHINE_MODEL_LARGE),
		HSA_AGENT_INFO_PROFILE:                                   uint32(HSA_PROFILE_BASE),
		HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:               uint32(HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR),
		HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: uint32(HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR),
		HSA_AGENT_INFO_FAST_F16_OPERATION:                        true,
		HSA_AGENT_INFO_WAVEFRONT_SIZE:                            uint32(64),
		HSA_AGENT_INFO_WORKGROUP_MAX_DIM:                         [3]uint16{1024, 1024, 1024},
		HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:                        uint32(1024),
		HSA_AGENT_INFO_GRID_MAX_DIM:                              Dim3{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
		HSA_AGENT_INFO_GRID_MAX_SIZE:                             uint32(0xFFFFFFFF),
		HSA_AGENT_INFO_FBARRIER_MAX_SIZE:                         uint32(32),
		HSA_AGENT_INFO_QUEUES_MAX:                                uint32(128),
		HSA_AGENT_INFO_QUEUE_MIN_SIZE:                            uint32(64),
		HSA_AGENT_INFO_QUEUE_MAX_SIZE:                            uint32(131072),
		HSA_AGENT_INFO_QUEUE_TYPE:                                uint32(HSA_QUEUE_TYPE_MULTI),
		HSA_AGENT_INFO_NODE:                                      uint32(1),
		HSA_AGENT_INFO_DEVICE:                                    HSA_DEVICE_TYPE_GPU,
		HSA_AGENT_INFO_CACHE_SIZE:                                [4]uint32{16 << 10, 8 << 20, 0, 0},
		HSA_AGENT_INFO_VERSION_MAJOR:                             uint16(1),
		HSA_AGENT_INFO_VERSION_MINOR:                             uint16(1),
		HSA_AMD_AGENT_INFO_CHIP_ID:                               uint32(0x740f),
		HSA_AMD_AGENT_INFO_CACHELINE_SIZE:                        uint32(64),
		HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:                    uint32(104),
		HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:                   uint32(1700),
		HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:                        uint32(1),
		HSA_AMD_AGENT_INFO_BDFID:                                 uint32(1 << 8),
		HSA_AMD_AGENT_INFO_PRODUCT_NAME:                          "AMD Instinct MI210",
		HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:                      uint32(32),
		HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:                      uint32(4),
		HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:                    uint32(8),
		HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:              uint32(1),
		HSA_AMD_AGENT_INFO_DOMAIN:                                uint32(0),
		HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:                    true,
		HSA_AMD_AGENT_INFO_UUID:                                  "GPU-726f637075000000",
		HSA_AMD_AGENT_INFO_ASIC_REVISION:                         uint32(0),
		HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:                true,
		HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:        uint32(104),
	}
	for attr, w := range want {
		v, err := gpu.Info(attr)
		if err != nil || v != w {
			t.Errorf("GPU Info(%#x) = %#v, %v; want %#v", uint32(attr), v, err, w)
		}
	}
	if v, _ := gpu.Info(HSA_AGENT_INFO_ISA); v.(*ISA) != gpu.ISA() {
		t.Error("HSA_AGENT_INFO_ISA is not the agent's ISA")
	}
	if v, _ := gpu.Info(HSA_AMD_AGENT_INFO_HDP_FLUSH); v.(HDPFlush).MemFlushCntl == 0 || r.Space().Find(v.(HDPFlush).RegFlushCntl) == nil {
		t.Errorf("HDP flush registers %+v are not device-visible", v)
	}
	if v, _ := gpu.Info(HSA_AGENT_INFO_EXTENSIONS); v.([128]byte)[0x201/8] == 0 {
		t.Error("GPU agent does not report the AMD loader extension")
	}
	if v, _ := gpu.Info(HSA_AGENT_INFO_EXTENSIONS); v.([128]byte)[0] != 1<<HSA_EXTENSION_IMAGES {
		t.Error("GPU agent does not report the images extension")
	}
	for attr, want := range map[AgentInfo]any{
		// uint32, as ROCr writes them (agent.go).
		HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:            uint32(16384),
		HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:            [2]uint32{16384, 16384},
		HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:            [3]uint32{2048, 2048, 2048},
		HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:           uint32(2048),
		HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:             uint32(128),
		HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:           uint32(64),
		HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:             uint32(16),
		HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT: uint32(256),
	} {
		if v, err := gpu.Info(attr); err != nil || v != want {
			t.Errorf("GPU image attribute %#x = %v %v, want %v", uint32(attr), v, err, want)
		}
	}
	if _, err := r.CPUAgent().Info(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS); err == nil {
		t.Error("the CPU agent answers an image attribute")
	}
	cpuWant := map[AgentInfo]any{
		HSA_AGENT_INFO_FEATURE:           uint32(0),
		HSA_AGENT_INFO_PROFILE:           uint32(HSA_PROFILE_FULL),
		HSA_AGENT_INFO_DEVICE:            HSA_DEVICE_TYPE_CPU,
		HSA_AGENT_INFO_NODE:              uint32(0),
		HSA_AGENT_INFO_WAVEFRONT_SIZE:    uint32(0),
		HSA_AGENT_INFO_QUEUES_MAX:        uint32(0),
		HSA_AGENT_INFO_VENDOR_NAME:       "CPU",
		HSA_AMD_AGENT_INFO_UUID:          "CPU-XX",
		HSA_AMD_AGENT_INFO_CHIP_ID:       uint32(0),
		HSA_AGENT_INFO_WORKGROUP_MAX_DIM: [3]uint16{},
		// Only GPU agents have kernel dispatch (and so cooperative) queues.
		HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES: false,
	}
	for attr, w := range cpuWant {
		v, err := cpu.Info(attr)
		if err != nil || v != w {
			t.Errorf("CPU Info(%#x) = %#v, %v; want %#v", uint32(attr), v, err, w)
		}
	}
	if v, _ := cpu.Info(HSA_AGENT_INFO_ISA); v.(*ISA) != nil {
		t.Error("CPU agent has an ISA")
	}
	// Every attribute of both enums answers on both agents.
	for _, a := range agents {
		for attr := AgentInfo(0); attr <= 24; attr++ {
			if _, err := a.Info(attr); err != nil {
				t.Errorf("%v Info(%d): %v", a, attr, err)
			}
		}
		for attr := AgentInfo(0xA000); attr <= 0xA014; attr++ {
			if _, err := a.Info(attr); err != nil {
				t.Errorf("%v Info(%#x): %v", a, attr, err)
			}
		}
		_, err := a.Info(0xA015)
		wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
		if got, err := r.Agent(a.Handle()); got != a || err != nil {
			t.Errorf("Agent(handle) = %v, %v", got, err)
		}
	}
	_, err = r.Agent(0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
	_, err = r.Agent(gpu.Pools()[0].Handle()) // a pool handle is not an agent
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
	_, err = r.Agent(gpu.Handle() + 5)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
}

func TestGPUISA(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	isas := gpu.ISAs()
	if len(isas) != 1 {
		t.Fatalf("%d ISAs, want exactly one", len(isas))
	}
	isa := isas[0]
	const name = "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"
	want := map[ISAInfo]any{
		HSA_ISA_INFO_NAME_LENGTH:                                      uint32(len(name) + 1),
		HSA_ISA_INFO_NAME:                                             name,
		HSA_ISA_INFO_CALL_CONVENTION_COUNT:                            uint32(1),
		HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE:              uint32(64),
		HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT: uint32(32),
		HSA_ISA_INFO_MACHINE_MODELS:                                   [2]bool{false, true},
		HSA_ISA_INFO_PROFILES:                                         [2]bool{true, false},
		HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:                     [3]bool{false, false, true},
		HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:        [3]bool{false, false, true},
		HSA_ISA_INFO_FAST_F16_OPERATION:                               true,
		HSA_ISA_INFO_WORKGROUP_MAX_DIM:                                [3]uint16{1024, 1024, 1024},
		HSA_ISA_INFO_WORKGROUP_MAX_SIZE:                               uint32(1024),
		HSA_ISA_INFO_GRID_MAX_DIM:                                     Dim3{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF},
		HSA_ISA_INFO_GRID_MAX_SIZE:                                    uint32(0xFFFFFFFF),
		HSA_ISA_INFO_FBARRIER_MAX_SIZE:                                uint32(32),
	}
	for attr, w := range want {
		v, err := isa.Info(attr, 0)
		if err != nil || v != w {
			t.Errorf("ISA Info(%d) = %#v, %v; want %#v", attr, v, err, w)
		}
	}
	_, err := isa.Info(HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 1)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_INDEX)
	_, err = isa.Info(10, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	if got, err := r.ISA(isa.Handle()); got != isa || err != nil {
		t.Errorf("ISA(handle) = %v, %v", got, err)
	}
	_, err = r.ISA(gpu.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ISA)

	// hsa_isa_from_name finds the agent's ISA object by any spelling.
	same, err := r.ISAFromName(name)
	if err != nil || same != isa {
		t.Errorf("ISAFromName(%q) = %v, %v", name, same, err)
	}
	anyXnack, err := r.ISAFromName("amdgcn-amd-amdhsa--gfx90a")
	if err != nil {
		t.Fatal(err)
	}
	if !anyXnack.Compatible(isa) {
		t.Error("gfx90a (any xnack) code is not compatible with the gfx90a:sramecc+:xnack- agent")
	}
	xnackOn, _ := r.ISAFromName("gfx90a:xnack+")
	if xnackOn.Compatible(isa) {
		t.Error("xnack+ code is compatible with an xnack- agent")
	}
	for _, bad := range []string{"gfx9999", "amdgcn-amd-amdhsa--", "r600", "gfx9-generic"} {
		_, err := r.ISAFromName(bad)
		wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ISA_NAME)
	}
	w := isa.Wavefronts()
	if len(w) != 1 {
		t.Fatalf("%d wavefronts", len(w))
	}
	if v, err := w[0].Info(HSA_WAVEFRONT_INFO_SIZE); v != uint32(64) || err != nil {
		t.Errorf("wavefront size %v %v", v, err)
	}
	if got, err := r.Wavefront(w[0].Handle()); got != w[0] || err != nil {
		t.Errorf("Wavefront(handle) = %v, %v", got, err)
	}
	_, err = r.Wavefront(isa.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_WAVEFRONT)
}

func TestTargetsConfig(t *testing.T) {
	r, devs := newRT(t, "gfx90a", "gfx906:xnack-", "amdgcn-amd-amdhsa--gfx908:sramecc-")
	gpus := r.GPUAgents()
	if len(gpus) != 3 || len(devs) != 3 {
		t.Fatalf("%d GPU agents", len(gpus))
	}
	for i, want := range []string{
		"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
		"amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-",
		"amdgcn-amd-amdhsa--gfx908:sramecc-:xnack-",
	} {
		if got := gpus[i].ISA().Name(); got != want {
			t.Errorf("agent %d ISA %q, want %q", i, got, want)
		}
		if gpus[i].Node() != uint32(i+1) {
			t.Errorf("agent %d node %d", i, gpus[i].Node())
		}
		if id := gpus[i].TargetID(); id.Setting(target.FeatureXNACK) != target.Off {
			t.Errorf("agent %d xnack not pinned off", i)
		}
	}
	uuids := map[string]bool{}
	for _, g := range gpus {
		u, _ := g.Info(HSA_AMD_AGENT_INFO_UUID)
		if !strings.HasPrefix(u.(string), "GPU-") || len(u.(string)) != 20 || uuids[u.(string)] {
			t.Errorf("UUID %q not unique or malformed", u)
		}
		uuids[u.(string)] = true
	}
}

func TestCaches(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	cs := gpu.Caches()
	if len(cs) != 2 {
		t.Fatalf("%d GPU caches", len(cs))
	}
	for i, w := range []struct {
		name  string
		level uint8
		size  uint32
	}{{"L1", 1, 16 << 10}, {"L2", 2, 8 << 20}} {
		c := cs[i]
		n, _ := c.Info(HSA_CACHE_INFO_NAME)
		nl, _ := c.Info(HSA_CACHE_INFO_NAME_LENGTH)
		l, _ := c.Info(HSA_CACHE_INFO_LEVEL)
		s, _ := c.Info(HSA_CACHE_INFO_SIZE)
		if n != w.name || nl != uint32(len(w.name)) || l != w.level || s != w.size {
			t.Errorf("cache %d: %v %v %v %v", i, n, nl, l, s)
		}
		if got, err := r.Cache(c.Handle()); got != c || err != nil {
			t.Errorf("Cache(handle) = %v %v", got, err)
		}
	}
	_, err := cs[0].Info(9)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.Cache(gpu.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_CACHE)
	if len(r.CPUAgent().Caches()) == 0 {
		t.Error("CPU agent has no caches")
	}
}

// TestAgentSetWorkers: a GPU agent with the emulated device takes a
// worker count; a CPU agent and a device without SetWorkers say they
// cannot.
func TestAgentSetWorkers(t *testing.T) {
	r := newEmuRT(t)
	if err := r.GPUAgents()[0].SetWorkers(1); err != nil {
		t.Errorf("emulated GPU agent: %v", err)
	}
	wantStatus(t, r.CPUAgent().SetWorkers(1), HSA_STATUS_ERROR_INVALID_AGENT)
	rf, _ := newRT(t)
	wantStatus(t, rf.GPUAgents()[0].SetWorkers(1), HSA_STATUS_ERROR_INVALID_AGENT)
	var nilAgent *Agent
	wantStatus(t, nilAgent.SetWorkers(1), HSA_STATUS_ERROR_INVALID_AGENT)
}
