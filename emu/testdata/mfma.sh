#!/bin/sh
# Builds mfma.gfx90a.hsaco and mfma.gfx908.hsaco (used by TestMFMA) from mfma.cl.
set -e
cd "$(dirname "$0")"
for cpu in gfx90a gfx908; do
  clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=4 -O2 -nogpulib -o mfma.$cpu.hsaco mfma.cl
done
