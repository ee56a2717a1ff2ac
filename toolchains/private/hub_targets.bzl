"""The BUILD file of the @cuda hub (see cuda_hub.bzl)."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load(":components.bzl", "LIBRARIES", "library_target")
load(":cuda_missing_library.bzl", "cuda_missing_library")

_VERSION_FLAG = Label("//toolchains:cuda_version")
_CUDA_DISABLED = Label("//toolchains:cuda_disabled")
_TOOLCHAIN_TYPE = Label("//toolchains:toolchain_type")

# Tools: name -> (component, target).
_TOOLS = {
    "nvcc": ("nvcc", "nvcc"),
    "compiler_files": ("nvcc", "compiler_files"),
    "cuobjdump": ("cuobjdump", "cuobjdump"),
    "nvdisasm": ("nvdisasm", "nvdisasm"),
    "compute_sanitizer": ("sanitizer", "compute_sanitizer"),
    "tileiras": ("tileiras", "tileiras"),
}

# buildifier: disable=unnamed-macro
# The whole BUILD file of the hub.
def cuda_hub_targets(toolkits):
    """Declares config settings, toolchains and the library aliases.

    Args:
      toolkits: version -> {config, toolkit, components: {component: repository}}; the local
        toolkit is version "local" with config "local_cuda" and no components (one repository).
    """
    versions = sorted(toolkits.keys())
    for v in versions:
        native.config_setting(name = "version_" + v, flag_values = {_VERSION_FLAG: v})
        native.toolchain(
            name = "toolchain_" + v,
            toolchain = "@%s//:toolchain" % toolkits[v]["config"],
            toolchain_type = _TOOLCHAIN_TYPE,
            target_settings = [":version_" + v],
        )
    unknown = ("--@rules_cuda_go//toolchains:cuda_version names no declared CUDA toolkit; declared: %s " +
               "(declare more with the cuda module extension's toolkit or redist tags)") % ", ".join(versions)
    cuda_missing_library(name = "unknown_version", message = unknown)

    # Under --config=cpu every @cuda target is incompatible: what depends on one is skipped by
    # wildcard builds (and reported if named), and nothing is downloaded.
    cc_library(
        name = "cuda_disabled",
        target_compatible_with = [Label("@platforms//:incompatible")],
        visibility = ["//visibility:private"],
    )

    def pick(name, component, target):
        branches = {}
        for v in versions:
            tk = toolkits[v]
            if v == "local":
                branches[":version_" + v] = "@%s//:%s" % (tk["config"], name)
            elif component in tk["components"]:
                branches[":version_" + v] = "@%s//:%s" % (tk["components"][component], target)
            else:
                missing = "%s_not_in_%s" % (name, v)
                cuda_missing_library(
                    name = missing,
                    message = "%s has no %s component, so @cuda//:%s is not available with it" % (tk["toolkit"], component, name),
                    visibility = ["//visibility:private"],
                )
                branches[":version_" + v] = ":" + missing
        branches["//conditions:default"] = ":unknown_version"
        native.alias(name = name + "_by_version", actual = select(branches), visibility = ["//visibility:private"])
        native.alias(name = name, actual = select({
            _CUDA_DISABLED: ":cuda_disabled",
            "//conditions:default": ":%s_by_version" % name,
        }))

    for name, lib in LIBRARIES.items():
        pick(name, lib.component, library_target(name))
    for name, (component, target) in _TOOLS.items():
        pick(name, component, target)
