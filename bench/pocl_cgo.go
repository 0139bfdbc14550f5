//go:build cgo

package bench

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The OpenCL 2.0 API subset used here, declared from the specification so
// that building needs no OpenCL headers; the entry points are resolved
// from libOpenCL.so.1 at run time.
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef cl_ulong cl_bitfield;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_event *cl_event;
typedef intptr_t cl_context_properties;
typedef intptr_t cl_device_partition_property;
typedef cl_bitfield cl_queue_properties;

#define CL_SUCCESS 0
#define CL_TRUE 1
#define CL_PLATFORM_NAME 0x0902
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFF
#define CL_DEVICE_NAME 0x102B
#define CL_PROGRAM_BUILD_LOG 0x1183
#define CL_MEM_READ_WRITE 1
#define CL_DEVICE_MAX_COMPUTE_UNITS 0x1002
#define CL_DEVICE_PARTITION_EQUALLY 0x1086

typedef cl_int (*t_clGetPlatformIDs)(cl_uint, cl_platform_id *, cl_uint *);
typedef cl_int (*t_clGetPlatformInfo)(cl_platform_id, cl_uint, size_t, void *, size_t *);
typedef cl_int (*t_clGetDeviceIDs)(cl_platform_id, cl_bitfield, cl_uint, cl_device_id *, cl_uint *);
typedef cl_int (*t_clGetDeviceInfo)(cl_device_id, cl_uint, size_t, void *, size_t *);
typedef cl_context (*t_clCreateContext)(const cl_context_properties *, cl_uint, const cl_device_id *, void *, void *, cl_int *);
typedef cl_command_queue (*t_clCreateCommandQueueWithProperties)(cl_context, cl_device_id, const cl_queue_properties *, cl_int *);
typedef cl_program (*t_clCreateProgramWithSource)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
typedef cl_int (*t_clBuildProgram)(cl_program, cl_uint, const cl_device_id *, const char *, void *, void *);
typedef cl_int (*t_clGetProgramBuildInfo)(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
typedef cl_kernel (*t_clCreateKernel)(cl_program, const char *, cl_int *);
typedef cl_mem (*t_clCreateBuffer)(cl_context, cl_bitfield, size_t, void *, cl_int *);
typedef cl_int (*t_clSetKernelArg)(cl_kernel, cl_uint, size_t, const void *);
typedef cl_int (*t_clEnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);
typedef cl_int (*t_clEnqueueReadBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);
typedef cl_int (*t_clEnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *);
typedef cl_int (*t_clFinish)(cl_command_queue);
typedef cl_int (*t_clReleaseMemObject)(cl_mem);
typedef cl_int (*t_clReleaseKernel)(cl_kernel);
typedef cl_int (*t_clReleaseProgram)(cl_program);
typedef cl_int (*t_clCreateSubDevices)(cl_device_id, const cl_device_partition_property *, cl_uint, cl_device_id *, cl_uint *);

#define BP_FUNCS(X) \
	X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext) \
	X(clCreateCommandQueueWithProperties) X(clCreateProgramWithSource) X(clBuildProgram) \
	X(clGetProgramBuildInfo) X(clCreateKernel) X(clCreateBuffer) X(clSetKernelArg) \
	X(clEnqueueNDRangeKernel) X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clFinish) \
	X(clReleaseMemObject) X(clReleaseKernel) X(clReleaseProgram) X(clCreateSubDevices)

#define BP_DECL(f) static t_##f bp_##f;
BP_FUNCS(BP_DECL)

// Side 0 is PoCL's whole device; side 1 a sub-device of one compute
// unit (one thread), for the scaling measurement.
static cl_device_id bp_dev[2];
static cl_context bp_ctx[2];
static cl_command_queue bp_q[2];

static cl_int bp_open(int side) {
	cl_int err;
	bp_ctx[side] = bp_clCreateContext(NULL, 1, &bp_dev[side], NULL, NULL, &err);
	if (err != CL_SUCCESS) return err;
	bp_q[side] = bp_clCreateCommandQueueWithProperties(bp_ctx[side], bp_dev[side], NULL, &err);
	return err;
}

// bp_init returns 0, 1 (no ICD loader), 2 (no PoCL platform) or an OpenCL
// error; *stage names the failing step.
static int bp_init(const char **stage, char *devname, size_t devsz) {
	*stage = "dlopen libOpenCL.so.1";
	void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) return 1;
