#!/usr/bin/env bash
# gazelle-fixture-check.sh: the CUDA Gazelle extension on a repository laid out like a collection
# of CUDA samples (examples/gazelle_samples, whose CUDA directories have no BUILD files). On a copy
# of it, it runs `bazel run //:gazelle`, checks that every CUDA directory got a BUILD file, that
# gazelle logged only the Windows helper it leaves out (no unresolved include, no rdc hint), that
# every program got a binary and that a second run changes nothing, then builds //... with no hand
# edits, checks that each binary links only the CUDA libraries its program uses, and builds //...
# with --config=cpu (binaries are skipped there). The committed fixture is never modified.
#
#   .ci/gazelle-fixture-check.sh
#
# The copy lives at a fixed path ($GAZELLE_FIXTURE_DIR, default
# ~/.cache/rules_cuda_go/gazelle-fixture/ws) so that its Bazel output base stays warm between
# runs; it is replaced on every run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fixture=$root/examples/gazelle_samples
ws=${GAZELLE_FIXTURE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/gazelle-fixture/ws}
bazelw=$root/bazelw
fail() {
  echo "gazelle-fixture-check: FAIL: $*" >&2
  exit 1
}

# The directories that must get a BUILD file, and the targets that must exist afterwards.
packages=(
  Common
  Samples/0_Basic/deviceQueryDrv
  Samples/0_Basic/hostLaunch
  Samples/0_Basic/vectorScale
  Samples/0_Basic/matrixLayout/inc
  Samples/0_Basic/matrixLayout/src
  Samples/1_Libraries/blasAxpy
  Samples/1_Libraries/fftRoundTrip
  Samples/1_Libraries/randomFill
  Samples/1_Libraries/randomHost
  Samples/2_Advanced/nestedLaunch
  Samples/2_Advanced/sharedCounter
  Samples/2_Advanced/thrustSort
  Samples/3_Playground/kernelVariants
  "Samples/4_Course/01 CUDA Basics"
  Samples/5_Benchmarks/reduceBench
  Utilities/deviceList
)

# Every program (a source defining main()) and the binary that builds it: one per directory is
# named <dir>_bin, several in a directory are named after their sources.
binaries=(
  Samples/0_Basic/deviceQueryDrv:deviceQueryDrv_bin
  Samples/0_Basic/hostLaunch:hostLaunch_bin
  Samples/0_Basic/matrixLayout/src:src_bin
  Samples/0_Basic/vectorScale:vectorScale_bin
  Samples/1_Libraries/blasAxpy:blasAxpy_bin
  Samples/1_Libraries/fftRoundTrip:fftRoundTrip_bin
  Samples/1_Libraries/randomFill:randomFill_bin
  Samples/1_Libraries/randomHost:normal_example
  Samples/1_Libraries/randomHost:uniform_example
  Samples/2_Advanced/nestedLaunch:nestedLaunch_bin
  Samples/2_Advanced/sharedCounter:sharedCounter_bin
  Samples/2_Advanced/thrustSort:thrustSort_bin
  Samples/3_Playground/kernelVariants:matmul_cublas
  Samples/3_Playground/kernelVariants:relu_forward
  Samples/3_Playground/kernelVariants:scale_backward
  "Samples/4_Course/01 CUDA Basics:01 CUDA Basics_bin"
  Samples/5_Benchmarks/reduceBench:max_bench
  Samples/5_Benchmarks/reduceBench:sum_bench
  Utilities/deviceList:deviceList_bin
)

# The lines gazelle must log, and no others: the Direct3D helper of Common/ is compiled by no
# rule, and its header's include of d3d11.h resolves to nothing.
expected_logs=(
  'gazelle: .*/Common/BUILD.bazel: render_d3d.cpp is compiled by no rule: it includes <d3d11.h> (in Common/render_d3d.h), which neither the repository, the CUDA toolkit nor the system provides'
  'gazelle: Common/render_d3d.h: includes left out of deps: <d3d11.h> (not found in the repository, the CUDA toolkit or the system headers); add them by hand (with # keep) or with # gazelle:resolve cuda HEADER LABEL'
)

committed=$(cd "$fixture" && find . -mindepth 2 \( -name BUILD -o -name BUILD.bazel \) -not -path './bazel-*' | sort)
[ -z "$committed" ] || fail "the fixture must have no BUILD files below its root, found: $committed"

echo "gazelle-fixture-check: copying $fixture to $ws"
rm -rf "$ws"
mkdir -p "$ws"
(cd "$fixture" && tar --exclude='./bazel-*' -cf - .) | (cd "$ws" && tar -xf -)
# The copy uses this checkout's rules and the offline overrides ./bazelw writes next to it.
sed -i "s|path = \"../..\"|path = \"$root\"|" "$ws/MODULE.bazel"
grep -q "path = \"$root\"" "$ws/MODULE.bazel" || fail "could not point MODULE.bazel's local_path_override at $root"
echo "try-import $root/.bazelrc.offline" >"$ws/.bazelrc.user"
cd "$ws"

echo "gazelle-fixture-check: bazel run //:gazelle"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$bazelw" run //:gazelle 2>&1 | tee "$log"
unexpected=$(grep '^gazelle: ' "$log" || true)
for e in "${expected_logs[@]}"; do
  grep -q "^$e\$" "$log" || fail "gazelle did not log: $e"
  unexpected=$(grep -v "^$e\$" <<<"$unexpected" || true)
