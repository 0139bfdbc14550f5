// Package vmem is the device address space of the software GPU (DESIGN.md
// "Memory"): one address space shared with the host process, in which every
// byte a kernel can touch is ordinary host memory at the same virtual
// address the host sees.
//
// A Space keeps the table of registered regions — pool allocations,
// registered host memory, code object segments (read-only for device
// stores), kernarg buffers, queue rings, signals, scratch — each with a kind
// and an owner tag. The table is copy-on-write: lookups load an immutable
// sorted snapshot through an atomic pointer and take no lock; registration
// and removal build a new snapshot under a mutex.
//
// Device-visible memory comes from mmap'd arenas (MAP_NORESERVE), never the
// Go heap, so C code may hold its addresses. Space.Alloc serves small
// objects (signals, queue descriptors) from slabs and large ones from
// page-granular runs with an unmapped-for-the-device guard page after each,
// so an overrun faults.
//
// The emulator checks each memory instruction once: the minimum and maximum
// address over the active lanes against the wave's Cache (one region), then
// translates each lane with the Region accessors. This package is the one
// place that turns a device address into a Go pointer or slice; unsafe is
// confined here. An access outside every region, a store to code or a
// misaligned atomic is a *Fault (kind, access, address, size) that the
// emulator reports as a GPU memory fault.
//
// The LDS (shared) and scratch (private) apertures sit at the fixed GFX9
// addresses ROCr's KFD programs (spec/INVENTORY.md §5.6 for the flat-address
// conversions; DESIGN.md "Memory" for the five consumers that must agree):
// shared at 0x0001_0000_0000_0000 and private at 0x0002_0000_0000_0000, 4
// GiB each. Classify routes a flat address to global, LDS or private memory;
// CheckApertures verifies that no host mapping overlaps the apertures.
package vmem
