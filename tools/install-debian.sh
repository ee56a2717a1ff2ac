#!/usr/bin/env bash
# Installs what rules_cuda_go needs on a Debian bookworm machine with no access to GitHub or
# bcr.bazel.build: Bazel 7.7 (Debian sid's offline-packaged bazel-bootstrap), Go 1.26, and always a
# C/C++ compiler plus unzip and xz-utils (the CUDA toolkit Bazel downloads needs a host compiler).
# `cuda` adds a local CUDA toolkit (bookworm non-free nvidia-cuda-toolkit 11.8), needed only for
# builds with --cuda_version=local. Run as root; bazelw calls it.
#
# Usage: tools/install-debian.sh [bazel] [cuda] [go]   (no argument: bazel and go)
set -euo pipefail

want_bazel=0 want_cuda=0 want_go=0
[ $# -eq 0 ] && set -- bazel go
for w in "$@"; do
  case "$w" in
    bazel) want_bazel=1 ;;
    cuda) want_cuda=1 ;;
    go) want_go=1 ;;
    *) echo "install-debian.sh: unknown component '$w' (expected: bazel, cuda, go)" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install-debian.sh: must run as root (it runs apt-get)" >&2
  exit 1
fi
. /etc/os-release
# A machine set up before may report sid's codename: installing Bazel pulls in sid's base-files.
if [ "${ID:-}" != debian ] || { [ "${VERSION_CODENAME:-}" != bookworm ] && [ ! -f /etc/apt/sources.list.d/rules_cuda_go.list ]; }; then
  echo "install-debian.sh: this installer knows Debian bookworm only (found ${PRETTY_NAME:-unknown})." >&2
  exit 1
fi

mirror=${RULES_CUDA_GO_DEBIAN_MIRROR:-http://deb.debian.org/debian}
export DEBIAN_FRONTEND=noninteractive

# Sources: bookworm with non-free (the local CUDA toolkit) and sid (Bazel 7.7), sid pinned low so only what is asked for comes from it.
key=/usr/share/keyrings/debian-archive-keyring.gpg
cat >/etc/apt/sources.list.d/rules_cuda_go.list <<SRC
deb [signed-by=$key] $mirror bookworm contrib non-free non-free-firmware
deb [signed-by=$key] $mirror sid main contrib non-free non-free-firmware
SRC
cat >/etc/apt/apt.conf.d/80rules_cuda_go <<'CONF'
Acquire::Check-Valid-Until "false";
APT::Install-Recommends "false";
CONF
cat >/etc/apt/preferences.d/rules_cuda_go <<'PIN'
Package: *
Pin: release n=sid
Pin-Priority: 100

Package: build-essential gcc g++ cpp make gcc-x86-64-linux-gnu g++-x86-64-linux-gnu cpp-x86-64-linux-gnu zlib1g-dev xz-utils bzip2 python3 python3-minimal libpython3-stdlib
Pin: release n=bookworm
Pin-Priority: 1001
PIN

echo "install-debian.sh: apt-get update" >&2
apt-get update -qq

base=(build-essential g++ git python3 unzip zip ca-certificates xz-utils)
if [ $want_cuda -eq 1 ]; then
  echo "install-debian.sh: installing the local CUDA toolkit (nvidia-cuda-toolkit 11.8 from bookworm non-free, ~1.7 GB)" >&2
  apt-get install -y -qq "${base[@]}" nvidia-cuda-toolkit libcuda1 >/dev/null
else
  apt-get install -y -qq "${base[@]}" >/dev/null
fi

if [ $want_bazel -eq 1 ]; then
  echo "install-debian.sh: installing Bazel 7.7 (bazel-bootstrap from Debian sid, with a Java 21 runtime)" >&2
  sid=(bazel-bootstrap bazel-rules-shell openjdk-21-jdk-headless libgrpc-java)
  if ! apt-get install -y -qq -o Dpkg::Options::=--force-overwrite -t sid "${sid[@]}" >/dev/null; then
    # A file clash between libssl3 and sid's openssl provider package can stop the first try.
    apt-get install -y -qq -o Dpkg::Options::=--force-overwrite -t sid --fix-broken >/dev/null
    apt-get install -y -qq -o Dpkg::Options::=--force-overwrite -t sid "${sid[@]}" >/dev/null
  fi
fi
if [ $want_go -eq 1 ]; then
  echo "install-debian.sh: installing Go 1.26 (golang-1.26-go from Debian sid, in /usr/lib/go-1.26)" >&2
  apt-get install -y -qq -t sid golang-1.26-go >/dev/null
fi
echo "install-debian.sh: done" >&2
