#!/usr/bin/env python3
"""Times the ops of bench in PyTorch eager, the way the Go benchmark times them.

The JSON it writes (--json) has the schema of the Go benchmark's (package bench, Report):
`bench compare --go go.json --torch torch.json` puts the two side by side.

What is measured, per dtype (--dtypes: float32, float64, float16, bfloat16):
  copy                 y.copy_(x) into a preallocated y (cudaMemcpy device to device)
  add_scalar           x + s
  axpby                a*x + b*y
  norm                 torch.linalg.vector_norm(x)
  polynomial           a*x**3 + b*x**2 + c*x + d (eager: one kernel per operator)
  polynomial_fwd_bwd   the same on x.requires_grad_(), then .backward(g) (autograd), grad dropped
  row_softmax          torch.softmax(x, dim=1) on [B, D]
  matmul               torch.matmul(a, b) on [n, n], TF32 off (cuBLAS)
over 1-D sizes of powers of 4 from 4096 to --max-elems (views of one random tensor per dtype).

How (the same as the Go side): after --warmup calls, a batch size k is chosen so that k calls last at
least --batch-ms; --repeats batches are timed with CUDA events recorded before the first and after the
last call (host clock around synchronizations on the CPU); the time per call is the batch's time / k;
the median (and minimum) over the batches is reported. Per-call latency at --latency-elems elements:
latency_sync = median over --latency-calls calls of the host time of one call followed by
torch.cuda.synchronize(); latency_batch = host time of --latency-calls calls back to back and one
synchronize, divided by the count (median of 5). Both use the host clock exactly as the Go side does.

Usage: python3 torch_bench.py [--device cuda|cpu] [--max-elems N] --json torch.json
"""

import argparse
import datetime
import json
import math
import platform
import statistics
import subprocess
import sys
import time

SCHEMA = "rules_cuda_go.bench/v1"

# The constants of package bench (opdefs.go).
POLY_A, POLY_B, POLY_C, POLY_D = 1.5, -2.0, 0.5, 3.0
AXPBY_A, AXPBY_B, ADD_SCALAR_S = 2.0, -3.0, 1.0

OP_COPY = "copy"
OP_ADD_SCALAR = "add_scalar"
OP_AXPBY = "axpby"
OP_NORM = "norm"
OP_POLYNOMIAL = "polynomial"
OP_POLY_FWD_BWD = "polynomial_fwd_bwd"
OP_ROW_SOFTMAX = "row_softmax"
OP_MATMUL = "matmul"
ELEMENTWISE_OPS = [OP_COPY, OP_ADD_SCALAR, OP_AXPBY, OP_NORM, OP_POLYNOMIAL, OP_POLY_FWD_BWD]
ALL_OPS = ELEMENTWISE_OPS + [OP_ROW_SOFTMAX, OP_MATMUL]

METRIC_TIME = "time"
METRIC_LATENCY_SYNC = "latency_sync"
METRIC_LATENCY_BATCH = "latency_batch"

DEFAULTS = {
    "cuda": {"max_elems": 1 << 28, "softmax": "65536x128,16384x1024,4096x4096,2048x16384",
             "matmul": "1024,2048,4096"},
    "cpu": {"max_elems": 1 << 22, "softmax": "8192x128,1024x1024,256x4096", "matmul": "128,256,512"},
}

MAX_BATCH = 1 << 16


def default_sizes(max_elems):
    """Powers of 4 from 4096 up to max_elems, and max_elems if above the last (as DefaultSizes in Go)."""
    sizes = []
    n = 4096
    while n <= max_elems:
        sizes.append(n)
        n *= 4
    if max_elems > 4096 and (not sizes or sizes[-1] < max_elems):
        sizes.append(max_elems)
    return sizes


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def bytes_moved(op, elem_size, shape):
    """Bytes the op must move (as Bytes in Go): every input read once, every output written once."""
    n = numel(shape)
    if op in (OP_COPY, OP_ADD_SCALAR, OP_POLYNOMIAL, OP_ROW_SOFTMAX):
        return 2 * n * elem_size
    if op == OP_AXPBY:
        return 3 * n * elem_size
    if op == OP_NORM:
        return (n + 1) * elem_size
    if op in (OP_POLY_FWD_BWD, "polynomial_fwd_bwd_autograd"):
        return 5 * n * elem_size
    if op == OP_MATMUL:
        return 3 * n * elem_size
    return 0


