"""WORKSPACE dependencies of rules_cuda_go: call rules_cuda_go_dependencies() from your WORKSPACE."""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")
load("//toolchains:local_cuda.bzl", "local_cuda")

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

def rules_cuda_go_toolchains(name = "local_cuda"):
    """Creates @local_cuda (the CUDA toolkit and GPUs found on this machine) and registers its toolchain.

    Call it after go_register_toolchains(): it builds the arch resolver with the host Go.

    Args:
      name: the repository name; rules_cuda_go refers to @local_cuda, so keep the default.
    """
    maybe(local_cuda, name = name)
    native.register_toolchains("@%s//:toolchain" % name)
