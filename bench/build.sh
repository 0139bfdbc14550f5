#!/usr/bin/env bash
# build.sh — compile the benchmark kernels (bench/kernels/*.cl) for gfx90a
# with Debian's clang-15 and the ROCm device libraries, the way
# scripts/corpus.sh builds the OpenCL corpus, into bench/kernels/*.hsaco.
# The outputs are committed so the suite runs without LLVM; rerun this after
# editing a kernel. Flags: OpenCL C 2.0, code object version 4, -O2 and no
# FMA contraction (PoCL builds the same source with FP_CONTRACT OFF).
set -euo pipefail
cd "$(dirname "$0")/kernels"
command -v clang-15 >/dev/null || { echo "build.sh: clang-15 missing (apt-get install clang-15)" >&2; exit 1; }
BC=$(dpkg -L rocm-device-libs 2>/dev/null | grep '/ocml\.bc$' | head -n1 | xargs -r dirname || true)
[[ -n $BC && -f $BC/opencl.bc ]] || { echo "build.sh: rocm-device-libs bitcode not found" >&2; exit 1; }
for src in *.cl; do
  out=${src%.cl}.hsaco
  clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=gfx90a -mcode-object-version=4 \
    -O2 -ffp-contract=off --rocm-device-lib-path="$BC" "$src" -o "$out"
  echo "$out $(stat -c %s "$out") bytes"
done
