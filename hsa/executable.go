package hsa

import (
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/vmem"
	"github.com/rocpu/rocpu/target"
)

// Handle tags of the loader's objects (see tagAgent).
const (
	tagExecutable = 0xA6
	tagReader     = 0xA7
	tagSymbol     = 0xA8
	tagLoaded     = 0xA9
)

// handleTable maps opaque handles to live objects; destroyed entries are
// nil, so their handles stay invalid.
type handleTable[T any] struct {
	mu    sync.Mutex
	items []*T
}

func (t *handleTable[T]) add(r *Runtime, tag byte, x *T) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.items = append(t.items, x)
	return r.handle(tag, len(t.items)-1)
}

func (t *handleTable[T]) get(r *Runtime, tag byte, h uint64) *T {
	i := r.index(tag, h)
	t.mu.Lock()
	defer t.mu.Unlock()
	if i < 0 || i >= len(t.items) {
		return nil
	}
	return t.items[i]
}

func (t *handleTable[T]) remove(r *Runtime, tag byte, h uint64) {
	i := r.index(tag, h)
	t.mu.Lock()
	defer t.mu.Unlock()
	if i >= 0 && i < len(t.items) {
		t.items[i] = nil
	}
}

// loaderState holds the loader's handle tables.
type loaderState struct {
	readers handleTable[CodeObjectReader]
	exes    handleTable[Executable]
	symbols handleTable[ExecutableSymbol]
	loaded  handleTable[LoadedCodeObject]
}

// CodeObjectReader is an hsa_code_object_reader_t: the bytes of a code
// object (or an offload bundle, or a HIP executable's fat binary) and
// where they came from.
type CodeObjectReader struct {
	rt     *Runtime
	handle uint64
	data   []byte
	uri    string
	// Where the bytes came from, for the AMD loader extension.
	storage    uint32 // HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_*
	memBase    uint64 // the caller's buffer (memory readers)
	fd         int32  // the file descriptor (file readers)
	fileOffset uint64
}

// CodeObjectReaderFromMemory is hsa_code_object_reader_create_from_memory.
// The bytes are copied.
func (r *Runtime) CodeObjectReaderFromMemory(data []byte) (*CodeObjectReader, error) {
	const op = "CodeObjectReaderFromMemory"
	if err := r.check(op); err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "empty code object")
	}
	c := &CodeObjectReader{rt: r, data: append([]byte(nil), data...), storage: HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY,
		memBase: uint64(uintptr(unsafe.Pointer(&data[0]))), fd: -1}
	c.uri = fmt.Sprintf("memory://%d#offset=%#x&size=%d", os.Getpid(), c.memBase, len(data))
	c.handle = r.ldr.readers.add(r, tagReader, c)
	return c, nil
}

// CodeObjectReaderFromFile is hsa_code_object_reader_create_from_file: the
// whole file is read.
func (r *Runtime) CodeObjectReaderFromFile(f *os.File) (*CodeObjectReader, error) {
	return r.CodeObjectReaderFromFileRange(f, 0, 0)
}

// CodeObjectReaderFromFileRange is
// hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size:
// size bytes at offset (size 0: to the end of the file).
func (r *Runtime) CodeObjectReaderFromFileRange(f *os.File, offset, size uint64) (*CodeObjectReader, error) {
	const op = "CodeObjectReaderFromFile"
	if err := r.check(op); err != nil {
		return nil, err
	}
	if f == nil {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_FILE, "nil file")
	}
	st, err := f.Stat()
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_FILE, err, "stat")
	}
	fsize := uint64(st.Size())
	if size == 0 && offset < fsize {
		size = fsize - offset
	}
	if size == 0 || offset+size > fsize || offset+size < offset || size > 1<<30 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_FILE, "%s has %d bytes; cannot read %d at offset %d", f.Name(), fsize, size, offset)
	}
	data := make([]byte, size)
	if _, err := f.ReadAt(data, int64(offset)); err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_FILE, err, "reading %s", f.Name())
	}
	c := &CodeObjectReader{rt: r, data: data, uri: fmt.Sprintf("file://%s#offset=%d&size=%d", f.Name(), offset, size),
		storage: HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE, fd: int32(f.Fd()), fileOffset: offset}
	c.handle = r.ldr.readers.add(r, tagReader, c)
	return c, nil
}

