"""current_cuda_toolchain: the selected CUDA toolchain's nvcc as Make variables, for genrules."""

_TOOLCHAIN_TYPE = Label("//toolchains:toolchain_type")

def _current_cuda_toolchain_impl(ctx):
    cuda = ctx.toolchains[_TOOLCHAIN_TYPE].cuda
    if not cuda.available:
        fail("%s needs the CUDA toolkit: %s" % (ctx.label, cuda.missing_message))
    h = cuda.headers
    includes = ["-I" + p for p in h.includes.to_list() + h.quote_includes.to_list()]
    includes += ["-isystem " + p for p in h.system_includes.to_list()]
    return [
        platform_common.TemplateVariableInfo({
            "NVCC": cuda.nvcc.path,
            "NVCC_INCLUDES": " ".join(includes),
        }),
        DefaultInfo(files = depset([cuda.nvcc], transitive = [cuda.toolkit_files, h.headers])),
    ]

current_cuda_toolchain = rule(
    implementation = _current_cuda_toolchain_impl,
    doc = """Make variables $(NVCC) (nvcc's path) and $(NVCC_INCLUDES) (-I/-isystem for the runtime and
CCCL headers) of the CUDA toolchain selected by --@rules_cuda_go//toolchains:cuda_version. List it in
a genrule's `toolchains` and `tools` (its files are nvcc, what nvcc reads, and the headers).""",
    toolchains = [_TOOLCHAIN_TYPE],
)
