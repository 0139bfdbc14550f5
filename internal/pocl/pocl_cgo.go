//go:build cgo

package pocl

/*
#cgo LDFLAGS: -ldl
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

// The OpenCL entry points, resolved from libOpenCL.so.1 at run time so the
// build needs no OpenCL library.
#define RP_FUNCS(X) \
	X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clCreateContext) \
	X(clCreateCommandQueue) X(clCreateProgramWithSource) X(clBuildProgram) \
	X(clGetProgramBuildInfo) X(clCreateKernel) X(clCreateBuffer) X(clSetKernelArg) \
	X(clEnqueueNDRangeKernel) X(clEnqueueReadBuffer) X(clFinish) X(clReleaseMemObject) \
	X(clReleaseKernel) X(clReleaseProgram) X(clReleaseCommandQueue) X(clReleaseContext)

#define RP_DECL(f) static __typeof__(f) *p_##f;
RP_FUNCS(RP_DECL)

static int rp_loaded = 0;

// rp_load returns 0 when every entry point resolved.
static int rp_load(void) {
	if (rp_loaded) return rp_loaded > 0 ? 0 : -1;
	void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) { rp_loaded = -1; return -1; }
#define RP_SYM(f) p_##f = (__typeof__(f) *)dlsym(h, #f); if (!p_##f) { rp_loaded = -1; return -1; }
	RP_FUNCS(RP_SYM)
	rp_loaded = 1;
	return 0;
}

// rp_capture_begin redirects fd 1 into a temporary file (printf output of
// PoCL kernels goes to the process's stdout); it returns the saved fd, or
// -1. rp_capture_end restores fd 1 and returns the captured bytes
// (malloc'd, *len set).
static int rp_capture_begin(FILE **tmp) {
	fflush(stdout);
	*tmp = tmpfile();
	if (!*tmp) return -1;
	int saved = dup(1);
	if (saved < 0 || dup2(fileno(*tmp), 1) < 0) { fclose(*tmp); return -1; }
	return saved;
}

static char *rp_capture_end(FILE *tmp, int saved, long *len) {
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	long n = ftell(tmp);
	if (n < 0) n = 0;
	char *buf = malloc(n + 1);
	rewind(tmp);
	*len = (long)fread(buf, 1, n, tmp);
	fclose(tmp);
	return buf;
}

typedef struct {
	int kind;      // 0 buffer, 1 scalar, 2 local
	void *data;    // buffer contents / scalar bytes (C memory)
	size_t size;
	int out;
} rp_arg;

// rp_run returns CL_SUCCESS or an OpenCL error; *stage names the failing
// call; log receives the build log on CL_BUILD_PROGRAM_FAILURE.
// Returns 1 with stage "platform" when no PoCL platform exists.
static int rp_run(const char *src, const char *name, const char *opts, rp_arg *args, int nargs,
                  int dims, size_t *global, size_t *local, size_t *offset, const char **stage,
                  char *log, size_t logsz) {
	cl_int err;
	cl_platform_id plats[16];
	cl_uint np = 0;
	*stage = "clGetPlatformIDs";
	err = p_clGetPlatformIDs(16, plats, &np);
	if (err != CL_SUCCESS) return err;
	cl_platform_id plat = 0;
	for (cl_uint i = 0; i < np; i++) {
		char pname[256] = {0};
		if (p_clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL) == CL_SUCCESS &&
		    strstr(pname, "Portable Computing Language")) { plat = plats[i]; break; }
	}
	*stage = "platform";
	if (!plat) return 1;
	cl_device_id dev;
	*stage = "clGetDeviceIDs";
	err = p_clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
	if (err != CL_SUCCESS) return err;
	*stage = "clCreateContext";
	cl_context ctx = p_clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) return err;
	cl_command_queue q = NULL;
	cl_program prog = NULL;
	cl_kernel k = NULL;
	cl_mem *mems = calloc(nargs ? nargs : 1, sizeof(cl_mem));
	*stage = "clCreateCommandQueue";
	q = p_clCreateCommandQueue(ctx, dev, 0, &err);
	if (err != CL_SUCCESS) goto out;
	*stage = "clCreateProgramWithSource";
	prog = p_clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (err != CL_SUCCESS) goto out;
	*stage = "clBuildProgram";
	err = p_clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		p_clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, logsz - 1, log, NULL);
		goto out;
	}
	*stage = "clCreateKernel";
	k = p_clCreateKernel(prog, name, &err);
	if (err != CL_SUCCESS) goto out;
	for (int i = 0; i < nargs; i++) {
		*stage = "clSetKernelArg";
		switch (args[i].kind) {
		case 0:
			mems[i] = p_clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, args[i].size, args[i].data, &err);
			if (err != CL_SUCCESS) { *stage = "clCreateBuffer"; goto out; }
			err = p_clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]);
			break;
		case 1:
			err = p_clSetKernelArg(k, i, args[i].size, args[i].data);
			break;
		default:
			err = p_clSetKernelArg(k, i, args[i].size, NULL);
		}
		if (err != CL_SUCCESS) goto out;
	}
	*stage = "clEnqueueNDRangeKernel";
	err = p_clEnqueueNDRangeKernel(q, k, dims, offset, global, local[0] ? local : NULL, 0, NULL, NULL);
	if (err != CL_SUCCESS) goto out;
	for (int i = 0; i < nargs; i++) {
		if (args[i].kind == 0 && args[i].out) {
			*stage = "clEnqueueReadBuffer";
			err = p_clEnqueueReadBuffer(q, mems[i], CL_TRUE, 0, args[i].size, args[i].data, 0, NULL, NULL);
			if (err != CL_SUCCESS) goto out;
		}
	}
	*stage = "clFinish";
	err = p_clFinish(q);
out:
	for (int i = 0; i < nargs; i++) if (mems[i]) p_clReleaseMemObject(mems[i]);
	free(mems);
	if (k) p_clReleaseKernel(k);
	if (prog) p_clReleaseProgram(prog);
	if (q) p_clReleaseCommandQueue(q);
	p_clReleaseContext(ctx);
	return err;
}
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// mu serialises runs: PoCL itself is thread-safe, but one kernel at a time
// keeps the 2-core CI machine responsive and the build cache warm.
var mu sync.Mutex

func execute(r *Run, opts string) (*Result, error) {
	mu.Lock()
	defer mu.Unlock()
	if C.rp_load() != 0 {
		return nil, fmt.Errorf("%w: cannot load libOpenCL.so.1 (install ocl-icd-libopencl1 and pocl-opencl-icd)", ErrUnavailable)
	}
	n := len(r.Args)
	cargs := (*[1 << 20]C.rp_arg)(C.calloc(C.size_t(max(n, 1)), C.size_t(unsafe.Sizeof(C.rp_arg{}))))[:max(n, 1):max(n, 1)]
	defer C.free(unsafe.Pointer(&cargs[0]))
	for i, a := range r.Args {
		cargs[i].kind = C.int(a.Kind)
		switch a.Kind {
		case Local:
			cargs[i].size = C.size_t(a.Size)
		default:
			cargs[i].size = C.size_t(len(a.Data))
			cargs[i].data = C.CBytes(a.Data)
			defer C.free(cargs[i].data)
		}
		if a.Out {
			cargs[i].out = 1
		}
	}
	var global, local, offset [3]C.size_t
	for d := 0; d < 3; d++ {
		global[d], local[d], offset[d] = C.size_t(r.Global[d]), C.size_t(r.Local[d]), C.size_t(r.Offset[d])
	}
	csrc, cname, copts := C.CString(r.Source), C.CString(r.Kernel), C.CString(opts)
	defer C.free(unsafe.Pointer(csrc))
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(copts))
	const logsz = 1 << 16
	clog := (*C.char)(C.calloc(logsz, 1))
	defer C.free(unsafe.Pointer(clog))
	var stage *C.char
	var tmp *C.FILE
	saved := C.int(-1)
	if r.CaptureStdout {
		if saved = C.rp_capture_begin(&tmp); saved < 0 {
			return nil, fmt.Errorf("pocl: cannot redirect stdout to capture printf output")
		}
	}
	rc := C.rp_run(csrc, cname, copts, &cargs[0], C.int(n), C.int(r.Dims), &global[0], &local[0], &offset[0],
		&stage, clog, logsz)
	var stdout []byte
	if saved >= 0 {
		var l C.long
		buf := C.rp_capture_end(tmp, saved, &l)
		stdout = C.GoBytes(unsafe.Pointer(buf), C.int(l))
		C.free(unsafe.Pointer(buf))
	}
	switch {
	case rc == 1:
		return nil, fmt.Errorf("%w: no PoCL platform among the OpenCL platforms", ErrUnavailable)
	case rc == -1001: // CL_PLATFORM_NOT_FOUND_KHR from the ICD loader
		return nil, fmt.Errorf("%w: no OpenCL platform installed", ErrUnavailable)
	case rc != 0:
		err := clError(C.GoString(stage), int(rc))
		if l := C.GoString(clog); l != "" {
			err = fmt.Errorf("%w\nbuild log:\n%s", err, trimLog(l))
		}
		return nil, err
	}
	res := &Result{Buffers: make([][]byte, n), Stdout: stdout}
	for i, a := range r.Args {
		if a.Kind == Buffer && a.Out {
			res.Buffers[i] = C.GoBytes(cargs[i].data, C.int(len(a.Data)))
		}
	}
	return res, nil
}
