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
	"strconv"
	"strings"
	"syscall"
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
	var c *hsa.CodeObjectReader
	if ranged != 0 {
		// The loader extension's ranged reader: the code object is the
		// size bytes at offset (an application bundling code objects in
		// one file).
		if size == 0 || size > 1<<30 {
			return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "size %d", size))
		}
		data := make([]byte, int(size))
		n, err := syscall.Pread(int(fd), data, int64(offset))
		if err != nil || n != len(data) {
			return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_FILE, "reading %d bytes at %d of %s: %v", size, offset, fdName(int(fd)), err))
		}
		c, err = r.CodeObjectReaderFromMemory(data)
		if err != nil {
			return fail(op, err)
		}
	} else {
		// Read through a duplicate so that closing it leaves the
		// application's descriptor open.
		dup, err := syscall.Dup(int(fd))
		if err != nil {
			return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_FILE, "file descriptor %d: %v", int(fd), err))
		}
		f := os.NewFile(uintptr(dup), fdName(int(fd)))
		c, err = r.CodeObjectReaderFromFile(f)
		f.Close()
		if err != nil {
			return fail(op, err)
		}
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

// loadedCodeObject finds a loaded code object by handle.
func loadedCodeObject(r *hsa.Runtime, h uint64) (*hsa.Executable, *hsa.LoadedCodeObject) {
	for _, e := range r.Executables() {
		for _, l := range e.LoadedCodeObjects() {
			if l.Handle() == h {
				return e, l
			}
		}
	}
	return nil, nil
}

// Loaded code object attributes (hsa_ven_amd_loader_loaded_code_object_info_t).
const (
	lcoExecutable  = 1
	lcoKind        = 2
	lcoAgent       = 3
	lcoStorageType = 4
	lcoMemoryBase  = 5
	lcoMemorySize  = 6
	lcoFile        = 7
	lcoLoadDelta   = 8
	lcoLoadBase    = 9
	lcoLoadSize    = 10
	lcoURILength   = 11
	lcoURI         = 12

	storageNone   = 0
	storageFile   = 1
	storageMemory = 2
	kindAgent     = 1
)

// uriRange parses the offset and size of a code object URI's range
// specifier (INVENTORY §1.9).
func uriRange(uri string) (scheme string, offset, size uint64) {
	scheme, _, _ = strings.Cut(uri, "://")
	i := strings.IndexAny(uri, "#?")
	if i < 0 {
		return scheme, 0, 0
	}
	for _, kv := range strings.Split(uri[i+1:], "&") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			continue
		}
		switch k {
		case "offset":
			offset = n
		case "size":
			size = n
		}
	}
	return scheme, offset, size
}

//export rocpu_loaded_code_object_get_info
func rocpu_loaded_code_object_get_info(h C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_ven_amd_loader_loaded_code_object_get_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	e, l := loadedCodeObject(r, uint64(h))
	if l == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "no loaded code object %#x", uint64(h)))
	}
	if out == nil {
		return nullValue(op)
	}
	uri := l.URI()
	scheme, offset, size := uriRange(uri)
	var v any
	switch attr {
	case lcoExecutable:
		v = e.Handle()
	case lcoKind:
		v = uint32(kindAgent)
	case lcoAgent:
		v = l.Agent()
	case lcoStorageType:
		switch scheme {
		case "file":
			v = uint32(storageFile)
		case "memory":
			v = uint32(storageMemory)
		default:
			v = uint32(storageNone)
		}
	case lcoMemoryBase, lcoMemorySize:
		if scheme != "memory" {
			return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "%s is not stored in memory", uri))
		}
		if attr == lcoMemoryBase {
			v = offset
		} else {
			v = size
		}
	case lcoFile:
		// ROCr answers the descriptor the reader was made from; rocpu's
		// readers keep the bytes, not the descriptor.
		return fail(op, errNotSupported(op, "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE"))
	case lcoLoadDelta:
		v = int64(l.LoadDelta())
	case lcoLoadBase:
		v = l.LoadBase()
	case lcoLoadSize:
		v = l.LoadSize()
	case lcoURILength:
		v = uint32(len(uri))
	case lcoURI:
		return answer(op, out, uri, nil, -1)
	default:
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown loaded code object attribute %d", attr))
	}
	return answer(op, out, v, nil, 0)
}

// rocpu_query_executable finds the executable with a loaded code object
// containing addr (hsa_ven_amd_loader_query_executable; also
// query_host_address, for which host and device addresses are the same).
//
//export rocpu_query_executable
func rocpu_query_executable(addr unsafe.Pointer, out *C.uint64_t) status {
	const op = "hsa_ven_amd_loader_query_executable"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	a := uint64(uintptr(addr))
	for _, e := range r.Executables() {
		for _, l := range e.LoadedCodeObjects() {
			if a >= l.LoadBase() && a-l.LoadBase() < l.LoadSize() {
				if out != nil {
					*out = C.uint64_t(e.Handle())
				}
				return ok
			}
		}
	}
	return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is in no loaded code object", a))
}
