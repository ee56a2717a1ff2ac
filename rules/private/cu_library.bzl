"""cu_library: compiles CUDA (.cu) sources with nvcc, host C/C++ sources with the C++ toolchain, and
returns CcInfo."""

load("@bazel_skylib//lib:paths.bzl", "paths")
load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//common:host_compiler.bzl", "host_compiler")
load("//common:providers.bzl", "CuInfo")
load(":clang_compile.bzl", "clang_compile")
load(":device_link.bzl", "absorb", "check_archs", "check_linked_once", "collect", "linked_info", "pending_info", "real_archs", "without_device_links", device_link = "link")
load(":nvcc_compile.bzl", "arch_list", "nvcc_compile")
load(":toolchain.bzl", "CUDA_ATTRS", "CUDA_TOOLCHAINS", "build_cuda", "find_clang", "find_cuda", "target_archs")

_HOST = ["cc", "cpp", "cxx", "c"]
_COMPILED = ["cu"] + _HOST

# cc_library's header extensions, and CUDA's.
_HEADERS = [".cuh", ".h", ".hh", ".hpp", ".hxx", ".h++", ".H", ".inc", ".inl", ".ipp", ".tcc", ".tlh", ".tli"]

def _include_paths(ctx):
    base = paths.join(ctx.label.workspace_root, ctx.label.package)
    out = []
    for inc in ctx.attr.includes:
        p = paths.normalize(paths.join(base, inc))
        out.extend([p, paths.join(ctx.bin_dir.path, p)])
    return out

def _repo_relative(f):
    """f's path inside its repository: short_path is "../<repo>/pkg/file" for external repositories."""
    if f.short_path.startswith("../"):
        return f.short_path[len("../"):].partition("/")[2]
    return f.short_path

# The C++ dialect of host C++ sources when nothing chooses one: nvcc's default (CUDA 12 and 13), which
# the CUDA and CCCL headers expect (Thrust requires C++17), where a C++ toolchain's own default may
# be older (Bazel 7's Unix toolchain passes -std=c++14).
_HOST_CXX_STD = "-std=c++17"

def _expand(ctx, flags):
    """flags with $(location) of additional_compiler_inputs expanded (execution paths)."""
    return [ctx.expand_location(f, ctx.attr.additional_compiler_inputs) if "$(" in f else f for f in flags]

def _object_path(ctx, src):
    """Where src's object goes under _objs/NAME/.

    Its path in the package, or, for a source of another package or repository
    (srcs = ["//other:a.cu"]), _external/REPOSITORY/ and its path in its repository.
    """
    path = _repo_relative(src)
    if src.owner and src.owner.workspace_name == ctx.label.workspace_name and (not ctx.label.package or path.startswith(ctx.label.package + "/")):
        return paths.relativize(path, ctx.label.package) if ctx.label.package else path
    return paths.join("_external", src.owner.workspace_name if src.owner else "", path)

def _host_compile(ctx, host, compilation_context, srcs, gencode, host_copts, local_defines):
    """Compiles host C and C++ sources with the C++ toolchain; returns their PIC objects.

    C++ sources see __CUDA_ARCH_LIST__ as nvcc's compiles of this target do: CCCL names its ABI
    namespace after it (thrust::_V_300200_SM_900), so host code passing Thrust types to the CUDA
    sources' functions links with them.
    """
    chosen = [f for f in host_copts + ctx.fragments.cpp.copts + ctx.fragments.cpp.cxxopts if f.startswith("-std=")]
    archs = arch_list(gencode)
    objects = []
    for lang, files in [("c", [s for s in srcs if s.extension == "c"]), ("c++", [s for s in srcs if s.extension != "c"])]:
        if not files:
            continue
        _, outputs = cc_common.compile(
            actions = ctx.actions,
            name = ctx.label.name,
            feature_configuration = host.feature_configuration,
            cc_toolchain = host.cc_toolchain,
            srcs = files,
            compilation_contexts = [compilation_context],
            local_defines = local_defines + (["__CUDA_ARCH_LIST__=" + archs] if lang == "c++" and archs else []),
            user_compile_flags = ([] if lang == "c" or chosen else [_HOST_CXX_STD]) + host_copts,
            additional_inputs = ctx.files.additional_compiler_inputs,
            disallow_nopic_outputs = True,
        )
        objects.extend(outputs.pic_objects)
    return objects

