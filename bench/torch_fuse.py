#!/usr/bin/env python3
"""The PyTorch and CuPy side of bench/cmd/fusebench: a 20-op float32 chain
alternating y + 0.25 and y * 0.5, per call, at several sizes, as

  eager            20 PyTorch ops
  graph            the 20 ops captured into a torch.cuda.CUDAGraph and replayed
  compile          torch.compile(fn) (Inductor: one Triton kernel)
  compile_graphs   torch.compile(fn, mode="reduce-overhead") (Inductor + CUDA graphs)
  cupy_fuse        cupy.fuse of the same function
  copy             out.copy_(x), the bandwidth reference

plus the polynomial a*x^3+b*x^2+c*x+d eager (7 kernels) and torch.compile, and
the first-call times of torch.compile and cupy.fuse. Each figure is the median
over --samples batches of calls timed with CUDA events (a batch lasts >= 5 ms).

  python3 torch_fuse.py --json torch_fuse.json [--sizes 4096,1048576,67108864]
"""
import argparse
import json
import statistics
import sys
import time

import torch

CHAIN = 20


def chain(y):
    for i in range(CHAIN):
        y = y + 0.25 if i % 2 == 0 else y * 0.5
    return y


def poly(x):
    return 0.5 * x * x * x - 1.25 * x * x + 2.0 * x + 0.75


def timed(fn, samples, sync=torch.cuda.synchronize, min_ms=5.0):
    """Median per-call time in microseconds of fn over batches timed with CUDA events."""
    fn()
    sync()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    one = max(start.elapsed_time(end), 1e-3)
    calls = int(min(max(min_ms / one, 3), 2000))
    res = []
    for _ in range(samples):
        sync()
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        res.append(start.elapsed_time(end) * 1e3 / calls)
    return statistics.median(res)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4096,1048576,67108864,268435456")
    ap.add_argument("--samples", type=int, default=7)
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    dev = torch.device("cuda:0")
    out = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "rows": {}, "first_call_ms": {}}
    try:
        import cupy
        out["cupy"] = cupy.__version__
    except Exception as e:  # CuPy is optional
        cupy = None
        out["cupy_error"] = str(e)
    rows = out["rows"]

    compiled = torch.compile(chain)
    compiled_graphs = torch.compile(chain, mode="reduce-overhead")
    compiled_poly = torch.compile(poly)
    cfuse = cupy.fuse()(chain) if cupy is not None else None

    for n in sizes:
        r = rows.setdefault(str(n), {})
        x = torch.full((n,), 1.0, device=dev, dtype=torch.float32)
        dst = torch.empty_like(x)
        r["copy"] = timed(lambda: dst.copy_(x), a.samples)
        r["eager"] = timed(lambda: chain(x), a.samples)
        # CUDA graph of the eager chain.
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                chain(x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            gy = chain(x)
        r["graph"] = timed(g.replay, a.samples)
        del g, gy
        t0 = time.perf_counter()
        compiled(x)
        torch.cuda.synchronize()
        out["first_call_ms"].setdefault("compile", (time.perf_counter() - t0) * 1e3)
        r["compile"] = timed(lambda: compiled(x), a.samples)
        t0 = time.perf_counter()
        for _ in range(3):  # reduce-overhead records its graph after warm-up calls
            compiled_graphs(x)
        torch.cuda.synchronize()
        out["first_call_ms"].setdefault("compile_graphs", (time.perf_counter() - t0) * 1e3)
        r["compile_graphs"] = timed(lambda: compiled_graphs(x), a.samples)
        if cfuse is not None:
            cx = cupy.asarray(x)
            t0 = time.perf_counter()
            cfuse(cx)
            cupy.cuda.Device(0).synchronize()
            out["first_call_ms"].setdefault("cupy_fuse", (time.perf_counter() - t0) * 1e3)
            r["cupy_fuse"] = timed(lambda: cfuse(cx), a.samples)
            del cx
        r["poly_eager"] = timed(lambda: poly(x), a.samples)
        r["poly_compile"] = timed(lambda: compiled_poly(x), a.samples)
        print(f"{n}: " + ", ".join(f"{k} {v:.1f} us" for k, v in r.items()), flush=True)
        del x, dst
        torch.cuda.empty_cache()
        if cupy is not None:
            cupy.get_default_memory_pool().free_all_blocks()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
