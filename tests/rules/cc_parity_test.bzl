"""Analysis tests for cu_library's cc_library attributes (alwayslink, implementation_deps,
strip_include_prefix/include_prefix, linkstatic, additional_compiler_inputs) and cu_binary/cu_test."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("@rules_cc//cc/common:cc_info.bzl", "CcInfo")

# The actions that preprocess a source (see every header); the split's SASS compiles do not.
_PREPROCESS = ["NvccPtx", "NvccHostAsm", "NvccHost", "NvccCompile", "CppCompile"]

def _nvcc_args(action):
    """nvcc's arguments in an action: after nvcc_split.sh's "--", or the whole command line."""
    return action.argv[action.argv.index("--") + 1:] if "--" in action.argv else action.argv

def _libraries(target, owner = None):
    """The LibraryToLinks of owner's (default: target's own) linker inputs in target's CcInfo."""
    owner = owner or target.label
    out = []
    for li in target[CcInfo].linking_context.linker_inputs.to_list():
        if li.owner == owner:
            out.extend(li.libraries)
    return out

def _compile_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    actions = analysistest.target_actions(env)
    nvcc = [a for a in actions if a.mnemonic.startswith("Nvcc") and a.mnemonic != "NvccDeviceLink"]
    preprocess = [a for a in actions if a.mnemonic in _PREPROCESS]
    mnemonics = sorted({a.mnemonic: True for a in actions if a.mnemonic in _PREPROCESS + ["NvccSass"]}.keys())
    asserts.equals(env, sorted(ctx.attr.mnemonics), mnemonics, "the compile's actions")
    for a in preprocess:
        inputs = [f.short_path for f in a.inputs.to_list()]

        # A C++ compile's headers are not inputs until Bazel has scanned them (execution time).
        for f in ctx.attr.expected_inputs if a.mnemonic != "CppCompile" else []:
            asserts.true(env, [i for i in inputs if i.endswith(f)], "expected %s among the inputs of %s" % (f, a.mnemonic))
        for f in ctx.attr.unexpected_inputs:
            asserts.false(env, [i for i in inputs if i.endswith(f)], "did not expect %s among the inputs of %s" % (f, a.mnemonic))
        for d in ctx.attr.expected_include_dirs:
            dirs = [x for x in a.argv if x.startswith("-I") and x.endswith(d)] + [
                a.argv[i + 1]
                for i, x in enumerate(a.argv[:-1])
                if x in ("-I", "-iquote", "-isystem") and a.argv[i + 1].endswith(d)
            ]
            asserts.true(env, dirs, "expected an include directory ending in %s in %s %r" % (d, a.mnemonic, a.argv))
    for a in nvcc + [a for a in actions if a.mnemonic == "CppCompile"]:
        inputs = [f.short_path for f in a.inputs.to_list()]
        for f in ctx.attr.all_inputs:
            asserts.true(env, [i for i in inputs if i.endswith(f)], "expected %s among the inputs of %s" % (f, a.mnemonic))
    for a in actions:
        if a.mnemonic == "CppCompile":
            for f in ctx.attr.host_flags:
                asserts.true(env, f in a.argv, "expected %r in %s %r" % (f, a.mnemonic, a.argv))
    for a in nvcc:
        args = _nvcc_args(a)
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in args, "expected %r in %s %r" % (f, a.mnemonic, args))
        for f in ctx.attr.unexpected_flags:
            asserts.false(env, f in args, "did not expect %r in %s %r" % (f, a.mnemonic, args))

    # What dependents' compiles see, and what programs link.
    cc = target[CcInfo].compilation_context
    headers = [f.short_path for f in cc.headers.to_list()]
    for f in ctx.attr.cc_headers:
        asserts.true(env, [h for h in headers if h.endswith(f)], "expected %s among the CcInfo headers %r" % (f, headers))
    for f in ctx.attr.no_cc_headers:
        asserts.false(env, [h for h in headers if h.endswith(f)], "did not expect %s among the CcInfo headers" % f)
    for d in ctx.attr.no_cc_defines:
        asserts.false(env, d in cc.defines.to_list(), "did not expect %s among the CcInfo defines" % d)
    includes = cc.includes.to_list()
    for d in ctx.attr.expected_include_dirs:
        asserts.true(env, [i for i in includes if i.endswith(d)], "expected an include directory ending in %s in CcInfo %r" % (d, includes))
    for owner in ctx.attr.linked:
        asserts.true(env, _libraries(target, owner.label), "expected the library of %s in the CcInfo linking context" % owner.label)
    return analysistest.end(env)

