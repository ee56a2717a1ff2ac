#!/usr/bin/env bash
# The third device call for issue 38 (nvidia-h200-x2), from the repository root with .gpu/ddp carried:
# ddpbench (float32 master weights, global batch 16384) beside torch_ddp.py on 2 and 1 GPUs at
# lr 0.001 and 2 GPUs at lr 0.0005; the kill run; all-reduce from 4 to 128 MiB again (after, torch,
# twice, interleaved); the channels NCCL picks for our communicator and torch's (NCCL_DEBUG=INFO).
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
d=.gpu/ddp
export RULES_CUDA_GO_NCCL=$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2 | head -1)
py=$d/py
{
  date -u
  for b in ncclbench.before ncclbench.after ddpbench; do xz -dkf $d/$b.xz; chmod +x $d/$b; done
  python3 $py/torch_ddp.py --gpus 2 --lr 0.001 >$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 -lr 0.001 >>$OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 1 --lr 0.001 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 1 -lr 0.001 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 -lr 0.001 >>$OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 2 --lr 0.001 >>$OUT/ddp.jsonl
  python3 $py/ddp_compare.py $OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 2 --lr 0.0005 --label torch_lr5e-4 >$OUT/ddp_lr5e-4.jsonl
  $d/ddpbench -gpus 2 -lr 0.0005 -label go_lr5e-4 >>$OUT/ddp_lr5e-4.jsonl
  python3 $py/ddp_compare.py $OUT/ddp_lr5e-4.jsonl
  $d/ddpbench -gpus 2 -lr 0.001 -kill-step 20 -step-timeout 5s >$OUT/kill.jsonl
  cat $OUT/kill.jsonl
  for i in 1 2; do
    $d/ncclbench.after -label after -min 4194304 -max 134217728 -peer=false >>$OUT/ar_after.jsonl
    python3 $py/torch_bench.py --min 4194304 --max 134217728 2>/dev/null | grep -v peer_copy >>$OUT/ar_torch.jsonl
  done
  python3 $py/compare.py $OUT/ar_after.jsonl | grep all_reduce
  python3 $py/compare.py $OUT/ar_torch.jsonl | grep all_reduce
  for b in before after; do
    echo "== NCCL_DEBUG $b"
    NCCL_DEBUG=INFO $d/ncclbench.$b -label $b -min 134217728 -max 134217728 -peer=false 2>&1 | grep -E "Channel 0?0/|nChannels|Init COMPLETE|Connected all|all_reduce" | head -12
  done
  echo "== NCCL_DEBUG torch"
  NCCL_DEBUG=INFO python3 $py/torch_bench.py --min 134217728 --max 134217728 2>&1 | grep -E "Channel 0?0/|nChannels|Init COMPLETE|Connected all|all_reduce" | head -12
} 2>&1 | tee $OUT/run3.log
