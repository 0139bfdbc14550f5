#!/bin/sh
# Regenerates the small LLVM-built test objects in this directory and their
# llvm-readelf-15 goldens. Needs clang-15, llvm-mc-15, llvm-readelf-15 and
# Debian's rocm-device-libs.
set -e
cd "$(dirname "$0")"
LIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
cl() { # cl CPU COV
	clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu=$1 -mcode-object-version=$2 \
		--rocm-device-lib-path=$LIBS -O2 kernels.cl -o kernels.$1.co$2.hsaco
}
cl gfx900 2
cl gfx900 3
cl gfx90a 4
cl gfx90a 5
cl gfx1030 5
llvm-mc-15 -triple amdgcn-amd-amdhsa -mcpu=gfx900 --amdhsa-code-object-version=4 -filetype=obj odd.s -o odd.gfx900.co4.o
for f in *.hsaco *.o; do
	llvm-readelf-15 -h -l -S -s -r -n --dyn-syms "$f" > "$f.readelf.txt"
done
# HIP: a host executable (kept for its .hip_fatbin) and the device bundle.
hipcc --offload-arch=gfx90a --offload-arch=gfx1030 scale.hip -o scale
objcopy -O binary --only-section=.hip_fatbin scale scale.hipfb
clang-offload-bundler-15 --list --type=o --input=scale.hipfb > scale.hipfb.list.txt
# Descriptor coverage: .amdhsa_* directives for one processor per generation.
(cd desc && python3 gen.py && for f in *.s; do t=${f%.s}; llvm-mc-15 -triple amdgcn-amd-amdhsa -mcpu=$t --amdhsa-code-object-version=4 -filetype=obj $f -o $t.o; done)
