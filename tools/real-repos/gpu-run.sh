#!/usr/bin/env bash
# run.sh (tools/real-repos/gpu-run.sh, copied by gpu-pack.sh): on a GPU machine, run every
# binary of checks.tsv beside this script and print a pass/fail table.
#
#   bash run.sh [FILTER]       # FILTER: run only rows whose repository or label contains it
#
# checks.tsv: repository, Bazel label, file in bins.tar.xz, arguments ('-': none), and what passing
# means: '-' is exit status 0; 'filecheck:FILE' is exit status 0 and the output passing FILE's
# CHECK lines (filecheck.py); anything else is exit status 0 and an output line matching that
# extended regular expression. CUDA libraries that the binaries NEED (libcublas.so.13, ...) are looked for
# in $CUDA_LIBS, PyTorch's NVIDIA wheels and /usr/local/cuda/lib64, in that order; each run's output
# is in $RUN_DIR (default ./out next to this script), one log per check. Each check may run
# $CHECK_SECONDS (default 30) seconds; after $TOTAL_SECONDS (default 200) the rest are SKIPPED.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
filter=${1:-}
run=${RUN_DIR:-$here/out}
mkdir -p "$run/bin"
xz -dc "$here/bins.tar.xz" | tar -xf - -C "$run/bin" || { echo "run.sh: cannot unpack bins.tar.xz"; exit 1; }
began=$(date +%s)
libs=${CUDA_LIBS:-}
for d in /opt/torch/.venv/lib/python3*/site-packages/nvidia/cu1*/lib \
  /opt/torch/.venv/lib/python3*/site-packages/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && libs=${libs:+$libs:}$d
done
export LD_LIBRARY_PATH=${libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "run.sh: LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/run.sh: GPU: /'
printf '%-10s %-60s %-6s %5s %7s\n' repository label result exit seconds
pass=0 fail=0 skip=0
while IFS=$'\t' read -r name label file args expect; do
  [ -n "$name" ] || continue
  [ "$args" != - ] || args=
  case "$name $label" in *"$filter"*) ;; *) continue ;; esac
  bin=$run/bin/$file
  log=$run/${file//\//_}.log
  if [ $(($(date +%s) - began)) -ge "${TOTAL_SECONDS:-200}" ]; then
    printf '%-10s %-60s %-6s\n' "$name" "$label" SKIP
    skip=$((skip + 1))
    continue
  fi
  rm -f "$log.check"
  start=$(date +%s.%N)
  # Each binary runs in its own directory (some write files next to themselves).
  mkdir -p "$run/cwd/${file//\//_}"
  (cd "$run/cwd/${file//\//_}" && eval "timeout ${CHECK_SECONDS:-30} \"$bin\" $args") >"$log" 2>&1 </dev/null
  rc=$?
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  ok=0
  if [ $rc = 0 ]; then
    case $expect in
      -) ok=1 ;;
      filecheck:*) python3 "$here/filecheck.py" "$here/${expect#filecheck:}" <"$log" >"$log.check" 2>&1 && ok=1 ;;
      *) grep -Eq -- "$expect" "$log" && ok=1 ;;
    esac
  fi
  if [ $ok = 1 ]; then result=PASS pass=$((pass + 1)); else result=FAIL fail=$((fail + 1)); fi
  printf '%-10s %-60s %-6s %5s %7s\n' "$name" "$label${args:+ $args}" "$result" "$rc" "$secs"
  if [ $ok = 0 ]; then cat "$log.check" 2>/dev/null | sed 's/^/    | /'; tail -5 "$log" | sed 's/^/    | /'; fi
done <"$here/checks.tsv"
echo "run.sh: $pass passed, $fail failed, $skip skipped (logs in $run)"
[ $fail = 0 ]
