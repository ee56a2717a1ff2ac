"""The BUILD file of @local_cuda: the same target names as a pinned toolkit (see local_cuda.bzl)."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//toolchains:cuda_toolchain.bzl", "cuda_toolchain")
load(":components.bzl", "cuda_driver_stub", "cuda_library_targets", "cuda_nvml_stub")

# buildifier: disable=unnamed-macro
# The whole BUILD file of @local_cuda.
def cuda_local_targets(
        toolkit,
        available,
        missing_message,
        version,
        has_include,
        has_stub,
        has_nvml_stub,
        tools,
        **archs):
    """Declares headers, libraries, tools and the toolchain of the local toolkit.

    Args:
      toolkit: the toolkit, for messages.
      available: whether nvcc was found.
      missing_message: why not, where we looked, how to fix it.
      version: nvcc's version.
      has_include: whether include/ links the toolkit's headers (for Debian's /usr/include: the
        entries its CUDA packages own).
      has_stub: whether stub/cuda_stub.c was generated from cuda.h.
      has_nvml_stub: whether stub/nvml_stub.c was generated from nvml.h.
      tools: the programs found and linked as tools/<name> (cuobjdump, compute-sanitizer, ...).
      **archs: arch_* tables and default/native fields for cuda_toolchain.
    """
    cccl = native.glob(["include/cccl/**"], allow_empty = True)
    cc_library(
        name = "cuda_headers",
        hdrs = native.glob(["include/**"], allow_empty = True) if has_include else [],
        # CUDA 13's cuda_fp16.h includes <nv/target>, from CCCL's include/cccl.
        includes = ((["include/cccl"] if cccl else []) + ["include"]) if has_include else [],
    )
    cc_library(name = "nvtx", deps = [":cuda_headers"])
    cc_library(name = "cublas_headers", deps = [":cuda_headers"])
    cc_library(name = "nccl_headers", deps = [":cuda_headers"])
    cc_library(
        name = "cccl",
        # CUDA 13 keeps Thrust/CUB/libcu++ under include/cccl.
        includes = ["include/cccl"] if cccl else [],
        deps = [":cuda_headers"],
    )
    cuda_driver_stub("cuda_driver", toolkit, ":cuda_headers", has_stub)
    cuda_nvml_stub("nvml", toolkit, ":cuda_headers", has_nvml_stub)
    cuda_library_targets("*", toolkit, ":cuda_headers", ":cuda_headers")

    native.filegroup(name = "nvcc", srcs = native.glob(["bin/nvcc"], allow_empty = True))
    native.filegroup(
        name = "compiler_files",
        srcs = native.glob(["bin/**", "nvvm/**", "lib64/**", "targets/**", "libdevice/**"], allow_empty = True),
    )
    for tool in ["cuobjdump", "nvdisasm", "compute-sanitizer", "tileiras"]:
        native.filegroup(name = tool.replace("-", "_"), srcs = ["tools/" + tool] if tool in tools else [])
    cuda_toolchain(
        name = "toolchain",
        nvcc = ":bin/nvcc" if available else None,
        # A gcc next to nvcc is the one the toolkit's nvcc.profile puts first on PATH: Debian's
        # nvidia-cuda-toolkit binds its nvcc to a gcc version it supports this way.
        host_compiler = ":bin/gcc" if native.glob(["bin/gcc"], allow_empty = True) else None,
        compiler_files = [":compiler_files"],
        headers = [":cuda_headers", ":cccl"],
        cudart_static = ":toolchain_cudart_static",
        cudart_shared = ":toolchain_cudart_shared",
        cudadevrt = ":toolchain_cudadevrt",
        missing_message = missing_message,
        toolkit = toolkit,
        version = version,
        **archs
    )
