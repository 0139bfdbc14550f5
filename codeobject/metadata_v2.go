package codeobject

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// MetadataV2 is code object V2 metadata, the YAML of NT_AMD_HSA_METADATA
// (INVENTORY §2.1), field for field as LLVM's AMDGPU::HSAMD::Metadata, so
// that EncodeYAML reproduces LLVM's text. Optional fields hold their
// default (zero, empty, or -1 where noted) when absent, which is also when
// LLVM omits them.
type MetadataV2 struct {
	Version []uint64
	Printf  []string
	Kernels []KernelV2
	Extra   []MapEntry
}

// KernelV2 is one entry of Kernels.
type KernelV2 struct {
	Name            string
	SymbolName      string
	Language        string
	LanguageVersion []uint64
	Attrs           AttrsV2
	Args            []ArgV2
	CodeProps       CodePropsV2
	DebugProps      DebugPropsV2
	Extra           []MapEntry
	Off             int64
}

// AttrsV2 is a V2 kernel's Attrs map.
type AttrsV2 struct {
	ReqdWorkGroupSize []uint64
	WorkGroupSizeHint []uint64
	VecTypeHint       string
	RuntimeHandle     string
	Extra             []MapEntry
}

func (a *AttrsV2) empty() bool {
	return len(a.ReqdWorkGroupSize) == 0 && len(a.WorkGroupSizeHint) == 0 && a.VecTypeHint == "" && a.RuntimeHandle == "" && len(a.Extra) == 0
}

// ArgV2 is one V2 kernel argument. Enumerations keep their V2 spellings
// ("GlobalBuffer", "Global", "ReadOnly", ...).
type ArgV2 struct {
	Name          string
	TypeName      string
	Size          uint64
	Align         uint64
	ValueKind     string
	ValueType     string // accepted but, as in LLVM, never written
	PointeeAlign  uint64
	AddrSpaceQual string
	AccQual       string
	ActualAccQual string
	IsConst       bool
	IsRestrict    bool
	IsVolatile    bool
	IsPipe        bool
	Extra         []MapEntry
	Off           int64
}

// CodePropsV2 is a V2 kernel's CodeProps map.
type CodePropsV2 struct {
	KernargSegmentSize      uint64
	GroupSegmentFixedSize   uint64
	PrivateSegmentFixedSize uint64
	KernargSegmentAlign     uint64
	WavefrontSize           uint64
	NumSGPRs                uint64
	NumVGPRs                uint64
	MaxFlatWorkGroupSize    uint64
	IsDynamicCallStack      bool
	IsXNACKEnabled          bool
	NumSpilledSGPRs         uint64
	NumSpilledVGPRs         uint64
	Extra                   []MapEntry
	present                 bool
}

// DebugPropsV2 is a V2 kernel's DebugProps map (LLVM never writes it).
type DebugPropsV2 struct {
	DebuggerABIVersion                []uint64
	ReservedNumVGPRs                  uint64
	ReservedFirstVGPR                 uint64 // default 0xffff
	PrivateSegmentBufferSGPR          uint64 // default 0xffff
	WavefrontPrivateSegmentOffsetSGPR uint64 // default 0xffff
	Extra                             []MapEntry
}

// ParseV2YAML parses V2 metadata text. base is the file offset of the text
// (for error offsets).
func ParseV2YAML(text []byte, base int64) (*MetadataV2, error) {
	doc, err := parseV2YAMLNode(text, base)
	if err != nil {
		return nil, err
	}
	return decodeMetadataV2(doc, base)
}

