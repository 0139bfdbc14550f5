package codeobject

import (
	"fmt"
)

// Metadata is the typed code object metadata (INVENTORY §2). For V3+ it
// mirrors the NT_AMDGPU_METADATA map; V2 YAML metadata is converted to the
// same shape (see MetadataV2.Unified). Keys this package does not know are
// kept in Extra fields and written back.
type Metadata struct {
	// Version is amdhsa.version: [1,0] V3, [1,1] V4, [1,2] V5 and V6.
	Version []uint64
	// Target is amdhsa.target (V4+), the canonical code object target,
	// e.g. "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"; "" if absent.
	Target string
	// Printf is amdhsa.printf: the printf format descriptors
	// "ID:N:S0:...:SN-1:Format" (§2.7); nil if absent.
	Printf  []string
	Kernels []Kernel
	Extra   []MapEntry
}

// Kernel is one entry of amdhsa.kernels. Required integer keys are plain
// values; optional keys are pointers (nil = absent) or empty strings/slices.
type Kernel struct {
	Name                    string
	Symbol                  string // the kernel descriptor symbol, "<name>.kd"
	Language                string
	LanguageVersion         []uint64
	Args                    []Arg // nil = no .args key
	ReqdWorkgroupSize       []uint64
	WorkgroupSizeHint       []uint64
	VecTypeHint             string
	DeviceEnqueueSymbol     string
	KernargSegmentSize      uint64
	GroupSegmentFixedSize   uint64
	PrivateSegmentFixedSize uint64
	KernargSegmentAlign     uint64
	WavefrontSize           uint64
	SGPRCount               uint64
	VGPRCount               uint64
	AGPRCount               *uint64
	MaxFlatWorkgroupSize    uint64
	SGPRSpillCount          *uint64
	VGPRSpillCount          *uint64
	Kind                    string // "normal" (default), "init", "fini"
	MaxNumWorkgroups        [3]*uint64
	UsesDynamicStack        *bool
	WorkgroupProcessorMode  *bool
	UniformWorkgroupSize    *uint64
	ClusterDims             []uint64
	Extra                   []MapEntry
	// Off is the offset of the kernel's map in the file (0 if built in Go).
	Off int64
	// V2 holds what only V2 metadata says, nil for V3+.
	V2 *KernelV2Extras
}

// KernelV2Extras are V2 CodeProps without a V3 key.
type KernelV2Extras struct {
	IsDynamicCallStack bool
	IsXNACKEnabled     bool
}

// Arg is one kernel argument.
type Arg struct {
	Name         string
	TypeName     string
	Size         uint64
	Offset       uint64 // V2: computed from the argument order and Align
	Align        uint64 // V2 only (V3+ implies alignment from .offset)
	ValueKind    ValueKind
	ValueType    string // deprecated
	PointeeAlign *uint64
	AddressSpace string // "global", "local", "constant", "private", "generic", "region"
	Access       string // "read_only", "write_only", "read_write" (V2 may say "default")
	ActualAccess string
	IsConst      bool
	IsRestrict   bool
	IsVolatile   bool
	IsPipe       bool
	Extra        []MapEntry
	Off          int64
}

// Metadata keys.
const (
	keyVersion = "amdhsa.version"
	keyPrintf  = "amdhsa.printf"
	keyKernels = "amdhsa.kernels"
	keyTarget  = "amdhsa.target"
)

type mdDecoder struct {
	base int64
	err  error
}

func (d *mdDecoder) fail(n *Node, format string, args ...any) {
	if d.err == nil {
		var off int64
		if n != nil {
			off = n.Off
		}
		d.err = formatErr(d.base+off, "metadata: "+format, args...)
	}
}

func (d *mdDecoder) str(n *Node, key string) string {
	if n.Kind != KindString {
		d.fail(n, "%s is a %v, want a string", key, n.Kind)
		return ""
	}
	return n.Str
}

func (d *mdDecoder) uint(n *Node, key string) uint64 {
	v, ok := n.AsUint()
	if !ok {
		d.fail(n, "%s is a %v (%s), want a non-negative integer", key, n.Kind, n.Scalar())
	}
	return v
}

func (d *mdDecoder) puint(n *Node, key string) *uint64 { v := d.uint(n, key); return &v }

func (d *mdDecoder) bool(n *Node, key string) bool {
	if n.Kind != KindBool {
		d.fail(n, "%s is a %v, want a boolean", key, n.Kind)
	}
	return n.Bool
}

func (d *mdDecoder) pbool(n *Node, key string) *bool { v := d.bool(n, key); return &v }

func (d *mdDecoder) uints(n *Node, key string) []uint64 {
	if n.Kind != KindArray {
		d.fail(n, "%s is a %v, want an array", key, n.Kind)
		return nil
	}
	out := make([]uint64, 0, len(n.Array))
	for _, e := range n.Array {
		out = append(out, d.uint(e, key))
	}
	return out
}

