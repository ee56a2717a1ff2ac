#!/usr/bin/env bash
# GPT-2 on the GPU machine (issue 44, items 8 and 9): the PyTorch parity check, a training run on
# the KJV corpus, samples. Needs an NVIDIA GPU, python3 with torch, transformers, safetensors, numpy;
# no Go, no Bazel, no network.
#
#   bash models/gpt2/parity/run_gpu.sh BUNDLE OUT [all|parity|train] [TRAIN_MINUTES]
#
# BUNDLE is the folder models/gpt2/parity/bundle.sh wrote (gpt2.xz: the command built with -c opt,
# data/: the KJV shards, vocab/: GPT-2's vocabulary, each xz'd). Writes into OUT:
#   env.txt                  GPU, driver, torch and transformers versions
#   parity.md parity.json    item 8: the tables (PARITY PASS / FAIL on the last line of parity.md)
#   parity_go.log            the Go side's output
#   train.log log.jsonl loss.png   item 9: the progress lines, the per-step log, the loss curve
#   hf_check.txt             the trained checkpoint read back by transformers: its val loss beside Go's
#   samples.txt              samples from the trained checkpoint (batch 1 and batch 3)
# `all` (the default) runs parity and then trains for TRAIN_MINUTES (default 5); `train` trains
# only, resuming the run of an earlier call on the same machine (WORK/run/latest) when there is one.
# WORK (default BUNDLE/../gpt2-work) keeps the unpacked files and the run between calls.
# DEVICE=cpu and PARITY_FLAGS, TRAIN_FLAGS, SAMPLE_FLAGS (appended: later flags win) make a small
# dry run on a machine without a GPU, e.g. TRAIN_FLAGS="-batch 1 -seq 16 -max-time 10s".
set -euo pipefail
bundle=$(cd "${1:?usage: run_gpu.sh BUNDLE OUT [all|parity|train] [MINUTES]}" && pwd)
out=${2:?usage: run_gpu.sh BUNDLE OUT [all|parity|train] [MINUTES]}
mode=${3:-all}
minutes=${4:-5}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${WORK:-$bundle/../gpt2-work}
python=${PYTHON:-python3}
device=${DEVICE:-cuda}
read -r -a parity_flags <<< "${PARITY_FLAGS:-}"
read -r -a train_flags <<< "${TRAIN_FLAGS:-}"
read -r -a sample_flags <<< "${SAMPLE_FLAGS:-}"
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd)
work=$(cd "$work" && pwd)

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 || true
  "$python" -c 'import torch, transformers; print("torch", torch.__version__, "cuda", torch.version.cuda, "transformers", transformers.__version__)' 2>&1 || true
} | tee "$out/env.txt"

# Unpack once.
if [[ ! -x $work/gpt2 ]]; then
  xz -dc "$bundle/gpt2.xz" > "$work/gpt2"
  chmod +x "$work/gpt2"
  for f in "$bundle"/data/*.xz "$bundle"/vocab/*.xz; do
    d=$work/$(basename "$(dirname "$f")")
    mkdir -p "$d"
    xz -dc "$f" > "$d/$(basename "${f%.xz}")"
  done
fi
gpt2=$work/gpt2
# cuBLASLt: the machine's, else PyTorch's wheel.
if [[ -z ${RULES_CUDA_GO_CUBLASLT:-} ]]; then
  lt=$("$python" -c 'import glob, os, nvidia; print((glob.glob(os.path.join(list(nvidia.__path__)[0], "*", "lib", "libcublasLt.so.13")) + [""])[0])' 2>/dev/null || true)
  [[ -n $lt ]] && export RULES_CUDA_GO_CUBLASLT=$lt
fi

if [[ $mode == all || $mode == parity ]]; then
  echo "== parity (item 8): Go side"
  start=$SECONDS
  "$gpt2" parity -out "$work/parity" -device "$device" -data "$work/data" -batch 4 -seq 256 -steps 20 "${parity_flags[@]}" 2>&1 | tee "$out/parity_go.log" &&
    { echo "== parity: PyTorch side"; "$python" "$here/parity.py" "$work/parity" --device "$device" | tee "$out/parity.md"; } ||
    echo "== parity FAILED (see above); going on with training"
  cp "$work/parity/parity.json" "$out/" 2>/dev/null || true
  echo "   parity took $((SECONDS - start)) s"
fi

if [[ $mode == all || $mode == train ]]; then
  echo "== training (item 9): $minutes minutes"
  resume=()
  [[ -d $work/run/latest ]] && resume=(-resume "$work/run/latest")
  "$gpt2" train -data "$work/data" -vocab "$work/vocab" -out "$work/run" -device "$device" -dtype bfloat16 \
    -batch 8 -seq 1024 -accum 1 -steps 3000 -warmup 100 -lr 6e-4 \
    -eval-every 25 -eval-batches 6 -save-every 0 -max-time "${minutes}m" "${resume[@]}" "${train_flags[@]}" 2>&1 | tee -a "$out/train.log" ||
    echo "== training FAILED (see above)"
  cp "$work/run/log.jsonl" "$work/run/loss.png" "$out/" 2>/dev/null || true
  echo "== samples"
  {
    "$gpt2" sample -ckpt "$work/run/latest" -vocab "$work/vocab" -device "$device" -prompt "And God said" -n 120 -seed 1 "${sample_flags[@]}"
    "$gpt2" sample -ckpt "$work/run/latest" -vocab "$work/vocab" -device "$device" -prompt "In the beginning" -batch 3 -n 80 -seed 2 "${sample_flags[@]}"
  } 2>&1 | tee "$out/samples.txt"
  echo "== the checkpoint in transformers"
  hf_b=${HF_BATCH:-4} hf_t=${HF_SEQ:-1024}
  {
    "$gpt2" eval -ckpt "$work/run/latest" -data "$work/data" -device "$device" -dtype float32 -batch "$hf_b" -seq "$hf_t" -batches 4
    "$python" - "$work/run/latest" "$work/data/val_000.bin" "$device" "$hf_b" "$hf_t" <<'PY'
import sys, numpy as np, torch, torch.nn.functional as F
from transformers import GPT2LMHeadModel
dev = sys.argv[3]
m = GPT2LMHeadModel.from_pretrained(sys.argv[1]).float().to(dev).eval()
raw = np.fromfile(sys.argv[2], dtype=np.int32, count=256)
assert raw[0] == 20240520 and raw[1] == 1, raw[:3]
toks = np.fromfile(sys.argv[2], dtype=np.uint16, offset=1024).astype(np.int64)
B, T, losses = int(sys.argv[4]), int(sys.argv[5]), []
with torch.no_grad():
    for k in range(4):
        x = torch.from_numpy(toks[k*B*T:(k+1)*B*T+1]).to(dev)
        logits = m(x[:-1].view(B, T)).logits
        losses.append(F.cross_entropy(logits.view(-1, logits.size(-1)), x[1:].view(-1)).item())
print(f"transformers val loss {np.mean(losses):.4f} over 4 batches of {B} x {T} tokens")
PY
  } 2>&1 | tee "$out/hf_check.txt"
fi
