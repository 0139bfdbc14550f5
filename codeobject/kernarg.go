package codeobject

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"

	"github.com/rocpu/rocpu/internal/vmem"
)

// This file builds kernarg segments from kernel metadata (INVENTORY §2.6,
// §2.6.1; DESIGN.md "Code object versions and hidden arguments"). Every
// argument, explicit or hidden, is written at the offset its metadata entry
// gives: V3+ metadata states .offset, and V2 offsets come from the argument
// order and Align (MetadataV2.Unified). Hidden arguments are filled only when
// the metadata lists them, because clang drops the ones a kernel does not use
// and the space may then hold something else.

// MaxKernargSize bounds the kernarg segment a layout accepts. The ABI has
// no limit of its own; this one keeps corrupt metadata from making Build
// allocate gigabytes.
const MaxKernargSize = 1 << 20

// KernargSlot is where one argument lives in the kernarg segment.
type KernargSlot struct {
	// Index is the argument's position in Kernel.Args.
	Index int
	Name  string
	Kind  ValueKind
	// Offset and Size are the argument's bytes in the segment.
	Offset, Size uint64
	// Align is the alignment Offset honours: the V2 Align key, the size for
	// pointers and hidden arguments, and for V3+ by-value arguments (whose
	// alignment the metadata does not state) the largest power of two that
	// divides Offset, at most Size rounded up to a power of two.
	Align uint64
	// PointeeAlign is the alignment of the LDS buffer a
	// dynamic_shared_pointer argument points to (1 if the metadata has none).
	PointeeAlign uint64
}

// KernargLayout is a kernel's kernarg segment: its size and alignment and
// where each argument goes.
type KernargLayout struct {
	// Size is .kernarg_segment_size, the length of the segment Build makes.
	Size uint64
	// Align is .kernarg_segment_align (at least 16, the ABI's minimum
	// alignment of the segment itself).
	Align uint64
	// GroupSegmentFixedSize is the kernel's static LDS; dynamic LDS
	// (local pointer arguments, Launch.DynamicLDS) is placed after it.
	GroupSegmentFixedSize uint64
	// Explicit are the arguments the caller passes, in metadata order.
	Explicit []KernargSlot
	// Hidden are the arguments Build fills from the Launch, in metadata order.
	Hidden []KernargSlot
}

// Launch is what hidden arguments are made from: the AQL dispatch (grid,
// work-group size, dimensions) and the buffers and addresses the runtime
// owns. Fields the kernel's metadata does not ask for are ignored.
type Launch struct {
	// Grid is the grid size in work-items and Group the work-group size
	// per dimension (AQL grid_size_* and workgroup_size_*). Entries beyond
	// Dims may be 0, meaning 1.
	Grid, Group [3]uint32
	// Dims is the AQL setup dimension count, 1..3; 0 means the highest
	// dimension whose Grid or Group is above 1 (at least 1).
	Dims int
	// Offset is the global offset per dimension (OpenCL global_work_offset).
	Offset [3]uint64

	PrintfBuffer     uint64 // hidden_printf_buffer
	HostcallBuffer   uint64 // hidden_hostcall_buffer
	DefaultQueue     uint64 // hidden_default_queue
	CompletionAction uint64 // hidden_completion_action
	MultigridSyncArg uint64 // hidden_multigrid_sync_arg
	HeapV1           uint64 // hidden_heap_v1
	QueuePtr         uint64 // hidden_queue_ptr: the dispatch queue's amd_queue_t

	// PrivateBase and SharedBase are the high 32 bits of the flat private
	// and shared aperture bases (hidden_private_base, hidden_shared_base);
	// 0 means rocpu's apertures, vmem.PrivateApertureBaseHi and
	// vmem.SharedApertureBaseHi.
	PrivateBase, SharedBase uint32

	// DynamicLDS is dynamic LDS the caller asks for beyond local pointer
	// arguments (HIP's extern __shared__ arrays), in bytes.
	DynamicLDS uint32
}

