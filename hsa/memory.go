package hsa

import (
	"fmt"
	"sync"
	"syscall"
	"unsafe"

	"github.com/rocpu/rocpu/internal/vmem"
)

// Segment is hsa_amd_segment_t (hsa_ext_amd.h); for regions the same
// numbers are hsa_region_segment_t (GLOBAL 0, READONLY 1, PRIVATE 2,
// GROUP 3, KERNARG 4).
type Segment uint32

// Segments.
const (
	HSA_AMD_SEGMENT_GLOBAL     Segment = 0
	HSA_AMD_SEGMENT_READONLY   Segment = 1
	HSA_AMD_SEGMENT_PRIVATE    Segment = 2
	HSA_AMD_SEGMENT_GROUP      Segment = 3
	HSA_REGION_SEGMENT_KERNARG Segment = 4
)

// Pool and region global flags (hsa_amd_memory_pool_global_flag_t; the
// hsa_region_global_flag_t values are the same bits).
const (
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT   = 1
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED   = 2
	HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4
	HSA_REGION_GLOBAL_FLAG_KERNARG                 = 1
	HSA_REGION_GLOBAL_FLAG_FINE_GRAINED            = 2
	HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED          = 4
)

// PoolInfo is hsa_amd_memory_pool_info_t.
type PoolInfo uint32

// Memory pool attributes, with the Go type MemoryPool.Info returns.
const (
	HSA_AMD_MEMORY_POOL_INFO_SEGMENT                 PoolInfo = 0  // Segment
	HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS            PoolInfo = 1  // uint32
	HSA_AMD_MEMORY_POOL_INFO_SIZE                    PoolInfo = 2  // uint64 (size_t)
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED   PoolInfo = 5  // bool
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE   PoolInfo = 6  // uint64
	HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT PoolInfo = 7  // uint64
	HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL       PoolInfo = 15 // bool
	HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE          PoolInfo = 16 // uint64
)

// RegionInfo is hsa_region_info_t with hsa_amd_region_info_t.
type RegionInfo uint32

// Region attributes, with the Go type MemoryPool.RegionInfo returns.
const (
	HSA_REGION_INFO_SEGMENT                          RegionInfo = 0      // Segment (hsa_region_segment_t)
	HSA_REGION_INFO_GLOBAL_FLAGS                     RegionInfo = 1      // uint32
	HSA_REGION_INFO_SIZE                             RegionInfo = 2      // uint64
	HSA_REGION_INFO_ALLOC_MAX_SIZE                   RegionInfo = 4      // uint64
	HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE RegionInfo = 8      // uint32
	HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED            RegionInfo = 5      // bool
	HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE            RegionInfo = 6      // uint64
	HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT          RegionInfo = 7      // uint64
	HSA_AMD_REGION_INFO_HOST_ACCESSIBLE              RegionInfo = 0xA000 // bool
	HSA_AMD_REGION_INFO_BASE                         RegionInfo = 0xA001 // uint64 (void*)
	HSA_AMD_REGION_INFO_BUS_WIDTH                    RegionInfo = 0xA002 // uint32
	HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY          RegionInfo = 0xA003 // uint32
)

// AgentPoolInfo is hsa_amd_agent_memory_pool_info_t.
type AgentPoolInfo uint32

// Agent-pool attributes, with the Go type Agent.PoolInfo returns.
const (
	HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS        AgentPoolInfo = 0 // PoolAccess
	HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS AgentPoolInfo = 1 // uint32
	HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO     AgentPoolInfo = 2 // []LinkInfo (one per hop)
)

// PoolAccess is hsa_amd_memory_pool_access_t.
type PoolAccess uint32

// Pool access kinds.
const (
	HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED         PoolAccess = 0
	HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT    PoolAccess = 1
	HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT PoolAccess = 2
)

