"""rules_cuda's public API (bazel-contrib/rules_cuda's @rules_cuda//cuda:defs.bzl) on rules_cuda_go.

    load("@rules_cuda//cuda:defs.bzl", "cuda_library", "cuda_objects", "cuda_binary", "cuda_test", "requires_cuda")

docs/rules-cuda-migration.md in rules_cuda_go says what maps one to one, what differs and what fails.
"""

load("//cuda/private:cuda_library.bzl", _cuda_library = "cuda_library", _cuda_objects = "cuda_objects")
load("//cuda/private:flags.bzl", _CudaArchsInfo = "CudaArchsInfo")
load("//cuda/private:helpers.bzl", _if_linux = "if_linux", _if_windows = "if_windows", _requires_cuda = "requires_cuda", _unsupported = "unsupported")
load("//cuda/private:macros.bzl", _cuda_binary = "cuda_binary", _cuda_test = "cuda_test")

cuda_library = _cuda_library
cuda_objects = _cuda_objects
cuda_binary = _cuda_binary
cuda_test = _cuda_test
requires_cuda = _requires_cuda
if_linux = _if_linux
if_windows = _if_windows
CudaArchsInfo = _CudaArchsInfo

# The arch numbers rules_cuda's arch syntax names (sm_N, compute_N); which of them a build can use
# is what the selected toolkit's nvcc supports (checked at analysis).
cuda_archs = [
    "50",
    "52",
    "53",
    "60",
    "61",
    "62",
    "70",
    "72",
    "75",
    "80",
    "86",
    "87",
    "88",
    "89",
    "90",
    "90a",
    "100",
    "100a",
    "100f",
    "103",
    "103a",
    "103f",
    "110",
    "110a",
    "110f",
    "120",
    "120a",
    "120f",
    "121",
    "121a",
    "121f",
]

# rules_cuda's toolchain-authoring API: rules_cuda_go's toolchains come from its toolkits.
_TOOLCHAINS = ("rules_cuda_go declares and registers the CUDA toolchains itself (pinned toolkits from NVIDIA's " +
               "wheels, or the local one with --@rules_cuda_go//toolchains:cuda_version=local); rules that need " +
               "nvcc use @rules_cuda_go//toolchains:current_cuda_toolchain ($(NVCC)) or cu_library.")
cuda_toolchain = _unsupported("cuda_toolchain", _TOOLCHAINS)
find_cuda_toolchain = _unsupported("find_cuda_toolchain", _TOOLCHAINS)
use_cuda_toolchain = _unsupported("use_cuda_toolchain", _TOOLCHAINS)
cuda_toolkit_info = _unsupported("cuda_toolkit_info", _TOOLCHAINS)
cuda_toolchain_config_nvcc = _unsupported("cuda_toolchain_config_nvcc", _TOOLCHAINS)
cuda_toolchain_config_clang = _unsupported("cuda_toolchain_config_clang", _TOOLCHAINS)
cuda_toolchain_config_nvcc_msvc = _unsupported("cuda_toolchain_config_nvcc_msvc", _TOOLCHAINS)
cuda_toolchain_config_disabled = _unsupported("cuda_toolchain_config_disabled", _TOOLCHAINS)
cc_import_versioned_sos = _unsupported("cc_import_versioned_sos", "use cc_import for each shared library, or the @cuda//:<library> targets (they carry the CUDA libraries' sonames).")
unsupported_cuda_version = _unsupported("unsupported_cuda_version", "@cuda//:<library> fails by itself, naming the toolkit, where the selected toolkit lacks the library.")
unsupported_cuda_platform = _unsupported("unsupported_cuda_platform", "@cuda//:<library> fails by itself where the target platform has no such library.")
