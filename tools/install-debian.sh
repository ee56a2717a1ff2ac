#!/usr/bin/env bash
# Installs what rules_cuda_go needs on a Debian bookworm machine with no access to GitHub or
# bcr.bazel.build. Components (no argument: base, bazel and go):
#   bazel  Bazel 7.7 (Debian sid's offline-packaged bazel-bootstrap) in a private prefix under the
#          rules_cuda_go cache, $RULES_CUDA_GO_CACHE/bazel-debian/VERSION: the .debs of sid's Bazel,
#          its Java libraries and module copies, OpenJDK 21 and the C/C++ libraries they need (sid's
#          glibc 2.43, libstdc++ 16, gRPC, Abseil, protobuf, OpenSSL) are fetched with `apt-get
#          download` and unpacked with `dpkg-deb -x`; bookworm's patchelf (also only unpacked) points
#          the programs at the prefix's own loader and libraries. Needs no root and changes nothing
#          outside the prefix: the system keeps its glibc 2.36. Remove the directory to uninstall.
#   go     Go 1.26 (sid's golang-1.26-go, static binaries) unpacked the same way in
#          $RULES_CUDA_GO_CACHE/go-debian/VERSION. No root.
#   base   (root) from bookworm: build-essential g++ git python3 unzip zip ca-certificates xz-utils
#          (the CUDA toolkit Bazel downloads needs a host compiler).
#   clangd (root) bookworm's clangd (14), for editors and .ci/clangd-check.sh (CI) with the
#          compile_commands.json that tools/compdb writes.
#   qemu   (root) bookworm's qemu-user (qemu-aarch64), to run linux-aarch64 builds' programs on
#          x86-64 (docs/platforms.md; CI runs the aarch64 CPU tests under it).
#   cuda   (root) a local CUDA toolkit, bookworm non-free nvidia-cuda-toolkit 11.8 (~1.7 GB), needed
#          only for builds with --cuda_version=local.
#   cuda-sid  a local CUDA 12 toolkit without root: Debian sid's non-free nvidia-cuda-toolkit (12.4)
#          unpacked into $RULES_CUDA_GO_CACHE/cuda-debian-sid/VERSION and arranged as a CUDA root
#          (bin/, nvvm/, include/, lib64/ with stubs/): nvcc and its tools, the headers, the runtime
#          (static and shared), NVRTC, nvJitLink, NVTX, CCCL and the shared math libraries (cuBLAS,
#          cuBLASLt, cuFFT, cuRAND, cuSPARSE, cuSOLVER); no driver (libcuda1) and no static math
#          libraries. About 1.5 GB of packages, 1.9 GB unpacked. For --cuda_version=local with
#          CUDA_PATH pointing there (./bazelw does both with RULES_CUDA_GO_LOCAL_CUDA=debian-sid).
#   bazel-system  (root) the former route, kept for machines where the private prefix cannot work:
#          sid's bazel-bootstrap installed system-wide with `apt-get -t sid`. It UPGRADES the system's
#          libc6 (2.36 -> sid's), libstdc++6, OpenSSL and ~180 packages; it prints the list first.
# bazelw calls it: as the user for bazel and go, as root (or with a message saying so) for the rest.
#
# Usage: tools/install-debian.sh [base] [bazel] [go] [clangd] [qemu] [cuda] [cuda-sid] [bazel-system]
set -euo pipefail

want_base=0 want_bazel=0 want_cuda=0 want_go=0 want_clangd=0 want_qemu=0 want_bazel_system=0 want_cacerts=0 want_cuda_sid=0
[ $# -eq 0 ] && set -- base bazel go
for w in "$@"; do
  case "$w" in
    base) want_base=1 ;;
    bazel) want_bazel=1 ;;
    cuda) want_cuda=1 ;;
    cuda-sid) want_cuda_sid=1 ;;
    clangd) want_clangd=1 ;;
    qemu) want_qemu=1 ;;
    go) want_go=1 ;;
    bazel-system) want_bazel_system=1 ;;
    cacerts) want_cacerts=1 ;; # remakes the private Bazel's Java trust store (bazelw, when the system's CAs change)
    *) echo "install-debian.sh: unknown component '$w' (expected: base, bazel, go, clangd, qemu, cuda, cuda-sid, bazel-system)" >&2; exit 2 ;;
  esac
done