// CodeObjectReader returns the reader whose handle is h
// (HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER otherwise).
func (r *Runtime) CodeObjectReader(h uint64) (*CodeObjectReader, error) {
	if err := r.check("CodeObjectReader"); err != nil {
		return nil, err
	}
	if c := r.ldr.readers.get(r, tagReader, h); c != nil {
		return c, nil
	}
	return nil, errorf("CodeObjectReader", HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "no reader with handle %#x", h)
}

// Handle returns the opaque hsa_code_object_reader_t handle.
func (c *CodeObjectReader) Handle() uint64 { return c.handle }

// Destroy is hsa_code_object_reader_destroy.
func (c *CodeObjectReader) Destroy() error {
	const op = "CodeObjectReader.Destroy"
	if err := c.rt.check(op); err != nil {
		return err
	}
	if c.rt.ldr.readers.get(c.rt, tagReader, c.handle) != c {
		return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "reader already destroyed")
	}
	c.rt.ldr.readers.remove(c.rt, tagReader, c.handle)
	return nil
}

// Executable states (hsa_executable_state_t).
const (
	HSA_EXECUTABLE_STATE_UNFROZEN = 0
	HSA_EXECUTABLE_STATE_FROZEN   = 1
)

// ExecutableInfo is hsa_executable_info_t.
type ExecutableInfo uint32

// Executable attributes, with the Go type Executable.Info returns.
const (
	HSA_EXECUTABLE_INFO_PROFILE                     ExecutableInfo = 1 // uint32 (hsa_profile_t)
	HSA_EXECUTABLE_INFO_STATE                       ExecutableInfo = 2 // uint32
	HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE ExecutableInfo = 3 // uint32
)

// Executable is an hsa_executable_t: code objects loaded for agents,
// their symbols, and the global variables the application defines.
type Executable struct {
	rt       *Runtime
	handle   uint64
	profile  uint32
	rounding uint32

	mu        sync.Mutex
	frozen    bool
	destroyed bool
	objects   []*LoadedCodeObject
	symbols   []*ExecutableSymbol
	agentVars map[*Agent]map[string]uint64
	progVars  map[string]uint64
}

// CreateExecutable is hsa_executable_create_alt: profile is
// HSA_PROFILE_BASE or _FULL, rounding an hsa_default_float_rounding_mode_t.
// options are accepted and ignored.
func (r *Runtime) CreateExecutable(profile, rounding uint32, options string) (*Executable, error) {
	const op = "CreateExecutable"
	if err := r.check(op); err != nil {
		return nil, err
	}
	if profile > HSA_PROFILE_FULL {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "profile %d", profile)
	}
	if rounding > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "default float rounding mode %d", rounding)
	}
	e := &Executable{rt: r, profile: profile, rounding: rounding, agentVars: map[*Agent]map[string]uint64{}, progVars: map[string]uint64{}}
	e.handle = r.ldr.exes.add(r, tagExecutable, e)
	return e, nil
}

// Executable returns the executable whose handle is h
// (HSA_STATUS_ERROR_INVALID_EXECUTABLE otherwise).
func (r *Runtime) Executable(h uint64) (*Executable, error) {
	if err := r.check("Executable"); err != nil {
		return nil, err
	}
	if e := r.ldr.exes.get(r, tagExecutable, h); e != nil {
		return e, nil
	}
	return nil, errorf("Executable", HSA_STATUS_ERROR_INVALID_EXECUTABLE, "no executable with handle %#x", h)
}

