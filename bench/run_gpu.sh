#!/usr/bin/env bash
# Runs the Go ops benchmark and the PyTorch one on a GPU machine and compares them.
#
#   bash run_gpu.sh OUTDIR [extra flags for both, e.g. --max-elems 67108864]
#   bash run_gpu.sh OUTDIR --dtypes float32,float16,bfloat16   # issue 14's 16-bit rows and targets
#
# Run it from (or point it at) a folder holding this script, the `bench` binary built by
# `bazel build //bench/cmd/bench` (bazel-bin/bench/cmd/bench/bench_/bench), torch_bench.py
# and, optionally, the `floor` binary of `bazel build //bench/floor` (the launch and
# synchronization floor of the GPU, with the CUDA runtime alone).
# Needs python3 with PyTorch (CUDA) and an NVIDIA GPU; no Go, no Bazel. Writes into OUTDIR:
#   go.json go.md go.png go.log           the Go benchmark (results, tables, plot, progress)
#   torch.json torch.log                  the PyTorch benchmark
#   compare.md compare.png compare.json   side by side, with the targets judged
#   env.txt                               GPU, driver, date, versions
#   floor.txt                             the floor program's output (when it is there)
# and prints compare.md. BENCH, TORCH_BENCH and PYTHON override where the programs are. About 2 minutes on an H100 at the default sizes (up to 2^28 elements).
set -euo pipefail

out=${1:?usage: bash run_gpu.sh OUTDIR [flags for both benchmarks]}
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench=${BENCH:-$here/bench}
torch_bench=${TORCH_BENCH:-$here/torch_bench.py}
floor=${FLOOR:-$here/floor}
python=${PYTHON:-python3}
device=${DEVICE:-cuda} # DEVICE=cpu tries the whole pipeline on a machine without a GPU
mkdir -p "$out"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -n) $(uname -r)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
  "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1 || true
} | tee "$out/env.txt"

# More and longer samples than the programs' defaults: steadier medians, still ~2 minutes in all.
common=(--repeats 25 --batch-ms 5)

if [[ -x $floor ]]; then
  echo "== Launch and synchronization floor ($floor)"
  "$floor" | tee "$out/floor.txt"
fi

start=$SECONDS
echo "== Go benchmark ($bench)"
"$bench" --device "$device" --json "$out/go.json" --markdown "$out/go.md" --png "$out/go.png" "${common[@]}" "$@" 2> "$out/go.log" > /dev/null ||
  { tail -20 "$out/go.log"; exit 1; }
echo "   done in $((SECONDS - start)) s"

start=$SECONDS
echo "== PyTorch benchmark ($torch_bench)"
"$python" "$torch_bench" --device "$device" --json "$out/torch.json" "${common[@]}" "$@" 2> "$out/torch.log" ||
  { tail -20 "$out/torch.log"; exit 1; }
echo "   done in $((SECONDS - start)) s"

echo "== Comparison"
"$bench" compare --go "$out/go.json" --torch "$out/torch.json" \
  --markdown "$out/compare.md" --png "$out/compare.png" --json "$out/compare.json" > /dev/null
cat "$out/compare.md"
echo
extra=""
[[ -f $out/floor.txt ]] && extra=" floor.txt"
echo "Wrote $out: go.{json,md,png,log} torch.{json,log} compare.{md,png,json} env.txt$extra"
