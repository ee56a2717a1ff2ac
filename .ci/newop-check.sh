#!/usr/bin/env bash
# CI: the op scaffolder (tools/newop) writes a package that builds and passes its tests as written,
# in this repository and in a consumer (examples/bzlmod_consumer), with CUDA and with --config=cpu
# (its CPU stub keeps the package and its tests there); it refuses to overwrite and rejects bad
# names; gazelle leaves the BUILD file it wrote as it is. Generates into temporary directories
# inside the workspaces (removed at exit).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=newop_ci_tmp
cleanup() { rm -rf "$root/${tmp:?}" "$root/examples/bzlmod_consumer/${tmp:?}"; }
trap cleanup EXIT
cleanup

echo "--- this repository: //$tmp/scaffoldcheck"
./bazelw run //tools/newop -- --name ScaffoldCheck --dir "$tmp/scaffoldcheck"
if ./bazelw run //tools/newop -- --name ScaffoldCheck --dir "$tmp/scaffoldcheck" --gazelle=false 2>"$root/$tmp.err"; then
  echo "newop-check: a second run overwrote $tmp/scaffoldcheck instead of refusing"; exit 1
fi
grep -q 'refusing to overwrite' "$root/$tmp.err" || { cat "$root/$tmp.err"; echo "newop-check: no refusal message"; exit 1; }
if ./bazelw run //tools/newop -- --name bad_name --dir "$tmp/bad" 2>"$root/$tmp.err"; then
  echo "newop-check: --name bad_name was accepted"; exit 1
fi
grep -q -- '--name "bad_name"' "$root/$tmp.err" || { cat "$root/$tmp.err"; exit 1; }
rm -f "$root/$tmp.err"
./bazelw test "//$tmp/..."
# Named, not through a wildcard: an incompatible (skipped) test is an error here, not a pass.
./bazelw test --config=cpu "//$tmp/scaffoldcheck:scaffoldcheck_test"
./bazelw run //:gazelle -- -mode=diff "$tmp"

echo "--- examples/bzlmod_consumer: //$tmp/scaffoldcheck"
(
  cd examples/bzlmod_consumer
  ../../bazelw run @rules_cuda_go//tools/newop -- --name ScaffoldCheck --dir "$tmp/scaffoldcheck"
  ../../bazelw test "//$tmp/..."
  ../../bazelw test --config=cpu "//$tmp/scaffoldcheck:scaffoldcheck_test"
  ../../bazelw run //:gazelle -- -mode=diff "$tmp"
)
echo "newop-check: OK"
