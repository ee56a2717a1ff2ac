"""Analysis tests of linux-aarch64 builds (docs/platforms.md): what @cuda and the toolchains pick.

Each test analyses its target for --platforms=//platforms:linux_aarch64, whatever the build's own
platform: the @cuda library targets and the CUDA toolchain's runtime come from the aarch64
(sbsa) components, programs that run during the build stay the build machine's, a library
NVIDIA ships no aarch64 wheel of fails naming it, Thor's arch (11.0, sbsa since CUDA 13) builds and
the Jetson-only archs (Orin's 8.7, ...) fail saying why.
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

_AARCH64 = {"//command_line_option:platforms": str(Label("//platforms:linux_aarch64")), str(Label("//toolchains:cuda_compiler")): "nvcc"}

# cu_library resolves its archs only where CUDA is built (also under --config=cpu).
_AARCH64_NVCC = _AARCH64 | {str(Label("//toolchains:build_cuda")): True}

def _library_files(target):
    paths = []
    for li in target[CcInfo].linking_context.linker_inputs.to_list():
        for lib in li.libraries:
            for f in [lib.static_library, lib.pic_static_library, lib.dynamic_library]:
                if f:
                    paths.append(f.path)
    return paths

def _aarch64_library_test_impl(ctx):
    env = analysistest.begin(ctx)
    paths = _library_files(analysistest.target_under_test(env))
    asserts.true(env, len(paths) > 0, "no library files")
    for p in paths:
        asserts.true(env, "_aarch64/" in p, "%s is not from an aarch64 component repository" % p)
    return analysistest.end(env)

aarch64_library_test = analysistest.make(
    _aarch64_library_test_impl,
    config_settings = _AARCH64,
    doc = "The @cuda library under test links files of @cuda_<v>_<component>_aarch64 only.",
)

def _aarch64_failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    for m in ctx.attr.messages:
        asserts.expect_failure(env, m)
    return analysistest.end(env)

aarch64_failure_test = analysistest.make(
    _aarch64_failure_test_impl,
    expect_failure = True,
    config_settings = _AARCH64,
    attrs = {"messages": attr.string_list(mandatory = True)},
    doc = "The target under test fails to analyse for linux-aarch64 with every message.",
)

aarch64_cu_failure_test = analysistest.make(
    _aarch64_failure_test_impl,
    expect_failure = True,
    config_settings = _AARCH64_NVCC,
    attrs = {"messages": attr.string_list(mandatory = True)},
    doc = "The cu_library under test, built with nvcc, fails to analyse for linux-aarch64 with every message.",
)

def _exec_tool_test_impl(ctx):
    env = analysistest.begin(ctx)
    files = analysistest.target_under_test(env)[DefaultInfo].files.to_list()
    asserts.true(env, len(files) > 0, "no files")
    for f in files:
        asserts.false(env, "_aarch64" in f.path, "%s: a program of the build machine came from an aarch64 repository" % f.path)
    return analysistest.end(env)

exec_tool_test = analysistest.make(
    _exec_tool_test_impl,
    config_settings = _AARCH64,
    doc = "A tool of the @cuda hub (nvcc, cuobjdump) stays the x86-64 one for an aarch64 target.",
)

def _aarch64_archs_test_impl(ctx):
    env = analysistest.begin(ctx)
    argv = []
    for a in analysistest.target_actions(env):
        if a.argv:
            argv.extend(a.argv)
    joined = " ".join(argv)
    for want in ctx.attr.contains:
        asserts.true(env, want in joined, "no action of the target passes %r" % want)
    return analysistest.end(env)

aarch64_archs_test = analysistest.make(
    _aarch64_archs_test_impl,
    config_settings = _AARCH64_NVCC,
    attrs = {"contains": attr.string_list(mandatory = True)},
    doc = "The cu_library under test, analysed for linux-aarch64, has actions passing every string of contains.",
)