// Executables returns the live executables (the AMD loader extension's
// hsa_ven_amd_loader_iterate_executables).
func (r *Runtime) Executables() []*Executable {
	r.ldr.exes.mu.Lock()
	defer r.ldr.exes.mu.Unlock()
	var out []*Executable
	for _, e := range r.ldr.exes.items {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// Handle returns the opaque hsa_executable_t handle.
func (e *Executable) Handle() uint64 { return e.handle }

func (e *Executable) check(op string, mustBeUnfrozen bool) error {
	if err := e.rt.check(op); err != nil {
		return err
	}
	if e.destroyed {
		return errorf(op, HSA_STATUS_ERROR_INVALID_EXECUTABLE, "executable destroyed")
	}
	if mustBeUnfrozen && e.frozen {
		return errorf(op, HSA_STATUS_ERROR_FROZEN_EXECUTABLE, "executable is frozen")
	}
	return nil
}

// Info returns an executable attribute (hsa_executable_get_info).
func (e *Executable) Info(attr ExecutableInfo) (any, error) {
	const op = "Executable.Info"
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check(op, false); err != nil {
		return nil, err
	}
	switch attr {
	case HSA_EXECUTABLE_INFO_PROFILE:
		return e.profile, nil
	case HSA_EXECUTABLE_INFO_STATE:
		if e.frozen {
			return uint32(HSA_EXECUTABLE_STATE_FROZEN), nil
		}
		return uint32(HSA_EXECUTABLE_STATE_UNFROZEN), nil
	case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
		return e.rounding, nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown executable attribute %d", attr)
}

// DefineAgentGlobal is hsa_executable_agent_global_variable_define (and
// hsa_executable_readonly_variable_define): code objects loaded later for
// agent resolve the external symbol name to addr.
func (e *Executable) DefineAgentGlobal(a *Agent, name string, addr uint64) error {
	const op = "Executable.DefineAgentGlobal"
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check(op, true); err != nil {
		return err
	}
	if a == nil || a.rt != e.rt {
		return errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent of another runtime")
	}
	if name == "" {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "empty variable name")
	}
	if _, dup := e.agentVars[a][name]; dup {
		return errorf(op, HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "%s is already defined for %v", name, a)
	}
	if _, dup := e.progVars[name]; dup {
		return errorf(op, HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "%s is already a program variable", name)
	}
	if e.agentVars[a] == nil {
		e.agentVars[a] = map[string]uint64{}
	}
	e.agentVars[a][name] = addr
	e.addSymbolLocked(&ExecutableSymbol{kind: HSA_SYMBOL_KIND_VARIABLE, name: name, agent: a, linkage: HSA_SYMBOL_LINKAGE_PROGRAM,
		address: addr, definition: false, allocation: HSA_VARIABLE_ALLOCATION_AGENT})
	return nil
}

// DefineProgramGlobal is hsa_executable_global_variable_define: a
// variable for every agent.
func (e *Executable) DefineProgramGlobal(name string, addr uint64) error {
	const op = "Executable.DefineProgramGlobal"
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check(op, true); err != nil {
		return err
	}
	if name == "" {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "empty variable name")
	}
	if _, dup := e.progVars[name]; dup {
		return errorf(op, HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "%s is already defined", name)
	}
	e.progVars[name] = addr
	e.addSymbolLocked(&ExecutableSymbol{kind: HSA_SYMBOL_KIND_VARIABLE, name: name, linkage: HSA_SYMBOL_LINKAGE_PROGRAM,
		address: addr, allocation: HSA_VARIABLE_ALLOCATION_PROGRAM})
	return nil
}

func (e *Executable) addSymbolLocked(s *ExecutableSymbol) {
	s.exe = e
	s.handle = e.rt.ldr.symbols.add(e.rt, tagSymbol, s)
	e.symbols = append(e.symbols, s)
}

// resolveLocked finds the address of an external symbol for agent a.
func (e *Executable) resolveLocked(a *Agent, name string) (uint64, bool) {
	if v, ok := e.agentVars[a][name]; ok {
		return v, true
	}
	if v, ok := e.progVars[name]; ok {
		return v, true
	}
	for _, s := range e.symbols {
		if s.definition && s.name == name && (s.agent == a || s.agent == nil) {
			return s.address, true
		}
	}
	return 0, false
}

// LoadedCodeObject is an hsa_loaded_code_object_t: one code object mapped
// into device memory for one agent.
type LoadedCodeObject struct {
	exe     *Executable
	handle  uint64
	agent   *Agent
	file    *codeobject.File
	mem     []byte // the mmap'd image
	delta   uint64 // load base minus ELF address 0
	loBase  uint64 // address of the lowest segment page
	regs    []uint64
	uri     string
	kernels []*Kernel
	reader  CodeObjectReader // a copy of the reader's storage facts
	segs    [][2]uint64      // loaded PT_LOAD segments: base, size
	// predecodeErrs records kernels whose code the device could not decode
	// at load time (they are decoded lazily instead).
	predecodeErrs []error
}

// PredecodeErr reports the kernels whose code the device could not decode
// at load time, or nil. Such code still runs: it is decoded when executed.
func (l *LoadedCodeObject) PredecodeErr() error { return errors.Join(l.predecodeErrs...) }

// Handle returns the opaque hsa_loaded_code_object_t handle.
func (l *LoadedCodeObject) Handle() uint64 { return l.handle }

// Agent returns the agent the code object was loaded for.
func (l *LoadedCodeObject) Agent() *Agent { return l.agent }

// File returns the parsed code object.
func (l *LoadedCodeObject) File() *codeobject.File { return l.file }

// LoadDelta is the difference between load addresses and ELF addresses.
func (l *LoadedCodeObject) LoadDelta() uint64 { return l.delta }

// LoadBase is the address of the lowest loaded byte.
func (l *LoadedCodeObject) LoadBase() uint64 { return l.loBase }

// LoadSize is the size of the mapped image.
func (l *LoadedCodeObject) LoadSize() uint64 { return uint64(len(l.mem)) }

// URI is the loaded code object's URI (INVENTORY §1.9).
func (l *LoadedCodeObject) URI() string { return l.uri }

// Kernels returns the kernels the code object defines.
func (l *LoadedCodeObject) Kernels() []*Kernel { return l.kernels }

// chooseCodeObject picks, from a plain code object, a bundle or a HIP
// executable, the code object that runs on agent a.
func chooseCodeObject(data []byte, a *Agent) (*codeobject.File, string, error) {
	objs, err := codeobject.OpenAny(data)
	if err != nil {
		return nil, "", wrapf("LoadCodeObject", HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "")
	}
	var why []string
	for _, o := range objs {
		if o.Err != nil || o.File == nil {
			why = append(why, fmt.Sprintf("%s: %v", o.Name, o.Err))
			continue
		}
		id, err := o.File.TargetID()
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", o.Name, err))
			continue
		}
		if err := target.Compatible(id, a.id); err != nil {
			why = append(why, err.Error())
			continue
		}
		return o.File, o.Name, nil
	}
	if len(objs) == 0 {
		return nil, "", errorf("LoadCodeObject", HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "no AMDGPU code object in the input")
	}
	return nil, "", errorf("LoadCodeObject", HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "no code object for agent %s: %s", a.id, strings.Join(why, "; "))
}

