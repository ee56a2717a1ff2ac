"""Analysis tests with the fixture toolkit (--//toolchains:cuda_version=fixture).

Its manifest gives no `nvcc --list-gpu-code`, so the toolchain's arch table comes from running the
fixture's nvcc, which supports sm_80 and sm_86 only.
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

_FIXTURE = {
    # These tests are about CUDA builds: they force CUDA on, also under --config=cpu.
    str(Label("//toolchains:build_cuda")): True,
    str(Label("//toolchains:cuda_version")): "fixture",
    # The fixture is nvcc-shaped (a stand-in nvcc, no ptxas or libdevice): nvcc compiles it, also
    # under --cuda_compiler=clang.
    str(Label("//toolchains:cuda_compiler")): "nvcc",
}

def _fixture_flags_test_impl(ctx):
    env = analysistest.begin(ctx)
    compiles = [a for a in analysistest.target_actions(env) if a.mnemonic == "NvccCompile"]
    asserts.equals(env, 1, len(compiles), "NvccCompile actions")
    for a in compiles:
        asserts.equals(env, ctx.attr.expected_gencode, [f for f in a.argv if f.startswith("-gencode=")])
        asserts.true(env, "cuda_fixture_nvcc/bin/nvcc" in a.argv[0], "nvcc %r is not the fixture's" % a.argv[0])
    return analysistest.end(env)

fixture_flags_test = analysistest.make(
    _fixture_flags_test_impl,
    attrs = {"expected_gencode": attr.string_list()},
    config_settings = _FIXTURE,
)

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    for m in ctx.attr.messages:
        asserts.expect_failure(env, m)
    return analysistest.end(env)

fixture_failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"messages": attr.string_list(doc = "Each must be part of the failure message.")},
    config_settings = _FIXTURE,
)

fixture_shared_cudart_failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"messages": attr.string_list(doc = "Each must be part of the failure message.")},
    config_settings = _FIXTURE | {str(Label("//toolchains:cudart")): "shared"},
)
