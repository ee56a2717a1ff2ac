"""The compile of one CUDA source: split into per-arch device actions, or one nvcc action."""

load("//common:host_compiler.bzl", "host_compiler_flags")
load("//common:toolchain.bzl", "CUDA_TOOLCHAIN_TYPE")
load(
    ":actions.bzl",
    "MODE_FLAGS",
    "add_includes",
    "has_line_info",
    "nvcc_run",
    "orig_src_path_flags",
    "version_at_least",
    "x_value",
)

# nvcc options that choose device targets or device code kinds the split (see nvcc_compile) does not
# model: with one of them in copts a source compiles in one nvcc action.
_UNSPLITTABLE_COPTS = [
    "-gencode",
    "--generate-code",
    "-arch",
    "--gpu-architecture",
    "-code",
    "--gpu-code",
    "-dlto",
    "--dlink-time-opt",
    "-lto",
]

def _unsplittable(copts):
    """The first option in copts that keeps a source in one nvcc action, or None."""
    for f in copts:
        name = f.split("=")[0]
        if name in _UNSPLITTABLE_COPTS or (name.startswith("-arch") and name != "-arch") or (name.startswith("-code") and name != "-code"):
            return f
    return None

def parse_gencode(flags):
    """The device code that -gencode flags ask for, by virtual arch.

    Args:
      flags: list of "-gencode=arch=compute_V,code=C" flags (the arch resolver's), C being sm_R or
        compute_V.

    Returns:
      list of (V, [codes]) in the order of the flags, or None where a flag has another shape.
    """
    order = []
    codes = {}
    for flag in flags:
        if not flag.startswith("-gencode=arch=compute_") or ",code=" not in flag:
            return None
        virtual, _, code = flag[len("-gencode=arch=compute_"):].partition(",code=")
        if not virtual or not code or "," in code or "[" in code:
            return None
        if not (code.startswith("sm_") or code == "compute_" + virtual):
            return None
        if virtual not in codes:
            order.append(virtual)
            codes[virtual] = []
        codes[virtual].append(code)
    return [(v, codes[v]) for v in order]

def arch_list(gencode):
    """nvcc's __CUDA_ARCH_LIST__ for -gencode flags.

    Args:
      gencode: list of -gencode flags.

    Returns:
      string: the virtual archs, ascending and comma-separated ("800,900").
    """
    archs = {}
    for flag in gencode:
        for part in flag.split(","):
            if "arch=compute_" in part:
                digits = "".join([c for c in part.split("arch=compute_")[1].elems() if c.isdigit()])
                if digits:
                    archs[int(digits) * 10] = True
    return ",".join([str(a) for a in sorted(archs.keys())])

def _cpus(n):
    """A resource_set function declaring n CPUs (nvcc --threads n) to Bazel's local scheduler."""
    return _RESOURCE_SETS[min(n, len(_RESOURCE_SETS))]

def _cpu1(_os, _inputs):
    return {"cpu": 1}

def _cpu2(_os, _inputs):
    return {"cpu": 2}

def _cpu3(_os, _inputs):
    return {"cpu": 3}

def _cpu4(_os, _inputs):
    return {"cpu": 4}

