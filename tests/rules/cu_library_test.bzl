"""Analysis tests for cu_library: gencode flags, configs, rdc, propagation, failures."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

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
# They test one nvcc action per source (--cuda_split=false); split_test.bzl tests the split.
_CUDA_ON = {str(Label("//toolchains:build_cuda")): True, str(Label("//toolchains:cuda_compiler")): "nvcc", str(Label("//toolchains:split_nvcc")): False}

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
    asserts.equals(env, [], [a.mnemonic for a in analysistest.target_actions(env) if a.mnemonic.startswith("Nvcc")])
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

def _hermetic_test_impl(ctx):
    env = analysistest.begin(ctx)
    actions = _actions(env, "NvccCompile") + _actions(env, "NvccDeviceLink")
    asserts.true(env, len(actions) > 1, "expected NvccCompile and NvccDeviceLink actions")
    for a in actions:
        # The action environment is exactly this, never the user's shell environment.
        asserts.equals(env, {"PATH": "/usr/bin:/bin", "PWD": "/proc/self/cwd"}, a.env)
        asserts.true(env, "-ccbin" in a.argv, "expected -ccbin in %r" % a.argv)
        ccbin = a.argv[a.argv.index("-ccbin") + 1]
        asserts.true(env, ccbin.startswith("/") or ccbin in [f.path for f in a.inputs.to_list()], "-ccbin %s is neither absolute nor an input" % ccbin)
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
    for a in _actions(env, "NvccCompile"):
        src = [f for f in a.inputs.to_list() if f.extension == "cu"]
        asserts.equals(env, 1, len(src))
        asserts.true(env, "-objtemp" in a.argv, "expected -objtemp in %r" % a.argv)
        asserts.true(env, "--orig_src_path_name=" + src[0].path in a.argv, "expected cudafe++ to get the source's execroot path in %r" % a.argv)
    return analysistest.end(env)

# --copt=--sysroot=... (an ABI flag) reaches the host compiler through nvcc; -Wextra does not.
hermetic_test = analysistest.make(
    _hermetic_test_impl,
    attrs = {"expected_flags": attr.string_list()},
    config_settings = _CUDA_ON | {"//command_line_option:copt": ["--sysroot=/opt/sysroot", "-Wextra"]},
)

def _device_link_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = _actions(env, "NvccDeviceLink")
    asserts.equals(env, 1, len(links), "expected one device link")
    objects = sorted([f.basename for f in links[0].inputs.to_list() if f.extension == "o" and not f.is_source])
    asserts.equals(env, sorted(ctx.attr.expected_objects), objects)
    for f in ctx.attr.expected_gencode:
        asserts.true(env, f in links[0].argv, "expected %r in %r" % (f, links[0].argv))
    target = analysistest.target_under_test(env)
    absorbed = [str(t.label) for t in ctx.attr.absorbed]
    inputs = target[CcInfo].linking_context.linker_inputs.to_list()
    owners = [str(li.owner) for li in inputs]
    for label in absorbed:
        asserts.true(env, label in owners, "expected a linker input of %s (its link flags) in %r" % (label, owners))
    for li in inputs:
        if str(li.owner) in absorbed:
            asserts.equals(env, [], li.libraries, "the archive of %s (with its own device link) reaches the host link" % li.owner)
        elif absorbed and str(li.owner) == str(target.label):
            asserts.equals(env, 1, len(li.libraries), "expected the target's own archive")
    return analysistest.end(env)

# The device link of a target over the rdc parts below it: each part's objects once. A target
# that device-links takes over the code that rdc targets below device-linked themselves
# (absorbed): their objects join its link, and their archives (with their device-link objects)
# leave its CcInfo, their link flags stay.
device_link_test = analysistest.make(
    _device_link_test_impl,
    attrs = {
        "expected_objects": attr.string_list(),
        "expected_gencode": attr.string_list(),
        "absorbed": attr.label_list(),
    },
    config_settings = _CUDA_ON,
)

def _no_device_link_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.equals(env, [], _actions(env, "NvccDeviceLink"))
    asserts.true(env, len(_actions(env, "NvccCompile")) > 0, "expected the part to compile")
    return analysistest.end(env)

# An rdc part compiles and leaves the device link to its consumer.
no_device_link_test = analysistest.make(_no_device_link_test_impl, config_settings = _CUDA_ON)

def _textual_test_impl(ctx):
    env = analysistest.begin(ctx)
    compiles = _actions(env, "NvccCompile")
    sources = sorted([a.argv[a.argv.index("-c") + 1].rpartition("/")[2] for a in compiles])
    asserts.equals(env, sorted(ctx.attr.expected_sources), sources)
    for a in compiles:
        inputs = [f.basename for f in a.inputs.to_list()]
        for f in ctx.attr.expected_inputs:
            asserts.true(env, f in inputs, "expected %s among the inputs of %r" % (f, a.argv))
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
        for f in ctx.attr.unexpected_flags:
            asserts.false(env, f in a.argv, "did not expect %r in %r" % (f, a.argv))
    headers = [f.basename for f in analysistest.target_under_test(env)[CcInfo].compilation_context.headers.to_list()]
    for f in ctx.attr.expected_inputs:
        asserts.true(env, f in headers, "expected %s among the CcInfo headers %r" % (f, headers))
    return analysistest.end(env)

def _host_srcs_test_impl(ctx):
    env = analysistest.begin(ctx)
    nvcc = _actions(env, "NvccCompile")
    asserts.equals(env, sorted(ctx.attr.nvcc_sources), sorted([a.argv[a.argv.index("-c") + 1].rpartition("/")[2] for a in nvcc]))
    for a in nvcc:
        i = a.argv.index("-x") if "-x" in a.argv else -1
        asserts.true(env, i >= 0 and a.argv[i + 1] == "cu", "expected -x cu in %r" % a.argv)
    host = _actions(env, "CppCompile")
    compiled = []
    for a in host:
        compiled.extend([f.basename for f in a.inputs.to_list() if f.basename in ctx.attr.host_sources])
        asserts.false(env, [x for x in a.argv if "nvcc" in x or x == "-D__NVCC__"], "a host compile through nvcc: %r" % a.argv)
        for f in ctx.attr.expected_host_flags:
            asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
        is_c = [f for f in a.inputs.to_list() if f.extension == "c"]
        for f in ctx.attr.expected_cxx_flags:
            # C++ sources only (for -std=, the last one wins); none in C compiles.
            stds = [x for x in a.argv if x.startswith("-std=")]
            if is_c:
                asserts.false(env, f in a.argv, "did not expect %r in a C compile: %r" % (f, a.argv))
            elif f.startswith("-std="):
                asserts.equals(env, f, stds[-1] if stds else None)
            else:
                asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
    asserts.equals(env, sorted(ctx.attr.host_sources), sorted(compiled))
    return analysistest.end(env)

# Host sources (.cc/.cpp/.cxx/.c) are compiled by the C++ toolchain, not nvcc; host_srcs_as_cuda
# makes the C++ ones CUDA sources (nvcc -x cu), while .c stays C.
host_srcs_test = analysistest.make(
    _host_srcs_test_impl,
    attrs = {
        "nvcc_sources": attr.string_list(),
        "host_sources": attr.string_list(),
        "expected_host_flags": attr.string_list(),
        "expected_cxx_flags": attr.string_list(),
    },
    config_settings = _CUDA_ON,
)

# textual_hdrs are inputs of the compiles of the target and of its dependents, never compiled
# themselves; local_defines reach the target's compiles only.
textual_test = analysistest.make(
    _textual_test_impl,
    attrs = {
        "expected_sources": attr.string_list(),
        "expected_inputs": attr.string_list(),
        "expected_flags": attr.string_list(),
        "unexpected_flags": attr.string_list(),
    },
    config_settings = _CUDA_ON,
)
