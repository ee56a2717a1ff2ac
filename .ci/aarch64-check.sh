#!/usr/bin/env bash
# aarch64-check.sh: the linux-aarch64 (Grace, sbsa) cross build (docs/platforms.md), from this x86-64
# machine:
# 1. builds //ops/... and the //tests:all binaries for --platforms=//platforms:linux_aarch64 (the
#    glibc check runs on every binary, as in every build here);
# 2. every executable it built is an AArch64 ELF (readelf -h), and NEEDs only what x86-64 builds
#    NEED (the C and C++ runtimes and NVIDIA's shared libraries by their sonames; never the
#    driver's libcuda.so.1), with ld-linux-aarch64.so.1 in place of ld-linux-x86-64.so.2;
# 3. runs the CPU tests of ops, ops/fuse, ops/optest, the arch resolver and the example ops under
#    Debian's qemu-user (qemu-aarch64, the cross toolchain's sysroot as its -L root), so that they
#    run, not just link; their GPU parts skip, as on any machine without a GPU;
# 4. analyses examples/bzlmod_consumer for linux-aarch64 as the README says (--nobuild).
#
#   .ci/aarch64-check.sh          (CI runs it; installs qemu-user as root where it is missing)
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "aarch64-check: $*" >&2; }
die() {
  echo "aarch64-check: error: $*" >&2
  exit 1
}

if ! command -v qemu-aarch64 >/dev/null; then
  say "no qemu-aarch64: installing Debian's qemu-user (tools/install-debian.sh qemu)"
  tools/install-debian.sh qemu
fi

platform=--platforms=//platforms:linux_aarch64
build=(//ops/... //tests:all)
tests=(//ops:all //ops/fuse:all //ops/optest:all //toolchains/resolver/... //ops/examples/...)

say "building ${build[*]} for linux-aarch64"
./bazelw build "$platform" "${build[@]}"

# 2. The executables: every go_binary/go_test/cc_binary/cc_test output of the built packages.
mapfile -t files < <(./bazelw cquery --keep_going "$platform" --output=files \
  "kind('(go|cc)_(binary|test)', deps(//tests:all, 1) + //ops/...)" 2>/dev/null)
[ ${#files[@]} -gt 0 ] || die "cquery found no executables in ${build[*]}"
allowed='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux-aarch64\.so\.1|libnvidia-ml\.so\.1|lib(cudart|cublas|cublasLt|cufft|cufftw|curand|cusparse|cusolver|nvrtc|nvJitLink|nccl)\.so\.[0-9]+)$'
checked=0
declare -A needed_all=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  machine=$(readelf -h "$f" 2>/dev/null | sed -n 's/^ *Machine: *//p')
  [ -n "$machine" ] || continue # not ELF (a script)
  [ "$machine" = AArch64 ] || die "$f: readelf -h says Machine: $machine, not AArch64"
  while read -r lib; do
    [[ $lib =~ $allowed ]] || die "$f NEEDs $lib, which x86-64 builds do not"
    needed_all[$lib]=1
  done < <(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  checked=$((checked + 1))
done
[ $checked -gt 0 ] || die "no ELF executables among ${#files[@]} outputs"
say "$checked executables: Machine: AArch64; NEEDED: $(printf '%s\n' "${!needed_all[@]}" | sort | tr '\n' ' ')"

# 3. The CPU tests under qemu-user, with the sysroot as the loader's root.
sysroot="$(./bazelw info output_base 2>/dev/null)/external/+sysroot+rules_cuda_go_aarch64_cc"
[ -d "$sysroot/lib/aarch64-linux-gnu" ] || die "no aarch64 sysroot at $sysroot"
say "running ${tests[*]} under qemu-aarch64 -L $sysroot"
# Without a binfmt_misc registration (a machine-wide setting this script leaves alone) the kernel
# cannot start an aarch64 program itself, only qemu-aarch64 can: so GO_TEST_WRAP=0 (rules_go's test
# main would re-execute itself for its XML report), and the two tests that run their own binary
# again as a child process (optest's TestRunFailsBrokenOps, cuda-archs' TestExec) are skipped.
./bazelw test "$platform" --run_under="$(command -v qemu-aarch64) -L $sysroot" --test_env=GO_TEST_WRAP=0 \
  --test_arg=-test.short --test_arg=-test.skip='^(TestRunFailsBrokenOps|TestExec)$' "${tests[@]}"

# 4. examples/bzlmod_consumer for linux-aarch64, as the README says, analysed (toolchain
#    resolution and the @cuda libraries; a full build of it compiles the same kernels again).
say "examples/bzlmod_consumer: bazel build --nobuild --platforms=@rules_cuda_go//platforms:linux_aarch64 //..."
(
  cd examples/bzlmod_consumer
  ../../bazelw build --nobuild --platforms=@rules_cuda_go//platforms:linux_aarch64 //...
  ../../bazelw shutdown
)
