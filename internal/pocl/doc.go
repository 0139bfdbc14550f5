// Package pocl is a test oracle: it runs an OpenCL C source natively on
// PoCL (the Portable Computing Language CPU implementation, Debian's
// pocl-opencl-icd) with given buffers, scalars, local sizes and global
// offsets, and returns the output buffers, so tests can compare rocpu's
// results with a native execution of the same source (DESIGN.md, "How
// correctness is known").
//
// Only tests import this package. It uses cgo, but loads the OpenCL ICD
// loader (libOpenCL.so.1) at run time with dlopen, so building needs only
// the OpenCL headers (ocl-icd-opencl-dev / opencl-c-headers) and no OpenCL
// library; without cgo, or when no PoCL platform is installed, Execute
// returns an error wrapping ErrUnavailable and tests skip.
//
// PoCL runs the work-items of a workgroup one after another between
// barriers, so kernels that spin on another work-item's flag never finish
// there; the corpus manifest marks them pocl=false.
package pocl
