package codeobject

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/target"
)

// directiveFields maps .amdhsa_* directives (AMDGPUUsage "Kernel
// Descriptor Directives", INVENTORY §10.3) to the descriptor field they set.
var directiveFields = map[string][2]string{
	"user_sgpr_private_segment_buffer":             {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER"},
	"user_sgpr_dispatch_ptr":                       {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_DISPATCH_PTR"},
	"user_sgpr_queue_ptr":                          {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_QUEUE_PTR"},
	"user_sgpr_kernarg_segment_ptr":                {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_KERNARG_SEGMENT_PTR"},
	"user_sgpr_dispatch_id":                        {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_DISPATCH_ID"},
	"user_sgpr_flat_scratch_init":                  {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_FLAT_SCRATCH_INIT"},
	"user_sgpr_private_segment_size":               {"KERNEL_CODE_PROPERTIES", "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE"},
	"wavefront_size32":                             {"KERNEL_CODE_PROPERTIES", "ENABLE_WAVEFRONT_SIZE32"},
	"uses_dynamic_stack":                           {"KERNEL_CODE_PROPERTIES", "USES_DYNAMIC_STACK"},
	"system_sgpr_private_segment_wavefront_offset": {"COMPUTE_PGM_RSRC2", "ENABLE_PRIVATE_SEGMENT"},
	"enable_private_segment":                       {"COMPUTE_PGM_RSRC2", "ENABLE_PRIVATE_SEGMENT"},
	"system_sgpr_workgroup_id_x":                   {"COMPUTE_PGM_RSRC2", "ENABLE_SGPR_WORKGROUP_ID_X"},
	"system_sgpr_workgroup_id_y":                   {"COMPUTE_PGM_RSRC2", "ENABLE_SGPR_WORKGROUP_ID_Y"},
	"system_sgpr_workgroup_id_z":                   {"COMPUTE_PGM_RSRC2", "ENABLE_SGPR_WORKGROUP_ID_Z"},
	"system_sgpr_workgroup_info":                   {"COMPUTE_PGM_RSRC2", "ENABLE_SGPR_WORKGROUP_INFO"},
	"system_vgpr_workitem_id":                      {"COMPUTE_PGM_RSRC2", "ENABLE_VGPR_WORKITEM_ID"},
	"exception_fp_ieee_invalid_op":                 {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION"},
	"exception_fp_denorm_src":                      {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_FP_DENORMAL_SOURCE"},
	"exception_fp_ieee_div_zero":                   {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO"},
	"exception_fp_ieee_overflow":                   {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW"},
	"exception_fp_ieee_underflow":                  {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW"},
	"exception_fp_ieee_inexact":                    {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_IEEE_754_FP_INEXACT"},
	"exception_int_div_zero":                       {"COMPUTE_PGM_RSRC2", "ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO"},
	"float_round_mode_32":                          {"COMPUTE_PGM_RSRC1", "FLOAT_ROUND_MODE_32"},
	"float_round_mode_16_64":                       {"COMPUTE_PGM_RSRC1", "FLOAT_ROUND_MODE_16_64"},
	"float_denorm_mode_32":                         {"COMPUTE_PGM_RSRC1", "FLOAT_DENORM_MODE_32"},
	"float_denorm_mode_16_64":                      {"COMPUTE_PGM_RSRC1", "FLOAT_DENORM_MODE_16_64"},
	"dx10_clamp":                                   {"COMPUTE_PGM_RSRC1", "ENABLE_DX10_CLAMP"},
	"ieee_mode":                                    {"COMPUTE_PGM_RSRC1", "ENABLE_IEEE_MODE"},
	"fp16_overflow":                                {"COMPUTE_PGM_RSRC1", "FP16_OVFL"},
	"workgroup_processor_mode":                     {"COMPUTE_PGM_RSRC1", "WGP_MODE"},
	"memory_ordered":                               {"COMPUTE_PGM_RSRC1", "MEM_ORDERED"},
	"forward_progress":                             {"COMPUTE_PGM_RSRC1", "FWD_PROGRESS"},
	"shared_vgpr_count":                            {"COMPUTE_PGM_RSRC3", "SHARED_VGPR_COUNT"},
	"tg_split":                                     {"COMPUTE_PGM_RSRC3", "TG_SPLIT"},
}

// parseDirectives reads the .amdhsa_kernel blocks of an assembly file.
func parseDirectives(t *testing.T, path string) map[string]map[string]int64 {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string]map[string]int64{}
	var cur map[string]int64
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == ".amdhsa_kernel":
			cur = map[string]int64{}
			out[f[1]] = cur
		case len(f) == 2 && strings.HasPrefix(f[0], ".amdhsa_") && cur != nil:
			v, err := strconv.ParseInt(f[1], 0, 64)
			if err != nil {
				t.Fatal(err)
			}
			cur[strings.TrimPrefix(f[0], ".amdhsa_")] = v
		}
	}
	return out
}

// TestDescriptorDirectives: for one processor of every generation llvm-mc-15
// knows (GFX6 to GFX11, gfx90a, gfx940), the decoder reads back every field
// the .amdhsa_* directives set, and the granulated register counts decode
// to the directive's register counts rounded up to the granule.
func TestDescriptorDirectives(t *testing.T) {
	objs, _ := filepath.Glob("testdata/desc/*.o")
	if len(objs) < 9 {
		t.Fatalf("%d descriptor objects", len(objs))
	}
	for _, obj := range objs {
		name := strings.TrimSuffix(filepath.Base(obj), ".o")
		t.Run(name, func(t *testing.T) {
			want := parseDirectives(t, strings.TrimSuffix(obj, ".o")+".s")
			f, err := Open(obj)
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.Processor()
			if err != nil || p.Name != name {
				t.Fatalf("processor %v %v", p, err)
			}
			ks, err := f.Kernels()
			if err != nil || len(ks) != len(want) {
				t.Fatalf("%d kernels (%v), want %d", len(ks), err, len(want))
			}
			for _, k := range ks {
				d := want[k.Name]
				kd := k.Descriptor
				fields := map[string]Field{}
				for _, fd := range kd.Fields(p) {
					fields[fd.Word+"."+fd.Name] = fd
				}
				for dir, v := range d {
					switch dir {
					case "group_segment_fixed_size":
						check(t, k.Name, dir, int64(kd.GroupSegmentFixedSize), v)
					case "private_segment_fixed_size":
						check(t, k.Name, dir, int64(kd.PrivateSegmentFixedSize), v)
					case "kernarg_size":
						check(t, k.Name, dir, int64(kd.KernargSize), v)
					case "accum_offset":
						check(t, k.Name, dir, int64(fields["COMPUTE_PGM_RSRC3.ACCUM_OFFSET"].Value), v/4-1)
					case "next_free_vgpr", "next_free_sgpr", "reserve_vcc", "reserve_flat_scratch":
					default:
						wf, ok := directiveFields[dir]
						if !ok {
							t.Fatalf("no mapping for .amdhsa_%s", dir)
						}
						fd, ok := fields[wf[0]+"."+wf[1]]
						if !ok {
							t.Errorf("%s: %s has no field %s.%s", k.Name, p.Name, wf[0], wf[1])
							continue
						}
						check(t, k.Name, dir, int64(fd.Value), v)
					}
				}
				res, err := kd.Resources(p)
				if err != nil {
					t.Fatal(err)
				}
				wave := 64
				if d["wavefront_size32"] == 1 {
					wave = 32
				}
				if res.WaveSize != wave {
					t.Errorf("%s: wave%d, want wave%d", k.Name, res.WaveSize, wave)
				}
				gran, _ := p.VGPRGranuleFor(wave)
				vgprs := int(d["next_free_vgpr"])
				if p.UnifiedVGPRFile {
					// next_free_vgpr counts the unified file; the arch
					// VGPRs end at ACCUM_OFFSET and the AGPRs follow.
					if a := int(d["accum_offset"]); res.ArchVGPRs != a || res.AGPRs != res.VGPRs-a {
						t.Errorf("%s: arch %d AGPRs %d of %d", k.Name, res.ArchVGPRs, res.AGPRs, res.VGPRs)
					}
				}
				if wantV := max(gran, (vgprs+gran-1)/gran*gran); res.VGPRs != wantV {
					t.Errorf("%s: %d VGPRs allocated, want %d (next_free_vgpr %d, granule %d)", k.Name, res.VGPRs, wantV, vgprs, gran)
				}
				if p.Family < target.GFX10 {
					// reserve_vcc 0 and reserve_flat_scratch 0 leave the
					// XNACK mask (GFX8+ with xnack) as the only addition.
					sg := int(d["next_free_sgpr"])
					if res.SGPRs < sg || res.SGPRs > sg+8+8 {
						t.Errorf("%s: %d SGPRs allocated for next_free_sgpr %d", k.Name, res.SGPRs, sg)
					}
				} else if res.SGPRs != target.GFX10SGPRs {
					t.Errorf("%s: %d SGPRs on GFX10+", k.Name, res.SGPRs)
				}
				// Every field a directive did not set and the generation
				// reserves is zero, and Validate agrees the descriptor is
				// well formed (the objects are ET_REL, which is a warning,
				// and carry no metadata, which is not the point here).
				for _, fd := range f.Validate() {
					if fd.Severity == SeverityError && fd.Rule != "§1.10 metadata" {
						t.Errorf("%v", fd)
					}
				}
			}
		})
	}
}

func check(t *testing.T, kernel, dir string, got, want int64) {
	t.Helper()
	if got != want {
		t.Errorf("%s: .amdhsa_%s %d, decoded %d", kernel, dir, want, got)
	}
}

// TestBuildDescriptorMatchesLLVM rebuilds every llvm-mc-15 descriptor of
// testdata/desc from its directives: all bytes match LLVM's except the
// entry offset (filled by the writer) and the SGPR granule, where LLVM adds
// the registers the .amdhsa_reserve_* defaults reserve.
func TestBuildDescriptorMatchesLLVM(t *testing.T) {
	objs, _ := filepath.Glob("testdata/desc/*.o")
	for _, obj := range objs {
		dirs := parseDirectives(t, strings.TrimSuffix(obj, ".o")+".s")
		f, err := Open(obj)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := f.Processor()
		ks, _ := f.Kernels()
		for _, k := range ks {
			d := dirs[k.Name]
			on := func(n string) bool { return d[n] != 0 }
			c := DefaultDescriptorConfig(p)
			c.GroupSegmentFixedSize, c.PrivateSegmentFixedSize, c.KernargSize = uint32(d["group_segment_fixed_size"]), uint32(d["private_segment_fixed_size"]), uint32(d["kernarg_size"])
			c.PrivateSegmentBuffer, c.DispatchPtr, c.QueuePtr = on("user_sgpr_private_segment_buffer"), on("user_sgpr_dispatch_ptr"), on("user_sgpr_queue_ptr")
			c.KernargSegmentPtr, c.DispatchID, c.FlatScratchInit = on("user_sgpr_kernarg_segment_ptr"), on("user_sgpr_dispatch_id"), on("user_sgpr_flat_scratch_init")
			c.PrivateSegmentSize = on("user_sgpr_private_segment_size")
			if p.Family >= target.GFX10 {
				c.WaveSize = 64
				if on("wavefront_size32") {
					c.WaveSize = 32
				}
			}
			c.EnablePrivateSegment = on("system_sgpr_private_segment_wavefront_offset") || on("enable_private_segment")
			c.WorkgroupIDX, c.WorkgroupIDY, c.WorkgroupIDZ = on("system_sgpr_workgroup_id_x"), on("system_sgpr_workgroup_id_y"), on("system_sgpr_workgroup_id_z")
			c.WorkgroupInfo, c.WorkitemIDDims = on("system_sgpr_workgroup_info"), uint32(d["system_vgpr_workitem_id"])
			c.VGPRs, c.SGPRs, c.AccumOffset = int(d["next_free_vgpr"]), int(d["next_free_sgpr"]), int(d["accum_offset"])
			c.FloatRoundMode32, c.FloatRoundMode1664 = uint32(d["float_round_mode_32"]), uint32(d["float_round_mode_16_64"])
			c.FloatDenormMode32, c.FloatDenormMode1664 = uint32(d["float_denorm_mode_32"]), uint32(d["float_denorm_mode_16_64"])
			c.DX10Clamp, c.IEEEMode, c.FP16Overflow = on("dx10_clamp"), on("ieee_mode"), on("fp16_overflow")
			c.WGPMode, c.MemoryOrdered, c.ForwardProgress = on("workgroup_processor_mode"), on("memory_ordered"), on("forward_progress")
			c.TGSplit = on("tg_split")
			for i, n := range []string{"fp_ieee_invalid_op", "fp_denorm_src", "fp_ieee_div_zero", "fp_ieee_overflow", "fp_ieee_underflow", "fp_ieee_inexact", "int_div_zero"} {
				if on("exception_" + n) {
					c.Exceptions |= 1 << i
				}
			}
			got, err := BuildDescriptor(p, c)
			if err != nil {
				t.Fatalf("%s %s: %v", p.Name, k.Name, err)
			}
			want := *k.Descriptor
			want.KernelCodeEntryByteOffset = 0
			gs, ws := got.ComputePgmRsrc1>>6&15, want.ComputePgmRsrc1>>6&15
			if gs > ws || (p.Family >= target.GFX10 && gs != 0) {
				t.Errorf("%s %s: SGPR granule %d, LLVM %d", p.Name, k.Name, gs, ws)
			}
			got.ComputePgmRsrc1 = got.ComputePgmRsrc1&^(15<<6) | ws<<6
			if got != want {
				t.Errorf("%s %s: built\n%+v\nLLVM\n%+v", p.Name, k.Name, got, want)
			}
		}
	}
}