// Link types (hsa_amd_link_info_type_t).
const (
	HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT = 0
	HSA_AMD_LINK_INFO_TYPE_QPI            = 1
	HSA_AMD_LINK_INFO_TYPE_PCIE           = 2
	HSA_AMD_LINK_INFO_TYPE_INFINBAND      = 3
	HSA_AMD_LINK_INFO_TYPE_XGMI           = 4
)

// LinkInfo is hsa_amd_memory_pool_link_info_t.
type LinkInfo struct {
	MinLatency, MaxLatency, MinBandwidth, MaxBandwidth      uint32
	AtomicSupport32bit, AtomicSupport64bit, CoherentSupport bool
	LinkType                                                uint32
	NUMADistance                                            uint32
}

// AllocGranule is the allocation granule and alignment of every pool.
const AllocGranule = 4096

// MemoryPool is an AMD memory pool; the same object is the HSA region
// hsa_agent_iterate_regions visits (as in ROCr, hsa_region_t and
// hsa_amd_memory_pool_t handles are interchangeable).
type MemoryPool struct {
	rt      *Runtime
	handle  uint64
	owner   *Agent
	segment Segment
	flags   uint32
	size    uint64
}

func (r *Runtime) addPool(a *Agent, seg Segment, flags uint32, size uint64) {
	p := &MemoryPool{rt: r, handle: r.handle(tagPool, len(r.pools)), owner: a, segment: seg, flags: flags, size: size}
	r.pools = append(r.pools, p)
	a.pools = append(a.pools, p)
}

// Handle returns the opaque hsa_amd_memory_pool_t (and hsa_region_t)
// handle.
func (p *MemoryPool) Handle() uint64 { return p.handle }

// Owner returns the agent the pool belongs to.
func (p *MemoryPool) Owner() *Agent { return p.owner }

// Segment returns the pool's segment.
func (p *MemoryPool) Segment() Segment { return p.segment }

// Flags returns the pool's global flags.
func (p *MemoryPool) Flags() uint32 { return p.flags }

// AllocAllowed reports HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED.
func (p *MemoryPool) AllocAllowed() bool { return p.segment == HSA_AMD_SEGMENT_GLOBAL }

func (p *MemoryPool) String() string {
	return fmt.Sprintf("pool %#x of %v (segment %d flags %#x)", p.handle, p.owner, p.segment, p.flags)
}

// Pool returns the pool whose handle is h, or an error with
// HSA_STATUS_ERROR_INVALID_MEMORY_POOL.
func (r *Runtime) Pool(h uint64) (*MemoryPool, error) {
	return r.poolOr(h, "Pool", HSA_STATUS_ERROR_INVALID_MEMORY_POOL)
}

// Region returns the region (pool) whose handle is h, or an error with
// HSA_STATUS_ERROR_INVALID_REGION.
func (r *Runtime) Region(h uint64) (*MemoryPool, error) {
	return r.poolOr(h, "Region", HSA_STATUS_ERROR_INVALID_REGION)
}

func (r *Runtime) poolOr(h uint64, op string, st Status) (*MemoryPool, error) {
	if err := r.check(op); err != nil {
		return nil, err
	}
	i := r.index(tagPool, h)
	if i < 0 || i >= len(r.pools) {
		return nil, errorf(op, st, "no memory pool with handle %#x", h)
	}
	return r.pools[i], nil
}

