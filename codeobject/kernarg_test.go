package codeobject

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// goldenArg is one argument as llvm-readelf-15 prints it.
type goldenArg struct {
	Offset, Size uint64
	Kind         string
}

type goldenKernel struct {
	Name        string
	KernargSize uint64
	Args        []goldenArg
}

// readGoldenKernels scans the V3+ "AMDGPU Metadata" YAML that llvm-readelf
// prints, independently of this package's decoders: kernel maps start with
// "  - .", argument maps with "      - .", and keys are sorted so .args come
// before .name.
func readGoldenKernels(t *testing.T, path string) []goldenKernel {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenKernel
	var cur *goldenKernel
	var arg *goldenArg
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "amdhsa.") {
			cur, arg = nil, nil
			continue
		}
		if strings.HasPrefix(line, "  - .") {
			out = append(out, goldenKernel{})
			cur, arg = &out[len(out)-1], nil
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(line, "      - .") {
			cur.Args = append(cur.Args, goldenArg{})
			arg = &cur.Args[len(cur.Args)-1]
		}
		trim := strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(line), "- "), " ")
		key, val, ok := strings.Cut(trim, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		indent := len(line) - len(strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(line, " "), "- "), " "))
		switch {
		case indent >= 8 && arg != nil && key == ".offset":
			arg.Offset, _ = strconv.ParseUint(val, 10, 64)
		case indent >= 8 && arg != nil && key == ".size":
			arg.Size, _ = strconv.ParseUint(val, 10, 64)
		case indent >= 8 && arg != nil && key == ".value_kind":
			arg.Kind = val
		case indent == 4 && key == ".name":
			cur.Name = val
		case indent == 4 && key == ".kernarg_segment_size":
			cur.KernargSize, _ = strconv.ParseUint(val, 10, 64)
		}
	}
	return out
}

// v5Block is INVENTORY §2.6.1: each V5 hidden argument's offset from the
// start of the implicit block.
var v5Block = map[string]uint64{
	"hidden_block_count_x": 0, "hidden_block_count_y": 4, "hidden_block_count_z": 8,
	"hidden_group_size_x": 12, "hidden_group_size_y": 14, "hidden_group_size_z": 16,
	"hidden_remainder_x": 18, "hidden_remainder_y": 20, "hidden_remainder_z": 22,
	"hidden_global_offset_x": 40, "hidden_global_offset_y": 48, "hidden_global_offset_z": 56,
	"hidden_grid_dims": 64, "hidden_printf_buffer": 72, "hidden_hostcall_buffer": 80,
	"hidden_multigrid_sync_arg": 88, "hidden_heap_v1": 96, "hidden_default_queue": 104,
	"hidden_completion_action": 112, "hidden_dynamic_lds_size": 120,
	"hidden_private_base": 192, "hidden_shared_base": 196, "hidden_queue_ptr": 200,
}

// testLaunch has a value in every field, none of them a power of two, so a
// value written at the wrong place or width shows.
var testLaunch = Launch{
	Grid: [3]uint32{1000, 6, 5}, Group: [3]uint32{64, 4, 2}, Dims: 3,
	Offset:       [3]uint64{0x1111_0000_0001, 0x2222_0000_0002, 0x3333_0000_0003},
	PrintfBuffer: 0x7f00_0000_1000, HostcallBuffer: 0x7f00_0000_2000, DefaultQueue: 0x7f00_0000_3000,
	CompletionAction: 0x7f00_0000_4000, MultigridSyncArg: 0x7f00_0000_5000, HeapV1: 0x7f00_0000_6000,
	QueuePtr: 0x7f00_0000_7000, DynamicLDS: 96,
}

