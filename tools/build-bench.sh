#!/usr/bin/env bash
# Build-side numbers: nvcc through cu_library vs the same nvcc command by hand, and nvcc compile time
# vs the number of archs, with and without nvcc --threads. Prints a markdown table.
# Usage: tools/build-bench.sh [REPEATS]   (run from the repository root, after one ./bazelw build)
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
src=ops/cuda/csrc/elementwise.cu
target=//ops/cuda:kernels
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }

echo "| measurement | median of $reps (s) |"
echo "| --- | --- |"
# 1. The rule: touch the source, rebuild the one cu_library (nvcc compile of one file + archive).
for i in $(seq "$reps"); do
  cp "$src" "$src.orig" && echo "// edit $(now)" >>"$src"
  t0=$(now); ./bazelw build "$target" >/dev/null 2>&1; t1=$(now)
  mv "$src.orig" "$src"
  secs "$t0" "$t1"
done | median | sed 's/^/| bazel build of ops\/cuda:kernels after an edit of elementwise.cu (nvcc + archive + Bazel) | /; s/$/ |/'
./bazelw build "$target" >/dev/null 2>&1
# 2. The same nvcc command by hand (from aquery), in the execroot.
execroot=$(./bazelw info execution_root 2>/dev/null)
nvcc=$(./bazelw cquery --output=files @cuda//:nvcc 2>/dev/null | head -n1)
cmd=$(./bazelw aquery "mnemonic(NvccCompile, $target)" --output=jsonproto 2>/dev/null |
  python3 -c "import json,sys; a=[x for x in json.load(sys.stdin)['actions'] if any('elementwise.cu' in s for s in x['arguments'])][0]['arguments']; a[a.index('-o')+1]='/tmp/bench_by_hand.o'; print(' '.join(\"'\"+s+\"'\" for s in a))")
for i in $(seq "$reps"); do
  t0=$(now); (cd "$execroot" && eval "$cmd") >/dev/null; t1=$(now)
  secs "$t0" "$t1"
done | median | sed 's/^/| the same nvcc command by hand | /; s/$/ |/'
# 3. Compile time vs archs, with and without --threads 0.
for archs in "-gencode=arch=compute_80,code=sm_80" \
  "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90" \
  "-gencode=arch=compute_70,code=sm_70 -gencode=arch=compute_75,code=sm_75 -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90"; do
  n=$(echo "$archs" | wc -w)
  for threads in "" "--threads 0"; do
    for i in $(seq "$reps"); do
      t0=$(now); (cd "$execroot" && $nvcc -x cu -c "$src" -o /tmp/bench_archs.o -Xcompiler -fPIC -I. -std=c++17 $archs $threads); t1=$(now)
      secs "$t0" "$t1"
    done | median | sed "s/^/| nvcc $(basename $src), $n arch(s)${threads:+, $threads} | /; s/\$/ |/"
  done
done