// Info returns a pool attribute (hsa_amd_memory_pool_get_info).
func (p *MemoryPool) Info(attr PoolInfo) (any, error) {
	const op = "MemoryPool.Info"
	if err := p.rt.check(op); err != nil {
		return nil, err
	}
	switch attr {
	case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
		return p.segment, nil
	case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
		return p.flags, nil
	case HSA_AMD_MEMORY_POOL_INFO_SIZE:
		return p.size, nil
	case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
		return p.AllocAllowed(), nil
	case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
		if !p.AllocAllowed() {
			return uint64(0), nil
		}
		return uint64(AllocGranule), nil
	case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
		return p.owner.typ == HSA_DEVICE_TYPE_CPU, nil
	case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
		if !p.AllocAllowed() {
			return uint64(0), nil
		}
		return p.size, nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown memory pool attribute %#x", uint32(attr))
}

// RegionInfo returns a region attribute (hsa_region_get_info).
func (p *MemoryPool) RegionInfo(attr RegionInfo) (any, error) {
	const op = "MemoryPool.RegionInfo"
	if err := p.rt.check(op); err != nil {
		return nil, err
	}
	switch attr {
	case HSA_REGION_INFO_SEGMENT:
		return p.segment, nil
	case HSA_REGION_INFO_GLOBAL_FLAGS:
		return p.flags, nil
	case HSA_REGION_INFO_SIZE:
		return p.size, nil
	case HSA_REGION_INFO_ALLOC_MAX_SIZE:
		if !p.AllocAllowed() {
			return uint64(0), nil
		}
		return p.size, nil
	case HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE:
		return uint32(0), nil
	case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
		return p.AllocAllowed(), nil
	case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE, HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
		if !p.AllocAllowed() {
			return uint64(0), nil
		}
		return uint64(AllocGranule), nil
	case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE:
		// Every byte is host memory; the group segment is not.
		return p.segment == HSA_AMD_SEGMENT_GLOBAL, nil
	case HSA_AMD_REGION_INFO_BASE:
		if p.segment == HSA_AMD_SEGMENT_GROUP {
			return vmem.SharedApertureBase, nil
		}
		return uint64(0), nil
	case HSA_AMD_REGION_INFO_BUS_WIDTH:
		return p.owner.chip.memWidth, nil
	case HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY:
		return p.owner.chip.memClockMHz, nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown region attribute %#x", uint32(attr))
}

// PoolAccess returns how agent a may access pool p
// (HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS): system memory is accessible to
// every agent by default; a GPU's own global pool to itself; another
// agent's GPU memory after hsa_amd_agents_allow_access; a group pool to
// its own agent only.
func (a *Agent) PoolAccess(p *MemoryPool) PoolAccess {
	switch {
	case p.segment == HSA_AMD_SEGMENT_GROUP:
		if p.owner == a {
			return HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
		}
		return HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED
	case p.owner.typ == HSA_DEVICE_TYPE_CPU, p.owner == a:
		return HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
	}
	return HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT
}

// PoolInfo returns an agent-pool attribute
// (hsa_amd_agent_memory_pool_get_info).
func (a *Agent) PoolInfo(p *MemoryPool, attr AgentPoolInfo) (any, error) {
	const op = "Agent.PoolInfo"
	if err := a.rt.check(op); err != nil {
		return nil, err
	}
	if p == nil || p.rt != a.rt {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "pool of another runtime")
	}
	hops := uint32(0)
	if p.owner != a && a.PoolAccess(p) != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED {
		hops = 1
	}
	switch attr {
	case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
		return a.PoolAccess(p), nil
	case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
		return hops, nil
	case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO:
		if hops == 0 {
			return []LinkInfo{}, nil
		}
		return []LinkInfo{{AtomicSupport32bit: true, AtomicSupport64bit: true, CoherentSupport: true,
			LinkType: HSA_AMD_LINK_INFO_TYPE_PCIE}}, nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown agent memory pool attribute %#x", uint32(attr))
}

// PointerType is hsa_amd_pointer_type_t.
type PointerType uint32

// Pointer types.
const (
	HSA_EXT_POINTER_TYPE_UNKNOWN  PointerType = 0
	HSA_EXT_POINTER_TYPE_HSA      PointerType = 1
	HSA_EXT_POINTER_TYPE_LOCKED   PointerType = 2
	HSA_EXT_POINTER_TYPE_GRAPHICS PointerType = 3
	HSA_EXT_POINTER_TYPE_IPC      PointerType = 4
)

// allocation is one pool allocation or locked/registered host range; it is
// the vmem region's Owner.
type allocation struct {
	base, size uint64
	pool       *MemoryPool // nil for host memory
	typ        PointerType
	region     *vmem.Region
	mu         sync.Mutex
	userData   uint64
	access     map[*Agent]bool
	locks      int // Lock/Register references for host memory
	registered bool
	agent      uint64       // Lock: the agent address (see Lock); 0 means base
	reserve    []byte       // Lock: the PROT_NONE reservation agent lies in
	hostReg    *vmem.Region // Lock: the host range's own registration, if it did not overlap
	dealloc    []deallocCallback
}

// deallocCallback is one hsa_amd_register_deallocation_callback
// registration; key identifies it for deregistration (the C ABI uses the
// callback and user-data pointers).
type deallocCallback struct {
	key any
	fn  func(ptr uint64)
}

// RegisterDeallocationCallback is hsa_amd_register_deallocation_callback:
// fn(ptr) runs when the allocation containing ptr is freed or unlocked,
// before its memory goes. key must be comparable and identifies the
// registration for DeregisterDeallocationCallback.
func (r *Runtime) RegisterDeallocationCallback(ptr uint64, key any, fn func(ptr uint64)) error {
	const op = "RegisterDeallocationCallback"
	if err := r.check(op); err != nil {
		return err
	}
	if ptr == 0 || fn == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer or callback")
	}
	al := r.allocationAt(ptr)
	if al == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ALLOCATION, "%#x is not an agent-accessible allocation", ptr)
	}
	al.mu.Lock()
	al.dealloc = append(al.dealloc, deallocCallback{key, func(uint64) { fn(ptr) }})
	al.mu.Unlock()
	return nil
}

