"""nvcc actions and the flags every nvcc action shares: running nvcc (staged where device line tables need it), the device link. The compile of a source is nvcc_compile.bzl."""

load("//common:host_compiler.bzl", "host_compiler_flags")

# CUDA_TOOLCHAIN_TYPE is named on every nvcc action: the toolchain nvcc comes from, so that Bazel runs
# it on the execution platform that toolchain was resolved for (automatic exec groups,
# --incompatible_auto_exec_groups).
load("//common:toolchain.bzl", "CUDA_TOOLCHAIN_TYPE")

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

def version_at_least(version, minimum):
    """Whether a "major.minor[.patch]" version is at least (major, minor); an unknown one is.

    Args:
      version: the toolkit's version string.
      minimum: a (major, minor) tuple.

    Returns:
      A bool.
    """
    parts = version.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return True
    return (int(parts[0]), int(parts[1])) >= minimum

def x_value(value):
    """value as one word for nvcc's -Xcudafe/-Xcicc, which nvcc hands on through a shell unquoted.

    A value with spaces goes in double quotes. One with a character that nvcc escapes itself (') or
    that a shell expands in double quotes cannot be handed on: None.

    Args:
      value: a string (a path).

    Returns:
      The word, or None.
    """
    for c in ["\"", "'", "$", "`", "\\"]:
        if c in value:
            return None
    return "\"%s\"" % value if " " in value else value

def orig_src_path_flags(path):
    """The flags that name the source to cudafe++ and cicc by its execroot-relative path.

    They name it in anonymous namespaces and the module ID, so the relative path keeps objects the
    same in every checkout (nvcc's own name is absolute). A path that cannot be handed on through
    -Xcudafe (x_value) keeps nvcc's own name.

    Args:
      path: the source's path.

    Returns:
      A list of nvcc arguments.
    """
    value = x_value(path)
    return ["-Xcudafe", "--orig_src_path_name=" + value] if value else []

def has_line_info(mode, copts):
    """Whether nvcc puts device line tables in its output for this mode and these options."""
    return mode in ("opt", "dbg") or any([f in _LINE_INFO_FLAGS for f in copts])

def nvcc_run(
        actions,
        cuda,
        host,
        args,
        src,
        headers,
        out,
        line_info,
        mnemonic,
        progress_message,
        extra_inputs = [],
        extra_outputs = [],
        with_src = True,
        stage_from = None,
        resource_set = None):
    """Runs nvcc on one source, staged at a fixed modification time where it writes line tables.

    ptxas writes the modification time of each source and header into device line tables
    (-lineinfo, -G), so objects built from two checkouts, or locally and on a remote executor
    (which gives input files times of its own), would differ. With line_info, nvcc runs through
    nvcc_stage.sh on copies of the source and every header, the toolkit's too, that all have one
    fixed time, under the same names (see nvcc_stage.sh); with stage_from, a PTX file, on copies of
    just the files its .file directives name, which are all ptxas reads.

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
      extra_inputs: list of Files nvcc reads besides the source and headers (a PTX input).
      extra_outputs: list of Files nvcc writes besides out (through -Xcicc options).
      with_src: bool, whether src is an input (False: nvcc reads only extra_inputs).
      stage_from: File or None: the PTX file that nvcc compiles, whose named sources are staged.
      resource_set: a resource_set function for Bazel's local scheduler, or None.
    """
    inputs = depset(([src] if with_src else []) + extra_inputs, transitive = [headers, cuda.toolkit_files, host.files])
    if not line_info:
        actions.run(
            executable = cuda.nvcc,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [args],
            inputs = inputs,
            outputs = [out] + extra_outputs,
            env = host.env,
            mnemonic = mnemonic,
            progress_message = progress_message,
            resource_set = resource_set,
        )
        return
    head = actions.args()
    head.add(cuda.nvcc)

    # The stage list: the other outputs, then what to copy.
    stage = actions.args()
    stage.use_param_file("%s", use_always = True)
    stage.set_param_file_format("multiline")
    stage.add_all(extra_outputs, format_each = "output %s")
    if stage_from:
        stage.add(stage_from, format = "sources %s")
    else:
        stage.add(src, format = "copy %s")
        stage.add_all(headers, format_each = "copy %s")
    tail = actions.args()
    tail.add(out)
    actions.run(
        executable = cuda.nvcc_stage,
        toolchain = CUDA_TOOLCHAIN_TYPE,
        arguments = [head, stage, tail, args],
        inputs = inputs,
        outputs = [out] + extra_outputs,
        env = host.env,
        mnemonic = mnemonic,
        progress_message = progress_message,
        resource_set = resource_set,
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
    add_includes(args, cuda.headers)
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

def add_includes(args, compilation_context):
    """Adds a CcCompilationContext's include directories to nvcc's args: -I for includes and quote includes, -isystem for system includes."""
    args.add_all(compilation_context.includes, format_each = "-I%s")
    args.add_all(compilation_context.quote_includes, format_each = "-I%s")
    args.add_all(compilation_context.system_includes, before_each = "-isystem")
