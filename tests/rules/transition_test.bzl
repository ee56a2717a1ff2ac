"""transition_test: runs a binary built with another compilation mode or CUDA toolkit.

A test target cannot choose -c opt or --//toolchains:cuda_version for itself, so builds that must
hold in one configuration (a release-mode rdc link, a toolkit's static libraries) would otherwise
depend on the command line. transition_test builds `binary` (a cc_binary; link it statically, the
default for cc_binary) in that configuration and runs it as the test.
"""

_MODE = "//command_line_option:compilation_mode"
_VERSION = str(Label("//toolchains:cuda_version"))

def _transition_impl(settings, attr):
    return {
        _MODE: attr.compilation_mode or settings[_MODE],
        _VERSION: attr.cuda_version or settings[_VERSION],
    }

_config = transition(
    implementation = _transition_impl,
    inputs = [_MODE, _VERSION],
    outputs = [_MODE, _VERSION],
)

def _transition_test_impl(ctx):
    binary = ctx.attr.binary[0] if type(ctx.attr.binary) == "list" else ctx.attr.binary
    exe = binary[DefaultInfo].files_to_run.executable
    out = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = out, target_file = exe, is_executable = True)
    runfiles = ctx.runfiles(files = [exe]).merge(binary[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = out, runfiles = runfiles)]

transition_test = rule(
    implementation = _transition_test_impl,
    doc = "Runs `binary`, built with the given compilation mode and/or CUDA toolkit, as a test.",
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = _config, doc = "The program; exit status 0 passes."),
        "compilation_mode": attr.string(values = ["", "fastbuild", "dbg", "opt"], doc = "-c for the binary; empty: the command line's."),
        "cuda_version": attr.string(doc = "--//toolchains:cuda_version for the binary; empty: the command line's."),
    },
    test = True,
)
