"""nvcc options in cu_library's copts, as clang takes them (--cuda_compiler=clang; docs/clang.md).

Options that only nvcc has are mapped to clang's equivalents or rejected with a message saying
what to do instead. Every other option (-std=, -D, -I, -O, -W..., -f...) goes to clang as it is,
which reports one it does not know.
"""

# nvcc option -> (where it goes: "common", "device", "host" or "ptxas"; what it becomes). An option
# whose value follows it as the next copt, or after '=', is listed without the value (see _VALUED).
_MAPPED = {
    "--use_fast_math": ("device", ["-ffast-math", "-fgpu-flush-denormals-to-zero"]),
    "-use_fast_math": ("device", ["-ffast-math", "-fgpu-flush-denormals-to-zero"]),
    # clang treats constexpr functions as __host__ __device__, and lambdas in device code as nvcc's
    # extended lambdas, without being asked.
    "--expt-relaxed-constexpr": ("common", []),
    "-expt-relaxed-constexpr": ("common", []),
    "--expt-extended-lambda": ("common", []),
    "-expt-extended-lambda": ("common", []),
    "--extended-lambda": ("common", []),
    "-extended-lambda": ("common", []),
    "-lineinfo": ("device", ["-gline-tables-only"]),
    "--generate-line-info": ("device", ["-gline-tables-only"]),
    "-G": ("device", ["-g", "--cuda-noopt-device-debug"]),
    "--device-debug": ("device", ["-g", "--cuda-noopt-device-debug"]),
    "--ftz=true": ("device", ["-fgpu-flush-denormals-to-zero"]),
    "-ftz=true": ("device", ["-fgpu-flush-denormals-to-zero"]),
    "--ftz=false": ("device", ["-fno-gpu-flush-denormals-to-zero"]),
    "-ftz=false": ("device", ["-fno-gpu-flush-denormals-to-zero"]),
    "--fmad=true": ("device", ["-ffp-contract=fast"]),
    "-fmad=true": ("device", ["-ffp-contract=fast"]),
    "--fmad=false": ("device", ["-ffp-contract=off"]),
    "-fmad=false": ("device", ["-ffp-contract=off"]),
    "--default-stream=per-thread": ("common", ["-fgpu-default-stream=per-thread"]),
    "-default-stream=per-thread": ("common", ["-fgpu-default-stream=per-thread"]),
    "--default-stream=legacy": ("common", ["-fgpu-default-stream=legacy"]),
    "-default-stream=legacy": ("common", ["-fgpu-default-stream=legacy"]),
    "--resource-usage": ("ptxas", ["-v"]),
    "-res-usage": ("ptxas", ["-v"]),
    # clang has no warning about deprecated GPU targets to silence.
    "-Wno-deprecated-gpu-targets": ("common", []),
    "--Wno-deprecated-gpu-targets": ("common", []),
}

# Options whose value is the next copt or follows '=': option -> (where, prefix for each
# comma-separated part of the value, or None to drop the value).
_VALUED = {
    "-Xptxas": ("ptxas", ""),
    "--ptxas-options": ("ptxas", ""),
    "-Xcompiler": ("host", ""),
    "--compiler-options": ("host", ""),
    "--maxrregcount": ("ptxas", "--maxrregcount="),
    "-maxrregcount": ("ptxas", "--maxrregcount="),
    "--default-stream": ("common", "-fgpu-default-stream="),
    "-default-stream": ("common", "-fgpu-default-stream="),
    # Each arch compiles in an action of its own: nothing for nvcc's threads to share.
    "--threads": ("common", None),
    "-t": ("common", None),
}

_ARCHS = "the GPU archs come from the arch spec (the archs attribute or --cuda_archs), for every compiler"
_RDC = "relocatable device code is the rdc attribute (rdc = True), for every compiler"
_NVCC_ONLY = "nvcc's internal tools have no clang counterpart; select() the option on @rules_cuda_go//toolchains:compiler_is_nvcc"

