# shellcheck shell=bash disable=SC2154 # root, cache and debian_share are set by bazelw and find-tools.sh
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
  cp -r "$dir" "$3"
  chmod -R u+w "$3"
  # Module zips drop the executable bit; restore it on scripts.
  { grep -rlI '^#!' "$3" || true; } | xargs -r chmod +x
}

# publish STAGED DEST: moves a fully prepared directory into place in one rename. Several checkouts
# share the cache, and a Bazel server of another one may be reading DEST: a DEST that exists is
# complete (it was renamed into place whole) and is kept.
publish() {
  if [ -d "$2" ]; then
    chmod -R u+w "$1"
    rm -rf "$1"
  else
    mv -T "$1" "$2" 2>/dev/null || { chmod -R u+w "$1"; rm -rf "$1"; }
  fi
  [ -d "$2" ] || die "could not create $2"
}

prepare_offline() {
  # One directory per version, shared by every checkout and never rewritten once in place.
  local mods="$cache/modules" rgo gz fe staged
  rgo="$mods/rules_go@$rules_go_version"
  gz="$mods/gazelle@$gazelle_version"
  fe="$mods/bazel_features@debian+baseline_coverage${debian_share//\//_}"
  mkdir -p "$mods"
  if [ ! -d "$rgo" ] || [ ! -d "$gz" ]; then
    say "bcr.bazel.build is unreachable: preparing rules_go $rules_go_version and gazelle $gazelle_version from the Go module proxy in $mods"
    offline_tmp=$(mktemp -d)
    trap remove_offline_tmp EXIT
    if [ ! -d "$rgo" ]; then
      staged=$(mktemp -d "$mods/.staging.XXXXXX")
      fetch_go_module github.com/bazelbuild/rules_go "$rules_go_version" "$staged/m"
      publish "$staged/m" "$rgo"
      rmdir "$staged"
    fi
    if [ ! -d "$gz" ]; then
      staged=$(mktemp -d "$mods/.staging.XXXXXX")
      fetch_go_module github.com/bazelbuild/bazel-gazelle "$gazelle_version" "$staged/m"
      fetch_go_module github.com/bazel-contrib/bazel-gazelle/v2 "$gazelle_v2_version" "$staged/m/v2"
      touch "$staged/m/v2/go.sum"
      publish "$staged/m" "$gz"
      rmdir "$staged"
    fi
    remove_offline_tmp
    trap - EXIT
  fi
  if [ ! -d "$fe" ]; then
    # Debian's bazel_features lacks one field that rules_go 0.65.0 reads.
    [ -d "$debian_share/tools/features" ] || die "offline mode needs Debian's Bazel module copies in $debian_share (sid's bazel-bootstrap; tools/install-debian.sh bazel)"
    staged=$(mktemp -d "$mods/.staging.XXXXXX")
    cp -r "$debian_share/tools/features" "$staged/m"
    chmod -R u+w "$staged/m"
    grep -q instrumented_files_info_has_baseline_coverage_files "$staged/m/features.bzl" ||
      sed -i 's/^_rules = struct(/_rules = struct(\n    instrumented_files_info_has_baseline_coverage_files = False,/' "$staged/m/features.bzl"
    grep -q instrumented_files_info_has_baseline_coverage_files "$staged/m/features.bzl" ||
      die "could not add instrumented_files_info_has_baseline_coverage_files to $staged/m/features.bzl"
    publish "$staged/m" "$fe"
    rmdir "$staged"
  fi

  local tp="$root/third_party" sh=$debian_share m
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
    if [ "${RULES_CUDA_GO_DEBIAN_BAZELRC:-1}" = 0 ]; then
      # The private Bazel (tools/install-debian.sh) is run without its copy of Debian's
      # /etc/bazel/bazelrc, whose module overrides are these (bazel_features is the copy above).
      echo "common --override_module=platforms=$sh/tools/platforms"
      echo "common --override_module=rules_java=$sh/rules/java"
      echo "common --override_module=rules_cc=$sh/rules/cc"
      echo "common --override_module=bazel_skylib=$sh/tools/skylib"
      echo "common --override_module=rules_license=$sh/rules/license"
      echo "common --override_module=rules_python=$sh/rules/python"
      echo "common --override_module=rules_proto=$sh/rules/proto"
    fi
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
  } >"$offline_rc.tmp.$$"
  mv "$offline_rc.tmp.$$" "$offline_rc"
  say "wrote $offline_rc"
}

# offline_dirs_exist: whether every directory that .bazelrc.offline overrides a module or repository
# with exists (a removed cache leaves the file naming copies that are gone).
offline_dirs_exist() {
  local d
  while read -r d; do
    [ -d "$d" ] || return 1
  done < <(grep -oE -- '--override_(module|repository)=[^= ]+=[^ ]+' "$offline_rc" | sed -E 's/^[^=]+=[^=]+=//')
}

# ensure_offline_modules: nothing when .bazelrc.offline was prepared before for this checkout and these
# versions; removes it when the registry is reachable (or RULES_CUDA_GO_ONLINE is set); else prepares it.
ensure_offline_modules() {
  # Which Debian module copies and rc the Bazel found by find-tools.sh uses is part of the stamp.
  offline_stamp="offline-modules rules_go=$rules_go_version gazelle=$gazelle_version layout=5 debian=$debian_share debian_rc=${RULES_CUDA_GO_DEBIAN_BAZELRC:-1}"
  if [ -f "$offline_rc" ] && head -n1 "$offline_rc" | grep -qF "# $offline_stamp" &&
    grep -q "=$root/third_party/zlib\$" "$offline_rc" && offline_dirs_exist; then
    : # prepared before (for this checkout), and the module copies it names are still there
  elif [ -n "${RULES_CUDA_GO_ONLINE:-}" ] || reachable bcr.bazel.build; then
    rm -f "$offline_rc"
  else
    prepare_offline
  fi
}
