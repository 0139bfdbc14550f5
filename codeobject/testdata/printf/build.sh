#!/bin/sh
# build.sh SRC.cl CPU COV OUT: OpenCL C whose printf calls are lowered by
# LLVM 15's AMDGPUPrintfRuntimeBinding. That pass only works on typed
# pointers in LLVM 15 (with opaque pointers it silently deletes every printf
# call), so the source is compiled with -no-opaque-pointers, upgraded to
# opaque pointers, linked with Debian's rocm-device-libs, and compiled.
set -e
L=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
src=$1 cpu=$2 cov=$3 out=$4
t=$(mktemp -d)
clang-15 -Xclang -no-opaque-pointers -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=$cpu -nogpulib -O2 -c -emit-llvm "$src" -o $t/k.bc
opt-15 -opaque-pointers=1 $t/k.bc -o $t/o.bc
isa=$(echo $cpu | sed 's/gfx//')
abi=400; [ "$cov" -ge 5 ] && abi=500
llvm-link-15 $t/o.bc -only-needed $L/opencl.bc $L/ocml.bc $L/ockl.bc $L/oclc_daz_opt_off.bc $L/oclc_unsafe_math_off.bc $L/oclc_finite_only_off.bc $L/oclc_correctly_rounded_sqrt_off.bc $L/oclc_wavefrontsize64_on.bc $L/oclc_isa_version_$isa.bc $L/oclc_abi_version_$abi.bc -o $t/l.bc
clang-15 --target=amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=$cov -nogpulib -O2 $t/l.bc -o "$out"
rm -r $t
