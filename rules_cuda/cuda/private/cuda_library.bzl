"""cuda_library and cuda_objects: rules_cuda's rules, built by rules_cuda_go's cu_library.

Both compile as cu_library does (split per-arch nvcc actions, hermetic toolkits, the C++
toolchain's compiler as nvcc's host compiler) and return CcInfo; their attributes and rules_cuda's
flags are mapped onto cu_library's. What has no counterpart fails at analysis, saying what to
write instead.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("@rules_cuda_go//rules:extend.bzl", "CUDA_TOOLCHAINS", "CU_LIBRARY_ATTRS", "CuInfo", "build_cuda", "cu_library_impl", "find_cuda")
load(":archs.bzl", "check_supported", "parse_archs")
load(":flags.bzl", "CudaArchsInfo")

# The default of --@rules_cuda//cuda:runtime: the CUDA runtime that rules_cuda_go's
# --@rules_cuda_go//toolchains:cudart chooses.
DEFAULT_RUNTIME = Label("//cuda:runtime_from_rules_cuda_go")

def _unmappable(ctx, kind):
    """Fails, naming the attribute or flag and what to write instead, where rules_cuda's meaning has no counterpart."""
    where = "%s %s" % (kind, ctx.label)
    compiler = ctx.attr._compiler[BuildSettingInfo].value
    if compiler != "nvcc":
        fail(("%s: --@rules_cuda//cuda:compiler=%s: rules_cuda_go compiles CUDA with nvcc only; drop the flag " +
              "(nvcc is the default) or keep rules_cuda for clang builds.") % (where, compiler))
    if ctx.attr._runtime.label != DEFAULT_RUNTIME:
        fail(("%s: --@rules_cuda//cuda:runtime=%s: the CUDA runtime is chosen by " +
              "--@rules_cuda_go//toolchains:cudart=static (the default: libcudart_static, programs start without the driver) " +
              "or =shared (libcudart.so, what rules_cuda's @cuda//:cuda_runtime is); write that flag instead.") % (where, ctx.attr._runtime.label))
    skip = ctx.attr._cc_host_compile_flags_to_skip[BuildSettingInfo].value
    if skip and skip != ["-c"]:
        fail(("%s: --@rules_cuda//cuda:cc_host_compile_flags_to_skip=%s: rules_cuda_go does not pass the C++ toolchain's " +
              "compile flags through nvcc wholesale, so there is nothing to skip; drop the flag (host flags go in host_copts).") % (where, ",".join(skip)))
    version = ctx.attr._version[BuildSettingInfo].value
    if version:
        fail(("%s: --@rules_cuda//cuda:version=%s: write --@rules_cuda_go//toolchains:cuda_version=MAJOR.MINOR " +
              "(a pinned toolkit, e.g. 13.5, or `local`) instead.") % (where, version))
    if getattr(ctx.attr, "linkopts", []):
        fail(("%s: linkopts: rules_cuda passes these to nvcc's device link, which rules_cuda_go runs with fixed " +
              "flags; host link flags go in host_linkopts, device code options in copts.") % where)

def _gencode(ctx, kind):
    """The -gencode flags of the archs attribute, else of --@rules_cuda//cuda:archs; None: rules_cuda_go's --cuda_archs."""
    if not build_cuda(ctx):
        return None
    if ctx.attr.archs:
        flags, err = parse_archs(";".join(ctx.attr.archs), "%s %s: archs" % (kind, ctx.label))
        where = "%s %s: archs = %s" % (kind, ctx.label, ctx.attr.archs)
    else:
        info = ctx.attr._archs_flag[CudaArchsInfo]
        if not info.spec:
            return None
        flags, err = info.gencode, ""
        where = "%s %s: --@rules_cuda//cuda:archs=%s" % (kind, ctx.label, info.spec)
    if err:
        fail(err)
    err = check_supported(flags, find_cuda(ctx, kind), where)
    if err:
        fail(err)
    return flags

