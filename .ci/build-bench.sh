#!/usr/bin/env bash
# Build-side numbers for cu_library's split compilation (one action per arch, docs/remote.md) against
# one nvcc action per source (--cuda_split=false), measured in this checkout's output base, -c opt.
# Prints a markdown table: wall time and Bazel's critical path (from its own summary line), and how
# many actions ran. Rows:
#   edit-rebuild: append a comment to elementwise.cu, rebuild //ops/cuda:kernels (median of REPEATS),
#     for one arch (9.0) and for the release list (7 archs + PTX);
#   clean build of //ops/... for the release list (the output base's action cache is cleared first
#     with `bazel clean`; repositories and the Go SDK stay), with --clean (slow: minutes each);
#   adding 10.0 to a built 9.0 list: which actions run and how long.
# With --clang, clang against nvcc as the CUDA compiler instead (docs/clang.md), both split: the
# edit-rebuild rows, and a clean -c opt build of //ops/cuda:kernels for the release list (`bazel
# clean` and no disk cache, so every compile runs).
# Usage: .ci/build-bench.sh [--clean|--clang] [REPEATS]   (from the repository root; extra Bazel flags
#   in BENCH_FLAGS, e.g. BENCH_FLAGS=--config=buildbarn)
set -euo pipefail
cd "$(dirname "$0")/.."
clean= compilers=
if [ "${1:-}" = "--clean" ]; then
  clean=1
  shift
elif [ "${1:-}" = "--clang" ]; then
  compilers=1
  shift
fi
reps=${1:-3}
src=ops/cuda/csrc/elementwise.cu
target=//ops/cuda:kernels
one='9.0'
release='7.5;8.0;8.6;8.9;9.0;10.0;12.0+PTX'
read -r -a extra <<<"${BENCH_FLAGS:-}"
bazel() { ./bazelw "$@"; }

# build FLAGS... : builds, prints "WALL CRITICAL ACTIONS" (seconds, seconds, processes run).
build() {
  local log t0 t1 crit procs
  log=$(mktemp)
  t0=$(date +%s.%N)
  if ! bazel build -c opt "${extra[@]}" "$@" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "build-bench.sh: bazel build $* failed (above)" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  crit=$(sed -n 's/.*Critical Path: \([0-9.]*\)s.*/\1/p' "$log" | tail -n1)
  procs=$(sed -n 's/^INFO: \([0-9]*\) process.*/\1/p' "$log" | tail -n1)
  rm -f "$log"
  echo "$(echo "$t1 - $t0" | bc) ${crit:-0} ${procs:-0}"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
restore() { if [ -f "$src.bench-orig" ]; then mv "$src.bench-orig" "$src"; fi; }
trap restore EXIT

# edit ARCHS FLAG...: median wall, median critical path of REPEATS edit-rebuilds.
edit() {
  local archs=$1 walls=() crits=()
  shift
  build --cuda_archs="$archs" "$@" "$target" >/dev/null
  cp "$src" "$src.bench-orig"
  for i in $(seq "$reps"); do
    echo "// build-bench edit $i $(date +%s%N)" >>"$src"
    read -r w c _ < <(build --cuda_archs="$archs" "$@" "$target")
    walls+=("$w")
    crits+=("$c")
  done
  restore
  build --cuda_archs="$archs" "$@" "$target" >/dev/null
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${crits[@]}" | median)"
}

if [ -n "$compilers" ]; then
  echo "| -c opt, //ops/cuda:kernels | nvcc: wall (s) | nvcc: critical path (s) | clang: wall (s) | clang: critical path (s) |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  row=()
  for compiler in nvcc clang; do
    bazel clean >/dev/null 2>&1
    read -r w c p < <(build --disk_cache= --cuda_compiler="$compiler" --cuda_archs="$release" "$target")
    row+=("$w ($p actions)" "$c")
  done
  echo "| clean build, --cuda_archs='$release' | ${row[0]} | ${row[1]} | ${row[2]} | ${row[3]} |"
  for archs in "$one" "$release"; do
    read -r nw nc < <(edit "$archs" --cuda_compiler=nvcc)
    read -r cw cc < <(edit "$archs" --cuda_compiler=clang)
    echo "| edit-rebuild of elementwise.cu, --cuda_archs='$archs' (median of $reps) | $nw | $nc | $cw | $cc |"
  done
  exit 0
fi

echo "| -c opt, elementwise.cu (//ops/cuda:kernels) | split: wall (s) | split: critical path (s) | one action per source: wall (s) | critical path (s) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for archs in "$one" "$release"; do
  read -r sw sc < <(edit "$archs" --cuda_split=true)
  read -r mw mc < <(edit "$archs" --cuda_split=false)
  echo "| edit-rebuild, --cuda_archs='$archs' (median of $reps) | $sw | $sc | $mw | $mc |"
done

# Adding an arch: 9.0 built, then 9.0;10.0.
row=()
for split in true false; do
  build --cuda_archs="$one" --cuda_split="$split" "$target" >/dev/null
  read -r w c p < <(build --cuda_archs="$one;10.0" --cuda_split="$split" "$target")
  row+=("$w ($p actions)" "$c")
done
echo "| adding 10.0 to a built --cuda_archs='$one' | ${row[0]} | ${row[1]} | ${row[2]} | ${row[3]} |"

if [ -n "$clean" ]; then
  row=()
  for split in true false; do
    bazel clean >/dev/null 2>&1
    read -r w c p < <(build --cuda_archs="$release" --cuda_split="$split" //ops/...)
    row+=("$w ($p actions)" "$c")
  done
  echo "| clean build of //ops/..., --cuda_archs='$release' | ${row[0]} | ${row[1]} | ${row[2]} | ${row[3]} |"
fi