// LoadAgentCodeObject is hsa_executable_load_agent_code_object: it picks
// the reader's code object that runs on agent (target.Compatible; a bundle
// or HIP fat binary may hold several), maps its PT_LOAD segments into
// device memory (code and read-only data read-only to the device), applies
// its dynamic relocations (external symbols from the executable's defined
// variables and earlier code objects), and registers its kernels and
// variables as symbols.
func (e *Executable) LoadAgentCodeObject(a *Agent, c *CodeObjectReader, options string) (*LoadedCodeObject, error) {
	const op = "Executable.LoadAgentCodeObject"
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check(op, true); err != nil {
		return nil, err
	}
	r := e.rt
	if a == nil || a.rt != r || a.typ != HSA_DEVICE_TYPE_GPU {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "code objects load for GPU agents of this runtime")
	}
	if c == nil || r.ldr.readers.get(r, tagReader, c.handle) != c {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "invalid code object reader")
	}
	f, name, err := chooseCodeObject(c.data, a)
	if err != nil {
		return nil, err
	}
	l := &LoadedCodeObject{exe: e, agent: a, file: f, uri: c.uri, reader: CodeObjectReader{storage: c.storage,
		memBase: c.memBase, fd: c.fd, fileOffset: c.fileOffset, data: c.data}}
	if name != "" {
		l.uri += "#" + name
	}
	if err := e.mapAndRelocate(l); err != nil {
		l.unload()
		return nil, err
	}
	if err := e.registerSymbols(l); err != nil {
		l.unload()
		return nil, err
	}
	l.handle = r.ldr.loaded.add(r, tagLoaded, l)
	e.objects = append(e.objects, l)
	return l, nil
}