done
[ -z "$unexpected" ] || fail "gazelle logged these lines as well; the fixture must need no hand edits: $unexpected"
for p in "${packages[@]}"; do
  [ -f "$p/BUILD.bazel" ] || fail "gazelle wrote no $p/BUILD.bazel"
done
for b in "${binaries[@]}"; do
  grep -q "^    name = \"${b#*:}\",\$" "${b%:*}/BUILD.bazel" || fail "${b%:*}: no rule ${b#*:}"
done
grep -q 'rdc = True' Samples/2_Advanced/nestedLaunch/BUILD.bazel || fail "nestedLaunch: rdc = True not inferred"
grep -q 'rdc = True' Samples/2_Advanced/sharedCounter/BUILD.bazel || fail "sharedCounter: rdc = True not inferred"
grep -q '"//Common:helper_blas"' Samples/1_Libraries/blasAxpy/BUILD.bazel || fail "blasAxpy: no dep on Common:helper_blas"
grep -q '"//Samples/0_Basic/matrixLayout/inc"' Samples/0_Basic/matrixLayout/src/BUILD.bazel || fail "matrixLayout/src: no dep on inc/"
grep -q 'render_d3d.cpp' Common/BUILD.bazel && fail "Common: render_d3d.cpp is in a rule"
grep -q 'host_srcs_as_cuda = True' Samples/0_Basic/hostLaunch/BUILD.bazel || fail "hostLaunch: host_srcs_as_cuda = True not inferred (main.cpp launches a kernel)"
grep -q '"@cuda//:cuda_driver_lazy"' Samples/0_Basic/deviceQueryDrv/BUILD.bazel || fail "deviceQueryDrv: no dep on @cuda//:cuda_driver_lazy (it calls the driver API)"
# reduceBench: one program per file that defines the engine common.cu's main() reads, none for
# the directory's library; the root's cuda_define and cuda_copts reach its rules.
bench=Samples/5_Benchmarks/reduceBench/BUILD.bazel
grep -q 'name = "reduceBench_bin"' "$bench" && fail "reduceBench: a binary for the directory's library (it would link no engine)"
grep -q 'alwayslink = True' "$bench" || fail "reduceBench: the programs' libraries are not linked whole (alwayslink = True)"
grep -q '"GS_OS_LINUX"' "$bench" || fail "reduceBench: no local_defines from # gazelle:cuda_define"
grep -q '"--use_fast_math"' "$bench" || fail "reduceBench: no copts from # gazelle:cuda_copts"

echo "gazelle-fixture-check: a second run changes nothing"
"$bazelw" run //:gazelle -- -mode=diff || fail "the second gazelle run would change the BUILD files (diff above)"

echo "gazelle-fixture-check: bazel build //... (no hand edits)"
"$bazelw" build //...
# Common/ is a header collection: a program links the libraries of the headers it includes only
# (helper_blas.h's cuBLAS: blasAxpy and matmul_cublas, not their neighbours).
# A library by its soname's stem: libcuda.so.1, not libcudart.so.13 (cuRAND 13.5 NEEDs the latter).
needs() { readelf -d "bazel-bin/${1%:*}/${1#*:}" | grep -q "NEEDED.*\[$2\.so"; }
for b in "${binaries[@]}"; do
  [ -x "bazel-bin/${b%:*}/${b#*:}" ] || fail "//$b was not built"
done
needs Samples/1_Libraries/blasAxpy:blasAxpy_bin libcublas || fail "blasAxpy_bin does not link cuBLAS"
needs Samples/3_Playground/kernelVariants:matmul_cublas libcublas || fail "matmul_cublas does not link cuBLAS"
for b in Samples/0_Basic/vectorScale:vectorScale_bin Samples/3_Playground/kernelVariants:relu_forward Samples/1_Libraries/randomHost:uniform_example; do
  needs "$b" libcublas && fail "$b links cuBLAS, which it does not use"
done
# Every binary starts without a driver: the driver-API program too (cuda_driver_lazy NEEDs no
# libcuda.so.1). Where there is no GPU, the four that run here say so and exit with 1 (each
# benchmark names the engine it linked).
for b in "${binaries[@]}"; do
  needs "$b" libcuda && fail "//$b NEEDs libcuda.so.1; it must start without a driver"
done
if ! nvidia-smi -L >/dev/null 2>&1; then
  for run in "Samples/0_Basic/deviceQueryDrv:deviceQueryDrv_bin:deviceQueryDrv: cuInit (is an NVIDIA driver installed?)" \
    "Samples/0_Basic/hostLaunch:hostLaunch_bin:hostLaunch: no usable CUDA device" \
    "Samples/5_Benchmarks/reduceBench:sum_bench:sum: no usable CUDA device" \
    "Samples/5_Benchmarks/reduceBench:max_bench:max: no usable CUDA device"; do
    bin=${run%%:*}/$(cut -d: -f2 <<<"$run")
    want=$(cut -d: -f3- <<<"$run")
    rc=0
    out=$("bazel-bin/$bin" 2>&1) || rc=$?
    [ "$rc" = 1 ] && grep -qF "$want" <<<"$out" || fail "$bin without a GPU: exit $rc, output: $out (want exit 1 and: $want)"
    echo "gazelle-fixture-check: $bin without a GPU: $out"
  done
fi

echo "gazelle-fixture-check: bazel build --config=cpu //... (the binaries are skipped)"
"$bazelw" build --config=cpu //...
"$bazelw" shutdown
echo "gazelle-fixture-check: OK"
