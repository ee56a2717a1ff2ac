# shellcheck shell=bash disable=SC2154 # root, cache and want_bazel are set by bazelw
# Sourced by ../../bazelw: finds Bazel, Go and (only for the local CUDA toolkit) nvcc, and installs
# what is missing in one run of tools/install-debian.sh: Bazel (Debian sid's, with its own glibc and
# JDK) and Go privately under $cache without root; bookworm's compiler and CUDA toolkit system-wide
# (root). Uses say, die, reachable, version_ge, root, want_bazel and cache from bazelw; ensure_tools
# "$@" sets bazel_bin, go_bin and debian_share (Debian's Bazel module copies, for offline-modules.sh).

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

# RULES_CUDA_GO_LOCAL_CUDA picks which toolkit --cuda_version=local means: unset, the one found
# (find_nvcc); "debian-sid", Debian sid's CUDA 12 toolkit unpacked in the cache without root
# (tools/install-debian.sh cuda-sid, when the command line selects the local toolkit), whose root
# becomes CUDA_PATH for every command (so that Bazel does not see the local toolkit change between
# commands).
sid_cuda="$cache/cuda-debian-sid/current"
use_sid_cuda() {
  case "${RULES_CUDA_GO_LOCAL_CUDA:-}" in
    '') return 1 ;;
    debian-sid) return 0 ;;
    *) die "RULES_CUDA_GO_LOCAL_CUDA='$RULES_CUDA_GO_LOCAL_CUDA': the value is 'debian-sid' (Debian sid's CUDA 12 toolkit, unpacked into $cache/cuda-debian-sid) or unset (the toolkit found on this machine)" ;;
  esac
}

# The private Bazel tools/install-debian.sh makes: Debian sid's bazel-bootstrap with its own glibc
# and OpenJDK 21 in the cache, leaving the system as it is.
private_bazel="$cache/bazel-debian/current/bin/bazel"
find_bazel() {
  local b v
  for b in "${BAZEL_REAL:-}" "$(command -v bazelisk || true)" "$(command -v bazel || true)" "$private_bazel"; do
    [ -n "$b" ] && [ -x "$b" ] || continue
    case "$(basename "$b")" in
      bazelisk*) echo "$b"; return 0 ;;
    esac
    if java_too_old "$b"; then
      say "ignoring $b: Debian's Bazel 7.7 needs Java >= 21 and the default java is older"
      continue
    fi
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
# use_bazel: where Debian's module copies are (for .bazelrc.offline), for the Bazel found.
use_bazel() {
  # shellcheck disable=SC2034 # used by offline-modules.sh
  debian_share=/usr/share/bazel
  if [ "$bazel_bin" = "$private_bazel" ]; then
    local prefix cacerts
    prefix=$(cd -P "$cache/bazel-debian/current" && pwd)
    # shellcheck disable=SC2034 # used by offline-modules.sh
    debian_share=$prefix/root/usr/share/bazel
    # The private Bazel reads its copy of Debian's /etc/bazel/bazelrc unless told not to; bazelw
    # writes the module overrides itself (into .bazelrc.offline, where they are needed).
    export RULES_CUDA_GO_DEBIAN_BAZELRC=0
    # Its Java trust store is made from the system's CA certificates; remade when those change.
    cacerts=$prefix/root/usr/lib/jvm/java-21-openjdk-amd64/lib/security/cacerts
    if [ /etc/ssl/certs/ca-certificates.crt -nt "$cacerts" ]; then
      say "the system's CA certificates changed: remaking the private Bazel's Java trust store"
      RULES_CUDA_GO_CACHE=$cache "$root/tools/install-debian.sh" cacerts
    fi
    say "using the private Bazel in $prefix (Debian sid's, on its own glibc; the system is unchanged)"
  fi
}
# Go >= 1.24 where toolchains/private/find_go.sh (the one list of places) finds it.
find_go() { RULES_CUDA_GO_CACHE=$cache "$root/toolchains/private/find_go.sh" 2>/dev/null; }
# The same places, in the same order, as the local toolkit's resolver (FindNvcc, under toolchains/):
# $CUDA_PATH/bin, $CUDA_HOME/bin, PATH, then the paths of toolchains/toolkit/nvcc_fallbacks.txt.
# shellcheck disable=SC2046 # one path per word
find_nvcc() {
  local n
  for n in "${CUDA_PATH:+$CUDA_PATH/bin/nvcc}" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" "$(command -v nvcc || true)" \
    $(grep -v '^[[:space:]]*\(#\|$\)' "$root/toolchains/toolkit/nvcc_fallbacks.txt"); do
    [ -n "$n" ] && [ -x "$n" ] && { echo "$n"; return 0; }
  done
  return 1
}

# The bookworm packages tools/install-debian.sh base installs system-wide (root): a C/C++ compiler for
# the CUDA toolkit Bazel downloads and for cgo, and the tools Bazel's rules call.
base_missing() {
  local c
  for c in gcc g++ make git python3 unzip zip xz; do
    command -v "$c" >/dev/null || return 0
  done
  [ ! -r /etc/ssl/certs/ca-certificates.crt ]
}
is_debian_like() { command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null && [ "$(uname -m)" = x86_64 ]; }

