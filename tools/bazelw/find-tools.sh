# shellcheck shell=bash disable=SC2154 # root, cache and want_bazel are set by bazelw
# Sourced by ../../bazelw: finds Bazel, Go and (only for the local CUDA toolkit) nvcc, and installs
# what is missing in one run of tools/install-debian.sh. Uses say, die, reachable, version_ge, root,
# want_bazel and cache from bazelw; ensure_tools "$@" sets bazel_bin and go_bin.

is_root() { [ "$(id -u)" -eq 0 ]; }
# Debian bookworm, or a machine tools/install-debian.sh already set up (sid's base-files, pulled in
# with Bazel, changes /etc/os-release).
is_bookworm() {
  [ -r /etc/os-release ] && grep -q '^VERSION_CODENAME=bookworm' /etc/os-release ||
    [ -f /etc/apt/sources.list.d/rules_cuda_go.list ]
}

# config_used NAME ARGS...: is --config=NAME (or --config NAME) among Bazel's options?
config_used() {
  local name=$1 a prev=''
  shift
  for a in "$@"; do
    [ "$a" = -- ] && break # what follows -- are targets or program arguments
    [ "$a" = "--config=$name" ] && return 0
    [ "$prev" = --config ] && [ "$a" = "$name" ] && return 0
    prev=$a
  done
  return 1
}
uses_cpu_config() { config_used cpu "$@"; }
# Does the command line select the machine's own CUDA toolkit (cuda_version "local")? Any spelling of
# the flag (--cuda_version, --@rules_cuda_go//toolchains:cuda_version, --//toolchains:cuda_version),
# with = or a space, the last one winning; or --config=local_cuda. Bazel's rc files are not read.
uses_local_cuda() {
  local a prev='' version=''
  config_used local_cuda "$@" && return 0
  for a in "$@"; do
    [ "$a" = -- ] && break
    case "$a" in
      --cuda_version=* | --*//toolchains:cuda_version=*) version=${a#*=} ;;
    esac
    case "$prev" in
      --cuda_version | --*//toolchains:cuda_version) version=$a ;;
    esac
    prev=$a
  done
  [ "$version" = local ]
}
# nvcc is looked for only when the build uses the local toolkit; by default Bazel downloads a pinned one.
want_cuda() { [ -z "${RULES_CUDA_GO_SKIP_CUDA:-}" ] && ! uses_cpu_config "$@" && uses_local_cuda "$@"; }

find_bazel() {
  local b v
  for b in "${BAZEL_REAL:-}" "$(command -v bazelisk || true)" "$(command -v bazel || true)"; do
    [ -n "$b" ] && [ -x "$b" ] || continue
    case "$(basename "$b")" in
      bazelisk*) echo "$b"; return 0 ;;
    esac
    v=$("$b" --version 2>/dev/null | awk '{print $2}') || continue
    if [ -n "$v" ] && version_ge "$v" "7.7.0"; then
      echo "$b"
      return 0
    fi
    say "ignoring $b: version '${v:-unknown}' is older than 7.7.0 (.bazelversion wants $want_bazel)"
  done
  return 1
}
# Debian's Bazel 7.7 server needs Java >= 21; with an older default java it dies at start.
java_too_old() {
  local jv
  [ "$1" = /usr/bin/bazel ] && command -v java >/dev/null || return 1
  jv=$(java -version 2>&1 | awk -F'"' '/version/ {print $2}' | cut -d. -f1)
  [ -n "$jv" ] && [ "$jv" -lt 21 ]
}
find_go() {
  local g v
  for g in "${GOROOT:+$GOROOT/bin/go}" "$(command -v go || true)" /usr/local/go/bin/go /usr/lib/go-1.26/bin/go; do
    [ -n "$g" ] && [ -x "$g" ] || continue
    v=$("$g" env GOVERSION 2>/dev/null | sed 's/^go//') || continue
    if version_ge "${v%%-*}" "1.24"; then
      echo "$g"
      return 0
    fi
  done
  return 1
}
# The same places, in the same order, as the local toolkit's resolver (FindNvcc, under toolchains/).
find_nvcc() {
  local n
  for n in "${CUDA_PATH:+$CUDA_PATH/bin/nvcc}" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" "$(command -v nvcc || true)" \
    /usr/local/cuda/bin/nvcc /usr/lib/nvidia-cuda-toolkit/bin/nvcc; do
    [ -n "$n" ] && [ -x "$n" ] && { echo "$n"; return 0; }
  done
  return 1
}

# ensure_tools ARGS...: find Bazel, Go and (for the local toolkit) nvcc; what is missing is installed
# in one go. Sets bazel_bin and go_bin.
ensure_tools() {
  local missing=() components=() advice=() n what todo
  go_bin=$(find_go) || { missing+=("Go >= 1.24"); components+=(go); advice+=("install Go >= 1.24 (https://go.dev/dl) and put it on PATH"); }
  bazel_bin=$(find_bazel) || bazel_bin=
  if [ -z "$bazel_bin" ] && [ -n "$go_bin" ] && reachable github.com; then
    say "no Bazel >= 7.7 found; installing bazelisk with 'go install' (it downloads Bazel $want_bazel from GitHub)"
    GOBIN="$cache/bin" "$go_bin" install github.com/bazelbuild/bazelisk@v1.25.0
    bazel_bin="$cache/bin/bazelisk"
  fi
  if [ -z "$bazel_bin" ]; then
    missing+=("Bazel >= 7.7"); components+=(bazel); advice+=("install Bazel $want_bazel (https://bazel.build/install) and put it on PATH")
  elif java_too_old "$bazel_bin"; then
    missing+=("Java >= 21 for Debian's Bazel"); components+=(bazel); advice+=("install openjdk-21-jdk-headless")
  fi
  if want_cuda "$@" && ! find_nvcc >/dev/null; then
    for n in "${CUDA_PATH:-}" "${CUDA_HOME:-}"; do
      [ -n "$n" ] && say "CUDA_PATH/CUDA_HOME points at '$n' but $n/bin/nvcc is not an executable"
    done
    missing+=("the local CUDA toolkit that --cuda_version=local asks for (nvcc, looked in \$CUDA_PATH/bin, \$CUDA_HOME/bin, PATH, /usr/local/cuda/bin, /usr/lib/nvidia-cuda-toolkit/bin)")
    components+=(cuda)
    advice+=("install the CUDA toolkit and set CUDA_PATH, or leave out --cuda_version=local to use the toolkit Bazel downloads")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    what=$(IFS=';'; echo "${missing[*]}" | sed 's/;/, /g')
    todo=$(IFS=';'; echo "${advice[*]}" | sed 's/;/; /g')
    is_bookworm || die "missing: $what. This script installs them on Debian bookworm only; elsewhere: $todo."
    is_root || die "missing: $what. Installing needs root: run 'sudo $root/tools/install-debian.sh ${components[*]}', or $todo."
    say "missing: $what; installing with tools/install-debian.sh ${components[*]} (one time; takes a few minutes)"
    "$root/tools/install-debian.sh" "${components[@]}"
    go_bin=$(find_go) || die "Go was installed but no go >= 1.24 was found"
    bazel_bin=$(find_bazel) || die "Bazel was installed but no bazel >= 7.7 is on PATH"
    ! want_cuda "$@" || find_nvcc >/dev/null ||
      die "the CUDA toolkit was installed but no nvcc was found in \$CUDA_PATH/bin, \$CUDA_HOME/bin, PATH, /usr/local/cuda/bin or /usr/lib/nvidia-cuda-toolkit/bin"
  fi
}