// testHidden is what each hidden argument must hold for testLaunch, written
// out by hand: 1000 = 15*64+40, 6 = 1*4+2, 5 = 2*2+1.
var testHidden = map[string]uint64{
	"hidden_block_count_x": 15, "hidden_block_count_y": 1, "hidden_block_count_z": 2,
	"hidden_group_size_x": 64, "hidden_group_size_y": 4, "hidden_group_size_z": 2,
	"hidden_remainder_x": 40, "hidden_remainder_y": 2, "hidden_remainder_z": 1,
	"hidden_global_offset_x": 0x1111_0000_0001, "hidden_global_offset_y": 0x2222_0000_0002,
	"hidden_global_offset_z": 0x3333_0000_0003, "hidden_grid_dims": 3,
	"hidden_printf_buffer": 0x7f00_0000_1000, "hidden_hostcall_buffer": 0x7f00_0000_2000,
	"hidden_default_queue": 0x7f00_0000_3000, "hidden_completion_action": 0x7f00_0000_4000,
	"hidden_multigrid_sync_arg": 0x7f00_0000_5000, "hidden_heap_v1": 0x7f00_0000_6000,
	"hidden_queue_ptr":    0x7f00_0000_7000,
	"hidden_private_base": 0x0002_0000, "hidden_shared_base": 0x0001_0000,
	"hidden_none": 0,
}

func leUint(b []byte) uint64 {
	var x [8]byte
	copy(x[:], b)
	return binary.LittleEndian.Uint64(x[:])
}

// fillArgs returns one distinct value per explicit argument: addresses for
// pointers, a byte pattern for by-value, LocalMem for local pointers.
func fillArgs(l *KernargLayout) (args []any, want map[int][]byte) {
	want = map[int][]byte{}
	for i, s := range l.Explicit {
		switch {
		case s.Kind == ValueKindByValue:
			b := make([]byte, s.Size)
			for j := range b {
				b[j] = byte(0x40 + i*8 + j)
			}
			args = append(args, b)
			want[i] = b
		case s.Kind == ValueKindDynamicSharedPointer:
			args = append(args, LocalMem(100+i))
		default:
			a := uint64(0x5500_0000_0000 + i*0x100)
			args = append(args, a)
			b := make([]byte, s.Size)
			putUint(b, a)
			want[i] = b
		}
	}
	return args, want
}

func testObjects(t *testing.T) []string {
	var files []string
	for _, g := range []string{"testdata/*.hsaco", "testdata/kernarg/*.hsaco", "testdata/printf/*.hsaco", "../testdata/kernels/obj/*.hsaco"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no test objects")
	}
	return files
}

func goldenFor(path string) string {
	for _, suf := range []string{".notes.txt", ".readelf.txt"} {
		if _, err := os.Stat(path + suf); err == nil {
			return path + suf
		}
	}
	return ""
}

