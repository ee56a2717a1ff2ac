"""What every rule that compiles or links CUDA starts with: the CUDA toolchain, found or failed
clearly, and the GPU archs to build for.

A rule lists CUDA_TOOLCHAINS as its toolchains and CUDA_ATTRS among its attributes, then calls
build_cuda(ctx) (false under --config=cpu), find_cuda(ctx, kind) and target_archs(ctx, cuda, kind).
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "use_cpp_toolchain")
load("//common:providers.bzl", "ClangInfo")
load("//common:toolchain.bzl", "CUDA_TOOLCHAIN", "CUDA_VERSION_ATTRS", _find_cuda = "find_cuda")
load(":archs.bzl", "resolve_archs")
load(":clang_compile.bzl", "clang_check")

# The C++ toolchain (the host compiler, the link) and the CUDA one (common/toolchain.bzl).
CUDA_TOOLCHAINS = use_cpp_toolchain() + [CUDA_TOOLCHAIN]

# The settings find_cuda and target_archs read, and the C++ toolchain.
CUDA_ATTRS = CUDA_VERSION_ATTRS | {
    "_archs": attr.label(default = Label("//toolchains:archs")),
    "_build_cuda": attr.label(default = Label("//toolchains:effective_build_cuda")),
    "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
    "_cuda_compiler": attr.label(default = Label("//toolchains:cuda_compiler")),
    "_clang": attr.label(default = Label("//toolchains:clang")),
    "_aarch64": attr.label(default = Label("@platforms//cpu:aarch64")),
}

# The archs only Jetson boards have, by their sm number: their CUDA is JetPack's (L4T), not the sbsa
# wheels that linux-aarch64 builds link (Thor, sm_110, is sbsa since CUDA 13).
_JETSON_ONLY = {
    "53": ("5.3", "Jetson Nano and TX1"),
    "62": ("6.2", "Jetson TX2"),
    "72": ("7.2", "Jetson Xavier"),
    "87": ("8.7", "Jetson Orin"),
}

def build_cuda(ctx):
    """Whether CUDA is built (False under --config=cpu: no toolkit needed, nothing compiled)."""
    return ctx.attr._build_cuda[BuildSettingInfo].value

# The selected toolkit or a failure naming the target: the one lookup (common/toolchain.bzl).
find_cuda = _find_cuda

def target_archs(ctx, cuda, kind):
    """The -gencode flags of the target's arch spec: its archs attribute, else --cuda_archs.

    Args:
      ctx: the rule context (a rule with CUDA_ATTRS; an `archs` attribute is optional).
      cuda: CudaToolchainInfo.
      kind: the rule's name, for messages.

    Returns:
      (gencode, spec): the sorted -gencode flags and the spec they came from; fails, naming the
      bad entry, when the spec does not resolve.
    """
    archs = getattr(ctx.attr, "archs", "")
    if archs:
        spec, where = archs, "the archs attribute of %s" % ctx.label
    else:
        spec, where = ctx.attr._archs[BuildSettingInfo].value, "--@rules_cuda_go//toolchains:archs (--cuda_archs)"
    gencode, err = resolve_archs(spec, cuda, where)
    if err:
        fail("%s %s: %s" % (kind, ctx.label, err))
    if ctx.target_platform_has_constraint(ctx.attr._aarch64[platform_common.ConstraintValueInfo]):
        for flag in gencode:
            sm = flag.rpartition("_")[2].rstrip("af")
            if sm in _JETSON_ONLY:
                arch, board = _JETSON_ONLY[sm]
                fail(("%s %s: CUDA arch %s (%s, in spec %r from %s) is not built for linux-aarch64: that platform " +
                      "is sbsa (Grace, and Jetson Thor, arch 11.0, since CUDA 13), linked against NVIDIA's sbsa " +
                      "libraries, and %s runs JetPack's (L4T) CUDA, whose libraries rules_cuda_go does not pin. " +
                      "For Thor use 11.0; for %s, build with JetPack's own toolkit, or leave %s out of the list " +
                      "for this platform.") % (kind, ctx.label, arch, board, spec, where, board, board, arch))
    return gencode, spec

def find_clang(ctx, cuda, gencode, kind):
    """The clang that compiles CUDA, where --cuda_compiler=clang, and the archs it compiles for.

    Args:
      ctx: the rule context (a rule with CUDA_ATTRS).
      cuda: CudaToolchainInfo.
      gencode: the -gencode flags of target_archs.
      kind: the rule's name, for messages.

    Returns:
      (ClangInfo, [(virtual arch, [codes])]), or (None, None) where nvcc compiles CUDA. Fails at
      analysis where clang cannot build this (clang_compile.clang_check).
    """
    if ctx.attr._cuda_compiler[BuildSettingInfo].value != "clang":
        return None, None
    if ctx.target_platform_has_constraint(ctx.attr._aarch64[platform_common.ConstraintValueInfo]):
        fail("%s %s: --cuda_compiler=clang builds for linux_x86_64 only; a linux_aarch64 build needs clang with the cross GCC's headers, which it does not have yet. Use --cuda_compiler=nvcc." % (kind, ctx.label))
    clang = ctx.attr._clang[ClangInfo] if ClangInfo in ctx.attr._clang else None
    return clang, clang_check(kind, ctx.label, cuda, clang, gencode)
