"""The BUILD file of the @cuda hub (see cuda_hub.bzl)."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("//common:toolchain.bzl", "CUDA_TOOLCHAIN_TYPE")
load(":components.bzl", "LIBRARIES", "library_target")
load(":cuda_missing_library.bzl", "cuda_missing_library")

_VERSION_FLAG = Label("//toolchains:cuda_version")
_AARCH64 = Label("@platforms//cpu:aarch64")
_CUDA_DISABLED = Label("//toolchains:cuda_disabled")

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
def cuda_hub_targets(toolkits, aliases = {}):
    """Declares config settings, toolchains and the library aliases.

    Args:
      toolkits: version -> {config, toolkit, components: {component: repository}}; the local
        toolkit is version "local" with config "local_cuda" and no components (one repository).
      aliases: more names for the targets below, name -> target name.
    """
    versions = sorted(toolkits.keys())
    for v in versions:
        native.config_setting(name = "version_" + v, flag_values = {_VERSION_FLAG: v})

        # The same toolkit for a linux-aarch64 target: more specific, so it wins over version_<v>.
        native.config_setting(
            name = "version_%s_aarch64" % v,
            flag_values = {_VERSION_FLAG: v},
            constraint_values = [_AARCH64],
        )
        native.toolchain(
            name = "toolchain_" + v,
            toolchain = "@%s//:toolchain" % toolkits[v]["config"],
            toolchain_type = CUDA_TOOLCHAIN_TYPE,
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

    def missing_target(name, v, message):
        target = "%s_not_in_%s" % (name, v)
        cuda_missing_library(
            name = target,
            message = message,
            visibility = ["//visibility:private"],
        )
        return ":" + target

    def pick(name, component, target, per_platform):
        branches = {}
        for v in versions:
            tk = toolkits[v]
            if v == "local":
                branches[":version_" + v] = "@%s//:%s" % (tk["config"], name)
            elif component in tk["components"]:
                branches[":version_" + v] = "@%s//:%s" % (tk["components"][component], target)
            else:
                branches[":version_" + v] = missing_target(name, v, "%s has no %s component, so @cuda//:%s is not available with it" % (tk["toolkit"], component, name))
            if not per_platform:
                continue  # A program that runs on the build machine, or headers: the same for every target.

            # linux-aarch64: the component's aarch64 (sbsa) libraries, where the toolkit pins them.
            aarch64 = tk.get("components_aarch64", {})
            if component in aarch64:
                branches[":version_%s_aarch64" % v] = "@%s//:%s" % (aarch64[component], target)
            elif v == "local":
                branches[":version_%s_aarch64" % v] = missing_target(name + "_aarch64", v, (
                    "@cuda//:%s: the local CUDA toolkit holds the build machine's libraries, not linux-aarch64 ones; " +
                    "build for --platforms=@rules_cuda_go//platforms:linux_aarch64 with a pinned toolkit " +
                    "(--@rules_cuda_go//toolchains:cuda_version=13.5)"
                ) % name)
            else:
                branches[":version_%s_aarch64" % v] = missing_target(name + "_aarch64", v, (
                    "@cuda//:%s is not available for linux-aarch64 with %s: %s" % (
                        name,
                        tk["toolkit"],
                        "NVIDIA ships no aarch64 wheel of its %s component (rules_cuda_go pins none); build it for x86-64 only (target_compatible_with), or leave it out of aarch64 builds" % component if aarch64 else "it has no aarch64 (sbsa) libraries pinned in versions.bzl (components_aarch64; CUDA 13.5 has them, --@rules_cuda_go//toolchains:cuda_version=13.5)",
                    )
                ))
        branches["//conditions:default"] = ":unknown_version"
        native.alias(name = name + "_by_version", actual = select(branches), visibility = ["//visibility:private"])
        native.alias(name = name, actual = select({
            _CUDA_DISABLED: ":cuda_disabled",
            "//conditions:default": ":%s_by_version" % name,
        }))

    for name, lib in LIBRARIES.items():
        # Headers and link stubs (compiled for the target from a generated source) of a component
        # without aarch64 libraries come from its x86-64 archives: they are the same.
        headers_only = not lib.shared and not lib.static
        pick(name, lib.component, library_target(name), per_platform = not headers_only or lib.component == "cudart")
    for name, (component, target) in _TOOLS.items():
        # nvcc, cuobjdump, nvdisasm, compute-sanitizer, tileiras: x86-64 programs of the build
        # machine whatever the target.
        pick(name, component, target, per_platform = False)
    for name, target in aliases.items():
        native.alias(name = name, actual = ":" + target)
