#!/usr/bin/env bash
# Runs one part of an nvcc compile whose device code other actions compiled: the fatbinary step, or
# the host half. cu_library splits each CUDA source into a graph of actions (rules/private/actions.bzl):
# one `nvcc -ptx` per virtual arch, one `nvcc -cubin` per real arch, then this script twice.
#
#   nvcc_split.sh fatbin NVCC FATBIN_C KIND:SM=FILE... -- NVCC_ARGS...
#   nvcc_split.sh host NVCC STUB FATBIN_C -- NVCC_ARGS...
#
# NVCC_ARGS is the whole compile (`-c SRC -o OBJ` with every -gencode flag), as one nvcc action would
# run it. The script asks nvcc for its plan (`nvcc -dryrun`), so that every step runs with the
# options this nvcc gives it, and then:
#   fatbin: runs the plan's fatbinary step with the images the device actions built (KIND:SM=FILE,
#     e.g. elf:90=x.sm_90.cubin, ptx:90=x.compute_90.ptx; KIND and SM as in fatbinary's --image3),
#     writing the embedded fatbinary source (the plan's fatbin.c) to FATBIN_C;
#   host: runs the plan's host steps (the host preprocessor, cudafe++, the host compiler), with the
#     registration stub that cicc wrote for one virtual arch (STUB: `-Xcicc --stub_file_name`) and
#     FATBIN_C placed where the plan's host compile includes them; it skips the device steps
#     (the device preprocessor, cicc, ptxas, fatbinary).
# The object is what the single nvcc action writes: the same device code, the same host code.
set -euo pipefail

die() {
  echo "nvcc_split.sh: $*" >&2
  exit 2
}

[ $# -ge 2 ] || die "usage: nvcc_split.sh fatbin|host NVCC ... -- NVCC_ARGS..."
role=$1 nvcc=$2
shift 2
declare -A images=()
case $role in
  fatbin)
    [ $# -ge 1 ] || die "fatbin: FATBIN_C missing"
    out_fatbin_c=$1
    shift
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
      [[ $1 == *:*=* ]] || die "fatbin: '$1' is not KIND:SM=FILE"
      images[${1%%=*}]=${1#*=}
      shift
    done
    ;;
  host)
    [ $# -ge 2 ] || die "host: STUB and FATBIN_C missing"
    in_stub=$1 in_fatbin_c=$2
    shift 2
    ;;
  *) die "unknown role '$role' (expected fatbin or host)" ;;
esac
[ "${1:-}" = "--" ] || die "$role: expected -- before nvcc's arguments"
shift

plan=$("$nvcc" -dryrun "$@" 2>&1) || {
  printf '%s\n' "$plan" >&2
  die "nvcc -dryrun failed (above)"
}

# The plan: "#$ NAME=VALUE" lines set nvcc's environment (PATH, LD_LIBRARY_PATH, CICC_PATH, ...);
# lines with spaces or quotes after the = (INCLUDES=, LIBRARIES=) only describe flags that the
# commands already carry. Every other "#$ " line is one command, quoted for sh.
steps=()
stub= fatbin_c=
while IFS= read -r line; do
  case $line in
    "#\$ "*) line=${line#"#\$ "} ;;
    *) continue ;;
  esac
  if [[ $line =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then
    [[ $line =~ ^[A-Za-z_][A-Za-z0-9_]*=[^\ \"]*$ ]] && export "${line?}"
    continue
  fi
  eval "words=($line)"
  tool=${words[0]##*/}
  case $tool in
    cicc)
      for ((i = 1; i < ${#words[@]}; i++)); do
        [ "${words[i]}" = "--stub_file_name" ] && stub=${words[i + 1]}
      done
      ;;
    ptxas | nvlink) ;;
    fatbinary)
      for w in "${words[@]}"; do
        [[ $w == --embedded-fatbin=* ]] && fatbin_c=${w#--embedded-fatbin=}
      done
      [ "$role" = fatbin ] && steps+=("$line")
      ;;
    rm) [ "$role" = host ] && steps+=("$line") ;;
    *)
      # The host compiler: device preprocessing (-E with __CUDA_ARCH__ defined) belongs to cicc.
      device=
      if [[ " $line " == *" -E "* ]]; then
        for w in "${words[@]}"; do [[ $w == -D__CUDA_ARCH__=* ]] && device=1; done
      fi
      [ "$role" = host ] && [ -z "$device" ] && steps+=("$line")
      ;;
  esac
done <<<"$plan"
[ -n "$fatbin_c" ] || die "nvcc -dryrun shows no fatbinary step with --embedded-fatbin= (is there a -gencode flag, and -c?)"

if [ "$role" = fatbin ]; then
  [ ${#steps[@]} -eq 1 ] || die "nvcc -dryrun shows ${#steps[@]} fatbinary steps, expected 1"
  eval "words=(${steps[0]})"
  cmd=()
  used=0
  for w in "${words[@]}"; do
    case $w in
      --create=*) cmd+=("--create=$out_fatbin_c.fatbin") ;;
      --embedded-fatbin=*) cmd+=("--embedded-fatbin=$out_fatbin_c") ;;
      --image3=*)
        kind= sm= rest=()
        IFS=, read -r -a parts <<<"${w#--image3=}"
        for p in "${parts[@]}"; do
          case $p in
            kind=*) kind=${p#kind=} ;;
            sm=*) sm=${p#sm=} ;;
            file=*) ;;
            *) rest+=("$p") ;;
          esac
        done
        file=${images[$kind:$sm]:-}
        [ -n "$file" ] || die "fatbin: nvcc's plan has the image kind=$kind,sm=$sm, which no device action built (given: ${!images[*]})"
        spec="kind=$kind,sm=$sm"
        for p in "${rest[@]}"; do spec+=",$p"; done
        cmd+=("--image3=$spec,file=$file")
        used=$((used + 1))
        ;;
      *) cmd+=("$w") ;;
    esac
  done
  [ "$used" -eq ${#images[@]} ] || die "fatbin: nvcc's plan has $used images, the device actions built ${#images[@]} (${!images[*]})"
  "${cmd[@]}"
  rm -f "$out_fatbin_c.fatbin"
  exit 0
fi

[ -n "$stub" ] || die "nvcc -dryrun shows no cicc step with --stub_file_name"
grep -qF "#include \"${fatbin_c##*/}\"" "$in_stub" ||
  die "host: the stub $in_stub does not include \"${fatbin_c##*/}\", the name nvcc's host compile expects (the device action's -Xcicc --include_file_name)"
mkdir -p "$(dirname "$stub")" "$(dirname "$fatbin_c")"
# The stub's line markers name the file cicc wrote: the plan's name instead, as in one nvcc run
# (host debug information records it). sed, not awk: Debian's awk is a link through /etc, which
# Bazel's hermetic sandbox does not show.
from=$(printf '%s' "\"$in_stub\"" | sed 's/[][\\.*^$|]/\\&/g')
to=$(printf '%s' "\"$stub\"" | sed 's/[\\&|]/\\&/g')
sed "s|$from|$to|g" "$in_stub" >"$stub"
cp -f "$in_fatbin_c" "$fatbin_c"
for step in "${steps[@]}"; do
  eval "words=($step)"
  if [ "${words[0]}" = rm ]; then
    rm -f "${words[@]:1}"
  else
    "${words[@]}"
  fi
done
