"""The CUDA libraries as Bazel targets: one table, used by every toolkit source.

LIBRARIES names every target that @cuda//:<name> offers and says which component (repository
@cuda_<version>_<component>) carries it and which files make it. cuda_library_targets() renders
them inside a toolkit repository: a cc_library when the files are there, else a
cuda_missing_library that fails at analysis time naming the library and the toolkit. The hub
(@cuda) and the local toolkit (@local_cuda) use the same table, so the names are the same for
every source.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")
load(":cuda_device_library.bzl", "cuda_device_library")
load(":cuda_missing_library.bzl", "cuda_missing_library")

def _lib(component, shared = [], static = [], optional = [], deps = [], linkopts = [], target = None, doc = "", device_link = False):
    return struct(
        component = component,
        device_link = device_link,
        shared = shared,
        static = static,
        optional = optional,
        deps = deps,
        linkopts = linkopts,
        target = target,
        doc = doc,
    )

# What libcudart_static.a and the other static CUDA libraries need from the system.
_STATIC_SYSTEM = ["-ldl", "-lpthread", "-lrt"]

# name -> where it lives and what it is made of. `shared`: glob patterns under lib/ (all files of
# a target land in one directory of the runfiles, so a library finds its siblings through its
# $ORIGIN run path); `static`: exact file names under lib/; every pattern of the two must match for
# the library to exist; `optional`: files linked too where present. A library with neither is
# headers only. `device_link`: its static archives hold relocatable device code, which the device
# link of whatever uses it must see (a cuda_device_library then carries them in CuInfo).
LIBRARIES = {
    "cudart_static": _lib("cudart", static = ["libcudart_static.a"], linkopts = _STATIC_SYSTEM, doc = "CUDA runtime, static (loads the driver lazily)"),
    "cudart_shared": _lib("cudart", shared = ["libcudart.so*"], doc = "CUDA runtime, shared"),
    "cudadevrt": _lib("cudart", static = ["libcudadevrt.a"], doc = "device runtime for relocatable device code"),
    "culibos": _lib("cudart", static = ["libculibos.a"], linkopts = _STATIC_SYSTEM, doc = "OS helpers the static math libraries need"),
    "cuda_driver": _lib("cudart", doc = "link stub for libcuda.so.1 (the driver API)"),
    "cuda_headers": _lib("cudart", doc = "CUDA runtime and driver headers"),
    "cccl": _lib("cccl", target = "headers", doc = "Thrust, CUB and libcu++ (headers)"),
    "nvtx": _lib("nvtx", target = "headers", doc = "NVTX 3 (headers; nvtx3/nvToolsExt.h)"),
    "cublas": _lib("cublas", shared = ["libcublas.so*", "libcublasLt.so*"]),
    "cublasLt": _lib("cublas", shared = ["libcublasLt.so*"]),
    "cublas_headers": _lib("cublas", target = "headers", doc = "cuBLAS and cuBLASLt headers only, for code that loads the library at run time (dlopen)"),
    "cublas_static": _lib("cublas", static = ["libcublas_static.a", "libcublasLt_static.a"], deps = ["culibos"]),
    "cublasLt_static": _lib("cublas", static = ["libcublasLt_static.a"], deps = ["culibos"]),
    "cufft": _lib("cufft", shared = ["libcufft.so*"]),
    "cufftw": _lib("cufft", shared = ["libcufftw.so*", "libcufft.so*"]),
    # Its kernels are relocatable device code (callbacks link into them): it needs a device link.
    "cufft_static": _lib("cufft", static = ["libcufft_static.a"], deps = ["culibos"], device_link = True),
    "curand": _lib("curand", shared = ["libcurand.so*"]),
    "curand_static": _lib("curand", static = ["libcurand_static.a"], deps = ["culibos"]),
    "cusparse": _lib("cusparse", shared = ["libcusparse.so*"], deps = ["nvjitlink"]),
    "cusparse_static": _lib("cusparse", static = ["libcusparse_static.a"], deps = ["nvjitlink_static", "culibos"]),
    "cusolver": _lib("cusolver", shared = ["libcusolver.so*"], deps = ["cublas", "cusparse", "nvjitlink"]),
    "cusolver_static": _lib("cusolver", static = ["libcusolver_static.a"], deps = ["cublas_static", "cusparse_static", "culibos"]),
    "nvrtc": _lib("nvrtc", shared = ["libnvrtc.so*", "libnvrtc-builtins.so*"]),
    "nvrtc_static": _lib("nvrtc", static = ["libnvrtc_static.a", "libnvrtc-builtins_static.a"], optional = ["libnvptxcompiler_static.a"], linkopts = _STATIC_SYSTEM),
    "nvjitlink": _lib("nvjitlink", shared = ["libnvJitLink.so*"]),
    "nvjitlink_static": _lib("nvjitlink", static = ["libnvJitLink_static.a"], linkopts = _STATIC_SYSTEM),
    "cudnn": _lib("cudnn", shared = ["libcudnn*.so*"]),
    "nccl": _lib("nccl", shared = ["libnccl.so*"]),
    "nccl_static": _lib("nccl", static = ["libnccl_static.a"], linkopts = _STATIC_SYSTEM),
}

def library_target(name):
    """The target inside a component repository that @cuda//:<name> points at."""
    return LIBRARIES[name].target or name

