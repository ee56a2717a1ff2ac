"""go_cuda_library: a go_library whose cgo code calls kernels from cu_library targets."""

load("@io_bazel_rules_go//go:def.bzl", "go_library")
load(":cu_device_link.bzl", "cu_device_link")
load(":requires_cuda.bzl", "requires_cuda")

def go_cuda_library(name, cu_deps = [], cdeps = [], cgo = True, **kwargs):
    """A cgo go_library linked with cu_library targets and the CUDA runtime.

    Under --config=cpu (--@rules_cuda_go//toolchains:build_cuda=false) the cu_library deps compile
    nothing, so when cu_deps is a plain list the target is incompatible and wildcard builds skip it
    (and everything that depends on it). To keep the package under --config=cpu, make cu_deps a
    select() on @rules_cuda_go//toolchains:cuda_disabled that links a CPU stub of the same C API
    there (ops/cuda does): then the target stays compatible.

    Relocatable device code that no cu_library below device-linked yet (rdc parts: cu_library with
    rdc = True, device_link = False) is device-linked once here, by a cu_device_link target named
    NAME_device_link.

    The CUDA runtime comes with every cu_library (static libcudart by default; shared with
    --@rules_cuda_go//toolchains:cudart=shared), as does libstdc++, so no linkopts are needed.

    Args:
      name: the target name.
      cu_deps: cu_library targets the cgo code calls into.
      cdeps: other CcInfo dependencies (cc_library).
      cgo: must be True (accepted so that gazelle, mapping go_library to this macro with
        `# gazelle:map_kind go_library go_cuda_library @rules_cuda_go//rules:defs.bzl`, can keep
        writing `cgo = True`).
      **kwargs: everything go_library takes (srcs, importpath, deps, visibility, ...).
    """
    if not cgo:
        fail("go_cuda_library %s: cgo = False makes no sense; use go_library" % name)
    compatible = kwargs.pop("target_compatible_with", []) + (
        [] if type(cu_deps) == "select" else requires_cuda()
    )

    # The one device link of relocatable device code that reaches the Go package unlinked (rdc
    # parts: cu_library with device_link = False); the deps as they are when there is none.
    cu_device_link(
        name = name + "_device_link",
        deps = cu_deps,
        target_compatible_with = compatible,
        tags = kwargs.get("tags", []),
        testonly = kwargs.get("testonly", False),
        visibility = ["//visibility:private"],
    )
    go_library(
        name = name,
        cgo = True,
        cdeps = [":" + name + "_device_link"] + cdeps,
        target_compatible_with = compatible,
        **kwargs
    )