// LocalMem is the value for a dynamic_shared_pointer (OpenCL __local
// pointer) argument: the size in bytes of the LDS buffer to allocate for it.
// Build places such buffers after the kernel's static LDS, each aligned to
// its PointeeAlign, and writes the buffer's group-segment address. A plain
// integer for such an argument is written as a group-segment address the
// caller has chosen itself.
type LocalMem uint32

// Kernarg is a built kernarg segment and the LDS the dispatch needs.
type Kernarg struct {
	// Data is the segment, Layout.Size bytes.
	Data []byte
	// DynamicLDS is the LDS beyond GroupSegmentFixedSize that the dispatch
	// needs: alignment padding, the LocalMem buffers and Launch.DynamicLDS.
	// hidden_dynamic_lds_size receives this value.
	DynamicLDS uint32
	// GroupSegmentSize is GroupSegmentFixedSize + DynamicLDS, the value for
	// the AQL packet's group_segment_size.
	GroupSegmentSize uint32
}

// ArgError reports an explicit argument value Build cannot use.
type ArgError struct {
	Index int    // position in the args passed to Build
	Name  string // the argument's name in the metadata, "" if none
	Kind  ValueKind
	Msg   string
	Err   error // ErrNotSupported for value kinds Build cannot fill, else nil
}

func (e *ArgError) Error() string {
	name := ""
	if e.Name != "" {
		name = " (" + e.Name + ")"
	}
	return fmt.Sprintf("codeobject: kernel argument %d%s, %s: %s", e.Index, name, e.Kind, e.Msg)
}

func (e *ArgError) Unwrap() error { return e.Err }

// ErrArgCount is wrapped by Build's error when the number of values is not
// the number of explicit arguments.
var ErrArgCount = errors.New("wrong number of kernel arguments")

// hiddenSizes are the sizes a hidden argument may have: the LLVM size, and
// for pointers and offsets also 4 (32-bit V2 code objects).
var hiddenSizes = map[ValueKind][]uint64{
	ValueKindHiddenGlobalOffsetX:    {8, 4},
	ValueKindHiddenGlobalOffsetY:    {8, 4},
	ValueKindHiddenGlobalOffsetZ:    {8, 4},
	ValueKindHiddenPrintfBuffer:     {8, 4},
	ValueKindHiddenHostcallBuffer:   {8, 4},
	ValueKindHiddenDefaultQueue:     {8, 4},
	ValueKindHiddenCompletionAction: {8, 4},
	ValueKindHiddenMultigridSyncArg: {8, 4},
	ValueKindHiddenHeapV1:           {8},
	ValueKindHiddenBlockCountX:      {4},
	ValueKindHiddenBlockCountY:      {4},
	ValueKindHiddenBlockCountZ:      {4},
	ValueKindHiddenGroupSizeX:       {2},
	ValueKindHiddenGroupSizeY:       {2},
	ValueKindHiddenGroupSizeZ:       {2},
	ValueKindHiddenRemainderX:       {2},
	ValueKindHiddenRemainderY:       {2},
	ValueKindHiddenRemainderZ:       {2},
	ValueKindHiddenGridDims:         {2},
	ValueKindHiddenDynamicLDSSize:   {4},
	ValueKindHiddenPrivateBase:      {4},
	ValueKindHiddenSharedBase:       {4},
	ValueKindHiddenQueuePtr:         {8},
}

// pointerKinds are explicit kinds whose value is an address or handle.
var pointerKinds = map[ValueKind]bool{
	ValueKindGlobalBuffer: true,
	ValueKindImage:        true,
	ValueKindSampler:      true,
	ValueKindPipe:         true,
	ValueKindQueue:        true,
}

