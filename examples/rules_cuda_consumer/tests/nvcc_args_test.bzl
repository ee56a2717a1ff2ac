"""Analysis tests: rules_cuda's flags and attributes -> the nvcc command line, and the messages of
what does not map (rules_cuda's tests/flag cases, on rules_cuda_go)."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

# One nvcc action per source (NvccCompile), whose command line carries the -gencode flags as
# rules_cuda's does; the split graph's actions are checked by rules_cuda_go's own tests.
_ONE_ACTION = {str(Label("@rules_cuda//cuda:split_nvcc")): False}

def _flag(name):
    return str(Label("@rules_cuda//cuda:" + name))

def _has(argv, flag):
    """Whether flag is in argv: one argument, or several separated by spaces (e.g. "-Xcompiler -O1")."""
    return (" " + flag + " ") in (" " + " ".join(argv) + " ")

def _nvcc_args_test_impl(ctx):
    env = analysistest.begin(ctx)
    actions = [a for a in analysistest.target_actions(env) if a.mnemonic == ctx.attr.mnemonic]
    asserts.equals(env, ctx.attr.num_actions, len(actions), "number of %s actions" % ctx.attr.mnemonic)
    for a in actions:
        for f in ctx.attr.contains:
            asserts.true(env, _has(a.argv, f), "%r not in %s" % (f, " ".join(a.argv)))
        for f in ctx.attr.not_contains:
            asserts.false(env, _has(a.argv, f), "%r in %s" % (f, " ".join(a.argv)))
    return analysistest.end(env)

_ATTRS = {
    "mnemonic": attr.string(default = "NvccCompile"),
    "num_actions": attr.int(default = 1),
    "contains": attr.string_list(),
    "not_contains": attr.string_list(),
}

def _make(settings):
    return analysistest.make(_nvcc_args_test_impl, attrs = _ATTRS, config_settings = _ONE_ACTION | settings)

def _archs(spec):
    return _make({_flag("archs"): spec})

nvcc_args_test = _make({})
nvcc_args_sm86_test = _archs("sm_86")
nvcc_args_compute80_test = _archs("compute_80")
nvcc_args_compute80_sm86_test = _archs("compute_80,sm_86")
nvcc_args_compute86_sm86_test = _archs("compute_86,sm_86")
nvcc_args_sm90a_test = _archs("sm_90a")
nvcc_args_sm90a_sm90_test = _archs("sm_90a,sm_90")
nvcc_args_sm100_sm100a_test = _archs("sm_100;sm_100a")
nvcc_args_sm110_family_test = _archs("compute_110:sm_110,sm_110a,sm_110f")
nvcc_args_flag_copts_test = _make({
    _flag("copts"): ["--extended-lambda"],
    _flag("host_copts"): ["-Wno-unused"],
})
nvcc_args_disabled_test = _make({_flag("enable"): False})
nvcc_args_dbg_test = _make({"//command_line_option:compilation_mode": "dbg"})
nvcc_args_opt_test = _make({"//command_line_option:compilation_mode": "opt"})

def _fails_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

def _fails(settings):
    return analysistest.make(_fails_test_impl, expect_failure = True, attrs = {"message": attr.string(mandatory = True)}, config_settings = settings)

fails_test = _fails({})
fails_clang_test = _fails({_flag("compiler"): "clang"})
fails_runtime_test = _fails({_flag("runtime"): str(Label("@cuda//:cuda_runtime_static"))})
fails_lto_test = _fails({_flag("archs"): "compute_80:lto_80"})
fails_syntax_test = _fails({_flag("archs"): "sm80"})
fails_old_arch_test = _fails({_flag("archs"): "sm_35"})
fails_version_test = _fails({_flag("version"): "12.8.1"})
