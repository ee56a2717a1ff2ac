#!/usr/bin/env bash
# Runs jitbench and torch_jit.py side by side on a GPU machine and prints the comparison table.
#   run_gpu.sh BINDIR OUTDIR     (BINDIR holds the jitbench binary; needs python3 with PyTorch)
# Two rounds of: our cold compile + load (empty cache), two warm loads (new processes), then
# load_inline cold (empty build directory) and warm (new process); then the launch timings twice.
set -euo pipefail
bin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
res="$out/results.txt"
: >"$res"
"$bin/jitbench" -phase=source >"$out/silu.cu"
for round in 1 2; do
  echo "== round $round"
  cache=$(mktemp -d)
  "$bin/jitbench" -phase=cold -cache="$cache" | tee -a "$res"
  "$bin/jitbench" -phase=warm -cache="$cache" | tee -a "$res"
  build=$(mktemp -d)
  python3 "$here/torch_jit.py" --phase cold --source "$out/silu.cu" --build "$build" | tee -a "$res"
  python3 "$here/torch_jit.py" --phase warm --source "$out/silu.cu" --build "$build" | tee -a "$res"
  rm -rf "$cache" "$build"
done
for round in 1 2; do
  "$bin/jitbench" -phase=launch | tee -a "$res"
done
"$bin/jitbench" -phase=report -results="$res" | tee "$out/table.md"
