"""PyTorch DistributedDataParallel beside ddpbench: the same MLP, data, weights and steps.

One process per GPU (mp.spawn, NCCL backend); the model is bfloat16 (parameters, activations,
gradients, DDP's buckets) with float32 master weights: L layers h = h @ W_l, then h + h*h/2
(torch.addcmul: one kernel, computed in float32 and rounded once, as ops.Polynomial) except after the
last; the loss is the sum over the rank's rows of the squared error in float32 divided by the rows;
SGD without momentum on the masters (foreach ops: M -= lr*float32(g), then W = bfloat16(M)); DDP with
bucket_cap_mb (25 by default). Data and weights are integer patterns both sides compute exactly. Rank 0 prints
one JSON line: mean step time after the warm-up, its loss at every step and the norm of what the
steps changed in each layer's float32 master (update_norms).

Run: python torch_ddp.py [--gpus N] [--d 4096] [--layers 8] [--batch 8192] [--steps 50]
"""

import argparse
import json
import math
import os
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP


def matrix(rows, cols, a, b, c, scale, dev, row0=0):
    """Element (i, j): pattern((row0 + i)*a + j*b + c) * scale, pattern(k) = (k % 2001 - 1000)/1000."""
    i = torch.arange(row0, row0 + rows, device=dev, dtype=torch.int64).view(-1, 1)
    j = torch.arange(cols, device=dev, dtype=torch.int64).view(1, -1)
    k = i * a + j * b + c
    return (((k % 2001) - 1000).float() / 1000 * scale).to(torch.bfloat16)


class MLP(torch.nn.Module):
    def __init__(self, ws):
        super().__init__()
        self.ws = torch.nn.ParameterList([torch.nn.Parameter(w) for w in ws])

    def forward(self, h):
        n = len(self.ws)
        for l, w in enumerate(self.ws):
            h = h @ w
            if l < n - 1:
                h = torch.addcmul(h, h, h, value=0.5)
        return h


def rank_main(rank, size, port, args):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", rank=rank, world_size=size, device_id=dev)
    d, rows = args.d, args.batch // size
    x = matrix(rows, d, 7919, 104729, 0, 1.0, dev, row0=rank * rows)
    target = matrix(rows, d, 104729, 7919, 0, 0.5, dev, row0=rank * rows)
    scale = 1.5 / math.sqrt(d)
    ws = [matrix(d, d, 31, 17, l * 1009, scale, dev) for l in range(args.layers)]
    model = DDP(MLP(ws), device_ids=[rank], bucket_cap_mb=args.bucket_mb)
    params = list(model.parameters())
    masters = [p.detach().float() for p in params]
    start0 = [m.clone() for m in masters]
    losses = []
    start = None
    for step in range(args.steps):
        if step == args.warmup:
            torch.cuda.synchronize()
            start = time.perf_counter()
        for p in params:
            p.grad = None
        y = model(x)
        loss = (y - target).float().pow(2).sum() / rows
        loss.backward()
        with torch.no_grad():
            torch._foreach_add_(masters, [p.grad for p in params], alpha=-args.lr)
            torch._foreach_copy_(params, masters)
        losses.append(loss.detach())
    torch.cuda.synchronize()
    per = (time.perf_counter() - start) / (args.steps - args.warmup)
    if rank == 0:
        print(json.dumps({"impl": args.label, "gpus": size, "step_ms": per * 1e3, "params": args.layers * d * d,
                          "losses": [l.item() for l in losses],
                          "update_norms": [(m - m0).norm().item() for m, m0 in zip(masters, start0)]}), flush=True)
        print("%s: %d GPU(s), %.2f ms/step, loss %.5g -> %.5g" % (args.label, size, per * 1e3, losses[0].item(),
                                                                 losses[-1].item()), file=sys.stderr, flush=True)
    dist.barrier()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gpus", type=int, default=0)
    p.add_argument("--d", type=int, default=4096)
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--batch", type=int, default=16384)
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--bucket-mb", type=float, default=25)
    p.add_argument("--label", default="torch")
    args = p.parse_args()
    size = args.gpus or torch.cuda.device_count()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(rank_main, args=(size, port, args), nprocs=size, join=True)


if __name__ == "__main__":
    main()