_COMPILE_ATTRS = {
    "mnemonics": attr.string_list(doc = "The compile's action kinds (of _PREPROCESS and NvccSass)."),
    "expected_inputs": attr.string_list(doc = "Path suffixes every preprocessing action reads."),
    "unexpected_inputs": attr.string_list(doc = "Path suffixes no preprocessing action reads."),
    "all_inputs": attr.string_list(doc = "Path suffixes every compile action reads (the SASS compiles too)."),
    "expected_include_dirs": attr.string_list(doc = "Suffixes of include directories of every preprocessing action and of CcInfo."),
    "expected_flags": attr.string_list(doc = "nvcc arguments of every nvcc action."),
    "unexpected_flags": attr.string_list(doc = "nvcc arguments of no nvcc action."),
    "host_flags": attr.string_list(doc = "Arguments of every host compile (CppCompile)."),
    "cc_headers": attr.string_list(doc = "Path suffixes among the CcInfo headers."),
    "no_cc_headers": attr.string_list(doc = "Path suffixes not among the CcInfo headers."),
    "no_cc_defines": attr.string_list(doc = "Defines not in CcInfo."),
    "linked": attr.label_list(doc = "Targets whose libraries the CcInfo linking context carries."),
}

_CUDA_ON = {str(Label("//toolchains:build_cuda")): True, str(Label("//toolchains:cuda_compiler")): "nvcc"}

# The split graph (NvccPtx, NvccSass, NvccHostAsm, NvccHost) and the one action.
compile_test = analysistest.make(_compile_test_impl, attrs = _COMPILE_ATTRS, config_settings = _CUDA_ON)
compile_unsplit_test = analysistest.make(
    _compile_test_impl,
    attrs = _COMPILE_ATTRS,
    config_settings = _CUDA_ON | {str(Label("//toolchains:split_nvcc")): False},
)

def _link_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    libs = _libraries(target)
    asserts.equals(env, 1, len(libs), "one library of the target's own")
    lib = libs[0]
    asserts.equals(env, ctx.attr.alwayslink, lib.alwayslink, "alwayslink of the LibraryToLink")
    asserts.true(env, lib.pic_static_library or lib.static_library, "expected a static archive")
    asserts.equals(env, ctx.attr.dynamic, lib.dynamic_library != None, "a shared library in the LibraryToLink")
    files = [f.basename for f in target[DefaultInfo].files.to_list()]
    asserts.equals(env, ctx.attr.dynamic, len([f for f in files if f.endswith(".so")]) == 1, "a shared library among the outputs %r" % files)
    shared_links = [a for a in analysistest.target_actions(env) if a.mnemonic == "CppLink" and "-shared" in a.argv]
    asserts.equals(env, 1 if ctx.attr.dynamic else 0, len(shared_links), "shared library links")
    return analysistest.end(env)

# alwayslink and linkstatic in the target's LibraryToLink.
link_test = analysistest.make(
    _link_test_impl,
    attrs = {
        "alwayslink": attr.bool(),
        "dynamic": attr.bool(),
    },
    config_settings = _CUDA_ON,
)

def _program_test_impl(ctx):
    env = analysistest.begin(ctx)
    links = [a for a in analysistest.target_actions(env) if a.mnemonic == "CppLink"]
    asserts.equals(env, 1, len(links), "one link")
    argv = links[0].argv

    # The library's archive, found by its name in the link (ctx.attr.library is analysed in the
    # test's own configuration, which under --config=cpu compiles nothing).
    prefix = "lib%s." % ctx.attr.library.label.name
    archives = [a for a in argv if a.endswith((".a", ".lo")) and a.split("/")[-1].startswith(prefix)]
    asserts.equals(env, 1, len(archives), "the library's archive %s{a,lo} in %r" % (prefix, argv))
    whole = False
    for a in argv:
        if a in ("-Wl,-whole-archive", "-Wl,--whole-archive"):
            whole = True
        elif a in ("-Wl,-no-whole-archive", "-Wl,--no-whole-archive"):
            whole = False
        elif a in archives:
            asserts.true(env, whole, "%s is linked outside -whole-archive: %r" % (a, argv))
    return analysistest.end(env)

# cu_binary/cu_test: the program links its sources' library whole.
program_test = analysistest.make(
    _program_test_impl,
    attrs = {"library": attr.label()},
    config_settings = _CUDA_ON,
)
