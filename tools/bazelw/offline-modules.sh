# shellcheck shell=bash disable=SC2154 # root and cache are set by bazelw
# Sourced by ../../bazelw: where bcr.bazel.build is unreachable, prepares rules_go and gazelle from the
# Go module proxy, the stand-in modules in third_party/ and Debian's module copies, and writes
# .bazelrc.offline (git-ignored, try-imported by .bazelrc). Uses say, die, reachable, root and cache
# from bazelw, and go on PATH.

# module_version NAME: the version MODULE.bazel's bazel_dep(name = "NAME", version = "X", ...) gives.
# MODULE.bazel is the one place the rules_go and gazelle versions are written.
module_version() {
  local v
  v=$(sed -n 's/^[[:space:]]*bazel_dep([[:space:]]*name[[:space:]]*=[[:space:]]*"'"$1"'"[[:space:]]*,[[:space:]]*version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' \
    "$root/MODULE.bazel" 2>/dev/null | head -n1)
  [ -n "$v" ] ||
    die "could not read $1's version from $root/MODULE.bazel (expected a line like: bazel_dep(name = \"$1\", version = \"1.2.3\", ...))"
  echo "$v"
}
rules_go_version=v$(module_version rules_go)
gazelle_version=v$(module_version gazelle)
# gazelle's go.work names ./v2, a nested module its zip leaves out; this is the version that fits gazelle v0.54.0.
gazelle_v2_version=v2.0.0-3
offline_rc="$root/.bazelrc.offline"
offline_stamp="offline-modules rules_go=$rules_go_version gazelle=$gazelle_version layout=3"

offline_tmp=
remove_offline_tmp() {
  [ -n "$offline_tmp" ] || return 0
  chmod -R u+w "$offline_tmp" 2>/dev/null || true
  rm -rf "$offline_tmp"
  offline_tmp=
}
# fetch_go_module MODULE VERSION DEST: MODULE@VERSION from the Go module proxy, copied to DEST.
fetch_go_module() {
  local dir out
  out=$(GOMODCACHE="$offline_tmp" GOFLAGS=-mod=mod go mod download -json "$1@$2" 2>&1) || true
  dir=$(printf '%s\n' "$out" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] && [ -d "$dir" ] ||
    die "could not download $1@$2 from the Go module proxy ($(go env GOPROXY)): $(printf '%s\n' "$out" | sed -n 's/^\t"Error": "\(.*\)"$/\1/p' | head -n1)"
  rm -rf "$3.tmp"
  cp -r "$dir" "$3.tmp"
  chmod -R u+w "$3.tmp"
  # Module zips drop the executable bit; restore it on scripts.
  { grep -rlI '^#!' "$3.tmp" || true; } | xargs -r chmod +x
  rm -rf "$3"
  mv "$3.tmp" "$3"
}

prepare_offline() {
  local mods="$cache/modules" rgo gz fe
  mkdir -p "$mods"
  say "bcr.bazel.build is unreachable: preparing rules_go $rules_go_version and gazelle $gazelle_version from the Go module proxy in $mods"
  offline_tmp=$(mktemp -d)
  trap remove_offline_tmp EXIT
  rgo="$mods/rules_go" gz="$mods/gazelle" fe="$mods/bazel_features"
  fetch_go_module github.com/bazelbuild/rules_go "$rules_go_version" "$rgo"
  fetch_go_module github.com/bazelbuild/bazel-gazelle "$gazelle_version" "$gz"
  fetch_go_module github.com/bazel-contrib/bazel-gazelle/v2 "$gazelle_v2_version" "$gz/v2"
  touch "$gz/v2/go.sum"
  remove_offline_tmp
  trap - EXIT
  # Debian's bazel_features lacks one field that rules_go 0.65.0 reads.
  [ -d /usr/share/bazel/tools/features ] || die "offline mode needs Debian's Bazel module copies in /usr/share/bazel (package bazel-bootstrap from sid)"
  rm -rf "$fe"
  cp -r /usr/share/bazel/tools/features "$fe"
  chmod -R u+w "$fe"
  grep -q instrumented_files_info_has_baseline_coverage_files "$fe/features.bzl" ||
    sed -i 's/^_rules = struct(/_rules = struct(\n    instrumented_files_info_has_baseline_coverage_files = False,/' "$fe/features.bzl"
  grep -q instrumented_files_info_has_baseline_coverage_files "$fe/features.bzl" ||
    die "could not add instrumented_files_info_has_baseline_coverage_files to $fe/features.bzl"

  local tp="$root/third_party" sh=/usr/share/bazel m
  {
    echo "# $offline_stamp"
    echo "# Written by ./bazelw because bcr.bazel.build was unreachable. Delete this file to re-check."
    echo "common --override_module=rules_go=$rgo"
    echo "common --override_module=gazelle=$gz"
    echo "common --override_module=bazel_features=$fe"
    echo "common --override_module=rules_shell=$sh/rules/shell"
    for m in zlib protobuf apple_support buildozer package_metadata; do
      echo "common --override_module=$m=$tp/$m"
    done
    echo "# WORKSPACE mode (--config=workspace): the same sources as local repositories."
    echo "common:workspace --override_repository=io_bazel_rules_go=$rgo"
    echo "common:workspace --override_repository=bazel_gazelle=$gz"
    echo "common:workspace --override_repository=bazel_features=$fe"
    echo "common:workspace --override_repository=bazel_skylib=$sh/tools/skylib"
    echo "common:workspace --override_repository=platforms=$sh/tools/platforms"
    echo "common:workspace --override_repository=rules_cc=$sh/rules/cc"
    echo "common:workspace --override_repository=rules_java=$sh/rules/java"
    echo "common:workspace --override_repository=rules_license=$sh/rules/license"
    echo "common:workspace --override_repository=rules_proto=$sh/rules/proto"
    echo "common:workspace --override_repository=rules_python=$sh/rules/python"
    echo "common:workspace --override_repository=rules_shell=$sh/rules/shell"
    echo "common:workspace --override_repository=package_metadata=$tp/package_metadata"
    echo "common:workspace --override_repository=com_google_protobuf=$tp/protobuf"
    echo "common:workspace --override_repository=zlib=$tp/zlib"
  } >"$offline_rc.tmp"
  mv "$offline_rc.tmp" "$offline_rc"
  say "wrote $offline_rc"
}

# ensure_offline_modules: nothing when .bazelrc.offline was prepared before for this checkout and these
# versions; removes it when the registry is reachable (or RULES_CUDA_GO_ONLINE is set); else prepares it.
ensure_offline_modules() {
  if [ -f "$offline_rc" ] && head -n1 "$offline_rc" | grep -qF "# $offline_stamp" &&
    grep -q "=$root/third_party/zlib\$" "$offline_rc"; then
    : # prepared before (for this checkout)
  elif [ -n "${RULES_CUDA_GO_ONLINE:-}" ] || reachable bcr.bazel.build; then
    rm -f "$offline_rc"
  else
    prepare_offline
  fi
}
