"""The host compiler nvcc uses: the C++ toolchain's (or one the CUDA toolkit is bound to), with the
flags that matter for ABI and an explicit, minimal action environment."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load("@rules_cc//cc:action_names.bzl", "ACTION_NAMES")
load("@rules_cc//cc/common:cc_common.bzl", "cc_common")

# Host-compiler flags of the C++ toolchain (and the user's --copt/--cxxopt) that change what host
# code links against or how it is laid out; the rest (warnings, -O, -g, defines) stay the C++
# toolchain's business. A flag is kept when it equals, or starts with, one of these. Include
# directories are not among them: under --sysroot, the host compiler (the C++ toolchain's, or one
# the toolkit is bound to, of another GCC version) finds its own C++ headers and the sysroot's C
# headers itself, which is what the glibc baseline's toolchain (toolchains/sysroot) spells out.
ABI_FLAG_PREFIXES = [
    "--sysroot",
    "-isysroot",
    "--gcc-toolchain",
    "--target=",
    "-stdlib=",
    "-D_GLIBCXX_USE_CXX11_ABI",
    "-m",
    "-B",
]

# Flags whose value is the next argument.
_ABI_FLAGS_WITH_VALUE = ["-target", "-isysroot", "-B"]

# Every nvcc action runs with exactly this environment (plus what the C++ toolchain sets), never the
# user's shell environment: the host compiler finds its assembler on PATH, and PWD makes the
# compilation directory recorded in debug info and device line tables /proc/self/cwd (as Bazel's
# own C++ actions do) instead of the sandbox or checkout path.
BASE_ENV = {
    "PATH": "/usr/bin:/bin",
    "PWD": "/proc/self/cwd",
}

def abi_flags(command_line):
    """The ABI-relevant flags of a C++ compile command line, in order.

    Args:
      command_line: list of strings, the C++ toolchain's c++-compile flags.

    Returns:
      list of strings.
    """
    out = []
    take_next = False
    for flag in command_line:
        if take_next:
            out.append(flag)
            take_next = False
        elif flag in _ABI_FLAGS_WITH_VALUE:
            out.append(flag)
            take_next = True
        elif flag.startswith("-M"):
            continue
        elif [p for p in ABI_FLAG_PREFIXES if flag.startswith(p)]:
            out.append(flag)
    return out

def host_compiler_flags(host):
    """-ccbin and the ABI flags, as nvcc arguments.

    Args:
      host: a host_compiler() struct.

    Returns:
      list of strings.
    """
    out = ["-ccbin", host.path]
    for f in host.flags:
        out.extend(["-Xcompiler", f])
    return out

def host_compiler(ctx, cuda):
    """What nvcc needs to run the host compiler hermetically.

    Args:
      ctx: the rule context (with the C++ toolchain, features and the cpp fragment's --copt/--cxxopt).
      cuda: CudaToolchainInfo.

    Returns:
      struct(path = the -ccbin argument, files = depset of Files the host compiler reads,
      flags = ABI flags for -Xcompiler, env = the action environment, cc_toolchain and
      feature_configuration = the C++ toolchain and its configured features, for linking).
    """
    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    variables = cc_common.create_compile_variables(
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        user_compile_flags = ctx.fragments.cpp.copts + ctx.fragments.cpp.cxxopts,
    )
    command_line = cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_compile,
        variables = variables,
    )
    env = dict(BASE_ENV)
    env.update(cc_common.get_environment_variables(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_compile,
        variables = variables,
    ))
    env["PWD"] = BASE_ENV["PWD"]
    if cuda.host_compiler:
        # A toolkit bound to its own compiler (Debian's nvcc 11.8 ships bin/gcc, which picks a gcc
        # that nvcc supports): the C++ toolchain's may be too new for it.
        path = cuda.host_compiler.path
        files = depset([cuda.host_compiler], transitive = [cc_toolchain.all_files])
    else:
        path = cc_common.get_tool_for_action(
            feature_configuration = feature_configuration,
            action_name = ACTION_NAMES.cpp_compile,
        )
        files = cc_toolchain.all_files
    return struct(
        path = path,
        files = files,
        flags = abi_flags(command_line),
        env = env,
        cc_toolchain = cc_toolchain,
        feature_configuration = feature_configuration,
    )
