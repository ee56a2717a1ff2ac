#!/usr/bin/env bash
# CI: a module that depends on rules_cuda_go without opting into its glibc baseline keeps its own C++
# toolchain (examples/own_cc_toolchain). Without the opt-in, no C++ compile or link and no nvcc
# compile of the module names the baseline's sysroot, and the glibc_check aspect (on in its .bazelrc)
# checks nothing; its C++ and CUDA binaries build, and run. With the opt-in (here
# --extra_toolchains, which is what MODULE.bazel's register_toolchains("@rules_cuda_go//toolchains/sysroot:all")
# registers), the same actions use the sysroot and the binaries are checked: the test can fail.
set -euo pipefail
cd "$(dirname "$0")/../examples/own_cc_toolchain"
fail() { echo "own-toolchain-check: $*"; exit 1; }
bz() { ../../bazelw "$@"; }
targets='//:hello + //:scale + //:scale_main'
optin=--extra_toolchains=@rules_cuda_go//toolchains/sysroot:all
# aq MNEMONIC [FLAGS...]: aquery's text output for the targets' actions of that mnemonic.
aq() {
  local m=$1
  shift
  bz aquery "$@" --output=text "mnemonic('$m', $targets)" 2>/dev/null
}

echo "--- without the opt-in: this module's C++ toolchain"
for m in CppCompile CppLink NvccHost; do
  out=$(aq "$m")
  grep -q "Mnemonic: $m" <<<"$out" || fail "no $m action found for $targets"
  if grep -q 'rules_cuda_go_sysroot' <<<"$out"; then
    grep -m3 'rules_cuda_go_sysroot' <<<"$out"
    fail "$m: a module without the opt-in was built against rules_cuda_go's glibc baseline sysroot"
  fi
done
out=$(aq GlibcCheck)
if grep -q 'Mnemonic: GlibcCheck' <<<"$out"; then
  fail "glibc_check checked binaries that were not built with the glibc baseline's toolchain"
fi
bz build //:hello //:scale_main
bz run //:hello
bz run //:scale_main

echo "--- with the opt-in ($optin): the glibc baseline"
# (Captured first: grep -q would stop reading, and pipefail would count aquery's SIGPIPE.)
out=$(aq CppCompile "$optin")
grep -q -- '--sysroot=external/rules_cuda_go++sysroot+rules_cuda_go_sysroot' <<<"$out" || fail "with the opt-in, C++ compiles do not use the baseline's sysroot"
out=$(aq NvccHost "$optin")
grep -q -- "'--sysroot=external/rules_cuda_go++sysroot+rules_cuda_go_sysroot'" <<<"$out" || fail "with the opt-in, nvcc's host compiler gets no --sysroot"
out=$(aq GlibcCheck "$optin")
n=$(grep -c 'Mnemonic: GlibcCheck' <<<"$out" || true)
[ "$n" = 2 ] || fail "with the opt-in, glibc_check should check //:hello and //:scale_main (found $n checks)"
bz shutdown
echo "own-toolchain-check: OK"
