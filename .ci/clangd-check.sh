#!/usr/bin/env bash
# CI: compile_commands.json from tools/compdb (the real nvcc actions, via bazel aquery, in clang's
# CUDA dialect) lets clangd understand .cu files: `clangd --check` on a .cu file of this repository
# and one of examples/bzlmod_consumer must report no errors.
#
#   .ci/clangd-check.sh            # skips, saying so, where clangd is not installed
#   .ci/clangd-check.sh --install  # CI: installs Debian's clangd first where it is missing (root,
#                                    # through tools/install-debian.sh clangd)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
clangd=${CLANGD:-$(command -v clangd || true)}
if [ -z "$clangd" ] && [ "${1:-}" = --install ]; then
  echo "clangd-check: no clangd on PATH; installing bookworm's: tools/install-debian.sh clangd"
  if [ "$(id -u)" != 0 ]; then echo "clangd-check: error: installing clangd needs root (sudo tools/install-debian.sh clangd)"; exit 1; fi
  tools/install-debian.sh clangd
  clangd=$(command -v clangd) || { echo "clangd-check: error: tools/install-debian.sh clangd ran, but there is still no clangd on PATH"; exit 1; }
fi
if [ -z "$clangd" ]; then
  echo "clangd-check: SKIPPED: no clangd on PATH (sudo tools/install-debian.sh clangd, or set CLANGD=/path/to/clangd)"
  exit 0
fi
"$clangd" --version | head -1

# check WORKSPACE_DIR FILE: clangd --check on FILE with WORKSPACE_DIR/compile_commands.json.
# The whole file is parsed and every diagnostic reported; --check-lines=1 limits only clangd's
# per-token testing of editor features (its refactoring "tweaks" report refusals, e.g. "Cannot
# extract break/continue", as errors, which say nothing about the build setup checked here).
check() {
  local log
  log=$(mktemp)
  if ! (cd "$1" && "$clangd" --check="$2" --check-lines=1 --compile-commands-dir=. >"$log" 2>&1); then
    cat "$log"; echo "clangd-check: clangd --check $1/$2 failed"; exit 1
  fi
  if grep -E '^E\[' "$log" | grep -v 'Failed to find compilation database'; then
    cat "$log"; echo "clangd-check: clangd reported errors on $1/$2"; exit 1
  fi
  grep -q -- '-x cuda' "$log" || { cat "$log"; echo "clangd-check: $2 was not compiled as CUDA (no compile_commands.json entry?)"; exit 1; }
  grep 'All checks completed' "$log"
  rm -f "$log"
}

./bazelw build //ops/examples/square:square_cu
./bazelw run //tools/compdb -- //ops/examples/square/...
check "$root" ops/examples/square/square.cu

(
  cd examples/bzlmod_consumer
  ../../bazelw build //leakyrelu:leakyrelu_cu
  ../../bazelw run @rules_cuda_go//tools/compdb -- //leakyrelu/...
)
check "$root/examples/bzlmod_consumer" leakyrelu/leakyrelu.cu
echo "clangd-check: OK"