// TestKernargGolden checks, for every clang-built object with an
// llvm-readelf golden, that the layout has LLVM's offsets and sizes and
// that Build writes every hidden argument at its offset with the value
// from testHidden, every explicit one as given, and zeros elsewhere.
func TestKernargGolden(t *testing.T) {
	n := 0
	for _, path := range testObjects(t) {
		golden := goldenFor(path)
		if golden == "" {
			continue
		}
		f, err := Open(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		md, err := f.Metadata()
		if err != nil {
			t.Errorf("%s: metadata: %v", path, err)
			continue
		}
		if md == nil {
			continue // assembler objects without metadata
		}
		if f.Version() < V3 {
			// V2 metadata has no offsets (TestKernargV2MatchesV4 checks
			// the rule against V4): the arguments placed by it must end
			// where LLVM's KernargSegmentSize says, and build.
			for i := range md.Kernels {
				k := &md.Kernels[i]
				l, err := k.KernargLayout()
				if err != nil {
					t.Errorf("%s: %s: %v", path, k.Name, err)
					continue
				}
				var end uint64
				for _, a := range k.Args {
					end = max(end, a.Offset+a.Size)
				}
				if end != l.Size {
					t.Errorf("%s: %s: arguments end at %d, KernargSegmentSize %d", path, k.Name, end, l.Size)
				}
				args, _ := fillArgs(l)
				if _, err := l.Build(args, testLaunch); err != nil {
					t.Errorf("%s: %s: %v", path, k.Name, err)
				}
				n++
			}
			continue
		}
		gks := readGoldenKernels(t, golden)
		if len(gks) != len(md.Kernels) {
			t.Errorf("%s: golden has %d kernels, metadata %d", path, len(gks), len(md.Kernels))
			continue
		}
		for ki, gk := range gks {
			k := &md.Kernels[ki]
			name := filepath.Base(path) + ":" + gk.Name
			if k.Name != gk.Name {
				t.Errorf("%s: kernel %d is %q", name, ki, k.Name)
				continue
			}
			l, err := k.KernargLayout()
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			n++
			if l.Size != gk.KernargSize {
				t.Errorf("%s: size %d, golden %d", name, l.Size, gk.KernargSize)
			}
			// The layout in metadata order, explicit and hidden merged.
			slots := make([]KernargSlot, len(k.Args))
			for _, s := range append(append([]KernargSlot(nil), l.Explicit...), l.Hidden...) {
				slots[s.Index] = s
			}
			if len(slots) != len(gk.Args) {
				t.Errorf("%s: %d args, golden %d", name, len(slots), len(gk.Args))
				continue
			}
			var blockStart uint64 = math.MaxUint64
			for i, g := range gk.Args {
				s := slots[i]
				if s.Offset != g.Offset || s.Size != g.Size || string(s.Kind) != g.Kind {
					t.Errorf("%s: arg %d = %s@%d/%d, golden %s@%d/%d", name, i, s.Kind, s.Offset, s.Size, g.Kind, g.Offset, g.Size)
				}
				if f.Version() >= V5 && s.Kind == ValueKindHiddenBlockCountX {
					blockStart = s.Offset
				}
			}
			// INVENTORY §2.6.1 [GAP]: V5 hidden offsets within the block.
			if f.Version() >= V5 && blockStart != math.MaxUint64 {
				for _, s := range l.Hidden {
					if rel, ok := v5Block[string(s.Kind)]; ok && s.Offset-blockStart != rel {
						t.Errorf("%s: %s at block+%d, INVENTORY §2.6.1 says +%d", name, s.Kind, s.Offset-blockStart, rel)
					}
				}
			}
			args, want := fillArgs(l)
			ka, err := l.BuildDispatch(args, testLaunch)
			if err != nil {
				t.Errorf("%s: Build: %v", name, err)
				continue
			}
			buf := ka.Data
			if uint64(len(buf)) != gk.KernargSize {
				t.Errorf("%s: built %d bytes, want %d", name, len(buf), gk.KernargSize)
				continue
			}
			covered := make([]bool, len(buf))
			for i, s := range l.Explicit {
				got := buf[s.Offset : s.Offset+s.Size]
				if w, ok := want[i]; ok && !bytes.Equal(got, w) {
					t.Errorf("%s: explicit %d at %d = %x, want %x", name, i, s.Offset, got, w)
				}
				for j := s.Offset; j < s.Offset+s.Size; j++ {
					covered[j] = true
				}
			}
			for _, s := range l.Hidden {
				w, ok := testHidden[string(s.Kind)]
				if s.Kind == ValueKindHiddenDynamicLDSSize {
					w, ok = uint64(ka.DynamicLDS), true
				}
				if !ok {
					t.Errorf("%s: no expected value for %s", name, s.Kind)
					continue
				}
				if got := leUint(buf[s.Offset : s.Offset+s.Size]); got != w {
					t.Errorf("%s: %s at %d = %#x, want %#x", name, s.Kind, s.Offset, got, w)
				}
				for j := s.Offset; j < s.Offset+s.Size; j++ {
					covered[j] = true
				}
			}
			for j, c := range covered {
				if !c && buf[j] != 0 {
					t.Errorf("%s: byte %d outside every argument is %#x", name, j, buf[j])
					break
				}
			}
		}
	}
	if n == 0 {
		t.Skip("no V3+ object with a golden")
	}
	t.Logf("%d kernels checked", n)
}

// TestKernargKindsBytes is the whole segment of kernel "kinds" (V5, gfx803:
// every explicit kind, device enqueue and the aperture bases), written out
// from llvm-readelf's offsets by hand.
func TestKernargKindsBytes(t *testing.T) {
	f, err := Open("testdata/kernarg/kinds.gfx803.co5.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	md, err := f.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	k, err := md.Kernel("kinds")
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.KernargLayout()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Explicit) != 13 || l.Size != 376 || l.Align != 16 {
		t.Fatalf("layout: %d explicit, size %d, align %d", len(l.Explicit), l.Size, l.Align)
	}
	type S struct {
		C int8
		_ [3]byte
		I int32
		D float64
	}
	args := []any{
		uint64(0x1000),           // g
		LocalMem(256),            // l: float*, pointee_align 4
		uintptr(0x2000),          // c
		S{C: -2, I: 300, D: 2.5}, // s
		int8(-7),                 // ch
		int16(-300),              // sh
		float64(1.25),            // d
		[4]float32{1, 2, 3, 4},   // v
		uint64(0x3000),           // img
		uint64(0x4000),           // smp
		uint64(0x5000),           // p
		uint64(0x6000),           // q
		LocalMem(32),             // l2: int4*, pointee_align 16
	}
	launch := Launch{Grid: [3]uint32{200, 1, 1}, Group: [3]uint32{64, 1, 1}, Offset: [3]uint64{5, 0, 0},
		DefaultQueue: 0xdead0000, CompletionAction: 0xbeef0000, QueuePtr: 0xabc000, DynamicLDS: 8}
	ka, err := l.BuildDispatch(args, launch)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 376)
	le := binary.LittleEndian
	le.PutUint64(want[0:], 0x1000)
	le.PutUint32(want[8:], 0) // first LDS buffer at 0 (no static LDS)
	le.PutUint64(want[16:], 0x2000)
	want[24] = 0xfe
	le.PutUint32(want[28:], 300)
	le.PutUint64(want[32:], math.Float64bits(2.5))
	want[40] = 0xf9
	le.PutUint16(want[42:], uint16(0x10000-300))
	le.PutUint64(want[48:], math.Float64bits(1.25))
	for i, v := range []float32{1, 2, 3, 4} {
		le.PutUint32(want[64+4*i:], math.Float32bits(v))
	}
	le.PutUint64(want[80:], 0x3000)
	le.PutUint64(want[88:], 0x4000)
	le.PutUint64(want[96:], 0x5000)
	le.PutUint64(want[104:], 0x6000)
	le.PutUint32(want[112:], 256) // l2 at 256: already 16-aligned
	// V5 block at 120.
	le.PutUint32(want[120:], 3) // block counts: 200/64
	le.PutUint32(want[124:], 1)
	le.PutUint32(want[128:], 1)
	le.PutUint16(want[132:], 64)
	le.PutUint16(want[134:], 1)
	le.PutUint16(want[136:], 1)
	le.PutUint16(want[138:], 8) // 200 mod 64
	le.PutUint64(want[160:], 5)
	le.PutUint16(want[184:], 1)
	le.PutUint64(want[224:], 0xdead0000)
	le.PutUint64(want[232:], 0xbeef0000)
	le.PutUint32(want[312:], 0x0002_0000)
	le.PutUint32(want[316:], 0x0001_0000)
	le.PutUint64(want[320:], 0xabc000)
	if !bytes.Equal(ka.Data, want) {
		for i := range want {
			if ka.Data[i] != want[i] {
				t.Errorf("byte %d = %#x, want %#x", i, ka.Data[i], want[i])
			}
		}
	}
	if ka.DynamicLDS != 256+32+8 || ka.GroupSegmentSize != 296 {
		t.Errorf("LDS: dynamic %d, group segment %d; want 296, 296", ka.DynamicLDS, ka.GroupSegmentSize)
	}
	if !l.Has(ValueKindHiddenDefaultQueue) || l.Has(ValueKindHiddenPrintfBuffer) {
		t.Errorf("Has: default queue %v, printf buffer %v", l.Has(ValueKindHiddenDefaultQueue), l.Has(ValueKindHiddenPrintfBuffer))
	}
}

