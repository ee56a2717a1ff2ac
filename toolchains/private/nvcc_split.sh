#!/usr/bin/env bash
# Runs one part of an nvcc compile whose device code other actions compiled. cu_library splits each
# CUDA source into a graph of actions (rules/private/nvcc_compile.bzl): one `nvcc -ptx` per virtual
# arch, one `nvcc -cubin` per real arch, then this script: the host code to assembly while the
# device code is still compiling, and the object.
#
#   nvcc_split.sh hostasm NVCC STUB SM=PTX ASM STANDIN_C -- NVCC_ARGS...
#   nvcc_split.sh host NVCC STUB ASM STANDIN_C KIND:SM=FILE... -- NVCC_ARGS...
#
# NVCC_ARGS is the whole compile (`-c SRC -o OBJ` with every -gencode flag), as one nvcc action would
# run it. The script asks nvcc for its plan (`nvcc -dryrun`), so that every step runs with the
# options this nvcc gives it, and then:
#   hostasm: runs the plan's host steps (the host preprocessor, cudafe++, the host compiler) with
#     the registration stub that cicc wrote for one virtual arch (STUB: `-Xcicc --stub_file_name`)
#     and a stand-in for the fatbinary: the plan's fatbinary step run on the PTX of that arch alone
#     (SM=PTX), its source written to STANDIN_C. The host compiler stops at assembly (-S), written
#     to ASM. The fatbinary is data in an asm() statement, which the compiler copies into its output
#     as it is, so the assembly differs from the real one only in those lines. Where the host compile
#     writes debug information (-g), which records the fatbinary's size, ASM says so and nothing is
#     run;
#   host: runs the plan's fatbinary step with the images the device actions built (KIND:SM=FILE,
#     e.g. elf:90=x.sm_90.cubin, ptx:90=x.compute_90.ptx; KIND and SM as in fatbinary's --image3).
#     With ASM and STANDIN_C (not "-"), checks that the fatbinary's source has the stand-in's shape
#     (the same text but for the data and its size) and that the binary fatbinary holds that data,
#     puts `.incbin` of the binary in place of the stand-in's data lines in the assembly and runs the
#     plan's host compile on that (-x assembler). Otherwise, or where a check fails, runs the plan's
#     host steps with STUB and the fatbinary's source in place. It skips the device steps (the
#     device preprocessor, cicc, ptxas).
# The object is what the single nvcc action writes: the same device code, the same host code.
set -euo pipefail

die() {
  echo "nvcc_split.sh: $*" >&2
  exit 2
}

