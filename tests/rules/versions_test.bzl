"""Per-version tests of the pinned CUDA toolkits (toolchains/versions.bzl).

archs_table_test reads each version's arch table (@cuda_<v>//:archs.bzl, written by the resolver
from the version's recorded nvcc --list-gpu-code and arch- and family-specific codes) without
downloading or running nvcc, so versions that cannot compile on this machine (13.0, 12.9) are
checked too. The analysis tests check which
toolkit's files cu_library and the @cuda library targets use under
--//toolchains:cuda_version.
"""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts", "unittest")
load("@cuda_12_9//:archs.bzl", SEPARATORS_12_9 = "SEPARATORS", TOKENS_12_9 = "TOKENS", UNSUPPORTED_12_9 = "UNSUPPORTED")
load("@cuda_13_0//:archs.bzl", SEPARATORS_13_0 = "SEPARATORS", TOKENS_13_0 = "TOKENS", UNSUPPORTED_13_0 = "UNSUPPORTED")
load("@cuda_13_2//:archs.bzl", SEPARATORS_13_2 = "SEPARATORS", TOKENS_13_2 = "TOKENS", UNSUPPORTED_13_2 = "UNSUPPORTED")
load("@cuda_13_5//:archs.bzl", SEPARATORS_13_5 = "SEPARATORS", TOKENS_13_5 = "TOKENS", UNSUPPORTED_13_5 = "UNSUPPORTED")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

_TABLES = {
    "12.9": struct(tokens = TOKENS_12_9, unsupported = UNSUPPORTED_12_9, separators = SEPARATORS_12_9),
    "13.0": struct(tokens = TOKENS_13_0, unsupported = UNSUPPORTED_13_0, separators = SEPARATORS_13_0),
    "13.2": struct(tokens = TOKENS_13_2, unsupported = UNSUPPORTED_13_2, separators = SEPARATORS_13_2),
    "13.5": struct(tokens = TOKENS_13_5, unsupported = UNSUPPORTED_13_5, separators = SEPARATORS_13_5),
}

# The resolver's separators (resolver.Separators): ';' and ASCII whitespace, \v and \f as octal.
RESOLVER_SEPARATORS = "; \t\n\r\013\014"

def _archs_table_test_impl(ctx):
    env = unittest.begin(ctx)
    table = _TABLES[ctx.attr.version]
    asserts.equals(env, RESOLVER_SEPARATORS, table.separators, "SEPARATORS of CUDA %s" % ctx.attr.version)
    for spec, flags in ctx.attr.resolves.items():
        asserts.true(env, spec in table.tokens, "CUDA %s: %r is not in TOKENS" % (ctx.attr.version, spec))
        asserts.false(env, spec in table.unsupported, "CUDA %s: %r is in UNSUPPORTED" % (ctx.attr.version, spec))
        asserts.equals(env, flags, table.tokens.get(spec), "CUDA %s: TOKENS[%r]" % (ctx.attr.version, spec))
    for spec, code in ctx.attr.unsupported.items():
        asserts.false(env, spec in table.tokens, "CUDA %s: %r is in TOKENS" % (ctx.attr.version, spec))
        msg = table.unsupported.get(spec, "")

        # The message names the arch, the code the toolkit lacks and the toolkit.
        for want in ["CUDA arch \"%s\"" % spec, "needs %s," % code, "which CUDA %s (pinned" % ctx.attr.version, "cannot build"]:
            asserts.true(env, want in msg, "CUDA %s: UNSUPPORTED[%r] = %r lacks %r" % (ctx.attr.version, spec, msg, want))
    return unittest.end(env)

archs_table_test = unittest.make(
    _archs_table_test_impl,
    attrs = {
        "version": attr.string(mandatory = True, values = sorted(_TABLES.keys())),
        "resolves": attr.string_list_dict(doc = "spec -> its exact TOKENS entry (-gencode flags)."),
        "unsupported": attr.string_dict(doc = "spec -> the sm_XX code its UNSUPPORTED message must name."),
    },
)

def _paths(files):
    return [f.path for f in files]

def _linked_files(cc_info):
    """Paths of every library file in a CcInfo's linking context (shared ones also unmangled)."""
    out = []
    for li in cc_info.linking_context.linker_inputs.to_list():
        for lib in li.libraries:
            for f in [
                lib.static_library,
                lib.pic_static_library,
                lib.dynamic_library,
                lib.resolved_symlink_dynamic_library,
                lib.interface_library,
            ]:
                if f:
                    out.append(f.path)
    return out

def _some(paths, part):
    return [p for p in paths if part in p]

def _nvcc_of(action):
    """The nvcc an nvcc action runs: its executable, or nvcc_stage.sh's first argument."""
    if action.argv[0].endswith("/nvcc_stage.sh"):
        return action.argv[1]
    return action.argv[0]

