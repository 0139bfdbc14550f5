package codeobject

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
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
func DecodeMsgPack(b []byte) (*Node, error) {
	r := bytes.NewReader(b)
	d := msgpack.NewDecoder(r)
	pos := func() int64 { return int64(len(b) - r.Len()) }
	n, err := decodeNode(d, b, pos, 0)
	if err != nil {
		return nil, err
	}
	if r.Len() != 0 {
		return nil, formatErr(pos(), "%d bytes after the end of the MessagePack document", r.Len())
	}
	return n, nil
}

// payloadFits checks, before the library reads a string or binary value,
// that the length its header announces fits in the rest of the input: the
// library allocates the announced length up front, so a forged header
// would cost gigabytes.
func payloadFits(b []byte, off int64, c byte) error {
	var hdr, n uint64
	rest := b[off:]
	need := func(k int) error {
		if len(rest) < k {
			return formatErr(off, "truncated MessagePack header")
		}
		return nil
	}
	switch {
	case msgpcode.IsFixedString(c):
		hdr, n = 1, uint64(c&0x1f)
	case c == msgpcode.Str8 || c == msgpcode.Bin8:
		if err := need(2); err != nil {
			return err
		}
		hdr, n = 2, uint64(rest[1])
	case c == msgpcode.Str16 || c == msgpcode.Bin16:
		if err := need(3); err != nil {
			return err
		}
		hdr, n = 3, uint64(rest[1])<<8|uint64(rest[2])
	case c == msgpcode.Str32 || c == msgpcode.Bin32:
		if err := need(5); err != nil {
			return err
		}
		hdr, n = 5, uint64(rest[1])<<24|uint64(rest[2])<<16|uint64(rest[3])<<8|uint64(rest[4])
	default:
		return nil
	}
	if hdr+n > uint64(len(rest)) {
		return formatErr(off, "truncated MessagePack document: a string of %d bytes runs past the end of the %d bytes", n, len(b))
	}
	return nil
}

func decodeNode(d *msgpack.Decoder, b []byte, pos func() int64, depth int) (*Node, error) {
	off := pos()
	if depth > maxDepth {
		return nil, formatErr(off, "MessagePack nesting deeper than %d", maxDepth)
	}
	wrap := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return formatErr(pos(), "truncated MessagePack document")
		}
		return formatErr(off, "bad MessagePack value: %v", err)
	}
	c, err := d.PeekCode()
	if err != nil {
		return nil, wrap(err)
	}
	if err := payloadFits(b, off, c); err != nil {
		return nil, err
	}
	n := &Node{Off: off}
	switch {
	case c == msgpcode.Nil:
		n.Kind = KindNil
		err = d.DecodeNil()
	case c == msgpcode.True || c == msgpcode.False:
		n.Kind = KindBool
		n.Bool, err = d.DecodeBool()
	case c == msgpcode.Float:
		n.Kind, n.Float32 = KindFloat, true
		var f float32
		f, err = d.DecodeFloat32()
		n.Float = float64(f)
	case c == msgpcode.Double:
		n.Kind = KindFloat
		n.Float, err = d.DecodeFloat64()
	case msgpcode.IsFixedNum(c) && int8(c) >= 0, c == msgpcode.Uint8, c == msgpcode.Uint16, c == msgpcode.Uint32, c == msgpcode.Uint64:
		n.Kind = KindUint
		n.Uint, err = d.DecodeUint64()
	case msgpcode.IsFixedNum(c), c == msgpcode.Int8, c == msgpcode.Int16, c == msgpcode.Int32, c == msgpcode.Int64:
		n.Kind = KindInt
		n.Int, err = d.DecodeInt64()
		if err == nil && n.Int >= 0 {
			// A signed encoding of a non-negative value reads back as
			// unsigned in LLVM.
			n.Kind, n.Uint = KindUint, uint64(n.Int)
		}
	case msgpcode.IsString(c):
		n.Kind = KindString
		n.Str, err = d.DecodeString()
	case msgpcode.IsBin(c):
		n.Kind = KindBinary
		var raw []byte
		if raw, err = d.DecodeBytes(); err == nil {
			n.Str = string(raw)
		}
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		n.Kind = KindArray
		var l int
		if l, err = d.DecodeArrayLen(); err != nil {
			return nil, wrap(err)
		}
		for i := 0; i < l; i++ {
			e, err := decodeNode(d, b, pos, depth+1)
			if err != nil {
				return nil, err
			}
			n.Array = append(n.Array, e)
		}
		if n.Array == nil {
			n.Array = []*Node{}
		}
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		n.Kind = KindMap
		var l int
		if l, err = d.DecodeMapLen(); err != nil {
			return nil, wrap(err)
		}
		for i := 0; i < l; i++ {
			k, err := decodeNode(d, b, pos, depth+1)
			if err != nil {
				return nil, err
			}
			if k.Kind == KindArray || k.Kind == KindMap {
				return nil, formatErr(k.Off, "MessagePack map key is a %v", k.Kind)
			}
			v, err := decodeNode(d, b, pos, depth+1)
			if err != nil {
				return nil, err
			}
			n.Map = append(n.Map, MapEntry{k, v})
		}
		if n.Map == nil {
			n.Map = []MapEntry{}
		}
	case msgpcode.IsExt(c):
		return nil, formatErr(off, "MessagePack extension type %#x in metadata: %v", c, ErrNotSupported)
	default:
		return nil, formatErr(off, "invalid MessagePack type byte %#x", c)
	}
	if err != nil {
		return nil, wrap(err)
	}
	return n, nil
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