// parseV2YAMLNode parses YAML into a document tree with file offsets.
func parseV2YAMLNode(text []byte, base int64) (*Node, error) {
	var y yaml.Node
	if err := yaml.Unmarshal(text, &y); err != nil {
		return nil, formatErr(base, "V2 metadata YAML: %v", err)
	}
	lineStart := []int64{0}
	for i, c := range text {
		if c == '\n' {
			lineStart = append(lineStart, int64(i+1))
		}
	}
	off := func(y *yaml.Node) int64 {
		if y.Line >= 1 && y.Line <= len(lineStart) {
			return lineStart[y.Line-1] + int64(y.Column-1)
		}
		return 0
	}
	var conv func(y *yaml.Node, depth int) (*Node, error)
	conv = func(y *yaml.Node, depth int) (*Node, error) {
		if depth > maxDepth {
			return nil, formatErr(base+off(y), "V2 metadata nesting deeper than %d", maxDepth)
		}
		n := &Node{Off: off(y)}
		switch y.Kind {
		case yaml.DocumentNode:
			if len(y.Content) != 1 {
				return nil, formatErr(base, "V2 metadata YAML holds %d documents", len(y.Content))
			}
			return conv(y.Content[0], depth+1)
		case yaml.AliasNode:
			return nil, formatErr(base+n.Off, "V2 metadata YAML uses an alias")
		case yaml.MappingNode:
			n.Kind = KindMap
			n.Map = []MapEntry{}
			for i := 0; i+1 < len(y.Content); i += 2 {
				k, err := conv(y.Content[i], depth+1)
				if err != nil {
					return nil, err
				}
				v, err := conv(y.Content[i+1], depth+1)
				if err != nil {
					return nil, err
				}
				n.Map = append(n.Map, MapEntry{k, v})
			}
		case yaml.SequenceNode:
			n.Kind = KindArray
			n.Flow = y.Style&yaml.FlowStyle != 0
			n.Array = []*Node{}
			for _, c := range y.Content {
				e, err := conv(c, depth+1)
				if err != nil {
					return nil, err
				}
				n.Array = append(n.Array, e)
			}
		case yaml.ScalarNode:
			switch y.ShortTag() {
			case "!!int":
				if v, err := strconv.ParseUint(y.Value, 0, 64); err == nil {
					n.Kind, n.Uint = KindUint, v
				} else if v, err := strconv.ParseInt(y.Value, 0, 64); err == nil {
					n.Kind, n.Int = KindInt, v
				} else {
					n.Kind, n.Str = KindString, y.Value
				}
			case "!!bool":
				n.Kind, n.Bool = KindBool, y.Value == "true" || y.Value == "True" || y.Value == "TRUE"
			case "!!null":
				n.Kind = KindNil
			case "!!float":
				f, _ := strconv.ParseFloat(y.Value, 64)
				n.Kind, n.Float = KindFloat, f
			default:
				n.Kind, n.Str = KindString, y.Value
			}
		default:
			return nil, formatErr(base+n.Off, "unexpected YAML node kind %d", y.Kind)
		}
		return n, nil
	}
	if y.Kind == 0 {
		return nil, formatErr(base, "V2 metadata YAML is empty")
	}
	return conv(&y, 0)
}

func decodeMetadataV2(doc *Node, base int64) (*MetadataV2, error) {
	d := &mdDecoder{base: base}
	if !d.requireMap(doc, "V2 metadata document") {
		return nil, d.err
	}
	md := &MetadataV2{}
	haveVersion := false
	for _, e := range doc.Map {
		v, key := e.Value, e.Key.Scalar()
		switch key {
		case "Version":
			md.Version, haveVersion = d.uints(v, key), true
		case "Printf":
			md.Printf = d.strs(v, key)
		case "Kernels":
			if v.Kind != KindArray {
				d.fail(v, "Kernels is a %v, want a sequence", v.Kind)
				break
			}
			for _, kn := range v.Array {
				md.Kernels = append(md.Kernels, d.kernelV2(kn))
			}
		default:
			md.Extra = append(md.Extra, e)
		}
	}
	if d.err == nil && !haveVersion {
		d.fail(doc, "required key Version is missing")
	}
	if d.err != nil {
		return nil, d.err
	}
	return md, nil
}

