#!/usr/bin/env bash
# start.sh: starts Buildbarn on loopback for remote execution of this repository's builds:
# bb_storage (CAS + Action Cache, and the endpoint Bazel talks to), bb_scheduler, and BB_WORKERS
# workers (default 2), each a bb_worker (native build directory) with its own bb_runner, every
# process in the background with its files under a state directory. Builds the binaries first if
# needed (build.sh), waits until every worker has registered with the scheduler, and prints the
# Bazel flags to use on stdout:
#
#   --remote_executor=grpc://127.0.0.1:8980 --remote_default_exec_properties=OSFamily=linux
#
# Everything else goes to stderr. Running it again while Buildbarn runs just prints the flags.
# stop.sh stops it. Settings (environment):
#   BB_STATE_DIR       state directory (default ${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/buildbarn/state):
#                      storage/ (CAS, AC; kept across restarts), worker-N/, runner-N.sock, logs/, pids/
#   BB_WORKERS         how many workers (bb_worker + bb_runner pairs) to start (default 2)
#   BB_CONCURRENCY     actions each worker runs at once (default: the cores divided among the
#                      workers, at least 1: on 2 cores, 2 workers of 1 slot each)
#   BB_PORT            Bazel's endpoint, 127.0.0.1:BB_PORT (default 8980)
#   BB_SCHEDULER_PORT  bb_scheduler's client port (8982); BB_WORKER_PORT its worker port (8983)
#   BB_ADMIN_PORT      bb_scheduler's admin page, http://127.0.0.1:BB_ADMIN_PORT (7982)
#   BB_CAS_SIZE_GB     CAS data file size, a sparse file (default 16)
#   BB_START_TIMEOUT   seconds to wait for readiness (default 60)
# The workers run actions as this user, directly on this host (no sandbox, no container): host
# tools such as /usr/bin/gcc are the ones the actions find, exactly as in a local build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${BB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go/buildbarn}
bin=$cache/bin

say() { echo "buildbarn/start.sh: $*" >&2; }
die() {
  echo "buildbarn/start.sh: error: $*" >&2
  exit 1
}

export BB_STATE_DIR=${BB_STATE_DIR:-$cache/state}
export BB_PORT=${BB_PORT:-8980}
export BB_SCHEDULER_PORT=${BB_SCHEDULER_PORT:-8982}
export BB_WORKER_PORT=${BB_WORKER_PORT:-8983}
export BB_ADMIN_PORT=${BB_ADMIN_PORT:-7982}
export BB_WORKERS=${BB_WORKERS:-2}
[[ "$BB_WORKERS" =~ ^[1-9][0-9]*$ ]] || die "BB_WORKERS must be a positive number of workers, not '$BB_WORKERS'"
if [ -z "${BB_CONCURRENCY:-}" ]; then
  BB_CONCURRENCY=$(($(nproc) / BB_WORKERS))
  [ "$BB_CONCURRENCY" -ge 1 ] || BB_CONCURRENCY=1
fi
[[ "$BB_CONCURRENCY" =~ ^[1-9][0-9]*$ ]] || die "BB_CONCURRENCY must be a positive number of action slots, not '$BB_CONCURRENCY'"
export BB_CONCURRENCY
export BB_CAS_SIZE_GB=${BB_CAS_SIZE_GB:-16}
timeout_s=${BB_START_TIMEOUT:-60}
state=$BB_STATE_DIR
flags="--remote_executor=grpc://127.0.0.1:$BB_PORT --remote_default_exec_properties=OSFamily=linux"

# Start order (stop.sh stops them in reverse): NAME or NAME-INDEX runs bb_NAME; worker N runs its
# actions through runner N.
components=(storage scheduler)
for i in $(seq "$BB_WORKERS"); do components+=("runner-$i" "worker-$i"); done

# Unix socket paths are limited to 107 bytes.
[ "${#state}" -le 90 ] || die "BB_STATE_DIR is too long for bb_runner's unix socket ($state); use a shorter path"

# pid_of NAME: the pid of a running component started by start.sh, else nothing.
pid_of() {
  local pid
  pid=$(cat "$state/pids/$1.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe" 2>/dev/null || true)" = "$bin/bb_${1%%-*}" ] && echo "$pid"
  return 0
}

running=()
for c in "${components[@]}"; do [ -z "$(pid_of "$c")" ] || running+=("$c"); done
if [ "${#running[@]}" -eq "${#components[@]}" ]; then
  say "Buildbarn is already running (state: $state)"
  echo "$flags"
  exit 0
elif [ "${#running[@]}" -gt 0 ]; then
  die "only ${running[*]} of ${components[*]} is running (state: $state); run $here/stop.sh first"
fi

"$here/build.sh"

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$BB_PORT" "$BB_SCHEDULER_PORT" "$BB_WORKER_PORT" "$BB_ADMIN_PORT"; do
  ! port_busy "$p" || die "port 127.0.0.1:$p is already in use (set BB_PORT, BB_SCHEDULER_PORT, BB_WORKER_PORT, BB_ADMIN_PORT)"
