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
