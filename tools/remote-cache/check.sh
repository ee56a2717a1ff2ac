#!/usr/bin/env bash
# tools/remote-cache/check.sh: proves that the build is remote-cacheable across checkouts.
#
#   tools/remote-cache/check.sh [TARGET_PATTERN...]
#
# The default targets are //ops/cuda:all (every kernel of the library, its Go package and test),
# //ops/examples/square:all (an op built on it) and //tests/cuda:rdc_main (relocatable device code,
# so that an NvccDeviceLink action is checked too): every kind of action, in less CI time than
# //ops/... (whose benchmarks and JIT add only more of the same kinds).
#
# 1. Builds bazel-remote (the version pinned by tools/remote-cache/go.mod's tool directive) into
#    ${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/bin, unless it is there at that version already;
#    vets, tests and builds the log checker cmd/cachehits.
# 2. Starts it on 127.0.0.1 (free ports, cache directory in a temp dir; stopped on exit).
# 3. Clones this repository's HEAD twice, to two different temp paths, and builds the targets in
#    clone A (cold: fills the cache) and then in clone B, each with its own fresh --output_base, no
#    disk cache and --remote_cache=grpc://127.0.0.1:PORT, writing an execution log.
# 4. Checks clone B's log with cmd/cachehits: every nvcc action (Nvcc*), GoCompilePkg,
#    GoStdlib and link/archive spawn (GoLink, CppLink, CppArchive) must be a remote cache hit.
#    Misses are printed with their mnemonic, target and output, and what differs from the same
#    spawn in clone A; the exit status is then 1. Also prints Bazel's process summaries and the
#    wall times of both builds.
#
# Environment: REMOTE_CACHE_CHECK_KEEP=1 keeps the temp dir (clones, output bases, logs);
# REMOTE_CACHE_CHECK_REQUIRE overrides the regular expression of required mnemonics.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
targets=("$@")
# Mnemonics the default targets must produce: the check fails if one is absent.
expect=
if [ ${#targets[@]} -eq 0 ]; then
  targets=(//ops/cuda:all //ops/examples/square:all //tests/cuda:rdc_main)
  expect=NvccPtx,NvccSass,NvccHostAsm,NvccHost,NvccDeviceLink,GoStdlib,GoCompilePkg,GoLink,CppLink,CppArchive
fi
# Go: on PATH, or where ./bazelw installs it (the places toolchains/private/find_go.sh lists).
PATH="$PATH:$("$root/toolchains/private/find_go.sh" --path)"
export PATH

say() { echo "remote-cache: $*"; }
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/remote-cache-check.XXXXXX")
server_pid=
cleanup() {
  local status=$?
  set +e
  [ -z "$server_pid" ] || { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; }
  for c in a b; do
    [ -d "$tmp/ob-$c" ] && [ -x "$tmp/$c/bazelw" ] &&
      (cd "$tmp/$c" && BAZELW_QUIET=1 ./bazelw --output_base="$tmp/ob-$c" shutdown >/dev/null 2>&1)
  done
  if [ -n "${REMOTE_CACHE_CHECK_KEEP:-}" ]; then
    say "kept $tmp"
  else
    chmod -R u+w "$tmp" 2>/dev/null
    rm -rf "$tmp"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. bazel-remote at the pinned version, and the log checker. This directory is a Go module of its
# own, outside the repository's go.work.
export GOWORK=off
module=github.com/buchgr/bazel-remote/v2
bindir=${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/bin
want=$(cd "$here" && go list -m -f '{{.Version}}' "$module")
have=$(go version -m "$bindir/bazel-remote" 2>/dev/null | awk -v m="$module" '$1 == "mod" && $2 == m { print $3 }' || true)
if [ "$have" != "$want" ]; then
  # In a subshell: the lock (one build into $bindir at a time) must not pass to the servers started below.
  (
    # shellcheck source=tools/bazelw/lock.sh
    . "$here/../bazelw/lock.sh"
    hold_lock "$bindir/.bazel-remote.lock" "bazel-remote"
    have=$(go version -m "$bindir/bazel-remote" 2>/dev/null | awk -v m="$module" '$1 == "mod" && $2 == m { print $3 }' || true)
    if [ "$have" != "$want" ]; then
      say "building bazel-remote $want into $bindir (a few minutes the first time)"
      mkdir -p "$bindir"
      (cd "$here" && go build -o "$bindir/bazel-remote.tmp" "$module")
      mv "$bindir/bazel-remote.tmp" "$bindir/bazel-remote"
    fi
  )
fi
# The log checker: vetted and tested here (the root module's go vet does not cover this module).
(cd "$here" && go vet ./... && go test -count=1 ./... && go build -o "$tmp/cachehits" ./cmd/cachehits)

# 2. Start it on free loopback ports (retrying if another process takes a port first).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    port_free "$p" && echo "$p" && return
  done
}
grpc_port=
for attempt in 1 2 3 4 5; do
  grpc_port=$(free_port)
  http_port=$(free_port)
  [ "$http_port" != "$grpc_port" ] || continue
  "$bindir/bazel-remote" --dir "$tmp/cache" --max_size 20 \
    --grpc_address "127.0.0.1:$grpc_port" --http_address "127.0.0.1:$http_port" \
    >"$tmp/bazel-remote.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    kill -0 "$server_pid" 2>/dev/null || break
    port_free "$grpc_port" || break 2
    sleep 0.1
  done
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
  say "bazel-remote did not start on 127.0.0.1:$grpc_port (attempt $attempt):"
  tail -n 5 "$tmp/bazel-remote.log" || true
done
[ -n "$server_pid" ] || { say "error: could not start bazel-remote"; exit 1; }
say "bazel-remote $want: pid $server_pid, grpc://127.0.0.1:$grpc_port, cache in $tmp/cache"

# 3. Two clones of HEAD at different paths, each with a fresh output base and no disk cache.
say "cloning $(git -C "$root" rev-parse --short HEAD) to $tmp/a and $tmp/b"
git clone --quiet "$root" "$tmp/a"
git clone --quiet "$root" "$tmp/b"

# Each clone's ./bazelw prepares the offline module overrides (where bcr.bazel.build is unreachable):
# into a cache of this run's own, so that it never rewrites the shared one under another build.
export RULES_CUDA_GO_CACHE="$tmp/rules_cuda_go"

declare -A wall
build() {
  local c=$1 t0 t1
  say "clone $c: bazel build ${targets[*]}"
  t0=$(now)
  (
    cd "$tmp/$c"
    ./bazelw --output_base="$tmp/ob-$c" build \
      --remote_cache="grpc://127.0.0.1:$grpc_port" --disk_cache= \
      --execution_log_json_file="$tmp/exec-$c.json" \
      --show_progress_rate_limit=30 --color=no --curses=no \
      "${targets[@]}"
  ) 2>&1 | tee "$tmp/build-$c.log"
  t1=$(now)
  wall[$c]=$(seconds "$t0" "$t1")
  # Free the memory and cores of this server before the next build.
  (cd "$tmp/$c" && BAZELW_QUIET=1 ./bazelw --output_base="$tmp/ob-$c" shutdown)
}
build a
build b

# 4. Report and check.
echo
say "clone A (cold, fills the cache): ${wall[a]} s wall"
grep -E '^INFO: ([0-9]+ process|Elapsed time)' "$tmp/build-a.log" | sed 's/^/  A: /' || true
say "clone B (fresh output base, warm remote cache): ${wall[b]} s wall"
grep -E '^INFO: ([0-9]+ process|Elapsed time)' "$tmp/build-b.log" | sed 's/^/  B: /' || true
echo
say "clone B's execution log ($tmp/exec-b.json), compared with clone A's:"
require=()
[ -z "${REMOTE_CACHE_CHECK_REQUIRE:-}" ] || require=(-require "$REMOTE_CACHE_CHECK_REQUIRE")
"$tmp/cachehits" "${require[@]}" -expect "$expect" -against "$tmp/exec-a.json" "$tmp/exec-b.json"
