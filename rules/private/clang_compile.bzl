"""The compile of one CUDA source with clang (--@rules_cuda_go//toolchains:cuda_compiler=clang).

The same graph of actions as nvcc's split compile (nvcc_compile.bzl), with clang's device-only
and host-only compiles and the toolkit's ptxas and fatbinary:
  ClangPtx     per virtual arch V of the -gencode flags: clang --cuda-device-only -S, PTX for sm_V;
  ClangSass    per real arch R: the toolkit's ptxas, that PTX to a cubin for sm_R;
  ClangFatbin  the toolkit's fatbinary: the cubins and the PTX the flags ask for, in one fatbinary;
  ClangHost    clang --cuda-host-only, the fatbinary put in (-fcuda-include-gpubinary): the object.
Relocatable device code (rdc) is compiled with -fgpu-rdc and ptxas --compile-only, and its objects
are device-linked by nvcc -dlink like nvcc's (device_link.bzl).
"""

load("//common:toolchain.bzl", "CUDA_TOOLCHAIN_TYPE")
load(":actions.bzl", "add_includes")
load(":clang_flags.bzl", "clang_copts")
load(":nvcc_compile.bzl", "parse_gencode")

# Flags per compilation mode, as MODE_FLAGS does for nvcc: the host compile's, the device
# compiles', ptxas's.
CLANG_MODE_FLAGS = {
    "dbg": struct(host = ["-g", "-O0"], device = ["-g", "--cuda-noopt-device-debug", "-O0"], ptxas = ["-g", "-O0"]),
    "opt": struct(host = ["-O3"], device = ["-O3", "-gline-tables-only"], ptxas = ["-O3", "-lineinfo"]),
    # nvcc's defaults: host code unoptimised, device code optimised (clang's own default is -O0).
    "fastbuild": struct(host = [], device = ["-O3"], ptxas = ["-O3"]),
}

_FAST_MATH = ["-ffast-math", "-fgpu-flush-denormals-to-zero"]

def _major_minor(version):
    parts = version.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return (int(parts[0]), int(parts[1]))

def clang_check(kind, label, cuda, clang, gencode):
    """Fails at analysis where clang cannot compile for this toolkit or these archs.

    Args:
      kind: the rule's name, for messages.
      label: the target's label.
      cuda: CudaToolchainInfo.
      clang: ClangInfo, or None (cuda_compiler=clang without the clang repository).
      gencode: the -gencode flags of the target's arch spec.

    Returns:
      the -gencode entries, as nvcc_compile.parse_gencode returns them.
    """
    if not clang:
        fail("%s %s: --@rules_cuda_go//toolchains:cuda_compiler=clang, and @rules_cuda_go_clang provides no clang" % (kind, label))
    if not cuda.clang_cuda:
        fail("%s %s: clang %s cannot use %s: %s" % (kind, label, clang.version, cuda.toolkit, cuda.missing_clang))
    have = _major_minor(cuda.version)
    known = _major_minor(clang.cuda_known)
    if have and known and have > known and ("%d.%d" % have) not in clang.cuda_checked:
        fail(("%s %s: clang %s knows CUDA up to %s (and was checked with %s); %s is CUDA %s. Choose one of " +
              "those with --cuda_version, or --cuda_compiler=nvcc.") % (
            kind,
            label,
            clang.version,
            clang.cuda_known,
            ", ".join(clang.cuda_checked),
            cuda.toolkit,
            cuda.version,
        ))
    entries = parse_gencode(gencode)
    if entries == None:
        fail("%s %s: clang compiles the arch resolver's -gencode flags only, not %s" % (kind, label, " ".join(gencode)))
    for virtual, codes in entries:
        for code in ["sm_" + virtual] + [c for c in codes if c.startswith("sm_")]:
            if code not in clang.archs:
                fail(("%s %s: clang %s cannot target %s, which the arch spec asks of %s (nvcc %s can); clang " +
                      "targets %s. Drop it from the archs, or use --cuda_compiler=nvcc.") % (
                    kind,
                    label,
                    clang.version,
                    code,
                    cuda.toolkit,
                    cuda.version,
                    ", ".join(clang.archs),
                ))
    return entries

