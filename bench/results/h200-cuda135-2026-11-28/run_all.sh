#!/usr/bin/env bash
# One device call: the GPU tests (built with the default toolkit, CUDA 13.5, -c opt), then the ops
# benchmark built with 13.5 and with 13.2, each beside PyTorch, then the streams benchmark.
set -uo pipefail
cd "$(dirname "$0")"
for f in b132/bench b135/bench b135/streams b135/floor; do xz -dkf "$f.xz" && chmod +x "$f"; done
out=${OUT:?}
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,driver_version --format=csv | tee "$out/env.txt"
echo "=== GPU tests ($(date +%T))"
RUN_DIR=/tmp/gt TEST_SECONDS=150 timeout 300 bash t/run.sh 2>&1 | tee "$out/gpu-tests.txt" | tail -40
libs=
for d in /opt/torch/.venv/lib/python3*/site-packages/nvidia/cu1*/lib /opt/torch/.venv/lib/python3*/site-packages/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && libs=${libs:+$libs:}$d
done
export LD_LIBRARY_PATH=$libs
small=(--max-elems 16777216)
echo "=== bench 13.5 ($(date +%T))"
timeout 150 bash b135/run_gpu.sh "$out/bench135" "${small[@]}" > "$out/bench135.log" 2>&1; echo "rc $?"
tail -30 "$out/bench135.log"
echo "=== bench 13.2 ($(date +%T))"
BENCH=$PWD/b132/bench timeout 150 bash b135/run_gpu.sh "$out/bench132" "${small[@]}" > "$out/bench132.log" 2>&1; echo "rc $?"
tail -30 "$out/bench132.log"
echo "=== streams ($(date +%T))"
RUNS=1 timeout 60 bash b135/run_streams.sh "$out/streams" > "$out/streams.log" 2>&1; echo "rc $?"
tail -30 "$out/streams.log"
echo "=== done ($(date +%T))"
