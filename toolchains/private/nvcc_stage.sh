#!/usr/bin/env bash
# Runs nvcc on a staged copy of its sources, so that device line tables do not depend on when the
# sources were checked out.
#
# With line info (-lineinfo, -G), ptxas writes the modification time of every source file it finds
# under the names in the PTX's .file directives into the object's line tables; no nvcc or ptxas
# option turns that off, and explicit times on .file are ignored. cicc names the files
# /proc/self/cwd/PATH (PWD=/proc/self/cwd), so this script makes the working directory a stage
# that mirrors the action's: the listed sources and headers are copies with one fixed
# modification time, everything else is a symbolic link to the original. The names in the line
# tables, the include paths and the output path stay what they would be without the stage.
#
# Usage: nvcc_stage.sh NVCC LIST OUTPUT NVCC_ARGS...
#   LIST: one entry per line: "output PATH" (another file nvcc writes, moved like OUTPUT), "copy PATH"
#   (a source or header to stage) and "sources PTX" (stage every file that PTX's .file directives name under the action's
#   directory: what ptxas reads the times of when it compiles PTX that cicc wrote elsewhere).
#   OUTPUT: the file nvcc writes (-o), moved out of the stage when its directory is staged too.
set -euo pipefail

# 2000-01-01T00:00:00Z.
readonly FIXED_TIME=@946684800

nvcc=$1 list=$2 out=$3
shift 3
root=$(pwd -P)
stage="$out.stage"
rm -rf "$stage"
mkdir -p "$stage"
trap 'rm -rf "$root/$stage"' EXIT

copy=()
outputs=("$out")
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    "output "*) outputs+=("${line#output }") ;;
    "sources "*)
      while IFS= read -r f; do
        [ -e "$f" ] && copy+=("$f")
      done < <(sed -n 's|^[[:space:]]*\.file[[:space:]]\{1,\}[0-9]\{1,\}[[:space:]]\{1,\}"/proc/self/cwd/\([^"]*\)".*|\1|p' "${line#sources }")
      ;;
    "copy "*) copy+=("${line#copy }") ;;
    "") ;;
    *)
      echo "nvcc_stage.sh: $list: unexpected line '$line' (expected 'output PATH', 'copy PATH' or 'sources PTX')" >&2
      exit 2
      ;;
  esac
done <"$list"

if [ ${#copy[@]} -gt 0 ]; then
  # -R: a header may be a directory (a tree artifact).
  cp --parents -L -R -t "$stage" -- "${copy[@]}"
  find "$stage" -type f -print0 | xargs -0 -r touch -d "$FIXED_TIME" --
fi

# Every directory the copies created gets links to the rest of the original's entries.
shopt -s nullglob dotglob
while IFS= read -r -d '' dir; do
  rel=${dir#"$stage"}
  rel=${rel#/}
  links=()
  for entry in "$root/${rel:+$rel/}"*; do
    name=${entry##*/}
    [ -e "$dir/$name" ] || [ -L "$dir/$name" ] || links+=("$entry")
  done
  [ ${#links[@]} -eq 0 ] || ln -s -t "$dir" -- "${links[@]}"
done < <(find "$stage" -type d -print0)

rc=0
(cd "$stage" && PWD=/proc/self/cwd && export PWD && exec "$nvcc" "$@") || rc=$?
if [ "$rc" -eq 0 ]; then
  for o in "${outputs[@]}"; do
    if [ -e "$stage/$o" ] && ! [ "$stage/$o" -ef "$root/$o" ]; then
      mv -f "$stage/$o" "$root/$o"
    fi
  done
fi
exit "$rc"
