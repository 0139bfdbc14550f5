package capi

/*
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
*/
import "C"

import (
	"unsafe"

	"github.com/rocpu/rocpu/hsa"
)

//export rocpu_pool_allocate
func rocpu_pool_allocate(pool C.uint64_t, size C.size_t, flags C.uint32_t, out *unsafe.Pointer) status {
	const op = "hsa_amd_memory_pool_allocate"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	p, err := r.Pool(uint64(pool))
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL ptr"))
	}
	addr, err := p.Allocate(uint64(size), uint32(flags))
	if err != nil {
		return fail(op, err)
	}
	*(*uintptr)(unsafe.Pointer(out)) = uintptr(addr)
	return ok
}

//export rocpu_region_allocate
func rocpu_region_allocate(region C.uint64_t, size C.size_t, out *unsafe.Pointer) status {
	const op = "hsa_memory_allocate"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	p, err := r.Region(uint64(region))
	if err != nil {
		return fail(op, err)
	}
	if out == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL ptr"))
	}
	addr, err := p.Allocate(uint64(size), 0)
	if err != nil {
		return fail(op, err)
	}
	*(*uintptr)(unsafe.Pointer(out)) = uintptr(addr)
	return ok
}

//export rocpu_free
func rocpu_free(ptr unsafe.Pointer) status {
	const op = "hsa_amd_memory_pool_free"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if err := r.Free(uint64(uintptr(ptr))); err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_memory_fill
func rocpu_memory_fill(ptr unsafe.Pointer, value C.uint32_t, count C.size_t) status {
	const op = "hsa_amd_memory_fill"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if err := r.Fill(uint64(uintptr(ptr)), uint32(value), uint64(count)); err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_memory_check
func rocpu_memory_check(op *C.char) status {
	if _, err := runtime(C.GoString(op)); err != nil {
		return fail(C.GoString(op), err)
	}
	return ok
}

//export rocpu_memory_lock
func rocpu_memory_lock(host unsafe.Pointer, size C.size_t, agents *C.uint64_t, n C.int, pool C.uint64_t, usePool C.int, flags C.uint32_t, out *unsafe.Pointer) status {
	const op = "hsa_amd_memory_lock"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if host == nil || size == 0 || out == nil || n < 0 {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "host %p size %d agent_ptr %p num_agent %d", host, size, out, n))
	}
	ags, err := agentsOf(r, agents, int(n))
	if err != nil {
		return fail(op, err)
	}
	var addr uint64
	if usePool != 0 {
		p, err := r.Pool(uint64(pool))
		if err != nil {
			return fail(op, err)
		}
		addr, err = r.LockToPool(host, uint64(size), ags, p, uint32(flags))
		if err != nil {
			return fail(op, err)
		}
	} else if addr, err = r.Lock(host, uint64(size), ags); err != nil {
		return fail(op, err)
	}
	*(*uintptr)(unsafe.Pointer(out)) = uintptr(addr)
	return ok
}

//export rocpu_memory_unlock
func rocpu_memory_unlock(host unsafe.Pointer) status {
	const op = "hsa_amd_memory_unlock"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if err := r.Unlock(host); err != nil {
		return fail(op, err)
	}
	return ok
}

// rocpu_memory_register is hsa_memory_register. Registrations are
// reference counted and may overlap (hsa.Runtime.Register). As in ROCr, a
// size of 0 with a non-NULL address is an invalid argument and a NULL
// address registers nothing successfully.
//
//export rocpu_memory_register
func rocpu_memory_register(host unsafe.Pointer, size C.size_t) status {
	const op = "hsa_memory_register"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if host == nil {
		return ok
	}
	if size == 0 {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "size 0"))
	}
	if err := r.Register(host, uint64(size)); err != nil {
		return fail(op, err)
	}
	return ok
}

// rocpu_memory_deregister is hsa_memory_deregister: it drops one reference
// to the registration of (host, size). Like ROCr it succeeds for an
// address that is not registered (ROCPU_CAPI_TRACE shows it).
//
//export rocpu_memory_deregister
func rocpu_memory_deregister(host unsafe.Pointer, size C.size_t) status {
	const op = "hsa_memory_deregister"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if err := r.DeregisterRange(host, uint64(size)); err != nil {
		fail(op, err)
		return ok
	}
	return ok
}

//export rocpu_memory_assign_agent
func rocpu_memory_assign_agent(ptr unsafe.Pointer, agent C.uint64_t) status {
	const op = "hsa_memory_assign_agent"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	a, err := r.Agent(uint64(agent))
	if err != nil {
		return fail(op, err)
	}
	if err := r.AssignAgent(uint64(uintptr(ptr)), a); err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_allow_access
func rocpu_allow_access(n C.uint32_t, agents *C.uint64_t, ptr unsafe.Pointer) status {
	const op = "hsa_amd_agents_allow_access"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if n == 0 || agents == nil || ptr == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "num_agents %d agents %p ptr %p", n, agents, ptr))
	}
	ags, err := agentsOf(r, agents, int(n))
	if err != nil {
		return fail(op, err)
	}
	if err := r.AllowAccess(ags, uint64(uintptr(ptr))); err != nil {
		return fail(op, err)
	}
	return ok
}