// TestKernargV2MatchesV4 checks the V2 rule (each argument at the next
// multiple of its Align) against the offsets LLVM writes for the same
// source in V4 metadata.
func TestKernargV2MatchesV4(t *testing.T) {
	f2, err := Open("testdata/kernarg/kinds.gfx900.co2.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	if f2.Version() != V2 {
		t.Fatalf("version %v", f2.Version())
	}
	md2, err := f2.Metadata()
	if err != nil {
		t.Fatal(err)
	}
	gks := readGoldenKernels(t, "testdata/kernarg/kinds.gfx90a.co4.hsaco.notes.txt")
	if len(gks) != len(md2.Kernels) {
		t.Fatalf("%d V2 kernels, %d V4", len(md2.Kernels), len(gks))
	}
	for i, gk := range gks {
		k := &md2.Kernels[i]
		l, err := k.KernargLayout()
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if l.Size != gk.KernargSize || len(k.Args) != len(gk.Args) {
			t.Errorf("%s: V2 size %d, %d args; V4 %d, %d", k.Name, l.Size, len(k.Args), gk.KernargSize, len(gk.Args))
			continue
		}
		for j, g := range gk.Args {
			a := k.Args[j]
			if a.Offset != g.Offset || a.Size != g.Size || string(a.ValueKind) != g.Kind {
				t.Errorf("%s arg %d: V2 %s@%d/%d, V4 %s@%d/%d", k.Name, j, a.ValueKind, a.Offset, a.Size, g.Kind, g.Offset, g.Size)
			}
		}
		args, _ := fillArgs(l)
		b, err := l.Build(args, Launch{Grid: [3]uint32{64}, Group: [3]uint32{64}, Offset: [3]uint64{7, 8, 9}})
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		for _, s := range l.Hidden {
			if s.Kind == ValueKindHiddenGlobalOffsetY && leUint(b[s.Offset:s.Offset+8]) != 8 {
				t.Errorf("%s: global offset y = %d", k.Name, leUint(b[s.Offset:s.Offset+8]))
			}
		}
	}
}

