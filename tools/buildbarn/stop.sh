#!/usr/bin/env bash
# stop.sh: stops the Buildbarn processes that start.sh started (by the pids it recorded, and only
# if each pid is still that Buildbarn binary): the bb_workers, the bb_runners, bb_scheduler, bb_storage.
#   stop.sh           stop; storage (CAS, Action Cache) stays for the next start
#   stop.sh --purge   stop and delete the state directory too (empty CAS and Action Cache)
# Uses BB_STATE_DIR like start.sh. Doing nothing when nothing runs is not an error.
set -euo pipefail

cache=${BB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/buildbarn}
bin=$cache/bin
state=${BB_STATE_DIR:-$cache/state}

say() { echo "buildbarn/stop.sh: $*" >&2; }
die() {
  echo "buildbarn/stop.sh: error: $*" >&2
  exit 1
}

purge=
case "${1:-}" in
  "") ;;
  --purge) purge=1 ;;
  *) die "usage: stop.sh [--purge]" ;;
esac

pid_of() {
  local pid
  pid=$(cat "$state/pids/$1.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe" 2>/dev/null || true)" = "$bin/bb_${1%%-*}" ] && echo "$pid"
  return 0
}

# The components start.sh recorded (worker-N and runner-N for each worker), workers first.
components=()
for kind in worker runner scheduler storage; do
  for f in "$state/pids/$kind.pid" "$state/pids/$kind"-*.pid; do
    if [ -e "$f" ]; then components+=("$(basename "$f" .pid)"); fi
  done
done

stopped=()
for c in ${components[@]+"${components[@]}"}; do
  pid=$(pid_of "$c")
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      [ -d "/proc/$pid" ] || break
      sleep 0.2
    done
    if [ -d "/proc/$pid" ]; then
      say "bb_${c%%-*} ($c, pid $pid) did not stop in 10 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    stopped+=("$c")
  fi
  rm -f "$state/pids/$c.pid"
done
rm -f "$state"/runner*.sock
if [ "${#stopped[@]}" -gt 0 ]; then say "stopped ${stopped[*]}"; else say "Buildbarn was not running"; fi

if [ -n "$purge" ] && [ -d "$state" ]; then
  # Input roots and the worker's file cache are read-only.
  chmod -R u+w "$state" 2>/dev/null || true
  rm -rf "$state"
  say "deleted $state"
fi
