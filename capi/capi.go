package capi

/*
#cgo CFLAGS: -O2 -Wall -Wno-deprecated-declarations -Werror=incompatible-pointer-types -Werror=implicit-function-declaration
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

extern int rocpu_wake_fd; // hsa_signal.c
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sync"
	"unsafe"

	"github.com/rocpu/rocpu/hsa"
)

// status is the hsa_status_t the Go exports return to C.
type status = C.int32_t

var (
	traceOnce sync.Once
	tracing   bool
)

// fail converts err to its hsa_status_t through hsa.StatusOf (the one
// mapping table) and, with ROCPU_CAPI_TRACE=1, reports the call to stderr.
func fail(op string, err error) status {
	st := hsa.StatusOf(err)
	traceOnce.Do(func() { tracing = os.Getenv("ROCPU_CAPI_TRACE") == "1" })
	if tracing && st != hsa.HSA_STATUS_SUCCESS && st != hsa.HSA_STATUS_INFO_BREAK {
		fmt.Fprintf(os.Stderr, "rocpu capi: %s: %v (%v)\n", op, err, st)
	}
	return status(st)
}

// ok is the success status.
const ok = status(hsa.HSA_STATUS_SUCCESS)

// errf builds an *hsa.Error for failures found in this package.
func errf(op string, st hsa.Status, format string, args ...any) error {
	return &hsa.Error{Op: op, Status: st, Msg: fmt.Sprintf(format, args...)}
}

// errNotSupported is the error of functions rocpu does not implement.
func errNotSupported(op, what string) error {
	return &hsa.Error{Op: op, Status: hsa.HSA_STATUS_ERROR, Msg: what + " is not supported by rocpu", Err: hsa.ErrNotSupported}
}

// runtime returns the process-wide runtime, or an
// HSA_STATUS_ERROR_NOT_INITIALIZED error before hsa_init and after the
// last hsa_shut_down.
func runtime(op string) (*hsa.Runtime, error) {
	if r := hsa.Default(); r != nil {
		return r, nil
	}
	return nil, errf(op, hsa.HSA_STATUS_ERROR_NOT_INITIALIZED, "hsa_init has not been called")
}

//export rocpu_init
func rocpu_init() status {
	cfg, err := hsa.ConfigFromEnv()
	if err != nil {
		return fail("hsa_init", err)
	}
	cfg.CDoorbells = true // HIP rings doorbells from C
	// Before any queue exists: C stores wake idle packet processors
	// through this eventfd (hsa.WakeFD).
	C.rocpu_wake_fd = C.int(hsa.WakeFD())
	r, err := hsa.Open(cfg)
	if err != nil {
		return fail("hsa_init", err)
	}
	trackRuntime(r)
	return ok
}

//export rocpu_shut_down
func rocpu_shut_down() status {
	r, err := runtime("hsa_shut_down")
	if err != nil {
		return fail("hsa_shut_down", err)
	}
	if err := r.Close(); err != nil {
		return fail("hsa_shut_down", err)
	}
	return ok
}

// statusStrings holds the C strings hsa_status_string hands out; they live
// as long as the process, as ROCr's do.
var (
	statusMu      sync.Mutex
	statusStrings = map[hsa.Status]*C.char{}
)

//export rocpu_status_string
func rocpu_status_string(st C.int32_t, out **C.char) status {
	if out == nil {
		return fail("hsa_status_string", errf("hsa_status_string", hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL status_string"))
	}
	s := hsa.Status(st)
	text, known := s.Description()
	if !known {
		return fail("hsa_status_string", errf("hsa_status_string", hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown status %#x", int32(st)))
	}
	statusMu.Lock()
	p := statusStrings[s]
	if p == nil {
		p = C.CString(text)
		statusStrings[s] = p
	}
	statusMu.Unlock()
	*out = p
	return ok
}

// Info values. put writes v, the Go value an hsa Info method returned, to
// the caller's buffer with the C layout of the attribute: scalars at their
// own width, fixed arrays element by element, strings as the attribute
// says (strSize > 0: a char[strSize] zero-padded field; strSize == 0: the
// bytes and a NUL; strSize < 0: the bytes only, as for symbol names whose
// length attribute excludes the NUL).
func put(out unsafe.Pointer, v any, strSize int) error {
	switch x := v.(type) {
	case string:
		n := len(x)
		switch {
		case strSize > 0:
			buf := unsafe.Slice((*byte)(out), strSize)
			clear(buf)
			if n > strSize-1 {
				n = strSize - 1
			}
			copy(buf, x[:n])
		case strSize == 0:
			buf := unsafe.Slice((*byte)(out), n+1)
			copy(buf, x)
			buf[n] = 0
		default:
			copy(unsafe.Slice((*byte)(out), n), x)
		}
		return nil
	case *hsa.ISA:
		var h uint64
		if x != nil {
			h = x.Handle()
		}
		*(*uint64)(out) = h
		return nil
	case *hsa.Executable:
		var h uint64
		if x != nil {
			h = x.Handle()
		}
		*(*uint64)(out) = h
		return nil
	case *hsa.Agent:
		var h uint64
		if x != nil {
			h = x.Handle()
		}
		*(*uint64)(out) = h
		return nil
	case hsa.Dim3:
		*(*hsa.Dim3)(out) = x
		return nil
	case hsa.HDPFlush:
		// hsa_amd_hdp_flush_t: two uint32_t pointers.
		*(*[2]uint64)(out) = [2]uint64{x.MemFlushCntl, x.RegFlushCntl}
		return nil
	case []hsa.LinkInfo:
		// hsa_amd_memory_pool_link_info_t, one per hop.
		type linkInfo struct {
			MinLatency, MaxLatency, MinBandwidth, MaxBandwidth uint32
			Atomic32, Atomic64, Coherent                       bool
			_                                                  byte
			LinkType, NUMADistance                             uint32
		}
		dst := unsafe.Slice((*linkInfo)(out), len(x))
		for i, l := range x {
			dst[i] = linkInfo{l.MinLatency, l.MaxLatency, l.MinBandwidth, l.MaxBandwidth,
				l.AtomicSupport32bit, l.AtomicSupport64bit, l.CoherentSupport, 0, l.LinkType, l.NUMADistance}
		}
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		*(*bool)(out) = rv.Bool()
	case reflect.Uint8:
		*(*uint8)(out) = uint8(rv.Uint())
	case reflect.Uint16:
		*(*uint16)(out) = uint16(rv.Uint())
	case reflect.Uint32:
		*(*uint32)(out) = uint32(rv.Uint())
	case reflect.Uint64, reflect.Uint, reflect.Uintptr:
		*(*uint64)(out) = rv.Uint()
	case reflect.Int8:
		*(*int8)(out) = int8(rv.Int())
	case reflect.Int16:
		*(*int16)(out) = int16(rv.Int())
	case reflect.Int32:
		*(*int32)(out) = int32(rv.Int())
	case reflect.Int64, reflect.Int:
		*(*int64)(out) = rv.Int()
	case reflect.Array:
		// Fixed arrays of scalars ([3]uint16, [4]uint32, [128]byte, [2]bool):
		// Go lays them out exactly as C does.
		size := rv.Type().Size()
		p := reflect.New(rv.Type())
		p.Elem().Set(rv)
		copy(unsafe.Slice((*byte)(out), size), unsafe.Slice((*byte)(p.UnsafePointer()), size))
	default:
		return errf("put", hsa.HSA_STATUS_ERROR, "rocpu capi: no C layout for %T", v)
	}
	return nil
}

// answer finishes a get_info call: it checks value, writes v and maps
// errors.
func answer(op string, out unsafe.Pointer, v any, err error, strSize int) status {
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL value"))
	}
	if err := put(out, v, strSize); err != nil {
		return fail(op, err)
	}
	return ok
}

func nullValue(op string) status {
	return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL value"))
}

//export rocpu_system_get_info
func rocpu_system_get_info(attr C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_system_get_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return nullValue(op)
	}
	v, err := r.SystemInfo(hsa.SystemInfo(attr))
	if err != nil {
		return fail(op, err)
	}
	if s, isStr := v.(string); isStr && hsa.SystemInfo(attr) == hsa.HSA_AMD_SYSTEM_INFO_BUILD_VERSION {
		// ROCr answers with a pointer to its build string.
		*(**C.char)(out) = cstring(s)
		return ok
	}
	return answer(op, out, v, nil, 0)
}

var (
	cstrMu sync.Mutex
	cstrs  = map[string]*C.char{}
)

// cstring returns a C copy of s that lives as long as the process.
func cstring(s string) *C.char {
	cstrMu.Lock()
	defer cstrMu.Unlock()
	p := cstrs[s]
	if p == nil {
		p = C.CString(s)
		cstrs[s] = p
	}
	return p
}

// agentStrSize is the char[] size of the string agent attributes.
func agentStrSize(a hsa.AgentInfo) int {
	if a == hsa.HSA_AMD_AGENT_INFO_UUID {
		return 21
	}
	return 64
}

// handleInfo is the body of the *_get_info exports whose handle is a table
// index: look the handle up in the runtime, then ask it for attribute attr.
func handleInfo[H any](op string, handle uint64, lookup func(*hsa.Runtime, uint64) (H, error),
	info func(H) (any, error), out unsafe.Pointer, strSize int) status {
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	h, err := lookup(r, handle)
	if err != nil {
		return fail(op, err)
	}
	v, err := info(h)
	return answer(op, out, v, err, strSize)
}

//export rocpu_agent_get_info
func rocpu_agent_get_info(agent C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	return handleInfo("hsa_agent_get_info", uint64(agent), (*hsa.Runtime).Agent,
		func(x *hsa.Agent) (any, error) { return x.Info(hsa.AgentInfo(attr)) }, out, agentStrSize(hsa.AgentInfo(attr)))
}

//export rocpu_isa_get_info
func rocpu_isa_get_info(isa C.uint64_t, attr, index C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_isa_get_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	i, err := r.ISA(uint64(isa))
	if err != nil {
		return fail(op, err)
	}
	v, err := i.Info(hsa.ISAInfo(attr), uint32(index))
	return answer(op, out, v, err, 0)
}

//export rocpu_isa_from_name
func rocpu_isa_from_name(name *C.char, out *C.uint64_t) status {
	const op = "hsa_isa_from_name"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if name == nil || out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL name or isa"))
	}
	i, err := r.ISAFromName(C.GoString(name))
	if err != nil {
		return fail(op, err)
	}
	*out = C.uint64_t(i.Handle())
	return ok
}

//export rocpu_isa_compatible
func rocpu_isa_compatible(code, agent C.uint64_t, result *C.bool) status {
	const op = "hsa_isa_compatible"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	ci, err := r.ISA(uint64(code))
	if err != nil {
		return fail(op, err)
	}
	ai, err := r.ISA(uint64(agent))
	if err != nil {
		return fail(op, err)
	}
	if result == nil {
		return nullValue(op)
	}
	*result = C.bool(ci.Compatible(ai))
	return ok
}

//export rocpu_cache_get_info
func rocpu_cache_get_info(cache C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	return handleInfo("hsa_cache_get_info", uint64(cache), (*hsa.Runtime).Cache,
		func(x *hsa.Cache) (any, error) { return x.Info(hsa.CacheInfo(attr)) }, out, 0)
}

//export rocpu_wavefront_get_info
func rocpu_wavefront_get_info(wf C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	return handleInfo("hsa_wavefront_get_info", uint64(wf), (*hsa.Runtime).Wavefront,
		func(x *hsa.Wavefront) (any, error) { return x.Info(hsa.WavefrontInfo(attr)) }, out, 0)
}

//export rocpu_region_get_info
func rocpu_region_get_info(region C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	return handleInfo("hsa_region_get_info", uint64(region), (*hsa.Runtime).Region,
		func(x *hsa.MemoryPool) (any, error) { return x.RegionInfo(hsa.RegionInfo(attr)) }, out, 0)
}

//export rocpu_pool_get_info
func rocpu_pool_get_info(pool C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	return handleInfo("hsa_amd_memory_pool_get_info", uint64(pool), (*hsa.Runtime).Pool,
		func(x *hsa.MemoryPool) (any, error) { return x.Info(hsa.PoolInfo(attr)) }, out, 0)
}

//export rocpu_agent_pool_get_info
func rocpu_agent_pool_get_info(agent, pool C.uint64_t, attr C.uint32_t, out unsafe.Pointer) status {
	const op = "hsa_amd_agent_memory_pool_get_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	a, err := r.Agent(uint64(agent))
	if err != nil {
		return fail(op, err)
	}
	p, err := r.Pool(uint64(pool))
	if err != nil {
		return fail(op, err)
	}
	v, err := a.PoolInfo(p, hsa.AgentPoolInfo(attr))
	return answer(op, out, v, err, 0)
}

//export rocpu_extension_supported
func rocpu_extension_supported(agent C.uint64_t, useAgent C.int, ext, major, minor C.uint16_t, result *C.bool) status {
	const op = "hsa_system_extension_supported"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if useAgent != 0 {
		if _, err := r.Agent(uint64(agent)); err != nil {
			return fail(op, err)
		}
	}
	if result == nil {
		return nullValue(op)
	}
	*result = C.bool(r.ExtensionSupported(uint16(ext), uint16(major), uint16(minor)))
	return ok
}

// Lists: C iterates, calling the application's callback, over handles Go
// copies into its array (callbacks then run without Go on the stack).

// List kinds (capi.h ROCPU_LIST_*).
const (
	listAgents            = 0
	listISAs              = 1 // of agent a
	listCaches            = 2 // of agent a
	listPools             = 3 // of agent a (also its regions)
	listWavefronts        = 4 // of ISA a
	listExecutables       = 5
	listAgentSymbols      = 6 // of executable a for agent b
	listProgramSymbols    = 7 // of executable a
	listLoadedCodeObjects = 8 // of executable a
)

func list(r *hsa.Runtime, kind int, a, b uint64) ([]uint64, error) {
	var hs []uint64
	switch kind {
	case listAgents:
		agents, err := r.Agents()
		if err != nil {
			return nil, err
		}
		for _, x := range agents {
			hs = append(hs, x.Handle())
		}
	case listISAs, listCaches, listPools:
		ag, err := r.Agent(a)
		if err != nil {
			return nil, err
		}
		switch kind {
		case listISAs:
			for _, x := range ag.ISAs() {
				hs = append(hs, x.Handle())
			}
		case listCaches:
			for _, x := range ag.Caches() {
				hs = append(hs, x.Handle())
			}
		default:
			for _, x := range ag.Pools() {
				hs = append(hs, x.Handle())
			}
		}
	case listWavefronts:
		isa, err := r.ISA(a)
		if err != nil {
			return nil, err
		}
		for _, x := range isa.Wavefronts() {
			hs = append(hs, x.Handle())
		}
	case listExecutables:
		for _, x := range r.Executables() {
			hs = append(hs, x.Handle())
		}
	case listAgentSymbols, listProgramSymbols, listLoadedCodeObjects:
		e, err := r.Executable(a)
		if err != nil {
			return nil, err
		}
		switch kind {
		case listLoadedCodeObjects:
			for _, x := range e.LoadedCodeObjects() {
				hs = append(hs, x.Handle())
			}
		default:
			var ag *hsa.Agent
			if kind == listAgentSymbols {
				if ag, err = r.Agent(b); err != nil {
					return nil, err
				}
			}
			syms, err := e.Symbols(ag)
			if err != nil {
				return nil, err
			}
			for _, x := range syms {
				hs = append(hs, x.Handle())
			}
		}
	default:
		return nil, errf("list", hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown list kind %d", kind)
	}
	return hs, nil
}

// rocpu_list copies up to cap handles of the list kind (of a, b) to out
// and stores the full count in n; C calls again with a larger array when
// *n > cap.
//
//export rocpu_list
func rocpu_list(kind C.int, a, b C.uint64_t, out *C.uint64_t, capacity C.size_t, n *C.size_t) status {
	op := listOps[int(kind)]
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	hs, err := list(r, int(kind), uint64(a), uint64(b))
	if err != nil {
		return fail(op, err)
	}
	*n = C.size_t(len(hs))
	if len(hs) > 0 && capacity > 0 {
		copy(unsafe.Slice((*uint64)(unsafe.Pointer(out)), int(capacity)), hs)
	}
	return ok
}

var listOps = map[int]string{
	listAgents:            "hsa_iterate_agents",
	listISAs:              "hsa_agent_iterate_isas",
	listCaches:            "hsa_agent_iterate_caches",
	listPools:             "hsa_amd_agent_iterate_memory_pools",
	listWavefronts:        "hsa_isa_iterate_wavefronts",
	listExecutables:       "hsa_ven_amd_loader_iterate_executables",
	listAgentSymbols:      "hsa_executable_iterate_agent_symbols",
	listProgramSymbols:    "hsa_executable_iterate_program_symbols",
	listLoadedCodeObjects: "hsa_ven_amd_loader_executable_iterate_loaded_code_objects",
}

// agentsOf resolves a C array of n hsa_agent_t.
func agentsOf(r *hsa.Runtime, p *C.uint64_t, n int) ([]*hsa.Agent, error) {
	if n == 0 {
		return nil, nil
	}
	if p == nil {
		return nil, errf("agents", hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL agent list with %d agents", n)
	}
	hs := unsafe.Slice((*uint64)(unsafe.Pointer(p)), n)
	out := make([]*hsa.Agent, n)
	for i, h := range hs {
		a, err := r.Agent(h)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// isStatus reports whether err carries st.
func isStatus(err error, st hsa.Status) bool { return errors.Is(err, st) }

//export rocpu_unsupported
func rocpu_unsupported(name *C.char) status {
	op := C.GoString(name)
	if _, err := runtime(op); err != nil {
		return fail(op, err)
	}
	return fail(op, errNotSupported(op, op))
}
