#!/usr/bin/env python3
"""The PyTorch side of bench/cmd/streams: the same rows, measured the same way.

Every op works on 4096 float32 elements: x + 0.25 and x * 0.5 alternate (a 20-op chain), each
allocating its output, as the Go side's AddScalar and Polynomial(0, 0, 0.5, 0) do. Rows (µs per op,
median of --samples):
  one_stream                    2 x --chains chains from one thread on one stream (host clock, to the
                                end of a synchronization)
  two_threads_default_stream    two Python threads, --chains chains each, both on the default stream
  two_threads_two_streams       two Python threads, each on its own torch.cuda.Stream
  chain20_eager[_events]        --chains chains on the default stream (host clock / CUDA events)
  chain20_graph[_events]        one chain captured with torch.cuda.graph, replayed --chains times
Writes {"device": ..., "unit": "us_per_op", "rows": {...}} to --json; `streams --torch FILE` reads it.

Usage: python3 torch_streams.py [--chains 400] [--samples 7] --json torch_streams.json
"""

import argparse
import json
import statistics
import sys
import threading
import time

import torch

ELEMS = 4096
CHAIN = 20


def chain(x):
    y = x
    for i in range(CHAIN):
        y = y + 0.25 if i % 2 == 0 else y * 0.5
    return y


def run_chains(x, n):
    for _ in range(n):
        chain(x)


def one_stream(chains):
    s = torch.cuda.Stream()
    x = torch.ones(ELEMS, device="cuda")
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    with torch.cuda.stream(s):
        run_chains(x, 2 * chains)
    s.synchronize()
    return (time.perf_counter() - t0) / (2 * chains * CHAIN)


def two_threads(chains, streams):
    xs = [torch.ones(ELEMS, device="cuda") for _ in range(2)]
    ss = [torch.cuda.Stream() if streams else None for _ in range(2)]
    torch.cuda.synchronize()
    start = threading.Barrier(3)

    def work(i):
        start.wait()
        if ss[i] is None:
            run_chains(xs[i], chains)
        else:
            with torch.cuda.stream(ss[i]):
                run_chains(xs[i], chains)
            ss[i].synchronize()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / (2 * chains * CHAIN)


def timed(stream, events, n_ops, f):
    if not events:
        stream.synchronize()
        t0 = time.perf_counter()
        f()
        stream.synchronize()
        return (time.perf_counter() - t0) / n_ops
    e0 = torch.cuda.Event(enable_timing=True)
    e1 = torch.cuda.Event(enable_timing=True)
    e0.record(stream)
    f()
    e1.record(stream)
    e1.synchronize()
    return e0.elapsed_time(e1) * 1e-3 / n_ops


def eager(chains, events):
    x = torch.ones(ELEMS, device="cuda")
    s = torch.cuda.current_stream()
    return timed(s, events, chains * CHAIN, lambda: run_chains(x, chains))


_graph = {}


def graph(chains, events):
    if not _graph:
        x = torch.ones(ELEMS, device="cuda")
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):  # warm-up on a side stream, as the CUDA graphs docs advise
            for _ in range(3):
                chain(x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = chain(x)
        _graph.update(g=g, x=x, out=out)
    g = _graph["g"]
    s = torch.cuda.current_stream()

    def replays():
        for _ in range(chains):
            g.replay()

    return timed(s, events, chains * CHAIN, replays)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--chains", type=int, default=400)
    p.add_argument("--samples", type=int, default=7)
    p.add_argument("--json", default="")
    a = p.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_streams.py: needs a CUDA GPU")
    rows = {
        "one_stream": lambda: one_stream(a.chains),
        "two_threads_default_stream": lambda: two_threads(a.chains, False),
        "two_threads_two_streams": lambda: two_threads(a.chains, True),
        "chain20_eager": lambda: eager(a.chains, False),
        "chain20_eager_events": lambda: eager(a.chains, True),
        "chain20_graph": lambda: graph(a.chains, False),
        "chain20_graph_events": lambda: graph(a.chains, True),
    }
    res = {}
    for name, f in rows.items():
        f()  # warm-up
        xs = sorted(f() * 1e6 for _ in range(a.samples))
        res[name] = statistics.median(xs)
        print(f"{name:28s} {res[name]:8.2f} us/op (min {xs[0]:.2f})", file=sys.stderr)
    doc = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "unit": "us_per_op", "rows": res}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2)
    else:
        print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