func (d *mdDecoder) strs(n *Node, key string) []string {
	if n.Kind != KindArray {
		d.fail(n, "%s is a %v, want an array", key, n.Kind)
		return nil
	}
	out := make([]string, 0, len(n.Array))
	for _, e := range n.Array {
		out = append(out, d.str(e, key))
	}
	return out
}

func (d *mdDecoder) requireMap(n *Node, what string) bool {
	if n == nil || n.Kind != KindMap {
		kind := "nothing"
		if n != nil {
			kind = n.Kind.String()
		}
		d.fail(n, "%s is %s, want a map", what, kind)
		return false
	}
	return true
}

// DecodeMetadata converts a V3+ metadata document to the typed model. base
// is added to node offsets in errors (the note descriptor's file offset).
func DecodeMetadata(doc *Node, base int64) (*Metadata, error) {
	d := &mdDecoder{base: base}
	if !d.requireMap(doc, "metadata document") {
		return nil, d.err
	}
	md := &Metadata{}
	var haveVersion, haveKernels bool
	for _, e := range doc.Map {
		if e.Key.Kind != KindString {
			md.Extra = append(md.Extra, e)
			continue
		}
		v := e.Value
		switch k := e.Key.Str; k {
		case keyVersion:
			md.Version, haveVersion = d.uints(v, k), true
		case keyTarget:
			md.Target = d.str(v, k)
		case keyPrintf:
			md.Printf = d.strs(v, k)
		case keyKernels:
			haveKernels = true
			if v.Kind != KindArray {
				d.fail(v, "%s is a %v, want an array", k, v.Kind)
				break
			}
			md.Kernels = make([]Kernel, 0, len(v.Array))
			for _, kn := range v.Array {
				md.Kernels = append(md.Kernels, d.kernel(kn))
			}
		default:
			md.Extra = append(md.Extra, e)
		}
	}
	if d.err == nil && !haveVersion {
		d.fail(doc, "required key %s is missing", keyVersion)
	}
	if d.err == nil && !haveKernels {
		d.fail(doc, "required key %s is missing", keyKernels)
	}
	if d.err != nil {
		return nil, d.err
	}
	return md, nil
}

var requiredKernelKeys = []string{".name", ".symbol", ".kernarg_segment_size", ".group_segment_fixed_size",
	".private_segment_fixed_size", ".kernarg_segment_align", ".wavefront_size", ".sgpr_count", ".vgpr_count",
	".max_flat_workgroup_size"}

func (d *mdDecoder) kernel(n *Node) Kernel {
	var k Kernel
	if !d.requireMap(n, "kernel") {
		return k
	}
	k.Off = d.base + n.Off
	seen := map[string]bool{}
	for _, e := range n.Map {
		if e.Key.Kind != KindString {
			k.Extra = append(k.Extra, e)
			continue
		}
		v, key := e.Value, e.Key.Str
		seen[key] = true
		switch key {
		case ".name":
			k.Name = d.str(v, key)
		case ".symbol":
			k.Symbol = d.str(v, key)
		case ".language":
			k.Language = d.str(v, key)
		case ".language_version":
			k.LanguageVersion = d.uints(v, key)
		case ".args":
			if v.Kind != KindArray {
				d.fail(v, ".args is a %v, want an array", v.Kind)
				break
			}
			k.Args = make([]Arg, 0, len(v.Array))
			for _, a := range v.Array {
				k.Args = append(k.Args, d.arg(a))
			}
		case ".reqd_workgroup_size":
			k.ReqdWorkgroupSize = d.uints(v, key)
		case ".workgroup_size_hint":
			k.WorkgroupSizeHint = d.uints(v, key)
		case ".vec_type_hint":
			k.VecTypeHint = d.str(v, key)
		case ".device_enqueue_symbol":
			k.DeviceEnqueueSymbol = d.str(v, key)
		case ".kernarg_segment_size":
			k.KernargSegmentSize = d.uint(v, key)
		case ".group_segment_fixed_size":
			k.GroupSegmentFixedSize = d.uint(v, key)
		case ".private_segment_fixed_size":
			k.PrivateSegmentFixedSize = d.uint(v, key)
		case ".kernarg_segment_align":
			k.KernargSegmentAlign = d.uint(v, key)
		case ".wavefront_size":
			k.WavefrontSize = d.uint(v, key)
		case ".sgpr_count":
			k.SGPRCount = d.uint(v, key)
		case ".vgpr_count":
			k.VGPRCount = d.uint(v, key)
		case ".agpr_count":
			k.AGPRCount = d.puint(v, key)
		case ".max_flat_workgroup_size":
			k.MaxFlatWorkgroupSize = d.uint(v, key)
		case ".sgpr_spill_count":
			k.SGPRSpillCount = d.puint(v, key)
		case ".vgpr_spill_count":
			k.VGPRSpillCount = d.puint(v, key)
		case ".kind":
			k.Kind = d.str(v, key)
		case ".max_num_workgroups_x":
			k.MaxNumWorkgroups[0] = d.puint(v, key)
		case ".max_num_workgroups_y":
			k.MaxNumWorkgroups[1] = d.puint(v, key)
		case ".max_num_workgroups_z":
			k.MaxNumWorkgroups[2] = d.puint(v, key)
		case ".uses_dynamic_stack":
			k.UsesDynamicStack = d.pbool(v, key)
		case ".workgroup_processor_mode":
			k.WorkgroupProcessorMode = d.pbool(v, key)
		case ".uniform_work_group_size":
			k.UniformWorkgroupSize = d.puint(v, key)
		case ".cluster_dims":
			k.ClusterDims = d.uints(v, key)
		default:
			k.Extra = append(k.Extra, e)
		}
	}
	for _, r := range requiredKernelKeys {
		if !seen[r] {
			d.fail(n, "kernel %q lacks required key %s", k.Name, r)
		}
	}
	return k
}

