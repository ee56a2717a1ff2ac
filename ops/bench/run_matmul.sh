#!/usr/bin/env bash
# MatMul vs torch.matmul on a GPU machine (python3 with PyTorch; no Go or Bazel): run beside the
# `matmul` binary (bazel build -c opt //ops/bench/cmd/matmul) and torch_matmul.py.
#   bash run_matmul.sh OUTDIR [RUNS] [SIZES]
# Each run times torch.matmul, then ours, in one go, and writes OUTDIR/run<i>/{torch.json,go.json,matmul.md}.
set -euo pipefail
out=${1:?usage: run_matmul.sh OUTDIR [RUNS] [SIZES]}
runs=${2:-2}
sizes=${3:-4096}
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
for i in $(seq 1 "$runs"); do
  d="$out/run$i"
  mkdir -p "$d"
  python3 "$here/torch_matmul.py" --n "$sizes" --out "$d/torch.json"
  "$here/matmul" -n "$sizes" --torch "$d/torch.json" --json "$d/go.json" --markdown "$d/matmul.md"
done
