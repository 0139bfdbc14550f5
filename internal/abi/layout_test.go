package abi

import (
	"unsafe"
)

// field is one C struct member: its C name, the offset and size the header
// gives (written out by hand from the header and INVENTORY), and what Go says.
type field struct {
	c           string  // C member name (as offsetof accepts it)
	off, size   uintptr // expected, from the header
	goOff, goSz uintptr // unsafe.Offsetof / unsafe.Sizeof of the Go field
}

// layout is a C struct and its Go mirror.
type layout struct {
	ctype  string  // C type name
	header string  // "" when no installed header defines it
	size   uintptr // expected sizeof
	goSize uintptr
	fields []field
}

func f(c string, off, size, goOff, goSz uintptr) field { return field{c, off, size, goOff, goSz} }

func layouts() []layout {
	var kdp KernelDispatchPacket
	var adp AgentDispatchPacket
	var bap BarrierAndPacket
	var bop BarrierOrPacket
	var vph AMDVendorPacketHeader
	var bvp AMDBarrierValuePacket
	var hq HSAQueue
	var aq AMDQueue
	var sig AMDSignal
	var kd KernelDescriptor
	var cd AMDControlDirectives
	var kc AMDKernelCode
	return []layout{
		{"hsa_kernel_dispatch_packet_t", "hsa.h", 64, unsafe.Sizeof(kdp), []field{
			f("header", 0, 2, unsafe.Offsetof(kdp.Header), unsafe.Sizeof(kdp.Header)),
			f("setup", 2, 2, unsafe.Offsetof(kdp.Setup), unsafe.Sizeof(kdp.Setup)),
			f("workgroup_size_x", 4, 2, unsafe.Offsetof(kdp.WorkgroupSizeX), unsafe.Sizeof(kdp.WorkgroupSizeX)),
			f("workgroup_size_y", 6, 2, unsafe.Offsetof(kdp.WorkgroupSizeY), unsafe.Sizeof(kdp.WorkgroupSizeY)),
			f("workgroup_size_z", 8, 2, unsafe.Offsetof(kdp.WorkgroupSizeZ), unsafe.Sizeof(kdp.WorkgroupSizeZ)),
			f("reserved0", 10, 2, unsafe.Offsetof(kdp.Reserved0), unsafe.Sizeof(kdp.Reserved0)),
			f("grid_size_x", 12, 4, unsafe.Offsetof(kdp.GridSizeX), unsafe.Sizeof(kdp.GridSizeX)),
			f("grid_size_y", 16, 4, unsafe.Offsetof(kdp.GridSizeY), unsafe.Sizeof(kdp.GridSizeY)),
			f("grid_size_z", 20, 4, unsafe.Offsetof(kdp.GridSizeZ), unsafe.Sizeof(kdp.GridSizeZ)),
			f("private_segment_size", 24, 4, unsafe.Offsetof(kdp.PrivateSegmentSize), unsafe.Sizeof(kdp.PrivateSegmentSize)),
			f("group_segment_size", 28, 4, unsafe.Offsetof(kdp.GroupSegmentSize), unsafe.Sizeof(kdp.GroupSegmentSize)),
			f("kernel_object", 32, 8, unsafe.Offsetof(kdp.KernelObject), unsafe.Sizeof(kdp.KernelObject)),
			f("kernarg_address", 40, 8, unsafe.Offsetof(kdp.KernargAddress), unsafe.Sizeof(kdp.KernargAddress)),
			f("reserved2", 48, 8, unsafe.Offsetof(kdp.Reserved2), unsafe.Sizeof(kdp.Reserved2)),
			f("completion_signal", 56, 8, unsafe.Offsetof(kdp.CompletionSignal), unsafe.Sizeof(kdp.CompletionSignal)),
		}},
		{"hsa_agent_dispatch_packet_t", "hsa.h", 64, unsafe.Sizeof(adp), []field{
			f("header", 0, 2, unsafe.Offsetof(adp.Header), unsafe.Sizeof(adp.Header)),
			f("type", 2, 2, unsafe.Offsetof(adp.Type), unsafe.Sizeof(adp.Type)),
			f("reserved0", 4, 4, unsafe.Offsetof(adp.Reserved0), unsafe.Sizeof(adp.Reserved0)),
			f("return_address", 8, 8, unsafe.Offsetof(adp.ReturnAddress), unsafe.Sizeof(adp.ReturnAddress)),
			f("arg", 16, 32, unsafe.Offsetof(adp.Arg), unsafe.Sizeof(adp.Arg)),
			f("reserved2", 48, 8, unsafe.Offsetof(adp.Reserved2), unsafe.Sizeof(adp.Reserved2)),
			f("completion_signal", 56, 8, unsafe.Offsetof(adp.CompletionSignal), unsafe.Sizeof(adp.CompletionSignal)),
		}},
		{"hsa_barrier_and_packet_t", "hsa.h", 64, unsafe.Sizeof(bap), []field{
			f("header", 0, 2, unsafe.Offsetof(bap.Header), unsafe.Sizeof(bap.Header)),
			f("reserved0", 2, 2, unsafe.Offsetof(bap.Reserved0), unsafe.Sizeof(bap.Reserved0)),
			f("reserved1", 4, 4, unsafe.Offsetof(bap.Reserved1), unsafe.Sizeof(bap.Reserved1)),
			f("dep_signal", 8, 40, unsafe.Offsetof(bap.DepSignal), unsafe.Sizeof(bap.DepSignal)),
			f("reserved2", 48, 8, unsafe.Offsetof(bap.Reserved2), unsafe.Sizeof(bap.Reserved2)),
			f("completion_signal", 56, 8, unsafe.Offsetof(bap.CompletionSignal), unsafe.Sizeof(bap.CompletionSignal)),
		}},
		{"hsa_barrier_or_packet_t", "hsa.h", 64, unsafe.Sizeof(bop), []field{
			f("header", 0, 2, unsafe.Offsetof(bop.Header), unsafe.Sizeof(bop.Header)),
			f("reserved0", 2, 2, unsafe.Offsetof(bop.Reserved0), unsafe.Sizeof(bop.Reserved0)),
			f("reserved1", 4, 4, unsafe.Offsetof(bop.Reserved1), unsafe.Sizeof(bop.Reserved1)),
			f("dep_signal", 8, 40, unsafe.Offsetof(bop.DepSignal), unsafe.Sizeof(bop.DepSignal)),
			f("reserved2", 48, 8, unsafe.Offsetof(bop.Reserved2), unsafe.Sizeof(bop.Reserved2)),
			f("completion_signal", 56, 8, unsafe.Offsetof(bop.CompletionSignal), unsafe.Sizeof(bop.CompletionSignal)),
		}},
		{"hsa_amd_vendor_packet_header_t", "hsa_ext_amd.h", 4, unsafe.Sizeof(vph), []field{
			f("header", 0, 2, unsafe.Offsetof(vph.Header), unsafe.Sizeof(vph.Header)),
			f("AmdFormat", 2, 1, unsafe.Offsetof(vph.AmdFormat), unsafe.Sizeof(vph.AmdFormat)),
			f("reserved", 3, 1, unsafe.Offsetof(vph.Reserved), unsafe.Sizeof(vph.Reserved)),
		}},
		{"hsa_amd_barrier_value_packet_t", "hsa_ext_amd.h", 64, unsafe.Sizeof(bvp), []field{
			f("header", 0, 4, unsafe.Offsetof(bvp.Header), unsafe.Sizeof(bvp.Header)),
			f("reserved0", 4, 4, unsafe.Offsetof(bvp.Reserved0), unsafe.Sizeof(bvp.Reserved0)),
			f("signal", 8, 8, unsafe.Offsetof(bvp.Signal), unsafe.Sizeof(bvp.Signal)),
			f("value", 16, 8, unsafe.Offsetof(bvp.Value), unsafe.Sizeof(bvp.Value)),
			f("mask", 24, 8, unsafe.Offsetof(bvp.Mask), unsafe.Sizeof(bvp.Mask)),
			f("cond", 32, 4, unsafe.Offsetof(bvp.Cond), unsafe.Sizeof(bvp.Cond)),
			f("reserved1", 36, 4, unsafe.Offsetof(bvp.Reserved1), unsafe.Sizeof(bvp.Reserved1)),
			f("reserved2", 40, 8, unsafe.Offsetof(bvp.Reserved2), unsafe.Sizeof(bvp.Reserved2)),
			f("reserved3", 48, 8, unsafe.Offsetof(bvp.Reserved3), unsafe.Sizeof(bvp.Reserved3)),
			f("completion_signal", 56, 8, unsafe.Offsetof(bvp.CompletionSignal), unsafe.Sizeof(bvp.CompletionSignal)),
		}},
		{"hsa_queue_t", "hsa.h", 40, unsafe.Sizeof(hq), []field{
			f("type", 0, 4, unsafe.Offsetof(hq.Type), unsafe.Sizeof(hq.Type)),
			f("features", 4, 4, unsafe.Offsetof(hq.Features), unsafe.Sizeof(hq.Features)),
			f("base_address", 8, 8, unsafe.Offsetof(hq.BaseAddress), unsafe.Sizeof(hq.BaseAddress)),
			f("doorbell_signal", 16, 8, unsafe.Offsetof(hq.DoorbellSignal), unsafe.Sizeof(hq.DoorbellSignal)),
			f("size", 24, 4, unsafe.Offsetof(hq.Size), unsafe.Sizeof(hq.Size)),
			f("reserved1", 28, 4, unsafe.Offsetof(hq.Reserved1), unsafe.Sizeof(hq.Reserved1)),
			f("id", 32, 8, unsafe.Offsetof(hq.ID), unsafe.Sizeof(hq.ID)),
		}},
		{"amd_queue_t", "amd_hsa_queue.h", 256, unsafe.Sizeof(aq), []field{
			f("hsa_queue", 0, 40, unsafe.Offsetof(aq.HSAQueue), unsafe.Sizeof(aq.HSAQueue)),
			f("reserved1", 40, 16, unsafe.Offsetof(aq.Reserved1), unsafe.Sizeof(aq.Reserved1)),
			f("write_dispatch_id", 56, 8, unsafe.Offsetof(aq.WriteDispatchID), unsafe.Sizeof(aq.WriteDispatchID)),
			f("group_segment_aperture_base_hi", 64, 4, unsafe.Offsetof(aq.GroupSegmentApertureBaseHi), unsafe.Sizeof(aq.GroupSegmentApertureBaseHi)),
			f("private_segment_aperture_base_hi", 68, 4, unsafe.Offsetof(aq.PrivateSegmentApertureBaseHi), unsafe.Sizeof(aq.PrivateSegmentApertureBaseHi)),
			f("max_cu_id", 72, 4, unsafe.Offsetof(aq.MaxCUID), unsafe.Sizeof(aq.MaxCUID)),
			f("max_wave_id", 76, 4, unsafe.Offsetof(aq.MaxWaveID), unsafe.Sizeof(aq.MaxWaveID)),
			f("max_legacy_doorbell_dispatch_id_plus_1", 80, 8, unsafe.Offsetof(aq.MaxLegacyDoorbellDispatchIDPlus1), unsafe.Sizeof(aq.MaxLegacyDoorbellDispatchIDPlus1)),
			f("legacy_doorbell_lock", 88, 4, unsafe.Offsetof(aq.LegacyDoorbellLock), unsafe.Sizeof(aq.LegacyDoorbellLock)),
			f("reserved2", 92, 36, unsafe.Offsetof(aq.Reserved2), unsafe.Sizeof(aq.Reserved2)),
			f("read_dispatch_id", 128, 8, unsafe.Offsetof(aq.ReadDispatchID), unsafe.Sizeof(aq.ReadDispatchID)),
			f("read_dispatch_id_field_base_byte_offset", 136, 4, unsafe.Offsetof(aq.ReadDispatchIDFieldBaseByteOffset), unsafe.Sizeof(aq.ReadDispatchIDFieldBaseByteOffset)),
			f("compute_tmpring_size", 140, 4, unsafe.Offsetof(aq.ComputeTmpringSize), unsafe.Sizeof(aq.ComputeTmpringSize)),
			f("scratch_resource_descriptor", 144, 16, unsafe.Offsetof(aq.ScratchResourceDescriptor), unsafe.Sizeof(aq.ScratchResourceDescriptor)),
			f("scratch_backing_memory_location", 160, 8, unsafe.Offsetof(aq.ScratchBackingMemoryLocation), unsafe.Sizeof(aq.ScratchBackingMemoryLocation)),
			f("scratch_backing_memory_byte_size", 168, 8, unsafe.Offsetof(aq.ScratchBackingMemoryByteSize), unsafe.Sizeof(aq.ScratchBackingMemoryByteSize)),
			f("scratch_wave64_lane_byte_size", 176, 4, unsafe.Offsetof(aq.ScratchWave64LaneByteSize), unsafe.Sizeof(aq.ScratchWave64LaneByteSize)),
			f("queue_properties", 180, 4, unsafe.Offsetof(aq.QueueProperties), unsafe.Sizeof(aq.QueueProperties)),
			f("reserved3", 184, 8, unsafe.Offsetof(aq.Reserved3), unsafe.Sizeof(aq.Reserved3)),
			f("queue_inactive_signal", 192, 8, unsafe.Offsetof(aq.QueueInactiveSignal), unsafe.Sizeof(aq.QueueInactiveSignal)),
			f("reserved4", 200, 56, unsafe.Offsetof(aq.Reserved4), unsafe.Sizeof(aq.Reserved4)),
		}},
		{"amd_signal_t", "amd_hsa_signal.h", 64, unsafe.Sizeof(sig), []field{
			f("kind", 0, 8, unsafe.Offsetof(sig.Kind), unsafe.Sizeof(sig.Kind)),
			f("value", 8, 8, unsafe.Offsetof(sig.Value), unsafe.Sizeof(sig.Value)),
			f("legacy_hardware_doorbell_ptr", 8, 8, unsafe.Offsetof(sig.Value), unsafe.Sizeof(sig.Value)),
			f("hardware_doorbell_ptr", 8, 8, unsafe.Offsetof(sig.Value), unsafe.Sizeof(sig.Value)),
			f("event_mailbox_ptr", 16, 8, unsafe.Offsetof(sig.EventMailboxPtr), unsafe.Sizeof(sig.EventMailboxPtr)),
			f("event_id", 24, 4, unsafe.Offsetof(sig.EventID), unsafe.Sizeof(sig.EventID)),
			f("reserved1", 28, 4, unsafe.Offsetof(sig.Reserved1), unsafe.Sizeof(sig.Reserved1)),
			f("start_ts", 32, 8, unsafe.Offsetof(sig.StartTS), unsafe.Sizeof(sig.StartTS)),
			f("end_ts", 40, 8, unsafe.Offsetof(sig.EndTS), unsafe.Sizeof(sig.EndTS)),
			f("queue_ptr", 48, 8, unsafe.Offsetof(sig.QueuePtr), unsafe.Sizeof(sig.QueuePtr)),
			f("reserved2", 48, 8, unsafe.Offsetof(sig.QueuePtr), unsafe.Sizeof(sig.QueuePtr)),
			f("reserved3", 56, 8, unsafe.Offsetof(sig.Reserved3), unsafe.Sizeof(sig.Reserved3)),
		}},
		// kernel_descriptor_t is LLVM's, not in the ROCr headers: the
		// expected values come from INVENTORY §4.1.
		{"kernel_descriptor_t", "", 64, unsafe.Sizeof(kd), []field{
			f("group_segment_fixed_size", 0, 4, unsafe.Offsetof(kd.GroupSegmentFixedSize), unsafe.Sizeof(kd.GroupSegmentFixedSize)),
			f("private_segment_fixed_size", 4, 4, unsafe.Offsetof(kd.PrivateSegmentFixedSize), unsafe.Sizeof(kd.PrivateSegmentFixedSize)),
			f("kernarg_size", 8, 4, unsafe.Offsetof(kd.KernargSize), unsafe.Sizeof(kd.KernargSize)),
			f("reserved0", 12, 4, unsafe.Offsetof(kd.Reserved0), unsafe.Sizeof(kd.Reserved0)),
			f("kernel_code_entry_byte_offset", 16, 8, unsafe.Offsetof(kd.KernelCodeEntryByteOffset), unsafe.Sizeof(kd.KernelCodeEntryByteOffset)),
			f("reserved1", 24, 20, unsafe.Offsetof(kd.Reserved1), unsafe.Sizeof(kd.Reserved1)),
			f("compute_pgm_rsrc3", 44, 4, unsafe.Offsetof(kd.ComputePgmRsrc3), unsafe.Sizeof(kd.ComputePgmRsrc3)),
			f("compute_pgm_rsrc1", 48, 4, unsafe.Offsetof(kd.ComputePgmRsrc1), unsafe.Sizeof(kd.ComputePgmRsrc1)),
			f("compute_pgm_rsrc2", 52, 4, unsafe.Offsetof(kd.ComputePgmRsrc2), unsafe.Sizeof(kd.ComputePgmRsrc2)),
			f("kernel_code_properties", 56, 2, unsafe.Offsetof(kd.KernelCodeProperties), unsafe.Sizeof(kd.KernelCodeProperties)),
			f("kernarg_preload", 58, 2, unsafe.Offsetof(kd.KernargPreload), unsafe.Sizeof(kd.KernargPreload)),
			f("reserved3", 60, 4, unsafe.Offsetof(kd.Reserved3), unsafe.Sizeof(kd.Reserved3)),
		}},
		{"amd_control_directives_t", "amd_hsa_kernel_code.h", 128, unsafe.Sizeof(cd), []field{
			f("enabled_control_directives", 0, 8, unsafe.Offsetof(cd.EnabledControlDirectives), unsafe.Sizeof(cd.EnabledControlDirectives)),
			f("enable_break_exceptions", 8, 2, unsafe.Offsetof(cd.EnableBreakExceptions), unsafe.Sizeof(cd.EnableBreakExceptions)),
			f("enable_detect_exceptions", 10, 2, unsafe.Offsetof(cd.EnableDetectExceptions), unsafe.Sizeof(cd.EnableDetectExceptions)),
			f("max_dynamic_group_size", 12, 4, unsafe.Offsetof(cd.MaxDynamicGroupSize), unsafe.Sizeof(cd.MaxDynamicGroupSize)),
			f("max_flat_grid_size", 16, 8, unsafe.Offsetof(cd.MaxFlatGridSize), unsafe.Sizeof(cd.MaxFlatGridSize)),
			f("max_flat_workgroup_size", 24, 4, unsafe.Offsetof(cd.MaxFlatWorkgroupSize), unsafe.Sizeof(cd.MaxFlatWorkgroupSize)),
			f("required_dim", 28, 1, unsafe.Offsetof(cd.RequiredDim), unsafe.Sizeof(cd.RequiredDim)),
			f("reserved1", 29, 3, unsafe.Offsetof(cd.Reserved1), unsafe.Sizeof(cd.Reserved1)),
			f("required_grid_size", 32, 24, unsafe.Offsetof(cd.RequiredGridSize), unsafe.Sizeof(cd.RequiredGridSize)),
			f("required_workgroup_size", 56, 12, unsafe.Offsetof(cd.RequiredWorkgroupSize), unsafe.Sizeof(cd.RequiredWorkgroupSize)),
			f("reserved2", 68, 60, unsafe.Offsetof(cd.Reserved2), unsafe.Sizeof(cd.Reserved2)),
		}},
		{"amd_kernel_code_t", "amd_hsa_kernel_code.h", 256, unsafe.Sizeof(kc), []field{
			f("amd_kernel_code_version_major", 0, 4, unsafe.Offsetof(kc.AMDKernelCodeVersionMajor), unsafe.Sizeof(kc.AMDKernelCodeVersionMajor)),
			f("amd_kernel_code_version_minor", 4, 4, unsafe.Offsetof(kc.AMDKernelCodeVersionMinor), unsafe.Sizeof(kc.AMDKernelCodeVersionMinor)),
			f("amd_machine_kind", 8, 2, unsafe.Offsetof(kc.AMDMachineKind), unsafe.Sizeof(kc.AMDMachineKind)),
			f("amd_machine_version_major", 10, 2, unsafe.Offsetof(kc.AMDMachineVersionMajor), unsafe.Sizeof(kc.AMDMachineVersionMajor)),
			f("amd_machine_version_minor", 12, 2, unsafe.Offsetof(kc.AMDMachineVersionMinor), unsafe.Sizeof(kc.AMDMachineVersionMinor)),
			f("amd_machine_version_stepping", 14, 2, unsafe.Offsetof(kc.AMDMachineVersionStepping), unsafe.Sizeof(kc.AMDMachineVersionStepping)),
			f("kernel_code_entry_byte_offset", 16, 8, unsafe.Offsetof(kc.KernelCodeEntryByteOffset), unsafe.Sizeof(kc.KernelCodeEntryByteOffset)),
			f("kernel_code_prefetch_byte_offset", 24, 8, unsafe.Offsetof(kc.KernelCodePrefetchByteOffset), unsafe.Sizeof(kc.KernelCodePrefetchByteOffset)),
			f("kernel_code_prefetch_byte_size", 32, 8, unsafe.Offsetof(kc.KernelCodePrefetchByteSize), unsafe.Sizeof(kc.KernelCodePrefetchByteSize)),
			f("max_scratch_backing_memory_byte_size", 40, 8, unsafe.Offsetof(kc.MaxScratchBackingMemoryByteSize), unsafe.Sizeof(kc.MaxScratchBackingMemoryByteSize)),
			f("compute_pgm_rsrc1", 48, 4, unsafe.Offsetof(kc.ComputePgmRsrc1), unsafe.Sizeof(kc.ComputePgmRsrc1)),
			f("compute_pgm_rsrc2", 52, 4, unsafe.Offsetof(kc.ComputePgmRsrc2), unsafe.Sizeof(kc.ComputePgmRsrc2)),
			f("kernel_code_properties", 56, 4, unsafe.Offsetof(kc.KernelCodeProperties), unsafe.Sizeof(kc.KernelCodeProperties)),
			f("workitem_private_segment_byte_size", 60, 4, unsafe.Offsetof(kc.WorkitemPrivateSegmentByteSize), unsafe.Sizeof(kc.WorkitemPrivateSegmentByteSize)),
			f("workgroup_group_segment_byte_size", 64, 4, unsafe.Offsetof(kc.WorkgroupGroupSegmentByteSize), unsafe.Sizeof(kc.WorkgroupGroupSegmentByteSize)),
			f("gds_segment_byte_size", 68, 4, unsafe.Offsetof(kc.GDSSegmentByteSize), unsafe.Sizeof(kc.GDSSegmentByteSize)),
			f("kernarg_segment_byte_size", 72, 8, unsafe.Offsetof(kc.KernargSegmentByteSize), unsafe.Sizeof(kc.KernargSegmentByteSize)),
			f("workgroup_fbarrier_count", 80, 4, unsafe.Offsetof(kc.WorkgroupFbarrierCount), unsafe.Sizeof(kc.WorkgroupFbarrierCount)),
			f("wavefront_sgpr_count", 84, 2, unsafe.Offsetof(kc.WavefrontSGPRCount), unsafe.Sizeof(kc.WavefrontSGPRCount)),
			f("workitem_vgpr_count", 86, 2, unsafe.Offsetof(kc.WorkitemVGPRCount), unsafe.Sizeof(kc.WorkitemVGPRCount)),
			f("reserved_vgpr_first", 88, 2, unsafe.Offsetof(kc.ReservedVGPRFirst), unsafe.Sizeof(kc.ReservedVGPRFirst)),
			f("reserved_vgpr_count", 90, 2, unsafe.Offsetof(kc.ReservedVGPRCount), unsafe.Sizeof(kc.ReservedVGPRCount)),
			f("reserved_sgpr_first", 92, 2, unsafe.Offsetof(kc.ReservedSGPRFirst), unsafe.Sizeof(kc.ReservedSGPRFirst)),
			f("reserved_sgpr_count", 94, 2, unsafe.Offsetof(kc.ReservedSGPRCount), unsafe.Sizeof(kc.ReservedSGPRCount)),
			f("debug_wavefront_private_segment_offset_sgpr", 96, 2, unsafe.Offsetof(kc.DebugWavefrontPrivateSegmentOffsetSGPR), unsafe.Sizeof(kc.DebugWavefrontPrivateSegmentOffsetSGPR)),
			f("debug_private_segment_buffer_sgpr", 98, 2, unsafe.Offsetof(kc.DebugPrivateSegmentBufferSGPR), unsafe.Sizeof(kc.DebugPrivateSegmentBufferSGPR)),
			f("kernarg_segment_alignment", 100, 1, unsafe.Offsetof(kc.KernargSegmentAlignment), unsafe.Sizeof(kc.KernargSegmentAlignment)),
			f("group_segment_alignment", 101, 1, unsafe.Offsetof(kc.GroupSegmentAlignment), unsafe.Sizeof(kc.GroupSegmentAlignment)),
			f("private_segment_alignment", 102, 1, unsafe.Offsetof(kc.PrivateSegmentAlignment), unsafe.Sizeof(kc.PrivateSegmentAlignment)),
			f("wavefront_size", 103, 1, unsafe.Offsetof(kc.WavefrontSize), unsafe.Sizeof(kc.WavefrontSize)),
			f("call_convention", 104, 4, unsafe.Offsetof(kc.CallConvention), unsafe.Sizeof(kc.CallConvention)),
			f("reserved1", 108, 12, unsafe.Offsetof(kc.Reserved1), unsafe.Sizeof(kc.Reserved1)),
			f("runtime_loader_kernel_symbol", 120, 8, unsafe.Offsetof(kc.RuntimeLoaderKernelSymbol), unsafe.Sizeof(kc.RuntimeLoaderKernelSymbol)),
			f("control_directives", 128, 128, unsafe.Offsetof(kc.ControlDirectives), unsafe.Sizeof(kc.ControlDirectives)),
		}},
	}
}

