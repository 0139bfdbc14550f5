package target

// This file is the processor table: the only place processor facts live.
//
// Sources (spec/INVENTORY.md):
//   - §3.2 (S1:92-280): processors up to gfx1031, alternative names,
//     features and their defaults.
//   - §3.3/§3.4 [GAP]: later processors, ISA versions, generic processors
//     and their members, from LLVM TargetParser (AMDGPUTargetParser.def)
//     and AMDGPUUsage. Pinned by TestGapProcessors.
//   - §1.4: EF_AMDGPU_MACH values (≥ 0x038 [GAP]).
//   - §4.2: register and LDS granules; §5.3 flat scratch; §5.5 kernarg
//     preload; §5.7 wave sizes.
//   - r600 alternative names (rv630, palm, ...) [GAP] from TargetParser.

// hwClass holds the properties shared by a group of processors.
type hwClass struct {
	arch          string
	family        Family
	features      []Feature // -m features (wavefrontsize64, cumode, tgsplit)
	vgprGranule32 int       // 0: wave32 unsupported
	vgprGranule64 int       // 0: wave64 unsupported
	lds           int
	ldsGranule    int
	vgprs         int
	sgprs         int
	agprs         int
	unified       bool
	sgprGranule   int
	flat          FlatScratch
	preload       bool
	packed        bool
	exec          bool
}

var (
	clsR600 = &hwClass{arch: "r600", family: R600}
	// GFX6: 32 KiB LDS, 256-byte LDS granule, no flat address space.
	clsGFX6 = &hwClass{arch: "amdgcn", family: GFX6, vgprGranule64: 4, lds: 32768, ldsGranule: 256,
		vgprs: 256, sgprs: 104, sgprGranule: 8, flat: FlatScratchNone, exec: true}
	clsGFX7 = &hwClass{arch: "amdgcn", family: GFX7, vgprGranule64: 4, lds: 65536, ldsGranule: 512,
		vgprs: 256, sgprs: 104, sgprGranule: 8, flat: FlatScratchOffset, exec: true}
	clsGFX8 = &hwClass{arch: "amdgcn", family: GFX8, vgprGranule64: 4, lds: 65536, ldsGranule: 512,
		vgprs: 256, sgprs: 102, sgprGranule: 8, flat: FlatScratchOffset, exec: true}
	clsGFX9 = &hwClass{arch: "amdgcn", family: GFX9, vgprGranule64: 4, lds: 65536, ldsGranule: 512,
		vgprs: 256, sgprs: 102, sgprGranule: 8, flat: FlatScratchAbsolute, exec: true}
	// gfx908: separate 256-entry AGPR file; the granulated count covers
	// max(VGPRs, AGPRs).
	clsGFX908 = &hwClass{arch: "amdgcn", family: GFX9, vgprGranule64: 4, lds: 65536, ldsGranule: 512,
		vgprs: 256, sgprs: 102, agprs: 256, sgprGranule: 8, flat: FlatScratchAbsolute, exec: true}
	// gfx90a: unified 512-entry VGPR+AGPR file, granule 8 (§4.2).
	clsGFX90A = &hwClass{arch: "amdgcn", family: GFX9, features: []Feature{FeatureTGSplit}, vgprGranule64: 8,
		lds: 65536, ldsGranule: 512, vgprs: 256, sgprs: 102, agprs: 256, unified: true, sgprGranule: 8,
		flat: FlatScratchAbsolute, preload: true, packed: true, exec: true}
	clsGFX94X = &hwClass{arch: "amdgcn", family: GFX9, features: []Feature{FeatureTGSplit}, vgprGranule64: 8,
		lds: 65536, ldsGranule: 512, vgprs: 256, sgprs: 102, agprs: 256, unified: true, sgprGranule: 8,
		flat: FlatScratchArchitected, preload: true, packed: true, exec: true}
	// gfx950: 160 KiB LDS, granule 320 dwords (§4.2).
	clsGFX950 = &hwClass{arch: "amdgcn", family: GFX9, features: []Feature{FeatureTGSplit}, vgprGranule64: 8,
		lds: 163840, ldsGranule: 1280, vgprs: 256, sgprs: 102, agprs: 256, unified: true, sgprGranule: 8,
		flat: FlatScratchArchitected, preload: true, packed: true, exec: true}
	clsGFX10 = &hwClass{arch: "amdgcn", family: GFX10, features: []Feature{FeatureCUMode, FeatureWavefrontSize64},
		vgprGranule32: 8, vgprGranule64: 4, lds: 65536, ldsGranule: 512, vgprs: 256, sgprs: 106,
		flat: FlatScratchAbsolute, exec: true}
	clsGFX11 = &hwClass{arch: "amdgcn", family: GFX11, features: []Feature{FeatureCUMode, FeatureWavefrontSize64},
		vgprGranule32: 8, vgprGranule64: 4, lds: 65536, ldsGranule: 512, vgprs: 256, sgprs: 106,
		flat: FlatScratchArchitected, packed: true, exec: true}
	clsGFX12 = &hwClass{arch: "amdgcn", family: GFX12, features: []Feature{FeatureCUMode, FeatureWavefrontSize64},
		vgprGranule32: 8, vgprGranule64: 4, lds: 65536, ldsGranule: 512, vgprs: 256, sgprs: 106,
		flat: FlatScratchArchitected, packed: true, exec: true}
	// GFX12.5 (gfx1250, gfx1251): wave32 only, 1024 VGPRs with granule 16,
	// 320 KiB LDS with granule 512 dwords (§4.2, S2). Not executed: the
	// specs lack most of its ISA.
	clsGFX125 = &hwClass{arch: "amdgcn", family: GFX12,
		vgprGranule32: 16, lds: 327680, ldsGranule: 2048, vgprs: 1024, sgprs: 106,
		flat: FlatScratchArchitected, preload: true, packed: true}
)