func synthKernel(args ...Arg) *Kernel {
	var end uint64
	for _, a := range args {
		end = max(end, a.Offset+a.Size)
	}
	return &Kernel{Name: "k", Args: args, KernargSegmentSize: end, KernargSegmentAlign: 8}
}

func TestKernargErrors(t *testing.T) {
	k := synthKernel(
		Arg{Name: "p", ValueKind: ValueKindGlobalBuffer, Offset: 0, Size: 8},
		Arg{Name: "n", ValueKind: ValueKindByValue, Offset: 8, Size: 4},
		Arg{ValueKind: ValueKindHiddenGlobalOffsetX, Offset: 16, Size: 8},
	)
	l, err := k.KernargLayout()
	if err != nil {
		t.Fatal(err)
	}
	var ae *ArgError
	if _, err := l.Build([]any{uint64(1)}, Launch{}); !errors.Is(err, ErrArgCount) {
		t.Errorf("count: %v", err)
	}
	if _, err := l.Build([]any{uint64(1), float64(2)}, testLaunch); !errors.As(err, &ae) || ae.Index != 1 || ae.Name != "n" ||
		!strings.Contains(err.Error(), "float64 is 8 bytes, want 4") {
		t.Errorf("size: %v", err)
	}
	if _, err := l.Build([]any{"x", int32(2)}, testLaunch); !errors.As(err, &ae) || ae.Index != 0 || !strings.Contains(err.Error(), "got string") {
		t.Errorf("pointer type: %v", err)
	}
	if _, err := l.Build([]any{uint64(1), int(1 << 40)}, testLaunch); err == nil {
		t.Errorf("int overflow accepted")
	}
	b, err := l.Build([]any{uint64(1), -1}, Launch{Grid: [3]uint32{1}, Group: [3]uint32{1}})
	if err != nil || leUint(b[8:12]) != 0xffffffff {
		t.Errorf("int -1: %x, %v", b, err)
	}
	if _, err := l.Build([]any{uint64(1), int32(1)}, Launch{Grid: [3]uint32{0}, Group: [3]uint32{64}}); err == nil ||
		!strings.Contains(err.Error(), "dimension x") {
		t.Errorf("zero grid: %v", err)
	}
	if _, err := l.Build([]any{uint64(1), int32(1)}, Launch{Grid: [3]uint32{64, 2}, Group: [3]uint32{64, 1}, Dims: 1}); err == nil {
		t.Errorf("grid beyond Dims accepted")
	}

	// Unknown value kinds are ErrNotSupported, naming the kind.
	_, err = synthKernel(Arg{ValueKind: "hidden_frobnicator", Offset: 0, Size: 8}).KernargLayout()
	if !errors.Is(err, ErrNotSupported) || !strings.Contains(err.Error(), "hidden_frobnicator") {
		t.Errorf("unknown kind: %v", err)
	}
	// Metadata that cannot describe a segment is a FormatError.
	var fe *FormatError
	for name, kk := range map[string]*Kernel{
		"overlap":     synthKernel(Arg{ValueKind: ValueKindGlobalBuffer, Offset: 0, Size: 8}, Arg{ValueKind: ValueKindByValue, Offset: 4, Size: 4}),
		"misaligned":  synthKernel(Arg{ValueKind: ValueKindGlobalBuffer, Offset: 4, Size: 8}),
		"hidden size": synthKernel(Arg{ValueKind: ValueKindHiddenGridDims, Offset: 0, Size: 8}),
		"past end":    {Name: "k", KernargSegmentSize: 8, Args: []Arg{{ValueKind: ValueKindByValue, Offset: 4, Size: 8}}},
		"huge":        {Name: "k", KernargSegmentSize: 8, Args: []Arg{{ValueKind: ValueKindByValue, Offset: math.MaxUint64 - 2, Size: 8}}},
		"v2 align":    synthKernel(Arg{ValueKind: ValueKindByValue, Offset: 4, Size: 4, Align: 8}),
	} {
		if _, err := kk.KernargLayout(); !errors.As(err, &fe) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := (&Kernel{KernargSegmentSize: 1 << 40}).KernargLayout(); !errors.Is(err, ErrNotSupported) {
		t.Errorf("huge segment: %v", err)
	}
}

// TestKernargLDS covers dynamic LDS placement and hidden_dynamic_lds_size,
// which LLVM 15 never emits (the kernel is built in Go, offsets from
// INVENTORY §2.6.1 with the block at 16).
func TestKernargLDS(t *testing.T) {
	pa := uint64(64)
	k := synthKernel(
		Arg{ValueKind: ValueKindDynamicSharedPointer, Offset: 0, Size: 4},
		Arg{ValueKind: ValueKindDynamicSharedPointer, Offset: 4, Size: 4, PointeeAlign: &pa},
		Arg{ValueKind: ValueKindDynamicSharedPointer, Offset: 8, Size: 4},
		Arg{ValueKind: ValueKindHiddenDynamicLDSSize, Offset: 16 + 120, Size: 4},
	)
	k.GroupSegmentFixedSize = 10
	l, err := k.KernargLayout()
	if err != nil {
		t.Fatal(err)
	}
	ka, err := l.BuildDispatch([]any{LocalMem(3), LocalMem(100), uint32(0x400)}, Launch{Grid: [3]uint32{1}, Group: [3]uint32{1}, DynamicLDS: 7})
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	// 10 static bytes; buffer 0 at 10 (pointee_align 1), buffer 1 at 64,
	// then the caller's own address, then 7 bytes: 164+7 = 171 in all.
	if a, b, c := le.Uint32(ka.Data[0:]), le.Uint32(ka.Data[4:]), le.Uint32(ka.Data[8:]); a != 10 || b != 64 || c != 0x400 {
		t.Errorf("LDS addresses %d %d %#x", a, b, c)
	}
	if ka.GroupSegmentSize != 171 || ka.DynamicLDS != 161 || le.Uint32(ka.Data[136:]) != 161 {
		t.Errorf("group segment %d, dynamic %d, hidden_dynamic_lds_size %d", ka.GroupSegmentSize, ka.DynamicLDS, le.Uint32(ka.Data[136:]))
	}
	if _, err := l.Build([]any{LocalMem(math.MaxUint32), LocalMem(math.MaxUint32), LocalMem(1)}, Launch{Grid: [3]uint32{1}, Group: [3]uint32{1}}); err == nil {
		t.Errorf("4 GiB of LDS accepted")
	}
}

// TestKernargDims checks the dimension inference and that unused
// dimensions count as 1.
func TestKernargDims(t *testing.T) {
	var args []Arg
	for i, k := range []ValueKind{ValueKindHiddenBlockCountX, ValueKindHiddenBlockCountY, ValueKindHiddenBlockCountZ} {
		args = append(args, Arg{ValueKind: k, Offset: uint64(4 * i), Size: 4})
	}
	for i, k := range []ValueKind{ValueKindHiddenGroupSizeX, ValueKindHiddenGroupSizeY, ValueKindHiddenGroupSizeZ,
		ValueKindHiddenRemainderX, ValueKindHiddenRemainderY, ValueKindHiddenRemainderZ, ValueKindHiddenGridDims} {
		args = append(args, Arg{ValueKind: k, Offset: uint64(12 + 2*i), Size: 2})
	}
	l, err := synthKernel(args...).KernargLayout()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ln   Launch
		want [10]uint64
	}{
		{Launch{Grid: [3]uint32{100}, Group: [3]uint32{32}}, [10]uint64{3, 1, 1, 32, 1, 1, 4, 0, 0, 1}},
		{Launch{Grid: [3]uint32{100, 10}, Group: [3]uint32{32, 3}}, [10]uint64{3, 3, 1, 32, 3, 1, 4, 1, 0, 2}},
		{Launch{Grid: [3]uint32{16, 1, 1}, Group: [3]uint32{16, 1, 1}, Dims: 3}, [10]uint64{1, 1, 1, 16, 1, 1, 0, 0, 0, 3}},
		{Launch{Grid: [3]uint32{8, 8, 9}, Group: [3]uint32{8, 8, 4}}, [10]uint64{1, 1, 2, 8, 8, 4, 0, 0, 1, 3}},
	} {
		b, err := l.Build(nil, c.ln)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range l.Hidden {
			if got := leUint(b[s.Offset : s.Offset+s.Size]); got != c.want[i] {
				t.Errorf("%+v: %s = %d, want %d", c.ln, s.Kind, got, c.want[i])
			}
		}
	}
	// device-libs' __ockl_get_num_groups reads V5 kernargs as block_count
	// + (remainder != 0), and V4 dispatch packets as ceil(grid / group);
	// the two must agree for every launch.
	for _, grid := range []uint32{1, 63, 64, 65, 1000, 4096, 65535, 1 << 20, 1<<32 - 1} {
		for _, group := range []uint32{1, 3, 64, 256, 1024} {
			b, err := l.Build(nil, Launch{Grid: [3]uint32{grid}, Group: [3]uint32{group}})
			if err != nil {
				t.Fatal(err)
			}
			count, rem := binary.LittleEndian.Uint32(b[0:]), binary.LittleEndian.Uint16(b[18:])
			v5 := uint64(count)
			if rem != 0 {
				v5++
			}
			if v4 := (uint64(grid) + uint64(group) - 1) / uint64(group); v5 != v4 {
				t.Errorf("grid %d group %d: V5 groups %d, V4 %d", grid, group, v5, v4)
			}
		}
	}
	if _, err := l.Build(nil, Launch{Grid: [3]uint32{1 << 20}, Group: [3]uint32{1 << 17}}); err == nil ||
		!strings.Contains(err.Error(), "hidden_group_size_x") {
		t.Errorf("group size 131072 in 2 bytes: %v", err)
	}
}

