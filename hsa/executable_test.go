package hsa

import (
	"encoding/binary"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/internal/vmem"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadExe(t testing.TB, r *Runtime, a *Agent, name string) (*Executable, *LoadedCodeObject, error) {
	t.Helper()
	rd, err := r.CodeObjectReaderFromMemory(readTestdata(t, name))
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.CreateExecutable(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := e.LoadAgentCodeObject(a, rd, "")
	return e, l, err
}

func TestLoadCodeObject(t *testing.T) {
	r, devs := newRT(t)
	gpu := r.GPUAgents()[0]
	e, l, err := loadExe(t, r, gpu, "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	f := l.File()
	sym, err := e.Symbol("add.kd", gpu)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Symbol("add", gpu); err == nil {
		t.Error("kernel found by its bare name; ROCr names V3+ kernel symbols name.kd")
	}
	elfKD, _ := f.LookupSymbol("add.kd")
	obj, _ := sym.Info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT)
	if obj != elfKD.Value+l.LoadDelta() || obj.(uint64)%64 != 0 {
		t.Errorf("kernel object %#x, want descriptor at %#x+%#x", obj, elfKD.Value, l.LoadDelta())
	}
	// The descriptor in memory is the file's descriptor.
	kdBytes, _ := r.Space().Slice(obj.(uint64), 64)
	fileKD, _, _ := f.SymbolData(elfKD)
	if string(kdBytes) != string(fileKD) {
		t.Error("loaded descriptor differs from the file's")
	}
	k, ok := r.KernelAt(obj.(uint64))
	if !ok || k.Name != "add" || k.Agent != gpu {
		t.Fatalf("kernel not registered: %+v", k)
	}
	fn, _ := f.LookupSymbol("add")
	if k.Entry != fn.Value+l.LoadDelta() {
		t.Errorf("entry %#x, want %#x", k.Entry, fn.Value+l.LoadDelta())
	}
	kd, _ := codeobject.DecodeKernelDescriptor(fileKD)
	md, _ := f.Metadata()
	mk := md.Kernels[0]
	if mk.Name != "add" {
		mk = md.Kernels[1]
	}
	for attr, want := range map[SymbolInfo]any{
		HSA_EXECUTABLE_SYMBOL_INFO_TYPE:                             HSA_SYMBOL_KIND_KERNEL,
		HSA_EXECUTABLE_SYMBOL_INFO_NAME:                             "add.kd",
		HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:                      uint32(6),
		HSA_EXECUTABLE_SYMBOL_INFO_AGENT:                            gpu,
		HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:                          uint32(HSA_SYMBOL_LINKAGE_PROGRAM),
		HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:                    true,
		HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:      uint32(mk.KernargSegmentSize),
		HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT: uint32(mk.KernargSegmentAlign),
		HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:        kd.GroupSegmentFixedSize,
		HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:      kd.PrivateSegmentFixedSize,
		HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:         false,
	} {
		if v, err := sym.Info(attr); v != want || err != nil {
			t.Errorf("kernel symbol Info(%d) = %#v, %v; want %#v", attr, v, err, want)
		}
	}
	if mk.KernargSegmentSize < 12 || kd.KernargSize != uint32(mk.KernargSegmentSize) {
		t.Errorf("kernarg size: metadata %d descriptor %d", mk.KernargSegmentSize, kd.KernargSize)
	}
	_, err = sym.Info(HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)

	// Code is read-only to the device; data is writable.
	if _, err := r.Space().LookupFor(k.Entry, 4, vmem.AccessWrite); err == nil {
		t.Error("device may store to kernel code")
	}
	// The RELATIVE64 relocations of ptrs point at table and table+8.
	ptrs, _ := f.LookupSymbol("ptrs")
	table, _ := f.LookupSymbol("table")
	pb, err := r.Space().Slice(ptrs.Value+l.LoadDelta(), 16)
	if err != nil {
		t.Fatal(err)
	}
	if p0, p1 := binary.LittleEndian.Uint64(pb), binary.LittleEndian.Uint64(pb[8:]); p0 != table.Value+l.LoadDelta() || p1 != p0+8 {
		t.Errorf("relocated ptrs = %#x %#x, want %#x and +8", p0, p1, table.Value+l.LoadDelta())
	}
	// The program-scope variable.
	cv, err := e.Symbol("counter", gpu)
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := cv.Info(HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS)
	if b, err := r.Space().Slice(addr.(uint64), 4); err != nil || binary.LittleEndian.Uint32(b) != 5 {
		t.Errorf("counter at %#x: %v %v", addr, b, err)
	}
	if _, err := r.Space().LookupFor(addr.(uint64), 4, vmem.AccessAtomic); err != nil {
		t.Errorf("counter is not writable by the device: %v", err)
	}
	for attr, want := range map[SymbolInfo]any{
		HSA_EXECUTABLE_SYMBOL_INFO_TYPE:              HSA_SYMBOL_KIND_VARIABLE,
		HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:     uint32(4),
		HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST: false,
		HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:  uint32(HSA_VARIABLE_SEGMENT_GLOBAL),
	} {
		if v, err := cv.Info(attr); v != want || err != nil {
			t.Errorf("variable Info(%d) = %#v, %v; want %#v", attr, v, err, want)
		}
	}
	_, err = cv.Info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	syms, _ := e.Symbols(gpu)
	if len(syms) != 3 {
		names := []string{}
		for _, s := range syms {
			names = append(names, s.Name())
		}
		t.Errorf("agent symbols %v, want add.kd, empty.kd, counter", names)
	}
	if all, _ := e.AllSymbols(); len(all) != 3 {
		t.Errorf("AllSymbols: %d", len(all))
	}
	wantStatus(t, e.DefineProgramGlobal("pvar", 0x1234), HSA_STATUS_SUCCESS)
	if ps, _ := e.Symbols(nil); len(ps) != 1 || ps[0].Name() != "pvar" || ps[0].Address() != 0x1234 {
		t.Errorf("program symbols %v", ps)
	}
	if s, err := e.Symbol("pvar", gpu); err != nil || s.Address() != 0x1234 {
		t.Errorf("program variable by agent lookup: %v %v", s, err)
	}
	if got, err := r.ExecutableSymbol(sym.Handle()); got != sym || err != nil {
		t.Errorf("ExecutableSymbol(handle) %v %v", got, err)
	}
	if v, _ := e.Validate(); v != 0 {
		t.Errorf("Validate = %d", v)
	}

	// Dispatch the loaded kernel through a queue.
	q, _ := newQueue(t, r, 64)
	done, _ := r.CreateSignal(1, nil, 0)
	submitDispatch(q, k, 1, [3]uint16{64, 1, 1}, [3]uint32{64, 1, 1}, 0, 0, done.Handle())
	waitZero(t, done)
	if d := devs[0].all()[0]; d.Entry != k.Entry || d.Kernel != "add" || d.Program != k.Program {
		t.Errorf("dispatch %+v", d)
	}

	// Freeze and destroy.
	wantStatus(t, e.Freeze(""), HSA_STATUS_SUCCESS)
	wantStatus(t, e.Freeze(""), HSA_STATUS_ERROR_FROZEN_EXECUTABLE)
	rd, _ := r.CodeObjectReaderFromMemory(readTestdata(t, "kernels.gfx90a.co4.hsaco"))
	_, err = e.LoadAgentCodeObject(gpu, rd, "")
	wantStatus(t, err, HSA_STATUS_ERROR_FROZEN_EXECUTABLE)
	wantStatus(t, e.DefineProgramGlobal("x", 1), HSA_STATUS_ERROR_FROZEN_EXECUTABLE)
	if st, _ := e.Info(HSA_EXECUTABLE_INFO_STATE); st != uint32(HSA_EXECUTABLE_STATE_FROZEN) {
		t.Errorf("state %v", st)
	}
	wantStatus(t, e.Destroy(), HSA_STATUS_SUCCESS)
	if _, ok := r.KernelAt(k.Object); ok {
		t.Error("kernel still registered after destroy")
	}
	if r.Space().Find(k.Entry) != nil {
		t.Error("code still mapped after destroy")
	}
	_, err = r.ExecutableSymbol(sym.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL)
	_, err = r.Executable(e.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_EXECUTABLE)
	wantStatus(t, e.Destroy(), HSA_STATUS_ERROR_INVALID_EXECUTABLE)
}

func TestLoadExternalVariable(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	_, _, err := loadExe(t, r, gpu, "ext.gfx90a.co4.hsaco")
	wantStatus(t, err, HSA_STATUS_ERROR_VARIABLE_UNDEFINED)
	if !strings.Contains(err.Error(), "host_defined") {
		t.Errorf("error %q does not name the symbol", err)
	}
	v, _ := gpu.Pools()[0].Allocate(4, 0)
	rd, _ := r.CodeObjectReaderFromMemory(readTestdata(t, "ext.gfx90a.co4.hsaco"))
	e, _ := r.CreateExecutable(HSA_PROFILE_BASE, 0, "")
	wantStatus(t, e.DefineAgentGlobal(gpu, "host_defined", v), HSA_STATUS_SUCCESS)
	wantStatus(t, e.DefineAgentGlobal(gpu, "host_defined", v), HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED)
	l, err := e.LoadAgentCodeObject(gpu, rd, "")
	if err != nil {
		t.Fatal(err)
	}
	// The R_AMDGPU_ABS64 slot now holds the variable's address.
	relocs, _ := l.File().DynamicRelocs()
	if len(relocs) != 1 {
		t.Fatalf("%d relocations", len(relocs))
	}
	b, _ := r.Space().Slice(relocs[0].Offset+l.LoadDelta(), 8)
	if got := binary.LittleEndian.Uint64(b); got != v {
		t.Errorf("GOT slot %#x, want %#x", got, v)
	}
}

func TestLoadTargetSelection(t *testing.T) {
	r, _ := newRT(t, "gfx90a", "gfx906")
	g90a, g906 := r.GPUAgents()[0], r.GPUAgents()[1]
	_, _, err := loadExe(t, r, g90a, "kernels.gfx906.co4.hsaco")
	wantStatus(t, err, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS)
	if !strings.Contains(err.Error(), "gfx906") || !strings.Contains(err.Error(), "gfx90a") {
		t.Errorf("error %q does not name both targets", err)
	}
	for _, a := range []*Agent{g90a, g906} {
		_, l, err := loadExe(t, r, a, "kernels.bundle")
		if err != nil {
			t.Fatalf("bundle on %v: %v", a, err)
		}
		p, _ := l.File().Processor()
		if p != a.TargetID().Processor {
			t.Errorf("bundle on %v loaded the %v entry", a, p)
		}
		if !strings.Contains(l.URI(), "memory://") || !strings.Contains(l.URI(), a.Name()) {
			t.Errorf("URI %q", l.URI())
		}
	}
	_, _, err = loadExe(t, r, g90a, "kernels.cl")
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_CODE_OBJECT)
	_, _, err = loadExe(t, r, r.CPUAgent(), "kernels.gfx90a.co4.hsaco")
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_AGENT)
}

