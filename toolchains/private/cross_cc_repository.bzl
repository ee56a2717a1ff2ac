"""cross_cc_repository: a C++ cross toolchain for linux-aarch64, from pinned Debian packages.

One repository holds both halves, each a set of Debian bookworm packages checked by sha256 and
extracted (never installed): the glibc baseline's sysroot for arm64 (the same glibc 2.36 and GCC
12 runtime versions as the x86-64 baseline, toolchains/sysroot/packages.bzl) and Debian's cross
GCC 12 (x86-64 programs that emit aarch64 code) with its binutils. The binutils programs load their
own shared libraries (libbfd-2.40-arm64.so, ...), which the packages put in a directory the host's
loader does not search: usr/aarch64-linux-gnu/bin/ (where the compiler looks for its assembler and
linker by default; its -B flag also names it) holds small wrappers that set LD_LIBRARY_PATH and
run them, instead of the packages' symlinks. The default matters: rules_go's build of the Go
standard library runs cgo from another directory, where a relative -B names nothing. The BUILD file declares sysroot_cc_toolchain with it; the
toolchain is registered for target platforms with @platforms//cpu:aarch64 (toolchains/cross).
Nothing is fetched until a build targets aarch64.
"""

load("//toolchains/private:glibc_sysroot.bzl", "extract_debs", "prepare_sysroot")
load(
    "//toolchains/sysroot:packages.bzl",
    "CROSS_GCC_AARCH64_VERSION",
    "CROSS_GCC_PACKAGES_AARCH64",
    "SYSROOT_DISTRIBUTION",
    "SYSROOT_GLIBC",
    "SYSROOT_PACKAGES_ARM64",
)

_TRIPLET = "aarch64-linux-gnu"

# Wrapped binutils programs (_TOOL_DIR/<name> runs usr/bin/aarch64-linux-gnu-<name>).
_TOOL_DIR = "usr/aarch64-linux-gnu/bin"

_BINUTILS = ["as", "ld", "ld.bfd", "ld.gold", "ar", "nm", "objcopy", "objdump", "ranlib", "readelf", "strip", "c++filt", "dwp"]

# The C++ runtime's development link points at /usr/aarch64-linux-gnu/lib (Debian's cross runtime
# packages), which is not used: it goes to the sysroot's libstdc++.so.6 instead.
#
# The sysroot's development links: Bazel's extraction roots the packages' absolute symlink targets
# (libm.so -> /lib/aarch64-linux-gnu/libm.so.6) in the repository's own directory, which the
# x86-64 sysroot's fix-up turns into links to nothing, so that there only libc.so and libm.so
# (linker scripts on x86-64) and libstdc++.so link shared, and -lresolv, -lanl, ... take the static
# archives. The aarch64 sysroot links the same way: libm.so (a plain link on arm64) points at
# libm.so.6, the others are removed, so that no aarch64 binary NEEDs a library an x86-64 one does not.
_FIXUP = """
set -eu
ln -sfn ../../../aarch64-linux-gnu/libstdc++.so.6 usr/lib/gcc-cross/aarch64-linux-gnu/12/libstdc++.so
for l in usr/lib/aarch64-linux-gnu/*.so; do
  [ -L "$l" ] || continue
  case "${l##*/}" in
    libstdc++.so) ;;
    *) rm "$l" ;;
  esac
done
ln -sfn ../../../lib/aarch64-linux-gnu/libm.so.6 usr/lib/aarch64-linux-gnu/libm.so
"""

def _include_directories(rctx, gcc, root):
    """The cross compiler's include search path with --sysroot=root, as %sysroot%/... entries."""
    result = rctx.execute([gcc, "--sysroot=" + str(root), "-E", "-x", "c++", "-v", "/dev/null", "-o", "/dev/null"])
    if result.return_code != 0:
        fail("rules_cuda_go: the aarch64 cross compiler %s does not run (exit %d); it needs the host's libisl23, libmpc3, libmpfr6, libgmp10, libzstd1 and zlib1g (Debian: apt-get install gcc):\n%s" % (gcc, result.return_code, result.stderr))
    dirs, inside = [], False
    prefix = str(root.realpath) + "/"
    for line in result.stderr.splitlines():
        if line.startswith("#include <...> search starts here:"):
            inside = True
        elif line.startswith("End of search list."):
            inside = False
        elif inside:
            d = str(rctx.path(line.strip()).realpath)
            if not d.startswith(prefix):
                fail("rules_cuda_go: the aarch64 cross compiler searches %s, outside its repository" % d)
            dirs.append("%sysroot%/" + d[len(prefix):])
    return dirs

def _cross_cc_repository_impl(rctx):
    lines = extract_debs(rctx, SYSROOT_PACKAGES_ARM64)
    prepare_sysroot(rctx, _TRIPLET)
    lines.extend(extract_debs(rctx, CROSS_GCC_PACKAGES_AARCH64))
    for p in ["etc", "usr/share"]:
        rctx.delete(p)
    result = rctx.execute(["/bin/sh", "-c", _FIXUP])
    if result.return_code != 0:
        fail("rules_cuda_go: preparing the aarch64 cross compiler failed (exit %d):\n%s" % (result.return_code, result.stderr))
    tools = {}
    for tool in _BINUTILS:
        path = "%s/%s" % (_TOOL_DIR, tool)
        rctx.delete(path)
        rctx.template(path, Label(":cross_tool_wrapper.sh.tpl"), {"%{tool}": tool, "%{triplet}": _TRIPLET}, executable = True)
        tools[tool] = path
    for tool in ["gcov", "llvm-cov", "llvm-profdata"]:
        tools[tool] = "/bin/false"
    tools["cpp"] = "usr/bin/%s-cpp-12" % _TRIPLET
    root = rctx.path(".")
    rctx.file("packages.txt", "\n".join(lines) + "\n")
    rctx.template("BUILD.bazel", Label(":cross_cc.BUILD.tpl"), {
        "%{glibc}": SYSROOT_GLIBC,
        "%{distribution}": SYSROOT_DISTRIBUTION,
        "%{macro}": repr(str(Label("//toolchains/private:sysroot_cc_toolchain.bzl"))),
        "%{triplet}": _TRIPLET,
        "%{tool_dir}": _TOOL_DIR,
        "%{gcc_version}": CROSS_GCC_AARCH64_VERSION,
        "%{gcc_version_repr}": repr(CROSS_GCC_AARCH64_VERSION),
        "%{includes}": repr(_include_directories(rctx, rctx.path("usr/bin/%s-gcc-12" % _TRIPLET), root)),
        "%{tools}": repr(tools),
    })

cross_cc_repository = repository_rule(
    implementation = _cross_cc_repository_impl,
    doc = "GCC 12 for linux-aarch64 with the glibc baseline's arm64 sysroot, from pinned Debian packages.",
)