def cross_component_deps(component):
    """name -> label, for the deps of a component's libraries that live in other components.

    They go through the hub (@cuda//:<name>), which selects the same toolkit.

    Args:
      component: the component whose libraries are declared.

    Returns:
      A dict from library name to "@cuda//:<name>".
    """
    out = {}
    for lib in LIBRARIES.values():
        if lib.component == component:
            for d in lib.deps:
                if LIBRARIES[d].component != component:
                    out[d] = "@cuda//:" + d
    return out

# The runtime libraries cu_library links, which the toolchain takes as toolchain_<name> from the
# cudart component (cuda_toolkit_config.bzl) or the local toolkit (local_targets.bzl).
_TOOLCHAIN_LIBRARIES = ["cudart_static", "cudart_shared", "cudadevrt"]

def _missing_files(lib):
    """The file patterns of a library (shared and static) that match nothing under lib/."""
    return [p for p in lib.shared + lib.static if not native.glob(["lib/" + p], exclude = ["lib/*.alt.so*"], allow_empty = True)]

def _advice(name, lib):
    if lib.static:
        return ("NVIDIA's wheels ship shared libraries only: use @cuda//:%s, or a toolkit from NVIDIA's " +
                "redist archives or a local install (--@rules_cuda_go//toolchains:cuda_version=local).") % name.removesuffix("_static")
    return "Select a toolkit that has it with --@rules_cuda_go//toolchains:cuda_version."

# buildifier: disable=unnamed-macro
# Declares a fixed set of targets named after LIBRARIES.
def cuda_library_targets(component, toolkit, headers, cuda_headers, dep_labels = {}):
    """Declares the @cuda//:<name> targets of one component in a toolkit repository.

    Args:
      component: which component's libraries to declare (a key's `component` in LIBRARIES), or
        "*" for all of them (a local toolkit, where one repository holds everything).
      toolkit: the toolkit, for messages (e.g. "CUDA 13.2 (pinned)").
      headers: label of this component's headers (a cc_library).
      cuda_headers: label of the CUDA runtime headers (cuda_runtime.h, cuda.h) the libraries'
        headers include.
      dep_labels: name -> label for LIBRARIES deps that live in other repositories.
    """
    for name, lib in LIBRARIES.items():
        if component != "*" and lib.component != component:
            continue
        if not lib.shared and not lib.static:
            continue  # Headers or the driver stub: declared by the repository's own BUILD.
        if _missing_files(lib):
            cuda_missing_library(
                name = name,
                message = "the CUDA library %s (%s) is not part of %s. %s" % (
                    name,
                    ", ".join(lib.shared + lib.static),
                    toolkit,
                    _advice(name, lib),
                ),
                visibility = ["//visibility:public"],
            )
            continue
        files = native.glob(["lib/" + p for p in lib.shared + lib.static + lib.optional], exclude = ["lib/*.alt.so*"], allow_empty = True)
        cc_library(
            name = name + "_host" if lib.device_link else name,
            srcs = files,
            linkopts = lib.linkopts,
            deps = {d: True for d in [headers, cuda_headers] + [dep_labels.get(d, ":" + d) for d in lib.deps]}.keys(),
            visibility = ["//visibility:private"] if lib.device_link else ["//visibility:public"],
        )
        if lib.device_link:
            cuda_device_library(
                name = name,
                library = ":%s_host" % name,
                archives = ["lib/" + f for f in lib.static],
                visibility = ["//visibility:public"],
            )
    if component in ["cudart", "*"]:
        # What the toolchain takes the runtime from (toolchain_<name>): the library, or a target
        # without CcInfo where this toolkit lacks it (no libcudart.so in a redist toolkit, say), so
        # the toolchain still analyses and cu_library says what is missing only when it needs it
        # (e.g. --@rules_cuda_go//toolchains:cudart=shared).
        native.filegroup(name = "toolchain_absent")
        for name in _TOOLCHAIN_LIBRARIES:
            native.alias(
                name = "toolchain_" + name,
                actual = ":toolchain_absent" if _missing_files(LIBRARIES[name]) else ":" + name,
            )