func TestLoadVersions(t *testing.T) {
	r, _ := newRT(t, "gfx90a", "gfx900:xnack+") // clang-15 marks V2 gfx900 objects xnack+
	_, l5, err := loadExe(t, r, r.GPUAgents()[0], "kernels.gfx90a.co5.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	if len(l5.Kernels()) != 2 {
		t.Errorf("V5: %d kernels", len(l5.Kernels()))
	}
	e2, l2, err := loadExe(t, r, r.GPUAgents()[1], "kernels.gfx900.co2.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	if len(l2.Kernels()) != 2 {
		t.Fatalf("V2: %d kernels", len(l2.Kernels()))
	}
	for _, k := range l2.Kernels() {
		if !k.Program.V2 || k.Entry <= k.Object || k.Object%64 != 0 {
			t.Errorf("V2 kernel %+v", k)
		}
	}
	if _, err := e2.Symbol("add", r.GPUAgents()[1]); err != nil {
		t.Errorf("V2 kernel symbol: %v", err)
	}
	// V3 uses the legacy target syntax: clang-15 marks gfx906 objects
	// xnack+ and sramecc+, and legacy settings match strictly.
	r3, _ := newRT(t, "gfx906:xnack-", "gfx906:xnack+")
	_, _, err = loadExe(t, r3, r3.GPUAgents()[0], "kernels.gfx906.co3.hsaco")
	wantStatus(t, err, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS)
	e3, l3, err := loadExe(t, r3, r3.GPUAgents()[1], "kernels.gfx906.co3.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	if len(l3.Kernels()) != 2 || l3.File().Version() != codeobject.V3 {
		t.Errorf("V3: %d kernels, version %v", len(l3.Kernels()), l3.File().Version())
	}
	if _, err := e3.Symbol("add.kd", r3.GPUAgents()[1]); err != nil {
		t.Errorf("V3 kernel symbol: %v", err)
	}
}

