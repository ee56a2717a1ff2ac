#!/usr/bin/env bash
# starts-without-driver.sh: every test binary of //tests:all and of the example consumers starts, and
# passes (its GPU parts skipping), where no NVIDIA driver library (libcuda.so.1) can be found.
#
#   .ci/starts-without-driver.sh              # //tests:all here, //... in examples/bzlmod_consumer and examples/workspace_consumer
#   .ci/starts-without-driver.sh .            # //tests:all only (CI runs this as its first step)
#   .ci/starts-without-driver.sh examples/bzlmod_consumer examples/workspace_consumer
#
# 1. Builds the tests, then looks at every ELF file in their runfiles that this repository (or the
#    example) built: none may list libcuda.so.1 in NEEDED (such a binary needs the driver to start).
# 2. Makes an environment with no libcuda: where the machine has one (ldconfig's cache, the usual
#    library directories, LD_LIBRARY_PATH), a private mount namespace (unshare -m as root, else a user
#    namespace) binds an empty file over each, so the dynamic loader and dlopen fail on it. Two probes
#    prove it before anything else runs there: a program that NEEDs libcuda.so.1 must not start (exit
#    127), and dlopen("libcuda.so.1") must fail. Otherwise the check itself fails.
# 3. In that environment, runs `bazel test --nocache_test_results` on the same targets (in a
#    namespace, the Bazel server is restarted inside it, and shut down again afterwards so that later
#    commands get a normal one), and fails if any test fails or any test log says "error while
#    loading shared libraries".
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { echo "starts-without-driver: $*" >&2; }
die() {
  echo "starts-without-driver: error: $*" >&2
  exit 1
}

workspaces=()
inner=0
for a in "$@"; do
  case "$a" in
    --inner) inner=1 ;; # set when re-run inside the namespace
    . | examples/bzlmod_consumer | examples/workspace_consumer) workspaces+=("$a") ;;
    *) die "unknown argument '$a' (expected '.', examples/bzlmod_consumer or examples/workspace_consumer)" ;;
  esac
