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
// the amd_signal_t and amd_queue_t structures, entering Go only to wake
// waiters after a signal changes.
//
// Handles: hsa_signal_t.handle is its amd_signal_t's address and an
// hsa_queue_t* is a populated amd_queue_t, as the ABI requires; agents,
// pools/regions, ISAs, caches, wavefronts, executables, symbols, code-object
// readers and loaded code objects are package hsa's opaque handles, which it
// validates (stale handles give the matching HSA_STATUS_ERROR_INVALID_*).
// Signal groups are indices into a table here. Every Go error becomes an
// hsa_status_t through hsa.StatusOf, the one mapping table.
//
// Functions rocpu does not implement (images and samplers, the HSAIL
// finalizer, the pre-1.1 code-object API, IPC, interop, SVM attributes and
// migration, soft queues) return HSA_STATUS_ERROR and write nothing.
// Setting ROCPU_CAPI_TRACE=1 prints every failing call with its Go error to
// stderr.
//
// The package is linked into the shared library by the main package in
// ./lib:
//
//	go build -buildmode=c-shared -o build/libhsa-runtime64.so.1 ./capi/lib
//
// which adds the SONAME and the ROCR_1 version script (lib/exports.map).
// preload/rocpu_preload.c is the LD_PRELOAD shim `rocpu exec` uses so that
// rocminfo's open("/dev/kfd") succeeds on a machine without the driver.
package capi
