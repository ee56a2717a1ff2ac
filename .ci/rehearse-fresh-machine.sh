#!/usr/bin/env bash
# Rehearses a fresh machine: debootstrap a minimal Debian bookworm, clone this repository's main
# into it, and run .ci/run there (as root, which installs Bazel, Go and a compiler through ./bazelw;
# Bazel downloads the CUDA toolkit itself), after checking that ./bazelw as a non-root user stops
# with a message saying what to install. After the first run it prints how much Bazel downloaded.
# Usage (as root, on Debian): .ci/rehearse-fresh-machine.sh [DIR]   (default /tmp/fresh-bookworm)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/tmp/fresh-bookworm}
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
cleanup() {
  for m in sys dev/pts dev proc; do umount -l "$dir/$m" 2>/dev/null || true; done
  umount -l "$dir" 2>/dev/null || true
}
trap cleanup EXIT
if [ ! -x "$dir/bin/bash" ]; then
  echo "== debootstrap --variant=minbase bookworm $dir"
  debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian >/dev/null
fi
# The root a mount point of its own, as on a machine: .ci/starts-without-driver.sh hides libcuda (which
# the 11.8 step installs) in a private mount namespace, and unshare cannot make a chroot's root private.
mount --bind "$dir" "$dir"
mount -t proc proc "$dir/proc"; mount --rbind /dev "$dir/dev"; mount --rbind /sys "$dir/sys"
cp /etc/resolv.conf "$dir/etc/resolv.conf"
rm -rf "$dir/src"
git clone -q --branch main "$repo" "$dir/src"
in_chroot() { chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin CI=true bash -c "$1"; }
echo "== as a non-root user without Bazel: ./bazelw must say what to install"
in_chroot "id rehearsal >/dev/null 2>&1 || useradd -m rehearsal; chmod -R a+rX /src; cd /src && su rehearsal -c './bazelw --version' ; echo \"exit status \$?\""
echo "== as root: bash .ci/run (first run)"
# The machine's own extra CA certificates (a TLS-inspecting egress proxy, where there is one) belong
# to the machine, not to the project: give the rehearsal root the same trust.
time in_chroot "apt-get update -qq && apt-get install -y -qq git ca-certificates >/dev/null"
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
  in_chroot "update-ca-certificates >/dev/null"
fi
time in_chroot "cd /src && bash .ci/run"
echo "== what Bazel downloaded and unpacked in the first run (repository cache; the main workspace's external/; the output user root, all workspaces)"
# The repository cache holds every archive Bazel downloaded (the hermetic CUDA toolkit's wheels among
# them), once, shared by the workspaces; external/ holds them unpacked.
# shellcheck disable=SC2016 # expanded inside the chroot
in_chroot 'cd /src && rc=$(BAZELW_QUIET=1 ./bazelw info repository_cache) && ob=$(BAZELW_QUIET=1 ./bazelw info output_base) &&
  du -sh "$rc" "$ob/external" "$(dirname "$ob")" && echo "largest external repositories:" &&
  du -sm "$ob"/external/*/ 2>/dev/null | sort -rn | head -n 8' || echo "(could not measure the download size)"
echo "== second run"
time in_chroot "cd /src && ./bazelw test //tests:all"
