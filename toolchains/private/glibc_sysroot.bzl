"""glibc_sysroot: the sysroot of the glibc baseline, made from pinned Debian packages.

Each .deb of //toolchains/sysroot:packages.bzl is downloaded (checked against its sha256), its data archive
extracted, and the result trimmed to what compiling and linking need: /usr/include, the C library's
crt files, shared and static libraries, libstdc++.so.6 and libgcc_s.so.1. Two things make it usable
from inside Bazel's sandboxes, where the sysroot is a tree of symlinks at a relative path:
- glibc's linker scripts (libc.so, libm.so) name absolute paths, which ld would look up on the host;
  they become bare file names, found through the toolchain's -L directories (the sysroot's);
- absolute symlinks (libm.so -> /lib/x86_64-linux-gnu/libm.so.6) become relative ones.
Nothing is fetched until the C++ toolchain that uses it is selected for a build.
"""

load("//toolchains/sysroot:packages.bzl", "DEBIAN_MIRRORS", "SYSROOT_DISTRIBUTION", "SYSROOT_GLIBC", "SYSROOT_PACKAGES")

# Parts of the packages that neither the compiler nor the linker reads ({triplet}: the multiarch
# directory, x86_64-linux-gnu or aarch64-linux-gnu).
PRUNE = [
    "etc",
    "sbin",
    "usr/bin",
    "usr/sbin",
    "usr/libexec",
    "usr/share",
    "usr/lib/{triplet}/gconv",
    "usr/lib/{triplet}/audit",
    "var",
]

# Runs in the repository directory: relative symlinks, linker scripts without absolute paths, and
# the libstdc++.so development link (libstdc++-12-dev's, which lives in GCC's own directory).
FIXUP = """
set -eu
triplet=$1
find . -type l -lname '/*' | while read -r link; do
  target=$(readlink "$link")
  dir=$(dirname "${link#./}")
  up=.
  [ "$dir" = . ] || up=$(echo "$dir" | sed -e 's@[^/][^/]*@..@g')
  ln -sfn "$up$target" "$link"
done
grep -l -r --include='*.so' 'GNU ld script' usr/lib | while read -r script; do
  sed -i -E "s%/(usr/)?lib(64)?/($triplet/)?%%g" "$script"
done
ln -sfn libstdc++.so.6 "usr/lib/$triplet/libstdc++.so"
"""

def extract_debs(rctx, packages, mirrors = DEBIAN_MIRRORS):
    """Downloads Debian packages (checked by sha256) and extracts their data into the repository.

    Args:
      rctx: the repository_ctx.
      packages: structs with name, version, path (in Debian's pool), sha256, sha1.
      mirrors: URL prefixes the pool paths are tried under, in order (snapshot.debian.org last).

    Returns:
      One "name version sha256" line per package.
    """
    lines = []
    for pkg in packages:
        deb = "_debs/%s.deb" % pkg.name
        rctx.download(
            url = [m + pkg.path for m in mirrors] + ["https://snapshot.debian.org/file/" + pkg.sha1],
            output = deb,
            sha256 = pkg.sha256,
        )
        rctx.extract(deb, output = "_debs/" + pkg.name)
        data = [f for f in rctx.path("_debs/" + pkg.name).readdir() if f.basename.startswith("data.tar")]
        if len(data) != 1:
            fail("rules_cuda_go: the Debian package %s %s has no data.tar.* member (found %s)" % (
                pkg.name,
                pkg.version,
                ", ".join([f.basename for f in rctx.path("_debs/" + pkg.name).readdir()]),
            ))
        rctx.extract(data[0], output = ".")
        lines.append("%s %s %s" % (pkg.name, pkg.version, pkg.sha256))
    rctx.delete("_debs")
    return lines

def prepare_sysroot(rctx, triplet):
    """Prunes what neither compiler nor linker reads and runs FIXUP for the multiarch triplet.

    Args:
      rctx: the repository_ctx, whose directory holds the extracted packages.
      triplet: the multiarch directory name (x86_64-linux-gnu, aarch64-linux-gnu).
    """
    for p in PRUNE:
        rctx.delete(p.format(triplet = triplet))
    result = rctx.execute(["/bin/sh", "-c", FIXUP, "fixup", triplet])
    if result.return_code != 0:
        fail("rules_cuda_go: preparing the glibc sysroot failed (exit %d):\n%s%s" % (result.return_code, result.stdout, result.stderr))

def _glibc_sysroot_impl(rctx):
    lines = extract_debs(rctx, SYSROOT_PACKAGES)
    prepare_sysroot(rctx, "x86_64-linux-gnu")
    rctx.file("packages.txt", "\n".join(lines) + "\n")
    rctx.template("BUILD.bazel", Label(":glibc_sysroot.BUILD.tpl"), {"%{glibc}": SYSROOT_GLIBC, "%{distribution}": SYSROOT_DISTRIBUTION})

glibc_sysroot = repository_rule(
    implementation = _glibc_sysroot_impl,
    doc = "The glibc baseline's sysroot, from the Debian packages pinned in //toolchains/sysroot:packages.bzl.",
)
