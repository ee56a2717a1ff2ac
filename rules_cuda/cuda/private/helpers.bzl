"""rules_cuda's helper functions: requires_cuda, if_linux, if_windows, and the names rules_cuda_go does not provide."""

load("@rules_cuda_go//rules:extend.bzl", _requires_cuda = "requires_cuda")

def requires_cuda():
    """target_compatible_with for targets that need CUDA: incompatible under --@rules_cuda//cuda:enable=False.

    Returns:
      A select() (rules_cuda_go's requires_cuda: --@rules_cuda//cuda:enable is its build_cuda flag).
    """
    return _requires_cuda()

def if_linux(if_true, if_false = []):
    """if_true on Linux targets, else if_false.

    Args:
      if_true: the value on Linux.
      if_false: the value elsewhere.

    Returns:
      A select().
    """
    return select({
        Label("@platforms//os:linux"): if_true,
        "//conditions:default": if_false,
    })

def if_windows(if_true, if_false = []):
    """if_true on Windows targets, else if_false (rules_cuda_go builds for Linux only).

    Args:
      if_true: the value on Windows.
      if_false: the value elsewhere.

    Returns:
      A select().
    """
    return select({
        Label("@platforms//os:windows"): if_true,
        "//conditions:default": if_false,
    })

def unsupported(name, instead):
    """A stand-in for a rules_cuda symbol that has no counterpart: calling it fails with what to write instead.

    Args:
      name: the symbol.
      instead: what to write instead.

    Returns:
      A function that fails when called.
    """

    def _fail(*_args, **_kwargs):
        fail("@rules_cuda//cuda:defs.bzl %s: rules_cuda_go's rules_cuda module does not provide it; %s" % (name, instead))

    return _fail
