"""torch.distributed (NCCL backend, one process per GPU) beside ncclbench, in its JSON-lines form.

Measures all_reduce and all_gather_into_tensor bus bandwidth (nccl-tests' definition) from 8 B to
1 GiB of float32, then tensor.to("cuda:1") from cuda:0. Run: python torch_bench.py [--max BYTES].
The timing loop is ncclbench's: 5 warm-up calls, a one-element all_reduce as a barrier, k calls,
torch.cuda.synchronize(), time / k.
"""

import argparse
import json
import os
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def iters(b):
    if b <= 1 << 20:
        return 200
    if b <= 1 << 26:
        return 50
    return 20


def emit(r):
    print(json.dumps(r), flush=True)
    print("%-10s %-11s %12d B %10.2f us %8.2f GB/s bus %8.2f GB/s" % (
        r["impl"], r["op"], r["bytes"], r["us"], r["algbw"], r["bus_bw"]), file=sys.stderr, flush=True)


def rank_main(rank, size, port, args):
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port, rank=rank,
                            world_size=size, device_id=torch.device("cuda", rank))
    buf = torch.zeros(args.max // 4, dtype=torch.float32, device="cuda")
    inp = torch.zeros(max(1, args.max // 4 // size), dtype=torch.float32, device="cuda")
    one = buf[:1]
    for op in ["all_reduce", "all_gather"]:
        b = args.min
        while b <= args.max:
            elems = b // 4 if op == "all_reduce" else b // 4 // size
            if elems < 1:
                b *= 2
                continue
            if op == "all_reduce":
                x = buf[:elems]
                once = lambda: dist.all_reduce(x)
            else:
                out, x = buf[:elems * size], inp[:elems]
                once = lambda: dist.all_gather_into_tensor(out, x)
            for _ in range(5):
                once()
            dist.all_reduce(one)
            torch.cuda.synchronize()
            k = iters(b)
            start = time.perf_counter()
            for _ in range(k):
                once()
            torch.cuda.synchronize()
            per = (time.perf_counter() - start) / k
            nbytes = elems * 4 * (size if op == "all_gather" else 1)
            alg = nbytes / per / 1e9
            bus = alg * (size - 1) / size * (2 if op == "all_reduce" else 1)
            if rank == 0:
                emit({"impl": "torch", "op": op, "bytes": nbytes, "us": per * 1e6, "algbw": alg,
                      "bus_bw": bus, "ranks": size})
            b *= 2
    try:
        graphs(rank, size, args, buf, one)
    except Exception as e:  # report and go on to the peer copies
        print("rank %d: all_reduce in a CUDA graph failed: %r" % (rank, e), file=sys.stderr, flush=True)
    dist.destroy_process_group()


def graphs(rank, size, args, buf, one):
    """all_reduce of up to 1 MiB replayed from a CUDA graph of 100 calls (ncclbench's all_reduce_graph)."""
    b = args.min
    while b <= min(args.max, 1 << 20):
        x = buf[:b // 4]
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                dist.all_reduce(x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(100):
                dist.all_reduce(x)
        g.replay()
        dist.all_reduce(one)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(5):
            g.replay()
        torch.cuda.synchronize()
        per = (time.perf_counter() - start) / 500
        if rank == 0:
            alg = b / per / 1e9
            emit({"impl": "torch", "op": "all_reduce_graph", "bytes": b, "us": per * 1e6, "algbw": alg,
                  "bus_bw": alg * 2 * (size - 1) / size, "ranks": size})
        del g
        b *= 2


def peer_copies(args):
    b = 1 << 20
    while b <= args.max:
        x = torch.zeros(b // 4, dtype=torch.float32, device="cuda:0")
        for _ in range(3):
            x.to("cuda:1")
        torch.cuda.synchronize(0)
        torch.cuda.synchronize(1)
        k = iters(b)
        start = time.perf_counter()
        for _ in range(k):
            x.to("cuda:1")
        torch.cuda.synchronize(1)
        per = (time.perf_counter() - start) / k
        emit({"impl": "torch", "op": "peer_copy", "bytes": b, "us": per * 1e6, "algbw": b / per / 1e9,
              "bus_bw": b / per / 1e9, "ranks": 2})
        del x
        b *= 4


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min", type=int, default=8)
    p.add_argument("--max", type=int, default=1 << 30)
    args = p.parse_args()
    size = torch.cuda.device_count()
    print("torch %s, NCCL %s, %d GPU(s)" % (torch.__version__, ".".join(map(str, torch.cuda.nccl.version())), size),
          file=sys.stderr, flush=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(rank_main, args=(size, port, args), nprocs=size, join=True)
    if size >= 2:
        peer_copies(args)


if __name__ == "__main__":
    main()
