"""Analysis tests for cu_device_image: outputs per format and arch, flags, deps, configs, failures."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

_CUDA_ON = {str(Label("//toolchains:build_cuda")): True, str(Label("//toolchains:cuda_compiler")): "nvcc"}

def _image_test_impl(ctx):
    env = analysistest.begin(ctx)
    actions = [a for a in analysistest.target_actions(env) if a.mnemonic == "NvccDeviceImage"]
    got = {}
    for a in actions:
        outs = a.outputs.to_list()
        asserts.equals(env, 1, len(outs), "one output per nvcc run")
        got[outs[0].basename] = [f for f in a.argv if f.startswith("-gencode=")]
        asserts.true(env, "-" + ctx.attr.format in a.argv, "expected -%s in %r" % (ctx.attr.format, a.argv))
        asserts.true(env, "-ccbin" in a.argv, "expected -ccbin in %r" % a.argv)
        asserts.equals(env, {"PATH": "/usr/bin:/bin", "PWD": "/proc/self/cwd"}, a.env)
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
        for f in ctx.attr.unexpected_flags:
            asserts.false(env, f in a.argv, "did not expect %r in %r" % (f, a.argv))
        for name in ctx.attr.expected_inputs:
            asserts.true(env, [f for f in a.inputs.to_list() if f.basename == name], "expected %s among the inputs" % name)
    want = {}
    for entry in ctx.attr.expected:
        out, _, flags = entry.partition("=")
        want[out] = flags.split(" ")
    asserts.equals(env, want, got)

    # The same files are the target's outputs and runfiles, and each is in its arch's output group.
    target = analysistest.target_under_test(env)
    files = sorted([f.basename for f in target[DefaultInfo].files.to_list()])
    asserts.equals(env, sorted(want.keys()), files)
    runfiles = sorted([f.basename for f in target[DefaultInfo].default_runfiles.files.to_list()])
    asserts.equals(env, files, runfiles)
    for group, name in ctx.attr.output_groups.items():
        asserts.equals(env, [name], [f.basename for f in getattr(target[OutputGroupInfo], group).to_list()])
    return analysistest.end(env)

def _make(config_settings = {}):
    return analysistest.make(
        _image_test_impl,
        attrs = {
            "format": attr.string(),
            # "OUTPUT=GENCODE GENCODE ..." per nvcc run.
            "expected": attr.string_list(),
            "expected_flags": attr.string_list(),
            "unexpected_flags": attr.string_list(),
            "expected_inputs": attr.string_list(),
            "output_groups": attr.string_dict(),
        },
        config_settings = _CUDA_ON | config_settings,
    )

image_test = _make()
image_hopper_test = _make({str(Label("//toolchains:archs")): "Hopper"})
image_opt_test = _make({"//command_line_option:compilation_mode": "opt"})

def _no_image_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.equals(env, [], [a for a in analysistest.target_actions(env) if a.mnemonic == "NvccDeviceImage"])
    asserts.equals(env, [], analysistest.target_under_test(env)[DefaultInfo].files.to_list())
    return analysistest.end(env)

# --config=cpu: nothing to compile, no toolkit needed.
image_cpu_test = analysistest.make(
    _no_image_test_impl,
    config_settings = {str(Label("//toolchains:build_cuda")): False},
)

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

image_failure_test = analysistest.make(
    _failure_test_impl,
    expect_failure = True,
    attrs = {"message": attr.string()},
    config_settings = _CUDA_ON,
)
