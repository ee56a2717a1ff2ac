"""cu_binary: a program from CUDA (.cu) and host sources in one target."""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load(":cu_program.bzl", "cu_program")

def cu_binary(name, **kwargs):
    """A program from .cu (and .cc/.cpp/.c) sources: what `nvcc -o NAME a.cu b.cu` builds.

    The sources compile in a cu_library named `_NAME_cu` with alwayslink = True, so that every one
    of them is linked, also those that nothing refers to by name (a main() in a .cu file, a global
    whose constructor registers something); a cc_binary NAME links it. Under --config=cpu the
    program is incompatible (`//...` skips it): without CUDA its sources compile to nothing.

    Args:
      name: the program's name.
      **kwargs: cu_library's compile attributes (srcs, deps, implementation_deps, copts, host_copts,
        defines, local_defines, includes, textual_hdrs, additional_compiler_inputs, archs, rdc,
        host_srcs_as_cuda) go to the library; everything else (linkopts, data, args, env,
        linkstatic, malloc, stamp, visibility, ...) to cc_binary, as cc_binary takes it.
    """
    cu_program(cc_binary, name, kwargs)