# nvcc options clang cannot take -> why, and what to do instead.
_REJECTED = {
    "-gencode": _ARCHS,
    "--generate-code": _ARCHS,
    "-arch": _ARCHS,
    "--gpu-architecture": _ARCHS,
    "-code": _ARCHS,
    "--gpu-code": _ARCHS,
    "-rdc": _RDC,
    "--relocatable-device-code": _RDC,
    "-dc": _RDC,
    "--device-c": _RDC,
    "-dlto": "clang's device code is not link-time optimised here (nvlink's -dlto reads NVVM IR, which clang does not write)",
    "--dlink-time-opt": "clang's device code is not link-time optimised here (nvlink's -dlto reads NVVM IR, which clang does not write)",
    "-lto": "clang's device code is not link-time optimised here (nvlink's -dlto reads NVVM IR, which clang does not write)",
    "-ccbin": "clang compiles the host code itself, against the C++ toolchain's sysroot and GCC headers",
    "--compiler-bindir": "clang compiles the host code itself, against the C++ toolchain's sysroot and GCC headers",
    "--prec-div": "clang has no per-operation switch: --use_fast_math (-ffast-math) relaxes division and square roots together",
    "-prec-div": "clang has no per-operation switch: --use_fast_math (-ffast-math) relaxes division and square roots together",
    "--prec-sqrt": "clang has no per-operation switch: --use_fast_math (-ffast-math) relaxes division and square roots together",
    "-prec-sqrt": "clang has no per-operation switch: --use_fast_math (-ffast-math) relaxes division and square roots together",
    "-Xcudafe": "cudafe++ diagnostics (--diag_suppress=N) have no clang counterpart; silence clang warnings with -Wno-<name> under a select() on @rules_cuda_go//toolchains:compiler_is_clang",
    "--diag-suppress": "cudafe++ diagnostics have no clang counterpart; silence clang warnings with -Wno-<name> under a select() on @rules_cuda_go//toolchains:compiler_is_clang",
    "-diag-suppress": "cudafe++ diagnostics have no clang counterpart; silence clang warnings with -Wno-<name> under a select() on @rules_cuda_go//toolchains:compiler_is_clang",
    "-Xcicc": _NVCC_ONLY,
    "-Xnvlink": _NVCC_ONLY,
    "--nvlink-options": _NVCC_ONLY,
    "-Xarchive": _NVCC_ONLY,
    "-keep": _NVCC_ONLY,
    "--keep": _NVCC_ONLY,
    "--keep-dir": _NVCC_ONLY,
    "-src-in-ptx": _NVCC_ONLY,
    "--source-in-ptx": _NVCC_ONLY,
    "-restrict": _NVCC_ONLY,
    "--restrict": _NVCC_ONLY,
    "-extra-device-vectorization": _NVCC_ONLY,
    "--extra-device-vectorization": _NVCC_ONLY,
    "--Werror": "nvcc's warning kinds (all-warnings, cross-execution-space-call, ...) are cudafe++'s; clang takes -Werror and -Werror=<warning>",
    "-allow-unsupported-compiler": _NVCC_ONLY,
    "--allow-unsupported-compiler": _NVCC_ONLY,
    "-forward-unknown-to-host-compiler": _NVCC_ONLY,
    "--forward-unknown-to-host-compiler": _NVCC_ONLY,
}

def clang_copts(copts):
    """nvcc options (cu_library copts) as clang options.

    Args:
      copts: list of strings, the copts as written for nvcc.

    Returns:
      (flags, error): flags is a struct(common, device, host, ptxas) of lists: options of every
      clang compile of the source, of its device compiles, of its host compile, and of ptxas; error
      is None, or a message naming the first option clang cannot take, why, and what to do.
    """
    out = {"common": [], "device": [], "host": [], "ptxas": []}
    i = 0
    for _ in range(len(copts)):
        if i >= len(copts):
            break
        flag = copts[i]
        i += 1
        name, eq, value = flag.partition("=")
        if flag in _MAPPED:
            where, to = _MAPPED[flag]
            out[where].extend(to)
            continue
        if name in _VALUED:
            where, prefix = _VALUED[name]
            if not eq:
                if i >= len(copts):
                    return None, "copts: %s needs a value after it" % flag
                value = copts[i]
                i += 1
            if prefix != None:
                out[where].extend([prefix + v for v in value.split(",") if v])
            continue
        if name in _REJECTED:
            return None, "copts: %s is an nvcc option that clang cannot take (--cuda_compiler=clang): %s (docs/clang.md has the table)" % (flag, _REJECTED[name])
        out["common"].append(flag)
    return struct(**out), None
