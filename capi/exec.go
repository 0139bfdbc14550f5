package capi

/*
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/rocpu/rocpu/hsa"
)

// goString converts an optional C string ("" for NULL).
func goString(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// appFiles keeps the *os.File wrappers of application descriptors alive
// for good: a collected wrapper's finalizer would close the application's
// descriptor (or whatever file later reuses its number). The reader reports
// the descriptor back (CODE_OBJECT_STORAGE_FILE); the application closes it.
var (
	appFilesMu sync.Mutex
	appFiles   []*os.File
)

// appFile wraps the application's descriptor fd without taking it over.
func appFile(fd int) *os.File {
	f := os.NewFile(uintptr(fd), fdName(fd))
	appFilesMu.Lock()
	appFiles = append(appFiles, f)
	appFilesMu.Unlock()
	return f
}

// fdName returns the path behind a file descriptor, for the reader's URI.
func fdName(fd int) string {
	if p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err == nil {
		return p
	}
	return fmt.Sprintf("fd%d", fd)
}

//export rocpu_reader_from_file
func rocpu_reader_from_file(fd C.int, offset, size C.size_t, ranged C.int, out *C.uint64_t) status {
	const op = "hsa_code_object_reader_create_from_file"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL code_object_reader"))
	}
	if fd < 0 {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_FILE, "file descriptor %d", int(fd)))
	}
	f := appFile(int(fd))
	off, n := uint64(0), uint64(0)
	if ranged != 0 {
		if size == 0 {
			return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "size 0"))
		}
		off, n = uint64(offset), uint64(size)
	}
	c, err := r.CodeObjectReaderFromFileRange(f, off, n)
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(c.Handle())
	return ok
}

//export rocpu_reader_from_memory
func rocpu_reader_from_memory(p unsafe.Pointer, size C.size_t, out *C.uint64_t) status {
	const op = "hsa_code_object_reader_create_from_memory"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if p == nil || size == 0 || out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "code_object %p size %d reader %p", p, size, out))
	}
	c, err := r.CodeObjectReaderFromMemory(unsafe.Slice((*byte)(p), int(size)))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(c.Handle())
	return ok
}

//export rocpu_reader_destroy
func rocpu_reader_destroy(h C.uint64_t) status {
	const op = "hsa_code_object_reader_destroy"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	c, err := r.CodeObjectReader(uint64(h))
	if err != nil {
		return fail(op, err)
	}
	if err := c.Destroy(); err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_executable_create
func rocpu_executable_create(profile, rounding C.uint32_t, options *C.char, out *C.uint64_t) status {
	const op = "hsa_executable_create_alt"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL executable"))
	}
	e, err := r.CreateExecutable(uint32(profile), uint32(rounding), goString(options))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(e.Handle())
	return ok
}

func executable(op string, h C.uint64_t) (*hsa.Runtime, *hsa.Executable, error) {
	r, err := runtime(op)
	if err != nil {
		return nil, nil, err
	}
	e, err := r.Executable(uint64(h))
	return r, e, err
}

//export rocpu_executable_load
func rocpu_executable_load(exe, agent, reader C.uint64_t, options *C.char, out *C.uint64_t) status {
	const op = "hsa_executable_load_agent_code_object"
	r, e, err := executable(op, exe)
	if err != nil {
		return fail(op, err)
	}
	a, err := r.Agent(uint64(agent))
	if err != nil {
		return fail(op, err)
	}
	c, err := r.CodeObjectReader(uint64(reader))
	if err != nil {
		return fail(op, err)
	}
	l, err := e.LoadAgentCodeObject(a, c, goString(options))
	if err != nil {
		return fail(op, err)
	}
	if out != nil {
		*out = C.uint64_t(l.Handle())
	}
	return ok
}

// Executable operations without results (capi.h ROCPU_EXE_*).
const (
	exeFreeze  = 0
	exeDestroy = 1
)

//export rocpu_executable_op
func rocpu_executable_op(exe C.uint64_t, which C.int, options *C.char) status {
	op := "hsa_executable_freeze"
	if which == exeDestroy {
		op = "hsa_executable_destroy"
	}
	_, e, err := executable(op, exe)
	if err != nil {
		return fail(op, err)
	}
	if which == exeDestroy {
		err = e.Destroy()
	} else {
		err = e.Freeze(goString(options))
	}
	if err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_executable_validate
func rocpu_executable_validate(exe C.uint64_t, result *C.uint32_t) status {
	const op = "hsa_executable_validate"
	_, e, err := executable(op, exe)
	if err != nil {
		return fail(op, err)
	}
	if result == nil {
		return nullValue(op)
	}
	v, err := e.Validate()
	if err != nil {
		return fail(op, err)
	}
	*result = C.uint32_t(v)
	return ok
}

//export rocpu_executable_get_info
func rocpu_executable_get_info(exe C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_executable_get_info"
	_, e, err := executable(op, exe)
	if err != nil {
		return fail(op, err)
	}
	v, err := e.Info(hsa.ExecutableInfo(attr))
	return answer(op, out, v, err, 0)
}

// rocpu_executable_define defines a global variable: for every agent when
// useAgent is 0 (hsa_executable_global_variable_define), else for agent.
//
//export rocpu_executable_define
func rocpu_executable_define(exe, agent C.uint64_t, useAgent C.int, name *C.char, addr unsafe.Pointer) status {
	const op = "hsa_executable_global_variable_define"
	r, e, err := executable(op, exe)
	if err != nil {
		return fail(op, err)
	}
	if name == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL variable_name"))
	}
	if useAgent != 0 {
		a, err := r.Agent(uint64(agent))
		if err != nil {
			return fail(op, err)
		}
		err = e.DefineAgentGlobal(a, C.GoString(name), uint64(uintptr(addr)))
		if err != nil {
			return fail(op, err)
		}
		return ok
	}
	if err := e.DefineProgramGlobal(C.GoString(name), uint64(uintptr(addr))); err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_executable_symbol
func rocpu_executable_symbol(exe C.uint64_t, name *C.char, agent C.uint64_t, useAgent C.int, out *C.uint64_t) status {
	const op = "hsa_executable_get_symbol_by_name"
	r, e, err := executable(op, exe)
	if err != nil {
		return fail(op, err)
	}
	if name == nil || out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL symbol_name or symbol"))
	}
	var a *hsa.Agent
	if useAgent != 0 {
		if a, err = r.Agent(uint64(agent)); err != nil {
			return fail(op, err)
		}
	}
	s, err := e.Symbol(C.GoString(name), a)
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(s.Handle())
	return ok
}

//export rocpu_symbol_get_info
func rocpu_symbol_get_info(sym C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_executable_symbol_get_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	s, err := r.ExecutableSymbol(uint64(sym))
	if err != nil {
		return fail(op, err)
	}
	v, err := s.Info(hsa.SymbolInfo(attr))
	// Symbol and module names are exactly NAME_LENGTH bytes, no NUL.
	return answer(op, out, v, err, -1)
}

//export rocpu_loaded_code_object_get_info
func rocpu_loaded_code_object_get_info(h C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_ven_amd_loader_loaded_code_object_get_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	l, err := r.LoadedCodeObject(uint64(h))
	if err != nil {
		return fail(op, err)
	}
	v, err := l.Info(hsa.LoadedCodeObjectInfo(attr))
	// The URI is exactly URI_LENGTH bytes, no NUL.
	return answer(op, out, v, err, -1)
}

// rocpu_query_executable is hsa_ven_amd_loader_query_executable: the
// executable whose loaded code holds addr.
//
//export rocpu_query_executable
func rocpu_query_executable(addr unsafe.Pointer, out *C.uint64_t) status {
	const op = "hsa_ven_amd_loader_query_executable"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if addr == nil || out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL device_address or executable"))
	}
	e, err := r.ExecutableAt(uint64(uintptr(addr)))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(e.Handle())
	return ok
}

// rocpu_query_host_address is hsa_ven_amd_loader_query_host_address.
//
//export rocpu_query_host_address
func rocpu_query_host_address(addr unsafe.Pointer, out *unsafe.Pointer) status {
	const op = "hsa_ven_amd_loader_query_host_address"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if addr == nil || out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL device_address or host_address"))
	}
	h, err := r.HostAddress(uint64(uintptr(addr)))
	if err != nil {
		return fail(op, err)
	}
	*(*uintptr)(unsafe.Pointer(out)) = uintptr(h)
	return ok
}

// segmentDescriptor is hsa_ven_amd_loader_segment_descriptor_t.
type segmentDescriptor struct {
	Agent, Executable uint64
	StorageType       uint32
	_                 uint32
	StorageBase       uint64
	StorageSize       uint64
	StorageOffset     uint64
	SegmentBase       uint64
	SegmentSize       uint64
}

// rocpu_segment_descriptors is hsa_ven_amd_loader_query_segment_descriptors:
// with out NULL it reports the count; otherwise *n must be at least the
// count (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS otherwise, as in ROCr).
//
//export rocpu_segment_descriptors
func rocpu_segment_descriptors(out unsafe.Pointer, n *C.size_t) status {
	const op = "hsa_ven_amd_loader_query_segment_descriptors"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if n == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL num_segment_descriptors"))
	}
	ds, err := r.SegmentDescriptors()
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		*n = C.size_t(len(ds))
		return ok
	}
	if int(*n) < len(ds) {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "%d descriptors do not fit in %d", len(ds), *n))
	}
	dst := unsafe.Slice((*segmentDescriptor)(out), len(ds))
	for i, d := range ds {
		var ag, ex uint64
		if d.Agent != nil {
			ag = d.Agent.Handle()
		}
		if d.Executable != nil {
			ex = d.Executable.Handle()
		}
		dst[i] = segmentDescriptor{Agent: ag, Executable: ex, StorageType: d.StorageType, StorageBase: d.StorageBase,
			StorageSize: d.StorageSize, StorageOffset: d.StorageOffset, SegmentBase: d.SegmentBase, SegmentSize: d.SegmentSize}
	}
	*n = C.size_t(len(ds))
	return ok
}
