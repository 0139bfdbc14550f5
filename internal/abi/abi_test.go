package abi

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestLayout asserts unsafe.Sizeof and every unsafe.Offsetof against the
// values the headers give.
func TestLayout(t *testing.T) {
	for _, l := range layouts() {
		if l.goSize != l.size {
			t.Errorf("sizeof(%s): Go %d, header %d", l.ctype, l.goSize, l.size)
		}
		var end uintptr
		for _, f := range l.fields {
			if f.goOff != f.off || f.goSz != f.size {
				t.Errorf("%s.%s: Go offset %d size %d, header offset %d size %d",
					l.ctype, f.c, f.goOff, f.goSz, f.off, f.size)
			}
			// Fields are listed in order; a member at an earlier offset is
			// a union alternative. A gap would be implicit padding, which
			// every struct here promises not to have.
			if f.off > end {
				t.Errorf("%s.%s: %d bytes of implicit padding before it", l.ctype, f.c, f.off-end)
			}
			if f.off+f.size > end {
				end = f.off + f.size
			}
		}
		if end != l.size {
			t.Errorf("%s: fields end at %d, size %d (unlisted tail)", l.ctype, end, l.size)
		}
	}
}

const hsaInclude = "/usr/include/hsa"

// TestLayoutAgainstC compiles a C program against the installed ROCr headers
// that prints sizeof and offsetof of every listed member and the value of
// every listed constant, and compares them with the Go mirrors. It skips
// when no C compiler or the headers are absent.
func TestLayoutAgainstC(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	cc := ""
	for _, c := range []string{os.Getenv("CC"), "gcc", "cc", "clang", "clang-15"} {
		if c == "" {
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			cc = p
			break
		}
	}
	if cc == "" {
		t.Skip("no C compiler")
	}
	headers := map[string]bool{}
	for _, h := range []string{"hsa.h", "hsa_ext_amd.h", "amd_hsa_queue.h", "amd_hsa_signal.h", "amd_hsa_kernel_code.h"} {
		if _, err := os.Stat(filepath.Join(hsaInclude, h)); err == nil {
			headers[h] = true
		}
	}
	if !headers["hsa.h"] {
		t.Skip("ROCr headers not installed in " + hsaInclude)
	}

	var src bytes.Buffer
	src.WriteString("#include <stdio.h>\n#include <stddef.h>\n")
	for _, h := range []string{"hsa.h", "hsa_ext_amd.h", "amd_hsa_queue.h", "amd_hsa_signal.h", "amd_hsa_kernel_code.h"} {
		if headers[h] {
			fmt.Fprintf(&src, "#include <hsa/%s>\n", h)
		}
	}
	src.WriteString("int main(void) {\n")
	want := map[string]int64{}
	checked := 0
	for _, l := range layouts() {
		if l.header == "" || !headers[l.header] {
			continue
		}
		fmt.Fprintf(&src, "  printf(\"sizeof %s %%zu\\n\", sizeof(%s));\n", l.ctype, l.ctype)
		want["sizeof "+l.ctype] = int64(l.goSize)
		for _, f := range l.fields {
			fmt.Fprintf(&src, "  printf(\"offsetof %s.%s %%zu\\n\", offsetof(%s, %s));\n", l.ctype, f.c, l.ctype, f.c)
			fmt.Fprintf(&src, "  printf(\"sizeof %s.%s %%zu\\n\", sizeof(((%s*)0)->%s));\n", l.ctype, f.c, l.ctype, f.c)
			want["offsetof "+l.ctype+"."+f.c] = int64(f.goOff)
			want["sizeof "+l.ctype+"."+f.c] = int64(f.goSz)
		}
	}
	for _, c := range constants() {
		if !headers[c.header] {
			continue
		}
		cast := "(long long)"
		if c.u32 {
			cast = "(long long)(unsigned)"
		}
		fmt.Fprintf(&src, "  printf(\"const %s %%lld\\n\", %s(%s));\n", c.name, cast, c.name)
		want["const "+c.name] = c.value
	}
	src.WriteString("  return 0;\n}\n")

	dir := t.TempDir()
	cfile := filepath.Join(dir, "layout.c")
	exe := filepath.Join(dir, "layout")
	if err := os.WriteFile(cfile, src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cc, "-std=gnu11", "-Wall", "-o", exe, cfile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s failed: %v\n%s", cc, err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("running layout program: %v", err)
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ' ')
		key, val := line[:i], line[i+1:]
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			t.Fatalf("bad line %q", line)
		}
		w, ok := want[key]
		if !ok {
			t.Fatalf("unexpected line %q", line)
		}
		seen[key] = true
		checked++
		if v != w {
			t.Errorf("%s: C %d, Go %d", key, v, w)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("C program printed %d values, want %d", len(seen), len(want))
	}
	if checked < 300 {
		t.Errorf("only %d values checked against C", checked)
	}
	t.Logf("%d sizes, offsets and constants agree with %s", checked, cc)
}

