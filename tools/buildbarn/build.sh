#!/usr/bin/env bash
# build.sh: builds Buildbarn's bb_storage, bb_scheduler, bb_worker and bb_runner at the versions
# pinned in this directory's go.mod/go.sum, from the Go module proxy, into
#   ${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/buildbarn/bin
# (override with BB_CACHE_DIR). Does nothing when the binaries there were built from the same
# go.mod, go.sum, patch list and Go version; BB_REBUILD=1 forces a rebuild.
#
# `go install module@version` cannot build Buildbarn (its go.mod files carry replace directives), so
# this module names the four commands with `tool` directives and builds them with `go build`.
# Buildbarn's own Bazel build patches some of its Go dependencies, and two of those patches are
# needed to compile; build.sh applies them the same way: it copies the pristine module out of the
# Go module cache into the cache directory above, applies the .diff files that Buildbarn ships inside
# its own modules, and points a generated go.work (also there) at the copy with `replace`. Nothing
# of Buildbarn's own sources is changed, and nothing is written into the repository.
#
# Needs Go >= 1.24 (where toolchains/private/find_go.sh looks), `patch`, and the Go module proxy.
# A cold build takes about 10 minutes on 2 cores.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${BB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/buildbarn}
bin=$cache/bin

say() { echo "buildbarn/build.sh: $*" >&2; }
die() {
  echo "buildbarn/build.sh: error: $*" >&2
  exit 1
}

# The commands to build: package path and binary name.
tools=(
  github.com/buildbarn/bb-storage/cmd/bb_storage
  github.com/buildbarn/bb-remote-execution/cmd/bb_scheduler
  github.com/buildbarn/bb-remote-execution/cmd/bb_worker
  github.com/buildbarn/bb-remote-execution/cmd/bb_runner
)

# Buildbarn's patches to its Go dependencies, as its MODULE.bazel files apply them (patch -p0):
#   patched module | module shipping the patch | patch path inside that module
# Needed to compile: go-fuse (bb_worker's FUSE code uses API the patches add; bb_worker links it
# even when only native build directories are configured) and the bytestream registrar (bb_storage
# registers ByteStream on a grpc.ServiceRegistrar). go-grpc-prometheus: metric bookkeeping only,
# applied to match Buildbarn's build. Not applied: x/sys o-search.diff (darwin constants only),
# x/oauth2 injectable-clock.diff (a test hook), x/lint and go.uber.org/mock (development tools).
patches=(
  "github.com/hanwen/go-fuse/v2|github.com/buildbarn/bb-remote-execution|patches/com_github_hanwen_go_fuse_v2/direntrylist-offsets-and-testability.diff"
  "github.com/hanwen/go-fuse/v2|github.com/buildbarn/bb-remote-execution|patches/com_github_hanwen_go_fuse_v2/writeback-cache.diff"
  "github.com/hanwen/go-fuse/v2|github.com/buildbarn/bb-remote-execution|patches/com_github_hanwen_go_fuse_v2/notify-testability.diff"
  "google.golang.org/genproto/googleapis/bytestream|github.com/buildbarn/bb-storage|patches/org_golang_google_genproto_googleapis_bytestream/service-registrar.diff"
  "github.com/grpc-ecosystem/go-grpc-prometheus|github.com/buildbarn/bb-storage|patches/com_github_grpc_ecosystem_go_grpc_prometheus/client-metrics-prevent-handled-twice.diff"
)

# --- Go -----------------------------------------------------------------------------------------
go_bin=$("$here/../../toolchains/private/find_go.sh") || die "no Go >= 1.24 (tool directives) found: toolchains/private/find_go.sh says where it looked"
go_version=$("$go_bin" env GOVERSION)
command -v patch >/dev/null || die "patch(1) is needed to apply Buildbarn's patches (Debian: apt-get install patch)"

# Build with this module's go.mod/go.sum only: no toolchain switch, no go.mod edits, the user's
# GOFLAGS and workspace ignored. remote-apis and Buildbarn's pseudo-versions are not in the checksum
# database; go.sum pins their hashes.
export GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0
export GONOSUMDB=github.com/buildbarn,github.com/bazelbuild/remote-apis${GONOSUMDB:+,$GONOSUMDB}
export GOWORK=off
gox() { (cd "$here" && "$go_bin" "$@"); }