func (d *mdDecoder) kernelV2(n *Node) KernelV2 {
	k := KernelV2{DebugProps: DebugPropsV2{ReservedFirstVGPR: 0xffff, PrivateSegmentBufferSGPR: 0xffff, WavefrontPrivateSegmentOffsetSGPR: 0xffff}}
	if !d.requireMap(n, "V2 kernel") {
		return k
	}
	k.Off = d.base + n.Off
	seen := map[string]bool{}
	for _, e := range n.Map {
		v, key := e.Value, e.Key.Scalar()
		seen[key] = true
		switch key {
		case "Name":
			k.Name = d.str(v, key)
		case "SymbolName":
			k.SymbolName = d.str(v, key)
		case "Language":
			k.Language = d.str(v, key)
		case "LanguageVersion":
			k.LanguageVersion = d.uints(v, key)
		case "Attrs":
			if d.requireMap(v, key) {
				for _, e := range v.Map {
					w, key := e.Value, e.Key.Scalar()
					switch key {
					case "ReqdWorkGroupSize":
						k.Attrs.ReqdWorkGroupSize = d.uints(w, key)
					case "WorkGroupSizeHint":
						k.Attrs.WorkGroupSizeHint = d.uints(w, key)
					case "VecTypeHint":
						k.Attrs.VecTypeHint = d.str(w, key)
					case "RuntimeHandle":
						k.Attrs.RuntimeHandle = d.str(w, key)
					default:
						k.Attrs.Extra = append(k.Attrs.Extra, e)
					}
				}
			}
		case "Args":
			if v.Kind != KindArray {
				d.fail(v, "Args is a %v, want a sequence", v.Kind)
				break
			}
			for _, a := range v.Array {
				k.Args = append(k.Args, d.argV2(a))
			}
		case "CodeProps":
			if d.requireMap(v, key) {
				k.CodeProps = d.codePropsV2(v)
			}
		case "DebugProps":
			if d.requireMap(v, key) {
				p := &k.DebugProps
				for _, e := range v.Map {
					w, key := e.Value, e.Key.Scalar()
					switch key {
					case "DebuggerABIVersion":
						p.DebuggerABIVersion = d.uints(w, key)
					case "ReservedNumVGPRs":
						p.ReservedNumVGPRs = d.uint(w, key)
					case "ReservedFirstVGPR":
						p.ReservedFirstVGPR = d.uint(w, key)
					case "PrivateSegmentBufferSGPR":
						p.PrivateSegmentBufferSGPR = d.uint(w, key)
					case "WavefrontPrivateSegmentOffsetSGPR":
						p.WavefrontPrivateSegmentOffsetSGPR = d.uint(w, key)
					default:
						p.Extra = append(p.Extra, e)
					}
				}
			}
		default:
			k.Extra = append(k.Extra, e)
		}
	}
	for _, r := range []string{"Name", "SymbolName"} {
		if !seen[r] {
			d.fail(n, "V2 kernel lacks required key %s", r)
		}
	}
	return k
}

func (d *mdDecoder) codePropsV2(v *Node) CodePropsV2 {
	p := CodePropsV2{present: true}
	seen := map[string]bool{}
	for _, e := range v.Map {
		w, key := e.Value, e.Key.Scalar()
		seen[key] = true
		switch key {
		case "KernargSegmentSize":
			p.KernargSegmentSize = d.uint(w, key)
		case "GroupSegmentFixedSize":
			p.GroupSegmentFixedSize = d.uint(w, key)
		case "PrivateSegmentFixedSize":
			p.PrivateSegmentFixedSize = d.uint(w, key)
		case "KernargSegmentAlign":
			p.KernargSegmentAlign = d.uint(w, key)
		case "WavefrontSize":
			p.WavefrontSize = d.uint(w, key)
		case "NumSGPRs":
			p.NumSGPRs = d.uint(w, key)
		case "NumVGPRs":
			p.NumVGPRs = d.uint(w, key)
		case "MaxFlatWorkGroupSize":
			p.MaxFlatWorkGroupSize = d.uint(w, key)
		case "IsDynamicCallStack":
			p.IsDynamicCallStack = d.bool(w, key)
		case "IsXNACKEnabled":
			p.IsXNACKEnabled = d.bool(w, key)
		case "NumSpilledSGPRs":
			p.NumSpilledSGPRs = d.uint(w, key)
		case "NumSpilledVGPRs":
			p.NumSpilledVGPRs = d.uint(w, key)
		default:
			p.Extra = append(p.Extra, e)
		}
	}
	for _, r := range []string{"KernargSegmentSize", "GroupSegmentFixedSize", "PrivateSegmentFixedSize", "KernargSegmentAlign", "WavefrontSize"} {
		if !seen[r] {
			d.fail(v, "V2 CodeProps lacks required key %s", r)
		}
	}
	return p
}