func TestPacketHeader(t *testing.T) {
	// HIP's kernel dispatch header: KERNEL_DISPATCH, barrier, system
	// acquire and release: 2 | 1<<8 | 2<<9 | 2<<11 = 0x1502.
	h := MakePacketHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH, true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM)
	if h != 0x1502 {
		t.Fatalf("header = %#x, want 0x1502", uint16(h))
	}
	if h.Type() != HSA_PACKET_TYPE_KERNEL_DISPATCH || !h.Barrier() ||
		h.AcquireFenceScope() != HSA_FENCE_SCOPE_SYSTEM || h.ReleaseFenceScope() != HSA_FENCE_SCOPE_SYSTEM || h.Reserved() != 0 {
		t.Errorf("fields of %#x: %v", uint16(h), h)
	}
	if got := h.String(); got != "HSA_PACKET_TYPE_KERNEL_DISPATCH barrier acq=HSA_FENCE_SCOPE_SYSTEM rel=HSA_FENCE_SCOPE_SYSTEM" {
		t.Errorf("String = %q", got)
	}
	h = MakePacketHeader(HSA_PACKET_TYPE_BARRIER_OR, false, HSA_FENCE_SCOPE_AGENT, HSA_FENCE_SCOPE_NONE)
	if h != 0x0205 {
		t.Errorf("barrier-or header = %#x, want 0x0205", uint16(h))
	}
	h = PacketHeader(0xE001)
	if h.Reserved() != 0xE000 || h.Type() != HSA_PACKET_TYPE_INVALID {
		t.Errorf("reserved bits of 0xE001: %#x type %v", h.Reserved(), h.Type())
	}
	if PacketType(9).String() != "PacketType(9)" || FenceScope(3).String() != "FenceScope(3)" {
		t.Error("String of reserved values")
	}
}

func TestPacketPublishAndStoreHeader(t *testing.T) {
	var p Packet
	kd := p.KernelDispatch()
	kd.GridSizeX = 1024
	kd.KernelObject = 0xdead_beef_0000
	hdr := MakePacketHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM)
	p.Publish(hdr, 3)
	if kd.Header != uint16(hdr) || kd.Setup != 3 || kd.Dimensions() != 3 {
		t.Fatalf("after Publish: header %#x setup %d", kd.Header, kd.Setup)
	}
	if p.LoadHeader() != hdr {
		t.Fatalf("LoadHeader = %#x", uint16(p.LoadHeader()))
	}
	// Returning the slot to INVALID must keep the setup field.
	p.StoreHeader(MakePacketHeader(HSA_PACKET_TYPE_INVALID, false, 0, 0))
	if kd.Header != 1 || kd.Setup != 3 || kd.GridSizeX != 1024 {
		t.Fatalf("after StoreHeader: header %#x setup %d grid %d", kd.Header, kd.Setup, kd.GridSizeX)
	}
	// The views alias the same 64 bytes.
	if unsafe.Pointer(p.BarrierAnd()) != unsafe.Pointer(&p) || unsafe.Pointer(p.AgentDispatch()) != unsafe.Pointer(&p) ||
		unsafe.Pointer(p.BarrierOr()) != unsafe.Pointer(&p) || unsafe.Pointer(p.AMDBarrierValue()) != unsafe.Pointer(&p) {
		t.Error("typed views do not alias the slot")
	}
	p.AMDBarrierValue().Header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE
	if p.Words[0]>>16 != HSA_AMD_PACKET_TYPE_BARRIER_VALUE {
		t.Errorf("AmdFormat not at byte 2: word0 %#x", p.Words[0])
	}
}

// TestPublishOrdering checks, under the race detector, that a consumer that
// sees the published header sees the body written before it.
func TestPublishOrdering(t *testing.T) {
	ring := make([]Packet, 4)
	for i := range ring {
		ring[i].StoreHeader(PacketHeader(HSA_PACKET_TYPE_INVALID))
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range ring {
			p := &ring[i]
			for p.LoadHeader().Type() != HSA_PACKET_TYPE_KERNEL_DISPATCH {
			}
			if got := p.KernelDispatch().GridSizeX; got != uint32(100+i) {
				t.Errorf("slot %d: grid %d", i, got)
			}
		}
	}()
	for i := range ring {
		ring[i].KernelDispatch().GridSizeX = uint32(100 + i)
		ring[i].Publish(PacketHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH), 1)
	}
	wg.Wait()
}

func TestQueueIndexes(t *testing.T) {
	var q AMDQueue
	if q.AddWriteIndex(4) != 0 || q.AddWriteIndex(2) != 4 || q.LoadWriteIndex() != 6 {
		t.Fatalf("write index %d", q.LoadWriteIndex())
	}
	if got := q.CASWriteIndex(5, 9); got != 6 || q.LoadWriteIndex() != 6 {
		t.Errorf("failed CAS returned %d, index %d", got, q.LoadWriteIndex())
	}
	if got := q.CASWriteIndex(6, 9); got != 6 || q.LoadWriteIndex() != 9 {
		t.Errorf("CAS returned %d, index %d", got, q.LoadWriteIndex())
	}
	q.StoreWriteIndex(12)
	q.StoreReadIndex(7)
	if q.WriteDispatchID != 12 || q.LoadReadIndex() != 7 || q.ReadDispatchID != 7 {
		t.Errorf("indexes %d %d", q.WriteDispatchID, q.ReadDispatchID)
	}
	// The read index lives at byte 128 of the queue, which CP locates
	// through read_dispatch_id_field_base_byte_offset.
	if unsafe.Offsetof(q.ReadDispatchID) != 128 {
		t.Error("read_dispatch_id offset")
	}
	if HSA_QUEUE_TYPE_SINGLE.String() != "HSA_QUEUE_TYPE_SINGLE" || QueueType(7).String() != "QueueType(7)" {
		t.Error("QueueType.String")
	}
}

