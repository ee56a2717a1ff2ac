#!/usr/bin/env bash
# Builds what run_gpu.sh needs on the GPU machine, into BUNDLE (default .gpu/gpt2, git-ignored):
#   gpt2.xz                the command, ./bazelw build -c opt --cuda_archs=ARCHS (default 9.0: H100/H200)
#   data/{train,val}_000.bin.xz   the KJV corpus tokenized with GPT-2's BPE (kjv.sh, vocab.sh, gpt2 prepare)
#   vocab/{vocab.json,merges.txt}.xz
# Run from the repository root on the development machine (Bazel, network to PyPI and Debian):
#
#   bash models/gpt2/parity/bundle.sh [BUNDLE] [ARCHS]
set -euo pipefail
bundle=${1:-.gpu/gpt2}
archs=${2:-9.0}
mkdir -p "$bundle/data" "$bundle/vocab"
./bazelw build -c opt --cuda_archs="$archs" //models/gpt2/cmd/gpt2
bin=$(./bazelw cquery -c opt --cuda_archs="$archs" --output=files //models/gpt2/cmd/gpt2 2> /dev/null)
xz -T2 -6 -c "$bin" > "$bundle/gpt2.xz"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash models/gpt2/data/vocab.sh "$tmp/vocab"
bash models/gpt2/data/kjv.sh "$tmp/kjv.txt"
"$bin" prepare -text "$tmp/kjv.txt" -vocab "$tmp/vocab" -out "$tmp/data"
for f in "$tmp"/data/*.bin; do xz -T2 -9 -c "$f" > "$bundle/data/$(basename "$f").xz"; done
for f in vocab.json merges.txt; do xz -T2 -9 -c "$tmp/vocab/$f" > "$bundle/vocab/$f.xz"; done
du -sh "$bundle"
