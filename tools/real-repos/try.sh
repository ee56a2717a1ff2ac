#!/usr/bin/env bash
# try.sh: build a CUDA repository that nobody here wrote, the way a new user of rules_cuda_go would,
# and say per target what built.
#
#   tools/real-repos/try.sh [--rules DIR] [--only PATH]... [--rev REV] [--no-build] SOURCE NAME [DIRECTIVE]...
#
# SOURCE is a source tree (a directory) or a git directory (a clone's .git or a bare mirror; REV,
# default HEAD, is exported, skipping blobs a partial mirror lacks). NAME names the consumer
# workspace: $REAL_REPOS_DIR/NAME (default /work/real-repos/NAME; never under /tmp, whose Bazel
# sandbox is hermetic). Each DIRECTIVE (e.g. 'cuda_include_dir Common') becomes a
# '# gazelle:DIRECTIVE' line of the root BUILD.bazel. --only copies just those paths of SOURCE.
# --rules names the rules_cuda_go checkout to use (default: $REAL_REPOS_RULES, else the checkout
# holding this script).
#
# The workspace is recreated on every run: SOURCE's files, then what the user documentation says
# a repository adds to use the rules (MODULE.bazel with a local_path_override to this checkout,
# go.mod, the consumer .bazelrc block, a root BUILD.bazel with the gazelle_binary that has the
# cuda language). Then `bazel run //:gazelle` and `bazel build -c opt --keep_going //...` through
# the checkout's bazelw, and tools/real-repos/summarize.py prints every target's result (built,
# failed and why, or not built because a dependency failed), the programs (sources defining
# main()) with the binary that builds each, and the CUDA libraries each built binary NEEDs.
# $REAL_REPOS_BUILD_FLAGS adds flags to the build (e.g. --cuda_archs=9.0: one GPU generation
# compiles in about half the time of the default two).
# Logs and the summary stay in NAME/.real-repos/, and a copy of the summary in
# $REAL_REPOS_DIR/results/NAME@RULES_COMMIT.{txt,tsv}. Nothing is written to the rules checkout.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "${REAL_REPOS_RULES:-$here/../..}" && pwd)
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2; exit 2; }
fail() { echo "try.sh: $*" >&2; exit 1; }

only=() rev=HEAD build=1
while [ $# -gt 0 ]; do
  case $1 in
    --only) only+=("$2"); shift 2 ;;
    --rev) rev=$2; shift 2 ;;
    --rules) root=$(cd "$2" && pwd) || fail "--rules: no directory $2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) usage ;;
    --*) fail "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || usage
