// rocpu_preload.c: the LD_PRELOAD shim `rocpu exec` puts in front of stock
// ROCm tools on a machine without the amdgpu driver. Debian's rocminfo
// opens /dev/kfd read-write before it calls hsa_init and gives up when it
// cannot; rocpu needs no kernel driver, so this shim answers that open
// with a descriptor for /dev/null. Every other path goes to libc as is.
//
// It is C, not Go: a process can hold only one Go runtime, and that one
// belongs to rocpu's libhsa-runtime64.so.1.
//
//	gcc -shared -fPIC -O2 -o build/librocpu-preload.so capi/preload/rocpu_preload.c -ldl

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>

static const char *redirect(const char *path) {
  if (path != NULL && strcmp(path, "/dev/kfd") == 0) return "/dev/null";
  return path;
}

// mode_arg reads open's optional mode argument, present only when the
// flags create a file.
#define MODE_ARG(flags, mode)                        \
  do {                                               \
    if ((flags) & (O_CREAT | O_TMPFILE)) {           \
      va_list ap;                                    \
      va_start(ap, flags);                           \
      mode = va_arg(ap, int);                        \
      va_end(ap);                                    \
    }                                                \
  } while (0)

int open(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  int mode = 0;
  MODE_ARG(flags, mode);
  if (real == NULL) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  return real(redirect(path), flags, mode);
}

int open64(const char *path, int flags, ...) {
  static int (*real)(const char *, int, ...);
  int mode = 0;
  MODE_ARG(flags, mode);
  if (real == NULL) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open64");
  return real(redirect(path), flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
  static int (*real)(int, const char *, int, ...);
  int mode = 0;
  MODE_ARG(flags, mode);
  if (real == NULL) real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
  return real(dirfd, redirect(path), flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
  static int (*real)(int, const char *, int, ...);
  int mode = 0;
  MODE_ARG(flags, mode);
  if (real == NULL) real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat64");
  return real(dirfd, redirect(path), flags, mode);
}

// The _FORTIFY_SOURCE entry points a program built with fortification calls.
int __open_2(const char *path, int flags) {
  static int (*real)(const char *, int);
  if (real == NULL) real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "__open_2");
  return real(redirect(path), flags);
}

int __open64_2(const char *path, int flags) {
  static int (*real)(const char *, int);
  if (real == NULL) real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "__open64_2");
  return real(redirect(path), flags);
}
