"""current_cuda_toolchain: the selected CUDA toolchain's nvcc as Make variables, for genrules."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "use_cpp_toolchain")
load("//common:host_compiler.bzl", "host_compiler", "host_compiler_flags")
load("//common:toolchain.bzl", "CUDA_TOOLCHAIN", "CUDA_VERSION_ATTRS", "find_cuda")

def _current_cuda_toolchain_impl(ctx):
    cuda = find_cuda(ctx, "current_cuda_toolchain")
    host = host_compiler(ctx, cuda)
    h = cuda.headers
    includes = ["-I" + p for p in h.includes.to_list() + h.quote_includes.to_list()]
    includes += ["-isystem " + p for p in h.system_includes.to_list()]
    return [
        platform_common.TemplateVariableInfo({
            "NVCC": " ".join([cuda.nvcc.path] + host_compiler_flags(host)),
            "NVCC_INCLUDES": " ".join(includes),
        }),
        DefaultInfo(files = depset([cuda.nvcc], transitive = [cuda.toolkit_files, h.headers, host.files])),
    ]

current_cuda_toolchain = rule(
    implementation = _current_cuda_toolchain_impl,
    doc = """Make variables $(NVCC) (nvcc, with -ccbin naming the C++ toolchain's compiler, as cu_library
runs it) and $(NVCC_INCLUDES) (-I/-isystem for the runtime and CCCL headers) of the CUDA toolchain
selected by --@rules_cuda_go//toolchains:cuda_version. List it in a genrule's `toolchains` and `tools`
(its files are nvcc, what nvcc reads, the headers and the host compiler's files).""",
    attrs = CUDA_VERSION_ATTRS | {
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
    },
    toolchains = use_cpp_toolchain() + [CUDA_TOOLCHAIN],
    fragments = ["cpp"],
)