def _flag(ctx, name):
    return getattr(ctx.attr, name)[BuildSettingInfo].value

def _compile(ctx, kind, **overrides):
    _unmappable(ctx, kind)
    return cu_library_impl(
        ctx,
        kind = kind,
        gencode = _gencode(ctx, kind),
        copts = ctx.attr.copts + _flag(ctx, "_copts") + ["-Xptxas=" + o for o in ctx.attr.ptxasopts],
        host_copts = ctx.attr.host_copts + _flag(ctx, "_host_copts"),
        defines = ctx.attr.defines + ctx.attr.host_defines,
        local_defines = ctx.attr.local_defines + ctx.attr.host_local_defines,
        **overrides
    )

def _cuda_library_impl(ctx):
    return _compile(ctx, "cuda_library", linkopts = ctx.attr.host_linkopts)

def _cuda_objects_impl(ctx):
    # An rdc part: its relocatable device code is device-linked by the cuda_library (or cc
    # program's cu_library) that depends on it, with the code of the other parts below that one.
    return _compile(ctx, "cuda_objects", rdc = True, device_link = False, linkopts = [])

_RULES_CUDA_ATTRS = {
    "archs": attr.string_list(doc = """rules_cuda's arch specs for this target only (e.g. ["compute_80:sm_80,compute_80", "sm_90a"]);
instead of --@rules_cuda//cuda:archs and --@rules_cuda_go//toolchains:archs."""),
    "ptxasopts": attr.string_list(doc = "ptxas options (nvcc -Xptxas=OPT on every device compile)."),
    "host_defines": attr.string_list(doc = "Preprocessor defines, propagated to dependents (as defines: rules_cuda_go has one set for host and device)."),
    "host_local_defines": attr.string_list(doc = "Preprocessor defines for this target's compiles only (as local_defines)."),
    "_archs_flag": attr.label(default = Label("//cuda:archs")),
    "_copts": attr.label(default = Label("//cuda:copts")),
    "_host_copts": attr.label(default = Label("//cuda:host_copts")),
    "_compiler": attr.label(default = Label("//cuda:compiler")),
    "_runtime": attr.label(default = Label("//cuda:runtime")),
    "_cc_host_compile_flags_to_skip": attr.label(default = Label("//cuda:cc_host_compile_flags_to_skip")),
    "_version": attr.label(default = Label("//cuda:version")),
}

def _without(attrs, names):
    return {k: v for k, v in attrs.items() if k not in names}

cuda_library = rule(
    implementation = _cuda_library_impl,
    doc = """rules_cuda's cuda_library: compiles CUDA sources into a static library (CcInfo) for cc_* rules.

rules_cuda_go's cu_library builds it: every cu_library attribute is accepted too (textual_hdrs,
implementation_deps, strip_include_prefix, include_prefix, linkstatic, device_link, ...).""",
    attrs = _without(CU_LIBRARY_ATTRS, ["archs", "linkopts"]) | _RULES_CUDA_ATTRS | {
        "linkopts": attr.string_list(doc = "rules_cuda: flags of nvcc's device link. Not supported (fails): host link flags go in host_linkopts."),
        "host_linkopts": attr.string_list(doc = "Linker flags, propagated to the final link."),
    },
    toolchains = CUDA_TOOLCHAINS,
    fragments = ["cpp"],
    provides = [CcInfo, CuInfo],
)

cuda_objects = rule(
    implementation = _cuda_objects_impl,
    doc = """rules_cuda's cuda_objects: relocatable device code (-rdc=true) that a cuda_library depending
on it device-links (together with the other cuda_objects below that library).

rules_cuda_go's cu_library(rdc = True, device_link = False) builds it.""",
    attrs = _without(CU_LIBRARY_ATTRS, ["archs", "linkopts", "rdc", "device_link"]) | _RULES_CUDA_ATTRS,
    toolchains = CUDA_TOOLCHAINS,
    fragments = ["cpp"],
    provides = [CcInfo, CuInfo],
)