def _toolkit_test_impl(ctx):
    env = analysistest.begin(ctx)
    actions = analysistest.target_actions(env)
    compiles = [a for a in actions if a.mnemonic == "NvccCompile"]
    dlinks = [a for a in actions if a.mnemonic == "NvccDeviceLink"]
    if ctx.attr.expected_gencode:
        asserts.true(env, len(compiles) > 0, "expected an NvccCompile action")
    for a in compiles:
        asserts.equals(env, ctx.attr.expected_gencode, [f for f in a.argv if f.startswith("-gencode=")])
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in a.argv, "expected %r in %r" % (f, a.argv))
        inputs = _paths(a.inputs.to_list())
        for part in ctx.attr.compile_inputs:
            asserts.true(env, _some(inputs, part), "no NvccCompile input path contains %r" % part)
        for part in ctx.attr.foreign_inputs:
            asserts.false(env, _some(inputs, part), "NvccCompile inputs from another toolkit: %r" % _some(inputs, part)[:3])
    for a in compiles:
        staged = a.argv[0].endswith("/nvcc_stage.sh")
        asserts.equals(env, ctx.attr.staged, staged, "NvccCompile runs nvcc through nvcc_stage.sh (device line tables): %r" % a.argv[:3])
    for a in compiles + dlinks:
        if ctx.attr.nvcc:
            nvcc = _nvcc_of(a)
            asserts.true(env, ctx.attr.nvcc in nvcc, "%s runs %r, not %r" % (a.mnemonic, nvcc, ctx.attr.nvcc))
    asserts.equals(env, ctx.attr.expect_dlink, len(dlinks) == 1, "one NvccDeviceLink action")
    for a in dlinks:
        asserts.equals(env, ctx.attr.expected_gencode, [f for f in a.argv if f.startswith("-gencode=")])
    runfiles = [f.path for f in analysistest.target_under_test(env)[DefaultInfo].default_runfiles.files.to_list()]
    for name in ctx.attr.solib_runfiles:
        asserts.true(
            env,
            [p for p in runfiles if "/_solib_" in p and p.endswith("/" + name)],
            "%s is not in the runfiles' _solib_ directory, where programs look for it: %r" % (name, runfiles),
        )
    linked = _linked_files(analysistest.target_under_test(env)[CcInfo])
    for part in ctx.attr.linked:
        asserts.true(env, _some(linked, part), "no library of the linking context contains %r: %r" % (part, linked))
    return analysistest.end(env)

_VERSION = str(Label("//toolchains:cuda_version"))

# These tests are about CUDA builds: they force CUDA on, also under --config=cpu.
# They test one nvcc action per source (--cuda_split=false); split_test.bzl tests the split.
_CUDA_ON = {str(Label("//toolchains:build_cuda")): True, str(Label("//toolchains:cuda_compiler")): "nvcc", str(Label("//toolchains:split_nvcc")): False}

_TOOLKIT_ATTRS = {
    "expected_gencode": attr.string_list(doc = "The -gencode flags of every nvcc action."),
    "expected_flags": attr.string_list(doc = "Flags every NvccCompile action has."),
    "compile_inputs": attr.string_list(doc = "Each is part of the path of some NvccCompile input."),
    "foreign_inputs": attr.string_list(doc = "None is part of the path of an NvccCompile input."),
    "nvcc": attr.string(doc = "Part of the path of the nvcc every nvcc action runs."),
    "expect_dlink": attr.bool(doc = "Whether there is an NvccDeviceLink action."),
    "staged": attr.bool(doc = "Whether the NvccCompile actions run nvcc through nvcc_stage.sh (builds with device line tables)."),
    "linked": attr.string_list(doc = "Each is part of the path of a library in the target's CcInfo linking context."),
    "solib_runfiles": attr.string_list(doc = "Shared libraries (soname files) in the target's runfiles, under _solib_."),
}

def _make_toolkit_test(settings):
    return analysistest.make(_toolkit_test_impl, attrs = _TOOLKIT_ATTRS, config_settings = _CUDA_ON | settings)

cuda_13_5_test = _make_toolkit_test({_VERSION: "13.5"})
cuda_13_2_test = _make_toolkit_test({_VERSION: "13.2"})
cuda_13_2_opt_test = _make_toolkit_test({_VERSION: "13.2", "//command_line_option:compilation_mode": "opt"})
cuda_12_9_test = _make_toolkit_test({_VERSION: "12.9"})

def _failure_test_impl(ctx):
    env = analysistest.begin(ctx)
    for m in ctx.attr.messages:
        asserts.expect_failure(env, m)
    return analysistest.end(env)

def _make_failure_test(settings):
    return analysistest.make(
        _failure_test_impl,
        expect_failure = True,
        attrs = {"messages": attr.string_list(doc = "Each is part of the failure message.")},
        config_settings = _CUDA_ON | settings,
    )

cuda_13_2_failure_test = _make_failure_test({_VERSION: "13.2"})

# A cuda_version no toolkit is declared for.
unknown_version_failure_test = _make_failure_test({_VERSION: "11.1"})