func (e *Executable) mapAndRelocate(l *LoadedCodeObject) error {
	const op = "Executable.LoadAgentCodeObject"
	f := l.file
	if f.Type != elf.ET_DYN {
		return notSupported(op, fmt.Sprintf("code object of ELF type %v (want ET_DYN, a linked code object)", f.Type))
	}
	segs := f.LoadSegments()
	if len(segs) == 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "no PT_LOAD segments")
	}
	lo, hi := ^uint64(0), uint64(0)
	for _, p := range segs {
		if p.Memsz < p.Filesz || p.Vaddr+p.Memsz < p.Vaddr || p.Vaddr+p.Memsz > 1<<40 {
			return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "segment %d: vaddr %#x filesz %#x memsz %#x", p.Index, p.Vaddr, p.Filesz, p.Memsz)
		}
		lo = min(lo, p.Vaddr&^(pageSize-1))
		hi = max(hi, p.Vaddr+p.Memsz)
	}
	size := (hi - lo + pageSize - 1) &^ (pageSize - 1)
	if size == 0 || size > 1<<32 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "image size %#x", size)
	}
	mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "mapping %d bytes", size)
	}
	l.mem = mem
	l.loBase = uint64(uintptr(unsafe.Pointer(unsafe.SliceData(mem))))
	l.delta = l.loBase - lo
	for _, p := range segs {
		b, err := f.ProgData(p)
		if err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "segment %d", p.Index)
		}
		copy(mem[p.Vaddr-lo:], b[:min(uint64(len(b)), p.Filesz)])
	}
	// Dynamic relocations.
	relocs, err := f.DynamicRelocs()
	if err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "dynamic relocations")
	}
	var dynsyms []codeobject.Symbol
	if len(relocs) > 0 {
		if dynsyms, err = f.DynamicSymbols(); err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "dynamic symbols")
		}
	}
	for _, rel := range relocs {
		n := uint64(rel.Type.FieldSize())
		if rel.Offset < lo || rel.Offset-lo+n > size || n == 0 && rel.Type != codeobject.R_AMDGPU_NONE {
			return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "%v at %#x is outside the image", rel.Type, rel.Offset)
		}
		var S uint64
		if rel.Sym != 0 {
			if int(rel.Sym) >= len(dynsyms) {
				return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "%v at %#x names symbol %d of %d", rel.Type, rel.Offset, rel.Sym, len(dynsyms))
			}
			sym := dynsyms[rel.Sym]
			if sym.Shndx != elf.SHN_UNDEF {
				S = sym.Value + l.delta
			} else if v, ok := e.resolveLocked(l.agent, sym.Name); ok {
				S = v
			} else {
				return errorf(op, HSA_STATUS_ERROR_VARIABLE_UNDEFINED, "symbol %q is undefined (define it with DefineAgentGlobal or DefineProgramGlobal before loading)", sym.Name)
			}
		}
		in := codeobject.RelocInputs{S: S, A: uint64(rel.Addend), P: rel.Offset + l.delta, B: l.delta}
		if err := rel.Type.Apply(mem[rel.Offset-lo:], in); err != nil {
			if errors.Is(err, codeobject.ErrNotSupported) {
				return notSupported(op, err.Error())
			}
			return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "relocation at %#x", rel.Offset)
		}
	}
	// Register each segment: code and read-only data are read-only to the
	// device; gaps between segments are not device memory at all.
	for _, p := range segs {
		if p.Memsz == 0 {
			continue
		}
		kind := vmem.KindCode
		if p.Flags&elf.PF_W != 0 {
			kind = vmem.KindData
		}
		reg, err := e.rt.space.Register(unsafe.Pointer(&mem[p.Vaddr-lo]), p.Memsz, kind, l)
		if err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "segment %d", p.Index)
		}
		l.regs = append(l.regs, reg.Base)
		l.segs = append(l.segs, [2]uint64{reg.Base, reg.Size})
	}
	return nil
}

const pageSize = 4096

// usesDynamicStack is kernel_code_properties bit 11 (V5+).
const propUsesDynamicStack = 1 << 11

