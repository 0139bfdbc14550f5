#!/bin/sh
# Builds mfma.gfx90a.hsaco (used by TestMFMA) from mfma.cl.
set -e
cd "$(dirname "$0")"
clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx90a -mcode-object-version=4 -O2 -nogpulib -o mfma.gfx90a.hsaco mfma.cl
