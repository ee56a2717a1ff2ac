#!/usr/bin/env bash
# CI: rules_cuda_go from a Bazel registry, as users get a release. `bazel run //tools/release`
# writes the source archive of HEAD and its registry entry (MODULE.bazel, source.json with the
# archive's integrity, presubmit.yml) into a file:// registry; examples/bzlmod_consumer is then built
# and tested with rules_cuda_go from that registry: Bazel runs there with the consumer .bazelrc block
# of docs/consumers.md, this checkout's offline overrides and --registry, and without the example's
# .bazelrc, whose --override_module points at this checkout. `bazel mod show_repo` must show the
# archive, fetched and checked against source.json's integrity.
#
#   .ci/registry-check.sh
#
# The registry lives at $RELEASE_CHECK_DIR (default ~/.cache/rules_cuda_go/release-check), replaced
# on every run; the release is at MODULE.bazel's version, the one the example depends on.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${RELEASE_CHECK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/release-check}
fail() {
  echo "registry-check: FAIL: $*" >&2
  exit 1
}
version=$(awk -F'"' '/^    version = "/ {print $2; exit}' "$root/MODULE.bazel")
[ -n "$version" ] || fail "no version in MODULE.bazel's module()"
grep -q "bazel_dep(name = \"rules_cuda_go\", version = \"$version\")" "$root/examples/bzlmod_consumer/MODULE.bazel" ||
  fail "examples/bzlmod_consumer/MODULE.bazel does not depend on rules_cuda_go $version"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "registry-check: the release archives HEAD; uncommitted changes are not in it"
fi

rm -rf "$dir"
mkdir -p "$dir"
archive=$dir/rules_cuda_go-$version.tar.gz
(cd "$root" && ./bazelw run //tools/release -- -out "$dir" -url "file://$archive" "$version")
entry=$dir/registry/modules/rules_cuda_go/$version
for f in MODULE.bazel source.json presubmit.yml; do
  [ -s "$entry/$f" ] || fail "the release wrote no $entry/$f"
done

block() { awk -v b="$2" -v e="$3" 'index($0,e){on=0} on && !/^```/ {print} index($0,b){on=1}' "$1"; }
rc=$dir/bazelrc
{
  block "$root/docs/consumers.md" '<!-- consumer-bazelrc:begin -->' '<!-- consumer-bazelrc:end -->'
  echo "common --lockfile_mode=off"
  echo "try-import $root/.bazelrc.offline"
  echo "common --registry=file://$dir/registry"
  echo "common --registry=https://bcr.bazel.build/"
} >"$rc"
cd "$root/examples/bzlmod_consumer"
bz() { ../../bazelw --noworkspace_rc --bazelrc="$rc" "$@"; }
# A server of an earlier run keeps its module resolution, and the registry's files changed since.
bz shutdown
trap 'bz shutdown' EXIT
repo=$(bz mod show_repo rules_cuda_go 2>/dev/null) || fail "bazel mod show_repo rules_cuda_go failed"
# (Bazel writes the URL as file:/PATH.)
grep -q "http_archive" <<<"$repo" && grep -q "file:/*$archive\"" <<<"$repo" || {
  echo "$repo"
  fail "rules_cuda_go does not come from the registry's archive"
}
integrity=$(awk -F'"' '/"integrity"/ {print $4}' "$entry/source.json")
grep -q -- "$integrity" <<<"$repo" || fail "rules_cuda_go's repository does not carry source.json's integrity $integrity"
bz test //...
echo "registry-check: OK (rules_cuda_go $version from file://$dir/registry)"
