"""Module extension `cuda`: creates @local_cuda (the CUDA toolkit and GPUs found on this machine)."""

load("//toolchains:local_cuda.bzl", "local_cuda")

def _cuda_impl(_mctx):
    local_cuda(name = "local_cuda")

cuda = module_extension(
    implementation = _cuda_impl,
    doc = "Configures the local CUDA toolkit. rules_cuda_go registers its toolchain itself.",
)
