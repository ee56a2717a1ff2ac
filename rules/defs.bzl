"""Public API of rules_cuda_go: load("@rules_cuda_go//rules:defs.bzl", "cu_library", "cu_binary", "cu_test", "cu_device_link", "cu_device_image", "go_cuda_library", "requires_cuda").

glibc_check is an aspect, for .bazelrc: build --aspects=@rules_cuda_go//rules:defs.bzl%glibc_check

cc_binary is rules_cc's, for the binaries that Gazelle writes in a module without a rules_cc
bazel_dep (a module sees only its own bazel_deps' repositories).
"""

load("@rules_cc//cc:defs.bzl", _cc_binary = "cc_binary")
load("//common:providers.bzl", _CuInfo = "CuInfo", _CudaToolchainInfo = "CudaToolchainInfo")
load("//rules/private:cu_binary.bzl", _cu_binary = "cu_binary")
load("//rules/private:cu_device_image.bzl", _cu_device_image = "cu_device_image")
load("//rules/private:cu_device_link.bzl", _cu_device_link = "cu_device_link")
load("//rules/private:cu_library.bzl", _cu_library = "cu_library")
load("//rules/private:cu_test.bzl", _cu_test = "cu_test")
load("//rules/private:go_cuda_library.bzl", _go_cuda_library = "go_cuda_library")
load("//rules/private:requires_cuda.bzl", _requires_cuda = "requires_cuda")
load("//toolchains/sysroot:glibc_check.bzl", _glibc_check = "glibc_check")

cc_binary = _cc_binary
cu_library = _cu_library
cu_binary = _cu_binary
cu_test = _cu_test
cu_device_link = _cu_device_link
cu_device_image = _cu_device_image
go_cuda_library = _go_cuda_library
requires_cuda = _requires_cuda
glibc_check = _glibc_check
CuInfo = _CuInfo
CudaToolchainInfo = _CudaToolchainInfo
