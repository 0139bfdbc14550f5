// common.h: checking helpers for the hipapps programs. Each program checks
// its results against a host computation and prints "PASS <name>" and
// returns 0, or says what differed on stderr and returns non-zero.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>

#define CHECK(call)                                                         \
  do {                                                                      \
    hipError_t err_ = (call);                                               \
    if (err_ != hipSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,  \
              hipGetErrorString(err_));                                     \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

// EXPECT counts a failed check and reports it; programs end with DONE.
static int failures_ = 0;
#define EXPECT(cond, ...)                                                   \
  do {                                                                      \
    if (!(cond)) {                                                          \
      if (failures_ < 20) {                                                 \
        fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,    \
                #cond);                                                     \
        fprintf(stderr, __VA_ARGS__);                                       \
        fprintf(stderr, "\n");                                              \
      }                                                                     \
      failures_++;                                                          \
    }                                                                       \
  } while (0)

#define DONE(name)                                                          \
  do {                                                                      \
    if (failures_) {                                                        \
      fprintf(stderr, "FAIL %s: %d checks failed\n", name, failures_);      \
      return 1;                                                             \
    }                                                                       \
    printf("PASS %s\n", name);                                              \
    return 0;                                                               \
  } while (0)

// lcg returns a deterministic pseudo-random sequence so runs are repeatable.
static inline unsigned lcg(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}