func (d *mdDecoder) arg(n *Node) Arg {
	var a Arg
	if !d.requireMap(n, "kernel argument") {
		return a
	}
	a.Off = d.base + n.Off
	seen := map[string]bool{}
	for _, e := range n.Map {
		if e.Key.Kind != KindString {
			a.Extra = append(a.Extra, e)
			continue
		}
		v, key := e.Value, e.Key.Str
		seen[key] = true
		switch key {
		case ".name":
			a.Name = d.str(v, key)
		case ".type_name":
			a.TypeName = d.str(v, key)
		case ".size":
			a.Size = d.uint(v, key)
		case ".offset":
			a.Offset = d.uint(v, key)
		case ".value_kind":
			a.ValueKind = ValueKind(d.str(v, key))
		case ".value_type":
			a.ValueType = d.str(v, key)
		case ".pointee_align":
			a.PointeeAlign = d.puint(v, key)
		case ".address_space":
			a.AddressSpace = d.str(v, key)
		case ".access":
			a.Access = d.str(v, key)
		case ".actual_access":
			a.ActualAccess = d.str(v, key)
		case ".is_const":
			a.IsConst = d.bool(v, key)
		case ".is_restrict":
			a.IsRestrict = d.bool(v, key)
		case ".is_volatile":
			a.IsVolatile = d.bool(v, key)
		case ".is_pipe":
			a.IsPipe = d.bool(v, key)
		default:
			a.Extra = append(a.Extra, e)
		}
	}
	for _, r := range []string{".size", ".offset", ".value_kind"} {
		if !seen[r] {
			d.fail(n, "kernel argument lacks required key %s", r)
		}
	}
	return a
}

func uintsNode(v []uint64) *Node {
	n := ArrayNode()
	n.Array = make([]*Node, len(v))
	for i, x := range v {
		n.Array[i] = UintNode(x)
	}
	return n
}

// Node converts the typed metadata back to a V3+ document, keys sorted as
// LLVM writes them. Booleans that LLVM writes only when true (.is_const and
// friends) are omitted when false.
func (md *Metadata) Node() *Node {
	doc := MapNode()
	if md.Version != nil {
		doc.Set(keyVersion, uintsNode(md.Version))
	}
	if md.Target != "" {
		doc.Set(keyTarget, StringNode(md.Target))
	}
	if md.Printf != nil {
		p := ArrayNode()
		for _, s := range md.Printf {
			p.Array = append(p.Array, StringNode(s))
		}
		doc.Set(keyPrintf, p)
	}
	ks := ArrayNode()
	ks.Array = []*Node{}
	for i := range md.Kernels {
		ks.Array = append(ks.Array, md.Kernels[i].node())
	}
	doc.Set(keyKernels, ks)
	doc.Map = append(doc.Map, md.Extra...)
	return Canonical(doc)
}

