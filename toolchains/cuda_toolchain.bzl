"""cuda_toolchain: the rule behind @local_cuda//:toolchain (instantiated by the repository rule)."""

load("//toolchains:providers.bzl", "CudaToolchainInfo")

def _cuda_toolchain_impl(ctx):
    nvcc = ctx.executable.nvcc if ctx.attr.nvcc else None
    info = CudaToolchainInfo(
        available = nvcc != None,
        missing_message = ctx.attr.missing_message,
        nvcc = nvcc,
        toolkit_files = depset(ctx.files.toolkit_files + ([nvcc] if nvcc else [])),
        version = ctx.attr.version,
        supported_codes = ctx.attr.supported_codes,
        gpus = ctx.attr.gpus,
        arch_tokens = ctx.attr.arch_tokens,
        arch_unsupported = ctx.attr.arch_unsupported,
        arch_accepted = ctx.attr.arch_accepted,
        default_spec = ctx.attr.default_spec,
        default_source = ctx.attr.default_source,
        native_flags = ctx.attr.native_flags,
        native_error = ctx.attr.native_error,
    )
    return [platform_common.ToolchainInfo(cuda = info), info]

cuda_toolchain = rule(
    implementation = _cuda_toolchain_impl,
    doc = "Describes a CUDA toolkit. Written by the local_cuda repository rule; tests may declare their own.",
    attrs = {
        "nvcc": attr.label(allow_single_file = True, executable = True, cfg = "exec", doc = "nvcc; absent when no toolkit was found."),
        "toolkit_files": attr.label_list(allow_files = True, cfg = "exec", doc = "Other files nvcc reads."),
        "missing_message": attr.string(doc = "Why there is no toolkit, where we looked, how to fix it."),
        "version": attr.string(),
        "supported_codes": attr.string_list(),
        "gpus": attr.string_list(),
        "arch_tokens": attr.string_list_dict(),
        "arch_unsupported": attr.string_dict(),
        "arch_accepted": attr.string(),
        "default_spec": attr.string(),
        "default_source": attr.string(),
        "native_flags": attr.string_list(),
        "native_error": attr.string(),
    },
    provides = [CudaToolchainInfo],
)
