"""build_cuda_setting: the value of --build_cuda, honouring its deprecated old name once."""

load("@bazel_skylib//rules:common_settings.bzl", "BuildSettingInfo")

def _build_cuda_setting_impl(ctx):
    value = ctx.attr.flag[BuildSettingInfo].value
    if not ctx.attr.deprecated_flag[BuildSettingInfo].value:
        # buildifier: disable=print
        print("WARNING: --@rules_cuda_go//toolchains:enabled is deprecated and goes away in the next " +
              "release; use --@rules_cuda_go//toolchains:build_cuda=false (or --config=cpu).")
        value = False
    return [BuildSettingInfo(value = value)]

build_cuda_setting = rule(
    implementation = _build_cuda_setting_impl,
    doc = "False when either the flag or its deprecated old name is false; warns once about the old name.",
    attrs = {
        "flag": attr.label(mandatory = True, providers = [BuildSettingInfo]),
        "deprecated_flag": attr.label(mandatory = True, providers = [BuildSettingInfo]),
    },
    provides = [BuildSettingInfo],
)
