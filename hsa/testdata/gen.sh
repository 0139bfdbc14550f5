#!/bin/sh
# Regenerates the loader's test code objects with Debian's clang-15.
# The kernels use only builtins, so no device libraries are needed.
set -e
cd "$(dirname "$0")"
CL="clang-15 -target amdgcn-amd-amdhsa -cl-std=CL2.0 -cl-kernel-arg-info -O2 -nogpulib"
$CL -mcpu=gfx90a -o kernels.gfx90a.co4.hsaco kernels.cl
$CL -mcpu=gfx90a -mcode-object-version=5 -o kernels.gfx90a.co5.hsaco kernels.cl
$CL -mcpu=gfx906 -o kernels.gfx906.co4.hsaco kernels.cl
$CL -mcpu=gfx900 -mcode-object-version=2 -o kernels.gfx900.co2.hsaco kernels.cl
$CL -mcpu=gfx906 -mcode-object-version=3 -o kernels.gfx906.co3.hsaco kernels.cl
$CL -mcpu=gfx90a -o ext.gfx90a.co4.hsaco ext.cl
$CL -mcpu=gfx90a -o fault.gfx90a.co4.hsaco fault.cl
clang-offload-bundler-15 -type=o \
  -targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx906,hipv4-amdgcn-amd-amdhsa--gfx90a \
  -input=/dev/null -input=kernels.gfx906.co4.hsaco -input=kernels.gfx90a.co4.hsaco \
  -output=kernels.bundle
# OpenCL printf needs LLVM 15's printf pass on typed pointers and the
# device libraries (the recipe of codeobject/testdata/printf/build.sh).
L=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
t=$(mktemp -d)
clang-15 -Xclang -no-opaque-pointers -x cl -cl-std=CL2.0 -cl-kernel-arg-info --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c -emit-llvm printf.cl -o $t/k.bc
opt-15 -opaque-pointers=1 $t/k.bc -o $t/o.bc
llvm-link-15 $t/o.bc -only-needed $L/opencl.bc $L/ocml.bc $L/ockl.bc $L/oclc_daz_opt_off.bc $L/oclc_unsafe_math_off.bc \
  $L/oclc_finite_only_off.bc $L/oclc_correctly_rounded_sqrt_off.bc $L/oclc_wavefrontsize64_on.bc $L/oclc_isa_version_90a.bc \
  $L/oclc_abi_version_400.bc -o $t/l.bc
clang-15 --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 $t/l.bc -o printf.gfx90a.co4.hsaco
rm -r $t
# A HIP host executable whose .hip_fatbin bundles gfx90a and gfx906 code.
hipcc --offload-arch=gfx90a --offload-arch=gfx906 -O2 -o vadd.hipexe vadd.hip
strip vadd.hipexe
# A kernel storing to a signal through ockl (value, mailbox, s_sendmsg).
t=$(mktemp -d)
clang-15 -x cl -cl-std=CL2.0 -cl-kernel-arg-info --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c -emit-llvm signal.cl -o $t/s.bc
llvm-link-15 $t/s.bc -only-needed $L/opencl.bc $L/ockl.bc $L/oclc_isa_version_90a.bc $L/oclc_abi_version_400.bc \
  $L/oclc_wavefrontsize64_on.bc -o $t/l.bc
clang-15 --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 $t/l.bc -o signal.gfx90a.co4.hsaco
rm -r $t