type memberRow struct {
	name    string
	version int
}

type processorRow struct {
	name        string
	aliases     []string
	mach        Mach
	isa         [3]int
	class       *hwClass
	features    []Feature // target-ID features (xnack, sramecc)
	defaultOn   []Feature // S1 "[on]" defaults
	sgprInitBug bool
	noExec      bool
	// v2XNACKStepping: the V2 ISA stepping of xnack-enabled code, where
	// LLVM 15 makes it differ (checked by TestV2ISANamesMatchLLVM15).
	v2XNACKStepping int
	generic         int // generic version known; 0 for a real processor
	members         []memberRow
}

var (
	fX   = []Feature{FeatureXNACK}
	fXS  = []Feature{FeatureSRAMECC, FeatureXNACK}
	fXOn = []Feature{FeatureXNACK}
)

// processorRows is the processor table. Generic members' "added in" versions
// are all 1: every member was in its generic target when LLVM introduced it
// (llvm::AMDGPU::GenericVersion, all families = 1) [GAP].
var processorRows = []processorRow{
	// r600 family: known, never executed.
	{name: "r600", aliases: []string{"rv630", "rv635"}, mach: EF_AMDGPU_MACH_R600_R600, class: clsR600},
	{name: "r630", mach: EF_AMDGPU_MACH_R600_R630, class: clsR600},
	{name: "rs880", aliases: []string{"rs780", "rv610", "rv620"}, mach: EF_AMDGPU_MACH_R600_RS880, class: clsR600},
	{name: "rv670", mach: EF_AMDGPU_MACH_R600_RV670, class: clsR600},
	{name: "rv710", mach: EF_AMDGPU_MACH_R600_RV710, class: clsR600},
	{name: "rv730", mach: EF_AMDGPU_MACH_R600_RV730, class: clsR600},
	{name: "rv770", aliases: []string{"rv740"}, mach: EF_AMDGPU_MACH_R600_RV770, class: clsR600},
	{name: "cedar", aliases: []string{"palm"}, mach: EF_AMDGPU_MACH_R600_CEDAR, class: clsR600},
	{name: "cypress", aliases: []string{"hemlock"}, mach: EF_AMDGPU_MACH_R600_CYPRESS, class: clsR600},
	{name: "juniper", mach: EF_AMDGPU_MACH_R600_JUNIPER, class: clsR600},
	{name: "redwood", mach: EF_AMDGPU_MACH_R600_REDWOOD, class: clsR600},
	{name: "sumo", aliases: []string{"sumo2"}, mach: EF_AMDGPU_MACH_R600_SUMO, class: clsR600},
	{name: "barts", mach: EF_AMDGPU_MACH_R600_BARTS, class: clsR600},
	{name: "caicos", mach: EF_AMDGPU_MACH_R600_CAICOS, class: clsR600},
	{name: "cayman", aliases: []string{"aruba"}, mach: EF_AMDGPU_MACH_R600_CAYMAN, class: clsR600},
	{name: "turks", mach: EF_AMDGPU_MACH_R600_TURKS, class: clsR600},

	// GFX6 (Southern Islands). S1 lists hainan/oland under gfx601;
	// upstream moved them to gfx602 (INVENTORY §13.1 #11): we follow upstream.
	{name: "gfx600", aliases: []string{"tahiti"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX600, isa: [3]int{6, 0, 0}, class: clsGFX6},
	{name: "gfx601", aliases: []string{"pitcairn", "verde"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX601, isa: [3]int{6, 0, 1}, class: clsGFX6},
	{name: "gfx602", aliases: []string{"hainan", "oland"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX602, isa: [3]int{6, 0, 2}, class: clsGFX6},

	// GFX7 (Sea Islands).
	{name: "gfx700", aliases: []string{"kaveri"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX700, isa: [3]int{7, 0, 0}, class: clsGFX7},
	{name: "gfx701", aliases: []string{"hawaii"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX701, isa: [3]int{7, 0, 1}, class: clsGFX7},
	{name: "gfx702", mach: EF_AMDGPU_MACH_AMDGCN_GFX702, isa: [3]int{7, 0, 2}, class: clsGFX7},
	{name: "gfx703", aliases: []string{"kabini", "mullins"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX703, isa: [3]int{7, 0, 3}, class: clsGFX7},
	{name: "gfx704", aliases: []string{"bonaire"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX704, isa: [3]int{7, 0, 4}, class: clsGFX7},
	{name: "gfx705", mach: EF_AMDGPU_MACH_AMDGCN_GFX705, isa: [3]int{7, 0, 5}, class: clsGFX7},

	// GFX8 (Volcanic Islands). S1 also lists xnack for gfx802/gfx803;
	// upstream (and LLVM 15) only for the APUs gfx801/gfx810.
	{name: "gfx801", aliases: []string{"carrizo"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX801, isa: [3]int{8, 0, 1}, class: clsGFX8, features: fX, defaultOn: fXOn},
	{name: "gfx802", aliases: []string{"iceland", "tonga"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX802, isa: [3]int{8, 0, 2}, class: clsGFX8, sgprInitBug: true},
	{name: "gfx803", aliases: []string{"fiji", "polaris10", "polaris11"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX803, isa: [3]int{8, 0, 3}, class: clsGFX8},
	{name: "gfx805", aliases: []string{"tongapro"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX805, isa: [3]int{8, 0, 5}, class: clsGFX8, sgprInitBug: true},
	{name: "gfx810", aliases: []string{"stoney"}, mach: EF_AMDGPU_MACH_AMDGCN_GFX810, isa: [3]int{8, 1, 0}, class: clsGFX8, features: fX, defaultOn: fXOn},

	// GFX9.
	{name: "gfx900", mach: EF_AMDGPU_MACH_AMDGCN_GFX900, isa: [3]int{9, 0, 0}, class: clsGFX9, features: fX, v2XNACKStepping: 1},
	{name: "gfx902", mach: EF_AMDGPU_MACH_AMDGCN_GFX902, isa: [3]int{9, 0, 2}, class: clsGFX9, features: fX, defaultOn: fXOn, v2XNACKStepping: 3},
	{name: "gfx904", mach: EF_AMDGPU_MACH_AMDGCN_GFX904, isa: [3]int{9, 0, 4}, class: clsGFX9, features: fX, v2XNACKStepping: 5},
	{name: "gfx906", mach: EF_AMDGPU_MACH_AMDGCN_GFX906, isa: [3]int{9, 0, 6}, class: clsGFX9, features: fXS, v2XNACKStepping: 7},
	{name: "gfx908", mach: EF_AMDGPU_MACH_AMDGCN_GFX908, isa: [3]int{9, 0, 8}, class: clsGFX908, features: fXS, defaultOn: []Feature{FeatureSRAMECC}},
	{name: "gfx909", mach: EF_AMDGPU_MACH_AMDGCN_GFX909, isa: [3]int{9, 0, 9}, class: clsGFX9, features: fX, defaultOn: fXOn},
	{name: "gfx90a", mach: EF_AMDGPU_MACH_AMDGCN_GFX90A, isa: [3]int{9, 0, 10}, class: clsGFX90A, features: fXS},
	{name: "gfx90c", mach: EF_AMDGPU_MACH_AMDGCN_GFX90C, isa: [3]int{9, 0, 12}, class: clsGFX9, features: fX},
	{name: "gfx940", mach: EF_AMDGPU_MACH_AMDGCN_GFX940, isa: [3]int{9, 4, 0}, class: clsGFX94X, features: fXS},
	{name: "gfx941", mach: EF_AMDGPU_MACH_AMDGCN_GFX941, isa: [3]int{9, 4, 1}, class: clsGFX94X, features: fXS},
	{name: "gfx942", mach: EF_AMDGPU_MACH_AMDGCN_GFX942, isa: [3]int{9, 4, 2}, class: clsGFX94X, features: fXS},
	{name: "gfx950", mach: EF_AMDGPU_MACH_AMDGCN_GFX950, isa: [3]int{9, 5, 0}, class: clsGFX950, features: fXS},

	// GFX10.1 (RDNA1) and GFX10.3 (RDNA2).
	{name: "gfx1010", mach: EF_AMDGPU_MACH_AMDGCN_GFX1010, isa: [3]int{10, 1, 0}, class: clsGFX10, features: fX},
	{name: "gfx1011", mach: EF_AMDGPU_MACH_AMDGCN_GFX1011, isa: [3]int{10, 1, 1}, class: clsGFX10, features: fX},
	{name: "gfx1012", mach: EF_AMDGPU_MACH_AMDGCN_GFX1012, isa: [3]int{10, 1, 2}, class: clsGFX10, features: fX},
	{name: "gfx1013", mach: EF_AMDGPU_MACH_AMDGCN_GFX1013, isa: [3]int{10, 1, 3}, class: clsGFX10, features: fX},
	{name: "gfx1030", mach: EF_AMDGPU_MACH_AMDGCN_GFX1030, isa: [3]int{10, 3, 0}, class: clsGFX10},
	{name: "gfx1031", mach: EF_AMDGPU_MACH_AMDGCN_GFX1031, isa: [3]int{10, 3, 1}, class: clsGFX10},
	{name: "gfx1032", mach: EF_AMDGPU_MACH_AMDGCN_GFX1032, isa: [3]int{10, 3, 2}, class: clsGFX10},
	{name: "gfx1033", mach: EF_AMDGPU_MACH_AMDGCN_GFX1033, isa: [3]int{10, 3, 3}, class: clsGFX10},
	{name: "gfx1034", mach: EF_AMDGPU_MACH_AMDGCN_GFX1034, isa: [3]int{10, 3, 4}, class: clsGFX10},
	{name: "gfx1035", mach: EF_AMDGPU_MACH_AMDGCN_GFX1035, isa: [3]int{10, 3, 5}, class: clsGFX10},
	{name: "gfx1036", mach: EF_AMDGPU_MACH_AMDGCN_GFX1036, isa: [3]int{10, 3, 6}, class: clsGFX10},

	// GFX11 (RDNA3, 3.5, and GFX11.7).
	{name: "gfx1100", mach: EF_AMDGPU_MACH_AMDGCN_GFX1100, isa: [3]int{11, 0, 0}, class: clsGFX11},
	{name: "gfx1101", mach: EF_AMDGPU_MACH_AMDGCN_GFX1101, isa: [3]int{11, 0, 1}, class: clsGFX11},
	{name: "gfx1102", mach: EF_AMDGPU_MACH_AMDGCN_GFX1102, isa: [3]int{11, 0, 2}, class: clsGFX11},
	{name: "gfx1103", mach: EF_AMDGPU_MACH_AMDGCN_GFX1103, isa: [3]int{11, 0, 3}, class: clsGFX11},
	{name: "gfx1150", mach: EF_AMDGPU_MACH_AMDGCN_GFX1150, isa: [3]int{11, 5, 0}, class: clsGFX11},
	{name: "gfx1151", mach: EF_AMDGPU_MACH_AMDGCN_GFX1151, isa: [3]int{11, 5, 1}, class: clsGFX11},
	{name: "gfx1152", mach: EF_AMDGPU_MACH_AMDGCN_GFX1152, isa: [3]int{11, 5, 2}, class: clsGFX11},
	{name: "gfx1153", mach: EF_AMDGPU_MACH_AMDGCN_GFX1153, isa: [3]int{11, 5, 3}, class: clsGFX11},
	{name: "gfx1154", mach: EF_AMDGPU_MACH_AMDGCN_GFX1154, isa: [3]int{11, 5, 4}, class: clsGFX11, noExec: true},
	{name: "gfx1170", mach: EF_AMDGPU_MACH_AMDGCN_GFX1170, isa: [3]int{11, 7, 0}, class: clsGFX11, noExec: true},
	{name: "gfx1171", mach: EF_AMDGPU_MACH_AMDGCN_GFX1171, isa: [3]int{11, 7, 1}, class: clsGFX11, noExec: true},
	{name: "gfx1172", mach: EF_AMDGPU_MACH_AMDGCN_GFX1172, isa: [3]int{11, 7, 2}, class: clsGFX11, noExec: true},

	// GFX12 (RDNA4) and GFX12.5.
	{name: "gfx1200", mach: EF_AMDGPU_MACH_AMDGCN_GFX1200, isa: [3]int{12, 0, 0}, class: clsGFX12},
	{name: "gfx1201", mach: EF_AMDGPU_MACH_AMDGCN_GFX1201, isa: [3]int{12, 0, 1}, class: clsGFX12},
	{name: "gfx1250", mach: EF_AMDGPU_MACH_AMDGCN_GFX1250, isa: [3]int{12, 5, 0}, class: clsGFX125, features: fXS},
	{name: "gfx1251", mach: EF_AMDGPU_MACH_AMDGCN_GFX1251, isa: [3]int{12, 5, 1}, class: clsGFX125, features: fXS},

	// Generic processors (code object V6+). ISA versions are LLVM's
	// "lowest common denominator" (AMDGPUTargetParser.def).
	{name: "gfx9-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX9_GENERIC, isa: [3]int{9, 0, 0}, class: clsGFX9, features: fX, generic: 1,
		members: []memberRow{{"gfx900", 1}, {"gfx902", 1}, {"gfx904", 1}, {"gfx906", 1}, {"gfx909", 1}, {"gfx90c", 1}}},
	{name: "gfx9-4-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX9_4_GENERIC, isa: [3]int{9, 4, 0}, class: clsGFX94X, features: fXS, generic: 1,
		members: []memberRow{{"gfx940", 1}, {"gfx941", 1}, {"gfx942", 1}, {"gfx950", 1}}},
	{name: "gfx10-1-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX10_1_GENERIC, isa: [3]int{10, 1, 0}, class: clsGFX10, features: fX, generic: 1,
		members: []memberRow{{"gfx1010", 1}, {"gfx1011", 1}, {"gfx1012", 1}, {"gfx1013", 1}}},
	{name: "gfx10-3-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC, isa: [3]int{10, 3, 0}, class: clsGFX10, generic: 1,
		members: []memberRow{{"gfx1030", 1}, {"gfx1031", 1}, {"gfx1032", 1}, {"gfx1033", 1}, {"gfx1034", 1}, {"gfx1035", 1}, {"gfx1036", 1}}},
	{name: "gfx11-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC, isa: [3]int{11, 0, 3}, class: clsGFX11, generic: 1,
		members: []memberRow{{"gfx1100", 1}, {"gfx1101", 1}, {"gfx1102", 1}, {"gfx1103", 1}, {"gfx1150", 1}, {"gfx1151", 1}, {"gfx1152", 1}, {"gfx1153", 1}}},
	{name: "gfx12-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX12_GENERIC, isa: [3]int{12, 0, 0}, class: clsGFX12, generic: 1,
		members: []memberRow{{"gfx1200", 1}, {"gfx1201", 1}}},
	{name: "gfx12-5-generic", mach: EF_AMDGPU_MACH_AMDGCN_GFX12_5_GENERIC, isa: [3]int{12, 5, 0}, class: clsGFX125, features: fX, generic: 1, noExec: true,
		members: []memberRow{{"gfx1250", 1}, {"gfx1251", 1}}},
}
