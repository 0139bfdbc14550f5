#!/bin/sh
# Rebuilds the test objects of package emu from kernels.cl (clang-15 and
# Debian's rocm-device-libs). Floats are built with -ffp-contract=off so Go
# references can be exact.
set -e
cd "$(dirname "$0")"
B=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
for cpu in gfx90a gfx900 gfx940; do
  for opt in O2 O0; do
    isa=$(echo $cpu | sed 's/gfx//')
    clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=4 -nogpulib -$opt \
      -ffp-contract=off -cl-fp32-correctly-rounded-divide-sqrt \
      -Xclang -mlink-builtin-bitcode -Xclang $B/opencl.bc -Xclang -mlink-builtin-bitcode -Xclang $B/ockl.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/ocml.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_isa_version_$isa.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_abi_version_400.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_wavefrontsize64_on.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_correctly_rounded_sqrt_on.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_finite_only_off.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_unsafe_math_off.bc \
      -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_daz_opt_off.bc \
      kernels.cl -o kernels.$cpu.$opt.hsaco
  done
done
for cpu in gfx90a gfx900; do
  isa=$(echo $cpu | sed 's/gfx//')
  clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=4 -nogpulib -O2 \
    -Xclang -mlink-builtin-bitcode -Xclang $B/opencl.bc -Xclang -mlink-builtin-bitcode -Xclang $B/ockl.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/ocml.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_isa_version_$isa.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_abi_version_400.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_wavefrontsize64_on.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_correctly_rounded_sqrt_on.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_finite_only_off.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_unsafe_math_off.bc \
    -Xclang -mlink-builtin-bitcode -Xclang $B/oclc_daz_opt_off.bc \
    math.cl -o math.$cpu.O2.hsaco
done
