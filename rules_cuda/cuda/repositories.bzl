"""rules_cuda's WORKSPACE macros on rules_cuda_go.

Declare rules_cuda_go before loading this file (it loads rules_cuda_go's), e.g.

    local_repository(name = "rules_cuda_go", path = "/src/rules_cuda_go")
    local_repository(name = "rules_cuda", path = "/src/rules_cuda_go/rules_cuda")
    load("@rules_cuda//cuda:repositories.bzl", "rules_cuda_dependencies", "rules_cuda_toolchains")
    rules_cuda_dependencies()
    rules_cuda_toolchains(register_toolchains = True)
"""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")
load("@rules_cuda_go//toolchains:repositories.bzl", "cuda_toolkit_repositories")
load("//cuda/private:targets.bzl", "HUB_ALIASES")

def rules_cuda_dependencies():
    """Declares bazel_skylib, platforms and rules_cc unless the WORKSPACE already declared them."""
    maybe(
        http_archive,
        name = "bazel_skylib",
        urls = ["https://github.com/bazelbuild/bazel-skylib/releases/download/1.8.1/bazel-skylib-1.8.1.tar.gz"],
    )
    maybe(
        http_archive,
        name = "platforms",
        urls = ["https://github.com/bazelbuild/platforms/releases/download/1.0.0/platforms-1.0.0.tar.gz"],
    )
    maybe(
        http_archive,
        name = "rules_cc",
        urls = ["https://github.com/bazelbuild/rules_cc/releases/download/0.1.5/rules_cc-0.1.5.tar.gz"],
        strip_prefix = "rules_cc-0.1.5",
    )

def _not_supported(what):
    fail(("rules_cuda_toolchains(%s): rules_cuda_go finds the local toolkit itself (--@rules_cuda_go//toolchains:cuda_version=local, " +
          "CUDA_PATH) and pins the others; call rules_cuda_toolchains() without it, or declare a redist toolkit with " +
          "rules_cuda_go's cuda_redist_manifest (@rules_cuda_go//rules:deps.bzl).") % what)

# buildifier: disable=unnamed-macro
# rules_cuda's name and arguments: declares the fixed @cuda and registers toolchains.
def rules_cuda_toolchains(toolkit_path = None, components_mapping = None, version = None, nvcc_version = None, register_toolchains = False):
    """Declares @cuda (rules_cuda_go's hub, with rules_cuda's target names too) and, if asked, registers its toolchains.

    Args:
      toolkit_path: must be unset: --@rules_cuda_go//toolchains:cuda_version=local is the local toolkit.
      components_mapping: must be unset.
      version: must be unset.
      nvcc_version: must be unset.
      register_toolchains: register the toolchains (register_detected_cuda_toolchains()).
    """
    for name, value in [("toolkit_path", toolkit_path), ("components_mapping", components_mapping), ("version", version), ("nvcc_version", nvcc_version)]:
        if value:
            _not_supported("%s = %r" % (name, value))
    if not native.existing_rule("cuda"):
        cuda_toolkit_repositories(aliases = HUB_ALIASES)
    if register_toolchains:
        register_detected_cuda_toolchains()

# buildifier: disable=unnamed-macro
# rules_cuda's name: registers toolchains, nothing to name.
def register_detected_cuda_toolchains():
    """Registers the toolchains of every toolkit @cuda declares (--@rules_cuda_go//toolchains:cuda_version picks one)."""
    native.register_toolchains("@cuda//:all")
