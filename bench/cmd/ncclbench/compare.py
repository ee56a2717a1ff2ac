"""Puts ncclbench's and torch_bench.py's JSON lines side by side: python compare.py FILE..."""

import json
import sys


def main():
    rows = {}
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                rows.setdefault((r["op"], r["bytes"]), {})[r["impl"]] = r
    impls = sorted({i for v in rows.values() for i in v})
    other = [i for i in impls if i != "torch"]
    print("| op | bytes | " + " | ".join("%s us | %s GB/s" % (i, i) for i in impls) +
          " | " + " | ".join("%s/torch" % i for i in other) + " |")
    print("|---" * (2 + 2 * len(impls) + len(other)) + "|")
    for (op, b), v in sorted(rows.items()):
        cells = []
        for i in impls:
            r = v.get(i)
            cells += ["%.2f" % r["us"], "%.1f" % r["bus_bw"]] if r else ["", ""]
        ratios = []
        for i in other:
            if i in v and "torch" in v:
                ratios.append("%.3f" % (v[i]["bus_bw"] / v["torch"]["bus_bw"]))
            else:
                ratios.append("")
        print("| %s | %d | %s | %s |" % (op, b, " | ".join(cells), " | ".join(ratios)))


if __name__ == "__main__":
    main()