#define BP_SYM(f) bp_##f = (t_##f)dlsym(h, #f); if (!bp_##f) return 1;
	BP_FUNCS(BP_SYM)
	cl_platform_id plats[16], plat = 0;
	cl_uint np = 0;
	*stage = "clGetPlatformIDs";
	cl_int err = bp_clGetPlatformIDs(16, plats, &np);
	if (err == -1001) return 2;
	if (err != CL_SUCCESS) return err;
	for (cl_uint i = 0; i < np; i++) {
		char name[256] = {0};
		if (bp_clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL) == CL_SUCCESS &&
		    strstr(name, "Portable Computing Language")) { plat = plats[i]; break; }
	}
	*stage = "platform";
	if (!plat) return 2;
	*stage = "clGetDeviceIDs";
	if ((err = bp_clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &bp_dev[0], NULL)) != CL_SUCCESS) return err;
	bp_clGetDeviceInfo(bp_dev[0], CL_DEVICE_NAME, devsz - 1, devname, NULL);
	*stage = "clCreateContext/clCreateCommandQueueWithProperties";
	return bp_open(0);
}

// bp_init_one makes side 1: a sub-device of one compute unit. It returns
// an OpenCL error, or -1 when the device has a single compute unit.
static int bp_init_one(void) {
	cl_uint cus = 0;
	cl_int err = bp_clGetDeviceInfo(bp_dev[0], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
	if (err != CL_SUCCESS) return err;
	if (cus < 2) return -1;
	cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
	cl_device_id subs[256];
	cl_uint n = 0;
	if ((err = bp_clCreateSubDevices(bp_dev[0], props, 256, subs, &n)) != CL_SUCCESS) return err;
	bp_dev[1] = subs[0];
	return bp_open(1);
}

static int bp_build(int side, const char *src, const char *opts, cl_program *out, char *log, size_t logsz) {
	cl_int err;
	cl_program p = bp_clCreateProgramWithSource(bp_ctx[side], 1, &src, NULL, &err);
	if (err != CL_SUCCESS) return err;
	err = bp_clBuildProgram(p, 1, &bp_dev[side], opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		bp_clGetProgramBuildInfo(p, bp_dev[side], CL_PROGRAM_BUILD_LOG, logsz - 1, log, NULL);
		bp_clReleaseProgram(p);
		return err;
	}
	*out = p;
	return 0;
}

static int bp_kernel(cl_program p, const char *name, cl_kernel *out) {
	cl_int err;
	*out = bp_clCreateKernel(p, name, &err);
	return err;
}

static int bp_buffer(int side, size_t size, cl_mem *out) {
	cl_int err;
	*out = bp_clCreateBuffer(bp_ctx[side], CL_MEM_READ_WRITE, size, NULL, &err);
	return err;
}

static int bp_write(int side, cl_mem m, size_t size, const void *p) {
	return bp_clEnqueueWriteBuffer(bp_q[side], m, CL_TRUE, 0, size, p, 0, NULL, NULL);
}

static int bp_read(int side, cl_mem m, size_t size, void *p) {
	return bp_clEnqueueReadBuffer(bp_q[side], m, CL_TRUE, 0, size, p, 0, NULL, NULL);
}

static int bp_arg_mem(cl_kernel k, cl_uint i, cl_mem m) { return bp_clSetKernelArg(k, i, sizeof m, &m); }
static int bp_arg_val(cl_kernel k, cl_uint i, size_t size, const void *p) { return bp_clSetKernelArg(k, i, size, p); }

static int bp_enqueue(int side, cl_kernel k, cl_uint dims, size_t g0, size_t g1, size_t g2, size_t l0, size_t l1, size_t l2) {
	size_t g[3] = {g0, g1, g2}, l[3] = {l0, l1, l2};
	return bp_clEnqueueNDRangeKernel(bp_q[side], k, dims, NULL, g, l, 0, NULL, NULL);
}

static int bp_cus(int side) {
	cl_uint cus = 0;
	bp_clGetDeviceInfo(bp_dev[side], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
	return (int)cus;
}

static int bp_finish(int side) { return bp_clFinish(bp_q[side]); }
static void bp_release_mem(cl_mem m) { bp_clReleaseMemObject(m); }
*/
import "C"

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"unsafe"
)

// pocl is process-wide: one context and in-order queue on PoCL's device
// (side 0), and on demand another on a one-compute-unit sub-device (side 1).
var pocl struct {
	once     sync.Once
	err      error
	device   string
	threads  int
	oneOnce  sync.Once
	oneErr   error
	programs [2]map[string]C.cl_program
	kernels  [2]map[string]C.cl_kernel
}

// PoCLOptions are the clBuildProgram options; the sources get
// "#pragma OPENCL FP_CONTRACT OFF" prepended, matching -ffp-contract=off
// on the gfx90a side.
const PoCLOptions = "-cl-std=CL3.0"

// PoCL runs workloads natively on PoCL.
type PoCL struct {
	side C.int // 0: the whole device; 1: one compute unit
}

// NewPoCL initialises PoCL with threads worker threads
// (POCL_MAX_PTHREAD_COUNT; 0 leaves PoCL's default). PoCL reads the
// variable once, so only the first call's threads count.
func NewPoCL(threads int) (*PoCL, error) {
	pocl.once.Do(func() {
		if threads > 0 {
			os.Setenv("POCL_MAX_PTHREAD_COUNT", strconv.Itoa(threads))
		}
		pocl.threads = threads
		var stage *C.char
		var name [256]C.char
		switch rc := C.bp_init(&stage, &name[0], C.size_t(len(name))); {
		case rc == 1:
			pocl.err = fmt.Errorf("%w: cannot load libOpenCL.so.1 (install ocl-icd-libopencl1 and pocl-opencl-icd)", ErrUnavailable)
		case rc == 2:
			pocl.err = fmt.Errorf("%w: no PoCL platform", ErrUnavailable)
		case rc != 0:
			pocl.err = fmt.Errorf("bench: pocl: %s: OpenCL error %d", C.GoString(stage), int(rc))
		}
		pocl.device = C.GoString(&name[0])
		for i := range pocl.programs {
			pocl.programs[i] = map[string]C.cl_program{}
			pocl.kernels[i] = map[string]C.cl_kernel{}
		}
	})
	if pocl.err != nil {
		return nil, pocl.err
	}
	return &PoCL{}, nil
}

// NewPoCLOne returns PoCL restricted to one thread: a sub-device of one
// compute unit (clCreateSubDevices, partitioned equally), the native
// reference for rocpu's one-worker time. It needs NewPoCL first.
func NewPoCLOne() (*PoCL, error) {
	if pocl.programs[0] == nil {
		return nil, fmt.Errorf("bench: pocl: NewPoCLOne before NewPoCL")
	}
	if pocl.err != nil {
		return nil, pocl.err
	}
	pocl.oneOnce.Do(func() {
		switch rc := C.bp_init_one(); {
		case rc == -1:
			pocl.oneErr = fmt.Errorf("%w: PoCL's device has a single compute unit", ErrUnavailable)
		case rc != 0:
			pocl.oneErr = clErr("clCreateSubDevices (one compute unit)", rc)
		}
	})
	if pocl.oneErr != nil {
		return nil, pocl.oneErr
	}
	return &PoCL{side: 1}, nil
}

// ComputeUnits is the number of compute units (threads) of p's device.
func (p *PoCL) ComputeUnits() int { return int(C.bp_cus(p.side)) }

// Name is "pocl".
func (*PoCL) Name() string { return "pocl" }

// Device is PoCL's device name.
func (*PoCL) Device() string { return pocl.device }

// Close does nothing: the PoCL context lives as long as the process.
func (*PoCL) Close() error { return nil }

func clErr(op string, rc C.int) error {
	if rc == 0 {
		return nil
	}
	return fmt.Errorf("bench: pocl: %s: OpenCL error %d", op, int(rc))
}

func poclKernel(side C.int, file, name string) (C.cl_kernel, error) {
	key := file + "/" + name
	if k, ok := pocl.kernels[side][key]; ok {
		return k, nil
	}
	p, ok := pocl.programs[side][file]
	if !ok {
		src, err := Source(file)
		if err != nil {
			return nil, err
		}
		csrc := C.CString("#pragma OPENCL FP_CONTRACT OFF\n" + src)
		defer C.free(unsafe.Pointer(csrc))
		copts := C.CString(PoCLOptions)
		defer C.free(unsafe.Pointer(copts))
		var log [1 << 14]C.char
		if rc := C.bp_build(side, csrc, copts, &p, &log[0], C.size_t(len(log))); rc != 0 {
			return nil, fmt.Errorf("bench: pocl: building %s.cl: OpenCL error %d\n%s", file, int(rc), C.GoString(&log[0]))
		}
		pocl.programs[side][file] = p
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var k C.cl_kernel
	if err := clErr("clCreateKernel "+name, C.bp_kernel(p, cname, &k)); err != nil {
		return nil, err
	}
	pocl.kernels[side][key] = k
	return k, nil
}

type poclInstance struct {
	side C.int
	w    *Workload
	mems []C.cl_mem
	ks   []C.cl_kernel
	// scalars holds the bytes of scalar arguments per dispatch and
	// argument (nil for others).
	scalars [][][]byte
}

// Prepare builds b's program (once) and creates w's buffers.
func (p *PoCL) Prepare(b *Benchmark, w *Workload) (Instance, error) {
	in := &poclInstance{side: p.side, w: w}
	for _, bf := range w.Buffers {
		var m C.cl_mem
		if err := clErr("clCreateBuffer", C.bp_buffer(in.side, C.size_t(max(len(bf.Init), 4)), &m)); err != nil {
			in.Close()
			return nil, err
		}
		in.mems = append(in.mems, m)
	}
	for _, d := range w.Dispatches {
		k, err := poclKernel(in.side, b.Name, d.Kernel)
		if err != nil {
			in.Close()
			return nil, err
		}
		sc := make([][]byte, len(d.Args))
		for j, a := range d.Args {
			if a.Kind == ArgScalar {
				if sc[j], err = scalarBytes(a.Value); err != nil {
					in.Close()
					return nil, err
				}
			}
		}
		in.ks = append(in.ks, k)
		in.scalars = append(in.scalars, sc)
	}
	return in, nil
}

func (in *poclInstance) Reset() error {
	for i, bf := range in.w.Buffers {
		if len(bf.Init) == 0 {
			continue
		}
		if err := clErr("clEnqueueWriteBuffer", C.bp_write(in.side, in.mems[i], C.size_t(len(bf.Init)), unsafe.Pointer(&bf.Init[0]))); err != nil {
			return err
		}
	}
	return nil
}

func (in *poclInstance) Run(ctx context.Context) error {
	for i := range in.w.Dispatches {
		d := &in.w.Dispatches[i]
		k := in.ks[i]
		for j, a := range d.Args {
			var rc C.int
			switch a.Kind {
			case ArgBuffer:
				rc = C.bp_arg_mem(k, C.cl_uint(j), in.mems[a.Buf])
			case ArgScalar:
				b := in.scalars[i][j]
				rc = C.bp_arg_val(k, C.cl_uint(j), C.size_t(len(b)), unsafe.Pointer(&b[0]))
			case ArgLocal:
				rc = C.bp_arg_val(k, C.cl_uint(j), C.size_t(a.Local), nil)
			}
			if err := clErr("clSetKernelArg", rc); err != nil {
				return err
			}
		}
		g, l := d.Global, d.Local
		if err := clErr("clEnqueueNDRangeKernel "+d.Kernel, C.bp_enqueue(in.side, k, C.cl_uint(d.Dims()),
			C.size_t(g[0]), C.size_t(g[1]), C.size_t(g[2]), C.size_t(l[0]), C.size_t(l[1]), C.size_t(l[2]))); err != nil {
			return err
		}
	}
	return clErr("clFinish", C.bp_finish(in.side))
}

func (in *poclInstance) Read(i int) ([]byte, error) {
	b := make([]byte, len(in.w.Buffers[i].Init))
	if len(b) == 0 {
		return b, nil
	}
	if err := clErr("clEnqueueReadBuffer", C.bp_read(in.side, in.mems[i], C.size_t(len(b)), unsafe.Pointer(&b[0]))); err != nil {
		return nil, err
	}
	return b, nil
}

func (in *poclInstance) Close() error {
	for _, m := range in.mems {
		C.bp_release_mem(m)
	}
	in.mems = nil
	return nil
}
