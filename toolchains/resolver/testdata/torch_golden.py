"""Records PyTorch's own answers for TORCH_CUDA_ARCH_LIST specs, as golden data for the Go resolver.

Run where PyTorch is installed (no GPU needed: native mode is simulated by patching torch.cuda):
    python3 torch_golden.py > torch_golden.json
Each record: {"spec": str or null, "gpus": [[major, minor], ...], "torch_arch_list": [...],
"flags": [...]} or, where PyTorch raises, {"spec": ..., "error": "..."}.
"""
import json
import os
import random
import sys

import torch
from torch.utils import cpp_extension

NAMED = ["Kepler+Tesla", "Kepler", "Maxwell+Tegra", "Maxwell", "Pascal", "Volta+Tegra", "Volta",
         "Turing", "Ampere+Tegra", "Ampere", "Ada", "Hopper", "Blackwell+Tegra", "Blackwell"]
NUMERIC = ["3.5", "3.7", "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5", "8.0", "8.6",
           "8.7", "8.8", "8.9", "9.0", "9.0a", "10.0", "10.0a", "10.1", "10.1a", "10.3", "10.3a", "11.0",
           "11.0a", "12.0", "12.0a", "12.1", "12.1a", "3.0", "2.0", "9.1", "7.5a", "100", "8", "sm_80",
           "compute_80", "8.0f", "10.0f", "12.0f"]
HANDWRITTEN = [
    "8.0", "9.0+PTX", "8.0;9.0+PTX", "8.0 9.0+PTX", "9.0;8.0", "8.6;8.0;8.6", "Hopper", "Ampere",
    "Ampere;Hopper", "Ampere+Tegra", "Blackwell", "Blackwell+Tegra", "Kepler+Tesla", "Maxwell+Tegra;Pascal",
    "Volta+Tegra Volta", "Hopper+PTX", "10.0;12.1+PTX", "9.0a", "10.0a+PTX", "12.1a", "7.5+PTX;8.9",
    "8.0;", ";8.0", " 8.0", "8.0 ", "8.0  9.0", "8.0;;9.0", "8.0,9.0", "8.0+ptx", "8.0+PTX+PTX",
    "hopper", "HOPPER", "Hopper9.0", "sm_90", "compute_90", "9", "9.", ".9", "90", "9.0.1", "+PTX",
    "8.0+PTX;8.0", "6.2", "8.8", "10.1", "11.0", "11.0a", "10.3+PTX", "3.5;3.7;5.0;5.2;5.3",
    "5.0;5.2;6.0;6.1;7.0;7.5;8.0;8.6;8.9;9.0;10.0;12.0+PTX", "native", "Native", "", "all", "All",
    "TuringAmpere", "Turing;Ampere+PTX", "Ada Hopper Blackwell", "9.0+PTX 9.0", "12.0f", "\t8.0",
]
# (gpus, torch arch list) pairs for native/unset mode.
NATIVE = [
    ([], ["sm_80", "sm_90"]),
    ([(9, 0)], ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]),
    ([(8, 6), (8, 0)], ["sm_80", "sm_86", "sm_90"]),
    ([(9, 0), (9, 0)], ["sm_80", "sm_90"]),
    ([(10, 0), (9, 0)], ["sm_80", "sm_90", "sm_100", "sm_120"]),
    ([(12, 0), (8, 9)], ["sm_80", "sm_90", "sm_100", "sm_120"]),
    ([(12, 0)], ["sm_80", "sm_90"]),
    ([(9, 0)], ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80"]),
    ([(10, 3), (11, 0)], ["sm_75", "sm_80", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"]),
    ([(7, 5), (8, 6), (8, 9), (9, 0)], ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]),
    ([(9, 0)], ["sm_90a", "sm_80"]),
    ([(9, 0)], ["sm_80", "sm_90", "compute_90"]),
]


def flags_for(spec, gpus=None, arch_list=None):
    env = dict(os.environ)
    if spec is None:
        os.environ.pop("TORCH_CUDA_ARCH_LIST", None)
    else:
        os.environ["TORCH_CUDA_ARCH_LIST"] = spec
    saved = (torch.cuda.device_count, torch.cuda.get_device_capability, torch.cuda.get_arch_list)
    if gpus is not None:
        torch.cuda.device_count = lambda: len(gpus)
        torch.cuda.get_device_capability = lambda i=None: gpus[i]
        torch.cuda.get_arch_list = lambda: list(arch_list)
    try:
        return {"flags": cpp_extension._get_cuda_arch_flags()}
    except Exception as e:  # PyTorch raises ValueError for bad specs; record whatever it raises
        return {"error": "%s: %s" % (type(e).__name__, e)}
    finally:
        torch.cuda.device_count, torch.cuda.get_device_capability, torch.cuda.get_arch_list = saved
        os.environ.clear()
        os.environ.update(env)


def main():
    import logging
    logging.disable(logging.CRITICAL)
    rng = random.Random(20261121)
    specs = list(HANDWRITTEN)
    atoms = NAMED + NUMERIC
    for _ in range(400):
        n = rng.randint(1, 5)
        parts = []
        for _ in range(n):
            a = rng.choice(atoms)
            if rng.random() < 0.3:
                a += "+PTX"
            parts.append(a)
        sep = rng.choice([";", " ", ";", ";"])
        specs.append(sep.join(parts))
    records = []
    for s in specs:
        r = {"spec": s}
        r.update(flags_for(s, [(9, 0)], ["sm_80", "sm_90"]) if s in ("", "native") else flags_for(s))
        if s in ("", "native"):
            r["gpus"] = [[9, 0]]
            r["torch_arch_list"] = ["sm_80", "sm_90"]
        records.append(r)
    for gpus, al in NATIVE:
        for s in (None, "native"):
            r = {"spec": s, "gpus": [list(g) for g in gpus], "torch_arch_list": al}
            r.update(flags_for(s, gpus, al))
            records.append(r)
    json.dump({"torch_version": torch.__version__, "records": records}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
