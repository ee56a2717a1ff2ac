#!/usr/bin/env python3
"""Writes the checks.tsv rows (see checks.tsv) for the binaries that try.sh runs built.

    checks.py REAL_REPOS_DIR NAME...

For each NAME, reads REAL_REPOS_DIR/NAME/.real-repos/summary.tsv and prints a row per cc_binary
that built, with what passing means for that repository:
  - thrust (CCCL's thrust/examples): the example's FileCheck file,
    thrust/internal/test/thrust.example[.cuda].<name>.filecheck, where there is one; else exit 0;
  - sgemm (SGEMM_CUDA): //:sgemm once per kernel 2..12 (it checks each against cuBLAS and exits 1
    on a mismatch; kernel 1, the naive one, takes half a minute at 4096); the other programs exit 0;
  - anything else: exit status 0 (CUDALibrarySamples and llm.c check every API call).
"""
import os
import sys


def rows(base, name):
    ws = os.path.join(base, name)
    with open(os.path.join(ws, ".real-repos", "summary.tsv")) as f:
        built = sorted(l.split("\t")[0] for l in f if l.split("\t")[1:3] == ["cc_binary", "built"])
    for label in built:
        pkg, _, target = label[2:].partition(":")
        if name == "sgemm" and label == "//:sgemm":
            for k in range(2, 13):
                yield (name, label, str(k), "-")
            continue
        expect = "-"
        if name == "thrust" and pkg.startswith("thrust/examples"):
            sub = pkg[len("thrust/examples"):].strip("/")
            stem = target
            if target.endswith("_bin"):
                # A directory's only program, named after the directory.
                sub, stem = os.path.dirname(sub), os.path.basename(sub)
            check = "thrust/internal/test/thrust.example.%s%s.filecheck" % (sub.replace("/", ".") + "." if sub else "", stem)
            if os.path.exists(os.path.join(ws, check)):
                expect = "filecheck:" + check
        yield (name, label, "-", expect)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    for name in argv[2:]:
        for r in rows(argv[1], name):
            print("\t".join(r))


if __name__ == "__main__":
    main(sys.argv)
