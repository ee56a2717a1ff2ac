"""nvcc actions: plain functions taking explicit inputs, used by cu_library."""

load("//toolchains:host_compiler.bzl", "host_compiler_flags")

# The toolchain nvcc comes from: named on every nvcc action, so that Bazel runs it on the execution
# platform that toolchain was resolved for (automatic exec groups, --incompatible_auto_exec_groups).
CUDA_TOOLCHAIN_TYPE = Label("//toolchains:toolchain_type")

# Flags per compilation mode (-c / --config=debug / --config=release).
MODE_FLAGS = {
    # Device: no optimisation, device debug info; host: -g -O0.
    "dbg": ["-G", "-g", "-O0", "-Xcompiler", "-g", "-Xcompiler", "-O0"],
    # Device and host -O3, line info for profilers (ncu, compute-sanitizer).
    "opt": ["-O3", "-lineinfo", "-Xcompiler", "-O3"],
    # nvcc's defaults.
    "fastbuild": [],
}

# nvcc options that put device line tables in its output (besides MODE_FLAGS' opt and dbg).
_LINE_INFO_FLAGS = ["-lineinfo", "--generate-line-info", "-G", "--device-debug"]

def _version_at_least(version, minimum):
    """Whether a "major.minor[.patch]" version is at least (major, minor); an unknown one is."""
    parts = version.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return True
    return (int(parts[0]), int(parts[1])) >= minimum

def nvcc_compile(
        actions,
        cuda,
        host,
        src,
        out,
        gencode_flags,
        mode,
        rdc,
        fast_math,
        compilation_context,
        copts,
        host_copts,
        as_cuda = False):
    """Compiles one source file to an object with nvcc.

    Args:
      actions: ctx.actions.
      cuda: CudaToolchainInfo.
      host: the host compiler (host_compiler.bzl).
      src: File, a .cu (compiled as CUDA) or .cc/.cpp/.cxx (host C++ with CUDA headers).
      out: the object File to write.
      gencode_flags: list of -gencode flags (from the arch resolver).
      mode: "dbg", "opt" or "fastbuild".
      rdc: bool, relocatable device code.
      fast_math: bool, --use_fast_math.
      compilation_context: merged CcCompilationContext (headers, includes, defines of deps and self).
      copts: list of extra nvcc options.
      host_copts: list of host-compiler options (each passed with -Xcompiler).
      as_cuda: compile src as CUDA whatever its extension (nvcc -x cu).
    """
    args = actions.args()
    if src.extension == "cu" or as_cuda:
        args.add("-x", "cu")
    args.add("-c", src)
    args.add("-o", out)
    args.add_all(host_compiler_flags(host))
    args.add_all(["-Xcompiler", "-fPIC"])

    # Bit-identical objects from any directory: nvcc names its temporary files after the process
    # id unless they go next to the object (-objtemp, CUDA >= 11.8 here), and cudafe++ hashes the
    # absolute source path into the names of anonymous-namespace symbols unless told the
    # execroot-relative one.
    if _version_at_least(cuda.version, (11, 8)):
        args.add("-objtemp")
    args.add("-Xcudafe", "--orig_src_path_name=" + src.path)
    args.add_all(gencode_flags)
    args.add_all(MODE_FLAGS[mode])
    if rdc:
        args.add("-rdc=true")
    if fast_math:
        args.add("--use_fast_math")
    args.add_all(compilation_context.defines, format_each = "-D%s")
    args.add_all(compilation_context.local_defines, format_each = "-D%s")
    _add_includes(args, compilation_context)
    args.add_all(copts)
    for f in host_copts:
        args.add_all(["-Xcompiler", f])
    nvcc_run(
        actions = actions,
        cuda = cuda,
        host = host,
        args = args,
        src = src,
        headers = compilation_context.headers,
        out = out,
        line_info = has_line_info(mode, copts),
        mnemonic = "NvccCompile",
        progress_message = "Compiling CUDA " + src.short_path,
    )

