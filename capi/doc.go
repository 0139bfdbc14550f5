// Package capi is rocpu's C ABI: the definitions of every hsa_* symbol that
// ROCr 5.2 (libhsa-runtime64.so.1) exports, so that unmodified ROCm programs
// — Debian's HIP runtime (libamdhip64.so.5) and rocminfo — run on rocpu
// (DESIGN.md seam "capi", "Signals and waking", "Looking like a GPU to HIP
// 5.2"; spec/INVENTORY.md §6 and §8).
//
// Every function is defined in C (hsa_*.c in this directory) against the
// Debian libhsa-runtime-dev 5.2.3 headers in /usr/include/hsa, so the C
// compiler checks each prototype; cgo cannot express const. The C layer
// calls the Go exports in this package (rocpu_* functions), which map the
// C arguments onto package hsa one to one, except for the hot lock-free
// operations HIP calls in polling loops — signal load/store/add/CAS/exchange
// and the queue read/write-index operations — which C performs directly on
// the amd_signal_t and amd_queue_t structures. After updating a signal C
// reads the two watcher counts package hsa keeps in the ABI struct's
// padding (reserved1: goroutines on Go channels; reserved3[0]: threads
// sleeping in futex(2) in its low half, and in its high half idle packet
// processors waiting for their doorbell): it wakes futex sleepers itself
// with FUTEX_WAKE, wakes idle processors by writing to an eventfd that a
// goroutine reads through Go's netpoller (hsa/pollwake.go: an idle
// processor then holds none of Go's Ps), and enters Go only when a
// goroutine watches, so HIP's doorbell store and the completion store cost
// no cgo call. Waits check the value, spin for up to 20 µs
// (yielding the CPU), then sleep in futex(2) on the signal's wake
// sequence, polling at 50 µs–2 ms for stores that wake nobody; only a
// destroyed signal's wait goes to Go. Package latency measures the
// resulting round trip against the Go API's (TestDispatchLatency).
//
// Handles: hsa_signal_t.handle is its amd_signal_t's address and an
// hsa_queue_t* is a populated amd_queue_t, as the ABI requires; agents,
// pools/regions, ISAs, caches, wavefronts, executables, symbols, code-object
// readers and loaded code objects are package hsa's opaque handles, which it
// validates (stale handles give the matching HSA_STATUS_ERROR_INVALID_*).
// Signal groups are indices into a table here. Every Go error becomes an
// hsa_status_t through hsa.StatusOf, the one mapping table.
//
// Functions rocpu does not implement (the HSAIL finalizer, the pre-1.1
// code-object API, IPC, interop, SVM attributes and migration, soft
// queues and the AMD image layouts) return
// HSA_STATUS_ERROR and write nothing. The images extension (hsa_image.c,
// package hsa's image.go) creates images and samplers whose handles are
// the addresses of their hardware descriptors, as kernels expect.
// Setting ROCPU_CAPI_TRACE=1 prints every failing call with its Go error to
// stderr.
//
// Testing (capi_test.go) builds the real library and drives it from C:
// testdata/api.c (values of every area, signals, queues, a barrier packet),
// bad.c (the status of bad input), dispatch.c (code object to kernel result,
// the loader extension, profiling, a device fault), threads.c (concurrent
// producers and waiters); it compares the exports with ROCr's and with what
// HIP and rocminfo import, runs Debian's rocminfo through the preload shim,
// and runs HIP programs built by hipcc (testdata/hip_*.hip). Each part skips
// when its tool (gcc, clang-15, hipcc, rocminfo) is missing.
//
// The package is linked into the shared library by the main package in
// ./lib:
//
//	go build -buildmode=c-shared \
//	  -ldflags='-extldflags "-Wl,-soname,libhsa-runtime64.so.1 -Wl,--version-script=$PWD/capi/lib/exports.map"' \
//	  -o bin/libhsa-runtime64.so.1 ./capi/lib
//
// (cgo refuses -soname and --version-script in #cgo LDFLAGS, so the build
// passes them to the external linker). The --stats summary of `rocpu exec`
// is printed by a C destructor when ROCPU_STATS is set: kernels dispatched
// and emulated time (hsa.Runtime.Stats, over every runtime hsa_init
// opened) and the device counters of every queue, destroyed ones included.
// preload/rocpu_preload.c is the LD_PRELOAD shim `rocpu exec` uses so that
// rocminfo's open("/dev/kfd") succeeds on a machine without the driver.
package capi
