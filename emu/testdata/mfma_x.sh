#!/bin/sh
# Builds mfma_x.gfx90a.hsaco and mfma_x.gfx940.hsaco (used by TestMFMAX) from mfma_x.cl.
set -e
cd "$(dirname "$0")"
clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx90a -mcode-object-version=4 -O2 -nogpulib -DGFX90A -o mfma_x.gfx90a.hsaco mfma_x.cl
clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx940 -mcode-object-version=4 -O2 -nogpulib -o mfma_x.gfx940.hsaco mfma_x.cl
