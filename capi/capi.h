/* capi.h: declarations shared by rocpu's C layer (hsa_*.c) and the Go
   preambles. The Go exports themselves are declared in _cgo_export.h. */
#ifndef ROCPU_CAPI_H
#define ROCPU_CAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Trampolines through which Go calls the application's C callbacks. */
void capi_call_queue_error(void *cb, int32_t status, uint64_t queue, void *data);
bool capi_call_signal_handler(void *fn, int64_t value, void *arg);
void capi_call_async_function(void *fn, void *arg);
int32_t capi_call_system_event(void *cb, uint64_t agent, uint64_t address, uint32_t reasons, void *data);

/* List kinds of rocpu_list (capi.go). */
enum {
  ROCPU_LIST_AGENTS = 0,
  ROCPU_LIST_ISAS = 1,
  ROCPU_LIST_CACHES = 2,
  ROCPU_LIST_POOLS = 3,
  ROCPU_LIST_WAVEFRONTS = 4,
  ROCPU_LIST_EXECUTABLES = 5,
  ROCPU_LIST_AGENT_SYMBOLS = 6,
  ROCPU_LIST_PROGRAM_SYMBOLS = 7,
  ROCPU_LIST_LOADED_CODE_OBJECTS = 8,
};

/* Queue operations of rocpu_queue_op (signals.go). */
enum {
  ROCPU_QUEUE_DESTROY = 0,
  ROCPU_QUEUE_INACTIVATE = 1,
  ROCPU_QUEUE_PRIORITY = 2,
  ROCPU_QUEUE_PROFILING = 3,
};

/* Executable operations of rocpu_executable_op (exec.go). */
enum {
  ROCPU_EXE_FREEZE = 0,
  ROCPU_EXE_DESTROY = 1,
};

#endif