func (e *Executable) registerSymbols(l *LoadedCodeObject) error {
	const op = "Executable.LoadAgentCodeObject"
	r := e.rt
	f := l.file
	kernels, err := f.Kernels()
	if err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "kernels")
	}
	var printf codeobject.PrintfFormats
	if md, err := f.Metadata(); err == nil && md != nil && len(md.Printf) > 0 {
		if printf, err = md.PrintfFormats(); err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "printf formats")
		}
	}
	var syms []*ExecutableSymbol
	kdNames := map[string]bool{}
	for i := range kernels {
		ki := &kernels[i]
		k := &Kernel{Name: ki.Name, Object: ki.DescriptorAddr + l.delta, Agent: l.agent, Entry: ki.EntryAddr + l.delta, KernargAlign: 16, Printf: printf}
		switch {
		case ki.Descriptor != nil:
			d := ki.Descriptor
			k.Program = emu.Program{Rsrc1: d.ComputePgmRsrc1, Rsrc2: d.ComputePgmRsrc2, Rsrc3: d.ComputePgmRsrc3,
				Properties: d.KernelCodeProperties, KernargPreload: d.KernargPreload,
				GroupSegmentFixedSize: d.GroupSegmentFixedSize, PrivateSegmentFixedSize: d.PrivateSegmentFixedSize}
			k.KernargSize, k.GroupSize, k.PrivateSize = d.KernargSize, d.GroupSegmentFixedSize, d.PrivateSegmentFixedSize
			k.DynamicCallStack = d.KernelCodeProperties&propUsesDynamicStack != 0
		case ki.KernelCode != nil:
			c := ki.KernelCode
			k.Program = emu.Program{Rsrc1: c.ComputePgmRsrc1, Rsrc2: c.ComputePgmRsrc2, Properties: uint16(c.KernelCodeProperties), V2: true,
				GroupSegmentFixedSize: c.WorkgroupGroupSegmentByteSize, PrivateSegmentFixedSize: c.WorkitemPrivateSegmentByteSize}
			k.KernargSize, k.GroupSize, k.PrivateSize = uint32(c.KernargSegmentByteSize), c.WorkgroupGroupSegmentByteSize, c.WorkitemPrivateSegmentByteSize
			if c.KernargSegmentAlignment < 16 {
				k.KernargAlign = max(16, uint32(1)<<c.KernargSegmentAlignment)
			}
		default:
			return errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel %s has no descriptor", ki.Name)
		}
		if m := ki.Meta; m != nil {
			k.Meta = m
			if m.KernargSegmentSize != 0 {
				k.KernargSize = uint32(m.KernargSegmentSize)
			}
			if m.KernargSegmentAlign != 0 {
				k.KernargAlign = uint32(m.KernargSegmentAlign)
			}
			if m.UsesDynamicStack != nil {
				k.DynamicCallStack = *m.UsesDynamicStack
			}
			if m.V2 != nil && m.V2.IsDynamicCallStack {
				k.DynamicCallStack = true
			}
		}
		if err := r.RegisterKernel(k); err != nil {
			return err
		}
		if pd, ok := l.agent.dev.(codePredecoder); ok && ki.CodeSize > 0 {
			// Decode once, at load time (DESIGN.md "Execution"). A range
			// the device cannot predecode is still decoded lazily when it
			// runs, so a failure here costs speed, never correctness.
			if err := pd.Predecode(ki.CodeAddr+l.delta, ki.CodeSize); err != nil {
				l.predecodeErrs = append(l.predecodeErrs, fmt.Errorf("predecode %s: %w", ki.Name, err))
			}
		}
		l.kernels = append(l.kernels, k)
		kdNames[ki.DescriptorSymbol.Name] = true
		syms = append(syms, &ExecutableSymbol{kind: HSA_SYMBOL_KIND_KERNEL, name: ki.DescriptorSymbol.Name, agent: l.agent,
			linkage: HSA_SYMBOL_LINKAGE_PROGRAM, address: k.Object, definition: true, kernel: k, loaded: l})
	}
	dyn, err := f.DynamicSymbols()
	if err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "dynamic symbols")
	}
	for _, s := range dyn {
		if s.Index == 0 || s.Shndx == elf.SHN_UNDEF || s.Type != codeobject.STT_OBJECT || kdNames[s.Name] || strings.HasSuffix(s.Name, ".kd") {
			continue
		}
		isConst := true
		if int(s.Shndx) < len(f.Sections) && f.Sections[s.Shndx].Flags&elf.SHF_WRITE != 0 {
			isConst = false
		}
		var align uint32
		if int(s.Shndx) < len(f.Sections) {
			align = uint32(min(f.Sections[s.Shndx].Addralign, 1<<31))
		}
		syms = append(syms, &ExecutableSymbol{kind: HSA_SYMBOL_KIND_VARIABLE, name: s.Name, agent: l.agent,
			linkage: HSA_SYMBOL_LINKAGE_PROGRAM, address: s.Value + l.delta, size: s.Size, align: align,
			isConst: isConst, definition: true, allocation: HSA_VARIABLE_ALLOCATION_AGENT, loaded: l})
	}
	for _, s := range syms {
		e.addSymbolLocked(s)
	}
	return nil
}

// codePredecoder is implemented by devices that decode code ahead of its
// first execution (emu.Device.Predecode).
type codePredecoder interface {
	Predecode(addr, size uint64) error
}

// codeInvalidator is implemented by devices that cache decoded code
// (emu.Device.InvalidateCode): unloading must drop it, since a later load
// may map other code at the same addresses.
type codeInvalidator interface {
	InvalidateCode(addr, size uint64)
}

// unload undoes a (possibly partial) load.
func (l *LoadedCodeObject) unload() {
	r := l.exe.rt
	for _, k := range l.kernels {
		r.UnregisterKernel(k.Object)
	}
	for _, a := range r.agents {
		if ci, ok := a.dev.(codeInvalidator); ok {
			for _, s := range l.segs {
				ci.InvalidateCode(s[0], s[1])
			}
		}
	}
	l.segs = nil
	for _, b := range l.regs {
		r.space.Unregister(b)
	}
	l.regs = nil
	if l.mem != nil {
		syscall.Munmap(l.mem)
		l.mem = nil
	}
}