def flops(op, shape):
    if op != OP_MATMUL or len(shape) != 2:
        return 0.0
    return 2.0 * shape[0] * shape[1] * shape[1]


# Bytes per element of the dtypes of --dtypes (as ElemSize in Go), in report order.
ELEM_SIZES = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2}


def batch_size(min_batch, per_call):
    """Calls of per_call seconds that last at least min_batch seconds, in [1, 65536] (as BatchSize in Go)."""
    if not per_call > 0:
        return MAX_BATCH
    return int(min(max(math.ceil(min_batch / per_call), 1), MAX_BATCH))


def annotate(results):
    """Fills bytes, flops, gb_per_s, tflop_per_s and copy_fraction of the time results (as Annotate)."""
    copy_bw = {}
    for r in results:
        for k in ("bytes", "flops", "gb_per_s", "tflop_per_s", "copy_fraction"):
            r.pop(k, None)
        if r["metric"] != METRIC_TIME or r.get("error") or not r["seconds"] > 0:
            continue
        size = ELEM_SIZES.get(r["dtype"], 0)
        b = bytes_moved(r["op"], size, r["shape"])
        f = flops(r["op"], r["shape"])
        if b:
            r["bytes"] = b
            r["gb_per_s"] = b / r["seconds"] / 1e9
        if f:
            r["flops"] = f
            r["tflop_per_s"] = f / r["seconds"] / 1e12
        if r["op"] == OP_COPY:
            copy_bw[(r["dtype"], r["elems"])] = r["gb_per_s"]
    for r in results:
        if r.get("gb_per_s") and r["op"] != OP_MATMUL:
            bw = copy_bw.get((r["dtype"], r["elems"]))
            if bw:
                r["copy_fraction"] = r["gb_per_s"] / bw


def parse_ints(s):
    return [int(f) for f in s.split(",") if f.strip()]


def parse_shapes(s):
    out = []
    for f in s.split(","):
        f = f.strip()
        if f:
            b, d = f.split("x")
            out.append((int(b), int(d)))
    return out


def nvidia_driver(index):
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader", "-i", str(index)],
                             capture_output=True, text=True, timeout=30, check=True).stdout.strip()
        return out.splitlines()[0].strip() if out else ""
    except Exception:  # no nvidia-smi: leave it out
        return ""