// KernargLayout checks the kernel's argument metadata and returns where
// each argument goes. The errors are *FormatError (at the argument's map in
// the file) for metadata that cannot describe a real segment — arguments
// past .kernarg_segment_size, overlapping, misaligned or of an impossible
// size — and ErrNotSupported for value kinds this package does not know.
func (k *Kernel) KernargLayout() (*KernargLayout, error) {
	if k.KernargSegmentSize > MaxKernargSize {
		return nil, notSupported("kernel %q: kernarg segment of %d bytes (the limit is %d)", k.Name, k.KernargSegmentSize, MaxKernargSize)
	}
	l := &KernargLayout{Size: k.KernargSegmentSize, Align: k.KernargSegmentAlign, GroupSegmentFixedSize: k.GroupSegmentFixedSize}
	if k.GroupSegmentFixedSize > math.MaxUint32 {
		return nil, formatErr(k.Off, "kernel %q: .group_segment_fixed_size %d does not fit in 32 bits", k.Name, k.GroupSegmentFixedSize)
	}
	if l.Align != 0 && l.Align&(l.Align-1) != 0 {
		return nil, formatErr(k.Off, "kernel %q: .kernarg_segment_align %d is not a power of two", k.Name, l.Align)
	}
	if l.Align < 16 {
		l.Align = 16
	}
	var all []KernargSlot
	for i := range k.Args {
		a := &k.Args[i]
		s, err := a.slot(i, k)
		if err != nil {
			return nil, err
		}
		if s.Kind.Hidden() {
			l.Hidden = append(l.Hidden, s)
		} else {
			l.Explicit = append(l.Explicit, s)
		}
		all = append(all, s)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Offset < all[j].Offset })
	for i, last := 1, 0; i < len(all); i++ {
		p, s := all[last], all[i]
		if s.Size == 0 {
			continue
		}
		if p.Offset+p.Size > s.Offset {
			a := &k.Args[s.Index]
			return nil, formatErr(a.Off, "kernel %q: argument %d (%s at %d) overlaps argument %d (%s at %d, %d bytes)",
				k.Name, s.Index, s.Kind, s.Offset, p.Index, p.Kind, p.Offset, p.Size)
		}
		last = i
	}
	return l, nil
}

func (a *Arg) slot(i int, k *Kernel) (KernargSlot, error) {
	s := KernargSlot{Index: i, Name: a.Name, Kind: a.ValueKind, Offset: a.Offset, Size: a.Size, PointeeAlign: 1}
	bad := func(format string, args ...any) (KernargSlot, error) {
		return s, formatErr(a.Off, "kernel %q: argument %d (%s): %s", k.Name, i, a.ValueKind, fmt.Sprintf(format, args...))
	}
	if !a.ValueKind.Known() {
		return s, &ArgError{Index: i, Name: a.Name, Kind: a.ValueKind, Msg: "unknown value kind", Err: notSupported("kernel %q: argument %d has value kind %q", k.Name, i, string(a.ValueKind))}
	}
	if a.Size > MaxKernargSize || a.Offset > MaxKernargSize || a.Offset+a.Size > k.KernargSegmentSize {
		return bad("bytes %d..%d lie outside the %d-byte kernarg segment", a.Offset, a.Offset+a.Size, k.KernargSegmentSize)
	}
	if a.Align != 0 && a.Align&(a.Align-1) != 0 {
		return bad("Align %d is not a power of two", a.Align)
	}
	switch kind := a.ValueKind; {
	case kind == ValueKindHiddenNone:
	case kind.Hidden():
		if !sizeIn(a.Size, hiddenSizes[kind]) {
			return bad("size %d, want %v", a.Size, hiddenSizes[kind])
		}
		s.Align = a.Size
	case pointerKinds[kind]:
		if a.Size != 8 && a.Size != 4 {
			return bad("size %d, want 8 (or 4 for 32-bit pointers)", a.Size)
		}
		s.Align = a.Size
	case kind == ValueKindDynamicSharedPointer:
		if a.Size != 4 && a.Size != 8 {
			return bad("size %d, want 4 (or 8)", a.Size)
		}
		s.Align = a.Size
		if a.PointeeAlign != nil {
			pa := *a.PointeeAlign
			if pa == 0 || pa&(pa-1) != 0 || pa > 1<<16 {
				return bad(".pointee_align %d is not a power of two up to 65536", pa)
			}
			s.PointeeAlign = pa
		}
	case kind == ValueKindByValue:
		s.Align = 1
		if a.Size > 0 {
			lim := pow2Ceil(a.Size)
			s.Align = lim
			if a.Offset != 0 {
				s.Align = min(lim, a.Offset&-a.Offset)
			}
		}
	}
	if a.Align != 0 {
		s.Align = a.Align
	}
	if s.Align > 1 && a.Offset%s.Align != 0 {
		return bad("offset %d is not a multiple of its alignment %d", a.Offset, s.Align)
	}
	return s, nil
}