// fuzzKinds are the value kinds a fuzzed argument may have: every known
// one plus an unknown spelling.
var fuzzKinds = func() []ValueKind {
	var ks []ValueKind
	for k := range valueKinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return append(ks, "hidden_unknown")
}()

// encodeFuzzKernel and decodeFuzzKernel are a compact form of the metadata
// KernargLayout reads: segment size, alignment and static LDS, then per
// argument its kind, offset, size, Align and .pointee_align. (The fuzzer
// does not go through DecodeMsgPack, which has its own fuzzer.)
func encodeFuzzKernel(k *Kernel) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(k.KernargSegmentSize))
	b = append(b, byte(k.KernargSegmentAlign))
	b = binary.LittleEndian.AppendUint32(b, uint32(k.GroupSegmentFixedSize))
	for _, a := range k.Args {
		ki := sort.Search(len(fuzzKinds)-1, func(i int) bool { return fuzzKinds[i] >= a.ValueKind })
		var pa byte
		if a.PointeeAlign != nil {
			pa = byte(*a.PointeeAlign)
		}
		b = append(b, byte(ki))
		b = binary.LittleEndian.AppendUint32(b, uint32(a.Offset))
		b = binary.LittleEndian.AppendUint16(b, uint16(a.Size))
		b = append(b, byte(a.Align), pa)
	}
	return b
}

