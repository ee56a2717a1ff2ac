#!/usr/bin/env bash
# run-all.sh: tools/real-repos/try.sh on every repository of tools/real-repos/repos.tsv (or on the
# NAMEs given), at the commit recorded there, with the directives recorded there.
#
#   tools/real-repos/run-all.sh [NAME]...
#
# Empty fields of repos.tsv are written '-' (read splits on runs of tabs).
# Sources come from $REAL_REPOS_MIRRORS/OWNER+NAME/repo (a bare mirror, default /work/.mirror),
# else from a clone in $REAL_REPOS_DIR/.clones (default /work/real-repos/.clones; needs GitHub).
# Each summary is in $REAL_REPOS_DIR/NAME/.real-repos/summary.txt.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mirrors=${REAL_REPOS_MIRRORS:-/work/.mirror}
clones=${REAL_REPOS_DIR:-/work/real-repos}/.clones
status=0
while IFS=$'\t' read -r name repo commit only directives; do
  case $name in '' | '#'*) continue ;; esac
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  src=$mirrors/${repo/\//+}/repo
  if [ ! -d "$src" ]; then
    src=$clones/${repo/\//+}.git
    [ -d "$src" ] || git clone --bare "https://github.com/$repo" "$src"
    git --git-dir="$src" cat-file -e "$commit^{commit}" 2>/dev/null || git --git-dir="$src" fetch origin "$commit"
  fi
  args=(--rev "$commit")
  [ "$only" != - ] || only=
  [ "$directives" != - ] || directives=
  IFS=, read -ra paths <<<"$only"
  for p in "${paths[@]}"; do args+=(--only "$p"); done
  IFS=';' read -ra dirs <<<"$directives"
  "$here/try.sh" "${args[@]}" "$src" "$name" "${dirs[@]}" || status=1
done <"$here/repos.tsv"
exit $status
