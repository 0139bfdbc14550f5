// common.h: shared checking helpers for the corpus HIP programs. Every
// program exits non-zero (and says why on stderr) when a HIP call fails or a
// result is wrong, and prints "PASSED <name>" on success.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                         \
  do {                                                                      \
    hipError_t err_ = (call);                                               \
    if (err_ != hipSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,  \
              hipGetErrorString(err_));                                     \
      exit(2);                                                              \
    }                                                                       \
  } while (0)

#define EXPECT(cond, ...)                                                   \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,      \
              #cond);                                                       \
      fprintf(stderr, __VA_ARGS__);                                         \
      fprintf(stderr, "\n");                                                \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

// lcg returns a deterministic pseudo-random sequence so runs are repeatable.
static inline unsigned lcg(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}
