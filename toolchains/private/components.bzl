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
load(":cuda_shared_library.bzl", "cuda_shared_library")

def _lib(component, shared = [], static = [], runtime = [], optional = [], deps = [], linkopts = [], target = None, doc = "", device_link = False):
    return struct(
        component = component,
        device_link = device_link,
        shared = shared,
        static = static,
        runtime = runtime,
        optional = optional,
        deps = deps,
        linkopts = linkopts,
        target = target,
        doc = doc,
    )

# What libcudart_static.a and the other static CUDA libraries need from the system.
_STATIC_SYSTEM = ["-ldl", "-lpthread", "-lrt"]

# name -> where it lives and what it is made of. `shared`: glob patterns under lib/, linked as
# needed by each library's soname file (cuda_shared_library.bzl); `runtime`: patterns under lib/ of
# libraries those open at run time, placed beside them and never linked; `static`: exact file names
# under lib/; every pattern of the three must match for the library to exist; `optional`: static
# files linked too where present. A library with none is headers only (or a link stub declared by
# the repository's BUILD). `deps`: libraries these need, whose shared files are placed beside them
# (NVIDIA's libraries find each other through their $ORIGIN run path). `device_link`: its static
# archives hold relocatable device code, which the device link of whatever uses it must see (a
# cuda_device_library then carries them in CuInfo).
LIBRARIES = {
    "cudart_static": _lib("cudart", static = ["libcudart_static.a"], linkopts = _STATIC_SYSTEM, doc = "CUDA runtime, static (loads the driver lazily)"),
    "cudart_shared": _lib("cudart", shared = ["libcudart.so*"], doc = "CUDA runtime, shared"),
    "cudadevrt": _lib("cudart", static = ["libcudadevrt.a"], doc = "device runtime for relocatable device code"),
    "culibos": _lib("cudart", static = ["libculibos.a"], linkopts = _STATIC_SYSTEM, doc = "OS helpers the static math libraries need"),
    "cuda_driver": _lib("cudart", doc = "link stub for libcuda.so.1 (the driver API): programs NEED libcuda.so.1"),
    "cuda_driver_lazy": _lib("cudart", doc = "the driver API (cuda.h) loaded on first use from libcuda.so.1: programs start without the driver, whose calls then return CUDA_ERROR_NO_DEVICE"),
    "cuda_headers": _lib("cudart", doc = "CUDA runtime, driver and profiler API headers"),
    "cccl": _lib("cccl", target = "headers", doc = "Thrust, CUB and libcu++ (headers)"),
    "nvtx": _lib("nvtx", target = "headers", doc = "NVTX 3 (headers; nvtx3/nvToolsExt.h)"),
    "cublas": _lib("cublas", shared = ["libcublas.so*", "libcublasLt.so*"]),
    "cublasLt": _lib("cublas", shared = ["libcublasLt.so*"]),
    "cublas_headers": _lib("cublas", target = "headers", doc = "cuBLAS and cuBLASLt headers only, for code that loads the library at run time (dlopen)"),
    "cublas_static": _lib("cublas", static = ["libcublas_static.a", "libcublasLt_static.a"], deps = ["culibos"]),
    "cublasLt_static": _lib("cublas", static = ["libcublasLt_static.a"], deps = ["culibos"]),
    "nvblas": _lib("cublas", shared = ["libnvblas.so*"], deps = ["cublas"], doc = "NVBLAS: BLAS calls offloaded to cuBLAS"),
    "cufft": _lib("cufft", shared = ["libcufft.so*"]),
    "cufftw": _lib("cufft", shared = ["libcufftw.so*", "libcufft.so*"]),
    # Its kernels are relocatable device code (callbacks link into them): it needs a device link.
    "cufft_static": _lib("cufft", static = ["libcufft_static.a"], deps = ["culibos"], device_link = True),
    # cuRAND of CUDA 13.5 (10.4.5) NEEDs libcudart.so.13 (13.2's did not): the shared runtime sits
    # beside it, found through its $ORIGIN run path when programs are linked and run.
    "curand": _lib("curand", shared = ["libcurand.so*"], deps = ["cudart_shared"]),
    "curand_static": _lib("curand", static = ["libcurand_static.a"], deps = ["culibos"]),
    "cusparse": _lib("cusparse", shared = ["libcusparse.so*"], deps = ["nvjitlink"]),
    "cusparse_static": _lib("cusparse", static = ["libcusparse_static.a"], deps = ["nvjitlink_static", "culibos"]),
    "cusolver": _lib("cusolver", shared = ["libcusolver.so*"], deps = ["cublas", "cusparse", "nvjitlink"]),
    "cusolverMg": _lib("cusolver", shared = ["libcusolverMg.so*"], deps = ["cublas", "cusparse", "nvjitlink"], doc = "cuSOLVER on several GPUs"),
    "cusolver_static": _lib("cusolver", static = ["libcusolver_static.a"], deps = ["cublas_static", "cusparse_static", "culibos"]),
    # libnvrtc.so opens its builtins itself (by their soname, which names the minor release): they
    # are placed beside it, never linked.
    "nvrtc": _lib("nvrtc", shared = ["libnvrtc.so*"], runtime = ["libnvrtc-builtins.so*"]),
    "nvrtc_static": _lib("nvrtc", static = ["libnvrtc_static.a", "libnvrtc-builtins_static.a"], optional = ["libnvptxcompiler_static.a"], linkopts = _STATIC_SYSTEM),
    "nvjitlink": _lib("nvjitlink", shared = ["libnvJitLink.so*"]),
    "nvjitlink_static": _lib("nvjitlink", static = ["libnvJitLink_static.a"], linkopts = _STATIC_SYSTEM),
    "nvptxcompiler_static": _lib("nvptxcompiler", static = ["libnvptxcompiler_static.a"], linkopts = _STATIC_SYSTEM, doc = "PTX to SASS in process (nvPTXCompiler.h)"),
    "nvvm": _lib("nvcc", shared = ["libnvvm.so*"], doc = "libNVVM: NVVM IR to PTX (nvvm.h)"),
    "nvfatbin": _lib("nvfatbin", shared = ["libnvfatbin.so*"], doc = "fatbins built at run time (nvFatbin.h)"),
    "nvfatbin_static": _lib("nvfatbin", static = ["libnvfatbin_static.a"], linkopts = _STATIC_SYSTEM),
    "nvml": _lib("nvml", doc = "NVML (nvml.h) and a link stub for the driver's libnvidia-ml.so.1"),
    "cupti": _lib("cupti", shared = ["libcupti.so*"], doc = "CUDA Profiling Tools Interface"),
    "cupti_checkpoint": _lib("cupti", shared = ["libcheckpoint.so*"], deps = ["cupti"], doc = "CUPTI checkpoint API (cupti_checkpoint.h)"),
    "pcsamplingutil": _lib("cupti", shared = ["libpcsamplingutil.so*"], deps = ["cupti"], doc = "CUPTI PC sampling utilities (cupti_pcsampling_util.h)"),
    "nvperf_host": _lib("cupti", shared = ["libnvperf_host.so*"], doc = "Perfworks host API (nvperf_host.h)"),
    "nvperf_target": _lib("cupti", shared = ["libnvperf_target.so*"], doc = "Perfworks target API (nvperf_target.h)"),
    "sanitizer": _lib("sanitizer", shared = ["libsanitizer-public.so*"], doc = "Compute Sanitizer API (sanitizer.h)"),
    "opencl": _lib("opencl", shared = ["libOpenCL.so*"], doc = "OpenCL ICD loader and headers (CL/cl.h)"),
    "cufile": _lib("cufile", shared = ["libcufile.so*"], doc = "GPUDirect Storage (cufile.h)"),
    "cufile_rdma": _lib("cufile", shared = ["libcufile_rdma.so*"], deps = ["cufile"]),
    "nvjpeg": _lib("nvjpeg", shared = ["libnvjpeg.so*"], doc = "JPEG codec (nvjpeg.h)"),
    "nvjpeg_static": _lib("nvjpeg", static = ["libnvjpeg_static.a"], deps = ["culibos"], linkopts = _STATIC_SYSTEM),
    "npp": _lib("npp", shared = ["libnppc.so*", "libnppial.so*", "libnppicc.so*", "libnppidei.so*", "libnppif.so*", "libnppig.so*", "libnppim.so*", "libnppist.so*", "libnppisu.so*", "libnppitc.so*", "libnpps.so*"], doc = "every NPP library (npp.h); each linked only if called"),
    # NPP one library at a time: the core (nppc), image (nppi*) and signal (npps) parts.
    "nppc": _lib("npp", shared = ["libnppc.so*"]),
    "nppial": _lib("npp", shared = ["libnppial.so*"], deps = ["nppc"]),
    "nppicc": _lib("npp", shared = ["libnppicc.so*"], deps = ["nppc"]),
    "nppidei": _lib("npp", shared = ["libnppidei.so*"], deps = ["nppc"]),
    "nppif": _lib("npp", shared = ["libnppif.so*"], deps = ["nppc"]),
    "nppig": _lib("npp", shared = ["libnppig.so*"], deps = ["nppc"]),
    "nppim": _lib("npp", shared = ["libnppim.so*"], deps = ["nppc"]),
    "nppist": _lib("npp", shared = ["libnppist.so*"], deps = ["nppc"]),
    "nppisu": _lib("npp", shared = ["libnppisu.so*"], deps = ["nppc"]),
    "nppitc": _lib("npp", shared = ["libnppitc.so*"], deps = ["nppc"]),
    "npps": _lib("npp", shared = ["libnpps.so*"], deps = ["nppc"]),
    "cudnn": _lib("cudnn", shared = ["libcudnn*.so*"]),
    "nccl": _lib("nccl", shared = ["libnccl.so*"]),
    "nccl_headers": _lib("nccl", target = "headers", doc = "NCCL headers only, for code that loads the library at run time (dlopen)"),
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
    return [p for p in lib.shared + lib.static + lib.runtime if not native.glob(["lib/" + p], exclude = ["lib/*.alt.so*"], allow_empty = True)]

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
                    ", ".join(lib.shared + lib.static + lib.runtime),
                    toolkit,
                    _advice(name, lib),
                ),
                visibility = ["//visibility:public"],
            )
            continue

        # A dependency in this repository that the toolkit lacks is left out: CUDA 11's cuSOLVER
        # needs no nvJitLink, and a local CUDA 11 has none.
        local_deps = [":" + d for d in lib.deps if d not in dep_labels and not _missing_files(LIBRARIES[d])]
        deps = {d: True for d in [headers, cuda_headers] + [dep_labels[d] for d in lib.deps if d in dep_labels] + local_deps}.keys()
        if lib.shared:
            cuda_shared_library(
                name = name,
                libs = _glob(lib.shared),
                runtime = _glob(lib.runtime),
                linkopts = lib.linkopts,
                deps = deps,
                visibility = ["//visibility:public"],
            )
            continue
        files = _glob(lib.static + lib.optional)
        cc_library(
            name = name + "_host" if lib.device_link else name,
            srcs = files,
            linkopts = lib.linkopts,
            deps = deps,
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

def _glob(patterns):
    return native.glob(["lib/" + p for p in patterns], exclude = ["lib/*.alt.so*"], allow_empty = True)

def _headers(name):
    cccl = native.glob(["include/cccl/**"], allow_empty = True)
    cc_library(
        name = name,
        hdrs = native.glob(["include/**"], allow_empty = True),
        # CUDA 13 keeps Thrust/CUB/libcu++ under include/cccl, as nvcc's own profile does.
        includes = (["include/cccl"] if cccl else []) + ["include"],
        visibility = ["//visibility:public"],
    )

def link_stub(name, library, soname, source, toolkit, headers, has_stub, missing):
    """Declares the link stub of a library the driver installs, or a missing-library target.

    The stub (built from a source generated from the library's header) is linked as needed by its
    file name, `library` (libcuda.so), and records `soname` (libcuda.so.1): programs load the
    driver's library at run time, and never find the stub, which has another name.

    Args:
      name: the target name.
      library: the stub's file name (libcuda.so).
      soname: the soname programs record (libcuda.so.1).
      source: the generated C file (stub/cuda_stub.c).
      toolkit: the toolkit, for messages.
      headers: label of the headers that declare the library's API.
      has_stub: whether source was generated.
      missing: what the message says is missing when it was not.
    """
    if not has_stub:
        cuda_missing_library(
            name = name,
            message = "the link stub of %s needs %s, which %s lacks." % (soname, missing, toolkit),
            visibility = ["//visibility:public"],
        )
        return
    cc_binary(
        name = library,
        srcs = [source],
        linkshared = True,
        linkopts = ["-Wl,-soname," + soname],
        visibility = ["//visibility:private"],
    )
    cuda_shared_library(
        name = name,
        stubs = [":" + library],
        deps = [headers],
        visibility = ["//visibility:public"],
    )

def cuda_driver_stub(name, toolkit, cuda_headers, has_stub):
    """Declares the libcuda link stub and NAME_lazy, the driver API loaded on first use.

    The stub is built from stub/cuda_stub.c, NAME_lazy from stub/cuda_lazy.c and .S; without them
    both are missing-library targets.

    Args:
      name: the target name.
      toolkit: the toolkit, for messages.
      cuda_headers: label of the headers that declare the driver API (cuda.h).
      has_stub: whether stub/cuda_stub.c was generated.
    """
    link_stub(name, "libcuda.so", "libcuda.so.1", "stub/cuda_stub.c", toolkit, cuda_headers, has_stub, "cuda.h")

    # The driver API loaded on first use (driver_stub.bzl's write_driver_lazy): nothing NEEDs
    # libcuda.so.1, and without a driver the calls return CUDA_ERROR_NO_DEVICE.
    if not has_stub:
        cuda_missing_library(
            name = name + "_lazy",
            message = "the lazily loaded driver API needs cuda.h, which %s lacks." % toolkit,
            visibility = ["//visibility:public"],
        )
        return
    cc_library(
        name = name + "_lazy",
        srcs = ["stub/cuda_lazy.c", "stub/cuda_lazy.S"],
        linkopts = ["-ldl", "-lpthread"],
        deps = [cuda_headers],
        visibility = ["//visibility:public"],
    )

def cuda_nvml_stub(name, toolkit, headers, has_stub):
    """Declares @cuda//:nvml: nvml.h and the libnvidia-ml link stub, or a missing-library target.

    Args:
      name: the target name.
      toolkit: the toolkit, for messages.
      headers: label of the headers with nvml.h.
      has_stub: whether stub/nvml_stub.c was generated.
    """
    link_stub(name, "libnvidia-ml.so", "libnvidia-ml.so.1", "stub/nvml_stub.c", toolkit, headers, has_stub, "nvml.h")

# Tools of a component: target name -> (the program's paths, first found wins; data globs).
_COMPONENT_TOOLS = {
    "cuobjdump": {"cuobjdump": (["bin/cuobjdump"], [])},
    "nvdisasm": {"nvdisasm": (["bin/nvdisasm"], [])},
    "tileiras": {"tileiras": (["bin/tileiras"], [])},
    # The wheel has bin/compute-sanitizer, NVIDIA's redist archive compute-sanitizer/; it loads the
    # libraries beside it.
    "sanitizer": {"compute_sanitizer": (
        ["bin/compute-sanitizer", "compute-sanitizer/compute-sanitizer"],
        ["bin/**", "compute-sanitizer/**", "lib/**"],
    )},
}

def _tool(name, paths, data):
    found = [p for p in paths if native.glob([p], allow_empty = True)]
    native.filegroup(
        name = name,
        srcs = found[:1],
        data = native.glob(data, allow_empty = True) if found else [],
    )

# buildifier: disable=unnamed-macro
# The whole BUILD file of a component repository.
def cuda_component_targets(component, toolkit, crt = "", cccl = "", cuda_headers = "", dep_labels = {}, driver_stub = False, nvml_stub = False):
    """The BUILD file of a downloaded component repository (see cuda_component.bzl).

    Args:
      component: nvcc, crt, cudart, cccl, a tool (cuobjdump, nvdisasm, ...), or a library
        component (cublas, ...).
      toolkit: the toolkit, for messages.
      crt: label of the crt headers (used by cudart's cuda_headers).
      cccl: label of the CCCL headers (used by cudart's cuda_headers: CUDA 13's cuda_fp16.h includes
        <nv/target>, so host code that includes a library's headers needs them too).
      cuda_headers: label of the CUDA runtime headers.
      dep_labels: name -> label for dependencies in other components.
      driver_stub: whether stub/cuda_stub.c was generated (cudart only).
      nvml_stub: whether stub/nvml_stub.c was generated (nvml only).
    """
    for name, (paths, data) in _COMPONENT_TOOLS.get(component, {}).items():
        _tool(name, paths, data)
    if component in ["cuobjdump", "nvdisasm", "tileiras"]:
        return
    _headers("headers")
    if component == "nvcc":
        native.filegroup(name = "nvcc", srcs = ["bin/nvcc"])
        native.filegroup(
            name = "compiler_files",
            srcs = native.glob(["bin/**", "nvvm/**", "lib/**", "include/**"], allow_empty = True),
        )
    if component == "cudart":
        cc_library(name = "cuda_headers", deps = [":headers"] + [h for h in [crt, cccl] if h])

        # cuda.h is in this component's own headers; the stub needs nothing else.
        cuda_driver_stub("cuda_driver", toolkit, ":headers", driver_stub)
        cuda_headers = ":cuda_headers"
    if component == "nvml":
        cuda_nvml_stub("nvml", toolkit, ":headers", nvml_stub)
        return
    if component in ["crt", "cccl", "nvtx"]:
        return
    cuda_library_targets(component, toolkit, ":headers", cuda_headers, dep_labels)
