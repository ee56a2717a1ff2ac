#!/usr/bin/env bash
# gpu-pack.sh: gather the binaries that tools/real-repos/try.sh built and that check their own
# results, for one run on a GPU machine.
#
#   tools/real-repos/gpu-pack.sh OUT_DIR [NAME]...
#
# For each row of $REAL_REPOS_CHECKS (default tools/real-repos/checks.tsv; of the NAMEs given,
# default all) whose binary was built in $REAL_REPOS_DIR/NAME (default /work/real-repos), packs it
# into OUT_DIR/bins.tar.xz (one solid archive: the binaries share the static CUDA runtime, which
# compresses once), and writes OUT_DIR/checks.tsv and OUT_DIR/run.sh (a copy of gpu-run.sh). Rows
# whose binary is missing are listed and left out. A check 'filecheck:PATH' (PATH in the workspace)
# is copied along for filecheck.py. On the GPU machine:
#
#   bash OUT_DIR/run.sh            # runs each binary, prints a pass/fail table, exits 1 on a failure
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 1 ] || { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2; exit 2; }
out=$1
shift
base=${REAL_REPOS_DIR:-/work/real-repos}
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d "${TMPDIR:-/tmp}/gpu-pack.XXXXXX")
trap 'rm -rf "$stage"' EXIT
checks=${REAL_REPOS_CHECKS:-$here/checks.tsv}
: >"$out/checks.tsv"
packed=0 missing=0
while IFS=$'\t' read -r name label args expect; do
  case $name in '' | '#'*) continue ;; esac
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  pkg=${label#//}
  pkg=${pkg%%:*}
  target=${label##*:}
  # try.sh records `bazel info -c opt bazel-bin` after the build; while a build runs (or where it
  # stopped), the -c opt outputs are under bazel-out/k8-opt/bin (bazel-bin may be gazelle's).
  bindir=$(cat "$base/$name/.real-repos/bazel-bin.txt" 2>/dev/null || true)
  [ -d "$bindir" ] || bindir=$base/$name/bazel-out/k8-opt/bin
  bin=$bindir/${pkg:+$pkg/}$target
  if [ ! -f "$bin" ]; then
    echo "gpu-pack: $name $label: not built ($bin), left out"
    missing=$((missing + 1))
    continue
  fi
  file=$name/${pkg//\//_}${pkg:+_}$target
  mkdir -p "$out/$name" "$stage/$name"
  [ -f "$stage/$file" ] || cp "$bin" "$stage/$file"
  case $expect in
    filecheck:*)
      # The repository's own expected output (an LLVM FileCheck file), checked by filecheck.py.
      check=${expect#filecheck:}
      [ -f "$base/$name/$check" ] || { echo "gpu-pack: $name $label: no $check, left out"; missing=$((missing + 1)); continue; }
      cp "$base/$name/$check" "$out/$name/"
      expect=filecheck:$name/$(basename "$check")
      ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "$file" "$args" "$expect" >>"$out/checks.tsv"
  packed=$((packed + 1))
done <"$checks"
(cd "$stage" && tar -cf - --sort=name .) | xz -9e -T1 >"$out/bins.tar.xz"
cp "$here/gpu-run.sh" "$out/run.sh"
cp "$here/filecheck.py" "$out/"
chmod +x "$out/run.sh"
echo "gpu-pack: $packed checks packed, $missing left out; $(du -sh "$out" | cut -f1) in $out"