// LoadedCodeObjects returns the executable's loaded code objects.
func (e *Executable) LoadedCodeObjects() []*LoadedCodeObject {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*LoadedCodeObject(nil), e.objects...)
}

// Freeze is hsa_executable_freeze: no more code objects or variable
// definitions; a second Freeze gets HSA_STATUS_ERROR_FROZEN_EXECUTABLE.
func (e *Executable) Freeze(options string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check("Executable.Freeze", true); err != nil {
		return err
	}
	e.frozen = true
	return nil
}

// Validate is hsa_executable_validate: 0 when every kernel's descriptor and
// entry lie in the loaded image, else 1.
func (e *Executable) Validate() (uint32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check("Executable.Validate", false); err != nil {
		return 0, err
	}
	for _, l := range e.objects {
		for _, k := range l.kernels {
			if e.rt.space.Find(k.Object) == nil || e.rt.space.Find(k.Entry) == nil {
				return 1, nil
			}
		}
	}
	return 0, nil
}

// Destroy is hsa_executable_destroy: kernels and symbols become invalid
// and the images are unmapped.
func (e *Executable) Destroy() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check("Executable.Destroy", false); err != nil {
		return err
	}
	e.releaseLocked()
	return nil
}

// releaseLocked unloads everything and invalidates the handles.
func (e *Executable) releaseLocked() {
	e.destroyed = true
	r := e.rt
	for _, l := range e.objects {
		l.unload()
		r.ldr.loaded.remove(r, tagLoaded, l.handle)
	}
	for _, s := range e.symbols {
		r.ldr.symbols.remove(r, tagSymbol, s.handle)
	}
	e.objects, e.symbols = nil, nil
	r.ldr.exes.remove(r, tagExecutable, e.handle)
}

// SymbolKind is hsa_symbol_kind_t.
type SymbolKind uint32

// Symbol kinds and linkages.
const (
	HSA_SYMBOL_KIND_VARIABLE          SymbolKind = 0
	HSA_SYMBOL_KIND_KERNEL            SymbolKind = 1
	HSA_SYMBOL_KIND_INDIRECT_FUNCTION SymbolKind = 2

	HSA_SYMBOL_LINKAGE_MODULE  = 0
	HSA_SYMBOL_LINKAGE_PROGRAM = 1

	HSA_VARIABLE_ALLOCATION_AGENT   = 0
	HSA_VARIABLE_ALLOCATION_PROGRAM = 1

	HSA_VARIABLE_SEGMENT_GLOBAL   = 0
	HSA_VARIABLE_SEGMENT_READONLY = 1
)

// SymbolInfo is hsa_executable_symbol_info_t.
type SymbolInfo uint32

// Executable symbol attributes, with the Go type ExecutableSymbol.Info
// returns.
const (
	HSA_EXECUTABLE_SYMBOL_INFO_TYPE                              SymbolInfo = 0  // SymbolKind
	HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH                       SymbolInfo = 1  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_NAME                              SymbolInfo = 2  // string
	HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH                SymbolInfo = 3  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME                       SymbolInfo = 4  // string
	HSA_EXECUTABLE_SYMBOL_INFO_AGENT                             SymbolInfo = 20 // *Agent
	HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS                  SymbolInfo = 21 // uint64
	HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE                           SymbolInfo = 5  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION                     SymbolInfo = 17 // bool
	HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION               SymbolInfo = 6  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT                  SymbolInfo = 7  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT                SymbolInfo = 8  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE                     SymbolInfo = 9  // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST                 SymbolInfo = 10 // bool
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT                     SymbolInfo = 22 // uint64
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE       SymbolInfo = 11 // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT  SymbolInfo = 12 // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE         SymbolInfo = 13 // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE       SymbolInfo = 14 // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK          SymbolInfo = 15 // bool
	HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION            SymbolInfo = 18 // uint32
	HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_OBJECT          SymbolInfo = 23 // uint64
	HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_CALL_CONVENTION SymbolInfo = 16 // uint32
)

// ExecutableSymbol is an hsa_executable_symbol_t: a kernel (named by its
// descriptor symbol, "name.kd" for V3+) or a variable.
type ExecutableSymbol struct {
	exe        *Executable
	handle     uint64
	kind       SymbolKind
	name       string
	agent      *Agent // nil for program variables
	linkage    uint32
	address    uint64 // kernel object or variable address
	size       uint64
	align      uint32
	isConst    bool
	definition bool
	allocation uint32
	kernel     *Kernel
	loaded     *LoadedCodeObject
}