def clang_actions(
        actions,
        cuda,
        clang,
        host,
        src,
        mode,
        rdc,
        fast_math,
        compilation_context,
        copts,
        host_copts,
        arch_list,
        cuid,
        label,
        kind = "cu_library",
        additional_inputs = depset()):
    """The clang actions of one CUDA source, as functions that declare them.

    Args:
      actions: ctx.actions.
      cuda: CudaToolchainInfo (with clang_cuda).
      clang: ClangInfo.
      host: the host compiler (host_compiler.bzl): its ABI flags (--sysroot), files and environment.
      src: File, the source.
      mode: "dbg", "opt" or "fastbuild".
      rdc: bool, relocatable device code.
      fast_math: bool, --use_fast_math.
      compilation_context: merged CcCompilationContext.
      copts: list of nvcc options (mapped by clang_copts; an option clang cannot take fails).
      host_copts: list of host-compiler options (the host compile's, as they are).
      arch_list: __CUDA_ARCH_LIST__ for the whole spec ("800,900"), which CCCL names its ABI
        namespace after: every compile of the source sees the same.
      cuid: the source's module name in every compile (static __device__ variables and the device
        link's registration of rdc code are named after it).
      label: the target's label, for messages.
      kind: the rule's name, for messages.
      additional_inputs: depset of Files every action reads besides the source and headers.

    Returns:
      struct(ptx(virtual, out), cubin(code, ptx, out), fatbin(images, out), host(fatbin, archs,
      out)): each declares one action (ClangPtx, ClangSass, ClangFatbin, ClangHost); images is a
      list of (kind, sm, File), kind "elf" or "ptx".
    """
    flags, err = clang_copts(copts)
    if err:
        fail("%s %s: %s" % (kind, label, err))
    mode_flags = CLANG_MODE_FLAGS[mode]
    device_flags = mode_flags.device + (_FAST_MATH if fast_math else []) + flags.device
    ptxas_flags = list(mode_flags.ptxas)
    if "-gline-tables-only" in flags.device and "-lineinfo" not in ptxas_flags:
        ptxas_flags.append("-lineinfo")
    if "--cuda-noopt-device-debug" in flags.device and "-g" not in ptxas_flags:
        ptxas_flags.extend(["-g", "-O0"])
    ptxas_flags += flags.ptxas

    clang_cuda = cuda.clang_cuda
    headers = depset(transitive = [compilation_context.headers, clang_cuda.headers.headers, additional_inputs])
    inputs = depset([src], transitive = [headers, clang.files, clang_cuda.files, host.files])

    def common():
        args = actions.args()
        args.add("-x", "cuda")
        args.add("--cuda-path=" + clang_cuda.root)
        args.add("--gcc-install-dir=" + clang.gcc_install_dir)
        args.add_all(host.flags)
        args.add_all(["--no-offload-new-driver", "-Wno-unknown-cuda-version", "-fPIC", "-cuid=" + cuid])
        args.add_all(["-U__CUDA_ARCH_LIST__", "-D__CUDA_ARCH_LIST__=" + arch_list])
        if rdc:
            args.add("-fgpu-rdc")
        args.add_all(compilation_context.defines, format_each = "-D%s")
        args.add_all(compilation_context.local_defines, format_each = "-D%s")
        add_includes(args, compilation_context)
        add_includes(args, clang_cuda.headers)
        args.add_all(flags.common)
        return args

    def ptx(virtual, out):
        args = common()
        args.add_all(device_flags)
        args.add_all(["--cuda-device-only", "--cuda-gpu-arch=sm_" + virtual, "-S"])
        args.add("-o", out)
        args.add(src)
        actions.run(
            executable = clang.clang,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [args],
            inputs = inputs,
            outputs = [out],
            env = host.env,
            mnemonic = "ClangPtx",
            progress_message = "Compiling CUDA %s to PTX for sm_%s with clang" % (src.short_path, virtual),
        )

    def cubin(code, ptx_file, out):
        args = actions.args()
        args.add_all(["-arch=" + code, "-m64"])
        args.add_all(ptxas_flags)
        if rdc:
            args.add("--compile-only")
        args.add("-o", out)
        args.add(ptx_file)
        actions.run(
            executable = clang_cuda.ptxas,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [args],
            inputs = depset([ptx_file], transitive = [clang_cuda.files, additional_inputs]),
            outputs = [out],
            env = host.env,
            mnemonic = "ClangSass",
            progress_message = "Assembling CUDA %s for %s (ptxas)" % (src.short_path, code),
        )

    def fatbin(images, out):
        args = actions.args()
        args.add_all(["-64", "--create=" + out.path])
        for image_kind, sm, f in images:
            args.add("--image3=kind=%s,sm=%s,file=%s" % (image_kind, sm, f.path))
        if rdc:
            args.add("--device-c")
        actions.run(
            executable = clang_cuda.fatbinary,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [args],
            inputs = depset([f for _, _, f in images], transitive = [clang_cuda.files]),
            outputs = [out],
            env = host.env,
            mnemonic = "ClangFatbin",
            progress_message = "Packing the device code of CUDA %s (fatbinary)" % src.short_path,
        )

    def host_object(fatbin_file, archs, out):
        args = common()
        args.add_all(mode_flags.host)
        args.add_all(flags.host)
        args.add_all(host_copts)
        args.add_all(["--cuda-host-only"] + ["--cuda-gpu-arch=sm_" + v for v in archs])
        args.add_all(["-Xclang", "-fcuda-include-gpubinary", "-Xclang", fatbin_file])
        args.add("-c", src)
        args.add("-o", out)
        actions.run(
            executable = clang.clang,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [args],
            inputs = depset([fatbin_file], transitive = [inputs]),
            outputs = [out],
            env = host.env,
            mnemonic = "ClangHost",
            progress_message = "Compiling CUDA %s (host code) with clang" % src.short_path,
        )

    return struct(ptx = ptx, cubin = cubin, fatbin = fatbin, host = host_object)

