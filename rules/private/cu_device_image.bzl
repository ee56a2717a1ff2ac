"""cu_device_image: device code as build outputs (CUBIN, PTX or fatbin) for run-time loading."""

load("@bazel_skylib//lib:paths.bzl", "paths")
load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")
load("//common:host_compiler.bzl", "host_compiler", "host_compiler_flags")
load(":actions.bzl", "MODE_FLAGS", "has_line_info", "nvcc_run", "orig_src_path_flags")
load(":clang_compile.bzl", "clang_actions")
load(":nvcc_compile.bzl", "arch_list", "parse_gencode")
load(":toolchain.bzl", "CUDA_ATTRS", "CUDA_TOOLCHAINS", "build_cuda", "find_clang", "find_cuda", "target_archs")

# format -> (nvcc option, file extension).
_FORMATS = {
    "cubin": ("-cubin", "cubin"),
    "fatbin": ("-fatbin", "fatbin"),
    "ptx": ("-ptx", "ptx"),
}

def image_plan(format, gencode):
    """What a cu_device_image builds: one nvcc run per output.

    Args:
      format: "cubin", "ptx" or "fatbin".
      gencode: the -gencode flags the arch spec resolved to.

    Returns:
      list of (suffix, flags): the output's name suffix before the extension ("" for the fatbin,
      ".sm_90" for a CUBIN, ".compute_90" for PTX) and the arch flags of its nvcc run.
    """
    if format == "fatbin":
        return [("", gencode)]
    parsed = parse_gencode(gencode)
    if parsed == None:
        fail("cu_device_image: the arch flags %s are not all -gencode=arch=compute_V,code=sm_R or compute_V" % gencode)
    plan = {}
    for virtual, codes in parsed:
        if format == "ptx":
            plan[".compute_" + virtual] = ["-gencode=arch=compute_%s,code=compute_%s" % (virtual, virtual)]
            continue
        for code in codes:
            if code.startswith("sm_"):
                plan["." + code] = ["-gencode=arch=compute_%s,code=%s" % (virtual, code)]
    return sorted(plan.items())

def _cu_device_image_impl(ctx):
    if not build_cuda(ctx):
        # --config=cpu: no toolkit, no images (mark consumers target_compatible_with = requires_cuda()).
        return [DefaultInfo(files = depset())]
    cuda = find_cuda(ctx, "cu_device_image")
    gencode, spec = target_archs(ctx, cuda, "cu_device_image")
    plan = image_plan(ctx.attr.format, gencode)
    if not plan:
        fail("cu_device_image %s: format = \"cubin\" needs a real architecture (sm_XY) in the arch spec %r; it resolved to %s" % (ctx.label, spec, gencode))

    # Headers, defines and include paths like a cu_library's: the deps', the own, the toolkit's.
    root = ctx.label.workspace_root or "."
    own = cc_common.create_compilation_context(
        headers = depset(ctx.files.hdrs),
        quote_includes = depset([root, paths.join(ctx.bin_dir.path, ctx.label.workspace_root)]),
        defines = depset(ctx.attr.defines),
    )
    cc = cc_common.merge_cc_infos(
        direct_cc_infos = [CcInfo(compilation_context = own)],
        cc_infos = [d[CcInfo] for d in ctx.attr.deps] + [CcInfo(compilation_context = cuda.headers)],
    ).compilation_context
    host = host_compiler(ctx, cuda)
    option, ext = _FORMATS[ctx.attr.format]
    stem = paths.split_extension(ctx.file.src.basename)[0] if ctx.attr.out_prefix == "" else ctx.attr.out_prefix
    clang, entries = find_clang(ctx, cuda, gencode, "cu_device_image")
    if clang:
        return _clang_images(ctx, cuda, clang, host, cc, gencode, entries, stem, ext)
    outs = []
    groups = {}
    for suffix, arch_flags in plan:
        out = ctx.actions.declare_file("%s%s.%s" % (stem, suffix, ext))
        args = ctx.actions.args()
        args.add(option)
        args.add("-x", "cu")
        args.add(ctx.file.src)
        args.add("-o", out)
        args.add_all(host_compiler_flags(host))
        args.add_all(orig_src_path_flags(ctx.file.src.path))
        args.add_all(arch_flags)

        args.add_all(MODE_FLAGS[ctx.var["COMPILATION_MODE"]])
        if ctx.attr._fast_math[BuildSettingInfo].value:
            args.add("--use_fast_math")
        args.add_all(cc.defines, format_each = "-D%s")
        args.add_all(cc.includes, format_each = "-I%s")
        args.add_all(cc.quote_includes, format_each = "-I%s")
        args.add_all(cc.system_includes, before_each = "-isystem")
        args.add_all(ctx.attr.copts)
        nvcc_run(
            actions = ctx.actions,
            cuda = cuda,
            host = host,
            args = args,
            src = ctx.file.src,
            headers = cc.headers,
            out = out,
            line_info = has_line_info(ctx.var["COMPILATION_MODE"], ctx.attr.copts),
            mnemonic = "NvccDeviceImage",
            progress_message = "Compiling CUDA device image %{output}",
        )
        outs.append(out)
        groups[suffix[1:] or ext] = depset([out])
    return [
        DefaultInfo(files = depset(outs), runfiles = ctx.runfiles(files = outs)),
        OutputGroupInfo(**groups),
    ]

