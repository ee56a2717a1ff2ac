#!/usr/bin/env bash
# gazelle-fixture-check.sh: the CUDA Gazelle extension on a repository laid out like a collection
# of CUDA samples (examples/gazelle_samples, whose CUDA directories have no BUILD files). On a copy
# of it, it runs `bazel run //:gazelle`, checks that every CUDA directory got a BUILD file, that
# gazelle logged nothing (no unresolved include, no rdc hint) and that a second run changes
# nothing, then builds //... with no hand edits. The committed fixture is never modified.
#
#   tools/gazelle-fixture-check.sh
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
  Samples/0_Basic/vectorScale
  Samples/0_Basic/matrixLayout/inc
  Samples/0_Basic/matrixLayout/src
  Samples/1_Libraries/blasAxpy
  Samples/1_Libraries/fftRoundTrip
  Samples/1_Libraries/randomFill
  Samples/2_Advanced/nestedLaunch
  Samples/2_Advanced/sharedCounter
  Samples/2_Advanced/thrustSort
  Utilities/deviceList
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
if grep '^gazelle: ' "$log"; then
  fail "gazelle logged the lines above; the fixture must need no hand edits"
fi
for p in "${packages[@]}"; do
  [ -f "$p/BUILD.bazel" ] || fail "gazelle wrote no $p/BUILD.bazel"
done
grep -q 'rdc = True' Samples/2_Advanced/nestedLaunch/BUILD.bazel || fail "nestedLaunch: rdc = True not inferred"
grep -q 'rdc = True' Samples/2_Advanced/sharedCounter/BUILD.bazel || fail "sharedCounter: rdc = True not inferred"
grep -q '"@cuda//:cublas"' Samples/1_Libraries/blasAxpy/BUILD.bazel || fail "blasAxpy: no @cuda//:cublas dep"
grep -q '"//Samples/0_Basic/matrixLayout/inc:inc_lib"' Samples/0_Basic/matrixLayout/src/BUILD.bazel || fail "matrixLayout/src: no dep on inc/"

echo "gazelle-fixture-check: a second run changes nothing"
"$bazelw" run //:gazelle -- -mode=diff || fail "the second gazelle run would change the BUILD files (diff above)"

echo "gazelle-fixture-check: bazel build //... (no hand edits)"
"$bazelw" build //...
"$bazelw" shutdown
echo "gazelle-fixture-check: OK"