class Bench:
    def __init__(self, torch, args):
        self.torch = torch
        self.args = args
        self.cuda = args.device == "cuda"
        self.dev = torch.device(f"cuda:{args.gpu}" if self.cuda else "cpu")
        self.results = []
        self.log = sys.stderr if not args.quiet else None

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize(self.dev)

    def time_batch(self, fn, k, events=True):
        """Seconds for k calls of fn: CUDA events (events=True on a GPU) or host clock, synchronized."""
        self.sync()
        if self.cuda and events:
            start = self.torch.cuda.Event(enable_timing=True)
            end = self.torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(k):
                fn()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1e3
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        self.sync()
        return time.perf_counter() - t0

    def add(self, res, err=None):
        if err is not None:
            res["error"] = f"{type(err).__name__}: {err}".splitlines()[0]
            if self.cuda:
                self.torch.cuda.empty_cache()
        if self.log:
            shape = "x".join(str(d) for d in res["shape"])
            if err is not None:
                print(f"{res['op']:<28} {res['dtype']:<8} {shape:<12} {res['metric']:<13} error: {res['error']}",
                      file=self.log, flush=True)
            else:
                print(f"{res['op']:<28} {res['dtype']:<8} {shape:<12} {res['metric']:<13} "
                      f"{res['seconds'] * 1e6:12.3f} µs  (batch {res['batch']})", file=self.log, flush=True)
        self.results.append(res)

    def prepare(self, op, x, y, shape):
        """Returns fn, one call of op on views of x and y of the given shape."""
        torch = self.torch
        n = numel(shape)
        xv = x[:n].view(*shape)
        yv = y[:n].view(*shape)
        if op == OP_COPY:
            out = torch.empty_like(xv)
            return lambda: out.copy_(xv)
        if op == OP_ADD_SCALAR:
            return lambda: xv + ADD_SCALAR_S
        if op == OP_AXPBY:
            return lambda: AXPBY_A * xv + AXPBY_B * yv
        if op == OP_NORM:
            return lambda: torch.linalg.vector_norm(xv)
        if op == OP_POLYNOMIAL:
            return lambda: POLY_A * xv ** 3 + POLY_B * xv ** 2 + POLY_C * xv + POLY_D
        if op == OP_POLY_FWD_BWD:
            xg = xv.detach().requires_grad_(True)
            g = yv

            def fwd_bwd():
                out = POLY_A * xg ** 3 + POLY_B * xg ** 2 + POLY_C * xg + POLY_D
                out.backward(g)
                xg.grad = None
                return out
            return fwd_bwd
        if op == OP_ROW_SOFTMAX:
            return lambda: torch.softmax(xv, dim=1)
        if op == OP_MATMUL:
            return lambda: torch.matmul(xv, yv)
        raise ValueError(f"unknown op {op}")

    def measure(self, op, dtype_name, x, y, shape):
        args = self.args
        res = {"op": op, "dtype": dtype_name, "shape": list(shape), "elems": numel(shape), "metric": METRIC_TIME,
               "seconds": 0.0, "min_seconds": 0.0, "repeats": 0, "batch": 0}
        try:
            fn = self.prepare(op, x, y, shape)
            for _ in range(args.warmup):
                fn()
            min_batch = args.batch_ms / 1e3
            d = self.time_batch(fn, 1)
            per = d
            if d < min_batch / 10:
                per = self.time_batch(fn, 10) / 10
            k = batch_size(min_batch, per)
            samples = [self.time_batch(fn, k) / k for _ in range(args.repeats)]
            res.update(seconds=statistics.median(samples), min_seconds=min(samples), repeats=len(samples), batch=k)
            self.add(res)
        except (RuntimeError, MemoryError) as e:  # torch.cuda.OutOfMemoryError is a RuntimeError
            self.add(res, e)

    def latency(self, op, dtype_name, x, y, shape):
        args = self.args
        calls = args.latency_calls
        base = {"op": op, "dtype": dtype_name, "shape": list(shape), "elems": numel(shape),
                "seconds": 0.0, "min_seconds": 0.0, "repeats": 0, "batch": 0}
        sync_res = dict(base, metric=METRIC_LATENCY_SYNC)
        batch_res = dict(base, metric=METRIC_LATENCY_BATCH)
        try:
            fn = self.prepare(op, x, y, shape)
            for _ in range(max(args.warmup, 10)):
                fn()
            self.sync()
            samples = []
            for _ in range(calls):
                t0 = time.perf_counter()
                fn()
                self.sync()
                samples.append(time.perf_counter() - t0)
            sync_res.update(seconds=statistics.median(samples), min_seconds=min(samples), repeats=calls, batch=1)
            self.add(sync_res)
            samples = [self.time_batch(fn, calls, events=False) / calls for _ in range(5)]
            batch_res.update(seconds=statistics.median(samples), min_seconds=min(samples), repeats=5, batch=calls)
            self.add(batch_res)
        except (RuntimeError, MemoryError) as e:
            self.add(sync_res, e)
            self.add(batch_res, e)

    def run_dtype(self, dtype_name, sizes, shapes, mms):
        torch = self.torch
        dtype = getattr(torch, dtype_name)  # torch.float32, torch.float64, torch.float16, torch.bfloat16
        copy_sizes = list(sizes)
        for b, d in shapes:
            if b * d not in copy_sizes:
                copy_sizes.append(b * d)
        max_n = max(copy_sizes + [n * n for n in mms] + [max(self.args.latency_elems, 0)])
        if max_n == 0:
            return
        gen = torch.Generator(device=self.dev)
        gen.manual_seed(1)
        x = torch.rand(max_n, dtype=dtype, device=self.dev, generator=gen)
        y = torch.rand(max_n, dtype=dtype, device=self.dev, generator=gen)
        # Keep the device busy for a moment so that it runs at its working clocks (as the Go side).
        if self.cuda:
            warm = self.prepare(OP_COPY, x, y, (max_n,))
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 0.3:
                self.time_batch(warm, 1, events=False)
            del warm
        for op in ELEMENTWISE_OPS:
            if op != OP_COPY and op not in self.args.ops:
                continue
            for n in (copy_sizes if op == OP_COPY else sizes):
                self.measure(op, dtype_name, x, y, (n,))
        for s in shapes:
            self.measure(OP_ROW_SOFTMAX, dtype_name, x, y, s)
        for n in mms:
            self.measure(OP_MATMUL, dtype_name, x, y, (n, n))
        n = self.args.latency_elems
        if n > 0:
            side = int(math.isqrt(n))
            for op in ALL_OPS:
                if op != OP_COPY and op not in self.args.ops:
                    continue
                shape = (side, side) if op in (OP_ROW_SOFTMAX, OP_MATMUL) else (n,)
                self.latency(op, dtype_name, x, y, shape)
        del x, y
        if self.cuda:
            torch.cuda.empty_cache()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    p.add_argument("--gpu", type=int, default=0, help="CUDA device index")
    p.add_argument("--max-elems", type=int, default=0, help="largest tensor (default 2^28 on cuda, 2^22 on cpu)")
    p.add_argument("--sizes", default="", help="comma-separated element counts (default powers of 4 from 4096)")
    p.add_argument("--dtypes", default="float32,float64", help="comma-separated: float32, float64, float16, bfloat16")
    p.add_argument("--ops", default=",".join(ALL_OPS), help="comma-separated ops (copy is always measured)")
    p.add_argument("--softmax-shapes", default="", help="comma-separated BxD shapes")
    p.add_argument("--matmul-sizes", default="", help="comma-separated n of the n x n matmuls")
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--batch-ms", type=float, default=3.0)
    p.add_argument("--latency-elems", type=int, default=4096, help="0: no latency measurements")
    p.add_argument("--latency-calls", type=int, default=1000)
    p.add_argument("--json", default="", help="write the results to this file")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    dtypes = [s.strip() for s in args.dtypes.split(",") if s.strip()]
    for dt in dtypes:
        if dt not in ELEM_SIZES:
            p.error(f"--dtypes: {dt!r} is not one of {', '.join(ELEM_SIZES)}")

    import torch  # imported here so that --help works without it

    d = DEFAULTS[args.device]
    if args.max_elems <= 0:
        args.max_elems = d["max_elems"]
    args.ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    for o in args.ops:
        if o not in ALL_OPS:
            p.error(f"unknown op {o!r} (known: {', '.join(ALL_OPS)})")
    sizes = parse_ints(args.sizes) if args.sizes else default_sizes(args.max_elems)
    sizes = [n for n in sizes if n <= args.max_elems]
    shapes = [s for s in parse_shapes(args.softmax_shapes or d["softmax"]) if s[0] * s[1] <= args.max_elems]
    mms = [n for n in parse_ints(args.matmul_sizes or d["matmul"]) if n * n <= args.max_elems]
    if OP_ROW_SOFTMAX not in args.ops:
        shapes = []
    if OP_MATMUL not in args.ops:
        mms = []

    env = {"torch": torch.__version__, "python": platform.python_version()}
    device = {"type": args.device, "index": args.gpu if args.device == "cuda" else 0}
    if args.device == "cuda":
        if not torch.cuda.is_available():
            p.error("torch.cuda.is_available() is False; use --device cpu")
        torch.cuda.set_device(args.gpu)
        # TF32 off for float32 matmuls: compare with the full-precision cuBLAS SGEMM.
        if hasattr(torch.backends.cuda.matmul, "fp32_precision"):
            torch.backends.cuda.matmul.fp32_precision = "ieee"
            env["matmul_fp32_precision"] = str(torch.backends.cuda.matmul.fp32_precision)
        else:
            torch.backends.cuda.matmul.allow_tf32 = False
            env["matmul_allow_tf32"] = str(torch.backends.cuda.matmul.allow_tf32)
        prop = torch.cuda.get_device_properties(args.gpu)
        device.update(name=prop.name, capability=f"{prop.major}.{prop.minor}", sms=prop.multi_processor_count)
        drv = nvidia_driver(args.gpu)
        if drv:
            device["driver"] = drv
        env["cuda"] = str(torch.version.cuda)
        timer = (f"CUDA events around batches of calls (batch >= {args.batch_ms:g} ms), median of {args.repeats}; "
                 "latency: host clock")
    else:
        env["threads"] = str(torch.get_num_threads())
        timer = f"host clock around batches of calls (batch >= {args.batch_ms:g} ms), median of {args.repeats}"

    b = Bench(torch, args)
    for dt in dtypes:
        b.run_dtype(dt, sizes, shapes, mms)
    annotate(b.results)
    report = {
        "schema": SCHEMA,
        "impl": "torch",
        "device": device,
        "timer": timer,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "env": env,
        "settings": {"repeats": args.repeats, "warmup": args.warmup, "batch_seconds": args.batch_ms / 1e3,
                     "latency_calls": args.latency_calls, "latency_elems": args.latency_elems,
                     "max_elems": args.max_elems},
        "results": b.results,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
