#!/usr/bin/env bash
# Runs the fusion benchmark (bench/cmd/fusebench) and its PyTorch/CuPy side (torch_fuse.py) on a
# GPU machine, one after the other, then times a new 20-op chain's first use in new processes: with an
# empty JIT cache (compile + load) and again with the cache warm.
#
#   bash run_fuse.sh OUTDIR [--sizes 4096,1048576,67108864,268435456]
#
# Needs, beside this script (or named by FUSEBENCH, TORCH_FUSE, PYTHON): the `fusebench` binary
# (bazel build -c opt //bench/cmd/fusebench) and torch_fuse.py; python3 with PyTorch and CuPy.
# Ours runs first (its table alone in go.md), then PyTorch/CuPy, then the side-by-side table from both JSONs.
# Writes OUTDIR/{go.json,go.md,torch.json,table.md,first_use.txt} and prints the tables.
set -euo pipefail

out=${1:?usage: bash run_fuse.sh OUTDIR [--sizes ...]}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fusebench=${FUSEBENCH:-$here/fusebench}
torch_fuse=${TORCH_FUSE:-$here/torch_fuse.py}
python=${PYTHON:-python3}
mkdir -p "$out"

echo "== first use of a 20-op chain, new processes"
cache=$(mktemp -d)
for run in cold warm warm2; do
  printf '%s: ' "$run"
  RULES_CUDA_GO_JIT_CACHE=$cache "$fusebench" --first-use
done | tee "$out/first_use.txt"
rm -rf "$cache"

echo "== Go"
"$fusebench" --json "$out/go.json" "$@" | tee "$out/go.md"
echo "== PyTorch and CuPy"
"$python" "$torch_fuse" --json "$out/torch.json" "$@"
echo "== side by side"
"$fusebench" --from "$out/go.json" --torch "$out/torch.json" "$@" | tee "$out/table.md"
