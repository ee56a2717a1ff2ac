"""torch.matmul on [n, n] x [n, n] per dtype, timed like bench/cmd/matmul (3 untimed calls,
then CUDA events around batches of >= 5 ms of calls, 11 batches, median), written as JSON rows for
`matmul --torch`.

    python3 torch_matmul.py --n 4096 --out torch.json [--dtypes tf32,float32]

Each row also lists its 11 batch times in order ("batches", ms per call), to see the GPU slow down
under sustained load.

Rows: float32 with TF32 off (torch.backends.cuda.matmul.allow_tf32 = False, the default), "tf32"
(float32 with it on), float64, bfloat16 and float16 (cuBLAS accumulating in float32).
"""

import argparse
import json
import statistics

import torch

DTYPES = {
    "float32": (torch.float32, False),
    "tf32": (torch.float32, True),
    "float64": (torch.float64, False),
    "bfloat16": (torch.bfloat16, False),
    "float16": (torch.float16, False),
}


def batch(fn, k):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(k):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)  # ms


def time_case(dtype, tf32, n):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    g = torch.Generator(device="cuda").manual_seed(1)
    a = torch.rand(n, n, device="cuda", dtype=dtype, generator=g)
    b = torch.rand(n, n, device="cuda", dtype=dtype, generator=g)
    fn = lambda: torch.matmul(a, b)
    batch(fn, 3)  # warm-up, not counted in sizing the batches
    per = batch(fn, 3) / 3
    calls = max(1, int(5.0 / max(per, 1e-6)))
    times = [batch(fn, calls) / calls for _ in range(11)]
    torch.backends.cuda.matmul.allow_tf32 = False
    return statistics.median(times), times


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", default="4096", help="comma-separated sizes")
    p.add_argument("--dtypes", default=",".join(DTYPES), help="comma-separated rows to time, of " + ", ".join(DTYPES))
    p.add_argument("--out", required=True)
    args = p.parse_args()
    names = args.dtypes.split(",")
    for name in names:
        if name not in DTYPES:
            p.error(f"unknown dtype {name!r} in --dtypes: want some of {', '.join(DTYPES)}")
    rows = []
    for n in [int(s) for s in args.n.split(",")]:
        for name in names:
            dtype, tf32 = DTYPES[name]
            ms, times = time_case(dtype, tf32, n)
            rows.append({"op": "matmul", "dtype": name, "n": n, "ms": ms, "batches": times})
    with open(args.out, "w") as f:
        json.dump(rows, f, indent=2)
    print(f"torch {torch.__version__}, cuBLAS {torch.backends.cuda.preferred_blas_library()}, "
          f"{torch.cuda.get_device_name()}")


if __name__ == "__main__":
    main()