// DeregisterDeallocationCallback is
// hsa_amd_deregister_deallocation_callback.
func (r *Runtime) DeregisterDeallocationCallback(ptr uint64, key any) error {
	const op = "DeregisterDeallocationCallback"
	if err := r.check(op); err != nil {
		return err
	}
	al := r.allocationAt(ptr)
	if al == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ALLOCATION, "%#x is not an agent-accessible allocation", ptr)
	}
	al.mu.Lock()
	defer al.mu.Unlock()
	for i, d := range al.dealloc {
		if d.key == key {
			al.dealloc = append(al.dealloc[:i], al.dealloc[i+1:]...)
			return nil
		}
	}
	return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "no such deallocation callback for %#x", ptr)
}

// runDealloc runs and clears al's deallocation callbacks (no lock held).
func (al *allocation) runDealloc() {
	al.mu.Lock()
	cbs := al.dealloc
	al.dealloc = nil
	al.mu.Unlock()
	for _, c := range cbs {
		c.fn(al.base)
	}
}

func (al *allocation) String() string {
	if al.pool != nil {
		return fmt.Sprintf("allocation of %d bytes from pool %#x", al.size, al.pool.handle)
	}
	return fmt.Sprintf("locked host memory of %d bytes", al.size)
}

type memoryState struct {
	mu     sync.Mutex
	allocs map[uint64]*allocation // by base
	// locked holds Lock's ranges by host base, newest last: locks may
	// overlap each other (ROCr counts page pins), so they live here
	// rather than in allocs.
	locked map[uint64][]*allocation
	// regs are hsa_memory_register's ranges, segs the vmem regions that
	// make their union visible (register.go).
	regs []*registration
	segs []*allocation
}

// agentAddr is the address agents use for al.
func (al *allocation) agentAddr() uint64 {
	if al.agent != 0 {
		return al.agent
	}
	return al.base
}

func (m *memoryState) init(*Runtime) error {
	m.allocs = map[uint64]*allocation{}
	m.locked = map[uint64][]*allocation{}
	return nil
}

