#!/usr/bin/env bash
# Issue 35's before/after: the ops benchmark built at ca48835 (before the op-core redesign) and at
# HEAD (both CUDA 13.2, -c opt), each run by run_gpu.sh beside PyTorch, twice, alternating.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:?}
xz -dkf before/bench.xz && chmod +x before/bench
xz -dkf b132/bench.xz && chmod +x b132/bench
export LD_LIBRARY_PATH=$(ls -d /opt/torch/.venv/lib/python3*/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' ':')
for i in 1 2; do
  for w in before after; do
    b=$PWD/before/bench; [ $w = after ] && b=$PWD/b132/bench
    echo "=== $w run $i ($(date +%T))"
    BENCH=$b timeout 120 bash b135/run_gpu.sh "$out/$w$i" --max-elems 16777216 >"$out/$w$i.log" 2>&1; echo "rc $?"
  done
done
