#!/usr/bin/env bash
# MatMul vs torch.matmul on a GPU machine (python3 with PyTorch; no Go or Bazel): run beside the
# `matmul` binary (bazel build -c opt //bench/cmd/matmul) and torch_matmul.py.
#   bash run_matmul.sh OUTDIR [RUNS] [SIZES]
# Each run times torch.matmul, then ours, and writes OUTDIR/run<i>/{torch.json,go.json,matmul.md}.
# Each program starts after COOLDOWN seconds (default 20) of an idle GPU: under sustained TF32 load
# the H100 slows down (a 4096 TF32 GEMM measured 0.323 ms when the GPU was cool and 0.363 ms after
# a few seconds of GEMMs), so without a pause the second program runs on a GPU the first heated.
set -euo pipefail
out=${1:?usage: run_matmul.sh OUTDIR [RUNS] [SIZES]}
runs=${2:-2}
sizes=${3:-4096}
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
for i in $(seq 1 "$runs"); do
  d="$out/run$i"
  mkdir -p "$d"
  sleep "${COOLDOWN:-20}"
  python3 "$here/torch_matmul.py" --n "$sizes" --out "$d/torch.json"
  sleep "${COOLDOWN:-20}"
  "$here/matmul" -n "$sizes" --torch "$d/torch.json" --json "$d/go.json" --markdown "$d/matmul.md"
done
