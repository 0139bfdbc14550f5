#!/bin/sh
# Regenerates the kernarg test objects and their llvm-readelf-15 goldens.
# Needs clang-15, opt-15, llvm-link-15, llvm-readelf-15 and Debian's
# rocm-device-libs. ../printf/build.sh explains the compile steps.
set -e
cd "$(dirname "$0")"
B=../printf/build.sh
$B kinds.cl gfx803 5 kinds.gfx803.co5.hsaco
$B kinds.cl gfx90a 5 kinds.gfx90a.co5.hsaco
$B kinds.cl gfx90a 4 kinds.gfx90a.co4.hsaco
$B kinds.cl gfx900 2 kinds.gfx900.co2.hsaco
for f in *.hsaco; do
	llvm-readelf-15 --notes "$f" > "$f.notes.txt"
done
