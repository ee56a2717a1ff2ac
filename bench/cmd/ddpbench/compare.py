"""Puts ddpbench's and torch_ddp.py's JSON lines side by side: python compare.py FILE...

Prints the step times per implementation and GPU count (the mean of the runs given, and each run),
each implementation's scaling from 1 GPU to the others (step time on 1 GPU / step time on n GPUs,
the global batch being the same), Go's step time over torch's, and the largest relative difference
between Go's and torch's loss (rank 0's shard) over the steps, per GPU count.
"""

import json
import sys


def main():
    runs = {}
    events = []
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                if "event" in r:
                    events.append(r)
                    continue
                impl = "torch" if r["impl"].startswith("torch") else "go"
                runs.setdefault((impl, r["gpus"]), []).append(r)
    mean = {k: sum(r["step_ms"] for r in v) / len(v) for k, v in runs.items()}
    print("| GPUs | Go ms/step | torch DDP ms/step | Go / torch | max rel. loss diff | Go runs | torch runs |")
    print("|---|---|---|---|---|---|---|")
    for n in sorted({k[1] for k in runs}):
        g, t = mean.get(("go", n)), mean.get(("torch", n))
        diff = ""
        if ("go", n) in runs and ("torch", n) in runs:
            lg, lt = runs[("go", n)][0]["losses"], runs[("torch", n)][0]["losses"]
            diff = "%.2e" % max(abs(a - b) / max(abs(b), 1e-30) for a, b in zip(lg, lt))
        print("| %d | %s | %s | %s | %s | %s | %s |" % (
            n, "%.2f" % g if g else "", "%.2f" % t if t else "", "%.3f" % (g / t) if g and t else "", diff,
            ", ".join("%.2f" % r["step_ms"] for r in runs.get(("go", n), [])),
            ", ".join("%.2f" % r["step_ms"] for r in runs.get(("torch", n), []))))
    for impl in ("go", "torch"):
        if (impl, 1) in mean:
            for n in sorted(k[1] for k in mean if k[0] == impl and k[1] > 1):
                print("%s: 1 -> %d GPUs: %.2fx" % (impl, n, mean[(impl, 1)] / mean[(impl, n)]))
    for n in sorted({k[1] for k in runs}):
        for impl in ("go", "torch"):
            if (impl, n) in runs:
                l = runs[(impl, n)][0]["losses"]
                print("%s %d GPU(s) losses: %s" % (impl, n, " ".join("%.5g" % v for v in l[::7] + [l[-1]])))
    for n in sorted({k[1] for k in runs}):
        if ("go", n) in runs and ("torch", n) in runs:
            ug, ut = runs[("go", n)][0].get("update_norms"), runs[("torch", n)][0].get("update_norms")
            if ug and ut:
                print("%d GPU(s): update norms go %s, torch %s, largest relative difference %.2e" % (
                    n, " ".join("%.4g" % v for v in ug), " ".join("%.4g" % v for v in ut),
                    max(abs(a - b) / max(abs(b), 1e-30) for a, b in zip(ug, ut))))
    for e in events:
        print("event:", json.dumps(e))


if __name__ == "__main__":
    main()
