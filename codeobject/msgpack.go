package codeobject

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vmihailenco/msgpack/v5"
)

// NodeKind is the kind of a metadata document node.
type NodeKind uint8

// Node kinds, in the order LLVM's msgpack::DocNode sorts map keys of
// different kinds.
const (
	KindInt NodeKind = iota
	KindUint
	KindNil
	KindBool
	KindFloat
	KindString
	KindBinary
	KindArray
	KindMap
)

func (k NodeKind) String() string {
	return [...]string{"int", "uint", "nil", "bool", "float", "string", "binary", "array", "map"}[k]
}

// Node is one value of a metadata document: the V3+ MessagePack map (or, for
// V2, the YAML document mapped onto the same shapes). Maps keep their keys in
// document order; Off is the byte offset of the value in the encoded
// document (the note descriptor for msgpack, 0 for nodes built in Go).
type Node struct {
	Kind  NodeKind
	Int   int64
	Uint  uint64
	Float float64
	Bool  bool
	Str   string // KindString and KindBinary
	Array []*Node
	Map   []MapEntry
	Off   int64
	// Flow marks an array written as a YAML flow sequence ("[ 1, 0 ]"),
	// as LLVM writes V2 metadata's integer vectors.
	Flow bool
	// Float32 records that a float was encoded in 4 bytes.
	Float32 bool
}

// MapEntry is one key/value pair of a map node.
type MapEntry struct {
	Key   *Node
	Value *Node
}

// Constructors for nodes built in Go.

// StringNode returns a string node.
func StringNode(s string) *Node { return &Node{Kind: KindString, Str: s} }

// UintNode returns an unsigned integer node.
func UintNode(v uint64) *Node { return &Node{Kind: KindUint, Uint: v} }

// IntNode returns an integer node; non-negative values are stored as
// unsigned, as LLVM's reader produces them.
func IntNode(v int64) *Node {
	if v >= 0 {
		return UintNode(uint64(v))
	}
	return &Node{Kind: KindInt, Int: v}
}

// BoolNode returns a boolean node.
func BoolNode(b bool) *Node { return &Node{Kind: KindBool, Bool: b} }

// ArrayNode returns an array node.
func ArrayNode(elems ...*Node) *Node { return &Node{Kind: KindArray, Array: elems} }

// MapNode returns an empty map node.
func MapNode() *Node { return &Node{Kind: KindMap} }

// Set adds or replaces key in map node n.
func (n *Node) Set(key string, v *Node) {
	for i := range n.Map {
		if n.Map[i].Key.Kind == KindString && n.Map[i].Key.Str == key {
			n.Map[i].Value = v
			return
		}
	}
	n.Map = append(n.Map, MapEntry{StringNode(key), v})
}

// Get returns the value of string key in map node n, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != KindMap {
		return nil
	}
	for i := range n.Map {
		if n.Map[i].Key.Kind == KindString && n.Map[i].Key.Str == key {
			return n.Map[i].Value
		}
	}
	return nil
}

// AsUint returns the node's value as a non-negative integer.
func (n *Node) AsUint() (uint64, bool) {
	switch n.Kind {
	case KindUint:
		return n.Uint, true
	case KindInt:
		if n.Int >= 0 {
			return uint64(n.Int), true
		}
	}
	return 0, false
}

// Scalar renders a scalar node as LLVM's DocNode::toString does.
func (n *Node) Scalar() string {
	switch n.Kind {
	case KindString, KindBinary:
		return n.Str
	case KindInt:
		return fmt.Sprint(n.Int)
	case KindUint:
		return fmt.Sprint(n.Uint)
	case KindBool:
		if n.Bool {
			return "true"
		}
		return "false"
	case KindFloat:
		return fmt.Sprintf("%e", n.Float)
	}
	return ""
}

