#!/usr/bin/env bash
# Fetches GPT-2's BPE vocabulary (vocab.json, merges.txt) into DIR from PyPI: the sdist of
# openai-whisper 20230124 (MIT licence) ships them as whisper/assets/gpt2/ (the same files as
# OpenAI's GPT-2 release, encoder.json under the name vocab.json).
#
#   bash models/gpt2/data/vocab.sh DIR
set -euo pipefail
dir=${1:?usage: vocab.sh DIR}
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --no-build-isolation + setuptools/wheel: pip prepares the sdist's metadata before saving it.
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q setuptools wheel
"$tmp/venv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation -d "$tmp" openai-whisper==20230124
tar -xzf "$tmp"/openai-whisper-20230124.tar.gz -C "$tmp" openai-whisper-20230124/whisper/assets/gpt2 openai-whisper-20230124/LICENSE
cp "$tmp"/openai-whisper-20230124/whisper/assets/gpt2/{vocab.json,merges.txt} "$dir"/
cp "$tmp"/openai-whisper-20230124/LICENSE "$dir"/LICENSE.whisper
echo "wrote $dir/vocab.json $dir/merges.txt" >&2