_RESOURCE_SETS = {1: _cpu1, 2: _cpu2, 3: _cpu3, 4: _cpu4}

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
        split = True,
        additional_inputs = depset()):
    """Compiles one CUDA source file to an object with nvcc.

    Split (the default), the compile is a graph of actions that each do one part of what nvcc does in
    one run: per virtual arch V of the -gencode flags, `nvcc -ptx` (NvccPtx: device preprocessing and
    cicc) writes compute_V PTX; per real arch, `nvcc -cubin` from that PTX (NvccSass: ptxas) writes
    the SASS. Meanwhile NvccHostAsm runs nvcc's host steps to assembly with a stand-in fatbinary,
    and NvccHost packs the images with nvcc's fatbinary step, puts the fatbinary in (.incbin) and
    assembles (nvcc_split.sh); where the host compile writes debug information (-c dbg, -g), NvccHost
    runs the host steps with the fatbinary instead. The object is byte-identical to the single
    action's. A source stays one action (NvccCompile, with nvcc --threads and as many CPUs declared) when split
    is False, the toolkit is older than CUDA 12, the flags are not the arch resolver's, or copts
    choose device code themselves (-gencode, -arch, -dlto, ...), or the object's path has a
    character that nvcc cannot hand on to cicc (', ", $, `, \\).

    Args:
      actions: ctx.actions.
      cuda: CudaToolchainInfo.
      host: the host compiler (host_compiler.bzl).
      src: File, the source (compiled as CUDA whatever its extension: nvcc -x cu).
      out: the object File to write.
      gencode_flags: list of -gencode flags (from the arch resolver).
      mode: "dbg", "opt" or "fastbuild".
      rdc: bool, relocatable device code.
      fast_math: bool, --use_fast_math.
      compilation_context: merged CcCompilationContext (headers, includes, defines of deps and self).
      copts: list of extra nvcc options.
      host_copts: list of host-compiler options (each passed with -Xcompiler).
      split: bool, whether to split the compile (--@rules_cuda_go//toolchains:split_nvcc).
      additional_inputs: depset of Files that every action of the compile reads besides the
        source and headers (cu_library.additional_compiler_inputs: files that copts name).
    """
    line_info = has_line_info(mode, copts)

    # Every action that preprocesses the source sees the extra inputs as headers (staged with them
    # where line tables are written); the others (SASS, fatbinary) get them as inputs, since copts
    # may name them (--options-file).
    headers = depset(transitive = [compilation_context.headers, additional_inputs])
    common = struct(
        src = src,
        host = host,
        cuda = cuda,
        mode = mode,
        rdc = rdc,
        fast_math = fast_math,
        compilation_context = compilation_context,
        copts = copts,
        host_copts = host_copts,
    )
    entries = parse_gencode(gencode_flags)
    if (not split or not entries or _unsplittable(copts) or not version_at_least(cuda.version, (12, 0)) or
        not cuda.nvcc_split or not x_value(out.path)):
        args = _whole_compile(actions, common, out, gencode_flags)
        threads = len(gencode_flags) if version_at_least(cuda.version, (11, 2)) else 1
        if threads > 1:
            args.add("--threads", str(threads))
        nvcc_run(
            actions = actions,
            cuda = cuda,
            host = host,
            args = args,
            src = src,
            headers = headers,
            out = out,
            line_info = line_info,
            mnemonic = "NvccCompile",
            progress_message = "Compiling CUDA " + src.short_path,
            resource_set = _cpus(threads) if threads > 1 else None,
        )
        return

    # The device actions' files go in a directory of their own, apart from the temporary files
    # nvcc's host steps write next to the object (-objtemp) and remove, under the names nvcc gives
    # its temporary files: ptxas writes its command line into -G debug information.
    device_dir = out.basename + ".device/" + out.basename
    fatbin_name = out.basename + ".fatbin.c"
    stub = actions.declare_file(device_dir + ".stub.c", sibling = out)
    images = []
    stub_ptx = None
    arch_define = "-D__CUDA_ARCH_LIST__=" + arch_list(gencode_flags).replace(",", "\\,")
    for i, (virtual, codes) in enumerate(entries):
        ptx = actions.declare_file(device_dir + ".compute_%s.ptx" % virtual, sibling = out)
        args = actions.args()
        args.add("-x", "cu")
        args.add("-ptx", src)
        args.add("-o", ptx)
        _add_common(args, common)
        args.add("-gencode=arch=compute_%s,code=compute_%s" % (virtual, virtual))

        # What nvcc defines for the whole -gencode list, which CCCL names its ABI namespace after.
        args.add_all(["-U__CUDA_ARCH_LIST__", arch_define])
        outputs = [ptx]
        if i == len(entries) - 1:
            # cicc writes the host's registration stub for the kernels only when asked; nvcc's host
            # compile includes the one of its last virtual arch, which includes the fatbinary.
            args.add_all(["-Xcicc", "--stub_file_name", "-Xcicc", x_value(stub.path)])
            args.add_all(["-Xcicc", "--include_file_name", "-Xcicc", x_value(fatbin_name)])
            outputs.append(stub)
            stub_ptx = struct(virtual = virtual, file = ptx)
        nvcc_run(
            actions = actions,
            cuda = cuda,
            host = host,
            args = args,
            src = src,
            headers = headers,
            out = ptx,
            # cicc writes no file times: the PTX does not depend on when the sources were written.
            line_info = False,
            mnemonic = "NvccPtx",
            progress_message = "Compiling CUDA %s to PTX for compute_%s" % (src.short_path, virtual),
            extra_outputs = outputs[1:],
        )
        if "compute_" + virtual in codes:
            images.append(("ptx:" + virtual, ptx))
        for code in codes:
            if not code.startswith("sm_"):
                continue
            real = code[len("sm_"):]
            name = ".compute_%s.cubin" % virtual if len(codes) == 1 else ".compute_%s.sm_%s.cubin" % (virtual, real)
            cubin = actions.declare_file(device_dir + name, sibling = out)
            args = actions.args()
            args.add("-cubin", ptx)
            args.add("-o", cubin)
            _add_common(args, common)
            args.add("-gencode=arch=compute_%s,code=sm_%s" % (virtual, real))

            # ptxas reads the modification times of the sources the PTX names into device line
            # tables: those compiles need the sources, staged as NvccPtx's are.
            nvcc_run(
                actions = actions,
                cuda = cuda,
                host = host,
                args = args,
                src = src,
                headers = headers if line_info else additional_inputs,
                out = cubin,
                line_info = line_info,
                mnemonic = "NvccSass",
                progress_message = "Compiling CUDA %s to SASS for sm_%s" % (src.short_path, real),
                extra_inputs = [ptx],
                with_src = line_info,
                stage_from = ptx,
            )
            images.append(("elf:" + real, cubin))

    whole = _whole_compile(actions, common, out, gencode_flags)

    # The host code compiles to assembly while the device code compiles (NvccHostAsm); NvccHost
    # then packs the device code (nvcc's fatbinary step), puts it in and assembles. Where the host
    # compile writes debug information, which records the fatbinary's size, NvccHost compiles the
    # host code whole after the fatbinary step.
    asm = "-"
    standin = "-"
    host_inputs = [src, stub]
    message = "Compiling CUDA %s (host code)" % src.short_path
    if not _host_debug(mode, copts, host_copts):
        asm = actions.declare_file(device_dir + ".host.s", sibling = out)
        standin = actions.declare_file(device_dir + ".standin.fatbin.c", sibling = out)
        asm_head = actions.args()
        asm_head.add("hostasm")
        asm_head.add(cuda.nvcc)
        asm_head.add(stub)
        asm_head.add(stub_ptx.file, format = stub_ptx.virtual + "=%s")
        asm_head.add(asm)
        asm_head.add(standin)
        asm_head.add("--")
        actions.run(
            executable = cuda.nvcc_split,
            toolchain = CUDA_TOOLCHAIN_TYPE,
            arguments = [asm_head, whole],
            inputs = depset([src, stub, stub_ptx.file], transitive = [headers, cuda.toolkit_files, host.files]),
            outputs = [asm, standin],
            env = host.env,
            mnemonic = "NvccHostAsm",
            progress_message = message,
        )
        host_inputs += [asm, standin]
        message = "Assembling CUDA %s" % src.short_path
    head = actions.args()
    head.add("host")
    head.add(cuda.nvcc)
    head.add(stub)
    head.add(asm)
    head.add(standin)
    for key, f in images:
        head.add(f, format = key + "=%s")
    head.add("--")
    actions.run(
        executable = cuda.nvcc_split,
        toolchain = CUDA_TOOLCHAIN_TYPE,
        arguments = [head, whole],
        inputs = depset(host_inputs + [f for _, f in images], transitive = [headers, cuda.toolkit_files, host.files]),
        outputs = [out],
        env = host.env,
        mnemonic = "NvccHost",
        progress_message = message,
    )

