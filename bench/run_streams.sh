#!/usr/bin/env bash
# Runs the streams-and-graphs benchmark (bench/cmd/streams) and its PyTorch side
# (torch_streams.py) on a GPU machine, RUNS times (default 2) one after the other, and prints the
# side-by-side tables.
#
#   bash run_streams.sh OUTDIR [flags for both, e.g. --chains 200]
#
# Needs, beside this script (or named by STREAMS, TORCH_STREAMS, PYTHON): the `streams` binary
# (bazel build -c opt //bench/cmd/streams) and torch_streams.py; python3 with PyTorch (CUDA).
# Writes OUTDIR/run<N>/{torch.json,go.json,table.md} and prints every table.
set -euo pipefail

out=${1:?usage: bash run_streams.sh OUTDIR [flags for both]}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
streams=${STREAMS:-$here/streams}
torch_streams=${TORCH_STREAMS:-$here/torch_streams.py}
python=${PYTHON:-python3}
runs=${RUNS:-2}

for r in $(seq 1 "$runs"); do
  d=$out/run$r
  mkdir -p "$d"
  echo "== run $r: PyTorch"
  "$python" "$torch_streams" --json "$d/torch.json" "$@"
  echo "== run $r: Go"
  "$streams" --torch "$d/torch.json" --json "$d/go.json" "$@" | tee "$d/table.md"
done
