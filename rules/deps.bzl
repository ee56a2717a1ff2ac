"""WORKSPACE dependencies of rules_cuda_go: call rules_cuda_go_dependencies() from your WORKSPACE."""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")
load("//toolchains:repositories.bzl", "cuda_toolkit_repositories", "sysroot_repositories", _cuda_redist_manifest = "cuda_redist_manifest")

# A toolkit from an NVIDIA redistrib_<version>.json manifest: declare it, load TOOLKIT from its
# toolkit.bzl and pass it to rules_cuda_go_toolchains(extra = {...}) (see cuda_redist_manifest.bzl).
cuda_redist_manifest = _cuda_redist_manifest

def rules_cuda_go_dependencies():
    """Declares rules_go and gazelle (and skylib) unless the WORKSPACE already declared them.

    Afterwards call go_rules_dependencies(), go_register_toolchains() and gazelle_dependencies(),
    as in this repository's WORKSPACE. Offline, ./bazelw replaces these archives with local copies
    through --override_repository.
    """
    maybe(
        http_archive,
        name = "io_bazel_rules_go",
        urls = ["https://github.com/bazel-contrib/rules_go/releases/download/v0.65.0/rules_go-v0.65.0.zip"],
    )
    maybe(
        http_archive,
        name = "bazel_gazelle",
        urls = ["https://github.com/bazel-contrib/bazel-gazelle/releases/download/v0.54.0/gazelle-v0.54.0.tar.gz"],
    )
    maybe(
        http_archive,
        name = "bazel_skylib",
        urls = ["https://github.com/bazelbuild/bazel-skylib/releases/download/1.8.1/bazel-skylib-1.8.1.tar.gz"],
    )

# buildifier: disable=unnamed-macro
# Declares a fixed set of repositories (@cuda, @cuda_<version>_*, @local_cuda): nothing to name.
def rules_cuda_go_toolchains(mirrors = [], extra = {}, glibc_baseline = False):
    """Declares the CUDA toolkits and the @cuda hub, and registers their toolchains.

    The pinned toolkits (toolchains/versions.bzl) are downloaded only when a target needs them;
    --@rules_cuda_go//toolchains:cuda_version selects one (default: the newest pinned CUDA 13), or
    `local` for the toolkit installed on this machine. Call it after go_register_toolchains(): the
    configuration builds the arch resolver with the host Go.

    Args:
      mirrors: URL prefixes tried before each archive's own URL (prefix + the URL's path).
      extra: more toolkits, cuda_version -> spec: the TOOLKIT of a cuda_redist_manifest
        repository's toolkit.bzl (what the cuda extension's redist tag declares in bzlmod), e.g.
        {"12.8": TOOLKIT}; --@rules_cuda_go//toolchains:cuda_version=12.8 selects it.
      glibc_baseline: also declare the glibc baseline (toolchains/sysroot) and register its C++
        toolchain ahead of Bazel's auto-configured one, so that host code is built against glibc
        2.36 (docs/glibc-baseline.md). Off by default: the workspace keeps its own C++ toolchain.
    """
    if native.existing_rule("cuda"):
        return
    cuda_toolkit_repositories(extra = extra, mirrors = mirrors)
    native.register_toolchains("@cuda//:all")

    if glibc_baseline:
        # The glibc baseline's C++ toolchain (toolchains/sysroot), ahead of Bazel's auto-configured one.
        sysroot_repositories()
        native.register_toolchains("@rules_cuda_go//toolchains/sysroot:all")

        # The linux-aarch64 cross toolchain (toolchains/cross), for --platforms=@rules_cuda_go//platforms:linux_aarch64.
        native.register_toolchains("@rules_cuda_go//toolchains/cross:all")
