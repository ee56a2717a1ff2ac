"""Analysis tests for the split nvcc compile (rules/private/actions.bzl's nvcc_compile)."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")

_SPLIT_MNEMONICS = ["NvccPtx", "NvccSass", "NvccHostAsm", "NvccHost"]

def _actions(env, mnemonic):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == mnemonic]

def _out(action):
    return action.argv[action.argv.index("-o") + 1].rpartition("/")[2]

def _nvcc_args(action):
    """nvcc's arguments in an action: after nvcc_split.sh's "--", or the whole command line."""
    return action.argv[action.argv.index("--") + 1:] if "--" in action.argv else action.argv

def _split_test_impl(ctx):
    env = analysistest.begin(ctx)
    ptx = _actions(env, "NvccPtx")
    sass = _actions(env, "NvccSass")
    host = _actions(env, "NvccHost")
    host_asm = _actions(env, "NvccHostAsm")
    asserts.equals(env, [], _actions(env, "NvccCompile"), "a split source has no NvccCompile action")
    asserts.equals(env, sorted(ctx.attr.expected_ptx), sorted([_out(a) for a in ptx]))
    asserts.equals(env, sorted(ctx.attr.expected_sass), sorted([_out(a) for a in sass]))
    asserts.equals(env, 1, len(host), "one NvccHost action")

    # Device actions: one -gencode each; the PTX ones see the whole list's __CUDA_ARCH_LIST__.
    for a in ptx + sass:
        gencode = [f for f in a.argv if f.startswith("-gencode=")]
        asserts.equals(env, 1, len(gencode), "one -gencode flag in %r" % a.argv)
    for a in ptx:
        asserts.true(env, "-U__CUDA_ARCH_LIST__" in a.argv and ctx.attr.arch_list_define in a.argv, "expected %r in %r" % (ctx.attr.arch_list_define, a.argv))
        asserts.true(env, "-ptx" in a.argv, "expected -ptx in %r" % a.argv)
    for a in sass:
        ptx_in = a.argv[a.argv.index("-cubin") + 1]
        asserts.true(env, ptx_in in [f.path for f in a.inputs.to_list()], "the SASS compile reads %s, which is not its input" % ptx_in)

    # Exactly one PTX action writes the registration stub, and the host compile reads it.
    stubs = [a for a in ptx if "--stub_file_name" in a.argv]
    asserts.equals(env, 1, len(stubs), "one NvccPtx action writes the stub")
    stub = [o for o in stubs[0].outputs.to_list() if o.basename.endswith(".stub.c")]
    asserts.equals(env, 1, len(stub))
    asserts.true(env, stub[0] in host[0].inputs.to_list(), "the host compile does not read the stub")

    # The host code to assembly (not where it has debug information): from the stub and the PTX of
    # the arch that wrote it, not from the fatbinary; NvccHost assembles what it writes.
    asserts.equals(env, 1 if ctx.attr.host_asm else 0, len(host_asm), "NvccHostAsm actions")
    if host_asm:
        inputs = host_asm[0].inputs.to_list()
        asserts.true(env, stub[0] in inputs, "NvccHostAsm does not read the stub")
        asserts.true(env, [o for o in stubs[0].outputs.to_list() if o.basename.endswith(".ptx")][0] in inputs, "NvccHostAsm does not read the stub's PTX")
        asserts.equals(env, [], [f for f in inputs if f.basename.endswith(".cubin") or f.basename.endswith(".fatbin.c")], "NvccHostAsm reads device code")
        for f in host_asm[0].outputs.to_list():
            asserts.true(env, f in host[0].inputs.to_list(), "NvccHost does not read %s" % f.basename)

    # The host compile packs every image (nvcc's fatbinary step) and gets the whole compile's flags.
    images = [f for f in host[0].argv if f.startswith("elf:") or f.startswith("ptx:")]
    asserts.equals(env, sorted(ctx.attr.expected_images), sorted([f.partition("=")[0] for f in images]))
    host_inputs = [f.path for f in host[0].inputs.to_list()]
    for f in images:
        asserts.true(env, f.partition("=")[2] in host_inputs, "the host compile does not read the image %s" % f)
    for a in host_asm + host:
        args = _nvcc_args(a)
        asserts.equals(env, ctx.attr.expected_gencode, [f for f in args if f.startswith("-gencode=")])
        asserts.true(env, "-c" in args, "expected the whole compile (-c) in %r" % args)

    # Every part: the hermetic environment, the flags of the mode, staging where line tables are.
    for a in ptx + sass + host_asm + host:
        asserts.equals(env, {"PATH": "/usr/bin:/bin", "PWD": "/proc/self/cwd"}, a.env)
        args = _nvcc_args(a)
        for f in ctx.attr.expected_flags:
            asserts.true(env, f in args, "expected %r in %s %r" % (f, a.mnemonic, args))
        staged = a.argv[0].endswith("/nvcc_stage.sh")
        asserts.equals(env, ctx.attr.staged and a.mnemonic == "NvccSass", staged, "%s staged: %r" % (a.mnemonic, a.argv[:2]))
    return analysistest.end(env)

_ATTRS = {
    "expected_ptx": attr.string_list(doc = "The PTX files the NvccPtx actions write (basenames)."),
    "expected_sass": attr.string_list(doc = "The cubins the NvccSass actions write (basenames)."),
    "expected_images": attr.string_list(doc = "The KIND:SM images NvccHost packs."),
    "expected_gencode": attr.string_list(doc = "The whole compile's -gencode flags."),
    "expected_flags": attr.string_list(doc = "Flags every action of the split has."),
    "arch_list_define": attr.string(doc = "The -D__CUDA_ARCH_LIST__ flag of the PTX compiles."),
    "staged": attr.bool(doc = "Whether the SASS compiles run through nvcc_stage.sh (device line tables; PTX has no file times)."),
    "host_asm": attr.bool(default = True, doc = "Whether the host code compiles to assembly apart (NvccHostAsm): not with host debug information."),
}

_CUDA_ON = {str(Label("//toolchains:build_cuda")): True, str(Label("//toolchains:cuda_compiler")): "nvcc"}

split_test = analysistest.make(_split_test_impl, attrs = _ATTRS, config_settings = _CUDA_ON)
split_opt_test = analysistest.make(
    _split_test_impl,
    attrs = _ATTRS,
    config_settings = _CUDA_ON | {"//command_line_option:compilation_mode": "opt"},
)
split_dbg_test = analysistest.make(
    _split_test_impl,
    attrs = _ATTRS,
    config_settings = _CUDA_ON | {"//command_line_option:compilation_mode": "dbg"},
)

def _one_action_test_impl(ctx):
    env = analysistest.begin(ctx)
    mnemonics = [a.mnemonic for a in analysistest.target_actions(env)]
    for m in _SPLIT_MNEMONICS:
        asserts.false(env, m in mnemonics, "unexpected %s action" % m)
    compiles = _actions(env, "NvccCompile")
    asserts.equals(env, 1, len(compiles), "one NvccCompile action")
    argv = compiles[0].argv
    threads = argv[argv.index("--threads") + 1] if "--threads" in argv else None
    asserts.equals(env, ctx.attr.threads or None, threads, "nvcc --threads")
    return analysistest.end(env)

_ONE_ATTRS = {"threads": attr.string(doc = "nvcc's --threads value; empty: none.")}

# --cuda_split=false: one action per source, its archs compiled on --threads.
unsplit_test = analysistest.make(
    _one_action_test_impl,
    attrs = _ONE_ATTRS,
    config_settings = _CUDA_ON | {str(Label("//toolchains:split_nvcc")): False},
)

# A target whose copts choose device code itself (-dlto, -arch, ...) compiles in one action.
one_action_test = analysistest.make(_one_action_test_impl, attrs = _ONE_ATTRS, config_settings = _CUDA_ON)
