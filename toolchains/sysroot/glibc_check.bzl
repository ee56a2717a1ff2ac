"""glibc_check: an aspect that fails the build when a binary needs a newer C library than the baseline.

Applied from the command line or a .bazelrc (this repository's applies it to every build):

    build --aspects=@rules_cuda_go//rules:defs.bzl%glibc_check

For each top-level target with an executable (and the executables it carries in `data`), a
validation action runs glibccheck on it: an ELF binary that needs a GLIBC, GLIBCXX or CXXABI symbol
version newer than the glibc baseline's (toolchains/sysroot/packages.bzl) fails the build,
naming the versions and the symbols that need them. Scripts and static binaries pass. Only targets
built with the glibc baseline's C++ toolchain are checked (a module opts into it with
register_toolchains("@rules_cuda_go//toolchains/sysroot:all")): with another C++ toolchain, with
--@rules_cuda_go//toolchains:sysroot=false (the host's C library, by choice), or for a target tagged
"no-glibc-check" (one that builds against the host's C library on purpose) nothing is checked.
"""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")
load(":identity.bzl", "is_baseline_cc_toolchain")
load(":packages.bzl", "SYSROOT_CXXABI", "SYSROOT_GLIBC", "SYSROOT_GLIBCXX")

_CC_TOOLCHAIN_TYPE = "@bazel_tools//tools/cpp:toolchain_type"

def _glibc_check_impl(target, ctx):
    if not ctx.attr._sysroot[BuildSettingInfo].value:
        return []
    if not is_baseline_cc_toolchain(ctx.toolchains[_CC_TOOLCHAIN_TYPE]):
        return []
    if DefaultInfo not in target or AnalysisTestResultInfo in target:
        return []
    if "no-glibc-check" in getattr(ctx.rule.attr, "tags", []):
        return []
    exe = target[DefaultInfo].files_to_run.executable
    if exe == None or exe.is_source:
        return []
    stamp = ctx.actions.declare_file("%s.glibc_check" % target.label.name)
    args = ctx.actions.args()
    args.add("-glibc", SYSROOT_GLIBC)
    args.add("-glibcxx", SYSROOT_GLIBCXX)
    args.add("-cxxabi", SYSROOT_CXXABI)
    args.add("-stamp", stamp)
    args.add(exe)
    ctx.actions.run(
        executable = ctx.executable._glibccheck,
        toolchain = None,
        arguments = [args],
        inputs = [exe],
        outputs = [stamp],
        mnemonic = "GlibcCheck",
        progress_message = "Checking %{label}'s C library versions against glibc " + SYSROOT_GLIBC,
    )
    return [OutputGroupInfo(_validation = depset([stamp]))]

glibc_check = aspect(
    implementation = _glibc_check_impl,
    doc = "Fails the build when an executable built with the glibc baseline's C++ toolchain needs a C library version newer than the baseline's.",
    attr_aspects = ["data"],
    toolchains = [config_common.toolchain_type(_CC_TOOLCHAIN_TYPE, mandatory = False)],
    attrs = {
        "_glibccheck": attr.label(
            default = "//toolchains/sysroot/glibccheck",
            executable = True,
            cfg = "exec",
        ),
        "_sysroot": attr.label(default = "//toolchains:sysroot"),
    },
)