say() { echo "install-debian.sh: $*" >&2; }
die() {
  echo "install-debian.sh: error: $*" >&2
  exit 1
}
mirror=${RULES_CUDA_GO_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cache=${RULES_CUDA_GO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go}
export DEBIAN_FRONTEND=noninteractive
# Several runs at once (two ./bazelw started together, an editor's Bazel plugin beside a terminal):
# one installs, the others wait for it and then find the install done (tools/bazelw/lock.sh).
# shellcheck source=tools/bazelw/lock.sh
. "$(dirname "${BASH_SOURCE[0]}")/bazelw/lock.sh"

# ---------------------------------------------------------------------------------------------
# System packages (root): bookworm's compiler and tools, the local CUDA toolkit, the old sid route.
# ---------------------------------------------------------------------------------------------
system_install() {
  [ "$(id -u)" -eq 0 ] || die "components base, clangd, qemu, cuda and bazel-system run apt-get on the system: run as root"
  # shellcheck source=/dev/null
  . /etc/os-release
  # A machine set up by the former route may report sid's codename (sid's base-files came with Bazel).
  if [ "${ID:-}" != debian ] || { [ "${VERSION_CODENAME:-}" != bookworm ] && [ ! -f /etc/apt/sources.list.d/rules_cuda_go.list ]; }; then
    die "this installer knows Debian bookworm only (found ${PRETTY_NAME:-unknown})."
  fi
  # bookworm non-free for the local CUDA toolkit. sid only for bazel-system, pinned low so only what
  # is asked for comes from it.
  {
    echo "deb [signed-by=$keyring] $mirror bookworm contrib non-free non-free-firmware"
    [ $want_bazel_system -eq 0 ] || echo "deb [signed-by=$keyring] $mirror sid main contrib non-free non-free-firmware"
  } >/etc/apt/sources.list.d/rules_cuda_go.list
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
  # One run of this script at a time changes the system's apt configuration and packages; apt-get
  # itself waits for any other apt or dpkg holding the system's lock.
  hold_lock /run/lock/rules_cuda_go-install-debian-system.lock "the system packages"
  say "apt-get update"
  apt-get update -qq
  local base=(build-essential g++ git python3 unzip zip ca-certificates xz-utils)
  [ $want_clangd -eq 0 ] || base+=(clangd)
  [ $want_qemu -eq 0 ] || base+=(qemu-user)
  if [ $want_cuda -eq 1 ]; then
    say "installing from bookworm: ${base[*]} nvidia-cuda-toolkit libcuda1 (the local CUDA toolkit 11.8, non-free, ~1.7 GB)"
    apt-get install -o DPkg::Lock::Timeout=600 -y -qq "${base[@]}" nvidia-cuda-toolkit libcuda1 >/dev/null
  else
    say "installing from bookworm: ${base[*]}"
    apt-get install -o DPkg::Lock::Timeout=600 -y -qq "${base[@]}" >/dev/null
  fi
  if [ $want_bazel_system -eq 1 ]; then
    local sid=(bazel-bootstrap bazel-rules-shell openjdk-21-jdk-headless libgrpc-java) upgrades
    upgrades=$(apt-get -s install -o Dpkg::Options::=--force-overwrite -t sid "${sid[@]}" | sed -n 's/^Inst \([^ ]*\) \[\([^]]*\)\] (\([^ ]*\) .*/\1 \2 -> \3/p')
    say "installing Bazel system-wide from Debian sid (apt-get -t sid ${sid[*]}). This UPGRADES these installed packages to sid's versions:"
    printf '  %s\n' "${upgrades:-(none)}" >&2
    say "and installs $(apt-get -s install -t sid "${sid[@]}" | grep -c '^Inst [^ ]* (') new packages"
    if ! apt-get install -o DPkg::Lock::Timeout=600 -y -qq -o Dpkg::Options::=--force-overwrite -t sid "${sid[@]}" >/dev/null; then
      # A file clash between libssl3 and sid's openssl provider package can stop the first try.
      apt-get install -o DPkg::Lock::Timeout=600 -y -qq -o Dpkg::Options::=--force-overwrite -t sid --fix-broken >/dev/null
      apt-get install -o DPkg::Lock::Timeout=600 -y -qq -o Dpkg::Options::=--force-overwrite -t sid "${sid[@]}" >/dev/null
    fi
  fi
}

# ---------------------------------------------------------------------------------------------
# Private prefixes (no root): .debs fetched with a private apt state, unpacked with dpkg-deb -x.
# ---------------------------------------------------------------------------------------------
apt_dir=$cache/apt
# remove_stale DIR: what an interrupted run left in DIR (staging and download directories, links
# half made); called while holding the lock of the private installs, so no other run is using them.
remove_stale() {
  [ -d "$1" ] || return 0
  find "$1" -mindepth 1 -maxdepth 1 \( -name '.staging.*' -o -name '.debs.*' -o -name '*.new.*' \) -exec rm -rf {} + 2>/dev/null || true
}
papt() {
  local cmd=$1
  shift
  local opts=(-o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts="$apt_dir/empty" -o Dir::Etc::preferences=/dev/null
    -o Dir::Etc::preferencesparts="$apt_dir/empty" -o Dir::State="$apt_dir" -o Dir::State::lists="$apt_dir/lists"
    -o Dir::State::status="$apt_dir/status" -o Dir::Cache="$apt_dir/cache" -o Acquire::Check-Valid-Until=false
    -o Debug::NoLocking=1 -o APT::Architectures::=amd64)
  [ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
  "$cmd" "${opts[@]}" "$@"
}
# private_apt_update [COMPONENTS]: the package lists of sid and bookworm (COMPONENTS: "main" unless
# given) into the private apt state.
private_apt_update() {
  local components=${1:-main}
  { command -v apt-get && command -v dpkg-deb; } >/dev/null || die "the private Bazel, Go and CUDA are made from Debian packages: apt-get and dpkg-deb are needed"
  [ "$(uname -m)" = x86_64 ] || die "the private Bazel prefix is made for x86_64 (found $(uname -m)); use: sudo $0 bazel-system"
  [ -r "$keyring" ] || die "$keyring (package debian-archive-keyring) is needed to check Debian's archive"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/empty"
  : >"$apt_dir/status"
  printf 'deb [signed-by=%s] %s %s %s\n' "$keyring" "$mirror" sid "$components" "$keyring" "$mirror" bookworm "$components" >"$apt_dir/sources.list"
  say "reading Debian's package lists for sid and bookworm ($components) into $apt_dir (private apt state; the system's apt is not touched)"
  papt apt-get update -qq || die "apt-get update (private state in $apt_dir) failed"
}
# download_debs DIR PKG/RELEASE...: the .debs, into DIR.
download_debs() {
  local dir=$1
  shift
  (cd "$dir" && papt apt-get download -qq "$@") || die "apt-get download failed for some of: $*"
}
# sid_closure ROOTS...: ROOTS and the library and Java-library packages they depend on, recursively
# (what sid's Bazel and OpenJDK load at run time); compilers, python3, perl and -dev packages are left
# out: the system's bookworm ones (component base) serve the build.
sid_closure() {
  papt apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "$@" 2>/dev/null | awk -v roots="$*" '
    function keep(p) {
      return p ~ /^(lib|zlib1g$|bazel-|velocity$|junit4$|openjdk-21-j(re|dk)-headless$)|-java$/ &&
        p !~ /(-dev|-perl|-bin)$|^lib(python|perl|pam|c-dev|js-)/
    }
    /^[^ ]/ { cur = $1; next }
    /^ / { d = $2; if (d !~ /^</) dep[cur] = dep[cur] " " d }
    END {
      n = split(roots, q, " "); for (i = 1; i <= n; i++) seen[q[i]] = 1
      while (n > 0) {
        p = q[n--]; print p
        m = split(dep[p], ds, " ")
        for (j = 1; j <= m; j++) if (!(ds[j] in seen) && keep(ds[j])) { seen[ds[j]] = 1; q[++n] = ds[j] }
      }
    }' | sort
}
# unpack_debs DIR ROOT: every .deb in DIR, unpacked into ROOT.
unpack_debs() {
  local d
  for d in "$1"/*.deb; do dpkg-deb -x "$d" "$2"; done
}
# relink_absolute ROOT FINAL_ROOT: symlinks with absolute targets that exist inside ROOT point into
# FINAL_ROOT (where ROOT will be) instead of the system.
relink_absolute() {
  local l t
  while IFS= read -r -d '' l; do
    t=$(readlink "$l")
    if [ -e "$1$t" ] || [ -L "$1$t" ]; then ln -sfn "$2$t" "$l"; fi
  done < <(find "$1" -type l -lname '/*' -print0)
}
# jar_closure ROOT: the jars named on stdin (absolute paths as on the system), then, breadth first,
# those their manifests' Class-Path names, each once; looked up under ROOT.
jar_closure() {
  local j e
  local -A seen=()
  local queue=()
  mapfile -t queue
  while [ ${#queue[@]} -gt 0 ]; do
    j=${queue[0]}
    queue=("${queue[@]:1}")
    if [ -z "$j" ] || [ -n "${seen[$j]:-}" ]; then continue; fi
    seen[$j]=1
    echo "$j"
    [ -f "$1$j" ] || continue
    while read -r e; do
      case "$e" in
        /*) queue+=("$e") ;;
        ?*) queue+=("$(dirname "$j")/$e") ;;
      esac
    done < <(unzip -p "$1$j" META-INF/MANIFEST.MF 2>/dev/null | tr -d '\r' | awk '
      /^Class-Path:/ { cp = substr($0, 13); inside = 1; next }
      inside && /^ / { cp = cp substr($0, 2); next }
      { inside = 0 }
      END { n = split(cp, a, " "); for (i = 1; i <= n; i++) print a[i] }')
  done
}
# get_patchelf DIR: prints the path of a patchelf: the system's, else bookworm's unpacked into DIR
# (only unpacked; it runs on the system's libraries).
get_patchelf() {
  if command -v patchelf; then return 0; fi
  mkdir -p "$1"
  download_debs "$1" patchelf/bookworm >&2
  unpack_debs "$1" "$1/root"
  echo "$1/root/usr/bin/patchelf"
}
is_elf() { [ "$(head -c4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }

# Bazel: sid's bazel-bootstrap in $cache/bazel-debian/VERSION, made self-contained.
install_bazel_private() {
  local version final staging tmp pe f old jdk interp libdirs n
  command -v unzip >/dev/null || die "unzip is needed (to read the manifests of Debian's jars): sudo $0 base"
  # Installed by the run this one waited for?
  if [ -n "${lock_waited:-}" ] && [ -f "$cache/bazel-debian/current/.complete" ] && "$cache/bazel-debian/current/bin/bazel" --version >/dev/null 2>&1; then
    say "Bazel is already in $(cd -P "$cache/bazel-debian/current" && pwd)"
    return 0
  fi
  remove_stale "$cache/bazel-debian"
  private_apt_update
  version=$(papt apt-cache policy bazel-bootstrap | awk '/Candidate:/ {print $2}')
  case "$version" in
    7.7.*) ;;
    *) die "Debian sid's bazel-bootstrap is '$version', not 7.7.x as .bazelversion wants" ;;
  esac
  final="$cache/bazel-debian/$version"
  if [ -f "$final/.complete" ]; then
    say "Bazel $version is already in $final"
    replace_link "$version" "$cache/bazel-debian/current"
    return 0
  fi
  rm -rf "$final"
  mkdir -p "$cache/bazel-debian"
  staging=$(mktemp -d "$cache/bazel-debian/.staging.XXXXXX")
  tmp=$(mktemp -d)
  # shellcheck disable=SC2064 # expand now: these are this run's directories
  trap "rm -rf '$staging' '$tmp'" EXIT
  local roots=(bazel-bootstrap bazel-rules-shell openjdk-21-jdk-headless) pkgs
  mapfile -t pkgs < <(sid_closure "${roots[@]}")
  [ ${#pkgs[@]} -gt 20 ] || die "could not work out the packages sid's Bazel needs (got: ${pkgs[*]})"
  say "downloading Bazel $version from Debian sid with OpenJDK 21 and the libraries they load: ${#pkgs[@]} packages (${pkgs[*]/%/\/sid})" 2>&1 | cut -c1-400 >&2
  mkdir -p "$tmp/debs" "$tmp/tools"
  download_debs "$tmp/debs" "${pkgs[@]/%//sid}"
  say "unpacking them into $final (not installing: dpkg-deb -x)"
  unpack_debs "$tmp/debs" "$staging/root"
  pe=$(get_patchelf "$tmp/tools")
  relink_absolute "$staging/root" "$final/root"
  jdk=usr/lib/jvm/java-21-openjdk-amd64
  { [ -x "$staging/root/usr/bin/bazel" ] && [ -x "$staging/root/$jdk/bin/java" ]; } || die "sid's packages did not bring usr/bin/bazel and $jdk/bin/java"
  # Programs run with the prefix's loader; every program and every library with a search path of
  # its own (OpenJDK's $ORIGIN) looks in the prefix first. DT_RPATH, not RUNPATH: a program's RPATH
  # also serves the libraries it loads later (Bazel's JNI library, unpacked from its jar at run time).
  interp="$final/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  [ -f "$staging/root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ] || die "sid's libc6 has no usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  libdirs="$final/root/usr/lib/x86_64-linux-gnu:$final/root/lib/x86_64-linux-gnu"
  n=0
  while IFS= read -r -d '' f; do
    is_elf "$f" || continue
    case "$f" in */ld-linux-x86-64.so.2 | */libc.so.6) continue ;; esac
    old=$("$pe" --print-rpath "$f" 2>/dev/null) || continue
    if "$pe" --print-interpreter "$f" >/dev/null 2>&1; then
      "$pe" --set-interpreter "$interp" --force-rpath --set-rpath "${old:+$old:}$libdirs" "$f"
      n=$((n + 1))
    elif [ -n "$old" ]; then
      "$pe" --force-rpath --set-rpath "$old:$libdirs" "$f"
      n=$((n + 1))
    fi
  done < <(find "$staging/root/usr/bin" "$staging/root/usr/libexec" "$staging/root/$jdk/" -type f -print0)
  say "pointed $n programs and libraries at the prefix's glibc ($interp)"
  # The server's classpath names Debian's jars by absolute path, and those jars name the jars they
  # need in their manifests' Class-Path, also by absolute path (/usr/share/java/...), which the JVM
  # looks up on the system: the classpath gets the whole closure, with paths into the prefix.
  local cp="$staging/root/usr/share/bazel/bazel_classpath_debian_depends.txt"
  jar_closure "$staging/root" <"$cp" | sed "s|^/usr/|$final/root/usr/|" >"$cp.new"
  say "the Bazel server's classpath: $(wc -l <"$cp") jars named by Debian, $(wc -l <"$cp.new") with the jars their manifests name"
  mv "$cp.new" "$cp"
  # Debian's /etc/bazel/bazelrc, for the prefix: the startup options go on the wrapper's command line.
  mkdir -p "$staging/etc/bazel" "$staging/bin"
  grep -v '^startup ' "$staging/root/etc/bazel/bazelrc" | sed "s|/usr/share/bazel/|$final/root/usr/share/bazel/|g" >"$staging/etc/bazel/bazelrc"
  cat >"$staging/bin/bazel" <<WRAP
#!/bin/sh
# Bazel $version from Debian sid, in a private prefix made by rules_cuda_go's tools/install-debian.sh.
# It runs on the prefix's own glibc and OpenJDK 21; nothing outside $final was installed.
# Debian's /etc/bazel/bazelrc, with paths into the prefix, is $final/etc/bazel/bazelrc;
# with RULES_CUDA_GO_DEBIAN_BAZELRC=0 (set by ./bazelw, which writes the module overrides into
# .bazelrc.offline itself) it is left out. Uninstall: rm -rf $final
p='$final'
if [ "\${RULES_CUDA_GO_DEBIAN_BAZELRC:-1}" = 0 ]; then
  exec "\$p/root/usr/bin/bazel" --install_base="\$p/root/usr/share/bazel" --trust_install_base --server_javabase="\$p/root/$jdk" "\$@"
fi
exec "\$p/root/usr/bin/bazel" --install_base="\$p/root/usr/share/bazel" --trust_install_base --server_javabase="\$p/root/$jdk" --bazelrc="\$p/etc/bazel/bazelrc" "\$@"
WRAP
  chmod +x "$staging/bin/bazel"
  mv -T "$staging" "$final" || die "could not move the prefix into $final"
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  # Trusted CAs for the Bazel server's downloads: the system's (ca-certificates, with any local ones).
  update_java_cacerts "$final"
  local exe missing
  for exe in usr/bin/bazel usr/libexec/x86_64-linux-gnu/bazel/process-wrapper usr/libexec/x86_64-linux-gnu/bazel/linux-sandbox \
    usr/libexec/x86_64-linux-gnu/bazel/daemonize usr/libexec/x86_64-linux-gnu/bazel/build-runfiles $jdk/bin/java; do
    missing=$(LD_TRACE_LOADED_OBJECTS=1 "$final/root/$exe" 2>&1 | grep -v "=> $final/" | grep -v -e linux-vdso -e "^[[:space:]]*$final/" || true)
    [ -z "$missing" ] || die "$exe would load libraries from outside the prefix: $missing"
  done
  "$final/bin/bazel" --version >/dev/null || die "$final/bin/bazel --version failed"
  touch "$final/.complete"
  replace_link "$version" "$cache/bazel-debian/current"
  rm -rf "$tmp"
  trap - EXIT
  say "Bazel $("$final/bin/bazel" --version | awk '{print $2}') is in $final ($(du -sh "$final" | cut -f1)); run it as $cache/bazel-debian/current/bin/bazel"
}

# update_java_cacerts PREFIX: the JDK's trust store from /etc/ssl/certs/ca-certificates.crt (remade
# by bazelw when that file is newer). OpenJDK's own lib/security/cacerts is a link to a file that
# sid's ca-certificates-java would make in /etc.
update_java_cacerts() {
  local jdk="$1/root/usr/lib/jvm/java-21-openjdk-amd64" src=/etc/ssl/certs/ca-certificates.crt t n
  [ -r "$src" ] || die "$src is missing: install ca-certificates (sudo $0 base)"
  t=$(mktemp -d)
  cat >"$t/Cacerts.java" <<'JAVA'
import java.io.*;
import java.security.KeyStore;
import java.security.cert.*;

public class Cacerts {
  public static void main(String[] args) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    int n = 0;
    try (InputStream in = new BufferedInputStream(new FileInputStream(args[0]))) {
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        ks.setCertificateEntry("system-ca-" + n++, c);
      }
    }
    try (OutputStream out = new FileOutputStream(args[1])) {
      ks.store(out, "changeit".toCharArray());
    }
    // The JDK reads its default trust store without a password: check that it can.
    KeyStore check = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(args[1])) {
      check.load(in, null);
    }
    int trusted = 0;
    for (String a : java.util.Collections.list(check.aliases())) {
      if (check.isCertificateEntry(a)) trusted++;
    }
    if (trusted != n) throw new IllegalStateException(trusted + " of " + n + " certificates readable without a password");
    System.out.println(n);
  }
}
JAVA
  # Unencrypted certificates and no MAC, like the JDK's own cacerts: the JDK opens it without a password.
  n=$("$jdk/bin/java" -Xshare:auto -Dkeystore.pkcs12.certProtectionAlgorithm=NONE -Dkeystore.pkcs12.macAlgorithm=NONE \
    "$t/Cacerts.java" "$src" "$t/cacerts") || { rm -rf "$t"; die "could not make the Java trust store from $src"; }
  rm -f "$jdk/lib/security/cacerts"
  mv "$t/cacerts" "$jdk/lib/security/cacerts"
  rm -rf "$t"
  say "Java trust store: $n certificates from $src"
}

