"""For rules built on cu_library in other modules (this repository's rules_cuda module): its
implementation and attributes, and what every CUDA rule starts with (rules/private/toolchain.bzl).

    load("@rules_cuda_go//rules:extend.bzl", "CU_LIBRARY_ATTRS", "CUDA_TOOLCHAINS", "CuInfo", "cu_library_impl")

It loads nothing from rules_go, so a WORKSPACE that declares no rules_go can load it.

A rule with CU_LIBRARY_ATTRS (or a superset), CUDA_TOOLCHAINS, fragments = ["cpp"] and an
implementation that returns cu_library_impl(ctx, kind = "its name", gencode = ..., copts = ...) builds
as cu_library, with the overridden values. Not a stable API: it changes with cu_library.
"""

load("//common:providers.bzl", _CuInfo = "CuInfo")
load("//rules/private:cu_library.bzl", _CU_LIBRARY_ATTRS = "CU_LIBRARY_ATTRS", _cu_library_impl = "cu_library_impl")
load("//rules/private:requires_cuda.bzl", _requires_cuda = "requires_cuda")
load("//rules/private:toolchain.bzl", _CUDA_TOOLCHAINS = "CUDA_TOOLCHAINS", _build_cuda = "build_cuda", _find_cuda = "find_cuda")

CU_LIBRARY_ATTRS = _CU_LIBRARY_ATTRS
CuInfo = _CuInfo
CUDA_TOOLCHAINS = _CUDA_TOOLCHAINS
cu_library_impl = _cu_library_impl
build_cuda = _build_cuda
find_cuda = _find_cuda

# defs.bzl's, without defs.bzl's load of rules_go (a WORKSPACE without rules_go can load this file).
requires_cuda = _requires_cuda
