"""Analysis tests for CUDA compiled with clang (--cuda_compiler=clang; rules/private/clang_compile.bzl)."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts", "unittest")

# The mapping of nvcc's options is unit-tested where it is defined.
# buildifier: disable=bzl-visibility
load("//rules/private:clang_flags.bzl", "clang_copts")

_CLANG = {
    str(Label("//toolchains:build_cuda")): True,
    str(Label("//toolchains:cuda_compiler")): "clang",
}

def _actions(env, mnemonic):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == mnemonic]

def _out(action):
    return action.argv[action.argv.index("-o") + 1].rpartition("/")[2]

def _clang_split_test_impl(ctx):
    env = analysistest.begin(ctx)
    ptx = _actions(env, "ClangPtx")
    sass = _actions(env, "ClangSass")
    fatbin = _actions(env, "ClangFatbin")
    host = _actions(env, "ClangHost")
    asserts.equals(env, [], [a.mnemonic for a in analysistest.target_actions(env) if a.mnemonic.startswith("Nvcc") and a.mnemonic != "NvccDeviceLink"], "no nvcc compile under clang")
    asserts.equals(env, sorted(ctx.attr.expected_ptx), sorted([_out(a) for a in ptx]))
    asserts.equals(env, sorted(ctx.attr.expected_sass), sorted([_out(a) for a in sass]))
    asserts.equals(env, 1, len(fatbin), "one ClangFatbin action")
    asserts.equals(env, 1, len(host), "one ClangHost action")

    # Every clang compile sees the whole spec's __CUDA_ARCH_LIST__ and the same -cuid.
    cuids = {}
    for a in ptx + host:
        asserts.true(env, ctx.attr.arch_list_define in a.argv, "expected %s in %r" % (ctx.attr.arch_list_define, a.argv))
        for f in a.argv:
            if f.startswith("-cuid="):
                cuids[f] = True
        for f in ctx.attr.expected_clang_flags:
            asserts.true(env, f in a.argv, "expected %s in %r" % (f, a.argv))
    asserts.equals(env, 1, len(cuids), "one -cuid for the source's compiles")
    for a in ptx:
        asserts.true(env, "--cuda-device-only" in a.argv and "-S" in a.argv, "a device-only PTX compile: %r" % a.argv)
        for f in ctx.attr.expected_device_flags:
            asserts.true(env, f in a.argv, "expected %s in %r" % (f, a.argv))
    for a in sass:
        for f in ctx.attr.expected_ptxas_flags:
            asserts.true(env, f in a.argv, "expected %s in ptxas's %r" % (f, a.argv))
    images = sorted([f[len("--image3="):].rpartition(",file=")[0] for f in fatbin[0].argv if f.startswith("--image3=")])
    asserts.equals(env, sorted(ctx.attr.expected_images), images)
    asserts.true(env, "--cuda-host-only" in host[0].argv, "a host-only compile")
    asserts.true(env, [f for f in fatbin[0].outputs.to_list()][0] in host[0].inputs.to_list(), "the host compile reads the fatbinary")
    for f in ctx.attr.expected_host_flags:
        asserts.true(env, f in host[0].argv, "expected %s in %r" % (f, host[0].argv))
    for a in ptx + sass + host:
        for f in ctx.attr.unexpected_flags:
            asserts.false(env, f in a.argv, "unexpected %s in %r" % (f, a.argv))
    return analysistest.end(env)

_ATTRS = {
    "arch_list_define": attr.string(),
    "expected_ptx": attr.string_list(),
    "expected_sass": attr.string_list(),
    "expected_images": attr.string_list(doc = "fatbinary's --image3 values without the file: kind=elf,sm=80"),
    "expected_clang_flags": attr.string_list(doc = "Flags of every clang compile."),
    "expected_device_flags": attr.string_list(),
    "expected_ptxas_flags": attr.string_list(),
    "expected_host_flags": attr.string_list(),
    "unexpected_flags": attr.string_list(),
}

clang_split_test = analysistest.make(_clang_split_test_impl, attrs = _ATTRS, config_settings = _CLANG)
clang_split_opt_test = analysistest.make(
    _clang_split_test_impl,
    attrs = _ATTRS,
    config_settings = _CLANG | {"//command_line_option:compilation_mode": "opt"},
)
clang_split_dbg_test = analysistest.make(
    _clang_split_test_impl,
    attrs = _ATTRS,
    config_settings = _CLANG | {"//command_line_option:compilation_mode": "dbg"},
)

def _clang_image_test_impl(ctx):
    env = analysistest.begin(ctx)
    outs = sorted([f.basename for f in analysistest.target_under_test(env)[DefaultInfo].files.to_list()])
    asserts.equals(env, sorted(ctx.attr.expected_outputs), outs)
    asserts.equals(env, [], [a.mnemonic for a in analysistest.target_actions(env) if a.mnemonic.startswith("Nvcc")], "no nvcc under clang")
    return analysistest.end(env)

clang_image_test = analysistest.make(
    _clang_image_test_impl,
    attrs = {"expected_outputs": attr.string_list()},
    config_settings = _CLANG,
)

def _clang_failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    for part in ctx.attr.expected_parts:
        asserts.expect_failure(env, part)
    return analysistest.end(env)

clang_failure_test = analysistest.make(
    _clang_failure_test_impl,
    attrs = {"expected_parts": attr.string_list()},
    expect_failure = True,
    config_settings = _CLANG,
)

def _clang_copts_test_impl(ctx):
    env = unittest.begin(ctx)
    flags, err = clang_copts([
        "--use_fast_math",
        "-Xptxas",
        "-v,--warn-on-spills",
        "--expt-relaxed-constexpr",
        "--extended-lambda",
        "-Xcompiler=-Wall,-Wextra",
        "--maxrregcount=64",
        "--default-stream",
        "per-thread",
        "-std=c++17",
        "-DX=1",
        "-lineinfo",
        "--threads",
        "4",
    ])
    asserts.equals(env, None, err)
    asserts.equals(env, ["-fgpu-default-stream=per-thread", "-std=c++17", "-DX=1"], flags.common)
    asserts.equals(env, ["-ffast-math", "-fgpu-flush-denormals-to-zero", "-gline-tables-only"], flags.device)
    asserts.equals(env, ["-Wall", "-Wextra"], flags.host)
    asserts.equals(env, ["-v", "--warn-on-spills", "--maxrregcount=64"], flags.ptxas)
    for bad, why in [
        (["-gencode=arch=compute_80,code=sm_80"], "arch spec"),
        (["-arch", "sm_90"], "arch spec"),
        (["-rdc=true"], "rdc attribute"),
        (["-Xcudafe", "--diag_suppress=177"], "-Wno-<name>"),
        (["--prec-div=false"], "no per-operation switch"),
        (["-dlto"], "NVVM IR"),
        (["-Xptxas"], "needs a value"),
    ]:
        flags, err = clang_copts(bad)
        asserts.equals(env, None, flags)
        asserts.true(env, err and bad[0] in err and why in err, "clang_copts(%r): %r names neither the option nor %r" % (bad, err, why))
    return unittest.end(env)

clang_copts_test = unittest.make(_clang_copts_test_impl)
