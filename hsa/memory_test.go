package hsa

import (
	"bytes"
	"encoding/binary"
	"syscall"
	"testing"
	"unsafe"
)

func TestPools(t *testing.T) {
	r, _ := newRT(t)
	cpu, gpu := r.CPUAgent(), r.GPUAgents()[0]
	cp := cpu.Pools()
	if len(cp) != 3 {
		t.Fatalf("CPU agent has %d pools, want 3", len(cp))
	}
	// ROCclr aborts on other flag mixes (DESIGN.md "Looking like a GPU").
	for i, flags := range []uint32{
		HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
		HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
		HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
	} {
		seg, _ := cp[i].Info(HSA_AMD_MEMORY_POOL_INFO_SEGMENT)
		f, _ := cp[i].Info(HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS)
		if seg != HSA_AMD_SEGMENT_GLOBAL || f != flags {
			t.Errorf("CPU pool %d: segment %v flags %v, want global %#x", i, seg, f, flags)
		}
		if all, _ := cp[i].Info(HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL); all != true {
			t.Errorf("CPU pool %d not accessible by all", i)
		}
		if acc, _ := gpu.PoolInfo(cp[i], HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS); acc != HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT {
			t.Errorf("GPU access to CPU pool %d: %v", i, acc)
		}
	}
	gp := gpu.Pools()
	if len(gp) != 2 {
		t.Fatalf("GPU agent has %d pools, want 2", len(gp))
	}
	g, grp := gp[0], gp[1]
	want := map[PoolInfo]any{
		HSA_AMD_MEMORY_POOL_INFO_SEGMENT:                 HSA_AMD_SEGMENT_GLOBAL,
		HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:            uint32(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED),
		HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:   true,
		HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:   uint64(4096),
		HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT: uint64(4096),
		HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:       false,
	}
	for attr, w := range want {
		if v, err := g.Info(attr); v != w || err != nil {
			t.Errorf("GPU pool Info(%d) = %#v, %v; want %#v", attr, v, err, w)
		}
	}
	size, _ := g.Info(HSA_AMD_MEMORY_POOL_INFO_SIZE)
	max, _ := g.Info(HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE)
	if size.(uint64) < 1<<26 || max != size {
		t.Errorf("GPU pool size %v max %v (want host RAM)", size, max)
	}
	if v, _ := grp.Info(HSA_AMD_MEMORY_POOL_INFO_SEGMENT); v != HSA_AMD_SEGMENT_GROUP {
		t.Errorf("second GPU pool segment %v, want group", v)
	}
	if v, _ := grp.Info(HSA_AMD_MEMORY_POOL_INFO_SIZE); v != uint64(65536) {
		t.Errorf("group pool size %v, want 65536", v)
	}
	if v, _ := grp.Info(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED); v != false {
		t.Error("group pool allows allocation")
	}
	if v, _ := cpu.PoolInfo(g, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS); v != HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT {
		t.Errorf("CPU access to GPU memory %v", v)
	}
	if v, _ := cpu.PoolInfo(grp, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS); v != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED {
		t.Errorf("CPU access to group memory %v", v)
	}
	if v, _ := gpu.PoolInfo(g, HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS); v != uint32(0) {
		t.Errorf("GPU to own pool hops %v", v)
	}
	if v, _ := gpu.PoolInfo(cp[0], HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO); len(v.([]LinkInfo)) != 1 || v.([]LinkInfo)[0].LinkType != HSA_AMD_LINK_INFO_TYPE_PCIE {
		t.Errorf("GPU to CPU pool link info %+v", v)
	}
	_, err := g.Info(3)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = gpu.PoolInfo(g, 7)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)

	// Regions are the same objects.
	if v, _ := cp[0].RegionInfo(HSA_REGION_INFO_GLOBAL_FLAGS); v != uint32(HSA_REGION_GLOBAL_FLAG_KERNARG|HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) {
		t.Errorf("kernarg region flags %v", v)
	}
	if v, _ := grp.RegionInfo(HSA_REGION_INFO_SEGMENT); v != HSA_AMD_SEGMENT_GROUP {
		t.Errorf("group region segment %v", v)
	}
	if v, _ := grp.RegionInfo(HSA_AMD_REGION_INFO_BASE); v != uint64(0x0001_0000_0000_0000) {
		t.Errorf("group region base %#v", v)
	}
	for _, attr := range []RegionInfo{0, 1, 2, 4, 5, 6, 7, 8, 0xA000, 0xA001, 0xA002, 0xA003} {
		if _, err := g.RegionInfo(attr); err != nil {
			t.Errorf("RegionInfo(%#x): %v", attr, err)
		}
	}
	_, err = g.RegionInfo(3)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	if p, err := r.Pool(g.Handle()); p != g || err != nil {
		t.Errorf("Pool(handle) %v %v", p, err)
	}
	_, err = r.Pool(gpu.Handle())
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_MEMORY_POOL)
	_, err = r.Region(12345)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_REGION)
}

