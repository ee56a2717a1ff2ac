"""Whether a resolved C++ toolchain is the glibc baseline's (toolchains/sysroot)."""

# The toolchain_identifier prefix host_cc_repository gives the baseline's toolchain
# (toolchains/private/sysroot_cc_toolchain.bzl), followed by the GCC version.
BASELINE_TOOLCHAIN_ID_PREFIX = "rules_cuda_go_sysroot_gcc_"

def is_baseline_cc_toolchain(toolchain):
    """Whether toolchain, a resolved @bazel_tools//tools/cpp:toolchain_type (or None), is the baseline's.

    Args:
      toolchain: ctx.toolchains["@bazel_tools//tools/cpp:toolchain_type"]: a ToolchainInfo whose
        `cc` field is a CcToolchainInfo, or None when no C++ toolchain was resolved.

    Returns:
      bool.
    """
    if toolchain == None or not hasattr(toolchain, "cc"):
        return False
    return toolchain.cc.toolchain_id.startswith(BASELINE_TOOLCHAIN_ID_PREFIX)
