#!/usr/bin/env bash
# The second device call for issue 38 (nvidia-h200-x2), from the repository root with .gpu/ddp carried
# (this script, the packed tests, the ncclbench binaries before/after, ddpbench, and the Python sides
# in .gpu/ddp/py): the NCCL and data-parallel tests; ncclbench before and after beside torch_bench.py;
# ddpbench beside torch_ddp.py on 2 and 1 GPUs (2 GPUs twice); the kill run. Writes $OUT/*.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
d=.gpu/ddp
export RULES_CUDA_GO_NCCL=$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2 | head -1)
py=$d/py
{
  date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "NCCL: $RULES_CUDA_GO_NCCL"
  TEST_SECONDS=120 bash $d/tests/run.sh
  grep -h -E "returned after|failed after|idle|kills itself|buckets|--- (PASS|FAIL)" $d/tests/out/*.log
  for b in ncclbench.before ncclbench.after ddpbench; do xz -dkf $d/$b.xz; chmod +x $d/$b; done
  python3 $py/torch_bench.py >$OUT/torch1.jsonl
  $d/ncclbench.before -label before >$OUT/before.jsonl
  $d/ncclbench.after -label after >$OUT/after.jsonl
  $d/ncclbench.after -label after_deadline -deadline 10m -peer=false >$OUT/after_deadline.jsonl
  python3 $py/torch_bench.py >$OUT/torch2.jsonl
  python3 $py/compare.py $OUT/torch1.jsonl $OUT/before.jsonl $OUT/after.jsonl $OUT/after_deadline.jsonl
  sed 's/"torch"/"torch2"/' $OUT/torch2.jsonl >$OUT/torch2b.jsonl
  python3 $py/compare.py $OUT/torch1.jsonl $OUT/torch2b.jsonl | grep -E "all_reduce \| (8|4194304|16777216|33554432|134217728|1073741824) \|"
  python3 $py/torch_ddp.py --gpus 2 >$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 >>$OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 1 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 1 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 >>$OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 2 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 -kill-step 20 -step-timeout 5s >>$OUT/ddp.jsonl
  python3 $py/ddp_compare.py $OUT/ddp.jsonl
} 2>&1 | tee $OUT/run2.log
