# shellcheck shell=bash
# Sourced by tools/install-debian.sh, tools/buildbarn/build.sh and tools/remote-cache/check.sh: one
# process at a time does a one-time install into the shared cache; the others wait for it, saying so,
# and then find the install done.
#
#   hold_lock FILE WHAT
#
# takes an exclusive flock(1) on FILE (made with its directory where missing) for the rest of the
# calling process, and releases it when the process ends, however it ends (a killed install drops
# its lock with it). Where another process holds it, prints what it waits for, and who holds it, on
# stderr, and waits up to RULES_CUDA_GO_LOCK_TIMEOUT seconds (default 1800), then fails with a
# message naming the lock; after such a wait it sets lock_waited=1. Needs flock (util-linux, on
# every Debian).
#
# The lock only keeps installs apart; what makes an install safe to interrupt is that each one
# builds in a staging directory and renames it into place as its last step, so a later run trusts
# only what is complete.
#
# The descriptor is not passed to long-lived children: programs the caller starts after hold_lock
# that outlive it (a Bazel server) must not be started from the locking process.
hold_lock() {
  local file=$1 what=$2 holder fd
  command -v flock >/dev/null || {
    echo "error: flock (util-linux) is needed to keep concurrent installs of $what apart" >&2
    exit 1
  }
  mkdir -p "$(dirname "$file")"
  exec {fd}>>"$file"
  if ! flock -n "$fd"; then
    holder=$(cat "$file.owner" 2>/dev/null || true)
    echo "waiting for another install of $what to finish (${holder:-another process} holds $file)" >&2
    flock -w "${RULES_CUDA_GO_LOCK_TIMEOUT:-1800}" "$fd" || {
      echo "error: gave up after ${RULES_CUDA_GO_LOCK_TIMEOUT:-1800} s waiting for $file (${holder:-another process} installing $what); if no such process is running, remove $file and try again" >&2
      exit 1
    }
    echo "the other install of $what finished; going on" >&2
    # For the caller: what the other run installed may be all there is to do.
    lock_waited=1
  fi
  echo "pid $$ on $(hostname 2>/dev/null || echo this machine) since $(date -u +%H:%M:%S)" >"$file.owner"
}

# replace_link TARGET LINK: LINK points at TARGET, replaced in one rename, so that a reader never
# finds LINK missing (ln -sfn removes it first).
replace_link() {
  ln -sfn "$1" "$2.new.$$"
  mv -T "$2.new.$$" "$2"
}