// Handle returns the opaque hsa_executable_symbol_t handle.
func (s *ExecutableSymbol) Handle() uint64 { return s.handle }

// Name returns the symbol name.
func (s *ExecutableSymbol) Name() string { return s.name }

// Kind returns the symbol kind.
func (s *ExecutableSymbol) Kind() SymbolKind { return s.kind }

// Kernel returns a kernel symbol's kernel (nil for variables).
func (s *ExecutableSymbol) Kernel() *Kernel { return s.kernel }

// Address returns the kernel object or variable address.
func (s *ExecutableSymbol) Address() uint64 { return s.address }

// Symbol is hsa_executable_get_symbol_by_name: the symbol called name
// for agent (program variables match any agent; agent nil matches only
// them). HSA_STATUS_ERROR_INVALID_SYMBOL_NAME when there is none.
func (e *Executable) Symbol(name string, a *Agent) (*ExecutableSymbol, error) {
	const op = "Executable.Symbol"
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check(op, false); err != nil {
		return nil, err
	}
	for _, s := range e.symbols {
		if s.name == name && (s.agent == a || s.agent == nil) {
			return s, nil
		}
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "no symbol %q for %v", name, a)
}

// Symbols is hsa_executable_iterate_agent_symbols (agent non-nil: that
// agent's symbols) and hsa_executable_iterate_program_symbols (agent nil:
// program variables).
func (e *Executable) Symbols(a *Agent) ([]*ExecutableSymbol, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check("Executable.Symbols", false); err != nil {
		return nil, err
	}
	var out []*ExecutableSymbol
	for _, s := range e.symbols {
		if s.agent == a {
			out = append(out, s)
		}
	}
	return out, nil
}

// ExecutableSymbol returns the symbol whose handle is h
// (HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL otherwise).
func (r *Runtime) ExecutableSymbol(h uint64) (*ExecutableSymbol, error) {
	if err := r.check("ExecutableSymbol"); err != nil {
		return nil, err
	}
	if s := r.ldr.symbols.get(r, tagSymbol, h); s != nil {
		return s, nil
	}
	return nil, errorf("ExecutableSymbol", HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, "no symbol with handle %#x", h)
}

// Info returns a symbol attribute (hsa_executable_symbol_get_info).
// Kernel attributes of a variable, and variable attributes of a kernel,
// get HSA_STATUS_ERROR_INVALID_ARGUMENT.
func (s *ExecutableSymbol) Info(attr SymbolInfo) (any, error) {
	const op = "ExecutableSymbol.Info"
	if err := s.exe.rt.check(op); err != nil {
		return nil, err
	}
	kern := s.kind == HSA_SYMBOL_KIND_KERNEL
	wrong := func() (any, error) {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "attribute %d does not apply to %s symbol %s", attr, map[bool]string{true: "kernel", false: "variable"}[kern], s.name)
	}
	switch attr {
	case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
		return s.kind, nil
	case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
		return uint32(len(s.name)), nil
	case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
		return s.name, nil
	case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
		return uint32(0), nil
	case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
		return "", nil
	case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
		return s.agent, nil
	case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
		return s.linkage, nil
	case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
		return s.definition, nil
	}
	if kern {
		k := s.kernel
		switch attr {
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
			return k.Object, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
			return k.KernargSize, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
			return k.KernargAlign, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
			return k.GroupSize, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
			return k.PrivateSize, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
			return k.DynamicCallStack, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
			return uint32(0), nil
		}
		if attr <= 23 {
			return wrong()
		}
	} else {
		switch attr {
		case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
			return s.address, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
			return s.allocation, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
			if s.isConst {
				return uint32(HSA_VARIABLE_SEGMENT_READONLY), nil
			}
			return uint32(HSA_VARIABLE_SEGMENT_GLOBAL), nil
		case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
			return s.align, nil
		case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
			return uint32(s.size), nil
		case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
			return s.isConst, nil
		}
		if attr <= 23 {
			return wrong()
		}
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown symbol attribute %d", attr)
}

// AllSymbols is the deprecated hsa_executable_iterate_symbols: every
// symbol, agent and program.
func (e *Executable) AllSymbols() ([]*ExecutableSymbol, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.check("Executable.AllSymbols", false); err != nil {
		return nil, err
	}
	return append([]*ExecutableSymbol(nil), e.symbols...), nil
}