[ $# -ge 2 ] || die "usage: nvcc_split.sh hostasm|host NVCC ... -- NVCC_ARGS..."
role=$1 nvcc=$2
shift 2
declare -A images=()
case $role in
  hostasm)
    [ $# -ge 4 ] || die "hostasm: STUB, SM=PTX, ASM and STANDIN_C missing"
    in_stub=$1 standin_image=$2 out_asm=$3 out_standin=$4
    [[ $standin_image == *=* ]] || die "hostasm: '$standin_image' is not SM=PTX"
    shift 4
    ;;
  host)
    [ $# -ge 3 ] || die "host: STUB, ASM and STANDIN_C missing"
    in_stub=$1 in_asm=$2 in_standin=$3
    shift 3
    [ "$in_asm" != - ] || [ "$in_standin" = - ] || die "host: STANDIN_C given without ASM"
    [ "$in_asm" = - ] || [ "$in_standin" != - ] || die "host: ASM given without STANDIN_C"
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
      [[ $1 == *:*=* ]] || die "host: '$1' is not KIND:SM=FILE"
      images[${1%%=*}]=${1#*=}
      shift
    done
    ;;
  *) die "unknown role '$role' (expected hostasm or host)" ;;
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
stub= fatbin_c= fatbin_bin= fatbin_step= compile_step= gen_c=
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
        [[ $w == --create=* ]] && fatbin_bin=${w#--create=}
      done
      fatbin_step=$line
      ;;
    rm) steps+=("$line") ;;
    cudafe++)
      for ((i = 1; i < ${#words[@]}; i++)); do
        [ "${words[i]}" = "--gen_c_file_name" ] && gen_c=${words[i + 1]}
      done
      steps+=("$line")
      ;;
    *)
      # The host compiler: device preprocessing (-E with __CUDA_ARCH__ defined) belongs to cicc.
      device= compile=
      for w in "${words[@]}"; do
        [[ $w == -D__CUDA_ARCH__=* ]] && device=1
        [ "$w" = -c ] && compile=1
      done
      if [[ " $line " == *" -E "* ]] && [ -n "$device" ]; then
        continue
      fi
      steps+=("$line")
      [ -n "$compile" ] && compile_step=$line
      ;;
  esac
done <<<"$plan"
[ -n "$fatbin_c" ] || die "nvcc -dryrun shows no fatbinary step with --embedded-fatbin= (is there a -gencode flag, and -c?)"
[ -n "$fatbin_bin" ] || die "nvcc -dryrun shows no fatbinary step with --create="

# fatbin_command FATBIN_C [IMAGE]: sets cmd to the plan's fatbinary step writing its source to
# FATBIN_C and the binary next to it (FATBIN_C empty: where the plan writes them), each of the
# plan's images taken from the device actions' (images, KIND:SM=FILE), or with IMAGE (an --image3
# value: kind=...,sm=...,file=...) in place of all of them (hostasm's stand-in).
fatbin_command() {
  local out=$1 only=${2:-} w kind sm spec p file used=0 bin=$fatbin_bin c=$fatbin_c
  [ -z "$out" ] || bin=$out.fatbin c=$out
  eval "words=($fatbin_step)"
  cmd=()
  for w in "${words[@]}"; do
    case $w in
      --create=*) cmd+=("--create=$bin") ;;
      --embedded-fatbin=*) cmd+=("--embedded-fatbin=$c") ;;
      --image3=*)
        if [ -n "$only" ]; then
          [ "$used" -eq 0 ] && cmd+=("--image3=$only")
          used=1
          continue
        fi
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
        [ -n "$file" ] || die "host: nvcc's plan has the image kind=$kind,sm=$sm, which no device action built (given: ${!images[*]})"
        spec="kind=$kind,sm=$sm"
        for p in "${rest[@]}"; do spec+=",$p"; done
        cmd+=("--image3=$spec,file=$file")
        used=$((used + 1))
        ;;
      *) cmd+=("$w") ;;
    esac
  done
  [ -n "$only" ] || [ "$used" -eq ${#images[@]} ] ||
    die "host: nvcc's plan has $used images, the device actions built ${#images[@]} (${!images[*]})"
}

[ -n "$stub" ] || die "nvcc -dryrun shows no cicc step with --stub_file_name"
[ -n "$compile_step" ] || die "nvcc -dryrun shows no host compile (-c)"
[ -n "$gen_c" ] || die "nvcc -dryrun shows no cudafe++ step with --gen_c_file_name"

# place_stub: the stub where the plan's host compile includes it. Its line markers name the file
# cicc wrote: the plan's name instead, as in one nvcc run (host debug information records it). sed,
# not awk: Debian's awk is a link through /etc, which Bazel's hermetic sandbox does not show.
place_stub() {
  grep -qF "#include \"${fatbin_c##*/}\"" "$in_stub" ||
    die "$role: the stub $in_stub does not include \"${fatbin_c##*/}\", the name nvcc's host compile expects (the device action's -Xcicc --include_file_name)"
  mkdir -p "$(dirname "$stub")" "$(dirname "$fatbin_c")"
  local from to
  from=$(printf '%s' "\"$in_stub\"" | sed 's/[][\\.*^$|]/\\&/g')
  to=$(printf '%s' "\"$stub\"" | sed 's/[\\&|]/\\&/g')
  sed "s|$from|$to|g" "$in_stub" >"$stub"
}

# run_steps [asm OUT]: the plan's host steps; with "asm OUT" the host compile stops at assembly.
run_steps() {
  local step
  for step in "${steps[@]}"; do
    eval "words=($step)"
    if [ "${words[0]}" = rm ]; then
      rm -f "${words[@]:1}"
    elif [ "$step" = "$compile_step" ] && [ "${1:-}" = asm ]; then
      local w out_next= cmd=()
      for w in "${words[@]}"; do
        if [ -n "$out_next" ]; then
          cmd+=("$2")
          out_next=
        elif [ "$w" = -c ]; then
          cmd+=(-S)
        else
          [ "$w" = -o ] && out_next=1
          cmd+=("$w")
        fi
      done
      "${cmd[@]}"
    else
      "${words[@]}"
    fi
  done
}

# The fatbinary source without its data: the lines the compiler copies into the assembly, and the
# array's size.
shape() { grep -v '^"\.quad ' "$1" | sed 's/fatbinData\[[0-9]*\]/fatbinData[]/'; }
no_asm="# nvcc_split.sh: the host compile writes debug information; NvccHost compiles it whole"

if [ "$role" = hostasm ]; then
  eval "words=($compile_step)"
  for w in "${words[@]}"; do
    if [[ $w == -g* && $w != -g0 ]]; then
      echo "$no_asm" >"$out_asm"
      : >"$out_standin"
      exit 0
    fi
  done
  fatbin_command "$out_standin" "kind=ptx,sm=${standin_image%%=*},file=${standin_image#*=}"
  "${cmd[@]}"
  rm -f "$out_standin.fatbin"
  place_stub
  cp -f "$out_standin" "$fatbin_c"
  run_steps asm "$out_asm"
  exit 0
fi

# host: the fatbinary, where the plan writes it (its source and the binary), from the device
# actions' images.
mkdir -p "$(dirname "$fatbin_c")" "$(dirname "$fatbin_bin")"
fatbin_command ""
"${cmd[@]}"

# The assembly, with the binary fatbinary in place of the stand-in's data lines, where it can be.
why=
if [ "$in_asm" = - ]; then
  why=none
elif [ "$(head -n 1 "$in_asm")" = "$no_asm" ]; then
  why=debug
elif ! cmp -s <(shape "$fatbin_c") <(shape "$in_standin"); then
  why="the fatbinary source $fatbin_c differs from the stand-in $in_standin in more than its data"
else
  at=$(grep -n -x 'fatbinData:' "$in_asm" | cut -d: -f1)
  lines=$(grep -c '^"\.quad ' "$in_standin" || true)
  words8=$(grep -o -m 1 'fatbinData\[[0-9]*\]' "$fatbin_c" | tr -dc 0-9)
  size=$(wc -c <"$fatbin_bin")
  if [ "$(printf '%s\n' "$at" | wc -l)" -ne 1 ] || [ -z "$at" ]; then
    why="the assembly $in_asm does not have exactly one fatbinData: label"
  elif [ "$(sed -n "$((at + 1))p;$((at + lines))p" "$in_asm" | grep -c '^\.quad ')" -ne 2 ] ||
    sed -n "$((at + lines + 1))p" "$in_asm" | grep -q '^\.quad '; then
    why="the assembly $in_asm does not have the stand-in's $lines data lines after fatbinData:"
  elif [ -z "$words8" ] || [ "$size" -ne $((words8 * 8)) ]; then
    why="the binary fatbinary $fatbin_bin has $size bytes, not the ${words8:-?} 8-byte words of fatbinData in $fatbin_c"
  fi
fi
if [ -z "$why" ]; then
  eval "words=($compile_step)"
  out_obj=
  for ((i = 0; i < ${#words[@]}; i++)); do
    [ "${words[i]}" = -o ] && out_obj=${words[i + 1]}
  done
  [ -n "$out_obj" ] || die "host: the plan's host compile has no -o"
  spliced=$out_obj.host.s
  {
    head -n "$at" "$in_asm"
    printf '.incbin "%s"\n' "$fatbin_bin"
    tail -n +"$((at + lines + 1))" "$in_asm"
  } >"$spliced"
  cmd=()
  for ((i = 0; i < ${#words[@]}; i++)); do
    w=${words[i]}
    if [ "$w" = -x ] && [ "${words[i + 1]:-}" = c++ ]; then
      cmd+=(-x assembler)
      i=$((i + 1))
    elif [ "$w" = "$gen_c" ]; then
      cmd+=("$spliced")
    else
      cmd+=("$w")
    fi
  done
  "${cmd[@]}"
  rm -f "$spliced" "$fatbin_c" "$fatbin_bin"
  exit 0
fi
[ "$why" = none ] || [ "$why" = debug ] || echo "nvcc_split.sh: $why: compiling the host code again" >&2
place_stub
run_steps
