// Package bench is rocpu's performance suite (issue #8): ten OpenCL C
// kernels (kernels/*.cl) run at three sizes both natively on PoCL, the CPU
// OpenCL implementation, and on rocpu's emulated gfx90a through the Go API
// (package hsa), on the same cores and in the same process, alternating
// A B A B. Outputs are checked equal (integers exactly, floats exactly
// where the kernels have no transcendental, otherwise within a stated ULP
// bound) and the report gives the median and range per side, the ratio
// rocpu/PoCL per kernel and their geometric mean.
//
// Besides the kernels it measures empty-kernel dispatch latency and
// throughput, code object load and freeze time, decoder throughput,
// emulated instructions per second by class, scaling from one worker to
// two and time per element across sizes. Report renders Markdown, JSON and
// an SVG plot; `rocpu bench` is the command-line driver.
//
// The kernels are compiled for gfx90a by build.sh (clang-15 with the ROCm
// device libraries, -ffp-contract=off) and the code objects are embedded,
// so running the suite needs no LLVM; PoCL builds the embedded sources at
// run time with FP_CONTRACT OFF. Without cgo or PoCL the PoCL side reports
// ErrUnavailable and only rocpu is measured.
package bench
