#!/usr/bin/env bash
# CI: a repository written for bazel-contrib/rules_cuda builds with rules_cuda_go's rules_cuda module
# (examples/rules_cuda_consumer, whose only change is the module override). bzlmod: its analysis
# tests (rules_cuda's flag cases and the messages of what does not map) and its programs, which
# must start and print PASS or SKIP (no GPU); --@rules_cuda//cuda:enable=False builds the if_cuda
# program without CUDA. WORKSPACE mode (rules_cuda_dependencies(), rules_cuda_toolchains()): the
# analysis tests and one program. The pinned toolkit comes from the repository cache that earlier
# steps filled.
set -euo pipefail
cd "$(dirname "$0")/../examples/rules_cuda_consumer"
fail() { echo "rules-cuda-check: $*"; exit 1; }
bz() { ../../bazelw "$@"; }

bz test //...
for p in basic/main macros/main cublas/main if_cuda/main rdc/main_from_objects rdc/main_from_library thrust/main; do
  out=$(bazel-bin/$p 2>&1) || fail "$p exited $?: $out"
  echo "$p: $out"
  grep -qE '(PASS|SKIP)' <<<"$out" || fail "$p printed neither PASS nor SKIP"
done
out=$(bz run --@rules_cuda//cuda:enable=False //if_cuda:main 2>/dev/null)
[ "$out" = "cuda disabled" ] || fail "//if_cuda:main with --@rules_cuda//cuda:enable=False printed '$out', want 'cuda disabled'"

bz test --config=workspace //tests:all
bz build --config=workspace //basic:main
bz shutdown