// Clone returns a deep copy of n.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Array != nil {
		c.Array = make([]*Node, len(n.Array))
		for i, e := range n.Array {
			c.Array[i] = e.Clone()
		}
	}
	if n.Map != nil {
		c.Map = make([]MapEntry, len(n.Map))
		for i, e := range n.Map {
			c.Map[i] = MapEntry{e.Key.Clone(), e.Value.Clone()}
		}
	}
	return &c
}

// compareKeys orders map keys as LLVM's msgpack::DocNode operator< does:
// by kind, then by value.
func compareKeys(a, b *Node) int {
	if a.Kind != b.Kind {
		if a.Kind < b.Kind {
			return -1
		}
		return 1
	}
	switch a.Kind {
	case KindInt:
		return cmp3(a.Int < b.Int, a.Int > b.Int)
	case KindUint:
		return cmp3(a.Uint < b.Uint, a.Uint > b.Uint)
	case KindBool:
		return cmp3(!a.Bool && b.Bool, a.Bool && !b.Bool)
	case KindFloat:
		return cmp3(a.Float < b.Float, a.Float > b.Float)
	case KindString, KindBinary:
		return strings.Compare(a.Str, b.Str)
	}
	return 0
}

func cmp3(lt, gt bool) int {
	if lt {
		return -1
	}
	if gt {
		return 1
	}
	return 0
}

