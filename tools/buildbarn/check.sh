#!/usr/bin/env bash
# tools/buildbarn/check.sh: remote execution on Buildbarn, checked end to end (a CI step). It also
# proves what tools/remote-cache/check.sh and .ci/determinism-check.sh prove, with the same builds:
# 100% remote cache hits from a second clone, and nvcc outputs that do not depend on where or when
# the checkout was made.
#
#   tools/buildbarn/check.sh [TARGET_PATTERN...]
#
# Default targets: //ops/... //tests/... (every kernel and op package, every test program under
# tests/; not the analysis tests of tests/rules), in -c opt (BB_CHECK_MODE=fastbuild|dbg
# picks another mode). Steps:
# 1. Vets and tests the log checkers (tools/remote-cache: cmd/remoteexec, cmd/cachehits) and builds
#    them. Starts Buildbarn (start.sh: $BB_WORKERS workers, default 2; binaries cached by build.sh)
#    on free loopback ports with a state directory of its own, so its CAS and action cache start
#    empty and every action of step 2 has to execute.
# 2. Clone A (this repository's HEAD, files dated 2001-01-01), fresh output base:
#      bazel build --config=buildbarn -c opt TARGETS --execution_log_json_file=remote.json
#    cmd/remoteexec: every spawn whose mnemonic starts with Nvcc (the split compile's NvccPtx,
#    NvccSass, NvccHostAsm, NvccHost; NvccCompile where a source is one action; NvccDeviceLink,
#    NvccDeviceImage) was executed by a Buildbarn worker in this build: not locally, not from a
#    cache; and there was at least one.
# 3. Clone B (another path, longer, files dated a day later), fresh output base, Buildbarn as a
#    remote cache only (--config=buildbarn with no executor, --remote_cache, nothing uploaded,
#    nothing downloaded that the build does not need: --remote_download_minimal):
#    cmd/cachehits: every Nvcc*, GoStdlib, GoCompilePkg, link and archive spawn is a remote cache
#    hit, and each of NvccPtx, NvccSass, NvccHostAsm, NvccHost, NvccDeviceLink, GoStdlib,
#    GoCompilePkg, GoLink, CppLink, CppArchive occurs (misses are explained against clone A's log).
# 4. Clone B again after `bazel clean` (its repositories stay), built locally under Bazel's
#    hermetic sandbox (--config=hermetic_sandbox) with one nvcc action per source
#    (--cuda_split=false), no remote; with the default targets, only what makes objects and
#    archives (cu_library, cc_library, cu_device_link, cu_device_image targets, less //tests/rules:
#    analysis tests of the split itself, which fail under --cuda_split=false; Go packages and
#    programs run no nvcc or archive action): cmd/remoteexec -local: every output of every Nvcc* and
#    CppArchive spawn of the remote build that this build makes too equals it, digest for digest,
#    and was made locally; every object and PIC archive (.o, .pic.a) must be among them (the
#    split's PTX, cubins and fatbins have no counterpart here, and the non-PIC archives that only
#    the remote build's program links asked for are packed from the same objects). The remote build ran in the workers' build
#    directories from clone A's files, this one in clone B's sandbox: other paths, other file
#    times, the split against one nvcc run (so the split's SASS and PTX are nvcc's own).
# Prints the wall time of each build and Bazel's process summaries; exits 1 if a check fails.
#
# Environment: BB_CHECK_KEEP=1 keeps the work directory (clones, output bases, logs, Buildbarn's
# state); BB_WORKERS and BB_CONCURRENCY as for start.sh; BB_CHECK_MODE as above. The work
# directory is under ${XDG_CACHE_HOME:-~/.cache}/rules_cuda_go (not /tmp, which Bazel's hermetic
# sandbox hides).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
targets=("$@")
mode=${BB_CHECK_MODE:-opt}
# Mnemonics whose spawns must run on Buildbarn, and whose outputs must equal the local build's.
remote_re='^Nvcc'
compare_re='^(Nvcc.*|CppArchive)$'
required_re='\.(o|pic\.a)$'
# What the default targets' cache-hit build must contain, so that its check cannot pass vacuously:
# the split compile's five steps, the device link, the Go standard library and packages, links and
# archives. (Whatever the targets, remoteexec fails on a log without nvcc spawns.)
expect=
local_targets=("${targets[@]}")
local_query=
if [ ${#targets[@]} -eq 0 ]; then
  # Not tests/rules' analysis tests (no action of their own; //tests:toolchains' would fetch the
  # other toolkits, clang and the aarch64 cross toolchain into both clones' output bases), nor the
  # test suites' members elsewhere (the Gazelle extension's, the tools', the benchmarks', the
  # models' Go tests): the kernels, op packages and test programs here prove the check.
  targets=(//ops/... //tests/... -//tests/rules/... -//tests:all -//tests:toolchains)
  expect=NvccPtx,NvccSass,NvccHostAsm,NvccHost,NvccDeviceLink,GoStdlib,GoCompilePkg,GoLink,CppLink,CppArchive
  # The local build (--cuda_split=false) makes what the comparison reads, the objects and archives:
  # the C++ and CUDA libraries and device links of //ops/... and //tests/... (the Go packages,
  # programs and tests link them but run no nvcc or archive action of their own). It leaves out //tests/rules' analysis tests,
  # which check the split itself and fail without it. (Named targets, unlike //pkg/... patterns,
  # include manual ones: those are left out here.)
  local_query="let t = kind('cu_library|cc_library|cu_device_link|cu_device_image', //ops/... + //tests/... except //tests/rules/...) in \$t except attr(tags, '\\bmanual\\b', \$t)"
fi
# Go: on PATH, or where ./bazelw installs it (the places toolchains/private/find_go.sh lists).
PATH="$PATH:$("$root/toolchains/private/find_go.sh" --path)"
export PATH

say() { echo "buildbarn/check.sh: $*"; }
die() {
  echo "buildbarn/check.sh: error: $*" >&2
  exit 1
}
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
command -v git >/dev/null || die "git is needed"

cache=${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go
mkdir -p "$cache"
work=$(mktemp -d "$cache/bbcheck.XXXXXX")
a=$work/a
b=$work/checkout-b/with/a/longer/path
export BB_STATE_DIR=$work/bb BB_WORKERS=${BB_WORKERS:-2}
started=
cleanup() {
  local status=$?
  set +e
  for c in "$a" "$b"; do
    [ -d "$c.out" ] && [ -x "$c/bazelw" ] && (cd "$c" && BAZELW_QUIET=1 ./bazelw --output_base="$c.out" shutdown >/dev/null 2>&1)
  done
  [ -z "$started" ] || "$here/stop.sh" >/dev/null
  if [ -n "${BB_CHECK_KEEP:-}" ]; then
    say "kept $work"
  else
    chmod -R u+w "$work" 2>/dev/null
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. The log checkers (a Go module of their own, outside the repository's go.work), then Buildbarn.
say "vetting, testing and building the log checkers (tools/remote-cache)"
(
  cd "$root/tools/remote-cache"
  export GOWORK=off
  go vet ./... && go test -count=1 ./... &&
    go build -o "$work/bin/" ./cmd/remoteexec ./cmd/cachehits
) || die "the log checkers in tools/remote-cache do not vet, test or build (see above)"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ports=()
while [ ${#ports[@]} -lt 4 ]; do
  p=$((20000 + RANDOM % 40000))
  port_free "$p" && [[ " ${ports[*]} " != *" $p "* ]] && ports+=("$p")
done
export BB_PORT=${ports[0]} BB_SCHEDULER_PORT=${ports[1]} BB_WORKER_PORT=${ports[2]} BB_ADMIN_PORT=${ports[3]}
started=1
flag_line=$("$here/start.sh") || die "Buildbarn did not start (see above; logs in $BB_STATE_DIR/logs)"
executor=
for f in $flag_line; do
  case "$f" in --remote_executor=*) executor=${f#--remote_executor=} ;; esac
done
[ -n "$executor" ] || die "start.sh printed no --remote_executor flag: '$flag_line'"

# 2-4. The clones: HEAD, at paths of different lengths, checked out a day apart (2001-01-01 and -02).
say "cloning $(git -C "$root" rev-parse --short HEAD) to $a and $b"
git clone -q "$root" "$a"
git clone -q "$root" "$b"
(cd "$a" && git ls-files -z | xargs -0 touch -h -d @978307200)
(cd "$b" && git ls-files -z | xargs -0 touch -h -d @978393600)

declare -A wall
# bz NAME CLONE ARGS...: bazel in CLONE with its own output base; output to NAME.log and stdout.
bz() {
  local name=$1 c=$2 t0 status=0
  shift 2
  say "$name: bazel $*"
  t0=$(now)
  (cd "$c" && BAZELW_QUIET=1 ./bazelw --output_base="$c.out" "$1" --show_progress_rate_limit=30 --color=no --curses=no "${@:2}") \
    >"$work/$name.log" 2>&1 || status=$?
  wall[$name]=$(seconds "$t0" "$(now)")
  grep -E '^INFO: ([0-9]+ process|Elapsed time|Build completed)|^ERROR' "$work/$name.log" | sed "s/^/  $name: /" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$work/$name.log"
    die "$name: bazel failed with exit status $status (${wall[$name]} s; log above)"
  fi
  say "$name: ${wall[$name]} s wall"
}
failed=()

# 2. Clone A on Buildbarn: every action remotely, from an empty cache.
bz remote "$a" build --config=buildbarn "--remote_executor=$executor" -c "$mode" --disk_cache= \
  --execution_log_json_file="$work/remote.json" -- "${targets[@]}"
say "remote build: every spawn matching $remote_re must have been executed on Buildbarn"
"$work/bin/remoteexec" -remote "$remote_re" "$work/remote.json" || failed+=("remote execution")
(cd "$a" && BAZELW_QUIET=1 ./bazelw --output_base="$a.out" shutdown)

# 3. Clone B, fresh output base, Buildbarn as its remote cache only.
bz cache "$b" build --config=buildbarn --remote_executor= "--remote_cache=$executor" \
  --noremote_upload_local_results --remote_download_minimal -c "$mode" --disk_cache= \
  --execution_log_json_file="$work/cache.json" -- "${targets[@]}"
say "second clone against the remote cache: every nvcc, Go, link and archive spawn must be a hit"
"$work/bin/cachehits" -expect "$expect" -against "$work/remote.json" "$work/cache.json" || failed+=("remote cache hits")

# 4. Clone B again, built locally under the hermetic sandbox.
(cd "$b" && BAZELW_QUIET=1 ./bazelw --output_base="$b.out" clean)
if [ -n "$local_query" ]; then
  mapfile -t local_targets < <(cd "$b" && BAZELW_QUIET=1 ./bazelw --output_base="$b.out" query "$local_query" 2>/dev/null)
  [ ${#local_targets[@]} -gt 0 ] || die "bazel query '$local_query' found no targets in clone B"
fi
bz local "$b" build --config=hermetic_sandbox --cuda_split=false -c "$mode" --disk_cache= --skip_incompatible_explicit_targets \
  --execution_log_json_file="$work/local.json" -- "${local_targets[@]}"
say "local build: the outputs of every spawn matching $compare_re must equal the remote build's"
# Required: every object, and the archives the libraries' own builds make (the PIC ones); the
# non-PIC archives that the remote build's program links asked for are packed from the same
# objects.
"$work/bin/remoteexec" -remote "$remote_re" -compare "$compare_re" -required "$required_re" \
  -local "$work/local.json" "$work/remote.json" >"$work/compare.txt" ||
  failed+=("remote outputs equal local outputs")
grep -E '^(DIFFERS|OK:|FAIL:)' "$work/compare.txt" | grep -v 'executed remotely' || true

echo
say "targets: ${targets[*]} (-c $mode); Buildbarn: $BB_WORKERS workers"
say "wall times: remote build (clone A, cold, Buildbarn) ${wall[remote]} s; cache build (clone B, fresh output base) ${wall[cache]} s; local build (clone B, hermetic sandbox) ${wall[local]} s"
if [ ${#failed[@]} -gt 0 ]; then
  say "FAILED: $(IFS=,; echo "${failed[*]}" | sed 's/,/, /g')"
  exit 1
fi
say "OK: nvcc ran on Buildbarn, a second clone got only remote cache hits, and the remote outputs equal a local build's"