func sizeIn(v uint64, set []uint64) bool {
	for _, x := range set {
		if v == x {
			return true
		}
	}
	return false
}

// Has reports whether the kernel's metadata lists a hidden argument of
// kind k, so a launcher knows which buffers (printf, hostcall, heap) the
// dispatch needs.
func (l *KernargLayout) Has(k ValueKind) bool {
	for _, s := range l.Hidden {
		if s.Kind == k {
			return true
		}
	}
	return false
}

// Build returns the kernarg segment for one dispatch: args holds one value
// per explicit argument, in metadata order, and launch gives the hidden ones.
// See BuildDispatch for the values accepted.
func (l *KernargLayout) Build(args []any, launch Launch) ([]byte, error) {
	ka, err := l.BuildDispatch(args, launch)
	if err != nil {
		return nil, err
	}
	return ka.Data, nil
}

// BuildDispatch builds the kernarg segment and computes the dispatch's LDS.
// Values accepted per explicit argument kind:
//
//   - by_value: a []byte of exactly the argument's size, or any value
//     encoding/binary encodes (little-endian, no padding) to exactly that
//     size — int32, float32, [4]float32, a struct of such fields, ... A Go
//     int or uint is accepted when the argument is 1, 2, 4 or 8 bytes and
//     the value fits.
//   - global_buffer, image, sampler, pipe, queue: the address or handle as
//     uint64, uintptr, uint32 or a non-negative int (images and samplers are
//     opaque handles: the address of their descriptor).
//   - dynamic_shared_pointer: LocalMem(size) to allocate a buffer, or an
//     integer group-segment address.
//
// Errors: a count mismatch wraps ErrArgCount; a bad value is an *ArgError;
// a hidden argument whose value does not fit its size, or a grid or
// work-group size of 0, is reported by name.
func (l *KernargLayout) BuildDispatch(args []any, launch Launch) (*Kernarg, error) {
	if len(args) != len(l.Explicit) {
		return nil, fmt.Errorf("codeobject: %w: got %d, the kernel has %d", ErrArgCount, len(args), len(l.Explicit))
	}
	if l.Size > MaxKernargSize {
		return nil, notSupported("kernarg segment of %d bytes", l.Size)
	}
	buf := make([]byte, l.Size)
	lds := l.GroupSegmentFixedSize // next free LDS byte
	for i, s := range l.Explicit {
		argErr := func(format string, a ...any) error {
			return &ArgError{Index: i, Name: s.Name, Kind: s.Kind, Msg: fmt.Sprintf(format, a...)}
		}
		if s.Offset+s.Size > uint64(len(buf)) {
			return nil, argErr("bytes %d..%d lie outside the %d-byte segment", s.Offset, s.Offset+s.Size, len(buf))
		}
		dst := buf[s.Offset : s.Offset+s.Size]
		v := args[i]
		switch {
		case s.Kind == ValueKindByValue:
			if err := putByValue(dst, v); err != nil {
				return nil, argErr("%v", err)
			}
		case pointerKinds[s.Kind]:
			x, ok := asUint(v)
			if !ok {
				return nil, argErr("want an address (uint64, uintptr, uint32 or non-negative int), got %T", v)
			}
			if !putUint(dst, x) {
				return nil, argErr("address %#x does not fit in %d bytes", x, s.Size)
			}
		case s.Kind == ValueKindDynamicSharedPointer:
			var addr uint64
			if m, ok := v.(LocalMem); ok {
				lds = (lds + s.PointeeAlign - 1) &^ (s.PointeeAlign - 1)
				addr = lds
				lds += uint64(m)
			} else if x, ok := asUint(v); ok {
				addr = x
			} else {
				return nil, argErr("want LocalMem(size) or a group-segment address, got %T", v)
			}
			if lds > math.MaxUint32 || !putUint(dst, addr) {
				return nil, argErr("LDS address %#x does not fit in %d bytes", addr, s.Size)
			}
		default:
			return nil, &ArgError{Index: i, Name: s.Name, Kind: s.Kind, Msg: "cannot be filled",
				Err: notSupported("kernel argument value kind %q", string(s.Kind))}
		}
	}
	lds += uint64(launch.DynamicLDS)
	if lds > math.MaxUint32 {
		return nil, fmt.Errorf("codeobject: the dispatch needs %d bytes of LDS", lds)
	}
	ka := &Kernarg{Data: buf, GroupSegmentSize: uint32(lds), DynamicLDS: uint32(lds - l.GroupSegmentFixedSize)}
	if len(l.Hidden) == 0 {
		return ka, nil
	}
	hv, err := launch.hiddenValues()
	if err != nil {
		return nil, err
	}
	hv[ValueKindHiddenDynamicLDSSize] = uint64(ka.DynamicLDS)
	for _, s := range l.Hidden {
		if s.Kind == ValueKindHiddenNone || s.Size == 0 {
			continue
		}
		if s.Offset+s.Size > uint64(len(buf)) {
			return nil, fmt.Errorf("codeobject: %s: bytes %d..%d lie outside the %d-byte segment", s.Kind, s.Offset, s.Offset+s.Size, len(buf))
		}
		x, ok := hv[s.Kind]
		if !ok {
			return nil, notSupported("hidden argument %q", string(s.Kind))
		}
		if !putUint(buf[s.Offset:s.Offset+s.Size], x) {
			return nil, fmt.Errorf("codeobject: %s: value %d does not fit in %d bytes", s.Kind, x, s.Size)
		}
	}
	return ka, nil
}