src=$1 name=$2
shift 2
directives=("$@")
[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || fail "NAME must be a plain directory name, got '$name'"
base=${REAL_REPOS_DIR:-/work/real-repos}
mkdir -p "$base"
base=$(cd "$base" && pwd -P)
case $base/ in
  /tmp/*) fail "the workspace would be under /tmp ($base): Bazel's sandbox hides /tmp; set REAL_REPOS_DIR elsewhere" ;;
  "$root"/*) fail "the workspace would be inside this checkout ($base): their sources must stay out of it" ;;
esac
ws=$base/$name
meta=$ws/.real-repos

# 1. The sources.
if [ -d "$ws" ]; then
  (cd "$ws" && "$root/bazelw" shutdown >/dev/null 2>&1) || true
  rm -rf "$ws"
fi
mkdir -p "$meta"
if git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1 && [ ! -d "$src/.git" ]; then
  commit=$(python3 "$here/export.py" "$src" "$ws" "$rev" "${only[@]}" 2>"$meta/export.log") ||
    { cat "$meta/export.log" >&2; fail "could not export $src"; }
  origin=$(git --git-dir="$src" config --get remote.origin.url 2>/dev/null || echo "$src")
elif [ -d "$src" ]; then
  commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
  origin=$(git -C "$src" config --get remote.origin.url 2>/dev/null || echo "$src")
  (cd "$src" && tar --exclude=.git --exclude='./bazel-*' -cf - "${only[@]:-.}") | (cd "$ws" && tar -xf -)
else
  fail "SOURCE '$src' is neither a directory nor a git directory"
fi
rules=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf 'source\t%s\ncommit\t%s\nonly\t%s\nrules\t%s\nflags\t%s\n' "$origin" "$commit" "${only[*]:-}" "$rules" "${REAL_REPOS_BUILD_FLAGS:-}" >"$meta/source.tsv"
for d in "${directives[@]}"; do printf 'directive\t%s\n' "$d" >>"$meta/source.tsv"; done
for f in MODULE.bazel WORKSPACE WORKSPACE.bazel BUILD BUILD.bazel .bazelrc go.mod; do
  [ ! -e "$ws/$f" ] || fail "SOURCE has its own $f; try.sh writes that file and does not merge (move it away first)"
done
existing=$(cd "$ws" && find . \( -name BUILD -o -name BUILD.bazel \) | head -5)
[ -z "$existing" ] || echo "try.sh: note: SOURCE has BUILD files of its own (gazelle will edit them): $existing"

# 2. What the user documentation says to add (README.md, "Use it in your repository", bzlmod).
module=$(echo "$name" | tr 'A-Z.-' 'a-z__')
cat >"$ws/MODULE.bazel" <<EOF
module(name = "$module")

bazel_dep(name = "rules_cuda_go", version = "0.1.0")
local_path_override(module_name = "rules_cuda_go", path = "$root")

bazel_dep(name = "rules_go", version = "0.65.0", repo_name = "io_bazel_rules_go")
bazel_dep(name = "gazelle", version = "0.54.0", repo_name = "bazel_gazelle")

# The Go SDK installed on the host (Go 1.24 or newer on PATH or in GOROOT).
go_sdk = use_extension("@io_bazel_rules_go//go:extensions.bzl", "go_sdk")
go_sdk.host()

go_deps = use_extension("@bazel_gazelle//:extensions.bzl", "go_deps")
go_deps.from_file(go_mod = "//:go.mod")

cuda = use_extension("@rules_cuda_go//toolchains:extensions.bzl", "cuda")
use_repo(cuda, "cuda")
EOF
# REAL_REPOS_RULES_CC=1 adds a rules_cc bazel_dep, which docs/consumers.md does not ask for: rules
# before 7cc9176 loaded generated cc_binary rules from @rules_cc, which a module without that
# bazel_dep cannot see.
if [ "${REAL_REPOS_RULES_CC:-0}" = 1 ]; then
  printf '\n# cc_binary rules that gazelle writes load @rules_cc.\nbazel_dep(name = "rules_cc", version = "0.1.5")\n' >>"$ws/MODULE.bazel"
fi
printf 'module example.com/%s\n\ngo 1.24.12\n\nrequire github.com/rules-cuda-go/rules_cuda_go v0.1.0\n' "$module" >"$ws/go.mod"
: >"$ws/go.sum"

# The consumer .bazelrc block, from wherever the user documentation keeps it.
block() { awk -v b="$2" -v e="$3" 'index($0,e){on=0} on && !/^```/ {print} index($0,b){on=1}' "$1"; }
rcblock=
for doc in "$root/README.md" "$root"/docs/*.md; do
  [ -f "$doc" ] || continue
  rcblock=$(block "$doc" '<!-- consumer-bazelrc:begin -->' '<!-- consumer-bazelrc:end -->')
  [ -z "$rcblock" ] || break
done
[ -n "$rcblock" ] || rcblock=$(block "$root/examples/bzlmod_consumer/.bazelrc" '# consumer-bazelrc:begin' '# consumer-bazelrc:end')
[ -n "$rcblock" ] || fail "found no consumer .bazelrc block in README.md, docs/ or examples/bzlmod_consumer/.bazelrc"
{
  echo "$rcblock"
  echo "# Offline (bcr.bazel.build unreachable): the module overrides rules_cuda_go's bazelw writes."
  echo "common --lockfile_mode=off"
  echo "try-import $root/.bazelrc.offline"
} >"$ws/.bazelrc"

{
  echo 'load("@bazel_gazelle//:def.bzl", "DEFAULT_LANGUAGES", "gazelle", "gazelle_binary")'
  echo
  echo "# gazelle:prefix example.com/$module"
  for d in "${directives[@]}"; do echo "# gazelle:$d"; done
  cat <<'EOF'

gazelle_binary(
    name = "gazelle_binary",
    languages = DEFAULT_LANGUAGES + ["@rules_cuda_go//gazelle/cuda"],
)

gazelle(
    name = "gazelle",
    gazelle = ":gazelle_binary",
)
EOF
} >"$ws/BUILD.bazel"

# 3. Gazelle, then the build.
cd "$ws"
bz() { "$root/bazelw" "$@"; }
# One disk cache for every workspace: the Go SDK's packages and gazelle compile once, not per repository.
cache=(--disk_cache="$base/.disk-cache")
echo "try.sh: $name ($origin at $commit): bazel run //:gazelle"
set +e
bz run "${cache[@]}" //:gazelle >"$meta/gazelle.log" 2>&1
gazelle_rc=$?
set -e
[ $gazelle_rc = 0 ] || { tail -30 "$meta/gazelle.log" >&2; fail "bazel run //:gazelle failed (exit $gazelle_rc; log $meta/gazelle.log)"; }
echo "try.sh: gazelle logged $(grep -c '^gazelle: ' "$meta/gazelle.log" || true) lines ($meta/gazelle.log)"
build_rc=skipped
if [ $build = 1 ]; then
  echo "try.sh: bazel build -c opt --keep_going //... (log $meta/build.log)"
  set +e
  # shellcheck disable=SC2086 # REAL_REPOS_BUILD_FLAGS is a list of flags
  bz build "${cache[@]}" ${REAL_REPOS_BUILD_FLAGS:-} -c opt --keep_going --build_event_json_file="$meta/bep.json" //... >"$meta/build.log" 2>&1
  build_rc=$?
  set -e
  bz info -c opt bazel-bin >"$meta/bazel-bin.txt" 2>/dev/null || true
fi
bz query --keep_going --output=xml //... >"$meta/targets.xml" 2>"$meta/query.log" || true
bz shutdown >/dev/null 2>&1 || true
echo "build_rc	$build_rc" >>"$meta/source.tsv"
python3 "$here/summarize.py" "$ws" --tsv "$meta/summary.tsv" | tee "$meta/summary.txt"
# Every run's summary stays, named by repository and rules commit, to compare runs.
mkdir -p "$base/results"
cp "$meta/summary.txt" "$base/results/$name@$rules.txt"
cp "$meta/summary.tsv" "$base/results/$name@$rules.tsv"
