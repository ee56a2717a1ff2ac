"""cuda_binary and cuda_test: a cuda_library of the sources under a cc_binary or cc_test, as rules_cuda's."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load(":cuda_library.bzl", "cuda_library")

# What the library takes; everything else goes to the program.
_LIBRARY_ONLY = ["srcs", "hdrs", "deps", "rdc", "ptxasopts", "archs", "alwayslink", "textual_hdrs", "implementation_deps", "additional_compiler_inputs", "host_srcs_as_cuda"]

# Device-side attributes: the library's only (the program's own copts, defines, local_defines and
# linkopts are the host_ ones).
_DEVICE = ["copts", "defines", "local_defines", "linkopts", "includes"]

# host_X -> the program's X.
_HOST_RENAMES = {
    "host_copts": "copts",
    "host_defines": "defines",
    "host_local_defines": "local_defines",
    "host_linkopts": "linkopts",
}

# The program's only (cc_binary's and cc_test's attributes that a library does not take).
_PROGRAM_ONLY = [
    "args",
    "env",
    "env_inherit",
    "output_licenses",
    "size",
    "timeout",
    "flaky",
    "shard_count",
    "local",
    "data",
    "linkstatic",
    "malloc",
    "stamp",
    "link_extra_lib",
    "dynamic_deps",
    "win_def_file",
    "additional_linker_inputs",
    "reexport_deps",
]

def _program(rule, name, attrs, testonly):
    lib = {k: v for k, v in attrs.items() if k not in _PROGRAM_ONLY and k != "visibility"}
    lib.setdefault("alwayslink", True)
    if testonly:
        lib["testonly"] = True
    if "host_linkopts" in lib:
        lib.pop("host_linkopts")
    library = "_" + name
    cuda_library(name = library, visibility = ["//visibility:private"], **lib)

    prog = {k: v for k, v in attrs.items() if k not in _LIBRARY_ONLY and k not in _DEVICE and not k.startswith("host_")}
    for src, dst in _HOST_RENAMES.items():
        if src in attrs:
            prog[dst] = attrs[src]
    rule(name = name, deps = [":" + library], **prog)

def cuda_binary(name, **attrs):
    """A program from CUDA sources: cuda_library `_NAME` (alwayslink) under cc_binary NAME.

    Args:
      name: the program's name.
      **attrs: cuda_library's attributes (srcs, hdrs, deps, copts, defines, ...) go to the library;
        host_copts, host_defines, host_local_defines and host_linkopts become the program's copts,
        defines, local_defines and linkopts (and host_copts/host_defines also the library's); the
        rest (args, env, data, linkstatic, visibility, ...) is cc_binary's.
    """
    _program(cc_binary, name, attrs, testonly = False)

def cuda_test(name, **attrs):
    """A test from CUDA sources: cuda_library `_NAME` (alwayslink, testonly) under cc_test NAME.

    Args:
      name: the test's name.
      **attrs: as cuda_binary's; size, timeout, flaky, shard_count, local, data, env_inherit are cc_test's.
    """
    _program(cc_test, name, attrs, testonly = True)