# Go: sid's golang-1.26-go in $cache/go-debian/VERSION.
install_go_private() {
  local version final staging tmp
  # Installed by the run this one waited for?
  if [ -n "${lock_waited:-}" ] && "$cache/go-debian/current/bin/go" version >/dev/null 2>&1; then
    say "Go is already in $(cd -P "$cache/go-debian/current/../../.." && pwd)"
    return 0
  fi
  remove_stale "$cache/go-debian"
  private_apt_update
  version=$(papt apt-cache policy golang-1.26-go | awk '/Candidate:/ {print $2}')
  final="$cache/go-debian/$version"
  if [ ! -x "$final/usr/lib/go-1.26/bin/go" ]; then
    mkdir -p "$cache/go-debian"
    staging=$(mktemp -d "$cache/go-debian/.staging.XXXXXX")
    tmp=$(mktemp -d)
    say "downloading Go 1.26 ($version) from Debian sid (golang-1.26-go, golang-1.26-src) into $final"
    download_debs "$tmp" golang-1.26-go/sid golang-1.26-src/sid
    unpack_debs "$tmp" "$staging"
    rm -rf "$tmp" "$final"
    mv -T "$staging" "$final"
  fi
  "$final/usr/lib/go-1.26/bin/go" version >/dev/null || die "$final/usr/lib/go-1.26/bin/go does not run"
  replace_link "$version/usr/lib/go-1.26" "$cache/go-debian/current"
  say "Go $("$final/usr/lib/go-1.26/bin/go" env GOVERSION) is in $final; GOROOT $cache/go-debian/current"
}

