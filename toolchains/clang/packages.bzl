"""The pinned clang that compiles CUDA under --@rules_cuda_go//toolchains:cuda_compiler=clang.

Debian's LLVM 22 packages for bookworm (the bookworm-security backport of llvm-toolchain-22): a
whole clang with the NVPTX target, built against glibc 2.36 like the glibc baseline
(toolchains/sysroot), so it runs on every machine the rest of the build does. Each .deb is pinned
by version and sha256, and by sha1 for snapshot.debian.org (permanent: the security archive drops
a version when the next one comes). The LLVM libraries' own dependencies that a minimal Debian
lacks (Z3, libxml2 with ICU, libedit, libbsd) are pinned the same way and found through
LD_LIBRARY_PATH by the repository's clang wrapper: nothing is installed into the system.
docs/clang.md says why these packages and not a PyPI wheel.
"""

# The clang these packages hold, for messages and the toolchain.
CLANG_VERSION = "22.1.8"

# The newest CUDA version this clang knows (it warns "newer than the latest partially supported
# version" past it and treats the toolkit as that version).
CLANG_CUDA_KNOWN = "12.9"

# Toolkits newer than CLANG_CUDA_KNOWN checked with this clang: 13.5 (the default) builds //ops/...
# and passes //tests:all (.ci/run's clang step); 13.0 and 13.2 build //ops/cuda:kernels and
# //tests/rdc:cdp_main. Any other newer toolkit fails at analysis, naming both versions.
CLANG_CUDA_CHECKED = ["13.0", "13.2", "13.5"]

# The PTX ISA version this clang writes for CLANG_CUDA_KNOWN and newer toolkits (".version 8.8").
CLANG_PTX_ISA = "8.8"

# The GPU archs this clang targets (--cuda-gpu-arch=sm_XY; its NVPTX backend's list). Family
# codes (sm_XYf) are not among them.
CLANG_ARCHS = [
    "sm_50",
    "sm_52",
    "sm_53",
    "sm_60",
    "sm_61",
    "sm_62",
    "sm_70",
    "sm_72",
    "sm_75",
    "sm_80",
    "sm_86",
    "sm_87",
    "sm_88",
    "sm_89",
    "sm_90",
    "sm_90a",
    "sm_100",
    "sm_100a",
    "sm_101",
    "sm_101a",
    "sm_103",
    "sm_103a",
    "sm_110",
    "sm_110a",
    "sm_120",
    "sm_120a",
    "sm_121",
    "sm_121a",
]

# The install prefix inside the packages (clang, its resource directory).
CLANG_PREFIX = "usr/lib/llvm-22"

# The distribution the packages come from, for messages.
CLANG_DISTRIBUTION = "Debian 12 (bookworm-security)"

# Where the pool paths below are served, in order (the security archive first, for the LLVM
# packages; the main archive for the rest); a package's snapshot.debian.org URL comes last.
CLANG_MIRRORS = [
    "https://deb.debian.org/debian-security/",
    "https://deb.debian.org/debian/",
    "https://archive.debian.org/debian/",
]

CLANG_PACKAGES = [
    struct(
        name = "clang-22",
        version = "1:22.1.8-1~deb12u1",
        path = "pool/updates/main/l/llvm-toolchain-22/clang-22_22.1.8-1~deb12u1_amd64.deb",
        sha256 = "b6ffc4ffae2bf3d0757bab0623701060b30f5bb59e7ba4123d66b56fbb91362a",
        sha1 = "c1857739c33daf4f779904b9c1d26672d6ac34a6",
    ),
    struct(
        name = "libclang-cpp22",
        version = "1:22.1.8-1~deb12u1",
        path = "pool/updates/main/l/llvm-toolchain-22/libclang-cpp22_22.1.8-1~deb12u1_amd64.deb",
        sha256 = "662a8497190dd6cebaee2ac9421ed9d91cb1199eeabd154eafc4b5c1ac01d4b3",
        sha1 = "fdb25500b70dd5e2eb020f283e8e552efb3fbf23",
    ),
    struct(
        name = "libllvm22",
        version = "1:22.1.8-1~deb12u1",
        path = "pool/updates/main/l/llvm-toolchain-22/libllvm22_22.1.8-1~deb12u1_amd64.deb",
        sha256 = "729ec3e943d320515c2bbdc96acfffd7ce34861e62bd5c42726bf586d644dfe2",
        sha1 = "1c63681ab78825a6772e807bdd11573c6261c17d",
    ),
    # The resource directory: the CUDA wrapper headers (__clang_cuda_runtime_wrapper.h) and
    # clang's own builtin headers.
    struct(
        name = "libclang-common-22-dev",
        version = "1:22.1.8-1~deb12u1",
        path = "pool/updates/main/l/llvm-toolchain-22/libclang-common-22-dev_22.1.8-1~deb12u1_amd64.deb",
        sha256 = "833d7559bfbe169d7927dfe151cae48bf352da5202e36034a206688ae33f9031",
        sha1 = "b1bdfe252cb777db42362e7821a812d0e9d40198",
    ),
    # libLLVM's dependencies beyond the base system (libc, libstdc++, zlib, zstd, liblzma,
    # libtinfo, libffi, libmd).
    struct(
        name = "libz3-4",
        version = "4.8.12-3.1",
        path = "pool/main/z/z3/libz3-4_4.8.12-3.1_amd64.deb",
        sha256 = "6221ca25ad5abcfbe1965801029d85a88b4775320384b4b716de8fab7a4d2f7a",
        sha1 = "fbb90b35ee76ff59e2ba231e731e99a99cdbe8a0",
    ),
    struct(
        name = "libxml2",
        version = "2.9.14+dfsg-1.3~deb12u6",
        path = "pool/main/libx/libxml2/libxml2_2.9.14+dfsg-1.3~deb12u6_amd64.deb",
        sha256 = "4460e39dda10a815881374217cde08474747cfa018358cd8612c14b390eff53b",
        sha1 = "6a16bb0c777264fdbaef83273f581dc658af18ba",
    ),
    struct(
        name = "libicu72",
        version = "72.1-3+deb12u1",
        path = "pool/main/i/icu/libicu72_72.1-3+deb12u1_amd64.deb",
        sha256 = "f7f6f99c6d7b025914df2447fc93e11d22c44c0c8bdd8b6f36691c9e7ddcef88",
        sha1 = "33fdfc4e0715648c57182b80bcaf0254a0372776",
    ),
    struct(
        name = "libedit2",
        version = "3.1-20221030-2",
        path = "pool/main/libe/libedit/libedit2_3.1-20221030-2_amd64.deb",
        sha256 = "1cf14abf2716d3279db12d0657a5737cf70074a1e71d3bdf73206625e3c89ce6",
        sha1 = "7a810b1f6c6606e8454e96f650062ed29d1bf254",
    ),
    struct(
        name = "libbsd0",
        version = "0.11.7-2",
        path = "pool/main/libb/libbsd/libbsd0_0.11.7-2_amd64.deb",
        sha256 = "bb31cc8b40f962a85b2cec970f7f79cc704a1ae4bad24257a822055404b2c60b",
        sha1 = "2ca1a6d76af4e7577fe50aed21e97ce95c61cefd",
    ),
]