// hiddenValues computes every hidden argument's value but the dynamic LDS
// size. Work-group counts and remainders follow INVENTORY §2.6: block_count
// = grid / group (non-partial groups only), remainder = grid mod group,
// unused dimensions 1 (counts, sizes) and 0 (remainders).
func (ln *Launch) hiddenValues() (map[ValueKind]uint64, error) {
	dims := ln.Dims
	if dims == 0 {
		dims = 1
		for d := 1; d < 3; d++ {
			if ln.Grid[d] > 1 || ln.Group[d] > 1 {
				dims = d + 1
			}
		}
	}
	if dims < 1 || dims > 3 {
		return nil, fmt.Errorf("codeobject: launch has %d dimensions, want 1..3", dims)
	}
	var grid, group [3]uint64
	for d := 0; d < 3; d++ {
		grid[d], group[d] = uint64(ln.Grid[d]), uint64(ln.Group[d])
		if d >= dims {
			if grid[d] > 1 || group[d] > 1 {
				return nil, fmt.Errorf("codeobject: launch has %d dimensions but grid/group size %d/%d in dimension %c", dims, grid[d], group[d], "xyz"[d])
			}
			grid[d], group[d] = 1, 1
		}
		if grid[d] == 0 || group[d] == 0 {
			return nil, fmt.Errorf("codeobject: launch grid size %d, work-group size %d in dimension %c: both must be at least 1", grid[d], group[d], "xyz"[d])
		}
	}
	pb, sb := ln.PrivateBase, ln.SharedBase
	if pb == 0 {
		pb = vmem.PrivateApertureBaseHi
	}
	if sb == 0 {
		sb = vmem.SharedApertureBaseHi
	}
	return map[ValueKind]uint64{
		ValueKindHiddenGlobalOffsetX:    ln.Offset[0],
		ValueKindHiddenGlobalOffsetY:    ln.Offset[1],
		ValueKindHiddenGlobalOffsetZ:    ln.Offset[2],
		ValueKindHiddenPrintfBuffer:     ln.PrintfBuffer,
		ValueKindHiddenHostcallBuffer:   ln.HostcallBuffer,
		ValueKindHiddenDefaultQueue:     ln.DefaultQueue,
		ValueKindHiddenCompletionAction: ln.CompletionAction,
		ValueKindHiddenMultigridSyncArg: ln.MultigridSyncArg,
		ValueKindHiddenHeapV1:           ln.HeapV1,
		ValueKindHiddenBlockCountX:      grid[0] / group[0],
		ValueKindHiddenBlockCountY:      grid[1] / group[1],
		ValueKindHiddenBlockCountZ:      grid[2] / group[2],
		ValueKindHiddenGroupSizeX:       group[0],
		ValueKindHiddenGroupSizeY:       group[1],
		ValueKindHiddenGroupSizeZ:       group[2],
		ValueKindHiddenRemainderX:       grid[0] % group[0],
		ValueKindHiddenRemainderY:       grid[1] % group[1],
		ValueKindHiddenRemainderZ:       grid[2] % group[2],
		ValueKindHiddenGridDims:         uint64(dims),
		ValueKindHiddenPrivateBase:      uint64(pb),
		ValueKindHiddenSharedBase:       uint64(sb),
		ValueKindHiddenQueuePtr:         ln.QueuePtr,
	}, nil
}

