#!/usr/bin/env bash
# corpus.sh — build the kernel corpus in testdata/kernels (the `make corpus`
# target): compile every OpenCL C source, assemble the AMDGPU assembly
# kernels and build the HIP programs with Debian's LLVM 15 toolchain, write
# the llvm-readelf / llvm-objdump goldens beside every code object, and
# regenerate manifest.json.
#
# Deterministic: fixed flags, no -g, every tool runs inside the output
# directory on relative paths, so two runs produce identical bytes (check with
# `bash scripts/corpus.sh && git status testdata/kernels`). Idempotent: it
# rebuilds everything from scratch each time (old outputs are removed first).
#
# Environment: JOBS (parallel compiles, default 2), CORPUS_ONLY (a regexp over
# source names to build a subset while developing; the manifest then only
# lists that subset, so do not commit such a run).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
K=testdata/kernels
JOBS=${JOBS:-2}
ONLY=${CORPUS_ONLY:-}

die() { echo "corpus.sh: $*" >&2; exit 1; }

# --- tools -----------------------------------------------------------------
need=(clang-15 llvm-mc-15 ld.lld-15 llvm-readelf-15 llvm-objdump-15
      llvm-objcopy-15 llvm-link-15 opt-15 clang-offload-bundler-15 hipcc go)
