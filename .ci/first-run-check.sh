#!/usr/bin/env bash
# first-run-check.sh: ./bazelw's one-time install of Bazel is safe to start several times at once and
# to interrupt (tools/bazelw/lock.sh, tools/install-debian.sh). In a shared clone of this checkout,
# with empty cache folders of its own (RULES_CUDA_GO_CACHE), it
#   1. starts three `./bazelw --version` at once: all three must print Bazel's version; exactly one
#      installs, the other two wait for it (and say so) or find it done;
#   2. starts one more in a second empty cache, kills it (SIGKILL to its whole process group, as a
#      lost connection would) while it unpacks Bazel into its staging directory, then runs
#      `./bazelw --version` again: it must succeed, and nothing of the killed run may be left.
# Downloads Bazel's packages from Debian twice (about a minute each on CI's machine).
#
#   .ci/first-run-check.sh [WORK_DIR]      (default: a temporary directory, removed at the end)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { echo "first-run-check: $*"; }
fail() {
  echo "first-run-check: FAIL: $*" >&2
  exit 1
}
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/first-run-check.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
git clone -q --shared "$root" "$work/repo"
# The Bazel this machine already has must not be found: only the private prefix in the cache.
# PATH keeps Go and the system's tools; bazel/bazelisk on PATH are hidden by a PATH without them.
clean_path=
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -x "$d/bazel" ] || [ -x "$d/bazelisk" ] || clean_path=${clean_path:+$clean_path:}$d
done
want=$(tr -d ' \n' <"$root/.bazelversion")
bazelw_version() { # CACHE LOG
  env -u BAZEL_REAL PATH="$clean_path" RULES_CUDA_GO_CACHE="$1" "$work/repo/bazelw" --version >"$2" 2>&1
}

# 1. Three at once.
say "three './bazelw --version' at once on the empty cache $work/c1"
pids=()
for i in 1 2 3; do
  bazelw_version "$work/c1" "$work/race.$i.log" &
  pids+=($!)
done
failed=0
for i in 1 2 3; do
  if ! wait "${pids[$((i - 1))]}"; then
    failed=1
    say "run $i failed:"
    sed 's/^/    /' "$work/race.$i.log"
  elif ! grep -q "^bazel $want" "$work/race.$i.log"; then
    failed=1
    say "run $i printed no 'bazel $want':"
    sed 's/^/    /' "$work/race.$i.log"
  fi
done
[ $failed -eq 0 ] || fail "not every one of three concurrent first runs succeeded"
installed=$(grep -l 'Bazel [0-9.]* is in ' "$work"/race.*.log | wc -l)
[ "$installed" -eq 1 ] || fail "$installed of the three runs installed Bazel (expected exactly 1)"
say "ok: all three printed 'bazel $want'; one installed, the others: $(grep -h -o -e 'waiting for another install of Bazel' -e 'Bazel is already in' "$work"/race.*.log | sort | uniq -c | tr -s ' ' | paste -sd, -)"

# 2. Killed half-way, then again.
say "an install in the empty cache $work/c2, killed while it unpacks"
setsid bash -c "$(declare -f bazelw_version); work='$work' clean_path='$clean_path'; bazelw_version '$work/c2' '$work/killed.log'" &
victim=$!
for _ in $(seq 1 600); do
  # Unpacking has begun: the staging directory has a root/ with files in it.
  if compgen -G "$work/c2/bazel-debian/.staging.*/root/usr" >/dev/null; then break; fi
  kill -0 "$victim" 2>/dev/null || break
  sleep 0.5
done
compgen -G "$work/c2/bazel-debian/.staging.*/root/usr" >/dev/null || {
  sed 's/^/    /' "$work/killed.log"
  fail "the install never reached its unpacking step"
}
kill -KILL -- "-$victim" 2>/dev/null || true
wait "$victim" 2>/dev/null || true
[ ! -e "$work/c2/bazel-debian/current" ] || fail "the killed install left $work/c2/bazel-debian/current behind"
say "killed it while unpacking ($(find "$work/c2/bazel-debian" -mindepth 1 -maxdepth 1 | wc -l) entries left in bazel-debian/)"
bazelw_version "$work/c2" "$work/again.log" || {
  sed 's/^/    /' "$work/again.log"
  fail "the run after the killed one failed"
}
grep -q "^bazel $want" "$work/again.log" || fail "the run after the killed one printed no 'bazel $want'"
left=$(find "$work/c2" -name '.staging.*' -o -name '*.new.*' | head -n3)
[ -z "$left" ] || fail "the killed run's staging is still there: $left"
say "ok: the next run installed Bazel and removed what the killed run left"