def _host_debug(mode, copts, host_copts):
    """Whether the host compile writes debug information (-c dbg, or -g in copts or host_copts)."""
    if mode == "dbg":
        return True
    for flag in copts + host_copts:
        if flag in ("-g", "--debug") or flag.startswith(("-g1", "-g2", "-g3", "-ggdb", "-gdwarf")):
            return True
    return False

def _whole_compile(actions, c, out, gencode_flags):
    """nvcc's arguments for the whole compile of c.src to out, every -gencode target included."""
    args = actions.args()
    args.add("-x", "cu")
    args.add("-c", c.src)
    args.add("-o", out)
    _add_common(args, c)
    args.add_all(gencode_flags)
    return args

def _add_common(args, c):
    """The options every nvcc action of one source's compile shares (all but the mode and targets)."""
    args.add_all(host_compiler_flags(c.host))
    args.add_all(["-Xcompiler", "-fPIC"])

    # Bit-identical objects from any directory: nvcc names its temporary files after the process
    # id unless they go next to the object (-objtemp, CUDA >= 11.8 here), and cudafe++ hashes the
    # absolute source path into the names of anonymous-namespace symbols unless told the
    # execroot-relative one.
    if version_at_least(c.cuda.version, (11, 8)):
        args.add("-objtemp")
    args.add_all(orig_src_path_flags(c.src.path))
    args.add_all(MODE_FLAGS[c.mode])
    if c.rdc:
        args.add("-rdc=true")
    if c.fast_math:
        args.add("--use_fast_math")
    args.add_all(c.compilation_context.defines, format_each = "-D%s")
    args.add_all(c.compilation_context.local_defines, format_each = "-D%s")
    add_includes(args, c.compilation_context)
    args.add_all(c.copts)
    for f in c.host_copts:
        args.add_all(["-Xcompiler", f])
