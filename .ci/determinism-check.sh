#!/usr/bin/env bash
# Checks that nvcc's outputs do not depend on where or how they are built: clones this repository's
# HEAD twice, at paths of different lengths, and builds every cu_library of //ops/... and //tests/...
# in each with its own output base under Bazel's hermetic Linux sandbox (--config=hermetic_sandbox),
# checkout A with each CUDA source split into per-arch actions (the default), checkout B with one nvcc
# action per source (--cuda_split=false); then every object and archive must be bit-identical, which
# also makes the split's SASS and PTX (cuobjdump -sass, -ptx) those of one nvcc run. Where an object
# differs, the check says whether its SASS and PTX differ too.
#
# Usage: .ci/determinism-check.sh [CUDA_VERSION[:MODE,...]...]
#   default: 13.5:fastbuild,opt local:fastbuild (the pinned default toolkit in both modes, and the
#   machine's own toolkit, which CI installs).
#
# The two checkouts' files get different modification times (a day apart): -c opt and -c dbg put
# device line tables in the objects, into which ptxas writes each source file's modification time,
# so the rules compile those from sources staged at one fixed time (toolchains/private/nvcc_stage.sh).
#
# The clones go under ${XDG_CACHE_HOME:-~/.cache}/rules_cuda_go (not /tmp, which Bazel's hermetic
# sandbox hides) and are removed at the end.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(13.5:fastbuild,opt local:fastbuild)

cache=${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go
mkdir -p "$cache"
work=$(mktemp -d "$cache/determinism.XXXXXX")
a="$work/a"
b="$work/checkout-b/with/a/longer/path"
cleanup() {
  for c in "$a" "$b"; do
    [ -d "$c" ] && (cd "$c" && ./bazelw --output_base="$c.out" shutdown >/dev/null 2>&1 || true)
  done
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$repo" "$a"
git clone -q "$repo" "$b"
# Checked out a day apart: 2001-01-01 and 2001-01-02.
(cd "$a" && git ls-files -z | xargs -0 touch -h -d @978307200)
(cd "$b" && git ls-files -z | xargs -0 touch -h -d @978393600)

# bazel in checkout $1 with its own output base.
bz() {
  local c=$1
  shift
  (cd "$c" && BAZELW_QUIET=1 ./bazelw --output_base="$c.out" "$@")
}

# The cu_library targets (tests/rules holds analysis-test fixtures, some failing on purpose; manual
# targets need a toolkit of their own, e.g. the static cuFFT of tests/libs/cufft). The local toolkit
# may be old (Debian's 11.8: tests/cuda's samples name sm_100 and sm_120) and has the static cuFFT.
query_for() {
  if [ "$1" = local ]; then
    echo 'kind("cu_library rule", //ops/... + //tests/libs/... + //tests/rdc/... + //tests/cuda:rdc_kernels)'
  else
    echo 'kind("cu_library rule", //ops/... + //tests/... - //tests/rules/...) except attr("tags", "manual", //tests/...)'
  fi
}

# The outputs (archive, objects, device-link object) of targets $2 in checkout $1 for flags $3...
outputs() {
  local c=$1 targets=$2
  shift 2
  bz "$c" cquery "$@" --output=files "set($targets)" 2>"$work/cquery.log" | sort || {
    cat "$work/cquery.log"
    return 1
  }
}

failed=0
for spec in "${versions[@]}"; do
  v=${spec%%:*}
  modes=fastbuild
  [ "$spec" = "$v" ] || modes=${spec#*:}
  for mode in ${modes//,/ }; do
    flags=(--config=hermetic_sandbox "--cuda_version=$v" -c "$mode")
    query=$(query_for "$v")
    echo "=== CUDA $v, -c $mode"
    for c in "$a" "$b"; do
      start=$(date +%s)
      split=true
      [ "$c" = "$b" ] && split=false
      targets=$(bz "$c" query "$query" 2>/dev/null | tr '\n' ' ')
      # shellcheck disable=SC2086
      bz "$c" build "${flags[@]}" --cuda_split=$split $targets >"$work/build.log" 2>&1 || {
        tail -30 "$work/build.log"
        echo "determinism-check: the build in $c failed (CUDA $v, -c $mode)"
        exit 1
      }
      # Which sandbox ran the actions: linux-sandbox is the hermetic one; processwrapper-sandbox
      # (where linux-sandbox cannot run, e.g. in a chroot) ignores --experimental_use_hermetic_linux_sandbox.
      echo "  built in $c (--cuda_split=$split): $(($(date +%s) - start)) s; $(grep -o '[0-9]* processes: .*' "$work/build.log" | tail -n1)"
    done
    # The two builds' configurations differ in --cuda_split, so their bazel-out/CONFIG/ directories
    # do: files are paired by the path after it.
    outputs "$a" "$targets" "${flags[@]}" --cuda_split=true >"$work/files"
    outputs "$b" "$targets" "${flags[@]}" --cuda_split=false >"$work/files.b"
    if ! cmp -s <(sed 's#^bazel-out/[^/]*/##' "$work/files") <(sed 's#^bazel-out/[^/]*/##' "$work/files.b"); then
      echo "determinism-check: the two checkouts produced different sets of files:"
      diff <(sed 's#^bazel-out/[^/]*/##' "$work/files") <(sed 's#^bazel-out/[^/]*/##' "$work/files.b") || true
      exit 1
    fi
    cuobjdump=$(find "$a.out/external/" -maxdepth 3 -path "*cuobjdump*/bin/cuobjdump" 2>/dev/null | head -n1)
    n=0
    bad=0
    while IFS=$'\t' read -r f fb; do
      n=$((n + 1))
      fa=$a.out/execroot/_main/$f
      [ -e "$fa" ] || fa=$a/$f
      fb=$b.out/execroot/_main/$fb
      if ! cmp -s "$fa" "$fb"; then
        what="bytes"
        if [ -n "$cuobjdump" ] && [[ $f == *.o ]]; then
          for kind in sass ptx; do
            cmp -s <("$cuobjdump" "-$kind" "$fa" 2>&1) <("$cuobjdump" "-$kind" "$fb" 2>&1) || what="$what, $kind"
          done
        fi
        echo "  DIFFERS ($what): $f"
        bad=$((bad + 1))
      fi
    done < <(paste "$work/files" "$work/files.b")
    if [ "$n" -eq 0 ]; then
      echo "determinism-check: no cu_library outputs found (CUDA $v, -c $mode)"
      exit 1
    fi
    echo "  $n objects and archives, $bad differ"
    [ "$bad" -eq 0 ] || failed=1
  done
done
[ "$failed" -eq 0 ] || { echo "determinism-check: FAILED"; exit 1; }
echo "determinism-check: every object and archive is bit-identical across the two checkouts"