missing=()
for t in "${need[@]}"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
((${#missing[@]} == 0)) || die "missing tools: ${missing[*]} (run scripts/setup.sh as root; clang-15 lld-15 llvm-15 hipcc)"
BC=$(dpkg -L rocm-device-libs 2>/dev/null | grep '/ocml\.bc$' | head -n1 | xargs -r dirname || true)
[[ -n $BC && -f $BC/opencl.bc ]] || die "rocm-device-libs bitcode not found (apt-get install rocm-device-libs)"
[[ -d /usr/include/rocprim ]] || die "rocPRIM headers missing (apt-get install librocprim-dev)"

# --- the build matrix --------------------------------------------------------
TARGETS=(gfx803 gfx900 gfx906 gfx908 gfx90a gfx940 gfx1030)
# The committed corpus must stay small (well under 40 MB; the objdump
# goldens dominate), so beyond versions 4 and 5 for every source and target
# the matrix samples:
# Code object version 2 exists for gfx803..gfx906 only (LLVM 15 refuses it
# for gfx908 and later): built for one GFX8 and one GFX9 processor.
# Version 3 differs from 4 only in the ELF ABI version, the e_flags
# xnack/sramecc bits and the metadata version: built for gfx900.
COV2_TARGETS=(gfx803 gfx900)
COV3_TARGETS=(gfx900)
# -O0 builds: a representative subset of sources, wave64 and wave32.
O0_SOURCES=(vector_add int_alu divergence reduce_lds scratch byval_args grid_ids printf)
O0_TARGETS=(gfx90a gfx1030)
# Float sources are also built with -ffp-contract=off, so their results can
# be compared exactly with PoCL / Go references (see manifest fp_contract).
FPC_OFF_SOURCES=(saxpy f32_exact f32_math f64 half matmul_tiled byval_args calls)
FPC_OFF_TARGETS=(gfx90a gfx1030)
FPC_OFF_COVS=(5)
# HIP: gfx90a at hipcc's default code object version 4, version 5 for a
# subset, gfx1030 at version 4; vector_add also at -O0.
HIP_COV5=(vector_add reduce_shared atomics printf flag_wait)

wave_of() { [[ $1 == gfx10* || $1 == gfx11* ]] && echo 32 || echo 64; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rocpu-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rows" "$work/fail"

rm -rf "$K/obj" "$K/hip"
mkdir -p "$K/obj" "$K/hip"

wanted() { [[ -z $ONLY ]] || [[ $1 =~ $ONLY ]]; }

# goldens DIR FILE TARGET [noobjdump]: write LLVM's view of a code object
# beside it. Run in the file's directory so the only path in the output is
# the bare file name.
goldens() {
  local dir=$1 f=$2 cpu=$3 noobjdump=${4:-}
  (cd "$dir" &&
    llvm-readelf-15 -h -l -S -s -r -n --dyn-syms "$f" >"$f.readelf.txt" &&
    if [[ -z $noobjdump ]]; then llvm-objdump-15 -d --mcpu="$cpu" "$f" >"$f.objdump.txt"; fi)
}

# row FIELDS...: one tab-separated manifest row per object, collected
# per job and sorted at the end (the job order is not deterministic).
row() { local IFS=$'\t'; echo "$*" >"$work/rows/$(echo "$1" | tr '/' '_').tsv"; }

# build_cl NAME SRC CPU COV OPT FPC
build_cl() {
  local name=$1 src=$2 cpu=$3 cov=$4 opt=$5 fpc=$6
  local out="$name.$cpu.co$cov.O$opt.hsaco"
  local base=(-x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$cpu"
              -mcode-object-version="$cov" "-O$opt")
  [[ $fpc == off ]] && base+=(-ffp-contract=off)
  local cmd
  if [[ $(basename "$src") == printf.cl ]]; then
    # LLVM 15's AMDGPUPrintfRuntimeBinding silently drops printf calls under
    # opaque pointers, and Debian's opencl.bc defines a stub printf, so the
    # printf source is built in two steps: the front end (typed pointers, no
    # device libraries) lowers printf to the printf buffer, then the module
    # is linked with the device libraries and compiled.
    # The device libraries clang would link for this target and version.
    local libs
    libs=$(cd "$K/obj" && clang-15 "${base[@]}" --rocm-device-lib-path="$BC" "../$src" -o x.hsaco -### 2>&1 |
           grep -o '"-mlink-builtin-bitcode" "[^"]*"' | sed 's/"-mlink-builtin-bitcode" //; s/"//g' | tr '\n' ' ') || true
    if [[ -z $libs ]]; then
      echo "FAIL $out: could not list the device libraries" >"$work/fail/$out.log"
      return 0
    fi
    local t="$work/$out"
    # At -O0 the front end does not run the printf lowering and marks every
    # function optnone, which the lowering pass then skips: lower printf
    # explicitly with opt (a no-op at -O2, where the front end already did),
    # keeping functions without optnone (the later -O0 steps optimise nothing).
    local O0_KEEP=""
    [[ $opt == 0 ]] && O0_KEEP="-Xclang -disable-O0-optnone"
    cmd="clang-15 ${base[*]} $O0_KEEP -nogpulib -Xclang -no-opaque-pointers -emit-llvm -c $src; opt-15 -opaque-pointers=0 -enable-new-pm=0 -mcpu=$cpu -amdgpu-printf-runtime-binding; opt-15 -opaque-pointers; llvm-link-15 --internalize --only-needed <device libs>; clang-15 --target=amdgcn-amd-amdhsa -mcpu=$cpu -mcode-object-version=$cov -O$opt -nogpulib -x ir"
    (cd "$K/obj" &&
      clang-15 "${base[@]}" $O0_KEEP -nogpulib -Xclang -no-opaque-pointers -emit-llvm -c "../$src" -o "$t.1.bc" &&
      opt-15 -opaque-pointers=0 -enable-new-pm=0 -mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" \
        -amdgpu-printf-runtime-binding "$t.1.bc" -o "$t.1p.bc" &&
      opt-15 -opaque-pointers "$t.1p.bc" -o "$t.2.bc" &&
      llvm-link-15 "$t.2.bc" --internalize --only-needed $libs -o "$t.3.bc" &&
      clang-15 --target=amdgcn-amd-amdhsa -mcpu="$cpu" -mcode-object-version="$cov" "-O$opt" \
        $([[ $fpc == off ]] && echo -ffp-contract=off) -nogpulib -x ir "$t.3.bc" -o "$out") \
      >"$work/fail/$out.log" 2>&1 || { echo "FAIL $out" >>"$work/fail/$out.log"; return 0; }
  else
    cmd="clang-15 ${base[*]} --rocm-device-lib-path=$BC $src"
    (cd "$K/obj" && clang-15 "${base[@]}" --rocm-device-lib-path="$BC" "../$src" -o "$out") \
      >"$work/fail/$out.log" 2>&1 || { echo "FAIL $out" >>"$work/fail/$out.log"; return 0; }
  fi
  goldens "$K/obj" "$out" "$cpu" || { echo "FAIL goldens $out" >>"$work/fail/$out.log"; return 0; }
  rm -f "$work/fail/$out.log"
  row "obj/$out" "$src" opencl "$cpu" "$cov" "$opt" "$fpc" "$(wave_of "$cpu")" "$cmd"
}

# build_asm NAME SRC CPU COV DEFSYMS...
build_asm() {
  local name=$1 src=$2 cpu=$3 cov=$4; shift 4
  local out="$name.$cpu.co$cov.O0.hsaco" defs=() strip=()
  for d in "$@"; do defs+=(--defsym "$d=1"); strip+=(--strip-symbol="$d"); done
  local cmd="llvm-mc-15 -triple=amdgcn-amd-amdhsa -mcpu=$cpu --amdhsa-code-object-version=$cov ${defs[*]} -filetype=obj $src; llvm-objcopy-15 ${strip[*]}; ld.lld-15 -shared"
  (cd "$K/obj" &&
    llvm-mc-15 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" --amdhsa-code-object-version="$cov" "${defs[@]}" \
      -filetype=obj "../$src" -o "$work/$out.o" &&
    { ((${#strip[@]} == 0)) || llvm-objcopy-15 "${strip[@]}" "$work/$out.o"; } &&
    ld.lld-15 -shared "$work/$out.o" -o "$out") >"$work/fail/$out.log" 2>&1 ||
    { echo "FAIL $out" >>"$work/fail/$out.log"; return 0; }
  goldens "$K/obj" "$out" "$cpu" || { echo "FAIL goldens $out" >>"$work/fail/$out.log"; return 0; }
  rm -f "$work/fail/$out.log"
  row "obj/$out" "$src" asm "$cpu" "$cov" 0 "" "$(wave_of "$cpu")" "$cmd"
}

# build_hip NAME SRC CPU COV OPT: host executable, its device bundle (.hipfb)
# and the unbundled device code object with goldens.
build_hip() {
  local name=$1 src=$2 cpu=$3 cov=$4 opt=$5
  local out="$name.$cpu.co$cov.O$opt"
  local flags=(--offload-arch="$cpu" "-O$opt" -mcode-object-version="$cov")
  [[ $name == rocprim ]] && flags+=(-std=c++17)
  local cmd="hipcc ${flags[*]} $src"
  (cd "$K/hip" &&
    hipcc "${flags[@]}" "../$src" -o "$out" &&
    llvm-objcopy-15 --dump-section .hip_fatbin="$out.hipfb" "$out" "$work/$out.tmp" &&
    clang-offload-bundler-15 --unbundle --type=o --input="$out.hipfb" \
      --targets="hipv4-amdgcn-amd-amdhsa--$cpu" --output="$out.hsaco") \
    >"$work/fail/$out.log" 2>&1 || { echo "FAIL $out" >>"$work/fail/$out.log"; return 0; }
  # rocPRIM's device code disassembles to 2 MB per target: keep it for
  # gfx90a only (the manifest's objdump field is empty for the others).
  local noobjdump=""
  [[ $name == rocprim && $cpu != gfx90a ]] && noobjdump=yes
  goldens "$K/hip" "$out.hsaco" "$cpu" $noobjdump || { echo "FAIL goldens $out" >>"$work/fail/$out.log"; return 0; }
  rm -f "$work/fail/$out.log"
  row "hip/$out" "$src" hip "$cpu" "$cov" "$opt" fast "$(wave_of "$cpu")" "$cmd"
}

# Run up to JOBS builds at once.
running=0
spawn() {
  "$@" &
  running=$((running + 1))
  if ((running >= JOBS)); then wait -n || true; running=$((running - 1)); fi
}

start=$(date +%s)
for src in "$K"/src/opencl/*.cl; do
  src=${src#"$K"/}
  name=$(basename "$src" .cl)
  wanted "$name" || continue
  for cpu in "${TARGETS[@]}"; do
    for cov in 4 5; do spawn build_cl "$name" "$src" "$cpu" "$cov" 2 on; done
  done
  for cpu in "${COV2_TARGETS[@]}"; do spawn build_cl "$name" "$src" "$cpu" 2 2 on; done
  for cpu in "${COV3_TARGETS[@]}"; do spawn build_cl "$name" "$src" "$cpu" 3 2 on; done
  if [[ " ${O0_SOURCES[*]} " == *" $name "* ]]; then
    for cpu in "${O0_TARGETS[@]}"; do spawn build_cl "$name" "$src" "$cpu" 4 0 on; done
  fi
  if [[ " ${FPC_OFF_SOURCES[*]} " == *" $name "* ]]; then
    for cpu in "${FPC_OFF_TARGETS[@]}"; do
      for cov in "${FPC_OFF_COVS[@]}"; do spawn build_cl "$name-fpc-off" "$src" "$cpu" "$cov" 2 off; done
    done
  fi
done

if wanted initial_state; then
  spawn build_asm initial_state_v3 src/asm/initial_state_v3.s gfx900 4
  spawn build_asm initial_state_v3 src/asm/initial_state_v3.s gfx90a 4 PACKED_TID
  spawn build_asm initial_state_v3 src/asm/initial_state_v3.s gfx1030 4 WAVE32
  spawn build_asm initial_state_v2 src/asm/initial_state_v2.s gfx803 2
  spawn build_asm initial_state_v2 src/asm/initial_state_v2.s gfx900 2 GFX9
fi

for src in "$K"/src/hip/*.hip; do
  src=${src#"$K"/}
  name=$(basename "$src" .hip)
  wanted "$name" || continue
  spawn build_hip "$name" "$src" gfx90a 4 2
  spawn build_hip "$name" "$src" gfx1030 4 2
  if [[ " ${HIP_COV5[*]} " == *" $name "* ]]; then spawn build_hip "$name" "$src" gfx90a 5 2; fi
  if [[ $name == vector_add ]]; then spawn build_hip "$name" "$src" gfx90a 4 0; fi
done
wait

# --- manifest ---------------------------------------------------------------
sort "$work"/rows/*.tsv >"$work/objects.tsv" 2>/dev/null || : >"$work/objects.tsv"
toolchain=$(clang-15 --version | head -n1)
go run ./scripts/corpus/genmanifest -objects "$work/objects.tsv" -toolchain "$toolchain" \
  -devicelibs "$BC" -out "$K/manifest.json"

# --- summary ----------------------------------------------------------------
echo "corpus: built $(wc -l <"$work/objects.tsv") code objects in $(($(date +%s) - start))s"
printf '  %-10s %s\n' target objects
cut -f4 "$work/objects.tsv" | sort | uniq -c | awk '{printf "  %-10s %d\n", $2, $1}'
echo "  by language: $(cut -f3 "$work/objects.tsv" | sort | uniq -c | awk '{printf "%s=%d ", $2, $1}')"
echo "  sizes: obj $(du -sh "$K/obj" | cut -f1), hip $(du -sh "$K/hip" | cut -f1), total $(du -sh "$K" | cut -f1)"
# The tree must not mention where it was built.
if grep -rlF "$root" "$K/obj" "$K/hip" "$K/manifest.json" >/dev/null 2>&1; then
  echo "corpus: the build directory $root leaked into:" >&2
  grep -rlF "$root" "$K/obj" "$K/hip" "$K/manifest.json" >&2
  exit 1
fi
nfail=$(ls "$work/fail" | wc -l)
if ((nfail > 0)); then
  echo "corpus: $nfail build(s) FAILED:" >&2
  for f in "$work"/fail/*.log; do echo "--- $(basename "$f" .log)" >&2; tail -n 5 "$f" >&2; done
  exit 1
fi
echo "corpus: OK"