# ensure_tools ARGS...: find Bazel, Go and (for the local toolkit) nvcc; what is missing is installed:
# Bazel and Go privately in the cache (no root), bookworm packages (compiler, CUDA) system-wide (root).
# Sets bazel_bin, go_bin and debian_share.
ensure_tools() {
  local missing=() private=() system=() advice=() n what todo
  go_bin=$(find_go) || { missing+=("Go >= 1.24"); private+=(go); advice+=("install Go >= 1.24 (https://go.dev/dl) and put it on PATH"); }
  bazel_bin=$(find_bazel) || bazel_bin=
  if [ -z "$bazel_bin" ] && [ -n "$go_bin" ] && reachable github.com; then
    say "no Bazel >= 7.7 found; installing bazelisk with 'go install' (it downloads Bazel $want_bazel from GitHub)"
    GOBIN="$cache/bin" "$go_bin" install github.com/bazelbuild/bazelisk@v1.25.0
    bazel_bin="$cache/bin/bazelisk"
  fi
  if [ -z "$bazel_bin" ]; then
    missing+=("Bazel >= 7.7"); private+=(bazel); advice+=("install Bazel $want_bazel (https://bazel.build/install) and put it on PATH")
  fi
  if use_sid_cuda; then
    # Installed, by the installer's present layout (cuda_sid_layout, which it writes to .complete)?
    local layout
    layout=$(sed -n 's/^cuda_sid_layout="\(.*\)"$/\1/p' "$root/tools/install-debian.sh")
    if want_cuda "$@" && [ "$(cat "$sid_cuda/.complete" 2>/dev/null)" != "$layout" ]; then
      is_debian_like || die "RULES_CUDA_GO_LOCAL_CUDA=debian-sid unpacks Debian packages: it needs Debian (x86_64, with apt-get and dpkg-deb)"
      say "RULES_CUDA_GO_LOCAL_CUDA=debian-sid: installing Debian sid's CUDA toolkit into $cache/cuda-debian-sid (no root; one time, a few minutes)"
      RULES_CUDA_GO_CACHE=$cache "$root/tools/install-debian.sh" cuda-sid
    fi
    if [ "$(cat "$sid_cuda/.complete" 2>/dev/null)" = "$layout" ]; then
      # The resolved directory: a new version is a new CUDA_PATH, which makes Bazel find the toolkit again.
      CUDA_PATH=$(cd -P "$sid_cuda" && pwd)
      export CUDA_PATH
      ! want_cuda "$@" || say "RULES_CUDA_GO_LOCAL_CUDA=debian-sid: CUDA_PATH=$CUDA_PATH"
    fi
  elif want_cuda "$@" && ! find_nvcc >/dev/null; then
    for n in "${CUDA_PATH:-}" "${CUDA_HOME:-}"; do
      [ -n "$n" ] && say "CUDA_PATH/CUDA_HOME points at '$n' but $n/bin/nvcc is not an executable"
    done
    missing+=("the local CUDA toolkit that --cuda_version=local asks for (nvcc, looked in \$CUDA_PATH/bin, \$CUDA_HOME/bin, PATH and the paths of toolchains/toolkit/nvcc_fallbacks.txt)")
    system+=(cuda)
    advice+=("install the CUDA toolkit and set CUDA_PATH, or leave out --cuda_version=local to use the toolkit Bazel downloads")
  fi
  if [ ${#missing[@]} -gt 0 ] && base_missing; then
    missing+=("a C/C++ compiler and build tools (gcc g++ make git python3 unzip zip xz ca-certificates)"); system+=(base)
    advice+=("install gcc, g++, make, git, python3, unzip, zip, xz-utils and ca-certificates")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    what=$(IFS=';'; echo "${missing[*]}" | sed 's/;/, /g')
    todo=$(IFS=';'; echo "${advice[*]}" | sed 's/;/; /g')
    if [ ${#system[@]} -gt 0 ]; then
      is_bookworm || die "missing: $what. This script installs them on Debian bookworm only; elsewhere: $todo."
      is_root || die "missing: $what. The bookworm packages need root: run 'sudo $root/tools/install-debian.sh ${system[*]}', then ./bazelw again (it installs ${private[*]:-nothing else} in $cache without root); or $todo."
    fi
    if [ ${#private[@]} -gt 0 ]; then
      is_debian_like || die "missing: $what. This script installs them on Debian (x86_64, with apt-get) only; elsewhere: $todo."
      say "missing: $what; installing with tools/install-debian.sh ${system[*]} ${private[*]} (one time; a few minutes):"
      say "  ${private[*]} from Debian sid's packages, unpacked into $cache (no root; the system's glibc and packages are not changed)"
    else
      say "missing: $what; installing with tools/install-debian.sh ${system[*]} (one time; a few minutes)"
    fi
    [ ${#system[@]} -eq 0 ] || say "  ${system[*]} from Debian bookworm, system-wide with apt-get"
    RULES_CUDA_GO_CACHE=$cache "$root/tools/install-debian.sh" "${system[@]}" "${private[@]}"
    go_bin=$(find_go) || die "Go was installed but no go >= 1.24 was found"
    bazel_bin=$(find_bazel) || die "Bazel was installed but no bazel >= 7.7 was found (looked on PATH and at $private_bazel)"
    ! want_cuda "$@" || find_nvcc >/dev/null ||
      die "the CUDA toolkit was installed but no nvcc was found in \$CUDA_PATH/bin, \$CUDA_HOME/bin, PATH, /usr/local/cuda/bin or /usr/lib/nvidia-cuda-toolkit/bin"
  fi
  use_bazel
}