// Allocate is hsa_amd_memory_pool_allocate (and hsa_memory_allocate on a
// region): size bytes rounded up to the 4 KiB granule, 4 KiB aligned,
// zeroed, from an mmap'd arena. flags must be 0.
func (p *MemoryPool) Allocate(size uint64, flags uint32) (uint64, error) {
	const op = "MemoryPool.Allocate"
	if err := p.rt.check(op); err != nil {
		return 0, err
	}
	if size == 0 {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "size is 0")
	}
	if flags != 0 {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "flags %#x must be 0", flags)
	}
	if !p.AllocAllowed() {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ALLOCATION, "%v does not allow runtime allocation", p)
	}
	if size > p.size {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ALLOCATION, "size %d exceeds the pool's maximum %d", size, p.size)
	}
	n := (size + AllocGranule - 1) &^ (AllocGranule - 1)
	kind := vmem.KindPool
	if p.flags&HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT != 0 {
		kind = vmem.KindKernarg
	}
	al := &allocation{size: n, pool: p, typ: HSA_EXT_POINTER_TYPE_HSA}
	reg, err := p.rt.space.Alloc(n, AllocGranule, kind, al)
	if err != nil {
		return 0, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "%d bytes", n)
	}
	al.base, al.region = reg.Base, reg
	m := &p.rt.mem
	m.mu.Lock()
	m.allocs[al.base] = al
	m.mu.Unlock()
	return al.base, nil
}

// Free is hsa_amd_memory_pool_free and hsa_memory_free: ptr 0 is a no-op;
// an address that is not the base of a live pool allocation gets
// HSA_STATUS_ERROR_INVALID_ALLOCATION.
func (r *Runtime) Free(ptr uint64) error {
	const op = "Free"
	if err := r.check(op); err != nil {
		return err
	}
	if ptr == 0 {
		return nil
	}
	m := &r.mem
	m.mu.Lock()
	al := m.allocs[ptr]
	if al == nil || al.pool == nil {
		m.mu.Unlock()
		return errorf(op, HSA_STATUS_ERROR_INVALID_ALLOCATION, "%#x is not the base of a pool allocation", ptr)
	}
	delete(m.allocs, ptr)
	m.mu.Unlock()
	al.runDealloc()
	if err := r.space.Free(ptr); err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_ALLOCATION, err, "%#x", ptr)
	}
	return nil
}

// allocationAt returns the allocation (pool or host) containing addr.
func (r *Runtime) allocationAt(addr uint64) *allocation {
	if reg := r.space.Find(addr); reg != nil {
		al, _ := reg.Owner.(*allocation)
		return al
	}
	// A host address of locked memory whose host range overlapped another
	// registration: search the locks.
	m := &r.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, st := range m.locked {
		for _, al := range st {
			if addr-al.base < al.size {
				return al
			}
		}
	}
	return nil
}

// AllowAccess is hsa_amd_agents_allow_access: agents may access the
// allocation at ptr (its base or any address in it). Every agent shares one
// address space, so this records the grant (for PointerInfo) and checks
// the arguments.
func (r *Runtime) AllowAccess(agents []*Agent, ptr uint64) error {
	const op = "AllowAccess"
	if err := r.check(op); err != nil {
		return err
	}
	if len(agents) == 0 || ptr == 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "no agents or NULL pointer")
	}
	for _, a := range agents {
		if a == nil || a.rt != r {
			return errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent of another runtime")
		}
	}
	al := r.allocationAt(ptr)
	if al == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not in an allocation", ptr)
	}
	al.mu.Lock()
	if al.access == nil {
		al.access = map[*Agent]bool{}
	}
	for _, a := range agents {
		al.access[a] = true
	}
	al.mu.Unlock()
	return nil
}

// AssignAgent is hsa_memory_assign_agent: a no-op on a valid pointer.
func (r *Runtime) AssignAgent(ptr uint64, a *Agent) error {
	const op = "AssignAgent"
	if err := r.check(op); err != nil {
		return err
	}
	if a == nil || a.rt != r {
		return errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent of another runtime")
	}
	if r.space.Find(ptr) == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not device-visible memory", ptr)
	}
	return nil
}

// bytes returns the n bytes at addr, which must lie in one region.
func (r *Runtime) bytes(op, what string, addr, n uint64) ([]byte, error) {
	if addr == 0 {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%s is NULL", what)
	}
	b, err := r.space.Slice(addr, n)
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "%s [%#x, +%d) is not inside one device-visible allocation", what, addr, n)
	}
	return b, nil
}

