"""The PyTorch side of GPT-2's parity check (issue 44, item 8).

`gpt2 parity -out DIR` (the Go command) writes into DIR:
  init/                 a Hugging Face checkpoint (config.json, model.safetensors) of the weights it started from
  batches.safetensors   inputs.K / targets.K, int32 [B, T], for steps K = 0..S-1
  go_float32.safetensors, go_bfloat16.safetensors
                        step 0 on batch 0: "loss" (0-d), "logits" [B, T, V] (float32 only) and
                        "grad.<name>" for every parameter, in Hugging Face's names and layout
  go_steps.json         the hyperparameters, the learning rate of each step and Go's loss at each of
                        S AdamW steps (float32)
This script loads init/ with transformers' GPT2LMHeadModel, runs the same batches in PyTorch and
compares:
  float32 logits and loss   max |go - torch| / max |torch| <= 1e-4
  bfloat16 loss             |go - torch| <= 1e-2           (torch.autocast bfloat16 on the PyTorch side)
  gradients                 cosine(go, torch) >= 0.999 in float32, >= 0.99 in bfloat16, every parameter
  S AdamW steps             |go - torch| / torch <= 1% at every step (torch.optim.AdamW, the same
                            hyperparameters, decay on the 2-D weights only, clip_grad_norm_)
It prints the tables (markdown), writes DIR/parity.json and exits 1 when a check fails.

  python3 parity.py DIR [--device cuda]
"""
import argparse
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
from safetensors.torch import load_file
from transformers import GPT2LMHeadModel


def load_model(init, device):
    # eager attention: the textbook softmax(QK^T/sqrt(d))V, no fused kernel choices.
    m = GPT2LMHeadModel.from_pretrained(init, attn_implementation="eager")
    return m.float().to(device).train()  # the config's dropout probabilities are 0


def loss_of(model, inputs, targets, dtype):
    if dtype == "bfloat16":
        with torch.autocast(device_type=inputs.device.type, dtype=torch.bfloat16):
            logits = model(input_ids=inputs).logits
    else:
        logits = model(input_ids=inputs).logits
    logits = logits.float()
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=-1)
    return logits, loss


def cosine(a, b):
    a, b = a.double().flatten(), b.double().flatten()
    na, nb = a.norm(), b.norm()
    if na == 0 and nb == 0:
        return 1.0
    if na == 0 or nb == 0:
        return 0.0
    return float((a @ b) / (na * nb))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    a = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False  # Go's float32 MatMul is IEEE float32
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device(a.device)
    d = a.dir
    batches = load_file(os.path.join(d, "batches.safetensors"))
    steps = json.load(open(os.path.join(d, "go_steps.json")))
    inputs = [batches[f"inputs.{k}"].long().to(dev) for k in range(len(steps["losses"]))]
    targets = [batches[f"targets.{k}"].long().to(dev) for k in range(len(steps["losses"]))]
    report = {"device": str(dev), "torch": torch.__version__, "checks": []}
    ok = True

    def check(name, value, bound, passed):
        nonlocal ok
        ok = ok and passed
        report["checks"].append({"check": name, "value": value, "bound": bound, "pass": passed})

    lines = []
    for dtype in ("float32", "bfloat16"):
        path = os.path.join(d, f"go_{dtype}.safetensors")
        if not os.path.exists(path):
            lines.append(f"({dtype}: {path} missing, skipped)")
            continue
        go = load_file(path)
        model = load_model(os.path.join(d, "init"), dev)
        logits, loss = loss_of(model, inputs[0], targets[0], dtype)
        loss.backward()
        logits, loss = logits.detach(), loss.detach()
        go_loss = float(go["loss"])
        lines.append(f"\n### Step 0, {dtype}\n")
        lines.append("| quantity | Go | PyTorch | error | bound | pass |")
        lines.append("|---|---|---|---|---|---|")
        if dtype == "float32":
            gl = go["logits"].to(dev)
            err = float((gl - logits).abs().max() / logits.abs().max())
            p = err <= 1e-4
            check("float32 logits max rel err", err, 1e-4, p)
            lines.append(f"| logits [{'x'.join(map(str, gl.shape))}] | | | {err:.2e} (max abs diff / max abs) | 1e-4 | {p} |")
            err = abs(go_loss - float(loss)) / abs(float(loss))
            p = err <= 1e-4
            check("float32 loss rel err", err, 1e-4, p)
            lines.append(f"| loss | {go_loss:.6f} | {float(loss):.6f} | {err:.2e} (relative) | 1e-4 | {p} |")
        else:
            err = abs(go_loss - float(loss))
            p = err <= 1e-2
            check("bfloat16 loss abs err", err, 1e-2, p)
            lines.append(f"| loss | {go_loss:.6f} | {float(loss):.6f} | {err:.2e} (absolute) | 1e-2 | {p} |")
        bound = 0.999 if dtype == "float32" else 0.99
        worst, worst_name, missing = 2.0, "", []
        rows = []
        for name, prm in model.named_parameters():
            key = "grad." + name
            if key not in go:
                missing.append(name)
                continue
            c = cosine(go[key].to(dev), prm.grad)
            rows.append((name, c))
            if c < worst:
                worst, worst_name = c, name
        p = not missing and worst >= bound
        check(f"{dtype} gradient cosine (worst of {len(rows)})", worst, bound, p)
        lines.append(f"| gradient cosine, worst of {len(rows)} parameters | | | {worst:.6f} ({worst_name}) | >= {bound} | {p} |")
        if missing:
            lines.append(f"\nmissing Go gradients: {missing}")
        report[f"grad_cosine_{dtype}"] = dict(rows)
        del model

    # S AdamW steps, float32, same hyperparameters and learning rates.
    h = steps["hyper"]
    model = load_model(os.path.join(d, "init"), dev)
    decay = [p for _, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for _, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": h["WeightDecay"]}, {"params": no_decay, "weight_decay": 0.0}],
        lr=steps["lrs"][0], betas=(h["Beta1"], h["Beta2"]), eps=h["Eps"], foreach=False)
    torch_losses = []
    for k, lr in enumerate(steps["lrs"]):
        for g in opt.param_groups:
            g["lr"] = lr
        opt.zero_grad(set_to_none=True)
        _, loss = loss_of(model, inputs[k], targets[k], steps.get("dtype", "float32"))
        loss.backward()
        if h["Clip"] > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), h["Clip"])
        opt.step()
        torch_losses.append(loss.item())
    lines.append(f"\n### {len(steps['lrs'])} AdamW steps ({steps.get('dtype', 'float32')})\n")
    lines.append("| step | lr | Go loss | PyTorch loss | rel diff |")
    lines.append("|---|---|---|---|---|")
    worst = 0.0
    for k, (g, t) in enumerate(zip(steps["losses"], torch_losses)):
        r = abs(g - t) / abs(t)
        worst = max(worst, r)
        lines.append(f"| {k} | {steps['lrs'][k]:.3e} | {g:.5f} | {t:.5f} | {r:.2e} |")
    p = worst <= 0.01
    check("AdamW loss curve max rel diff", worst, 0.01, p)
    lines.append(f"\nworst relative difference {worst:.2e} (bound 1e-2): {p}")
    report["torch_losses"] = torch_losses
    report["go_losses"] = steps["losses"]
    report["pass"] = ok
    print("\n".join(lines))
    with open(os.path.join(d, "parity.json"), "w") as f:
        json.dump(report, f, indent=1)
    print("\nPARITY", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