// putUint stores x little-endian in dst (1, 2, 4 or 8 bytes); false if it
// does not fit.
func putUint(dst []byte, x uint64) bool {
	n := len(dst)
	if n < 8 && x>>(8*uint(n)) != 0 {
		return false
	}
	switch n {
	case 1:
		dst[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(dst, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(dst, uint32(x))
	case 8:
		binary.LittleEndian.PutUint64(dst, x)
	default:
		return false
	}
	return true
}

func asUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case uint64:
		return x, true
	case uintptr:
		return uint64(x), true
	case uint32:
		return uint64(x), true
	case uint:
		return uint64(x), true
	case int:
		return uint64(x), x >= 0
	case int64:
		return uint64(x), x >= 0
	case LocalMem:
		return 0, false
	}
	return 0, false
}

func putByValue(dst []byte, v any) error {
	switch x := v.(type) {
	case []byte:
		if len(x) != len(dst) {
			return fmt.Errorf("got %d bytes, want %d", len(x), len(dst))
		}
		copy(dst, x)
		return nil
	case int:
		if !fitsSigned(int64(x), len(dst)) {
			return fmt.Errorf("int %d does not fit in %d bytes", x, len(dst))
		}
		if !putUint(dst, uint64(int64(x))&sizeMask(len(dst))) {
			return fmt.Errorf("an int cannot fill %d bytes", len(dst))
		}
		return nil
	case uint:
		if !putUint(dst, uint64(x)) {
			return fmt.Errorf("uint %d does not fit in %d bytes", x, len(dst))
		}
		return nil
	case nil:
		return errors.New("got nil")
	}
	n := binary.Size(v)
	if n < 0 {
		return fmt.Errorf("%T has no fixed-size encoding; pass []byte", v)
	}
	if n != len(dst) {
		return fmt.Errorf("%s is %d bytes, want %d", typeName(v), n, len(dst))
	}
	b, err := binary.Append(nil, binary.LittleEndian, v)
	if err != nil {
		return err
	}
	copy(dst, b)
	return nil
}

func typeName(v any) string { return reflect.TypeOf(v).String() }

func sizeMask(n int) uint64 {
	if n >= 8 {
		return math.MaxUint64
	}
	return 1<<(8*uint(n)) - 1
}

func fitsSigned(x int64, n int) bool {
	switch n {
	case 1:
		return x >= math.MinInt8 && x <= math.MaxUint8
	case 2:
		return x >= math.MinInt16 && x <= math.MaxUint16
	case 4:
		return x >= math.MinInt32 && x <= math.MaxUint32
	case 8:
		return true
	}
	return false
}

// pow2Ceil returns the least power of two at or above x (x ≥ 1).
func pow2Ceil(x uint64) uint64 {
	p := uint64(1)
	for p < x && p < 1<<62 {
		p <<= 1
	}
	return p
}
