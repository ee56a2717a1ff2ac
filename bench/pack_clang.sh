#!/usr/bin/env bash
# Builds, for a GPU machine, the ops benchmark and the GPU tests twice: CUDA compiled by nvcc and by
# clang (--cuda_compiler, docs/clang.md), -c opt, the same toolkit and archs, and packs them with
# run_clang.sh into OUT (default .gpu/clang, git-ignored), xz-compressed. On the GPU machine, from
# the repository root:   bash .gpu/clang/run_clang.sh .gpu/clang OUTDIR
#
# Usage: bench/pack_clang.sh [OUT]   (from the repository root; CUDA_ARCHS overrides 9.0, the
#   H100/H200's)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.gpu/clang}
archs=${CUDA_ARCHS:-9.0}

# Go test binaries (package:name) and C++ programs whose GPU parts run where a GPU is (they skip
# without one): the kernels of ops/cuda, the example ops, device images loaded at run time,
# relocatable device code (across targets, dynamic parallelism), the sample kernel.
go_tests=(
  //ops/cuda:cuda_test
  //ops/examples/square:square_test
  //ops/examples/tiledmatmul:tiledmatmul_test
  //ops/cuda/cumodule:cumodule_test
  //tests/cuda:cuda_test
  //tests/rdc:rdc_test
)
programs=(
  //tests/rdc:diamond_main
  //tests/rdc:chain_main
  //tests/rdc:habit_main
  //tests/rdc:cdp_main
)

rm -rf "$out"
mkdir -p "$out"
cp bench/run_clang.sh "$out/"
for compiler in nvcc clang; do
  flags=(-c opt --cuda_compiler="$compiler" --cuda_archs="$archs")
  ./bazelw build "${flags[@]}" //bench/cmd/bench "${go_tests[@]}" "${programs[@]}"
  bin=$(./bazelw info "${flags[@]}" bazel-bin 2>/dev/null)
  mkdir -p "$out/$compiler"
  cp "$bin/bench/cmd/bench/bench_/bench" "$out/$compiler/bench"
  for t in "${go_tests[@]}" "${programs[@]}"; do
    pkg=${t%%:*} name=${t##*:}
    pkg=${pkg#//}
    f=$bin/$pkg/${name}_/$name
    [ -f "$f" ] || f=$bin/$pkg/$name
    cp "$f" "$out/$compiler/$(echo "$pkg" | tr / _)_$name"
  done
  chmod -R u+w "$out/$compiler"
  xz -T2 -6 "$out/$compiler"/*
done
du -sh "$out"
echo "pack_clang.sh: $out is ready; on the GPU machine: bash $out/run_clang.sh $out OUTDIR"
