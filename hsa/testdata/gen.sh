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
$CL -mcpu=gfx90a -o ext.gfx90a.co4.hsaco ext.cl
clang-offload-bundler-15 -type=o \
  -targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx906,hipv4-amdgcn-amd-amdhsa--gfx90a \
  -input=/dev/null -input=kernels.gfx906.co4.hsaco -input=kernels.gfx90a.co4.hsaco \
  -output=kernels.bundle