def has_line_info(mode, copts):
    """Whether nvcc puts device line tables in its output for this mode and these options."""
    return mode in ("opt", "dbg") or any([f in _LINE_INFO_FLAGS for f in copts])

def nvcc_run(actions, cuda, host, args, src, headers, out, line_info, mnemonic, progress_message):
    """Runs nvcc on one source, staged at a fixed modification time where it writes line tables.

    ptxas writes the modification time of each source and header into device line tables
    (-lineinfo, -G), so objects built from two checkouts would differ. With line_info, nvcc runs
    through nvcc_stage.sh on copies of the source and the headers outside the toolkit that all
    have one fixed time, under the same names (see nvcc_stage.sh).

    Args:
      actions: ctx.actions.
      cuda: CudaToolchainInfo.
      host: the host compiler (host_compiler.bzl).
      args: Args, nvcc's arguments (writing out with -o).
      src: File, the source.
      headers: depset of Files, the headers it may include.
      out: File, what nvcc writes.
      line_info: bool, whether the output holds device line tables (has_line_info).
      mnemonic: the action's mnemonic.
      progress_message: the action's progress message.
    """
    inputs = depset([src], transitive = [headers, cuda.toolkit_files, host.files])
    if not line_info:
        actions.run(
            executable = cuda.nvcc,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [args],
            inputs = inputs,
            outputs = [out],
            env = host.env,
            mnemonic = mnemonic,
            progress_message = progress_message,
        )
        return
    head = actions.args()
    head.add(cuda.nvcc)

    # The stage list: the toolkit's header directories stay in place (their times come from its
    # archives or packages); the source and every other header are copied.
    stage = actions.args()
    stage.use_param_file("%s", use_always = True)
    stage.set_param_file_format("multiline")
    stage.add_all(cuda.headers.includes, format_each = "keep %s")
    stage.add_all(cuda.headers.quote_includes, format_each = "keep %s")
    stage.add_all(cuda.headers.system_includes, format_each = "keep %s")
    stage.add(src, format = "copy %s")
    stage.add_all(headers, format_each = "copy %s")
    tail = actions.args()
    tail.add(out)
    actions.run(
        executable = cuda.nvcc_stage,
        toolchain = CUDA_TOOLCHAIN_TYPE,
        arguments = [head, stage, tail, args],
        inputs = inputs,
        outputs = [out],
        env = host.env,
        mnemonic = mnemonic,
        progress_message = progress_message,
    )

def nvcc_device_link(actions, cuda, host, objects, libraries, out, gencode_flags):
    """Device-links relocatable device code into one object a normal host link accepts.

    Args:
      actions: ctx.actions.
      cuda: CudaToolchainInfo.
      host: the host compiler (host_compiler.bzl).
      objects: list of Files compiled with -rdc=true.
      libraries: list of static libraries with device code to link against (libcufft_static.a).
      out: the object File to write.
      gencode_flags: the -gencode flags the objects were compiled with.
    """
    args = actions.args()
    args.add("-dlink")
    args.add_all(host_compiler_flags(host))
    args.add_all(["-Xcompiler", "-fPIC"])
    args.add_all(gencode_flags)

    # nvcc compiles its link stub (bin/crt/link.stub), which includes crt/host_defines.h: the
    # toolkit's headers, which a downloaded toolkit keeps outside nvcc's own tree.
    _add_includes(args, cuda.headers)
    args.add_all(objects)
    args.add_all(libraries)
    args.add("-o", out)
    actions.run(
        executable = cuda.nvcc,
        toolchain = CUDA_TOOLCHAIN_TYPE,
        arguments = [args],
        inputs = depset(objects + libraries, transitive = [cuda.toolkit_files, cuda.headers.headers, host.files]),
        outputs = [out],
        env = host.env,
        mnemonic = "NvccDeviceLink",
        progress_message = "Device-linking %{output}",
    )

def _add_includes(args, compilation_context):
    args.add_all(compilation_context.includes, format_each = "-I%s")
    args.add_all(compilation_context.quote_includes, format_each = "-I%s")
    args.add_all(compilation_context.system_includes, before_each = "-isystem")
