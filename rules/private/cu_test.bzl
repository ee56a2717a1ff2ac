"""cu_test: a test program from CUDA (.cu) and host sources in one target."""

load("@rules_cc//cc:defs.bzl", "cc_test")
load(":cu_program.bzl", "cu_program")

def cu_test(name, **kwargs):
    """A test program from .cu (and .cc/.cpp/.c) sources; it passes when it exits with 0.

    As cu_binary: the sources compile in a cu_library named `_NAME_cu` (alwayslink = True,
    testonly), which a cc_test NAME links. Under --config=cpu the test is incompatible (`bazel test
    //...` skips it). A test that needs a GPU should pass, or skip, where there is none.

    Args:
      name: the test's name.
      **kwargs: cu_library's compile attributes (srcs, deps, implementation_deps, copts, host_copts,
        defines, local_defines, includes, textual_hdrs, additional_compiler_inputs, archs, rdc,
        host_srcs_as_cuda) go to the library; everything else (size, timeout, args, data, env,
        linkopts, tags, ...) to cc_test, as cc_test takes it.
    """
    cu_program(cc_test, name, kwargs, testonly = True)