func TestSignalOps(t *testing.T) {
	var s AMDSignal
	s.Kind = AMD_SIGNAL_KIND_USER
	s.Store(10)
	if s.Add(-3) != 7 || s.Load() != 7 {
		t.Fatalf("value %d", s.Value)
	}
	if s.Exchange(1) != 7 || s.Value != 1 {
		t.Fatalf("exchange: %d", s.Value)
	}
	if s.CAS(0, 5) != 1 || s.Value != 1 {
		t.Error("failed CAS changed the value")
	}
	if s.CAS(1, 5) != 1 || s.Value != 5 {
		t.Error("CAS did not store")
	}
	if AMD_SIGNAL_KIND_LEGACY_DOORBELL.String() != "AMD_SIGNAL_KIND_LEGACY_DOORBELL" || SignalKind(5).String() != "SignalKind(5)" {
		t.Error("SignalKind.String")
	}
	// Concurrent decrements give an exact total (what completion signals do).
	s.Store(1000)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 250 {
				s.Add(-1)
			}
		}()
	}
	wg.Wait()
	if s.Load() != 0 {
		t.Errorf("after 1000 decrements: %d", s.Load())
	}
}

func TestKernelDescriptorBinary(t *testing.T) {
	// A descriptor written byte by byte per INVENTORY §4.1: group 0x100,
	// private 0x10, kernarg 0x38, entry offset -0x1000 (bytes 00 f0 ff ff
	// ff ff ff ff at 16), rsrc3 0x5 at 44, rsrc1 0x00af0041 at 48, rsrc2
	// 0x98c at 52, properties 0x0009 at 56, kernarg_preload 2 at 58.
	raw := make([]byte, 64)
	copy(raw[0:], []byte{0x00, 0x01, 0, 0, 0x10, 0, 0, 0, 0x38, 0, 0, 0})
	copy(raw[16:], []byte{0x00, 0xf0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	copy(raw[44:], []byte{0x05, 0, 0, 0, 0x41, 0x00, 0xaf, 0x00, 0x8c, 0x09, 0, 0, 0x09, 0x00, 0x02, 0x00})
	var kd KernelDescriptor
	if err := kd.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	want := KernelDescriptor{
		GroupSegmentFixedSize: 0x100, PrivateSegmentFixedSize: 0x10, KernargSize: 0x38,
		KernelCodeEntryByteOffset: -0x1000, ComputePgmRsrc3: 5, ComputePgmRsrc1: 0x00af0041,
		ComputePgmRsrc2: 0x98c, KernelCodeProperties: 9, KernargPreload: 2,
	}
	if kd != want {
		t.Fatalf("decoded %+v\nwant    %+v", kd, want)
	}
	// The decode must agree with reinterpreting the bytes in place.
	if *(*KernelDescriptor)(unsafe.Pointer(&raw[0])) != kd {
		t.Error("UnmarshalBinary disagrees with the in-memory layout")
	}
	back, _ := kd.MarshalBinary()
	if !bytes.Equal(back, raw) {
		t.Errorf("round trip:\n% x\n% x", back, raw)
	}
	if err := kd.UnmarshalBinary(raw[:63]); err == nil {
		t.Error("short buffer accepted")
	}
}

func TestAMDKernelCodeBinary(t *testing.T) {
	raw := make([]byte, 256)
	for i := range raw {
		raw[i] = byte(i*7 + 3)
	}
	var c AMDKernelCode
	if err := c.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	if *(*AMDKernelCode)(unsafe.Pointer(&raw[0])) != c {
		t.Fatal("UnmarshalBinary disagrees with the in-memory layout")
	}
	// Spot-check fields at their header offsets (little-endian).
	if c.AMDMachineKind != uint16(raw[8])|uint16(raw[9])<<8 {
		t.Errorf("amd_machine_kind %#x", c.AMDMachineKind)
	}
	if c.WavefrontSize != raw[103] || c.ControlDirectives.RequiredDim != raw[128+28] {
		t.Errorf("wavefront_size %#x required_dim %#x", c.WavefrontSize, c.ControlDirectives.RequiredDim)
	}
	back, err := c.MarshalBinary()
	if err != nil || !bytes.Equal(back, raw) {
		t.Errorf("round trip: %v", err)
	}
	if err := c.UnmarshalBinary(raw[:255]); err == nil {
		t.Error("short buffer accepted")
	}
}
