"""What cu_binary and cu_test share: a cu_library of the sources with alwayslink, under a cc rule."""

load(":cu_library.bzl", "cu_library")
load(":requires_cuda.bzl", "requires_cuda")

# cu_library's attributes that belong to the compile; the rest are the program's.
_LIBRARY_ATTRS = [
    "srcs",
    "deps",
    "implementation_deps",
    "copts",
    "host_copts",
    "defines",
    "local_defines",
    "includes",
    "textual_hdrs",
    "additional_compiler_inputs",
    "archs",
    "rdc",
    "host_srcs_as_cuda",
]

# Attributes common to all rules that apply to the library as to the program.
_SHARED_ATTRS = ["tags", "testonly", "features", "compatible_with", "restricted_to", "exec_compatible_with"]

def cu_program(rule, name, kwargs, testonly = False):
    """Declares the cu_library `_NAME_cu` of a program's sources and the program `rule` over it.

    Args:
      rule: cc_binary or cc_test.
      name: the program's name.
      kwargs: the macro's keyword arguments (see cu_binary).
      testonly: whether the library is testonly whatever kwargs say (a test's).
    """
    library = {k: kwargs.pop(k) for k in _LIBRARY_ATTRS if k in kwargs}
    shared = {k: kwargs[k] for k in _SHARED_ATTRS if k in kwargs}
    if testonly:
        shared["testonly"] = True
    compatible = kwargs.pop("target_compatible_with", [])
    lib = "_%s_cu" % name
    cu_library(
        name = lib,
        alwayslink = True,
        target_compatible_with = compatible,
        visibility = ["//visibility:private"],
        **(library | shared)
    )
    rule(
        name = name,
        deps = [":" + lib],
        target_compatible_with = compatible + requires_cuda(),
        **kwargs
    )