func (d *mdDecoder) argV2(n *Node) ArgV2 {
	var a ArgV2
	if !d.requireMap(n, "V2 kernel argument") {
		return a
	}
	a.Off = d.base + n.Off
	seen := map[string]bool{}
	for _, e := range n.Map {
		v, key := e.Value, e.Key.Scalar()
		seen[key] = true
		switch key {
		case "Name":
			a.Name = d.str(v, key)
		case "TypeName":
			a.TypeName = d.str(v, key)
		case "Size":
			a.Size = d.uint(v, key)
		case "Align":
			a.Align = d.uint(v, key)
		case "ValueKind":
			a.ValueKind = d.str(v, key)
		case "ValueType":
			a.ValueType = d.str(v, key)
		case "PointeeAlign":
			a.PointeeAlign = d.uint(v, key)
		case "AddrSpaceQual":
			a.AddrSpaceQual = d.str(v, key)
		case "AccQual":
			a.AccQual = d.str(v, key)
		case "ActualAccQual":
			a.ActualAccQual = d.str(v, key)
		case "IsConst":
			a.IsConst = d.bool(v, key)
		case "IsRestrict":
			a.IsRestrict = d.bool(v, key)
		case "IsVolatile":
			a.IsVolatile = d.bool(v, key)
		case "IsPipe":
			a.IsPipe = d.bool(v, key)
		default:
			a.Extra = append(a.Extra, e)
		}
	}
	for _, r := range []string{"Size", "Align", "ValueKind"} {
		if !seen[r] {
			d.fail(n, "V2 kernel argument lacks required key %s", r)
		}
	}
	return a
}

// Node builds the document in LLVM's field order with its defaults omitted.
func (md *MetadataV2) Node() *Node {
	flow := func(v []uint64) *Node { n := uintsNode(v); n.Flow = true; return n }
	doc := MapNode()
	doc.Set("Version", flow(md.Version))
	if len(md.Printf) > 0 {
		p := ArrayNode()
		for _, s := range md.Printf {
			p.Array = append(p.Array, StringNode(s))
		}
		doc.Set("Printf", p)
	}
	if len(md.Kernels) > 0 {
		ks := ArrayNode()
		for i := range md.Kernels {
			k := &md.Kernels[i]
			kn := MapNode()
			kn.Set("Name", StringNode(k.Name))
			kn.Set("SymbolName", StringNode(k.SymbolName))
			if k.Language != "" {
				kn.Set("Language", StringNode(k.Language))
			}
			if len(k.LanguageVersion) > 0 {
				kn.Set("LanguageVersion", flow(k.LanguageVersion))
			}
			if !k.Attrs.empty() {
				an := MapNode()
				if len(k.Attrs.ReqdWorkGroupSize) > 0 {
					an.Set("ReqdWorkGroupSize", flow(k.Attrs.ReqdWorkGroupSize))
				}
				if len(k.Attrs.WorkGroupSizeHint) > 0 {
					an.Set("WorkGroupSizeHint", flow(k.Attrs.WorkGroupSizeHint))
				}
				if k.Attrs.VecTypeHint != "" {
					an.Set("VecTypeHint", StringNode(k.Attrs.VecTypeHint))
				}
				if k.Attrs.RuntimeHandle != "" {
					an.Set("RuntimeHandle", StringNode(k.Attrs.RuntimeHandle))
				}
				an.Map = append(an.Map, k.Attrs.Extra...)
				kn.Set("Attrs", an)
			}
			if len(k.Args) > 0 {
				as := ArrayNode()
				for j := range k.Args {
					as.Array = append(as.Array, k.Args[j].node())
				}
				kn.Set("Args", as)
			}
			kn.Set("CodeProps", k.CodeProps.node())
			dp := &k.DebugProps
			if len(dp.DebuggerABIVersion) > 0 || dp.ReservedNumVGPRs != 0 || dp.ReservedFirstVGPR != 0xffff ||
				dp.PrivateSegmentBufferSGPR != 0xffff || dp.WavefrontPrivateSegmentOffsetSGPR != 0xffff || len(dp.Extra) > 0 {
				// LLVM's DebugProps::notEmpty is always false, so LLVM
				// never writes the map; keep what a file had anyway.
				dn := MapNode()
				if len(dp.DebuggerABIVersion) > 0 {
					dn.Set("DebuggerABIVersion", flow(dp.DebuggerABIVersion))
				}
				if dp.ReservedNumVGPRs != 0 {
					dn.Set("ReservedNumVGPRs", UintNode(dp.ReservedNumVGPRs))
				}
				if dp.ReservedFirstVGPR != 0xffff {
					dn.Set("ReservedFirstVGPR", UintNode(dp.ReservedFirstVGPR))
				}
				if dp.PrivateSegmentBufferSGPR != 0xffff {
					dn.Set("PrivateSegmentBufferSGPR", UintNode(dp.PrivateSegmentBufferSGPR))
				}
				if dp.WavefrontPrivateSegmentOffsetSGPR != 0xffff {
					dn.Set("WavefrontPrivateSegmentOffsetSGPR", UintNode(dp.WavefrontPrivateSegmentOffsetSGPR))
				}
				dn.Map = append(dn.Map, dp.Extra...)
				kn.Set("DebugProps", dn)
			}
			kn.Map = append(kn.Map, k.Extra...)
			ks.Array = append(ks.Array, kn)
		}
		doc.Set("Kernels", ks)
	}
	doc.Map = append(doc.Map, md.Extra...)
	return doc
}

