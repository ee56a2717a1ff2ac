#!/usr/bin/env bash
# run.sh (.ci/gpu-tests/run.sh, copied by pack.sh): on a GPU machine, runs every test that pack.sh
# packed, in its runfiles tree as `bazel test` would (TEST_SRCDIR, RUNFILES_DIR, the package as the
# working directory), and prints a table: result, and for Go tests how many tests passed and skipped
# (a GPU test that skips on a GPU machine is worth a look: tests that need the arguments or the
# environment of `bazel test`, such as -cuobjdump, skip here and say so). Exits 1 when one fails.
#
#   bash run.sh [FILTER]    # FILTER: only tests whose label contains it
#
# CUDA libraries are looked for in $CUDA_LIBS, PyTorch's NVIDIA wheels and /usr/local/cuda/lib64.
# Each test may run $TEST_SECONDS (default 240) seconds; logs are in $RUN_DIR (default ./out).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
filter=${1:-}
run=${RUN_DIR:-$here/out}
mkdir -p "$run"
xz -dc "$here/tests.tar.xz" | tar -xf - -C "$run" || { echo "run.sh: cannot unpack tests.tar.xz"; exit 1; }
libs=${CUDA_LIBS:-}
for d in /opt/torch/.venv/lib/python3*/site-packages/nvidia/cu1*/lib \
  /opt/torch/.venv/lib/python3*/site-packages/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && libs=${libs:+$libs:}$d
done
export LD_LIBRARY_PATH=${libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/run.sh: GPU: /'
printf '%-48s %-6s %6s %6s %8s\n' test result passed skipped seconds
failed=0
while IFS=$'\t' read -r name label pkg exe; do
  case $label in *"$filter"*) ;; *) continue ;; esac
  dir=$run/$name
  rf=$dir/runfiles
  wd=$rf/_main/$pkg
  [ -d "$wd" ] || wd=$dir
  log=$run/$name.log
  t0=$(date +%s)
  (cd "$wd" && RUNFILES_DIR=$rf TEST_SRCDIR=$rf TEST_WORKSPACE=_main TEST_TMPDIR=$(mktemp -d) \
    timeout "${TEST_SECONDS:-240}" "$rf/$exe" -test.v >"$log" 2>&1)
  rc=$?
  passed=$(grep -c -- '^--- PASS' "$log")
  skipped=$(grep -c -- '--- SKIP' "$log")
  result=PASS
  [ "$rc" -eq 0 ] || { result=FAIL; failed=$((failed + 1)); }
  printf '%-48s %-6s %6s %6s %8s\n' "$label" "$result" "$passed" "$skipped" "$(($(date +%s) - t0))"
  [ "$rc" -eq 0 ] || tail -n 30 "$log" | sed 's/^/    /'
done <"$here/tests.tsv"
echo "run.sh: $failed failed"
[ "$failed" -eq 0 ]
