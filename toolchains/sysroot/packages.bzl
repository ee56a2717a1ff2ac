"""The glibc baseline: Debian packages that make the sysroot host code is compiled and linked against.

Debian bookworm's glibc 2.36 and GCC 12's C++ runtime (libstdc++.so.6 up to GLIBCXX_3.4.30). Each
package is pinned by version and sha256. Debian's pool drops a version at the next point release, so
every package is also listed by sha1 at snapshot.debian.org (permanent) and on archive.debian.org
(where a release goes after its end of life). tools/sysroot/pins.sh prints these entries for other
versions.

Why not older: bullseye's glibc 2.31 comes with GCC 10's libstdc++ (GLIBCXX_3.4.28); code compiled
by GCC 12 needs 3.4.29+, and bookworm's libstdc++ itself needs glibc 2.36, so a 2.31 sysroot
cannot link C++ built by the GCC that Debian and these rules use.
"""

# What binaries built against the sysroot may need at most; the glibc check enforces it.
SYSROOT_GLIBC = "2.36"
SYSROOT_GLIBCXX = "3.4.30"
SYSROOT_CXXABI = "1.3.13"

# The distribution the packages come from, for messages.
SYSROOT_DISTRIBUTION = "Debian 12 (bookworm)"

SYSROOT_PACKAGES = [
    struct(
        name = "libc6",
        version = "2.36-9+deb12u14",
        path = "pool/main/g/glibc/libc6_2.36-9+deb12u14_amd64.deb",
        sha256 = "ba4f88f73dbc3ae9055f3c20f4523bfdbaf1ad13ff95e258924f77d20b4fbedf",
        sha1 = "c534c6c7f912b61ca26b7cf4082235a0343b8751",
    ),
    struct(
        name = "libc6-dev",
        version = "2.36-9+deb12u14",
        path = "pool/main/g/glibc/libc6-dev_2.36-9+deb12u14_amd64.deb",
        sha256 = "0218fc2befcd784c1b0c6292c0a137ce89fad054efaa579ad083bee0f2c01aae",
        sha1 = "d609b4707ac7cb95b042958e54fec4d78596ecfc",
    ),
    struct(
        name = "linux-libc-dev",
        version = "6.1.176-1",
        path = "pool/main/l/linux/linux-libc-dev_6.1.176-1_amd64.deb",
        sha256 = "8bb258735b9dffbb111da778ebdd024750878e435ffd9dfcadcb6762ede6b4cf",
        sha1 = "c3fd80759d1d4960ded82b89e02c433664d72959",
    ),
    struct(
        name = "libstdc++6",
        version = "12.2.0-14+deb12u1",
        path = "pool/main/g/gcc-12/libstdc++6_12.2.0-14+deb12u1_amd64.deb",
        sha256 = "5cd3171216d4ab0fc911cfe9c35509bf2dd8f47761c43b7f6a4296701551a24d",
        sha1 = "b1d2dc0cd7bcd57fa4b1ea6dd27a40384d45b937",
    ),
    struct(
        name = "libgcc-s1",
        version = "12.2.0-14+deb12u1",
        path = "pool/main/g/gcc-12/libgcc-s1_12.2.0-14+deb12u1_amd64.deb",
        sha256 = "3016e62cb4b7cd8038822870601f5ed131befe942774d0f745622cc77d8a88f7",
        sha1 = "c72798568b9086ecacf3d46e420c6d90b78ce50d",
    ),
]

# Where the pool paths above are served, in order; a package's snapshot.debian.org URL comes last.
DEBIAN_MIRRORS = [
    "https://deb.debian.org/debian/",
    "https://archive.debian.org/debian/",
]