// Copy is hsa_memory_copy: size bytes from src to dst, both inside
// device-visible memory (pool allocations, locked or registered host
// memory). The C ABI copies between unregistered host pointers itself.
func (r *Runtime) Copy(dst, src, size uint64) error {
	const op = "Copy"
	if err := r.check(op); err != nil {
		return err
	}
	if size == 0 {
		if dst == 0 || src == 0 {
			return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer")
		}
		return nil
	}
	d, err := r.bytes(op, "dst", dst, size)
	if err != nil {
		return err
	}
	s, err := r.bytes(op, "src", src, size)
	if err != nil {
		return err
	}
	copy(d, s)
	return nil
}

// Fill is hsa_amd_memory_fill: count 32-bit words of value at ptr, which
// must be 4-byte aligned.
func (r *Runtime) Fill(ptr uint64, value uint32, count uint64) error {
	const op = "Fill"
	if err := r.check(op); err != nil {
		return err
	}
	if ptr&3 != 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not 4-byte aligned", ptr)
	}
	if count == 0 {
		if ptr == 0 {
			return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer")
		}
		return nil
	}
	if count > 1<<60 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "count %d too large", count)
	}
	b, err := r.bytes(op, "ptr", ptr, count*4)
	if err != nil {
		return err
	}
	w := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), count)
	for i := range w {
		w[i] = value
	}
	return nil
}

// Lock is hsa_amd_memory_lock: it makes the size bytes of host memory at
// host (which the caller keeps mapped until Unlock) visible to agents and
// returns the address agents use. As on a discrete GPU, that agent address
// differs from host: it lies in a PROT_NONE reservation of the same page
// offset whose vmem region (vmem.Space.RegisterAt) points at the host
// bytes, so every lock has its own agent range and locks may overlap each
// other (HIP locks a stack buffer on a page it locked already). HIP's
// hipHostUnregister removes the host and agent addresses from its map one
// after the other and aborts if they are equal. The host range is also
// registered at its own address when it overlaps nothing, so kernels given
// the host pointer work too. Locking the same host address again with no
// larger size counts a reference to the newest lock there; a range inside
// a pool allocation is already visible and is returned as is.
func (r *Runtime) Lock(host unsafe.Pointer, size uint64, agents []*Agent) (uint64, error) {
	return r.lock("Lock", host, size, agents)
}

func (r *Runtime) lock(op string, host unsafe.Pointer, size uint64, agents []*Agent) (uint64, error) {
	if err := r.check(op); err != nil {
		return 0, err
	}
	if host == nil || size == 0 {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "NULL pointer or size 0")
	}
	base := uint64(uintptr(host))
	if base+size < base {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "[%#x, +%d) wraps", base, size)
	}
	for _, a := range agents {
		if a == nil || a.rt != r {
			return 0, errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent of another runtime")
		}
	}
	m := &r.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	if reg, err := r.space.Lookup(base, size); err == nil {
		if al, ok := reg.Owner.(*allocation); ok && al.pool != nil {
			return base, nil
		}
	}
	if st := m.locked[base]; len(st) > 0 {
		if top := st[len(st)-1]; size <= top.size {
			top.locks++
			return top.agent, nil
		}
	}
	const page = 4096
	off := base & (page - 1)
	n := (off + size + page - 1) &^ (page - 1)
	if n > 1<<47 {
		return 0, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "size %d too large", size)
	}
	res, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
	if err != nil {
		return 0, wrapf(op, HSA_STATUS_ERROR_OUT_OF_RESOURCES, err, "reserving %d bytes for the agent address", n)
	}
	agent := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(res)))) + off
	al := &allocation{base: base, size: size, typ: HSA_EXT_POINTER_TYPE_LOCKED, locks: 1, agent: agent, reserve: res}
	reg, err := r.space.RegisterAt(agent, host, size, vmem.KindHost, al)
	if err != nil {
		syscall.Munmap(res)
		return 0, wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "[%#x, +%d) at %#x", base, size, agent)
	}
	al.region = reg
	if hr, err := r.space.Register(host, size, vmem.KindHost, al); err == nil {
		al.hostReg = hr
	}
	m.locked[base] = append(m.locked[base], al)
	return agent, nil
}