func TestAllocateFree(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	g, grp := gpu.Pools()[0], gpu.Pools()[1]
	_, err := g.Allocate(0, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = g.Allocate(16, 1)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = grp.Allocate(16, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ALLOCATION)
	_, err = g.Allocate(g.size+1, 0)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ALLOCATION)

	p, err := g.Allocate(100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p%4096 != 0 {
		t.Errorf("allocation %#x not 4 KiB aligned", p)
	}
	b, err := r.Space().Slice(p, 4096) // rounded up to the granule
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, make([]byte, 4096)) {
		t.Error("allocation not zeroed")
	}
	b[4095] = 7
	pi, err := r.PointerInfo(p + 50)
	if err != nil {
		t.Fatal(err)
	}
	if pi.Type != HSA_EXT_POINTER_TYPE_HSA || pi.AgentBase != p || pi.HostBase != p || pi.Size != 4096 || pi.Owner != gpu ||
		pi.GlobalFlags != HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED {
		t.Errorf("pointer info %+v", pi)
	}
	wantStatus(t, r.SetPointerUserData(p+8, 0xabc), HSA_STATUS_SUCCESS)
	if pi, _ := r.PointerInfo(p); pi.UserData != 0xabc {
		t.Errorf("user data %#x", pi.UserData)
	}
	cpu := r.CPUAgent()
	wantStatus(t, r.AllowAccess([]*Agent{cpu}, p), HSA_STATUS_SUCCESS)
	if pi, _ := r.PointerInfo(p); len(pi.Accessible) != 2 {
		t.Errorf("accessible by %v, want both agents", pi.Accessible)
	}
	wantStatus(t, r.AllowAccess(nil, p), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.AllowAccess([]*Agent{cpu}, 0x1000), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.AssignAgent(p, gpu), HSA_STATUS_SUCCESS)

	wantStatus(t, r.Free(p+8), HSA_STATUS_ERROR_INVALID_ALLOCATION)
	wantStatus(t, r.Free(p), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Free(p), HSA_STATUS_ERROR_INVALID_ALLOCATION)
	wantStatus(t, r.Free(0), HSA_STATUS_SUCCESS)
	if pi, _ := r.PointerInfo(p); pi.Type != HSA_EXT_POINTER_TYPE_UNKNOWN {
		t.Errorf("freed pointer info %+v", pi)
	}
	wantStatus(t, r.SetPointerUserData(p, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT)

	// The kernarg pool's allocations are kernarg regions.
	k, err := r.CPUAgent().Pools()[0].Allocate(64, 0)
	if err != nil {
		t.Fatal(err)
	}
	if reg := r.Space().Find(k); reg == nil || reg.Kind.String() != "kernarg" {
		t.Errorf("kernarg allocation region %v", reg)
	}
}

func TestCopyFill(t *testing.T) {
	r, _ := newRT(t)
	g := r.GPUAgents()[0].Pools()[0]
	a, _ := g.Allocate(8192, 0)
	b, _ := g.Allocate(8192, 0)
	wantStatus(t, r.Fill(a, 0xdeadbeef, 2048), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Copy(b+4, a, 16), HSA_STATUS_SUCCESS)
	bb, _ := r.Space().Slice(b, 24)
	for i := 0; i < 6; i++ {
		w := binary.LittleEndian.Uint32(bb[4*i:])
		if want := uint32(0xdeadbeef); (i == 0 || i == 5) && w != 0 || i >= 1 && i <= 4 && w != want {
			t.Errorf("word %d = %#x", i, w)
		}
	}
	wantStatus(t, r.Fill(a+2, 1, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Fill(a, 1, 2049), HSA_STATUS_ERROR_INVALID_ARGUMENT) // past the end
	wantStatus(t, r.Copy(b, a, 8193), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Copy(0, a, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Copy(b, 0x1000, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	wantStatus(t, r.Copy(b, a, 0), HSA_STATUS_SUCCESS)
}

func mmapHost(t *testing.T, n int) []byte {
	t.Helper()
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	return m
}

func TestLockUnlock(t *testing.T) {
	r, _ := newRT(t)
	gpu := r.GPUAgents()[0]
	host := mmapHost(t, 8192)
	copy(host, "hello, device")
	p := unsafe.Pointer(&host[0])
	_, err := r.Lock(nil, 10, nil)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	_, err = r.Lock(p, 0, nil)
	wantStatus(t, err, HSA_STATUS_ERROR_INVALID_ARGUMENT)
	agentPtr, err := r.Lock(p, 8192, []*Agent{gpu})
	if err != nil {
		t.Fatal(err)
	}
	hostAddr := uint64(uintptr(p))
	// The agent address differs from the host's (HIP's hipHostUnregister
	// aborts when they are equal) and keeps its page offset.
	if agentPtr == hostAddr || agentPtr&4095 != hostAddr&4095 {
		t.Errorf("agent pointer %#x for host pointer %p", agentPtr, p)
	}
	pi, _ := r.PointerInfo(agentPtr + 100)
	if pi.Type != HSA_EXT_POINTER_TYPE_LOCKED || pi.Size != 8192 || pi.HostBase != hostAddr || pi.AgentBase != agentPtr || pi.Owner != r.CPUAgent() {
		t.Errorf("locked pointer info %+v", pi)
	}
	// The host address is registered too (nothing overlapped it) and
	// answers the same.
	if pi2, _ := r.PointerInfo(hostAddr + 100); pi2.AgentBase != agentPtr || pi2.HostBase != hostAddr {
		t.Errorf("pointer info at the host address %+v", pi2)
	}
	dev, _ := gpu.Pools()[0].Allocate(4096, 0)
	wantStatus(t, r.Copy(dev, agentPtr, 13), HSA_STATUS_SUCCESS)
	if got, _ := r.Space().Slice(dev, 13); string(got) != "hello, device" {
		t.Errorf("copied %q", got)
	}
	// Locking the same range again counts a reference.
	if again, err := r.Lock(p, 8192, nil); err != nil || again != agentPtr {
		t.Fatalf("second lock: %#x %v, want %#x", again, err, agentPtr)
	}
	// An overlapping, different range gets its own agent range (ROCr pins
	// pages with reference counts; HIP's 2D copies rely on it).
	inner, err := r.Lock(unsafe.Pointer(&host[4100]), 16, nil)
	if err != nil {
		t.Fatal(err)
	}
	if inner == hostAddr+4100 || inner&4095 != 4 {
		t.Errorf("inner agent pointer %#x", inner)
	}
	if got, _ := r.Space().Slice(inner, 4); string(got) != "\x00\x00\x00\x00" {
		t.Errorf("inner lock reads %q", got)
	}
	copy(host[4100:], "abcd")
	if got, _ := r.Space().Slice(inner, 4); string(got) != "abcd" {
		t.Errorf("inner lock reads %q, want the host bytes", got)
	}
	if pi3, _ := r.PointerInfo(inner); pi3.HostBase != hostAddr+4100 || pi3.Size != 16 {
		t.Errorf("inner pointer info %+v", pi3)
	}
	wantStatus(t, r.Unlock(unsafe.Pointer(&host[4100])), HSA_STATUS_SUCCESS)
	if r.Space().Find(inner) != nil || r.Space().Find(agentPtr) == nil {
		t.Fatal("unlocking the inner range changed the wrong registration")
	}
	wantStatus(t, r.Unlock(p), HSA_STATUS_SUCCESS)
	if r.Space().Find(agentPtr) == nil {
		t.Fatal("unlocked after the first of two Unlocks")
	}
	wantStatus(t, r.Unlock(p), HSA_STATUS_SUCCESS)
	if r.Space().Find(agentPtr) != nil || r.Space().Find(hostAddr) != nil {
		t.Fatal("still visible after the last Unlock")
	}
	wantStatus(t, r.Unlock(p), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	// Registration is the same mechanism.
	wantStatus(t, r.Register(p, 100), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Deregister(p), HSA_STATUS_SUCCESS)
	wantStatus(t, r.Deregister(p), HSA_STATUS_ERROR_INVALID_ARGUMENT)
	// Pool memory is already visible: locking it is a no-op.
	if ap, err := r.Lock(unsafe.Pointer(r.Space().Find(dev).Pointer(dev, 1)), 4096, nil); err != nil || ap != dev {
		t.Errorf("locking pool memory: %#x %v", ap, err)
	}
}