// SortedMap returns the entries of map node n in LLVM's key order, keeping
// only the last of duplicate keys.
func (n *Node) SortedMap() []MapEntry {
	out := make([]MapEntry, 0, len(n.Map))
	out = append(out, n.Map...)
	sort.SliceStable(out, func(i, j int) bool { return compareKeys(out[i].Key, out[j].Key) < 0 })
	// Duplicate keys: LLVM's map keeps the first inserted key slot; a
	// later duplicate replaces its value.
	w := 0
	for i := range out {
		if w > 0 && compareKeys(out[w-1].Key, out[i].Key) == 0 {
			out[w-1].Value = out[i].Value
			continue
		}
		out[w] = out[i]
		w++
	}
	return out[:w]
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 64

// DecodeMsgPack decodes one MessagePack value that fills all of b.
//
// The decoder is written for hostile input: it reads b in place, in one
// pass (time linear in len(b)), never trusts an announced length or count
// beyond what the remaining bytes can hold (every element takes at least
// one byte), so no single allocation exceeds a small multiple of len(b),
// and it bounds nesting at maxDepth.
func DecodeMsgPack(b []byte) (*Node, error) {
	d := mpDecoder{b: b, s: string(b)}
	n, err := d.node(0)
	if err != nil {
		return nil, err
	}
	if d.p != len(b) {
		return nil, formatErr(int64(d.p), "%d bytes after the end of the MessagePack document", len(b)-d.p)
	}
	return n, nil
}

// mpDecoder is a cursor over one MessagePack document.
type mpDecoder struct {
	b    []byte
	p    int
	s    string // b as a string: string values are slices of it
	slab []Node // nodes are carved from here, a chunk at a time
}

// newNode returns a zeroed node from the slab. A chunk holds at most as
// many nodes as there are bytes left (each node takes at least one), and at
// most 64.
func (d *mpDecoder) newNode(off int) *Node {
	if len(d.slab) == 0 {
		d.slab = make([]Node, min(64, len(d.b)-off+1))
	}
	n := &d.slab[0]
	d.slab = d.slab[1:]
	n.Off = int64(off)
	return n
}

// str returns the k bytes after the cursor as a string sharing d.s.
func (d *mpDecoder) str(k uint64, off int) (string, error) {
	start := d.p
	if _, err := d.take(k, off); err != nil {
		return "", err
	}
	return d.s[start:d.p], nil
}

// take returns the next k bytes, or a FormatError at off (the start of the
// value being read) when the document ends first.
func (d *mpDecoder) take(k uint64, off int) ([]byte, error) {
	if k > uint64(len(d.b)-d.p) {
		return nil, formatErr(int64(off), "truncated MessagePack document: a value of %d bytes runs past the end of the %d bytes", k, len(d.b))
	}
	v := d.b[d.p : d.p+int(k)]
	d.p += int(k)
	return v, nil
}

// be reads a k-byte big-endian unsigned integer.
func (d *mpDecoder) be(k uint64, off int) (uint64, error) {
	v, err := d.take(k, off)
	if err != nil {
		return 0, err
	}
	var x uint64
	for _, c := range v {
		x = x<<8 | uint64(c)
	}
	return x, nil
}

func (d *mpDecoder) node(depth int) (*Node, error) {
	off := d.p
	if depth > maxDepth {
		return nil, formatErr(int64(off), "MessagePack nesting deeper than %d", maxDepth)
	}
	if d.p >= len(d.b) {
		return nil, formatErr(int64(off), "truncated MessagePack document")
	}
	c := d.b[d.p]
	d.p++
	n := d.newNode(off)
	var err error
	// Lengths and counts: the header's width, then what follows.
	var width uint64
	switch {
	case c <= 0x7f: // positive fixint
		n.Kind, n.Uint = KindUint, uint64(c)
		return n, nil
	case c >= 0xe0: // negative fixint
		n.Kind, n.Int = KindInt, int64(int8(c))
		return n, nil
	case c == 0xc0:
		n.Kind = KindNil
		return n, nil
	case c == 0xc2 || c == 0xc3:
		n.Kind, n.Bool = KindBool, c == 0xc3
		return n, nil
	case c == 0xca:
		var x uint64
		if x, err = d.be(4, off); err != nil {
			return nil, err
		}
		n.Kind, n.Float32, n.Float = KindFloat, true, float64(math.Float32frombits(uint32(x)))
		return n, nil
	case c == 0xcb:
		var x uint64
		if x, err = d.be(8, off); err != nil {
			return nil, err
		}
		n.Kind, n.Float = KindFloat, math.Float64frombits(x)
		return n, nil
	case c >= 0xcc && c <= 0xcf: // uint 8/16/32/64
		n.Kind = KindUint
		if n.Uint, err = d.be(1<<(c-0xcc), off); err != nil {
			return nil, err
		}
		return n, nil
	case c >= 0xd0 && c <= 0xd3: // int 8/16/32/64
		k := uint64(1) << (c - 0xd0)
		var x uint64
		if x, err = d.be(k, off); err != nil {
			return nil, err
		}
		v := int64(x<<(64-8*k)) >> (64 - 8*k) // sign-extend
		if v >= 0 {
			// A signed encoding of a non-negative value reads back as
			// unsigned in LLVM.
			n.Kind, n.Uint = KindUint, uint64(v)
		} else {
			n.Kind, n.Int = KindInt, v
		}
		return n, nil
	case c >= 0xa0 && c <= 0xbf, c == 0xd9, c == 0xda, c == 0xdb: // str
		n.Kind = KindString
		var l uint64
		switch c {
		case 0xd9:
			width = 1
		case 0xda:
			width = 2
		case 0xdb:
			width = 4
		default:
			l = uint64(c & 0x1f)
		}
		if width > 0 {
			if l, err = d.be(width, off); err != nil {
				return nil, err
			}
		}
		if n.Str, err = d.str(l, off); err != nil {
			return nil, err
		}
		return n, nil
	case c >= 0xc4 && c <= 0xc6: // bin 8/16/32
		n.Kind = KindBinary
		var l uint64
		if l, err = d.be(1<<(c-0xc4), off); err != nil {
			return nil, err
		}
		if n.Str, err = d.str(l, off); err != nil {
			return nil, err
		}
		return n, nil
	case c >= 0x90 && c <= 0x9f, c == 0xdc, c == 0xdd: // array
		n.Kind = KindArray
		l := uint64(c & 0x0f)
		if c == 0xdc || c == 0xdd {
			if l, err = d.be(uint64(2+2*(c-0xdc)), off); err != nil {
				return nil, err
			}
		}
		// Each element takes at least one byte.
		if l > uint64(len(d.b)-d.p) {
			return nil, formatErr(int64(off), "truncated MessagePack document: an array of %d elements cannot fit in the %d bytes left", l, len(d.b)-d.p)
		}
		n.Array = make([]*Node, 0, l)
		for i := uint64(0); i < l; i++ {
			e, err := d.node(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Array = append(n.Array, e)
		}
		return n, nil
	case c >= 0x80 && c <= 0x8f, c == 0xde, c == 0xdf: // map
		n.Kind = KindMap
		l := uint64(c & 0x0f)
		if c == 0xde || c == 0xdf {
			if l, err = d.be(uint64(2+2*(c-0xde)), off); err != nil {
				return nil, err
			}
		}
		// Each entry takes at least two bytes.
		if l > uint64(len(d.b)-d.p)/2 {
			return nil, formatErr(int64(off), "truncated MessagePack document: a map of %d entries cannot fit in the %d bytes left", l, len(d.b)-d.p)
		}
		n.Map = make([]MapEntry, 0, l)
		for i := uint64(0); i < l; i++ {
			k, err := d.node(depth + 1)
			if err != nil {
				return nil, err
			}
			if k.Kind == KindArray || k.Kind == KindMap {
				return nil, formatErr(k.Off, "MessagePack map key is a %v", k.Kind)
			}
			v, err := d.node(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Map = append(n.Map, MapEntry{k, v})
		}
		return n, nil
	case c >= 0xd4 && c <= 0xd8, c >= 0xc7 && c <= 0xc9: // fixext, ext
		return nil, formatErr(int64(off), "MessagePack extension type %#x in metadata: %v", c, ErrNotSupported)
	}
	return nil, formatErr(int64(off), "invalid MessagePack type byte %#x", c)
}

// EncodeMsgPack encodes n as LLVM's msgpack::Writer does: smallest integer
// and length forms, str8 allowed, map keys in the order given (use
// Canonical to sort them as LLVM does). Floats that fit a float32 are
// written in 4 bytes, as LLVM's writer does.
func EncodeMsgPack(n *Node) ([]byte, error) {
	var buf bytes.Buffer
	e := msgpack.NewEncoder(&buf)
	if err := encodeNode(e, n); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func encodeNode(e *msgpack.Encoder, n *Node) error {
	switch n.Kind {
	case KindNil:
		return e.EncodeNil()
	case KindBool:
		return e.EncodeBool(n.Bool)
	case KindUint:
		return e.EncodeUint(n.Uint)
	case KindInt:
		return e.EncodeInt(n.Int)
	case KindFloat:
		a := math.Abs(n.Float)
		if a >= math.SmallestNonzeroFloat32*(1<<23) && a <= math.MaxFloat32 {
			return e.EncodeFloat32(float32(n.Float))
		}
		return e.EncodeFloat64(n.Float)
	case KindString:
		return e.EncodeString(n.Str)
	case KindBinary:
		return e.EncodeBytes([]byte(n.Str))
	case KindArray:
		if err := e.EncodeArrayLen(len(n.Array)); err != nil {
			return err
		}
		for _, c := range n.Array {
			if err := encodeNode(e, c); err != nil {
				return err
			}
		}
		return nil
	case KindMap:
		if err := e.EncodeMapLen(len(n.Map)); err != nil {
			return err
		}
		for _, kv := range n.Map {
			if err := encodeNode(e, kv.Key); err != nil {
				return err
			}
			if err := encodeNode(e, kv.Value); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("codeobject: cannot encode node kind %d", n.Kind)
}

// Canonical returns a copy of n with every map's keys in LLVM's order
// (msgpack::Document keeps maps sorted), which is how LLVM writes metadata.
func Canonical(n *Node) *Node {
	c := n.Clone()
	var walk func(*Node)
	walk = func(x *Node) {
		switch x.Kind {
		case KindArray:
			for _, e := range x.Array {
				walk(e)
			}
		case KindMap:
			x.Map = x.SortedMap()
			for _, e := range x.Map {
				walk(e.Value)
			}
		}
	}
	walk(c)
	return c
}
