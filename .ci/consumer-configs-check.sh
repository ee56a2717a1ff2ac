#!/usr/bin/env bash
# CI: the .bazelrc block that docs/consumers.md gives consumers (between <!-- consumer-bazelrc:begin --> and
# <!-- consumer-bazelrc:end -->) defines every config it documents. Runs Bazel in
# examples/bzlmod_consumer with that block alone as its .bazelrc (--noworkspace_rc; plus this
# checkout's offline overrides) and builds each config: release (//...), debug, cpu (a test), bazel9
# (analysis), and the sanitizer/profiler configs (their tests run through tools/sanitize / tools/profile, which on a
# machine without a GPU say so and run the tests as they are). Also checks that the example's own
# .bazelrc carries the same block, byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# block FILE BEGIN END: the lines strictly between the marker lines, less ``` fence lines.
block() { awk -v b="$2" -v e="$3" 'index($0,e){on=0} on && !/^```/ {print} index($0,b){on=1}' "$1"; }
readme_block=$(block docs/consumers.md '<!-- consumer-bazelrc:begin -->' '<!-- consumer-bazelrc:end -->')
example_block=$(block examples/bzlmod_consumer/.bazelrc '# consumer-bazelrc:begin' '# consumer-bazelrc:end')
[ -n "$example_block" ] || { echo "consumer-configs-check: examples/bzlmod_consumer/.bazelrc has no '# consumer-bazelrc:begin/end' block"; exit 1; }
if [ -z "$readme_block" ]; then
  echo "consumer-configs-check: docs/consumers.md has no <!-- consumer-bazelrc:begin/end --> block"; exit 1
elif [ "$readme_block" != "$example_block" ]; then
  diff <(echo "$readme_block") <(echo "$example_block") || true
  echo "consumer-configs-check: docs/consumers.md's consumer .bazelrc block and examples/bzlmod_consumer/.bazelrc's differ"; exit 1
fi
rc=$(mktemp)
trap 'rm -f "$rc"' EXIT
{
  echo "$readme_block"
  # What only this checkout needs: rules_cuda_go from it, Bazel offline (./bazelw writes it), no
  # lockfile.
  echo "common --override_module=rules_cuda_go=$root"
  echo "common --lockfile_mode=off"
  echo "try-import $root/.bazelrc.offline"
} >"$rc"
cd examples/bzlmod_consumer
bz() { ../../bazelw --noworkspace_rc --bazelrc="$rc" "$@"; }
# The default and --config=cpu builds of //... are the bzlmod_consumer step's (.ci/run), with the
# example's .bazelrc, whose block is this one byte for byte (checked above): release builds //...
# with the block alone.
echo "--- build --config=release //..."
bz build --config=release //...
echo "--- build --config=bazel9 --nobuild //... (Bazel 8 and 9 semantics; CI tests //... this way before)"
bz build --config=bazel9 --nobuild //...
echo "--- build --config=debug //leakyrelu:leakyrelu_cu (device -G; analysis of //...)"
bz build --config=debug //leakyrelu:leakyrelu_cu
bz build --config=debug --nobuild //...
echo "--- test --config=cpu //leakyrelu:all"
bz test --config=cpu //leakyrelu:all
for c in memcheck racecheck synccheck initcheck ncu; do
  echo "--- test --config=$c //leakyrelu:leakyrelu_test"
  log=$(mktemp)
  bz test --config="$c" --test_output=all --nocache_test_results //leakyrelu:leakyrelu_test >"$log" 2>&1 || { cat "$log"; exit 1; }
  # The wrapper ran (--run_under took effect): it names itself in the test's log.
  grep -E '^(sanitize|profile): ' "$log" || { cat "$log"; echo "consumer-configs-check: --config=$c did not run the test under tools/sanitize or tools/profile"; exit 1; }
  rm -f "$log"
done
bz shutdown
echo "consumer-configs-check: OK"
