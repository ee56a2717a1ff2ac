"""clang_repository: the pinned clang (toolchains/clang/packages.bzl), unpacked from Debian packages.

Each .deb is downloaded (checked against its sha256) and its data archive extracted, as the glibc
baseline's sysroot is; what a CUDA compile does not read (documentation, CMake files, the other
LLVM programs) is removed. bin/clang is a wrapper that runs the packaged clang with the packaged
libraries first on LD_LIBRARY_PATH, so the host's own LLVM, Z3 or ICU, if any, play no part.

clang compiles host code against the glibc baseline's sysroot (--sysroot, from the C++ toolchain)
and needs the C++ headers of the GCC that toolchain uses: --gcc-install-dir, found here from $CC
(else gcc on PATH), as toolchains/private/host_cc_repository.bzl finds it.

Nothing is fetched until a build selects clang (--@rules_cuda_go//toolchains:cuda_compiler=clang).
"""

load("//toolchains/clang:packages.bzl", "CLANG_ARCHS", "CLANG_CUDA_CHECKED", "CLANG_CUDA_KNOWN", "CLANG_DISTRIBUTION", "CLANG_MIRRORS", "CLANG_PACKAGES", "CLANG_PREFIX", "CLANG_PTX_ISA", "CLANG_VERSION")
load(":glibc_sysroot.bzl", "extract_debs")

# Kept of what the packages install: the programs' directory and resource directory, and the
# shared libraries (libLLVM, libclang-cpp and their dependencies).
_KEEP = [CLANG_PREFIX, "usr/lib/x86_64-linux-gnu"]

def _gcc_install_dir(rctx):
    """The directory of the GCC that the C++ toolchain uses ($CC, else gcc on PATH)."""
    cc = rctx.os.environ.get("CC", "")
    gcc = (rctx.which(cc) if "/" not in cc else rctx.path(cc)) if cc else rctx.which("gcc")
    if not gcc or not gcc.exists:
        fail("rules_cuda_go: clang compiles host code with the C++ headers of the C++ toolchain's GCC, and there is no %s; install GCC (Debian: apt-get install g++) or set CC" % (("CC=" + cc) if cc else "gcc on PATH"))
    result = rctx.execute([gcc, "-print-libgcc-file-name"])
    if result.return_code != 0 or not result.stdout.strip():
        fail("rules_cuda_go: %s -print-libgcc-file-name failed (exit %d): %s" % (gcc, result.return_code, result.stderr))
    return str(rctx.path(result.stdout.strip()).dirname)

def _clang_repository_impl(rctx):
    lines = extract_debs(rctx, CLANG_PACKAGES, CLANG_MIRRORS)
    for top in ["etc", "usr/share", "usr/bin", "usr/include"]:
        rctx.delete(top)
    for d in rctx.path("usr/lib").readdir():
        if "usr/lib/" + d.basename not in _KEEP and not CLANG_PREFIX.startswith("usr/lib/" + d.basename):
            rctx.delete(d)
    for d in rctx.path(CLANG_PREFIX).readdir():
        if d.basename not in ["bin", "lib"]:
            rctx.delete(d)
    for d in rctx.path(CLANG_PREFIX + "/lib").readdir():
        if d.basename != "clang" and not d.basename.startswith("lib"):
            rctx.delete(d)
    for f in rctx.path(CLANG_PREFIX + "/bin").readdir():
        if f.basename not in ["clang", "clang++", "clang-22"]:
            rctx.delete(f)
    rctx.template("bin/clang", Label(":clang_wrapper.sh.tpl"), {"%{version}": CLANG_VERSION, "%{prefix}": CLANG_PREFIX}, executable = True)
    result = rctx.execute(["bin/clang", "--version"])
    if result.return_code != 0 or CLANG_VERSION not in result.stdout:
        fail("rules_cuda_go: the pinned clang %s does not run on this machine (exit %d):\n%s%s" % (CLANG_VERSION, result.return_code, result.stdout, result.stderr))
    rctx.file("packages.txt", "\n".join(lines) + "\n")
    rctx.template("BUILD.bazel", Label(":clang.BUILD.tpl"), {
        "%{version}": CLANG_VERSION,
        "%{version_repr}": repr(CLANG_VERSION),
        "%{distribution}": CLANG_DISTRIBUTION,
        "%{rule}": repr(str(Label("//toolchains/private:clang_compiler.bzl"))),
        "%{prefix}": CLANG_PREFIX,
        "%{cuda_known}": repr(CLANG_CUDA_KNOWN),
        "%{cuda_checked}": repr(CLANG_CUDA_CHECKED),
        "%{ptx_isa}": repr(CLANG_PTX_ISA),
        "%{archs}": repr(CLANG_ARCHS),
        "%{gcc_install_dir}": repr(_gcc_install_dir(rctx)),
    })

clang_repository = repository_rule(
    implementation = _clang_repository_impl,
    environ = ["CC", "PATH"],
    doc = "The pinned clang of toolchains/clang/packages.bzl, for CUDA compiles with cuda_compiler=clang.",
)
