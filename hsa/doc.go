// Package hsa is rocpu's HSA runtime (DESIGN.md seam "hsa.Runtime"): the
// system the HSA and ROCm specifications describe — agents, memory pools and
// regions, signals, AQL queues with their packet processors — with an
// idiomatic Go API that the C ABI (package capi) maps onto one to one.
//
// What it implements, by spec section (spec/INVENTORY.md):
//
//   - §8.1 status codes, with the values of the Debian libhsa-runtime-dev
//     5.2.3 headers (hsa.h, hsa_ext_amd.h): Status, and StatusOf, the one
//     table that maps Go errors to hsa_status_t.
//   - §8.3 runtime open/close with reference counting, with hsa_init /
//     hsa_shut_down semantics (Open, Runtime.Acquire, Runtime.Close).
//   - §8.4 topology: a CPU agent and GPU agents (each a Device, normally an
//     emu.Device), with every hsa_agent_info_t and hsa_amd_agent_info_t
//     attribute, their ISAs (hsa_isa_info_t), wavefronts and caches, valued
//     as DESIGN.md "Looking like a GPU to HIP 5.2" requires.
//   - DESIGN.md "Memory": AMD memory pools and HSA regions (one object
//     answers both APIs, as in ROCr) whose allocations come from
//     internal/vmem arenas; copies (synchronous, asynchronous with
//     dependency and completion signals, 2D/3D rectangles), fills, host
//     memory lock/register (locked memory gets an agent address of its
//     own, as on a discrete GPU; locks may overlap), pointer info.
//   - §6.5 and §8.5 signals: amd_signal_t objects in device-visible memory
//     whose handle is their address, with event mailboxes and ids per
//     DESIGN.md "Signals and waking"; waits with timeouts and wait-state
//     hints; wait-any; async handlers on one dedicated goroutine.
//   - §6.2-§6.4, §6.8, §8.6 and §8.7 AQL queues: amd_queue_t and the ring in
//     device memory, queue index operations, and a packet processor per
//     queue (kernel dispatch to the Device, barrier-AND/OR, the AMD
//     barrier-value vendor packet, fences, profiling timestamps, queue
//     errors, queue_inactive_signal, system event handlers for memory
//     faults).
//   - §1.7-§1.9, §4 and §6.1 the loader: code object readers, executables,
//     LoadAgentCodeObject (plain objects V2-V5, offload bundles and HIP fat
//     binaries; target.Compatible picks the entry), PT_LOAD segments mapped
//     with code read-only to the device, dynamic relocations applied,
//     kernels registered by descriptor address, symbols with every
//     hsa_executable_symbol_info_t attribute, and the AMD loader extension's
//     queries (hsa_ven_amd_loader.h).
//   - §6.7 images and samplers (the images extension, hsa_ext_image.h):
//     linear images over application memory and samplers whose handles
//     are the addresses of their GFX9 hardware descriptors (T#/V#, S#:
//     imagesrd.go), data info, import, export, copy and clear.
//   - DESIGN.md "Code object versions and hidden arguments": Queue.Launch
//     lays out explicit and hidden kernel arguments with codeobject's
//     kernarg layout, and decodes OpenCL printf buffers (§2.7).
//
// Handles: a signal's handle is its amd_signal_t's address and a queue's
// is its amd_queue_t's; kernel objects are kernel descriptor addresses;
// image and sampler handles are the addresses of their descriptors.
// Agents, pools/regions, ISAs, wavefronts, caches, executables, symbols,
// readers and loaded code objects have opaque handles whose top byte names
// their kind and whose bits 55:32 hold the runtime's generation, so a
// handle of the wrong kind or from a shut-down runtime is rejected with
// the precise status. Every Info method returns the attribute's value with
// the Go type its constant's comment names; the C ABI writes it into the
// caller's buffer.
//
// Waking (DESIGN.md "Signals and waking"): goroutines that wait on a
// signal through Go (Wait, WaitAny, async handlers, barrier packets,
// asynchronous copies) block on a channel and count themselves in
// amd_signal_t.reserved1; threads that cannot block on a Go channel
// without a cgo callback — the C ABI's waits, after a 20 µs spin — and
// each queue's packet processor, after a 20 µs spin on its write index
// that yields its CPU, sleep in futex(2) on a wake sequence in
// amd_signal_t.reserved3[1] and count themselves in reserved3[0]
// (Signal.sleep). Every update through Go or C checks both counts after
// the value (Dekker's protocol) and wakes only who is there, so a store
// nobody watches costs no call and a doorbell rung from C reaches the
// packet processor with one futex wake, never through Go's scheduler.
// A destroyed signal's kind becomes AMD_SIGNAL_KIND_INVALID so sleepers
// in C leave.
//
// Launch keeps per-queue caches of kernarg blocks (power-of-two size
// classes from 64 bytes, up to 1 MiB or 1024 blocks per class) and
// completion signals, and each kernel's kernarg layout, so a launch
// allocates no device memory, updates no region table and calls no
// madvise(2) in the steady state. Enqueue is Launch without the wait: it
// returns a Pending once the packet is published (barrier bit set, so a
// queue's packets run in order, as a HIP stream's do), and a program
// issuing many dispatches enqueues them all and then waits.
//
// hsa_memory_register ranges (Register) are counted per (address, size)
// and may repeat and overlap; agents see their union.
//
// Race detector: device memory is mmap'd, outside the detector's view, so
// under -race signal operations additionally synchronise on a Go-heap word
// (race_on.go) and Go code that waits on a signal sees what the signaller
// wrote before.
//
// Memory orders: Go's sync/atomic operations are sequentially consistent,
// which is at least as strong as every HSA memory order (relaxed, acquire,
// release, acquire-release). Each HSA operation that comes in several
// memory-order variants therefore has one Go method, and the C ABI calls it
// for every variant.
//
// Packet-processor statuses follow the HSA Runtime Conformance suite's
// queue tests: an unknown packet type or reserved header bits give
// HSA_STATUS_ERROR_INVALID_PACKET_FORMAT; dimensions outside 1-3, a zero or
// oversized workgroup, or a zero grid give
// HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS; a kernel object that is not a
// loaded kernel descriptor gives HSA_STATUS_ERROR_INVALID_CODE_OBJECT; a
// group segment larger than the agent's LDS gives
// HSA_STATUS_ERROR_INVALID_ALLOCATION. Device faults give
// HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION (memory),
// HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION (undecodable or unimplemented
// instructions) or HSA_STATUS_ERROR_EXCEPTION (s_trap 2, budget, cancel).
package hsa