def clang_compile(
        actions,
        cuda,
        clang,
        host,
        src,
        out,
        entries,
        arch_list,
        mode,
        rdc,
        fast_math,
        compilation_context,
        copts,
        host_copts,
        label,
        additional_inputs = depset()):
    """Compiles one CUDA source to an object with clang: device code per arch, then the host code.

    Args:
      actions: ctx.actions.
      cuda: CudaToolchainInfo (with clang_cuda).
      clang: ClangInfo.
      host: the host compiler (host_compiler.bzl).
      src: File, the source.
      out: the object File to write.
      entries: [(virtual arch, [codes])] from clang_check.
      arch_list: __CUDA_ARCH_LIST__ for the whole spec ("800,900").
      mode: "dbg", "opt" or "fastbuild".
      rdc: bool, relocatable device code.
      fast_math: bool, --use_fast_math.
      compilation_context: merged CcCompilationContext.
      copts: list of nvcc options (clang_copts maps them).
      host_copts: list of host-compiler options.
      label: the target's label, for messages.
      additional_inputs: depset of Files every action reads besides the source and headers.
    """
    c = clang_actions(
        actions = actions,
        cuda = cuda,
        clang = clang,
        host = host,
        src = src,
        mode = mode,
        rdc = rdc,
        fast_math = fast_math,
        compilation_context = compilation_context,
        copts = copts,
        host_copts = host_copts,
        arch_list = arch_list,
        # Stable across configurations, and one per object (two targets may compile one source).
        cuid = "%x" % (hash(out.short_path) & 0xffffffff),
        label = label,
        additional_inputs = additional_inputs,
    )
    device_dir = out.basename + ".device/" + out.basename
    images = []
    for virtual, codes in entries:
        ptx = actions.declare_file(device_dir + ".compute_%s.ptx" % virtual, sibling = out)
        c.ptx(virtual, ptx)
        if "compute_" + virtual in codes:
            images.append(("ptx", virtual, ptx))
        for code in codes:
            if not code.startswith("sm_"):
                continue
            name = ".compute_%s.cubin" % virtual if len(codes) == 1 else ".compute_%s.sm_%s.cubin" % (virtual, code[len("sm_"):])
            cubin = actions.declare_file(device_dir + name, sibling = out)
            c.cubin(code, ptx, cubin)
            images.append(("elf", code[len("sm_"):], cubin))
    fatbin = actions.declare_file(device_dir + ".fatbin", sibling = out)
    c.fatbin(images, fatbin)
    c.host(fatbin, [v for v, _ in entries], out)