func (a *ArgV2) node() *Node {
	n := MapNode()
	if a.Name != "" {
		n.Set("Name", StringNode(a.Name))
	}
	if a.TypeName != "" {
		n.Set("TypeName", StringNode(a.TypeName))
	}
	n.Set("Size", UintNode(a.Size))
	n.Set("Align", UintNode(a.Align))
	n.Set("ValueKind", StringNode(a.ValueKind))
	if a.PointeeAlign != 0 {
		n.Set("PointeeAlign", UintNode(a.PointeeAlign))
	}
	for _, kv := range []struct{ k, v string }{{"AddrSpaceQual", a.AddrSpaceQual}, {"AccQual", a.AccQual}, {"ActualAccQual", a.ActualAccQual}} {
		if kv.v != "" {
			n.Set(kv.k, StringNode(kv.v))
		}
	}
	for _, kv := range []struct {
		k string
		v bool
	}{{"IsConst", a.IsConst}, {"IsRestrict", a.IsRestrict}, {"IsVolatile", a.IsVolatile}, {"IsPipe", a.IsPipe}} {
		if kv.v {
			n.Set(kv.k, BoolNode(true))
		}
	}
	n.Map = append(n.Map, a.Extra...)
	return n
}

func (p *CodePropsV2) node() *Node {
	n := MapNode()
	n.Set("KernargSegmentSize", UintNode(p.KernargSegmentSize))
	n.Set("GroupSegmentFixedSize", UintNode(p.GroupSegmentFixedSize))
	n.Set("PrivateSegmentFixedSize", UintNode(p.PrivateSegmentFixedSize))
	n.Set("KernargSegmentAlign", UintNode(p.KernargSegmentAlign))
	n.Set("WavefrontSize", UintNode(p.WavefrontSize))
	for _, kv := range []struct {
		k string
		v uint64
	}{{"NumSGPRs", p.NumSGPRs}, {"NumVGPRs", p.NumVGPRs}, {"MaxFlatWorkGroupSize", p.MaxFlatWorkGroupSize}} {
		if kv.v != 0 {
			n.Set(kv.k, UintNode(kv.v))
		}
	}
	if p.IsDynamicCallStack {
		n.Set("IsDynamicCallStack", BoolNode(true))
	}
	if p.IsXNACKEnabled {
		n.Set("IsXNACKEnabled", BoolNode(true))
	}
	if p.NumSpilledSGPRs != 0 {
		n.Set("NumSpilledSGPRs", UintNode(p.NumSpilledSGPRs))
	}
	if p.NumSpilledVGPRs != 0 {
		n.Set("NumSpilledVGPRs", UintNode(p.NumSpilledVGPRs))
	}
	n.Map = append(n.Map, p.Extra...)
	return n
}