def _headers(name):
    cccl = native.glob(["include/cccl/**"], allow_empty = True)
    cc_library(
        name = name,
        hdrs = native.glob(["include/**"], allow_empty = True),
        # CUDA 13 keeps Thrust/CUB/libcu++ under include/cccl, as nvcc's own profile does.
        includes = (["include/cccl"] if cccl else []) + ["include"],
        visibility = ["//visibility:public"],
    )

def cuda_driver_stub(name, toolkit, cuda_headers, has_stub):
    """Declares the libcuda link stub (built from stub/cuda_stub.c) or a missing-library target.

    Args:
      name: the target name.
      toolkit: the toolkit, for messages.
      cuda_headers: label of the headers that declare the driver API (cuda.h).
      has_stub: whether stub/cuda_stub.c was generated.
    """
    if not has_stub:
        cuda_missing_library(
            name = name,
            message = "the CUDA driver API link stub needs cuda.h, which %s lacks." % toolkit,
            visibility = ["//visibility:public"],
        )
        return
    cc_binary(
        name = "libcuda.so",
        srcs = ["stub/cuda_stub.c"],
        linkshared = True,
        # Programs record the driver's soname and load the real libcuda.so.1 at run time; the
        # stub itself is never found under that name.
        linkopts = ["-Wl,-soname,libcuda.so.1"],
        visibility = ["//visibility:private"],
    )
    cc_library(
        name = name,
        srcs = [":libcuda.so"],
        deps = [cuda_headers],
        visibility = ["//visibility:public"],
    )

# buildifier: disable=unnamed-macro
# The whole BUILD file of a component repository.
def cuda_component_targets(component, toolkit, crt = "", cuda_headers = "", dep_labels = {}, driver_stub = False):
    """The BUILD file of a downloaded component repository (see cuda_component.bzl).

    Args:
      component: nvcc, crt, cudart, cccl, cuobjdump, or a library component (cublas, ...).
      toolkit: the toolkit, for messages.
      crt: label of the crt headers (used by cudart's cuda_headers).
      cuda_headers: label of the CUDA runtime headers.
      dep_labels: name -> label for dependencies in other components.
      driver_stub: whether stub/cuda_stub.c was generated (cudart only).
    """
    if component == "nvcc":
        native.filegroup(name = "nvcc", srcs = ["bin/nvcc"])
        native.filegroup(
            name = "compiler_files",
            srcs = native.glob(["bin/**", "nvvm/**", "lib/**", "include/**"], allow_empty = True),
        )
        return
    if component == "cuobjdump":
        native.filegroup(name = "cuobjdump", srcs = ["bin/cuobjdump"])
        return
    _headers("headers")
    if component == "cudart":
        cc_library(name = "cuda_headers", deps = [":headers"] + ([crt] if crt else []))

        # cuda.h is in this component's own headers; the stub needs nothing else.
        cuda_driver_stub("cuda_driver", toolkit, ":headers", driver_stub)
        cuda_headers = ":cuda_headers"
    if component in ["crt", "cccl", "nvtx"]:
        return
    cuda_library_targets(component, toolkit, ":headers", cuda_headers, dep_labels)
