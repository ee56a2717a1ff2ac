#!/usr/bin/env bash
# pack.sh: gathers test binaries with their runfiles for one run on a GPU machine (the device
# machine has no Go and no Bazel): each test's executable and its runfiles tree, dereferenced, in
# one solid xz archive, plus run.sh.
#
#   .ci/gpu-tests/pack.sh OUT_DIR [BAZEL_FLAG...] [-- TARGET_PATTERN...]
#
# BAZEL_FLAGs select the build (e.g. -c opt); the default targets are the tests of //tests:all that
# run CUDA code. The tests are built first. The CUDA shared libraries (libcublas*, libnvrtc*, ...)
# stay behind: run.sh takes them from the GPU machine (PyTorch's NVIDIA wheels or
# /usr/local/cuda/lib64), as tools/real-repos/gpu-run.sh does. On the GPU machine:
#
#   bash OUT_DIR/run.sh [FILTER]   # runs each test, prints a table (passed, skipped, failed tests)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2; exit 2; }
out=$1
shift
flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  flags+=("$1")
  shift
done
[ "${1:-}" != "--" ] || shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(//ops/cuda:cuda_test //ops/cuda/cumodule:cumodule_test //ops/cuda/jit:jit_test
    //ops/cuda/jit/jitload:jitload_test //ops/cuda/nccl:nccl_test //ops/examples/dataparallel:dataparallel_test
    //ops/examples/jitsilu:jitsilu_test //ops/examples/jitsilu/gpu:gpu_test //ops/examples/square:square_test
    //ops/examples/tiledmatmul:tiledmatmul_test //ops/fuse/fusecuda:fusecuda_test //tests/cuda:cuda_test
    //tests/cuda:rdc_opt_test //tests/hostcpp:hostcpp_test //tests/libs:libs_test
    //tests/rdc:cdp_test //tests/rdc:chain_opt_test //tests/rdc:diamond_test //tests/rdc:habit_test
    //tests/rdc:rdc_test //models/gpt2/nn:nn_test)
fi
bz() { (cd "$root" && ./bazelw "$@"); }
bz build "${flags[@]}" "${targets[@]}"
stage=$(mktemp -d "${TMPDIR:-/tmp}/gpu-tests.XXXXXX")
trap 'rm -rf "$stage"' EXIT
rm -rf "$out"
mkdir -p "$out"
: >"$out/tests.tsv"
for t in "${targets[@]}"; do
  exe=$(bz cquery "${flags[@]}" --output=files "$t" 2>/dev/null | head -n1)
  [ -n "$exe" ] && [ -f "$root/$exe" ] || { echo "pack.sh: $t has no executable ($exe)" >&2; exit 1; }
  name=$(echo "${t#//}" | tr '/:' '__')
  mkdir -p "$stage/$name/runfiles"
  # The test runs from its runfiles tree, which holds the executable too (bazel-out/CONFIG/bin/PATH
  # is _main/PATH there); one without a runfiles tree gets one with just the executable.
  rel=_main/${exe#bazel-out/*/bin/}
  if [ -d "$root/$exe.runfiles" ]; then
    # Dereferenced; the CUDA libraries come from the GPU machine.
    (cd "$root/$exe.runfiles" && tar -chf - --hard-dereference --exclude='libcublas*' --exclude='libnvrtc*' \
      --exclude='libnccl*' --exclude='libcufft*' --exclude='libcusparse*' --exclude='libcusolver*' \
      --exclude='libcurand*' --exclude='libnvJitLink*' --exclude='libnvjitlink*' .) | tar -xf - -C "$stage/$name/runfiles"
  fi
  if [ ! -f "$stage/$name/runfiles/$rel" ]; then
    mkdir -p "$(dirname "$stage/$name/runfiles/$rel")"
    cp -L "$root/$exe" "$stage/$name/runfiles/$rel"
  fi
  pkg=${t#//}
  printf '%s\t%s\t%s\t%s\n' "$name" "$t" "${pkg%%:*}" "$rel" >>"$out/tests.tsv"
done
# One solid stream with a window larger than a test binary: the tests share the Go runtime and the
# static CUDA runtime, which then compress once.
(cd "$stage" && tar -cf - --sort=name .) | xz -T1 --lzma2=preset=3,dict=256MiB >"$out/tests.tar.xz"
cp "$here/run.sh" "$out/run.sh"
echo "pack.sh: $(wc -l <"$out/tests.tsv") tests in $out ($(du -h "$out/tests.tar.xz" | cut -f1))"
