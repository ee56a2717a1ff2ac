#!/usr/bin/env bash
# run-remote-build.sh: builds //ops/... with remote execution on a loopback Buildbarn, end to end:
# starts Buildbarn (start.sh), builds in a clone of this repository with --remote_executor, prints
# Bazel's process summary ("N processes: X internal, Y remote") and how many actions of each
# mnemonic ran where, then stops Buildbarn (stop.sh) again.
#
#   tools/buildbarn/run-remote-build.sh [BAZEL_ARGS...]      e.g. --cuda_archs=8.0 //ops/cuda/...
#
# With no arguments the targets are //ops/...; arguments that are not flags replace them.
# The clone is ${BB_CLONE_DIR:-/tmp/rules_cuda_go-remote-build}: created with `git clone` if absent,
# else moved to this checkout's HEAD (committed changes only), so its Bazel server and output base
# are separate from this checkout's. Its outputs are cleaned first (`bazel clean`), so every action
# either runs on the worker or hits Buildbarn's action cache. BB_FRESH=1 deletes Buildbarn's state
# first (empty CAS and action cache, cold worker); BB_KEEP_RUNNING=1 leaves Buildbarn running.
# Other BB_* settings: see start.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
clone=${BB_CLONE_DIR:-${TMPDIR:-/tmp}/rules_cuda_go-remote-build}

say() { echo "buildbarn/run-remote-build.sh: $*" >&2; }
die() {
  echo "buildbarn/run-remote-build.sh: error: $*" >&2
  exit 1
}

flags=()
targets=()
for a in "$@"; do
  case "$a" in
    -*) flags+=("$a") ;;
    *) targets+=("$a") ;;
  esac
done
[ "${#targets[@]}" -gt 0 ] || targets=(//ops/...)

# The clone, at this checkout's HEAD.
git -C "$root" rev-parse --verify -q HEAD >/dev/null || die "$root is not a git checkout with a commit"
if [ ! -d "$clone/.git" ]; then
  say "cloning $root into $clone"
  git clone -q "$root" "$clone"
else
  git -C "$clone" fetch -q "$root" HEAD
  git -C "$clone" checkout -q --detach FETCH_HEAD
fi
say "building $(git -C "$clone" log -1 --format='%h %s' | cut -c1-80)"

[ -z "${BB_FRESH:-}" ] || "$here/stop.sh" --purge
if [ -z "${BB_KEEP_RUNNING:-}" ]; then trap '"$here/stop.sh"' EXIT; fi
flag_line=$("$here/start.sh")
read -r -a remote_flags <<<"$flag_line"

cd "$clone"
./bazelw clean
log=$(mktemp "${TMPDIR:-/tmp}/remote-build.XXXXXX")
exec_log=$log.exec.json
say "bazel build ${remote_flags[*]} ${flags[*]} ${targets[*]}"
start=$SECONDS
status=0
./bazelw build "${remote_flags[@]}" --execution_log_json_file="$exec_log" "${flags[@]}" "${targets[@]}" 2>&1 |
  tee "$log" || status=$?
wall=$((SECONDS - start))

echo
echo "=== remote build of ${targets[*]}: exit status $status, ${wall}s wall"
grep -E '^INFO: [0-9]+ process(es)?:' "$log" || echo "(no process summary: see $log)"
if [ -s "$exec_log" ] && command -v python3 >/dev/null; then
  echo "actions by mnemonic and runner:"
  python3 - "$exec_log" <<'EOF'
import collections, json, sys
counts = collections.Counter()
text = open(sys.argv[1]).read()
dec, i = json.JSONDecoder(), 0
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    entry, i = dec.raw_decode(text, i)
    runner = entry.get("runner", "?") + (" (cache hit)" if entry.get("remoteCacheHit") else "")
    counts[(entry.get("mnemonic", "?"), runner)] += 1
for (mnemonic, runner), n in sorted(counts.items()):
    print("  %4d  %-20s %s" % (n, mnemonic, runner))
EOF
fi
rm -f "$log" "$exec_log"
exit "$status"