done
[ ${#workspaces[@]} -gt 0 ] || workspaces=(. examples/bzlmod_consumer examples/workspace_consumer)

# The test targets of a workspace: //tests:all here, //... in an example.
targets_of() { if [ "$1" = . ]; then echo //tests:all; else echo //...; fi; }

# Every libcuda the dynamic loader or dlopen could find.
find_libcuda() {
  {
    ldconfig -p 2>/dev/null | awk '/libcuda\.so/ {print $NF}'
    local d
    for d in /lib /lib64 /usr/lib /usr/lib64 /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /usr/local/lib \
      /usr/lib/wsl/lib ${LD_LIBRARY_PATH:+${LD_LIBRARY_PATH//:/ }}; do
      [ -d "$d" ] && find "$d" -maxdepth 1 -name 'libcuda.so*' 2>/dev/null
    done
  } | while read -r f; do
    [ -e "$f" ] || continue
    echo "$f"
    readlink -f "$f"
  done | sort -u
}

# The probes: a program that NEEDs libcuda.so.1 (linked against a throwaway library of that soname)
# and one that dlopens it.
make_probes() {
  local dir=$1
  mkdir -p "$dir"
  echo 'int cuInit(unsigned f) { return (int)f; }' >"$dir/fake.c"
  cc -shared -fPIC -o "$dir/libcuda.so" -Wl,-soname,libcuda.so.1 "$dir/fake.c"
  printf '%s\n' 'int cuInit(unsigned);' 'int main(void) { return cuInit(0); }' >"$dir/needs.c"
  cc -o "$dir/needs-libcuda" "$dir/needs.c" -L"$dir" -lcuda
  rm "$dir/libcuda.so"
  printf '%s\n' '#include <dlfcn.h>' '#include <stdio.h>' \
    'int main(void) { void* h = dlopen("libcuda.so.1", RTLD_NOW); if (h) { puts("libcuda.so.1 loaded"); return 1; } printf("dlopen: %s\n", dlerror()); return 0; }' \
    >"$dir/dlopen.c"
  cc -o "$dir/dlopen-libcuda" "$dir/dlopen.c" -ldl
}

# check_no_libcuda DIR: the probes say libcuda.so.1 cannot be found.
check_no_libcuda() {
  local out rc=0
  out=$("$1/needs-libcuda" 2>&1) || rc=$?
  [ "$rc" -eq 127 ] || die "a program that NEEDs libcuda.so.1 exited with $rc here, not 127 (cannot start): libcuda is still findable ($out)"
  say "a program that NEEDs libcuda.so.1 does not start here: ${out%%$'\n'*}"
  out=$("$1/dlopen-libcuda" 2>&1) || die "dlopen(\"libcuda.so.1\") succeeded here: $out"
  say "dlopen(\"libcuda.so.1\") fails here: $out"
}

# elf_files WS TARGET: the real paths of the ELF files among the outputs of TARGET's tests (the test
# executables) and in their runfiles.
elf_files() {
  local f
  local labels
  # query, not cquery: a cquery of tests(//tests:all) checks the suite's visibility of each test.
  labels=$(cd "$1" && "$root/bazelw" query "tests($2)" 2>/dev/null | tr '\n' ' ')
  [ -n "$labels" ] || return 0
  (cd "$1" && "$root/bazelw" cquery "set($labels)" --output=files 2>/dev/null) | while read -r f; do
    f="$1/$f"
    readlink -f "$f"
    [ ! -d "$f.runfiles" ] || find "$f.runfiles" \( -type f -o -type l \) -exec readlink -f {} +
  done | sort -u | while read -r f; do
    [ -f "$f" ] && [ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$f"
  done
}

if [ $inner -eq 0 ]; then
  # 1. Build, and look for NEEDED libcuda.so.1 in what the tests run.
  for ws in "${workspaces[@]}"; do
    t=$(targets_of "$ws")
    say "$ws: building the tests of $t"
    (cd "$ws" && "$root/bazelw" build --build_tests_only "$t")
    mapfile -t elfs < <(elf_files "$ws" "$t")
    [ ${#elfs[@]} -gt 0 ] || die "$ws: found no test executables for $t"
    bad=()
    for f in "${elfs[@]}"; do
      if readelf -d "$f" 2>/dev/null | grep -q 'NEEDED.*\[libcuda\.so\.1\]'; then bad+=("$f"); fi
    done
    [ ${#bad[@]} -eq 0 ] || die "$ws: these binaries NEED libcuda.so.1 (they do not start without the NVIDIA driver): ${bad[*]}"
    say "$ws: ${#elfs[@]} ELF files among the tests of $t and their runfiles; none NEEDs libcuda.so.1"
  done

  # 2. An environment without libcuda.
  probes=$(mktemp -d "${TMPDIR:-/tmp}/starts-without-driver.XXXXXX")
  trap 'rm -rf "$probes"' EXIT
  make_probes "$probes"
  mapfile -t libs < <(find_libcuda)
  status=0
  if [ ${#libs[@]} -eq 0 ]; then
    say "no libcuda on this machine (ldconfig, library directories, LD_LIBRARY_PATH): the tests run as they are"
    PROBES=$probes "$0" --inner "$@" || status=$?
  else
    say "hiding ${libs[*]} in a private mount namespace"
    command -v unshare >/dev/null || die "this machine has libcuda (${libs[*]}) and no unshare (util-linux) to hide it"
    ns=(unshare --mount --propagation private)
    [ "$(id -u)" -eq 0 ] || ns=(unshare --user --map-root-user --mount --propagation private)
    : >"$probes/empty"
    # The Bazel servers must start inside the namespace, for the tests they run to be in it.
    for ws in "${workspaces[@]}"; do (cd "$ws" && "$root/bazelw" shutdown); done
    LIBS="${libs[*]}" PROBES=$probes "${ns[@]}" bash -c '
      set -e
      for f in $LIBS; do mount --bind "$PROBES/empty" "$f"; done
      exec "$0" --inner "$@"' "$0" "$@" || status=$?
    # The servers started inside stay in that environment: shut them down.
    for ws in "${workspaces[@]}"; do (cd "$ws" && "$root/bazelw" shutdown) || true; done
  fi
  [ $status -eq 0 ] || die "some test binaries did not start or pass without libcuda (above)"
  say "PASS: every test of ${workspaces[*]} started and passed without libcuda.so.1"
  exit 0
fi

# 3. Inside the environment.
check_no_libcuda "$PROBES"
for ws in "${workspaces[@]}"; do
  t=$(targets_of "$ws")
  say "$ws: bazel test $t without libcuda"
  (cd "$ws" && "$root/bazelw" test --nocache_test_results --build_tests_only "$t")
  logs=$(cd "$ws" && "$root/bazelw" info bazel-testlogs 2>/dev/null)
  mapfile -t labels < <(cd "$ws" && "$root/bazelw" query "tests($t)" 2>/dev/null)
  for l in "${labels[@]}"; do
    log="$logs/${l#//}"
    log="${log/://}/test.log"
    if [ -f "$log" ] && grep -q 'error while loading shared libraries' "$log"; then
      die "$ws: $l: a program could not load a shared library (see $log)"
    fi
  done
  say "$ws: ${#labels[@]} tests of $t ran without libcuda"
done