func decodeFuzzKernel(b []byte) *Kernel {
	if len(b) < 9 {
		return nil
	}
	le := binary.LittleEndian
	k := &Kernel{Name: "fuzz", KernargSegmentSize: uint64(le.Uint32(b)), KernargSegmentAlign: uint64(b[4]),
		GroupSegmentFixedSize: uint64(le.Uint32(b[5:]))}
	for b = b[9:]; len(b) >= 9; b = b[9:] {
		a := Arg{ValueKind: fuzzKinds[int(b[0])%len(fuzzKinds)], Offset: uint64(le.Uint32(b[1:])),
			Size: uint64(le.Uint16(b[5:])), Align: uint64(b[7])}
		if b[8] != 0 {
			pa := uint64(b[8])
			a.PointeeAlign = &pa
		}
		k.Args = append(k.Args, a)
	}
	return k
}

// FuzzKernargMetadata feeds argument metadata to KernargLayout and Build:
// no panics; a layout that is accepted builds a segment of exactly its
// size with the explicit values where it put them; rejected metadata is a
// *FormatError or ErrNotSupported.
func FuzzKernargMetadata(f *testing.F) {
	for _, path := range []string{"testdata/kernarg/kinds.gfx803.co5.hsaco", "testdata/kernarg/kinds.gfx900.co2.hsaco",
		"testdata/kernels.gfx90a.co5.hsaco", "testdata/printf/printf.gfx90a.co5.hsaco"} {
		cf, err := Open(path)
		if err != nil {
			continue
		}
		md, err := cf.Metadata()
		if err != nil || md == nil {
			continue
		}
		for i := range md.Kernels {
			f.Add(encodeFuzzKernel(&md.Kernels[i]))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k := decodeFuzzKernel(data)
		if k == nil {
			return
		}
		l, err := k.KernargLayout()
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) && !errors.Is(err, ErrNotSupported) {
				t.Fatalf("layout error of type %T: %v", err, err)
			}
			return
		}
		if uint64(len(l.Explicit)+len(l.Hidden)) != uint64(len(k.Args)) {
			t.Fatalf("%d args, %d slots", len(k.Args), len(l.Explicit)+len(l.Hidden))
		}
		args, want := fillArgs(l)
		ka, err := l.BuildDispatch(args, testLaunch)
		if err != nil {
			// Only values that cannot fit are allowed to fail here: a
			// hidden 4-byte pointer above 4 GiB, LDS beyond 4 GiB.
			if !strings.Contains(err.Error(), "does not fit") && !strings.Contains(err.Error(), "LDS") {
				t.Fatalf("layout accepted but Build failed: %v", err)
			}
			return
		}
		if uint64(len(ka.Data)) != l.Size {
			t.Fatalf("built %d bytes, layout says %d", len(ka.Data), l.Size)
		}
		for j, s := range l.Explicit {
			if w, ok := want[j]; ok && !bytes.Equal(ka.Data[s.Offset:s.Offset+s.Size], w) {
				t.Fatalf("explicit %d not at %d", j, s.Offset)
			}
		}
	})
}