// constant is a C enumerator or macro and the Go constant that keeps its name.
type constant struct {
	name   string
	header string
	value  int64
	u32    bool // a 32-bit mask: C's int enum makes it negative
}

func constants() []constant {
	c := func(name, header string, v int64) constant { return constant{name, header, v, false} }
	return []constant{
		c("HSA_PACKET_TYPE_VENDOR_SPECIFIC", "hsa.h", int64(HSA_PACKET_TYPE_VENDOR_SPECIFIC)),
		c("HSA_PACKET_TYPE_INVALID", "hsa.h", int64(HSA_PACKET_TYPE_INVALID)),
		c("HSA_PACKET_TYPE_KERNEL_DISPATCH", "hsa.h", int64(HSA_PACKET_TYPE_KERNEL_DISPATCH)),
		c("HSA_PACKET_TYPE_BARRIER_AND", "hsa.h", int64(HSA_PACKET_TYPE_BARRIER_AND)),
		c("HSA_PACKET_TYPE_AGENT_DISPATCH", "hsa.h", int64(HSA_PACKET_TYPE_AGENT_DISPATCH)),
		c("HSA_PACKET_TYPE_BARRIER_OR", "hsa.h", int64(HSA_PACKET_TYPE_BARRIER_OR)),
		c("HSA_FENCE_SCOPE_NONE", "hsa.h", int64(HSA_FENCE_SCOPE_NONE)),
		c("HSA_FENCE_SCOPE_AGENT", "hsa.h", int64(HSA_FENCE_SCOPE_AGENT)),
		c("HSA_FENCE_SCOPE_SYSTEM", "hsa.h", int64(HSA_FENCE_SCOPE_SYSTEM)),
		c("HSA_PACKET_HEADER_TYPE", "hsa.h", HSA_PACKET_HEADER_TYPE),
		c("HSA_PACKET_HEADER_BARRIER", "hsa.h", HSA_PACKET_HEADER_BARRIER),
		c("HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_WIDTH_TYPE", "hsa.h", HSA_PACKET_HEADER_WIDTH_TYPE),
		c("HSA_PACKET_HEADER_WIDTH_BARRIER", "hsa.h", HSA_PACKET_HEADER_WIDTH_BARRIER),
		c("HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_WIDTH_ACQUIRE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_WIDTH_ACQUIRE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE),
		c("HSA_PACKET_HEADER_WIDTH_RELEASE_FENCE_SCOPE", "hsa.h", HSA_PACKET_HEADER_WIDTH_RELEASE_FENCE_SCOPE),
		c("HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS", "hsa.h", HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS),
		c("HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS", "hsa.h", HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS),
		c("HSA_SIGNAL_CONDITION_EQ", "hsa.h", HSA_SIGNAL_CONDITION_EQ),
		c("HSA_SIGNAL_CONDITION_NE", "hsa.h", HSA_SIGNAL_CONDITION_NE),
		c("HSA_SIGNAL_CONDITION_LT", "hsa.h", HSA_SIGNAL_CONDITION_LT),
		c("HSA_SIGNAL_CONDITION_GTE", "hsa.h", HSA_SIGNAL_CONDITION_GTE),
		c("HSA_QUEUE_TYPE_MULTI", "hsa.h", int64(HSA_QUEUE_TYPE_MULTI)),
		c("HSA_QUEUE_TYPE_SINGLE", "hsa.h", int64(HSA_QUEUE_TYPE_SINGLE)),
		c("HSA_QUEUE_TYPE_COOPERATIVE", "hsa.h", int64(HSA_QUEUE_TYPE_COOPERATIVE)),
		c("HSA_QUEUE_FEATURE_KERNEL_DISPATCH", "hsa.h", HSA_QUEUE_FEATURE_KERNEL_DISPATCH),
		c("HSA_QUEUE_FEATURE_AGENT_DISPATCH", "hsa.h", HSA_QUEUE_FEATURE_AGENT_DISPATCH),
		c("HSA_AMD_PACKET_TYPE_BARRIER_VALUE", "hsa_ext_amd.h", HSA_AMD_PACKET_TYPE_BARRIER_VALUE),
		c("AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER),
		c("AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_SHIFT", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_SHIFT),
		c("AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_WIDTH", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_WIDTH),
		c("AMD_QUEUE_PROPERTIES_IS_PTR64", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_IS_PTR64),
		c("AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT),
		c("AMD_QUEUE_PROPERTIES_IS_PTR64_WIDTH", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_IS_PTR64_WIDTH),
		c("AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS),
		c("AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_SHIFT", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_SHIFT),
		c("AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_WIDTH", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_WIDTH),
		c("AMD_QUEUE_PROPERTIES_ENABLE_PROFILING", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_PROFILING),
		c("AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT),
		c("AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_WIDTH", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_WIDTH),
		c("AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE),
		c("AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_SHIFT", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_SHIFT),
		c("AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_WIDTH", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_WIDTH),
		{"AMD_QUEUE_PROPERTIES_RESERVED1", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_RESERVED1, true},
		c("AMD_QUEUE_PROPERTIES_RESERVED1_SHIFT", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_RESERVED1_SHIFT),
		c("AMD_QUEUE_PROPERTIES_RESERVED1_WIDTH", "amd_hsa_queue.h", AMD_QUEUE_PROPERTIES_RESERVED1_WIDTH),
		c("AMD_QUEUE_ALIGN_BYTES", "amd_hsa_queue.h", AMD_QUEUE_ALIGN_BYTES),
		c("AMD_SIGNAL_KIND_INVALID", "amd_hsa_signal.h", int64(AMD_SIGNAL_KIND_INVALID)),
		c("AMD_SIGNAL_KIND_USER", "amd_hsa_signal.h", int64(AMD_SIGNAL_KIND_USER)),
		c("AMD_SIGNAL_KIND_DOORBELL", "amd_hsa_signal.h", int64(AMD_SIGNAL_KIND_DOORBELL)),
		c("AMD_SIGNAL_KIND_LEGACY_DOORBELL", "amd_hsa_signal.h", int64(AMD_SIGNAL_KIND_LEGACY_DOORBELL)),
		c("AMD_SIGNAL_ALIGN_BYTES", "amd_hsa_signal.h", AMD_SIGNAL_ALIGN_BYTES),
		c("AMD_KERNEL_CODE_VERSION_MAJOR", "amd_hsa_kernel_code.h", AMD_KERNEL_CODE_VERSION_MAJOR),
		c("AMD_KERNEL_CODE_VERSION_MINOR", "amd_hsa_kernel_code.h", AMD_KERNEL_CODE_VERSION_MINOR),
		c("AMD_MACHINE_KIND_UNDEFINED", "amd_hsa_kernel_code.h", AMD_MACHINE_KIND_UNDEFINED),
		c("AMD_MACHINE_KIND_AMDGPU", "amd_hsa_kernel_code.h", AMD_MACHINE_KIND_AMDGPU),
		c("AMD_FLOAT_ROUND_MODE_NEAREST_EVEN", "amd_hsa_kernel_code.h", AMD_FLOAT_ROUND_MODE_NEAREST_EVEN),
		c("AMD_FLOAT_ROUND_MODE_PLUS_INFINITY", "amd_hsa_kernel_code.h", AMD_FLOAT_ROUND_MODE_PLUS_INFINITY),
		c("AMD_FLOAT_ROUND_MODE_MINUS_INFINITY", "amd_hsa_kernel_code.h", AMD_FLOAT_ROUND_MODE_MINUS_INFINITY),
		c("AMD_FLOAT_ROUND_MODE_ZERO", "amd_hsa_kernel_code.h", AMD_FLOAT_ROUND_MODE_ZERO),
		c("AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE_OUTPUT", "amd_hsa_kernel_code.h", AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE_OUTPUT),
		c("AMD_FLOAT_DENORM_MODE_FLUSH_OUTPUT", "amd_hsa_kernel_code.h", AMD_FLOAT_DENORM_MODE_FLUSH_OUTPUT),
		c("AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE", "amd_hsa_kernel_code.h", AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE),
		c("AMD_FLOAT_DENORM_MODE_NO_FLUSH", "amd_hsa_kernel_code.h", AMD_FLOAT_DENORM_MODE_NO_FLUSH),
		c("AMD_SYSTEM_VGPR_WORKITEM_ID_X", "amd_hsa_kernel_code.h", AMD_SYSTEM_VGPR_WORKITEM_ID_X),
		c("AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y", "amd_hsa_kernel_code.h", AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y),
		c("AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y_Z", "amd_hsa_kernel_code.h", AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y_Z),
		c("AMD_SYSTEM_VGPR_WORKITEM_ID_UNDEFINED", "amd_hsa_kernel_code.h", AMD_SYSTEM_VGPR_WORKITEM_ID_UNDEFINED),
		c("AMD_ELEMENT_BYTE_SIZE_2", "amd_hsa_kernel_code.h", AMD_ELEMENT_BYTE_SIZE_2),
		c("AMD_ELEMENT_BYTE_SIZE_4", "amd_hsa_kernel_code.h", AMD_ELEMENT_BYTE_SIZE_4),
		c("AMD_ELEMENT_BYTE_SIZE_8", "amd_hsa_kernel_code.h", AMD_ELEMENT_BYTE_SIZE_8),
		c("AMD_ELEMENT_BYTE_SIZE_16", "amd_hsa_kernel_code.h", AMD_ELEMENT_BYTE_SIZE_16),
		c("AMD_POWERTWO_1", "amd_hsa_kernel_code.h", AMD_POWERTWO_1),
		c("AMD_POWERTWO_16", "amd_hsa_kernel_code.h", AMD_POWERTWO_16),
		c("AMD_POWERTWO_256", "amd_hsa_kernel_code.h", AMD_POWERTWO_256),
		c("AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_BREAK_EXCEPTIONS", "amd_hsa_kernel_code.h", AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_BREAK_EXCEPTIONS),
		c("AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRE_NO_PARTIAL_WORKGROUPS", "amd_hsa_kernel_code.h", AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRE_NO_PARTIAL_WORKGROUPS),
		c("AMD_EXCEPTION_KIND_INVALID_OPERATION", "amd_hsa_kernel_code.h", AMD_EXCEPTION_KIND_INVALID_OPERATION),
		c("AMD_EXCEPTION_KIND_INEXACT", "amd_hsa_kernel_code.h", AMD_EXCEPTION_KIND_INEXACT),
		c("AMD_ISA_ALIGN_BYTES", "amd_hsa_kernel_code.h", AMD_ISA_ALIGN_BYTES),
		c("AMD_KERNEL_CODE_ALIGN_BYTES", "amd_hsa_kernel_code.h", AMD_KERNEL_CODE_ALIGN_BYTES),
		c("AMD_CONTROL_DIRECTIVES_ALIGN_BYTES", "amd_hsa_kernel_code.h", AMD_CONTROL_DIRECTIVES_ALIGN_BYTES),
	}
}
