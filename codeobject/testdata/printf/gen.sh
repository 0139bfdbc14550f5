#!/bin/sh
# Regenerates the printf test objects and their llvm-readelf-15 goldens
# (see build.sh for why OpenCL printf needs these steps with LLVM 15).
set -e
cd "$(dirname "$0")"
./build.sh printf.cl gfx90a 5 printf.gfx90a.co5.hsaco
./build.sh printf.cl gfx900 2 printf.gfx900.co2.hsaco
for f in *.hsaco; do
	llvm-readelf-15 --notes "$f" > "$f.notes.txt"
done
