"""The CUDA toolchain type and its one lookup, for the rules (rules/) and the toolchains' own rules
(toolchains/): the selected toolkit, or a failure naming the target and what to do."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")

# The toolchain type cu_library resolves; toolchains/BUILD.bazel declares it and @cuda//:all
# registers one toolchain of it per toolkit.
CUDA_TOOLCHAIN_TYPE = Label("//toolchains:toolchain_type")

# A rule that calls find_cuda lists this among its toolchains (optional, so that a missing toolkit is
# reported by find_cuda, naming the target, rather than by toolchain resolution) ...
CUDA_TOOLCHAIN = config_common.toolchain_type(CUDA_TOOLCHAIN_TYPE, mandatory = False)

# ... and these among its attributes.
CUDA_VERSION_ATTRS = {
    "_cuda_version": attr.label(default = Label("//toolchains:cuda_version")),
}

def find_cuda(ctx, kind):
    """The CudaToolchainInfo of the toolchain selected for ctx, or a failure naming the target.

    Args:
      ctx: the rule context (a rule with CUDA_TOOLCHAIN and CUDA_VERSION_ATTRS).
      kind: the rule's name, for messages ("cu_library").

    Returns:
      CudaToolchainInfo of an available toolkit.
    """
    toolchain = ctx.toolchains[CUDA_TOOLCHAIN_TYPE]
    if not toolchain:
        fail(("%s %s: no CUDA toolchain matches --@rules_cuda_go//toolchains:cuda_version=%s; " +
              "the declared toolkits are the `version_*` settings in @cuda//:BUILD.bazel (rules_cuda_go " +
              "registers @cuda//:all; WORKSPACE users call rules_cuda_go_toolchains()).") % (kind, ctx.label, ctx.attr._cuda_version[BuildSettingInfo].value))
    cuda = toolchain.cuda
    if not cuda.available:
        fail("%s %s needs the CUDA toolkit: %s" % (kind, ctx.label, cuda.missing_message))
    return cuda