def _strip_prefix(ctx):
    """The repository-relative directory that hdrs are included relative to ("": the root).

    As cc_library's strip_include_prefix makes it (its package where only include_prefix is set).
    """
    strip = ctx.attr.strip_include_prefix
    if not strip:
        return ctx.label.package
    if not paths.is_normalized(strip, False):
        fail("cu_library %s: strip_include_prefix should not contain uplevel references: %s" % (ctx.label, strip))
    if strip.startswith("/"):
        # Absolute ("//a/b" or "/a/b"): repository-relative.
        return strip.lstrip("/")
    strip = paths.normalize(paths.join(ctx.label.package, strip))
    return "" if strip == "." else strip

def _virtual_includes(ctx):
    """hdrs under the include paths that strip_include_prefix and include_prefix give them.

    Like cc_library: a symbolic link per header under _virtual_includes/NAME/ (the include prefix
    followed by the header's repository-relative path less the strip prefix), and that directory
    on the include path.

    Returns:
      (list of the links, the directory or None).
    """
    prefix = ctx.attr.include_prefix
    if not ctx.attr.strip_include_prefix and not prefix:
        return [], None
    if prefix:
        if not paths.is_normalized(prefix, False):
            fail("cu_library %s: include_prefix should not contain uplevel references: %s" % (ctx.label, prefix))
        if prefix.startswith("/"):
            fail("cu_library %s: include_prefix should be a relative path: %s" % (ctx.label, prefix))
    strip = _strip_prefix(ctx)
    links = []
    directory = None
    for hdr in ctx.files.hdrs:
        path = _repo_relative(hdr)
        if strip and path != strip and not path.startswith(strip + "/"):
            fail("cu_library %s: header '%s' is not under the specified strip prefix '%s'" % (ctx.label, path, strip))
        include = path[len(strip):].lstrip("/") if strip else path
        if prefix:
            include = paths.join(prefix, include)
        link = ctx.actions.declare_file("_virtual_includes/%s/%s" % (ctx.label.name, include))
        ctx.actions.symlink(output = link, target_file = hdr, progress_message = "Symlinking virtual headers for " + ctx.label.name)
        links.append(link)
        directory = link.path[:-len(include) - 1]
    return links, directory

def _with_shared_library(ctx, host, compilation_outputs, link_flags, runtime, linking_context, static):
    """linking_context with a shared library of this target's objects beside its archive.

    Like cc_library's (linkstatic = False), the shared library leaves its deps' symbols to the
    program's link; unlike it, it links the CUDA runtime itself: the static runtime's symbols are
    hidden, so a shared library cannot take them from the program (as CMake's CUDA libraries,
    each shared library has its own copy).

    Returns:
      (the CcLinkingContext, the target's LibraryToLink).
    """
    out = cc_common.link(
        actions = ctx.actions,
        name = ctx.label.name,
        feature_configuration = host.feature_configuration,
        cc_toolchain = host.cc_toolchain,
        compilation_outputs = compilation_outputs,
        linking_contexts = runtime,
        user_link_flags = link_flags,
        output_type = "dynamic_library",
    )
    dynamic = out.library_to_link
    lib = cc_common.create_library_to_link(
        actions = ctx.actions,
        feature_configuration = host.feature_configuration,
        cc_toolchain = host.cc_toolchain,
        static_library = static.static_library,
        pic_static_library = static.pic_static_library,
        dynamic_library = dynamic.resolved_symlink_dynamic_library or dynamic.dynamic_library,
        alwayslink = static.alwayslink,
    )
    inputs = []
    for li in linking_context.linker_inputs.to_list():
        if li.owner == ctx.label:
            li = cc_common.create_linker_input(
                owner = li.owner,
                libraries = depset([lib]),
                user_link_flags = depset(li.user_link_flags),
                additional_inputs = depset(li.additional_inputs),
            )
        inputs.append(li)
    return cc_common.create_linking_context(linker_inputs = depset(inputs, order = "topological")), lib