def _clang_images(ctx, cuda, clang, host, cc, gencode, entries, stem, ext):
    """The images with clang (--cuda_compiler=clang): the PTX per virtual arch, ptxas per real arch."""
    c = clang_actions(
        actions = ctx.actions,
        cuda = cuda,
        clang = clang,
        host = host,
        src = ctx.file.src,
        mode = ctx.var["COMPILATION_MODE"],
        rdc = False,
        fast_math = ctx.attr._fast_math[BuildSettingInfo].value,
        compilation_context = cc,
        copts = ctx.attr.copts,
        host_copts = [],
        arch_list = arch_list(gencode),
        cuid = "%x" % (hash(ctx.label.package + "/" + stem) & 0xffffffff),
        label = ctx.label,
        kind = "cu_device_image",
    )
    outs = []
    groups = {}
    images = []
    fmt = ctx.attr.format
    for virtual, codes in entries:
        ptx = ctx.actions.declare_file("%s.compute_%s.ptx" % (stem, virtual) if fmt == "ptx" else "_clang/%s.compute_%s.ptx" % (stem, virtual))
        c.ptx(virtual, ptx)
        if fmt == "ptx":
            outs.append(ptx)
            groups["compute_" + virtual] = depset([ptx])
            continue
        if "compute_" + virtual in codes:
            images.append(("ptx", virtual, ptx))
        for code in codes:
            if not code.startswith("sm_"):
                continue
            cubin = ctx.actions.declare_file("%s.%s.cubin" % (stem, code) if fmt == "cubin" else "_clang/%s.compute_%s.%s.cubin" % (stem, virtual, code))
            c.cubin(code, ptx, cubin)
            images.append(("elf", code[len("sm_"):], cubin))
            if fmt == "cubin":
                outs.append(cubin)
                groups[code] = depset([cubin])
    if fmt == "fatbin":
        out = ctx.actions.declare_file("%s.%s" % (stem, ext))
        c.fatbin(images, out)
        outs.append(out)
        groups["fatbin"] = depset([out])
    return [
        DefaultInfo(files = depset(outs), runfiles = ctx.runfiles(files = outs)),
        OutputGroupInfo(**groups),
    ]

cu_device_image = rule(
    implementation = _cu_device_image_impl,
    doc = """Compiles one .cu file's device code to images for run-time loading (cuModuleLoadData,
ops/cuda/cumodule): CUBIN, PTX or a fatbin, for the GPU archs the arch spec selects (the same
resolution and compilation-mode flags as cu_library), with the headers, defines and include paths
of `deps` (cc_library, cu_library) and `hdrs`.

Outputs, in the package, named after the source (or `out_prefix`):
  - format = "fatbin": NAME.fatbin with SASS for every arch and PTX for the +PTX ones;
  - format = "cubin": one NAME.sm_XY.cubin per real arch (a CUBIN holds one arch);
  - format = "ptx": one NAME.compute_XY.ptx per virtual arch.
Each file is also in an output group named after its arch ("sm_90", "compute_90") or "fatbin".
Use them as Go `embedsrcs` (//go:embed NAME.fatbin) or as `data` (runfiles). Under --config=cpu
nothing is built: mark consumers `target_compatible_with = requires_cuda()`.""",
    attrs = {
        "src": attr.label(allow_single_file = [".cu"], mandatory = True, doc = "The .cu file."),
        "hdrs": attr.label_list(allow_files = [".cuh", ".h", ".hh", ".hpp", ".inc"], doc = "Headers it includes."),
        "deps": attr.label_list(providers = [CcInfo], doc = "cc_library, cu_library: headers, defines, includes."),
        "format": attr.string(default = "fatbin", values = ["cubin", "fatbin", "ptx"], doc = "What to emit."),
        "archs": attr.string(doc = "TORCH_CUDA_ARCH_LIST-style spec for this target only; overrides --cuda_archs."),
        "copts": attr.string_list(doc = "Extra nvcc options, e.g. ['-std=c++17', '-lineinfo']."),
        "defines": attr.string_list(doc = "Preprocessor defines."),
        "out_prefix": attr.string(doc = "Output name before the arch and extension; the source's name without .cu by default."),
        "_fast_math": attr.label(default = Label("//toolchains:fast_math")),
    } | CUDA_ATTRS,
    toolchains = CUDA_TOOLCHAINS,
    fragments = ["cpp"],
)
