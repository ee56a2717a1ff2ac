"""Analysis tests for cu_library: gencode flags, configs, rdc, propagation, failures."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

def _actions(env, mnemonic):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == mnemonic]

def _gencode(action):
    return [a for a in action.argv if a.startswith("-gencode=")]

def _flags_test_impl(ctx):
    env = analysistest.begin(ctx)
    compiles = _actions(env, "NvccCompile")
    asserts.true(env, len(compiles) > 0, "expected an NvccCompile action")
    for a in compiles:
        asserts.equals(env, ctx.attr.expected_gencode, _gencode(a))
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
        for f in ctx.attr.unexpected_flags:
            asserts.false(env, f in a.argv, "did not expect %r in %r" % (f, a.argv))
    asserts.equals(env, ctx.attr.expect_dlink, len(_actions(env, "NvccDeviceLink")) == 1)
    return analysistest.end(env)

# These tests are about CUDA builds: they force CUDA on, also under --config=cpu.
_CUDA_ON = {str(Label("//toolchains:build_cuda")): True}

def _make_flags_test(config_settings = {}):
    return analysistest.make(
        _flags_test_impl,
        attrs = {
            "expected_gencode": attr.string_list(),
            "expected_flags": attr.string_list(),
            "unexpected_flags": attr.string_list(),
            "expect_dlink": attr.bool(),
        },
        config_settings = _CUDA_ON | config_settings,
    )

flags_test = _make_flags_test()
flag_hopper_test = _make_flags_test({str(Label("//toolchains:archs")): "Hopper"})
dbg_test = _make_flags_test({"//command_line_option:compilation_mode": "dbg"})
opt_test = _make_flags_test({"//command_line_option:compilation_mode": "opt"})
fast_math_test = _make_flags_test({str(Label("//toolchains:fast_math")): True})

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string()},
    config_settings = _CUDA_ON,
)

missing_toolkit_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string()},
    config_settings = _CUDA_ON | {"//command_line_option:platforms": str(Label("//tests/rules:no_toolkit_platform"))},
)

def _cpu_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.equals(env, [], _actions(env, "NvccCompile"))
    return analysistest.end(env)

cpu_test = analysistest.make(
    _cpu_test_impl,
    config_settings = {str(Label("//toolchains:build_cuda")): False},
)

# The deprecated name of build_cuda (an alias) still turns CUDA off.
deprecated_cpu_test = analysistest.make(
    _cpu_test_impl,
    config_settings = {str(Label("//toolchains:enabled")): False},
)