// rocpu_pointer_info answers hsa_amd_pointer_info's fields; C fills the
// caller's structure (up to the size it declares) and its accessible list.
//
//export rocpu_pointer_info
func rocpu_pointer_info(ptr unsafe.Pointer, typ *C.uint32_t, agentBase, hostBase *C.uint64_t, size *C.size_t, userData, owner *C.uint64_t, flags *C.uint32_t, accessible *C.uint64_t, capacity C.uint32_t, n *C.uint32_t) status {
	const op = "hsa_amd_pointer_info"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	pi, err := r.PointerInfo(uint64(uintptr(ptr)))
	if err != nil {
		return fail(op, err)
	}
	*typ = C.uint32_t(pi.Type)
	*agentBase = C.uint64_t(pi.AgentBase)
	*hostBase = C.uint64_t(pi.HostBase)
	*size = C.size_t(pi.Size)
	*userData = C.uint64_t(pi.UserData)
	*owner = 0
	if pi.Owner != nil {
		*owner = C.uint64_t(pi.Owner.Handle())
	}
	*flags = C.uint32_t(pi.GlobalFlags)
	*n = C.uint32_t(len(pi.Accessible))
	if accessible != nil {
		dst := unsafe.Slice((*uint64)(unsafe.Pointer(accessible)), int(capacity))
		for i, a := range pi.Accessible {
			if i < len(dst) {
				dst[i] = a.Handle()
			}
		}
	}
	return ok
}

//export rocpu_pointer_set_userdata
func rocpu_pointer_set_userdata(ptr, data unsafe.Pointer) status {
	const op = "hsa_amd_pointer_info_set_userdata"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if err := r.SetPointerUserData(uint64(uintptr(ptr)), uint64(uintptr(data))); err != nil {
		return fail(op, err)
	}
	return ok
}

// signalsOf resolves a C array of n hsa_signal_t.
func signalsOf(r *hsa.Runtime, p *C.uint64_t, n int) ([]*hsa.Signal, error) {
	if n == 0 {
		return nil, nil
	}
	if p == nil {
		return nil, errf("signals", hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL signal list with %d signals", n)
	}
	hs := unsafe.Slice((*uint64)(unsafe.Pointer(p)), n)
	out := make([]*hsa.Signal, n)
	for i, h := range hs {
		s, err := r.Signal(h)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// optSignal resolves a completion signal; handle 0 means none.
func optSignal(r *hsa.Runtime, h uint64) (*hsa.Signal, error) {
	if h == 0 {
		return nil, nil
	}
	return r.Signal(h)
}

//export rocpu_async_copy
func rocpu_async_copy(dst unsafe.Pointer, dstAgent C.uint64_t, src unsafe.Pointer, srcAgent C.uint64_t, size C.size_t, ndeps C.uint32_t, deps *C.uint64_t, completion C.uint64_t) status {
	const op = "hsa_amd_memory_async_copy"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	da, err := r.Agent(uint64(dstAgent))
	if err != nil {
		return fail(op, err)
	}
	sa, err := r.Agent(uint64(srcAgent))
	if err != nil {
		return fail(op, err)
	}
	ds, err := signalsOf(r, deps, int(ndeps))
	if err != nil {
		return fail(op, err)
	}
	cs, err := optSignal(r, uint64(completion))
	if err != nil {
		return fail(op, err)
	}
	if dst == nil || src == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL dst or src"))
	}
	if err := r.AsyncCopy(uint64(uintptr(dst)), da, uint64(uintptr(src)), sa, uint64(size), ds, cs); err != nil {
		return fail(op, err)
	}
	return ok
}

//export rocpu_async_copy_rect
func rocpu_async_copy_rect(dst *C.uint64_t, dstOff *C.uint32_t, src *C.uint64_t, srcOff *C.uint32_t, rng *C.uint32_t, copyAgent C.uint64_t, dir C.uint32_t, ndeps C.uint32_t, deps *C.uint64_t, completion C.uint64_t) status {
	const op = "hsa_amd_memory_async_copy_rect"
	r, err := runtime(op)
	if err != nil {
		return fail(op, err)
	}
	if dst == nil || dstOff == nil || src == nil || srcOff == nil || rng == nil {
		return fail(op, errf(op, hsa.HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer argument"))
	}
	a, err := r.Agent(uint64(copyAgent))
	if err != nil {
		return fail(op, err)
	}
	ds, err := signalsOf(r, deps, int(ndeps))
	if err != nil {
		return fail(op, err)
	}
	cs, err := optSignal(r, uint64(completion))
	if err != nil {
		return fail(op, err)
	}
	// hsa_pitched_ptr_t is {base, pitch, slice}; hsa_dim3_t is {x, y, z}.
	pp := func(p *C.uint64_t) *hsa.PitchedPtr {
		w := unsafe.Slice((*uint64)(unsafe.Pointer(p)), 3)
		return &hsa.PitchedPtr{Base: w[0], Pitch: w[1], Slice: w[2]}
	}
	d3 := func(p *C.uint32_t) hsa.Dim3 {
		w := unsafe.Slice((*uint32)(unsafe.Pointer(p)), 3)
		return hsa.Dim3{X: w[0], Y: w[1], Z: w[2]}
	}
	if err := r.AsyncCopyRect(pp(dst), d3(dstOff), pp(src), d3(srcOff), d3(rng), a, uint32(dir), ds, cs); err != nil {
		return fail(op, err)
	}
	return ok
}