// Unlock is hsa_amd_memory_unlock (and hsa_memory_deregister): it drops
// one reference to the host range locked at host; the last one makes it
// invisible to agents again. An address that is not locked gets
// HSA_STATUS_ERROR_INVALID_ARGUMENT.
func (r *Runtime) Unlock(host unsafe.Pointer) error {
	const op = "Unlock"
	if err := r.check(op); err != nil {
		return err
	}
	base := uint64(uintptr(host))
	m := &r.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	if st := m.locked[base]; len(st) > 0 {
		al := st[len(st)-1]
		if al.locks--; al.locks > 0 {
			return nil
		}
		if len(st) == 1 {
			delete(m.locked, base)
		} else {
			m.locked[base] = st[:len(st)-1]
		}
		m.mu.Unlock()
		al.runDealloc()
		m.mu.Lock()
		var err error
		if al.hostReg != nil {
			err = r.space.Unregister(base)
		}
		if e := r.space.Unregister(al.agent); err == nil {
			err = e
		}
		syscall.Munmap(al.reserve)
		if err != nil {
			return wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "%#x", base)
		}
		return nil
	}
	al := m.allocs[base]
	if al == nil || al.pool != nil {
		// Pool memory locked through Lock needs no unlock.
		if al != nil {
			return nil
		}
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not locked host memory", base)
	}
	al.locks--
	if al.locks > 0 {
		return nil
	}
	delete(m.allocs, base)
	m.mu.Unlock()
	al.runDealloc()
	m.mu.Lock()
	if err := r.space.Unregister(base); err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, err, "%#x", base)
	}
	return nil
}

// PointerInfo is hsa_amd_pointer_info_t.
type PointerInfo struct {
	Type        PointerType
	AgentBase   uint64
	HostBase    uint64
	Size        uint64
	UserData    uint64
	Owner       *Agent // nil for unknown pointers
	GlobalFlags uint32
	Accessible  []*Agent // agents granted access (hsa_amd_pointer_info's accessible list)
}

// PointerInfo is hsa_amd_pointer_info: what rocpu knows about the
// allocation containing ptr. Unknown pointers are not an error: their Type
// is HSA_EXT_POINTER_TYPE_UNKNOWN.
func (r *Runtime) PointerInfo(ptr uint64) (PointerInfo, error) {
	if err := r.check("PointerInfo"); err != nil {
		return PointerInfo{}, err
	}
	al := r.allocationAt(ptr)
	if al == nil {
		return PointerInfo{Type: HSA_EXT_POINTER_TYPE_UNKNOWN}, nil
	}
	pi := PointerInfo{Type: al.typ, AgentBase: al.agentAddr(), HostBase: al.base, Size: al.size, Owner: r.agents[0],
		GlobalFlags: HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED}
	if al.pool != nil {
		pi.Owner, pi.GlobalFlags = al.pool.owner, al.pool.flags
	}
	al.mu.Lock()
	pi.UserData = al.userData
	for _, a := range r.agents {
		if al.access[a] || a == pi.Owner || al.pool == nil || a.PoolAccess(al.pool) == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT {
			pi.Accessible = append(pi.Accessible, a)
		}
	}
	al.mu.Unlock()
	return pi, nil
}

// SetPointerUserData is hsa_amd_pointer_info_set_userdata.
func (r *Runtime) SetPointerUserData(ptr, data uint64) error {
	const op = "SetPointerUserData"
	if err := r.check(op); err != nil {
		return err
	}
	al := r.allocationAt(ptr)
	if al == nil {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not in an allocation", ptr)
	}
	al.mu.Lock()
	al.userData = data
	al.mu.Unlock()
	return nil
}
