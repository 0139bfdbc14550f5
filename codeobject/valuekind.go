package codeobject

// ValueKind is an argument's .value_kind in its V3+ spelling (INVENTORY
// §2.6). Unknown kinds are kept as they are spelled.
type ValueKind string

// Argument value kinds.
const (
	ValueKindByValue                ValueKind = "by_value"
	ValueKindGlobalBuffer           ValueKind = "global_buffer"
	ValueKindDynamicSharedPointer   ValueKind = "dynamic_shared_pointer"
	ValueKindSampler                ValueKind = "sampler"
	ValueKindImage                  ValueKind = "image"
	ValueKindPipe                   ValueKind = "pipe"
	ValueKindQueue                  ValueKind = "queue"
	ValueKindHiddenGlobalOffsetX    ValueKind = "hidden_global_offset_x"
	ValueKindHiddenGlobalOffsetY    ValueKind = "hidden_global_offset_y"
	ValueKindHiddenGlobalOffsetZ    ValueKind = "hidden_global_offset_z"
	ValueKindHiddenNone             ValueKind = "hidden_none"
	ValueKindHiddenPrintfBuffer     ValueKind = "hidden_printf_buffer"
	ValueKindHiddenHostcallBuffer   ValueKind = "hidden_hostcall_buffer"
	ValueKindHiddenDefaultQueue     ValueKind = "hidden_default_queue"
	ValueKindHiddenCompletionAction ValueKind = "hidden_completion_action"
	ValueKindHiddenMultigridSyncArg ValueKind = "hidden_multigrid_sync_arg"
	ValueKindHiddenBlockCountX      ValueKind = "hidden_block_count_x"
	ValueKindHiddenBlockCountY      ValueKind = "hidden_block_count_y"
	ValueKindHiddenBlockCountZ      ValueKind = "hidden_block_count_z"
	ValueKindHiddenGroupSizeX       ValueKind = "hidden_group_size_x"
	ValueKindHiddenGroupSizeY       ValueKind = "hidden_group_size_y"
	ValueKindHiddenGroupSizeZ       ValueKind = "hidden_group_size_z"
	ValueKindHiddenRemainderX       ValueKind = "hidden_remainder_x"
	ValueKindHiddenRemainderY       ValueKind = "hidden_remainder_y"
	ValueKindHiddenRemainderZ       ValueKind = "hidden_remainder_z"
	ValueKindHiddenGridDims         ValueKind = "hidden_grid_dims"
	ValueKindHiddenHeapV1           ValueKind = "hidden_heap_v1"
	ValueKindHiddenDynamicLDSSize   ValueKind = "hidden_dynamic_lds_size"
	ValueKindHiddenPrivateBase      ValueKind = "hidden_private_base"
	ValueKindHiddenSharedBase       ValueKind = "hidden_shared_base"
	ValueKindHiddenQueuePtr         ValueKind = "hidden_queue_ptr"
)

type valueKindInfo struct {
	v2     string  // V2 CamelCase spelling, "" if none
	since  Version // first code object version with the kind
	hidden bool
}

var valueKinds = map[ValueKind]valueKindInfo{
	ValueKindByValue:                {"ByValue", V2, false},
	ValueKindGlobalBuffer:           {"GlobalBuffer", V2, false},
	ValueKindDynamicSharedPointer:   {"DynamicSharedPointer", V2, false},
	ValueKindSampler:                {"Sampler", V2, false},
	ValueKindImage:                  {"Image", V2, false},
	ValueKindPipe:                   {"Pipe", V2, false},
	ValueKindQueue:                  {"Queue", V2, false},
	ValueKindHiddenGlobalOffsetX:    {"HiddenGlobalOffsetX", V2, true},
	ValueKindHiddenGlobalOffsetY:    {"HiddenGlobalOffsetY", V2, true},
	ValueKindHiddenGlobalOffsetZ:    {"HiddenGlobalOffsetZ", V2, true},
	ValueKindHiddenNone:             {"HiddenNone", V2, true},
	ValueKindHiddenPrintfBuffer:     {"HiddenPrintfBuffer", V2, true},
	ValueKindHiddenHostcallBuffer:   {"HiddenHostcallBuffer", V2, true},
	ValueKindHiddenDefaultQueue:     {"HiddenDefaultQueue", V2, true},
	ValueKindHiddenCompletionAction: {"HiddenCompletionAction", V2, true},
	ValueKindHiddenMultigridSyncArg: {"HiddenMultiGridSyncArg", V2, true},
	ValueKindHiddenBlockCountX:      {"", V5, true},
	ValueKindHiddenBlockCountY:      {"", V5, true},
	ValueKindHiddenBlockCountZ:      {"", V5, true},
	ValueKindHiddenGroupSizeX:       {"", V5, true},
	ValueKindHiddenGroupSizeY:       {"", V5, true},
	ValueKindHiddenGroupSizeZ:       {"", V5, true},
	ValueKindHiddenRemainderX:       {"", V5, true},
	ValueKindHiddenRemainderY:       {"", V5, true},
	ValueKindHiddenRemainderZ:       {"", V5, true},
	ValueKindHiddenGridDims:         {"", V5, true},
	ValueKindHiddenHeapV1:           {"", V5, true},
	ValueKindHiddenDynamicLDSSize:   {"", V5, true},
	ValueKindHiddenPrivateBase:      {"", V5, true},
	ValueKindHiddenSharedBase:       {"", V5, true},
	ValueKindHiddenQueuePtr:         {"", V5, true},
}

// Known reports whether k is a value kind of the spec.
func (k ValueKind) Known() bool { _, ok := valueKinds[k]; return ok }

// Hidden reports whether k is a hidden argument, filled by the launcher
// rather than by the caller.
func (k ValueKind) Hidden() bool { return valueKinds[k].hidden }

// Since returns the first code object version whose metadata may use k
// (VersionUnknown for unknown kinds).
func (k ValueKind) Since() Version { return valueKinds[k].since }

// V2Name returns the V2 YAML (CamelCase) spelling, "" if k has none.
func (k ValueKind) V2Name() string { return valueKinds[k].v2 }

// ValueKindFromV2 maps a V2 spelling to the V3 kind; ok is false if unknown.
func ValueKindFromV2(s string) (ValueKind, bool) {
	for k, info := range valueKinds {
		if info.v2 != "" && info.v2 == s {
			return k, true
		}
	}
	return ValueKind(s), false
}