# CUDA 12: sid's non-free nvidia-cuda-toolkit, arranged as a CUDA root in $cache/cuda-debian-sid/VERSION.
# Debian spreads the toolkit over /usr/bin, /usr/lib/nvidia-cuda-toolkit, /usr/include and
# /usr/lib/x86_64-linux-gnu, and its nvcc.profile names those absolute paths; unpacked elsewhere, the
# files are moved to the layout of NVIDIA's own installs (bin/, nvvm/bin, nvvm/libdevice, include/,
# lib64/, lib64/stubs) and bin/nvcc.profile finds everything relative to nvcc, so the root works
# wherever it is, as CUDA_PATH.
# What .complete holds; a toolkit unpacked by an earlier version of this function is made again.
cuda_sid_layout="rules_cuda_go cuda-sid layout 2"
install_cuda_sid_private() {
  local version final staging tmp pkgs u deb
  # Installed by the run this one waited for?
  if [ -n "${lock_waited:-}" ] && [ "$(cat "$cache/cuda-debian-sid/current/.complete" 2>/dev/null)" = "$cuda_sid_layout" ]; then
    say "the CUDA toolkit of Debian sid is already in $(cd -P "$cache/cuda-debian-sid/current" && pwd)"
    return 0
  fi
  remove_stale "$cache/cuda-debian-sid"
  private_apt_update "main contrib non-free"
  version=$(papt apt-cache policy nvidia-cuda-toolkit | awk '/Candidate:/ {print $2}')
  [ -n "$version" ] && [ "$version" != "(none)" ] || die "Debian sid has no nvidia-cuda-toolkit (non-free) in $mirror"
  final="$cache/cuda-debian-sid/$version"
  if [ "$(cat "$final/.complete" 2>/dev/null)" = "$cuda_sid_layout" ]; then
    say "the CUDA toolkit of Debian sid ($version) is already in $final"
    replace_link "$version" "$cache/cuda-debian-sid/current"
    return 0
  fi
  # The toolkit, the development package (headers, static runtime, link names, stubs) and, of the
  # libraries it depends on, the runtime, NVRTC, NVVM, nvJitLink, NVTX, CCCL and the math libraries
  # the @cuda hub names; never the driver (libcuda1, libnvidia-*).
  mapfile -t pkgs < <(papt apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances nvidia-cuda-dev 2>/dev/null | awk '$1 == "Depends:" && $2 !~ /^</ {print $2}' |
    grep -E '^(libcudart|libnvrtc|libnvvm|libnvjitlink|libnvtoolsext|libcublas[0-9]|libcublaslt|libcufft[0-9]|libcurand|libcusparse|libcusolver[0-9]|libthrust-dev|libcub-dev|libcu\+\+-dev)' | sort -u)
  [ ${#pkgs[@]} -ge 12 ] || die "could not work out the library packages of sid's nvidia-cuda-dev (got: ${pkgs[*]})"
  pkgs+=(nvidia-cuda-toolkit nvidia-cuda-dev)
  mkdir -p "$cache/cuda-debian-sid"
  staging=$(mktemp -d "$cache/cuda-debian-sid/.staging.XXXXXX")
  tmp=$(mktemp -d "$cache/cuda-debian-sid/.debs.XXXXXX")
  # shellcheck disable=SC2064 # expand now: these are this run's directories
  trap "rm -rf '$staging' '$tmp'" EXIT
  say "downloading the CUDA toolkit $version from Debian sid non-free: ${pkgs[*]/%/\/sid}"
  download_debs "$tmp" "${pkgs[@]/%//sid}"
  say "unpacking them into $final (not installing: dpkg-deb -x; of nvidia-cuda-dev, no static math library)"
  for deb in "$tmp"/*.deb; do
    case "$(basename "$deb")" in
      nvidia-cuda-dev_*)
        # 2.5 GB unpacked, 2 GB of it static math libraries: only headers, link names and the runtime.
        dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$staging" --wildcards --no-wildcards-match-slash \
          './usr/include/*' './usr/lib/x86_64-linux-gnu/*.so' './usr/lib/x86_64-linux-gnu/stubs/*' \
          './usr/lib/x86_64-linux-gnu/libcudart_static.a' './usr/lib/x86_64-linux-gnu/libcudadevrt.a' \
          './usr/lib/x86_64-linux-gnu/libculibos.a' || die "could not unpack $deb" ;;
      *) dpkg-deb -x "$deb" "$staging" ;;
    esac
  done
  u="$staging/usr"
  local root="$staging/root" t
  mkdir -p "$root/bin" "$root/nvvm/bin" "$root/nvvm/lib64" "$root/nvvm/include" "$root/lib64"
  [ -x "$u/lib/nvidia-cuda-toolkit/bin/nvcc" ] && [ -x "$u/lib/nvidia-cuda-toolkit/bin/cicc" ] ||
    die "sid's nvidia-cuda-toolkit has no usr/lib/nvidia-cuda-toolkit/bin/nvcc and cicc"
  mv "$u/lib/nvidia-cuda-toolkit/bin/nvcc" "$u/lib/nvidia-cuda-toolkit/bin/crt" "$root/bin/"
  for t in ptxas fatbinary nvlink cudafe++ bin2c cuobjdump nvdisasm nvprune cu++filt; do
    [ -x "$u/bin/$t" ] || die "sid's nvidia-cuda-toolkit has no usr/bin/$t"
    mv "$u/bin/$t" "$root/bin/"
  done
  mv "$u/lib/nvidia-cuda-toolkit/bin/cicc" "$root/nvvm/bin/"
  mv "$u/lib/nvidia-cuda-toolkit/libdevice" "$root/nvvm/"
  [ ! -f "$u/include/nvvm.h" ] || mv "$u/include/nvvm.h" "$root/nvvm/include/"
  mv "$u/include" "$root/include"
  mv "$u/lib/x86_64-linux-gnu"/* "$root/lib64/"
  mv "$root/lib64"/libnvvm.so* "$root/nvvm/lib64/"
  # Link names of libraries left out (static math libraries' companions, NPP, nvJPEG, ...) would
  # dangle: remove them, so that the toolkit does not seem to have those libraries.
  find "$root/lib64" -xtype l -delete
  # NVIDIA's libraries find the files they open themselves (NVRTC its builtins, cuSOLVER cuBLAS) in
  # their own directory through the run path $ORIGIN, which Debian removes: put it back.
  local pe f n=0
  pe=$(get_patchelf "$tmp/tools")
  while IFS= read -r -d '' f; do
    is_elf "$f" || continue
    # shellcheck disable=SC2016 # $ORIGIN is for the dynamic loader
    "$pe" --set-rpath '$ORIGIN' "$f"
    n=$((n + 1))
  done < <(find "$root/lib64" "$root/nvvm/lib64" -maxdepth 1 -type f -name 'lib*.so*' -print0)
  say "run path \$ORIGIN set on $n libraries"
  rm -rf "$tmp"
  cat >"$root/bin/nvcc.profile" <<'PROFILE'
# Written by rules_cuda_go's tools/install-debian.sh: Debian's toolkit in NVIDIA's layout.
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
PROFILE
  "$root/bin/nvcc" --version >/dev/null || die "$root/bin/nvcc --version failed"
  rm -rf "$final"
  mv -T "$root" "$final" || die "could not move the toolkit into $final"
  rm -rf "$staging"
  trap - EXIT
  echo "$cuda_sid_layout" >"$final/.complete"
  replace_link "$version" "$cache/cuda-debian-sid/current"
  say "CUDA $("$final/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p') from Debian sid is in $final ($(du -sh "$final" | cut -f1)); use it with CUDA_PATH=$final and --cuda_version=local"
}

if [ $want_base -eq 1 ] || [ $want_clangd -eq 1 ] || [ $want_qemu -eq 1 ] || [ $want_cuda -eq 1 ] || [ $want_bazel_system -eq 1 ]; then
  system_install
fi
# The private installs share the apt state in $apt_dir and the prefixes under $cache: one run at a time.
[ $((want_bazel + want_go + want_cuda_sid + want_cacerts)) -eq 0 ] || hold_lock "$cache/locks/install-debian.lock" "Bazel, Go or CUDA into $cache"
[ $want_bazel -eq 0 ] || install_bazel_private
[ $want_go -eq 0 ] || install_go_private
[ $want_cuda_sid -eq 0 ] || install_cuda_sid_private
[ $want_cacerts -eq 0 ] || update_java_cacerts "$(cd -P "$cache/bazel-debian/current" && pwd)"
# The private apt state (package lists, ~60 MB) is only needed while installing.
if [ $((want_bazel + want_go + want_cuda_sid)) -gt 0 ]; then rm -rf "$apt_dir"; fi
say "done"