// ExampleKernargLayout_Build builds the kernarg segment of kernel "add"
// (V5: a, b, c, n, then the implicit block clang kept) for a 1000-item
// grid of 256-item groups.
func ExampleKernargLayout_Build() {
	f, err := Open("testdata/kernels.gfx90a.co5.hsaco")
	if err != nil {
		fmt.Println(err)
		return
	}
	md, _ := f.Metadata()
	k, _ := md.Kernel("add")
	l, err := k.KernargLayout()
	if err != nil {
		fmt.Println(err)
		return
	}
	seg, err := l.Build([]any{uint64(0x10000), uint64(0x20000), float32(2), int32(1000)},
		Launch{Grid: [3]uint32{1000, 1, 1}, Group: [3]uint32{256, 1, 1}})
	fmt.Println(len(seg), err)
	for _, s := range l.Hidden[:9:9] {
		fmt.Printf("%s@%d=%d ", s.Kind, s.Offset, leUint(seg[s.Offset:s.Offset+s.Size]))
	}
	fmt.Println()
	// Output:
	// 280 <nil>
	// hidden_block_count_x@24=3 hidden_block_count_y@28=1 hidden_block_count_z@32=1 hidden_group_size_x@36=256 hidden_group_size_y@38=1 hidden_group_size_z@40=1 hidden_remainder_x@42=232 hidden_remainder_y@44=0 hidden_remainder_z@46=0
}