func TestReaders(t *testing.T) {
	r, _ := newRT(t)
	_, err := r.CodeObjectReaderFromMemory(nil)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	f, err := os.Open("testdata/kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := r.CodeObjectReaderFromFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.CodeObjectReader(rd.Handle()); got != rd || err != nil {
		t.Errorf("CodeObjectReader(handle) %v %v", got, err)
	}
	e, _ := r.CreateExecutable(HSA_PROFILE_BASE, 0, "")
	l, err := e.LoadAgentCodeObject(r.GPUAgents()[0], rd, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.URI(), "file://testdata/kernels.gfx90a.co4.hsaco#offset=0&size=") {
		t.Errorf("URI %q", l.URI())
	}
	wantStatus(t, rd.Destroy(), HSA_STATUS_SUCCESS)
	wantStatus(t, rd.Destroy(), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER)
	_, err = e.LoadAgentCodeObject(r.GPUAgents()[0], rd, "")
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER)
	_, err = r.CreateExecutable(7, 0, "")
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.CodeObjectReaderFromFile(nil)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_FILE)
}

func TestLoaderExtension(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	data := readTestdata(t, "kernels.gfx90a.co4.hsaco")
	rd, _ := r.CodeObjectReaderFromMemory(data)
	e, _ := r.CreateExecutable(HSA_PROFILE_BASE, 0, "")
	l, err := e.LoadAgentCodeObject(gpu, rd, "")
	if err != nil {
		t.Fatal(err)
	}
	k := l.Kernels()[0]
	if got, err := r.ExecutableAt(k.Entry); got != e || err != nil {
		t.Errorf("ExecutableAt(entry) = %v, %v", got, err)
	}
	_, err = r.ExecutableAt(0x1000)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	if h, err := r.HostAddress(k.Object); h != k.Object || err != nil {
		t.Errorf("HostAddress = %#x, %v", h, err)
	}
	_, err = r.HostAddress(0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	segs, _ := r.SegmentDescriptors()
	if len(segs) != 4 { // R, R E, RW (relro), RW (data)
		t.Errorf("%d segment descriptors, want 4", len(segs))
	}
	for _, s := range segs {
		if s.Executable != e || s.Agent != gpu || s.StorageType != HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY ||
			s.StorageSize != uint64(len(data)) || r.Space().Find(s.SegmentBase) == nil {
			t.Errorf("segment %+v", s)
		}
	}
	for attr, want := range map[LoadedCodeObjectInfo]any{
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:                      e,
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:                            uint32(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:                           gpu,
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:        uint32(HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE: uint64(len(data)),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:                      int64(l.LoadDelta()),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:                       l.LoadBase(),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:                       uint64(0x4000),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:                             l.URI(),
		HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:                      uint32(len(l.URI())),
	} {
		if v, err := l.Info(attr); v != want || err != nil {
			t.Errorf("Info(%d) = %#v, %v; want %#v", attr, v, err, want)
		}
	}
	_, err = l.Info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	if got, err := r.LoadedCodeObject(l.Handle()); got != l || err != nil {
		t.Errorf("LoadedCodeObject(handle) %v %v", got, err)
	}
	if len(r.Executables()) != 1 {
		t.Errorf("%d executables", len(r.Executables()))
	}
	// A file range reader.
	f, _ := os.Open("testdata/kernels.bundle")
	defer f.Close()
	_, err = r.CodeObjectReaderFromFileRange(f, 0, 1<<20)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_FILE)
	frd, err := r.CodeObjectReaderFromFileRange(f, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := r.CreateExecutable(HSA_PROFILE_BASE, 0, "")
	l2, err := e2.LoadAgentCodeObject(gpu, frd, "")
	if err != nil {
		t.Fatal(err)
	}
	if fd, err := l2.Info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE); err != nil || fd != int32(f.Fd()) {
		t.Errorf("file storage %v %v", fd, err)
	}
}

// invalidatingDevice records InvalidateCode calls.
type invalidatingDevice struct {
	fakeDevice
	mu     sync.Mutex
	ranges [][2]uint64
}

func (d *invalidatingDevice) InvalidateCode(addr, size uint64) {
	d.mu.Lock()
	d.ranges = append(d.ranges, [2]uint64{addr, size})
	d.mu.Unlock()
}

// TestUnloadInvalidatesCode: destroying an executable tells the device to
// forget decoded code of every unloaded segment.
func TestUnloadInvalidatesCode(t *testing.T) {
	dev := &invalidatingDevice{}
	r, err := New(Config{Stderr: io.Discard, NewDevice: func(DeviceConfig) (Device, error) { return dev, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e, l, err := loadExe(t, r, r.GPUAgents()[0], "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	entry := l.Kernels()[0].Entry
	e.Destroy()
	found := false
	for _, rg := range dev.ranges {
		found = found || rg[0] <= entry && entry < rg[0]+rg[1]
	}
	if len(dev.ranges) != 4 || !found {
		t.Errorf("invalidated %#x, want the 4 segments including the code at %#x", dev.ranges, entry)
	}
}

// TestLoadHIPExecutable: a HIP host executable's fat binary holds one code
// object per offload arch; the loader picks the agent's.
func TestLoadHIPExecutable(t *testing.T) {
	r, _ := newRT(t, "gfx90a", "gfx906", "gfx908")
	for i, a := range r.GPUAgents() {
		e, l, err := loadExe(t, r, a, "vadd.hipexe")
		if i == 2 {
			wantStatus(t, err, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS)
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		if p, _ := l.File().Processor(); p != a.TargetID().Processor {
			t.Errorf("%v loaded the %v code object", a, p)
		}
		s, err := e.Symbol("_Z4vaddPiPKii.kd", a)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := s.Info(HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE); n.(uint32) < 20 {
			t.Errorf("kernarg size %v", n)
		}
	}
}

// predecodingDevice records Predecode calls.
type predecodingDevice struct {
	fakeDevice
	mu     sync.Mutex
	ranges [][2]uint64
}

func (d *predecodingDevice) Predecode(addr, size uint64) error {
	d.mu.Lock()
	d.ranges = append(d.ranges, [2]uint64{addr, size})
	d.mu.Unlock()
	return nil
}

// TestLoadPredecodesKernels: loading hands each kernel's code range to a
// device that decodes ahead of time, starting at the kernel's entry.
func TestLoadPredecodesKernels(t *testing.T) {
	dev := &predecodingDevice{}
	r, err := New(Config{Stderr: io.Discard, NewDevice: func(DeviceConfig) (Device, error) { return dev, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e, l, err := loadExe(t, r, r.GPUAgents()[0], "kernels.gfx90a.co4.hsaco")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Destroy()
	ks := l.Kernels()
	if len(dev.ranges) != len(ks) || len(ks) == 0 {
		t.Fatalf("predecoded %#x for %d kernels", dev.ranges, len(ks))
	}
	for _, k := range ks {
		found := false
		for _, rg := range dev.ranges {
			found = found || rg[0] == k.Entry && rg[1] > 0
		}
		if !found {
			t.Errorf("kernel %s at %#x not predecoded (ranges %#x)", k.Name, k.Entry, dev.ranges)
		}
	}
	if err := l.PredecodeErr(); err != nil {
		t.Error(err)
	}
}
