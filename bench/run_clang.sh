#!/usr/bin/env bash
# On a GPU machine: the GPU tests and the ops benchmark, CUDA compiled by nvcc and by clang, in one
# run (what bench/pack_clang.sh packed). Needs an NVIDIA GPU and python3; no Go, no Bazel.
#
#   bash run_clang.sh PACKDIR OUTDIR [flags for the benchmark]
#
# The benchmark takes about a minute per run on an H100 at its default sizes (three runs).
# Writes into OUTDIR: tests-nvcc.log, tests-clang.log (every test and program, each line
# "PASS name (N skipped)" or "FAIL name"; on a GPU machine N should be 0 but for tests that need
# several GPUs or PyTorch), bench-nvcc.json, bench-clang.json (the benchmark, nvcc's then
# clang's, then nvcc's again as bench-nvcc2.json to show the run-to-run noise) and compare.md
# (clang's time over nvcc's per row). Exit status 0 when every test passed with both compilers.
set -euo pipefail
pack=$(cd "${1:?usage: bash run_clang.sh PACKDIR OUTDIR [bench flags]}" && pwd)
out=${2:?usage: bash run_clang.sh PACKDIR OUTDIR [bench flags]}
shift 2
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
device=${DEVICE:-cuda} # DEVICE=cpu tries the whole run on a machine without a GPU
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 || true; } | tee "$out/env.txt"

failed=0
for compiler in nvcc clang; do
  mkdir -p "$work/$compiler"
  for f in "$pack/$compiler"/*.xz; do
    xz -dc "$f" >"$work/$compiler/$(basename "$f" .xz)"
  done
  chmod +x "$work/$compiler"/*
  : >"$out/tests-$compiler.log"
  for t in "$work/$compiler"/*; do
    name=$(basename "$t")
    [ "$name" = bench ] && continue
    args=()
    [[ $name == *_test ]] && args=(-test.v)
    if (cd "$work/$compiler" && "$t" "${args[@]}" >"$out/$compiler-$name.out" 2>&1); then
      echo "PASS $name ($(grep -c -e '--- SKIP' -e 'GPU part skipped' "$out/$compiler-$name.out" || true) skipped)" | tee -a "$out/tests-$compiler.log"
    else
      echo "FAIL $name (output: $out/$compiler-$name.out)" | tee -a "$out/tests-$compiler.log"
      failed=1
    fi
  done
done

common=(--device "$device" --repeats 25 --batch-ms 5 --quiet)
"$work/nvcc/bench" --json "$out/bench-nvcc.json" "${common[@]}" "$@" >/dev/null
"$work/clang/bench" --json "$out/bench-clang.json" "${common[@]}" "$@" >/dev/null
"$work/nvcc/bench" --json "$out/bench-nvcc2.json" "${common[@]}" "$@" >/dev/null

python3 - "$out" <<'EOF' | tee "$out/compare.md"
import json, sys
out = sys.argv[1]
def rows(name):
    d = json.load(open(f"{out}/{name}"))
    return {(r["op"], r["dtype"], tuple(r["shape"]), r["metric"]): r["seconds"] for r in d["results"]}
nvcc, clang, nvcc2 = rows("bench-nvcc.json"), rows("bench-clang.json"), rows("bench-nvcc2.json")
print("| op | dtype | shape | metric | nvcc (us) | clang (us) | clang / nvcc | nvcc again / nvcc |")
print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |")
worst, over = 0.0, 0
for k in sorted(nvcc):
    if k not in clang:
        continue
    base = min(nvcc[k], nvcc2.get(k, nvcc[k]))
    ratio = clang[k] / base
    worst = max(worst, ratio)
    over += ratio > 1.05
    print(f"| {k[0]} | {k[1]} | {'x'.join(map(str, k[2]))} | {k[3]} | {base*1e6:.2f} | {clang[k]*1e6:.2f} | {ratio:.3f} | {nvcc2.get(k, nvcc[k]) / nvcc[k]:.3f} |")
print()
print(f"rows: {len(clang)}; clang more than 5% slower than the faster nvcc run: {over}; worst ratio: {worst:.3f}")
EOF
exit "$failed"
