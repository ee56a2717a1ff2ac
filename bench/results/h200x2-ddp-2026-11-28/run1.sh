#!/usr/bin/env bash
# The first device call for issue 38 (nvidia-h200-x2), from the repository root with .gpu/ddp carried
# (this script, the packed tests, both ncclbench binaries, and bench/cmd/ncclbench/*.py in .gpu/ddp/py):
# the NCCL tests, then ncclbench before (main's non-blocking default) and after (blocking calls +
# watchdog; once with context.Background(), once with a deadline on every call so the watchdog
# follows each call) and torch_bench.py, twice, in one call. Writes $OUT/*.jsonl, $OUT/run1.log.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
d=.gpu/ddp
nccl=$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2 | head -1)
export RULES_CUDA_GO_NCCL=$nccl
{
  date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "NCCL: $nccl"
  TEST_SECONDS=150 bash $d/tests/run.sh
  grep -h -E "returned after|failed after|kills itself|--- (PASS|FAIL)" $d/tests/out/*.log
  xz -dkf $d/ncclbench.before.xz $d/ncclbench.after.xz
  chmod +x $d/ncclbench.before $d/ncclbench.after
  b=$d/py
  python3 $b/torch_bench.py >$OUT/torch1.jsonl
  $d/ncclbench.before -label before >$OUT/before.jsonl
  $d/ncclbench.after -label after >$OUT/after.jsonl
  $d/ncclbench.after -label after_deadline -deadline 10m -peer=false >$OUT/after_deadline.jsonl
  python3 $b/torch_bench.py >$OUT/torch2.jsonl
  python3 $b/compare.py $OUT/torch1.jsonl $OUT/before.jsonl $OUT/after.jsonl $OUT/after_deadline.jsonl
  sed 's/"torch"/"torch2"/' $OUT/torch2.jsonl >$OUT/torch2b.jsonl
  python3 $b/compare.py $OUT/torch1.jsonl $OUT/torch2b.jsonl
} 2>&1 | tee $OUT/run1.log
