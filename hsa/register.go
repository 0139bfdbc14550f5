package hsa

import (
	"sort"
	"unsafe"

	"github.com/rocpu/rocpu/internal/vmem"
)

// registration is one hsa_memory_register range with its reference count.
type registration struct {
	ptr        unsafe.Pointer // the caller's pointer (base)
	base, size uint64
	refs       int
}

// Register is hsa_memory_register: the size bytes of host memory at host
// (which the caller keeps mapped) become visible to agents at their own
// address. Registrations are counted per (address, size) and may overlap
// or repeat (HIP registers buffers that share pages, and the same buffer
// twice): agents see the union of the registered ranges, and
// deregistering one range leaves what the others cover visible. A range
// inside a pool allocation is already visible and only counted.
func (r *Runtime) Register(host unsafe.Pointer, size uint64) error {
	const op = "Register"
	if err := r.check(op); err != nil {
		return err
	}
	base := uint64(uintptr(host))
	if host == nil || size == 0 || base+size < base {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer, size 0 or a wrapping range")
	}
	m := &r.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, g := range m.regs {
		if g.base == base && g.size == size {
			g.refs++
			return nil
		}
	}
	g := &registration{ptr: host, base: base, size: size, refs: 1}
	m.regs = append(m.regs, g)
	if err := r.syncRegistered(); err != nil {
		m.regs = m.regs[:len(m.regs)-1]
		r.syncRegistered()
		return wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "[%#x, +%d)", base, size)
	}
	return nil
}

// DeregisterRange is hsa_memory_deregister: it drops one reference to the
// registration of (host, size); size 0, or a size no registration at host
// has (ROCr ignores it), means the newest registration at host. Ranges no registration covers any more become invisible to agents.
// An address with no registration gets HSA_STATUS_ERROR_INVALID_ARGUMENT
// (the C ABI answers HSA_STATUS_SUCCESS there, as ROCr does).
func (r *Runtime) DeregisterRange(host unsafe.Pointer, size uint64) error {
	const op = "Deregister"
	if err := r.check(op); err != nil {
		return err
	}
	base := uint64(uintptr(host))
	m := &r.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	i := -1
	for j := len(m.regs) - 1; j >= 0; j-- {
		if g := m.regs[j]; g.base == base && (g.size == size || size == 0) {
			i = j
			break
		}
	}
	if i < 0 && size != 0 {
		// ROCr ignores the size; a mismatched one still names the
		// newest registration at host.
		for j := len(m.regs) - 1; j >= 0; j-- {
			if m.regs[j].base == base {
				i = j
				break
			}
		}
	}
	if i < 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not registered host memory", base)
	}
	if g := m.regs[i]; g.refs > 1 {
		g.refs--
		return nil
	}
	m.regs = append(m.regs[:i], m.regs[i+1:]...)
	if err := r.syncRegistered(); err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "%#x", base)
	}
	return nil
}

// Deregister is hsa_memory_deregister without a size: DeregisterRange(host, 0).
func (r *Runtime) Deregister(host unsafe.Pointer) error { return r.DeregisterRange(host, 0) }

// syncRegistered makes the vmem regions of registered host memory the
// union of m.regs, less what pool allocations already cover: one region
// (an allocation of type LOCKED) per maximal run. Unchanged runs keep
// their region; runs that change are replaced, and the deallocation
// callbacks of a replaced run move to the run that now covers its base, or
// run when nothing does. m.mu is held.
func (r *Runtime) syncRegistered() error {
	m := &r.mem
	type span struct {
		lo, hi uint64
		ptr    unsafe.Pointer // at lo
	}
	var spans []span
	for _, g := range m.regs {
		lo, hi := g.base, g.base+g.size
		// Memory inside a pool allocation is visible already.
		if reg, err := r.space.Lookup(lo, g.size); err == nil {
			if al, ok := reg.Owner.(*allocation); ok && al.pool != nil {
				continue
			}
		}
		spans = append(spans, span{lo, hi, g.ptr})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	var runs []span
	for _, s := range spans {
		if n := len(runs); n > 0 && s.lo <= runs[n-1].hi {
			runs[n-1].hi = max(runs[n-1].hi, s.hi)
			continue
		}
		runs = append(runs, s)
	}
	keep := map[uint64]*allocation{}
	var gone []*allocation
	for _, al := range m.segs {
		found := false
		for _, s := range runs {
			if s.lo == al.base && s.hi-s.lo == al.size {
				found = true
				break
			}
		}
		if found {
			keep[al.base] = al
		} else {
			gone = append(gone, al)
		}
	}
	for _, al := range gone {
		r.space.Unregister(al.base)
	}
	segs := make([]*allocation, 0, len(runs))
	var firstErr error
	for _, s := range runs {
		if al := keep[s.lo]; al != nil {
			segs = append(segs, al)
			continue
		}
		al := &allocation{base: s.lo, size: s.hi - s.lo, typ: HSA_EXT_POINTER_TYPE_LOCKED, locks: 1, registered: true}
		reg, err := r.space.Register(s.ptr, al.size, vmem.KindHost, al)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		al.region = reg
		segs = append(segs, al)
	}
	m.segs = segs
	for _, old := range gone {
		var to *allocation
		for _, al := range segs {
			if old.base-al.base < al.size {
				to = al
				break
			}
		}
		old.mu.Lock()
		cbs := old.dealloc
		old.dealloc = nil
		old.mu.Unlock()
		if to != nil {
			to.mu.Lock()
			to.dealloc = append(to.dealloc, cbs...)
			to.mu.Unlock()
			continue
		}
		for _, c := range cbs {
			m.mu.Unlock()
			c.fn(old.base)
			m.mu.Lock()
		}
	}
	return firstErr
}