# The attributes that a rule reusing cu_library_impl may give other values than its own attributes
# of the same name (rules_cuda's cuda_library maps its attributes and flags onto them).
_OVERRIDABLE = ["copts", "host_copts", "defines", "local_defines", "linkopts", "rdc", "device_link"]

def cu_library_impl(ctx, kind = "cu_library", gencode = None, **overrides):
    """cu_library's implementation, for cu_library and for rules that compile as it does.

    Args:
      ctx: the rule context: a rule with cu_library's attributes (CU_LIBRARY_ATTRS).
      kind: the rule's name, for messages.
      gencode: the -gencode flags to build for; None: the target's archs attribute, else --cuda_archs.
      **overrides: values for the attributes in _OVERRIDABLE, instead of ctx.attr's.

    Returns:
      cu_library's providers.
    """
    for k in overrides:
        if k not in _OVERRIDABLE:
            fail("cu_library_impl: %r cannot be overridden; these can: %s" % (k, ", ".join(_OVERRIDABLE)))
    a = struct(gencode = gencode, **{n: overrides[n] if n in overrides else getattr(ctx.attr, n) for n in _OVERRIDABLE})

    # Textual headers (a .cu that another source #includes) are inputs of the compiles that
    # include them, here and in dependents, and are never compiled on their own.
    virtual_hdrs, virtual_dir = _virtual_includes(ctx)
    hdrs = ctx.files.hdrs + virtual_hdrs + ctx.files.textual_hdrs + [f for f in ctx.files.srcs if f.extension not in _COMPILED]

    # Like cc_library: the repository root (and its bin dir) for workspace-relative #include "a/b.h".
    root = ctx.label.workspace_root or "."
    own = cc_common.create_compilation_context(
        headers = depset(hdrs),
        includes = depset(_include_paths(ctx) + ([virtual_dir] if virtual_dir else [])),
        quote_includes = depset([root, paths.join(ctx.bin_dir.path, ctx.label.workspace_root)]),
        defines = depset(a.defines),
    )

    # What dependents see: deps' headers, not implementation_deps'.
    cc_info = cc_common.merge_cc_infos(
        direct_cc_infos = [CcInfo(compilation_context = own)],
        cc_infos = [d[CcInfo] for d in ctx.attr.deps],
    )
    if not build_cuda(ctx):
        # --config=cpu: no toolkit needed; headers still propagate, nothing is compiled or linked.
        return [
            DefaultInfo(files = depset()),
            CcInfo(compilation_context = cc_info.compilation_context),
            CuInfo(
                rdc_objects = depset(),
                rdc_libraries = depset(),
                rdc_archs = depset(),
                device_linked = depset(),
                linked_objects = depset(),
                linked_libraries = depset(),
                linked_archs = depset(),
                linked_owners = depset(),
            ),
        ]

    cuda = find_cuda(ctx, kind)
    if not cuda.cudart:
        fail(kind + " %s: %s has no %s CUDA runtime library; choose the other with --@rules_cuda_go//toolchains:cudart=static|shared." % (
            ctx.label,
            cuda.toolkit,
            ctx.attr._cudart_kind[BuildSettingInfo].value,
        ))
    gencode = a.gencode if a.gencode != None else target_archs(ctx, cuda, kind)[0]

    # The toolkit's runtime and CCCL headers (cuda_runtime.h, thrust/, cub/), for this compile and
    # for dependents that include this library's headers, as with plain nvcc.
    cc_info = cc_common.merge_cc_infos(
        direct_cc_infos = [cc_info],
        cc_infos = [CcInfo(compilation_context = cuda.headers)],
    )

    # This target's compiles also see implementation_deps' headers (like cc_library's: they do not
    # reach dependents, their libraries are linked) and additional_compiler_inputs.
    compile_context = cc_common.merge_cc_infos(
        direct_cc_infos = [cc_info],
        cc_infos = [d[CcInfo] for d in ctx.attr.implementation_deps],
    ).compilation_context
    extra_inputs = depset(ctx.files.additional_compiler_inputs)
    copts = _expand(ctx, a.copts)
    host_copts = _expand(ctx, a.host_copts)

    host = host_compiler(ctx, cuda)
    mode = ctx.var["COMPILATION_MODE"]
    objects = []
    clang, entries = find_clang(ctx, cuda, gencode, "cu_library")

    # Host sources are compiled as the C++ toolchain compiles cc_library's (C for .c), not through
    # nvcc, whose driver macros (__NVCC__) tell CCCL's headers that device code may follow; with
    # host_srcs_as_cuda the C++ ones are CUDA sources (nvcc -x cu), as CMake's LANGUAGE CUDA makes them.
    host_srcs = [
        s
        for s in ctx.files.srcs
        if s.extension == "c" or (s.extension in _HOST and not ctx.attr.host_srcs_as_cuda)
    ]
    if host_srcs:
        objects.extend(_host_compile(ctx, host, compile_context, host_srcs, gencode, host_copts, a.local_defines))
    for src in ctx.files.srcs:
        if src.extension not in _COMPILED or src in host_srcs:
            continue
        stem = paths.replace_extension(_object_path(ctx, src), "")
        obj = ctx.actions.declare_file("_objs/%s/%s.o" % (ctx.label.name, stem))
        objects.append(obj)
        common = dict(
            actions = ctx.actions,
            cuda = cuda,
            host = host,
            src = src,
            out = obj,
            mode = mode,
            rdc = a.rdc,
            fast_math = ctx.attr._fast_math[BuildSettingInfo].value,
            compilation_context = compile_context,
            copts = ["-D" + d for d in a.local_defines] + copts,
            host_copts = host_copts,
            additional_inputs = extra_inputs,
        )
        if clang:
            clang_compile(clang = clang, entries = entries, arch_list = arch_list(gencode), label = ctx.label, **common)
        else:
            nvcc_compile(gencode_flags = gencode, split = ctx.attr._split_nvcc[BuildSettingInfo].value, **common)

    # Relocatable device code: this target's and that of the rdc parts below it is device-linked
    # here once, unless this target is itself a part (device_link = False), together with the code
    # that rdc targets below device-linked themselves (absorb). See device_link.bzl: the
    # device-link object and the other targets' objects join this target's archive.
    pending = collect(ctx.label, ctx.attr.deps + ctx.attr.implementation_deps, objects if a.rdc else [], gencode)
    runtime = [cuda.cudart.linking_context]
    linked = []
    deps_linking_context = cc_common.merge_cc_infos(
        cc_infos = [cc_info] + [d[CcInfo] for d in ctx.attr.implementation_deps],
    ).linking_context
    if a.rdc or pending.objects or pending.libraries:
        if not cuda.cudadevrt:
            fail(kind + " %s: relocatable device code needs libcudadevrt.a, which %s lacks." % (ctx.label, cuda.toolkit))
        runtime.append(cuda.cudadevrt.linking_context)
    if not a.device_link:
        if not a.rdc:
            fail(kind + " %s: device_link = False leaves relocatable device code to a consumer; it needs rdc = True." % ctx.label)
        cu_info = pending_info(pending)
    elif pending.objects or pending.libraries:
        pending = absorb(pending)
        err = check_archs(ctx.label, pending, real_archs(gencode))
        if err:
            fail(err)
        linked = [device_link(ctx, cuda, host, pending, gencode)] + [o for o in pending.objects.to_list() if o not in objects]
        deps_linking_context = without_device_links(deps_linking_context, pending.owners)
        cu_info = linked_info(pending, ctx.label)
    else:
        err = check_linked_once(ctx.label, pending)
        if err:
            fail(err)
        cu_info = linked_info(pending)
    if not ctx.attr.linkstatic and (a.rdc or linked):
        fail(kind + " %s: linkstatic = False (a shared library too) needs code without a device link: relocatable device code is device-linked into one program (rdc = False, and no rdc parts below)." % ctx.label)

    compilation_outputs = cc_common.create_compilation_outputs(
        objects = depset(objects + linked),
        pic_objects = depset(objects + linked),
    )
    link_flags = a.linkopts + ["-lstdc++"]
    linking_context, linking_outputs = cc_common.create_linking_context_from_compilation_outputs(
        actions = ctx.actions,
        name = ctx.label.name,
        feature_configuration = host.feature_configuration,
        cc_toolchain = host.cc_toolchain,
        compilation_outputs = compilation_outputs,
        user_link_flags = link_flags,
        linking_contexts = [deps_linking_context] + runtime,
        # Whole where the device link takes in a static library's device code (cuFFT's): that code,
        # from a later archive, may be all that refers to the device-link object. Otherwise the
        # objects that refer to it are in this archive, which the linker rescans; and a program
        # that names this library and one it absorbed (deps = [":a", ":b"], as rules_cuda's rdc
        # example does) takes nothing from the absorbed one's archive twice.
        alwayslink = ctx.attr.alwayslink or (bool(linked) and bool(pending.libraries)),
        disallow_dynamic_library = True,
    )
    lib = linking_outputs.library_to_link
    archive = []
    shared = []
    if lib:
        archive = [f for f in [lib.pic_static_library, lib.static_library] if f][:1]
        if not ctx.attr.linkstatic:
            linking_context, lib = _with_shared_library(ctx, host, compilation_outputs, link_flags, runtime, linking_context, lib)
            shared = [lib.resolved_symlink_dynamic_library or lib.dynamic_library]
    return [
        # The deps' runfiles (the CUDA shared libraries' soname files), for the programs that link
        # this library: rules_go's cgo takes a C dependency's runfiles, not its libraries'.
        DefaultInfo(
            files = depset(archive + shared + objects + linked),
            runfiles = ctx.runfiles(files = [lib.dynamic_library] if shared else []).merge_all([
                d[DefaultInfo].default_runfiles
                for d in ctx.attr.deps + ctx.attr.implementation_deps
            ]),
        ),
        CcInfo(compilation_context = cc_info.compilation_context, linking_context = linking_context),
        cu_info,
        OutputGroupInfo(objects = depset(objects + linked)),
    ]

