"""host_libc_binary: a binary built against the build machine's own C library.

The same program as `binary`, with --@rules_cuda_go//toolchains:sysroot=false: Bazel's
auto-configured C++ toolchain and nvcc's host compiler use the host's headers and libraries. The
glibc baseline test compares the two builds.
"""

_SYSROOT = str(Label("//toolchains:sysroot"))

def _host_libc_impl(_settings, _attr):
    return {_SYSROOT: False}

_host_libc = transition(
    implementation = _host_libc_impl,
    inputs = [],
    outputs = [_SYSROOT],
)

def _host_libc_binary_impl(ctx):
    exe = ctx.attr.binary[0][DefaultInfo].files_to_run.executable
    out = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = out, target_file = exe, is_executable = True)
    return [DefaultInfo(executable = out, files = depset([out]))]

host_libc_binary = rule(
    implementation = _host_libc_binary_impl,
    doc = "`binary` built with --@rules_cuda_go//toolchains:sysroot=false.",
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = _host_libc),
    },
    executable = True,
)
