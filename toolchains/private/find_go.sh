#!/usr/bin/env bash
# The one list of places where rules_cuda_go looks for Go (>= 1.24), in order: $GOROOT/bin/go, go on
# PATH, /usr/local/go (go.dev's tarball), Debian's golang-1.26-go, and the private prefix that
# ./bazelw installs Go into (tools/install-debian.sh, under $RULES_CUDA_GO_CACHE or
# ${XDG_CACHE_HOME:-$HOME/.cache}/rules_cuda_go). Used by ./bazelw (tools/bazelw/find-tools.sh),
# the repository rules that build Go helpers (go.bzl), CI and the tools' scripts.
#
#   find_go.sh          prints the path of the first go >= 1.24; exits 1, saying where it looked, if none
#   find_go.sh --path   prints the fixed places' bin directories, ':'-separated, to append to PATH
#                       (whether or not Go is there yet: ./bazelw may install it later)
set -euo pipefail

min_minor=24 # Go 1.24, what rules_go's host SDK and the project's Go code need
cache=${RULES_CUDA_GO_CACHE:-${XDG_CACHE_HOME:-${HOME:-}/.cache}/rules_cuda_go}
fixed=(/usr/local/go/bin/go /usr/lib/go-1.26/bin/go "$cache/go-debian/current/bin/go")

if [ "${1:-}" = --path ]; then
  dirs=()
  for g in "${fixed[@]}"; do dirs+=("${g%/go}"); done
  (IFS=:; echo "${dirs[*]}")
  exit 0
fi

for g in "${GOROOT:+$GOROOT/bin/go}" "$(command -v go || true)" "${fixed[@]}"; do
  if [ -z "$g" ] || [ ! -x "$g" ]; then continue; fi
  v=$(env -u GOROOT "$g" env GOVERSION 2>/dev/null) || continue # go1.26.1, go1.25rc2, ... (each go knows its root)
  minor=$(echo "$v" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')
  if [ -n "$minor" ] && [ "$minor" -ge "$min_minor" ]; then
    echo "$g"
    exit 0
  fi
done
echo "no Go >= 1.$min_minor: looked at \$GOROOT/bin/go, go on PATH, ${fixed[*]}" >&2
exit 1