# cu_library's attributes, for rules that reuse cu_library_impl.
CU_LIBRARY_ATTRS = {
    "srcs": attr.label_list(
        allow_files = [".cu", ".cc", ".cpp", ".cxx", ".c"] + _HEADERS,
        doc = """.cu files (CUDA, compiled by nvcc); .cc/.cpp/.cxx (host C++) and .c (C) files, compiled by
the C++ toolchain as cc_library compiles them, with the CUDA headers on the include path
(host_srcs_as_cuda makes the C++ ones CUDA sources); private headers.""",
    ),
    "host_srcs_as_cuda": attr.bool(
        doc = """Compile the .cc/.cpp/.cxx sources as CUDA (nvcc -x cu), like .cu files: for C++ sources that
define or launch kernels themselves or through the headers they include (what CMake's
`set_source_files_properties(... LANGUAGE CUDA)` and Makefiles' `nvcc -x cu` do). .c sources stay C.""",
    ),
    "hdrs": attr.label_list(allow_files = _HEADERS, doc = "Public headers, visible to dependents."),
    "textual_hdrs": attr.label_list(
        allow_files = [".cu", ".cc", ".cpp", ".cxx", ".c"] + _HEADERS,
        doc = """Files that sources #include textually and that are not compiled on their own (like
cc_library.textual_hdrs): a .cu included by another .cu (`#include "train.cu"`), or a header that
only compiles inside its includer. Available to this target's compiles and to dependents'.""",
    ),
    "deps": attr.label_list(providers = [CcInfo], doc = "cu_library, cc_library or anything with CcInfo."),
    "implementation_deps": attr.label_list(
        providers = [CcInfo],
        doc = """Like deps, but their headers, include paths and defines reach only this target's compiles,
not those of targets that depend on it (like cc_library.implementation_deps); their libraries are
still linked into programs that depend on this target.""",
    ),
    "copts": attr.string_list(doc = """Extra nvcc options of the CUDA compiles, e.g. ['--extended-lambda'];
`$(location)` of additional_compiler_inputs expands to their paths."""),
    "host_copts": attr.string_list(doc = """Host-compiler options: passed with -Xcompiler to nvcc's compiles, and as they are to the
host sources' compiles; `$(location)` of additional_compiler_inputs expands to their paths."""),
    "additional_compiler_inputs": attr.label_list(
        allow_files = True,
        doc = """Files every compile of this target reads besides sources and headers (every nvcc action of
a CUDA source, and the host sources' compiles), e.g. a file named in copts with `$(location)`
(like cc_library.additional_compiler_inputs). Not passed on to dependents.""",
    ),
    "strip_include_prefix": attr.string(doc = """The prefix to strip from the paths of hdrs (like cc_library's): dependents include a
header by its path with this prefix cut off. Relative: to the package; absolute (`//a/b`): to the
repository root. The headers are symbolic links under `_virtual_includes/NAME`, which goes on the
include path; include_prefix is added after the strip."""),
    "include_prefix": attr.string(doc = """The prefix to add to the paths of hdrs (like cc_library's): dependents include a header
as `include_prefix` + its path (less strip_include_prefix, or else its package)."""),
    "alwayslink": attr.bool(doc = """Link every object of this target into the programs that depend on it, whether or not
they refer to it (like cc_library.alwayslink; `-Wl,--whole-archive`): for code that only
registers itself (a global's constructor), or a main() in a library."""),
    "linkstatic": attr.bool(
        default = True,
        doc = """True (the default, unlike cc_library's False): a static archive only. False: a shared
library as well (like cc_library's), which programs linked dynamically (cc_test by default,
--dynamic_mode=fully) link instead of the archive; not with relocatable device code, which is
device-linked into one program.""",
    ),
    "defines": attr.string_list(doc = "Preprocessor defines, propagated to dependents (like cc_library.defines)."),
    "local_defines": attr.string_list(doc = "Preprocessor defines for this target's compiles only, not propagated (like cc_library.local_defines)."),
    "includes": attr.string_list(doc = "Include directories relative to the package, propagated to dependents."),
    "linkopts": attr.string_list(doc = "Linker flags, propagated to the final link."),
    "archs": attr.string(doc = "TORCH_CUDA_ARCH_LIST-style spec for this target only; overrides --cuda_archs."),
    "rdc": attr.bool(doc = "Relocatable device code (-rdc=true): __device__ functions and variables may be used across .cu files, and across targets (see device_link)."),
    "device_link": attr.bool(
        default = True,
        doc = """True (default): device-link here this target's relocatable device code and that of the rdc
parts below it, once, together with the code of rdc targets below that device-linked themselves
(whose links this one replaces, so that this target's kernels may call their __device__ functions).
False (needs rdc = True): this target is an rdc part whose __device__ functions and variables other
targets' device code uses; the first consumer that links (a cu_library, a cu_device_link, or a
go_cuda_library) device-links it.""",
    ),
    "_fast_math": attr.label(default = Label("//toolchains:fast_math")),
    "_split_nvcc": attr.label(default = Label("//toolchains:split_nvcc")),
    "_cudart_kind": attr.label(default = Label("//toolchains:cudart")),
} | CUDA_ATTRS

cu_library = rule(
    implementation = cu_library_impl,
    doc = """Compiles CUDA sources with nvcc for the selected GPU archs; returns CcInfo.

Works as `cdeps` of go_library (see go_cuda_library), as `deps` of cc_binary/cc_test, and as a dep of
another cu_library. Links the CUDA runtime chosen by --@rules_cuda_go//toolchains:cudart (static by
default). Under --config=cpu it compiles nothing and needs no toolkit.""",
    attrs = CU_LIBRARY_ATTRS,
    toolchains = CUDA_TOOLCHAINS,
    fragments = ["cpp"],
    provides = [CcInfo, CuInfo],
)