// EncodeYAML returns the metadata as the YAML text LLVM stores in the V2
// NT_AMD_HSA_METADATA note (without the NUL terminator).
func (md *MetadataV2) EncodeYAML() string {
	var w yamlWriter
	w.doc(md.Node())
	return w.b.String()
}

// MetadataV2 returns the file's V2 YAML metadata, or nil, nil if the file
// has no NT_AMD_HSA_METADATA note.
func (f *File) MetadataV2() (*MetadataV2, error) {
	n, err := f.FindNote("AMD", NT_AMD_HSA_METADATA)
	if err != nil || n == nil {
		return nil, err
	}
	return ParseV2YAML(v2Text(n.Desc), n.DescOff)
}

var v2AddrSpaces = map[string]string{"Private": "private", "Global": "global", "Constant": "constant", "Local": "local", "Generic": "generic", "Region": "region"}
var v2Access = map[string]string{"Default": "default", "ReadOnly": "read_only", "WriteOnly": "write_only", "ReadWrite": "read_write"}

func lowerV2(m map[string]string, s string) string {
	if v, ok := m[s]; ok {
		return v
	}
	return s
}

// Unified converts V2 metadata to the V3 shape: kinds and qualifiers in
// their V3 spellings, argument offsets placed by the V2 rule (each argument
// at the next multiple of its Align).
func (md *MetadataV2) Unified() *Metadata {
	out := &Metadata{Version: md.Version, Printf: md.Printf, Extra: md.Extra, Kernels: []Kernel{}}
	for i := range md.Kernels {
		k := &md.Kernels[i]
		p := &k.CodeProps
		u := Kernel{
			Name: k.Name, Symbol: k.SymbolName, Language: k.Language, LanguageVersion: k.LanguageVersion,
			ReqdWorkgroupSize: k.Attrs.ReqdWorkGroupSize, WorkgroupSizeHint: k.Attrs.WorkGroupSizeHint,
			VecTypeHint: k.Attrs.VecTypeHint, DeviceEnqueueSymbol: k.Attrs.RuntimeHandle,
			KernargSegmentSize: p.KernargSegmentSize, GroupSegmentFixedSize: p.GroupSegmentFixedSize,
			PrivateSegmentFixedSize: p.PrivateSegmentFixedSize, KernargSegmentAlign: p.KernargSegmentAlign,
			WavefrontSize: p.WavefrontSize, SGPRCount: p.NumSGPRs, VGPRCount: p.NumVGPRs,
			MaxFlatWorkgroupSize: p.MaxFlatWorkGroupSize,
			SGPRSpillCount:       &p.NumSpilledSGPRs, VGPRSpillCount: &p.NumSpilledVGPRs,
			Extra: k.Extra, Off: k.Off,
			V2: &KernelV2Extras{IsDynamicCallStack: p.IsDynamicCallStack, IsXNACKEnabled: p.IsXNACKEnabled},
		}
		var off uint64
		u.Args = []Arg{}
		for j := range k.Args {
			a := &k.Args[j]
			if a.Align > 1 {
				off = alignUp(off, a.Align)
			}
			vk, ok := ValueKindFromV2(a.ValueKind)
			if !ok {
				vk = ValueKind(a.ValueKind)
			}
			ua := Arg{Name: a.Name, TypeName: a.TypeName, Size: a.Size, Offset: off, Align: a.Align, ValueKind: vk,
				ValueType: a.ValueType, AddressSpace: lowerV2(v2AddrSpaces, a.AddrSpaceQual),
				Access: lowerV2(v2Access, a.AccQual), ActualAccess: lowerV2(v2Access, a.ActualAccQual),
				IsConst: a.IsConst, IsRestrict: a.IsRestrict, IsVolatile: a.IsVolatile, IsPipe: a.IsPipe,
				Extra: a.Extra, Off: a.Off}
			if a.PointeeAlign != 0 {
				pa := a.PointeeAlign
				ua.PointeeAlign = &pa
			}
			u.Args = append(u.Args, ua)
			off += a.Size
		}
		out.Kernels = append(out.Kernels, u)
	}
	return out
}