# The same glibc baseline for linux-aarch64 (Debian's arm64 packages of the versions above): the
# sysroot of the aarch64 cross toolchain (toolchains/cross).
SYSROOT_PACKAGES_ARM64 = [
    struct(
        name = "libc6",
        version = "2.36-9+deb12u14",
        path = "pool/main/g/glibc/libc6_2.36-9+deb12u14_arm64.deb",
        sha256 = "01f4330719fd4f65580e16ea5a0527f372fca750e8f588d26deaf09f2d3b1cf4",
        sha1 = "85af57bf1f9fa075163e51c99d9536154c21ab7e",
    ),
    struct(
        name = "libc6-dev",
        version = "2.36-9+deb12u14",
        path = "pool/main/g/glibc/libc6-dev_2.36-9+deb12u14_arm64.deb",
        sha256 = "8bc395bf2ee9939f1a6ae395f974cffdcf541d98f99adfe89ce7e4bef36d159e",
        sha1 = "95000bbf7ff66aabc9a2d3f0ab027f39c894be96",
    ),
    struct(
        name = "linux-libc-dev",
        version = "6.1.176-1",
        path = "pool/main/l/linux/linux-libc-dev_6.1.176-1_arm64.deb",
        sha256 = "eeca5ec13bed7206f8171fab9a48e84119dcc20cc79557f104628447a524ad10",
        sha1 = "c528c4707fe2bdd73f1b66ed82d5eb62305508b6",
    ),
    struct(
        name = "libstdc++6",
        version = "12.2.0-14+deb12u1",
        path = "pool/main/g/gcc-12/libstdc++6_12.2.0-14+deb12u1_arm64.deb",
        sha256 = "26e138c677a985775331373828a6c286c551ff397cb735d00e2383cb273d1cb2",
        sha1 = "d0ab5371c1259b637436b4e61381e47385386650",
    ),
    struct(
        name = "libgcc-s1",
        version = "12.2.0-14+deb12u1",
        path = "pool/main/g/gcc-12/libgcc-s1_12.2.0-14+deb12u1_arm64.deb",
        sha256 = "576926b283613db80168ddf76380a3bd877602778cf0d226caa7bfbfa71eacf3",
        sha1 = "6534755fbb89e7bd0ef86c53fce6f34b4f7bfbd4",
    ),
]

# Debian bookworm's cross GCC 12 for aarch64: x86-64 programs that emit aarch64 code, with the
# target's libgcc and the C++ headers and static parts of libstdc++ (the shared ones come from the
# sysroot above). Their programs need the host's libisl, libmpc, libmpfr, libgmp, libjansson,
# libzstd and zlib, which Debian's own gcc and binutils need too.
CROSS_GCC_AARCH64_VERSION = "12.2.0"

CROSS_GCC_PACKAGES_AARCH64 = [
    struct(
        name = "gcc-12-aarch64-linux-gnu",
        version = "12.2.0-14cross1",
        path = "pool/main/g/gcc-12-cross/gcc-12-aarch64-linux-gnu_12.2.0-14cross1_amd64.deb",
        sha256 = "43747bbcd46a4062e66e855090b8ed9c2e06a93ae5a69fb304beebbc8c36d11f",
        sha1 = "799d7b1894254a6f004b30ade99a9f5e61cce448",
    ),
    struct(
        name = "cpp-12-aarch64-linux-gnu",
        version = "12.2.0-14cross1",
        path = "pool/main/g/gcc-12-cross/cpp-12-aarch64-linux-gnu_12.2.0-14cross1_amd64.deb",
        sha256 = "5921df4ad56e34e6257a1caf862474845aab6548ba7ae7852e8cdd7cb622394e",
        sha1 = "4987faa12e302941f6f49f622bb05ffca5da62e9",
    ),
    struct(
        name = "g++-12-aarch64-linux-gnu",
        version = "12.2.0-14cross1",
        path = "pool/main/g/gcc-12-cross/g++-12-aarch64-linux-gnu_12.2.0-14cross1_amd64.deb",
        sha256 = "3693e31fe2b42fcbdd92fef3e5578e91dd86af30e3d2c5fff3f9821e34a1cb91",
        sha1 = "5e3736cf6de508d4f6a21676ba2e9c7b6fb89538",
    ),
    struct(
        name = "binutils-aarch64-linux-gnu",
        version = "2.40-2",
        path = "pool/main/b/binutils/binutils-aarch64-linux-gnu_2.40-2_amd64.deb",
        sha256 = "3d6f64a7a4ed6d73719f8fa2e85fd896f58ff7f211a6683942ba93de690aaa66",
        sha1 = "1343cc8ccec1823f769b2a9476a027f3606610a6",
    ),
    struct(
        name = "libgcc-12-dev-arm64-cross",
        version = "12.2.0-14cross1",
        path = "pool/main/g/gcc-12-cross/libgcc-12-dev-arm64-cross_12.2.0-14cross1_all.deb",
        sha256 = "ff1324e262bae2c3aad685c2ed52bd531ab0a2a337a0fe35c3b720947d55b2ba",
        sha1 = "d589c714a74a3c640186c2bb6ba479b189296bb5",
    ),
    struct(
        name = "libstdc++-12-dev-arm64-cross",
        version = "12.2.0-14cross1",
        path = "pool/main/g/gcc-12-cross/libstdc++-12-dev-arm64-cross_12.2.0-14cross1_all.deb",
        sha256 = "942b5710c6b9792578dfa64f7a4633bc0d3cb205b56ded11297e240ff824f5da",
        sha1 = "328a4156c3b173232b790fe0912db2d9b9fe469d",
    ),
]
