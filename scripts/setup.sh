#!/usr/bin/env bash
# setup.sh — install what rocpu's build, demo and tests need on Debian 12.
#
# Idempotent: when everything is present it checks and exits in well under a
# second. It prints every package it installs. As a non-root user with packages
# missing it fails and names them.
set -euo pipefail

# The ROCm pieces rocpu is tested with, all from Debian 12, plus the C
# toolchain that cgo (the PoCL oracle, the C ABI library) needs.
packages=(
  clang-15 lld-15 llvm-15            # compiles/assembles the corpus; llvm-readelf/objdump/mc goldens
  rocm-device-libs                   # OpenCL/HIP device library bitcode
  hipcc libamdhip64-dev              # HIP compiler driver and runtime (the drop-in's client)
  libhsa-runtime-dev                 # hsa.h and friends: the C ABI rocpu implements
  libamd-comgr2 librocprim-dev rocminfo
  librocrand-dev librocsparse-dev   # ROCm libraries with gfx90a kernels, run unmodified (testdata/hipapps)
  pocl-opencl-icd ocl-icd-opencl-dev clinfo   # PoCL: native OpenCL, the kernel oracle
  gcc make git ca-certificates
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup.sh: these Debian packages are missing: ${missing[*]}" >&2
    echo "setup.sh: run as root (or: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "setup.sh: installing ${#missing[@]} package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/rocpu-setup-apt.log 2>&1 || {
    echo "setup.sh: apt-get install failed; last lines of /tmp/rocpu-setup-apt.log:" >&2
    tail -n 20 /tmp/rocpu-setup-apt.log >&2
    exit 1
  }
  echo "setup.sh: installed: ${missing[*]}"
else
  echo "setup.sh: all ${#packages[@]} Debian packages present"
fi

# Go: the module needs go >= 1.21 to fetch the 1.26 toolchain itself.
if ! command -v go >/dev/null 2>&1; then
  for d in /usr/local/go/bin /usr/lib/go/bin; do
    [[ -x $d/go ]] && export PATH="$d:$PATH" && break
  done
fi
if ! command -v go >/dev/null 2>&1; then
  echo "setup.sh: no Go toolchain found; install Go 1.26 (https://go.dev/dl) and put it on PATH" >&2
  exit 1
fi
gov=$(go env GOVERSION 2>/dev/null || echo unknown)
echo "setup.sh: using $gov ($(command -v go))"