done

# A state directory from another worker count: its pid files name components we would not start.
for f in "$state"/pids/*.pid; do
  [ -e "$f" ] || continue
  c=$(basename "$f" .pid)
  [ -z "$(pid_of "$c")" ] || die "bb_${c%%-*} ($c) from an earlier start is still running (state: $state); run $here/stop.sh first"
  rm -f "$f"
done
mkdir -p "$state"/{storage/cas/persistent_state,storage/ac/persistent_state,logs,pids}
for i in $(seq "$BB_WORKERS"); do
  mkdir -p "$state/worker-$i/build" "$state/worker-$i/cache"
  rm -f "$state/runner-$i.sock"
  # Left-overs of an earlier worker: bb_worker expects empty build and cache directories.
  find "$state/worker-$i/build" "$state/worker-$i/cache" -mindepth 1 -maxdepth 1 -exec chmod -R u+w {} + -exec rm -rf {} + 2>/dev/null || true
done

start() {
  local c=$1 name=${1%%-*} index=
  [ "$c" = "$name" ] || index=${c#*-}
  # setsid: not killed with the shell that started it. Logs are appended to across restarts.
  # BB_WORKER_INDEX tells worker.jsonnet and runner.jsonnet which directories and socket are theirs.
  echo "=== $(date -Is) start" >>"$state/logs/$c.log"
  (cd "$state" && BB_WORKER_INDEX=$index exec setsid "$bin/bb_$name" "$here/config/$name.jsonnet" >>"$state/logs/$c.log" 2>&1 </dev/null) &
  echo $! >"$state/pids/$c.pid"
}

# alive PID: the process exists and has not exited (a child that exited stays a zombie until the
# shell reaps it). Right after start the pid may still be the subshell that is about to exec.
alive() {
  local st
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

# wait_for WHAT COMMAND...: polls COMMAND until it succeeds; fails if a component died or on timeout.
wait_for() {
  local what=$1 deadline=$((SECONDS + timeout_s)) c
  shift
  until "$@"; do
    for c in "${components[@]}"; do
      if [ -f "$state/pids/$c.pid" ] && ! alive "$(cat "$state/pids/$c.pid")"; then
        { tail -n 20 "$state/logs/$c.log" && echo; } >&2 || true
        "$here/stop.sh" >&2 || true
        die "bb_$c exited while waiting for $what; its log (above): $state/logs/$c.log"
      fi
    done
    if [ "$SECONDS" -ge "$deadline" ]; then
      "$here/stop.sh" >&2 || true
      die "timed out after ${timeout_s}s waiting for $what; logs: $state/logs/"
    fi
    sleep 0.2
  done
}

# A worker appears on the scheduler's admin page once it has synchronized: the front page links
# to the list of all workers of the platform's queue, which shows each worker's ID, with the label
# worker="N" (config/worker.jsonnet).
workers_registered() {
  local link list i
  link=$(admin_get / | grep -o 'href="workers?filter=%7b%22all%22[^"]*"' | head -n1) || return 1
  link=${link#href=\"}
  list=$(admin_get "/${link%\"}") || return 1
  for i in $(seq "$BB_WORKERS"); do
    grep -q "worker=&#34;$i&#34;" <<<"$list" || return 1
  done
}

# admin_get PATH: the body of the scheduler's admin page at PATH (HTTP/1.0 through bash's /dev/tcp,
# so that a fresh machine needs no HTTP client); fails unless the answer is 200 within 5 seconds.
admin_get() {
  timeout 5 bash -c '
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" "$2" >&3
    IFS= read -r status <&3 || exit 1
    [[ $status == "HTTP/1."[01]" 200 "* ]] || exit 1
    while IFS= read -r line <&3 && [ ${#line} -gt 1 ]; do :; done
    cat <&3' admin_get "$BB_ADMIN_PORT" "$1" 2>/dev/null
}

say "starting Buildbarn (state: $state)"
start storage
wait_for "bb_storage on 127.0.0.1:$BB_PORT" port_busy "$BB_PORT"
start scheduler
wait_for "bb_scheduler on 127.0.0.1:$BB_WORKER_PORT" port_busy "$BB_WORKER_PORT"
wait_for "bb_scheduler on 127.0.0.1:$BB_SCHEDULER_PORT" port_busy "$BB_SCHEDULER_PORT"
for i in $(seq "$BB_WORKERS"); do
  start "runner-$i"
  wait_for "bb_runner $i on $state/runner-$i.sock" test -S "$state/runner-$i.sock"
  start "worker-$i"
done
wait_for "$BB_WORKERS bb_worker(s) to register with bb_scheduler" workers_registered
say "Buildbarn is running: $BB_WORKERS workers of $BB_CONCURRENCY action slots each; queues and workers: http://127.0.0.1:$BB_ADMIN_PORT/; logs: $state/logs/"
say "use: bazel build $flags ..."
echo "$flags"
