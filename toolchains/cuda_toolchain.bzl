"""cuda_toolchain: what cu_library gets from the selected CUDA toolkit (pinned or local)."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//common:providers.bzl", "CudaToolchainInfo")

def _cc(target):
    """The target's CcInfo; None without one (a library the toolkit lacks: see components.bzl)."""
    return target[CcInfo] if target and CcInfo in target else None

# What clang reads of the toolkit under --cuda-path (besides the headers): the path inside the
# toolkit's files -> the path under the --cuda-path directory built for it.
_CLANG_CUDA_FILES = {
    "bin/ptxas": "bin/ptxas",
    "bin/fatbinary": "bin/fatbinary",
    "nvvm/libdevice/libdevice.10.bc": "nvvm/libdevice/libdevice.10.bc",
}

def _clang_cuda(ctx, headers):
    """The toolkit as clang reads it (CudaToolchainInfo.clang_cuda), and why not where it cannot.

    clang takes one --cuda-path directory with bin/ (ptxas, fatbinary), nvvm/libdevice and
    include/cuda.h (whose CUDA_VERSION it reads), and a pinned toolkit is several repositories: a
    directory of links to those files is made per toolchain; every other header comes with -isystem.
    """
    found = {}
    for f in ctx.files.compiler_files:
        for want in _CLANG_CUDA_FILES:
            if want not in found and f.path.endswith("/" + want):
                found[want] = f
    for f in headers.headers.to_list():
        if f.basename == "cuda.h" and f.dirname.endswith("/include") and "include/cuda.h" not in found:
            found["include/cuda.h"] = f
    missing = [w for w in list(_CLANG_CUDA_FILES) + ["include/cuda.h"] if w not in found]
    if missing:
        return None, "%s lacks %s, which clang reads under --cuda-path" % (ctx.attr.toolkit, ", ".join(missing))
    links = {}
    for want, f in found.items():
        link = ctx.actions.declare_file("%s_clang_cuda/%s" % (ctx.label.name, _CLANG_CUDA_FILES.get(want, want)))
        ctx.actions.symlink(output = link, target_file = f, is_executable = want.startswith("bin/"))
        links[want] = link
    root = links["include/cuda.h"].dirname[:-len("/include")]
    clang_headers = cc_common.merge_cc_infos(cc_infos = [h[CcInfo] for h in ctx.attr.clang_headers])
    return struct(
        root = root,
        files = depset(links.values(), transitive = [depset(found.values())]),
        ptxas = found["bin/ptxas"],
        fatbinary = found["bin/fatbinary"],
        headers = clang_headers.compilation_context,
    ), ""

def _cuda_toolchain_impl(ctx):
    nvcc = ctx.executable.nvcc if ctx.attr.nvcc else None
    shared = ctx.attr._cudart[BuildSettingInfo].value == "shared"
    headers = cc_common.merge_cc_infos(cc_infos = [h[CcInfo] for h in ctx.attr.headers])
    clang_cuda, missing_clang = _clang_cuda(ctx, headers.compilation_context) if nvcc else (None, "")
    info = CudaToolchainInfo(
        available = nvcc != None,
        missing_message = ctx.attr.missing_message,
        toolkit = ctx.attr.toolkit,
        version = ctx.attr.version,
        nvcc = nvcc,
        nvcc_stage = ctx.executable._nvcc_stage,
        nvcc_split = ctx.executable._nvcc_split,
        toolkit_files = depset(ctx.files.compiler_files + ([nvcc] if nvcc else [])),
        host_compiler = ctx.executable.host_compiler if ctx.attr.host_compiler else None,
        headers = headers.compilation_context,
        cudart = _cc(ctx.attr.cudart_shared if shared else ctx.attr.cudart_static),
        cudadevrt = _cc(ctx.attr.cudadevrt),
        arch_tokens = ctx.attr.arch_tokens,
        arch_unsupported = ctx.attr.arch_unsupported,
        arch_accepted = ctx.attr.arch_accepted,
        arch_separators = ctx.attr.arch_separators,
        default_spec = ctx.attr.default_spec,
        default_source = ctx.attr.default_source,
        native_flags = ctx.attr.native_flags,
        native_error = ctx.attr.native_error,
        clang_cuda = clang_cuda,
        missing_clang = missing_clang,
    )
    return [platform_common.ToolchainInfo(cuda = info), info]

cuda_toolchain = rule(
    implementation = _cuda_toolchain_impl,
    doc = "Describes a CUDA toolkit. Written by the toolkit repository rules; tests may declare their own.",
    attrs = {
        "nvcc": attr.label(allow_single_file = True, executable = True, cfg = "exec", doc = "nvcc; absent when there is no toolkit."),
        "host_compiler": attr.label(
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "A host compiler the toolkit is bound to (Debian's nvcc 11.8 ships bin/gcc, which picks a gcc it supports); unset: nvcc gets the C++ toolchain's compiler with -ccbin.",
        ),
        "_nvcc_stage": attr.label(
            default = Label("//toolchains/private:nvcc_stage.sh"),
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "Runs nvcc on sources staged at a fixed modification time (builds with device line info).",
        ),
        "_nvcc_split": attr.label(
            default = Label("//toolchains/private:nvcc_split.sh"),
            allow_single_file = True,
            executable = True,
            cfg = "exec",
            doc = "Runs the host half of a split nvcc compile: the host code to assembly, the fatbinary step and the object (rules/private/nvcc_compile.bzl).",
        ),
        "compiler_files": attr.label_list(allow_files = True, cfg = "exec", doc = "Everything nvcc reads besides the headers (bin/, nvvm/)."),
        "headers": attr.label_list(providers = [CcInfo], doc = "Headers every CUDA compile sees: the runtime's (cuda_runtime.h, crt/) and CCCL's."),
        "clang_headers": attr.label_list(providers = [CcInfo], doc = "Headers clang's CUDA wrapper includes besides those (cuRAND's curand_mtgp32_kernel.h), for --cuda_compiler=clang."),
        "cudart_static": attr.label(doc = "libcudart_static.a (CcInfo); a target without CcInfo where the toolkit lacks it."),
        "cudart_shared": attr.label(doc = "libcudart.so (CcInfo); a target without CcInfo where the toolkit lacks it."),
        "cudadevrt": attr.label(doc = "libcudadevrt.a (CcInfo), for relocatable device code; a target without CcInfo where the toolkit lacks it."),
        "missing_message": attr.string(doc = "Why there is no toolkit, where we looked, how to fix it."),
        "toolkit": attr.string(doc = "The toolkit, for messages: 'CUDA 13.2 (pinned)'."),
        "version": attr.string(doc = "nvcc's version, e.g. 13.2.86."),
        "arch_tokens": attr.string_list_dict(),
        "arch_unsupported": attr.string_dict(),
        "arch_accepted": attr.string(),
        "arch_separators": attr.string(doc = "The characters that separate spec entries: the SEPARATORS of the resolver's table."),
        "default_spec": attr.string(),
        "default_source": attr.string(),
        "native_flags": attr.string_list(),
        "native_error": attr.string(),
        "_cudart": attr.label(default = Label("//toolchains:cudart")),
    },
    provides = [CudaToolchainInfo],
)
