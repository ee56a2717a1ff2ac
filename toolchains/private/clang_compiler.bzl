"""clang_compiler: the pinned clang, as cu_library reads it (ClangInfo). Declared by @rules_cuda_go_clang."""

load("//common:providers.bzl", "ClangInfo")

def _clang_compiler_impl(ctx):
    return [ClangInfo(
        clang = ctx.executable.clang,
        files = depset([ctx.executable.clang] + ctx.files.files),
        version = ctx.attr.version,
        cuda_known = ctx.attr.cuda_known,
        cuda_checked = ctx.attr.cuda_checked,
        ptx_isa = ctx.attr.ptx_isa,
        archs = ctx.attr.archs,
        gcc_install_dir = ctx.attr.gcc_install_dir,
    )]

clang_compiler = rule(
    implementation = _clang_compiler_impl,
    doc = "The pinned clang (toolchains/clang/packages.bzl); the clang repository's BUILD file declares it.",
    attrs = {
        "clang": attr.label(allow_single_file = True, executable = True, cfg = "exec", mandatory = True, doc = "The clang driver (the repository's wrapper)."),
        "files": attr.label_list(allow_files = True, cfg = "exec", doc = "What clang reads of its own."),
        "version": attr.string(mandatory = True),
        "cuda_known": attr.string(mandatory = True),
        "cuda_checked": attr.string_list(),
        "ptx_isa": attr.string(mandatory = True),
        "archs": attr.string_list(mandatory = True),
        "gcc_install_dir": attr.string(mandatory = True),
    },
    provides = [ClangInfo],
)

def _no_clang_impl(_ctx):
    return []

# What //toolchains:clang points at while nvcc compiles CUDA: no ClangInfo, and nothing fetched.
no_clang = rule(
    implementation = _no_clang_impl,
    doc = "Stands in for the clang compiler while --@rules_cuda_go//toolchains:cuda_compiler=nvcc.",
)