# --- Up to date? --------------------------------------------------------------------------------
stamp=$( (
  cat "$here/go.mod" "$here/go.sum"
  printf '%s\n' "${patches[@]}" "${tools[@]}" "$go_version" "CGO_ENABLED=$CGO_ENABLED"
) | sha256sum | cut -d' ' -f1)
names=()
for t in "${tools[@]}"; do names+=("${t##*/}"); done
up_to_date() {
  local n
  [ "$(cat "$bin/.stamp" 2>/dev/null || true)" = "$stamp" ] || return 1
  for n in "${names[@]}"; do [ -x "$bin/$n" ] || return 1; done
}
if [ -z "${BB_REBUILD:-}" ] && up_to_date; then
  say "up to date: ${names[*]} in $bin"
  exit 0
fi
# One build at a time into $cache (a second run waits, then finds the binaries built).
# shellcheck source=tools/bazelw/lock.sh
. "$here/../bazelw/lock.sh"
hold_lock "$cache/.build.lock" "Buildbarn's binaries"
if [ -z "${BB_REBUILD:-}" ] && up_to_date; then
  say "up to date: ${names[*]} in $bin (built by the run this one waited for)"
  exit 0
fi

mod_version() { gox list -m -f '{{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}' "$1"; }
# mod_field MODULE FIELD: a field (Dir, GoMod) of `go mod download -json` for the pinned version.
mod_field() { gox mod download -json "$1@$(mod_version "$1")" | sed -n 's/^[[:space:]]*"'"$2"'": "\(.*\)",$/\1/p'; }
mod_dir() { mod_field "$1" Dir; }

say "Buildbarn at $(mod_version github.com/buildbarn/bb-storage) (bb-storage), $(mod_version github.com/buildbarn/bb-remote-execution) (bb-remote-execution), with $go_version"
say "downloading modules (Go module proxy)"
gox mod download || die "go mod download failed (is the Go module proxy reachable? GOPROXY=$("$go_bin" env GOPROXY))"

# --- Patched copies of modules, and a go.work pointing at them -----------------------------------
mkdir -p "$cache/src" "$cache/work"
work=$cache/work/go.work
{
  echo "// Generated by tools/buildbarn/build.sh: this repository's tools/buildbarn module, with"
  echo "// Buildbarn's patches applied to copies of some dependencies."
  echo "go $(gox list -m -f '{{.GoVersion}}')"
  echo "use $here"
} >"$work.tmp"
for mod in $(printf '%s\n' "${patches[@]}" | cut -d'|' -f1 | sort -u); do
  ver=$(mod_version "$mod")
  [ -n "$ver" ] || die "$mod is not in the module graph of $here/go.mod"
  list=$(printf '%s\n' "${patches[@]}" | grep "^$mod|")
  key=$( (echo "$mod@$ver" && echo "$list") | sha256sum | cut -c1-12)
  dest=$cache/src/$(echo "$mod" | tr '/' '_')@$ver-patched-$key
  if [ ! -f "$dest/.patched" ]; then
    src=$(mod_dir "$mod")
    [ -d "$src" ] || die "could not download $mod@$ver"
    say "patching a copy of $mod@$ver"
    rm -rf "$dest" "$dest.tmp"
    cp -R "$src" "$dest.tmp"
    chmod -R u+w "$dest.tmp"
    while IFS='|' read -r _ from file; do
      diff_file=$(mod_dir "$from")/$file
      [ -f "$diff_file" ] || die "$from does not contain $file (was the pin changed?)"
      (cd "$dest.tmp" && patch -p0 --forward --batch --silent <"$diff_file") ||
        die "$file (from $from) does not apply to $mod@$ver"
    done <<<"$list"
    # A module from before Go modules (go-grpc-prometheus v1.2.0) has no go.mod, which a directory
    # replacement needs: use the one the proxy synthesizes for it.
    [ -f "$dest.tmp/go.mod" ] || cp "$(mod_field "$mod" GoMod)" "$dest.tmp/go.mod"
    touch "$dest.tmp/.patched"
    mv "$dest.tmp" "$dest"
  fi
  echo "replace $mod => $dest" >>"$work.tmp"
done
mv "$work.tmp" "$work"

# --- Build ---------------------------------------------------------------------------------------
say "building ${names[*]} (a cold build takes about 10 minutes on 2 cores)"
rm -rf "$bin.tmp"
mkdir -p "$bin.tmp"
(cd "$here" && GOWORK=$work "$go_bin" build -trimpath -o "$bin.tmp/" "${tools[@]}") ||
  die "go build failed (see above)"
for n in "${names[@]}"; do [ -x "$bin.tmp/$n" ] || die "go build wrote no $n"; done
echo "$stamp" >"$bin.tmp/.stamp"
rm -rf "$bin"
mv "$bin.tmp" "$bin"
say "built ${names[*]} in $bin"
