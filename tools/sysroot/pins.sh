#!/usr/bin/env bash
# Prints toolchains/sysroot/packages.bzl entries (name, version, pool path, sha256, sha1) for Debian
# packages, to move the glibc baseline to other versions. Needs apt sources for the release the
# packages come from (the sha256 is checked against apt's index; the sha1 names the file on
# snapshot.debian.org).
#
#   tools/sysroot/pins.sh libc6=2.36-9+deb12u14 libc6-dev=2.36-9+deb12u14 linux-libc-dev=6.1.176-1 \
#       libstdc++6=12.2.0-14+deb12u1 libgcc-s1=12.2.0-14+deb12u1
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 PACKAGE=VERSION..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for spec in "$@"; do
  case "$spec" in
    *=*) ;;
    *) echo "pins.sh: '$spec' is not PACKAGE=VERSION" >&2; exit 2 ;;
  esac
  name=${spec%%=*} version=${spec#*=}
  info=$(apt-cache show --no-all-versions "$spec" 2>/dev/null) ||
    { echo "pins.sh: apt knows no $name version $version (apt-cache policy $name lists what it knows)" >&2; exit 1; }
  path=$(awk '/^Filename:/ {print $2; exit}' <<<"$info")
  sha256=$(awk '/^SHA256:/ {print $2; exit}' <<<"$info")
  (cd "$work" && apt-get download -qq "$spec" 2>/dev/null)
  deb=$(ls "$work"/*.deb)
  echo "$sha256  $deb" | sha256sum -c --quiet - || { echo "pins.sh: $deb does not match apt's sha256" >&2; exit 1; }
  sha1=$(sha1sum "$deb" | cut -d' ' -f1)
  rm -f "$deb"
  cat <<ENTRY
    struct(
        name = "$name",
        version = "$version",
        path = "$path",
        sha256 = "$sha256",
        sha1 = "$sha1",
    ),
ENTRY
done
