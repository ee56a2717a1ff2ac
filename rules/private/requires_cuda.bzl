"""requires_cuda(): target_compatible_with for targets that need a CUDA build."""

def requires_cuda():
    """Marks a target as needing CUDA: incompatible under --config=cpu, so `//...` skips it.

    Use as `target_compatible_with = requires_cuda()` on anything that links kernels or the CUDA
    driver without a CPU stub (a cc_binary over a cu_library, a test that launches kernels).
    go_cuda_library applies it itself when its cu_deps are a plain list.

    Returns:
      A select() that is [@platforms//:incompatible] when
      --@rules_cuda_go//toolchains:build_cuda=false, else [].
    """
    return select({
        Label("//toolchains:cuda_disabled"): [Label("@platforms//:incompatible")],
        "//conditions:default": [],
    })
