#!/usr/bin/env bash
# The fifth device call for issue 38 (nvidia-h200-x2), from the repository root with .gpu/ddp carried:
# ddpbench beside torch_ddp.py (lr 0.001, float32 masters, global batch 16384) on 2, 1 and 2 GPUs,
# now also printing the norm of each layer's master update (what training changed, both sides).
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
d=.gpu/ddp
export RULES_CUDA_GO_NCCL=$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2 | head -1)
py=$d/py
{
  date -u
  xz -dkf $d/ddpbench.xz; chmod +x $d/ddpbench
  python3 $py/torch_ddp.py --gpus 2 >$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 >>$OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 1 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 1 >>$OUT/ddp.jsonl
  $d/ddpbench -gpus 2 >>$OUT/ddp.jsonl
  python3 $py/torch_ddp.py --gpus 2 >>$OUT/ddp.jsonl
  python3 $py/ddp_compare.py $OUT/ddp.jsonl
} 2>&1 | tee $OUT/run5.log