func (k *Kernel) node() *Node {
	n := MapNode()
	setStr := func(key, v string) {
		if v != "" {
			n.Set(key, StringNode(v))
		}
	}
	setUints := func(key string, v []uint64) {
		if v != nil {
			n.Set(key, uintsNode(v))
		}
	}
	setPU := func(key string, v *uint64) {
		if v != nil {
			n.Set(key, UintNode(*v))
		}
	}
	setPB := func(key string, v *bool) {
		if v != nil {
			n.Set(key, BoolNode(*v))
		}
	}
	n.Set(".name", StringNode(k.Name))
	n.Set(".symbol", StringNode(k.Symbol))
	setStr(".language", k.Language)
	setUints(".language_version", k.LanguageVersion)
	if k.Args != nil {
		as := ArrayNode()
		as.Array = []*Node{}
		for i := range k.Args {
			as.Array = append(as.Array, k.Args[i].node())
		}
		n.Set(".args", as)
	}
	setUints(".reqd_workgroup_size", k.ReqdWorkgroupSize)
	setUints(".workgroup_size_hint", k.WorkgroupSizeHint)
	setStr(".vec_type_hint", k.VecTypeHint)
	setStr(".device_enqueue_symbol", k.DeviceEnqueueSymbol)
	n.Set(".kernarg_segment_size", UintNode(k.KernargSegmentSize))
	n.Set(".group_segment_fixed_size", UintNode(k.GroupSegmentFixedSize))
	n.Set(".private_segment_fixed_size", UintNode(k.PrivateSegmentFixedSize))
	n.Set(".kernarg_segment_align", UintNode(k.KernargSegmentAlign))
	n.Set(".wavefront_size", UintNode(k.WavefrontSize))
	n.Set(".sgpr_count", UintNode(k.SGPRCount))
	n.Set(".vgpr_count", UintNode(k.VGPRCount))
	setPU(".agpr_count", k.AGPRCount)
	n.Set(".max_flat_workgroup_size", UintNode(k.MaxFlatWorkgroupSize))
	setPU(".sgpr_spill_count", k.SGPRSpillCount)
	setPU(".vgpr_spill_count", k.VGPRSpillCount)
	setStr(".kind", k.Kind)
	setPU(".max_num_workgroups_x", k.MaxNumWorkgroups[0])
	setPU(".max_num_workgroups_y", k.MaxNumWorkgroups[1])
	setPU(".max_num_workgroups_z", k.MaxNumWorkgroups[2])
	setPB(".uses_dynamic_stack", k.UsesDynamicStack)
	setPB(".workgroup_processor_mode", k.WorkgroupProcessorMode)
	setPU(".uniform_work_group_size", k.UniformWorkgroupSize)
	setUints(".cluster_dims", k.ClusterDims)
	n.Map = append(n.Map, k.Extra...)
	return n
}

func (a *Arg) node() *Node {
	n := MapNode()
	setStr := func(key, v string) {
		if v != "" {
			n.Set(key, StringNode(v))
		}
	}
	setTrue := func(key string, v bool) {
		if v {
			n.Set(key, BoolNode(true))
		}
	}
	setStr(".name", a.Name)
	setStr(".type_name", a.TypeName)
	n.Set(".size", UintNode(a.Size))
	n.Set(".offset", UintNode(a.Offset))
	n.Set(".value_kind", StringNode(string(a.ValueKind)))
	setStr(".value_type", a.ValueType)
	if a.PointeeAlign != nil {
		n.Set(".pointee_align", UintNode(*a.PointeeAlign))
	}
	setStr(".address_space", a.AddressSpace)
	setStr(".access", a.Access)
	setStr(".actual_access", a.ActualAccess)
	setTrue(".is_const", a.IsConst)
	setTrue(".is_restrict", a.IsRestrict)
	setTrue(".is_volatile", a.IsVolatile)
	setTrue(".is_pipe", a.IsPipe)
	n.Map = append(n.Map, a.Extra...)
	return n
}

// EncodeMsgPack returns the metadata as LLVM writes NT_AMDGPU_METADATA.
func (md *Metadata) EncodeMsgPack() ([]byte, error) { return EncodeMsgPack(md.Node()) }

// YAML returns the metadata as llvm-readelf prints it.
func (md *Metadata) YAML() string { return YAML(md.Node()) }

// Kernel returns the kernel with the given name (or descriptor symbol).
func (md *Metadata) Kernel(name string) (*Kernel, error) {
	for i := range md.Kernels {
		if md.Kernels[i].Name == name || md.Kernels[i].Symbol == name {
			return &md.Kernels[i], nil
		}
	}
	return nil, fmt.Errorf("codeobject: no kernel %q in the metadata", name)
}

// Metadata returns the file's typed metadata (V2 converted to the V3
// shape). It returns nil, nil when the file has no metadata note. The
// result is decoded once and shared by later calls (and by Kernels): treat
// it as read-only, or Clone the document with MetadataDocument to edit.
func (f *File) Metadata() (*Metadata, error) {
	if !f.mdOK {
		f.md, f.mdErr = f.decodeMetadata()
		f.mdOK = true
	}
	return f.md, f.mdErr
}

func (f *File) decodeMetadata() (*Metadata, error) {
	n, err := f.MetadataNote()
	if err != nil || n == nil {
		return nil, err
	}
	if n.Name == "AMD" {
		v2, err := f.MetadataV2()
		if err != nil {
			return nil, err
		}
		return v2.Unified(), nil
	}
	doc, err := f.msgpackDoc(n)
	if err != nil {
		return nil, err
	}
	return DecodeMetadata(doc, n.DescOff)
}
