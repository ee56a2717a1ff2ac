"""Module extension `cuda`: the CUDA toolkits (pinned, from redist manifests, and the local one).

    cuda = use_extension("@rules_cuda_go//toolchains:extensions.bzl", "cuda")
    use_repo(cuda, "cuda")          # for @cuda//:cublas and the other library targets

rules_cuda_go registers the toolchains (@cuda//:all) itself. Tags, all optional:

    cuda.redist(name = "12.8", manifest = "https://.../redistrib_12.8.1.json")   # or a label
    cuda.mirror(urls = ["https://mirror.example.com/pypi/"])

A redist toolkit is selected like a pinned one: --@rules_cuda_go//toolchains:cuda_version=12.8.
"""

load("//toolchains:repositories.bzl", "cuda_toolkit_repositories", "sysroot_repositories")
load("//toolchains/private:redist.bzl", "read_redist_manifest", "toolkit_from_redist")

def _warn_if_under_tmp(mctx):
    """Says so when this checkout of rules_cuda_go is under /tmp, which Bazel's sandbox hides.

    Bazel 7 gives every sandboxed action its own empty /tmp (--incompatible_sandbox_hermetic_tmp),
    so a local_path_override pointing under /tmp makes every action that reads this repository's
    files fail with "No such file or directory". The extension cannot see whether the user's flags
    make /tmp visible again, so this is a warning, not an error.

    Args:
      mctx: the module_ctx.
    """
    root = mctx.path(Label("//:MODULE.bazel")).dirname
    real = str(root.realpath)
    if real != "/tmp" and not real.startswith("/tmp/"):
        return

    # buildifier: disable=print
    print(("\nrules_cuda_go: WARNING: this checkout of rules_cuda_go is under /tmp (%s, from a " +
           "local_path_override or local_repository). Bazel's sandbox gives every action its own empty " +
           "/tmp (--incompatible_sandbox_hermetic_tmp, the default), so actions cannot read it and fail " +
           "with \"No such file or directory\". Move the checkout out of /tmp, or add to your .bazelrc:\n" +
           "    build --sandbox_add_mount_pair=%s\n") % (real, real))

def _cuda_impl(mctx):
    _warn_if_under_tmp(mctx)
    extra, mirrors = {}, []
    for mod in mctx.modules:
        for tag in mod.tags.redist:
            if tag.name in extra:
                fail("cuda.redist: the toolkit name %r is declared twice" % tag.name)
            manifest, base = read_redist_manifest(
                mctx,
                "cuda.redist(name = %r)" % tag.name,
                manifest = tag.manifest,
                manifest_file = tag.manifest_file,
                sha256 = tag.sha256,
                base_url = tag.base_url,
                output = "redist_%s.json" % tag.name,
            )
            extra[tag.name] = toolkit_from_redist(manifest, base, "CUDA " + tag.name)
        for tag in mod.tags.mirror:
            mirrors.extend(tag.urls)
    cuda_toolkit_repositories(extra = extra, mirrors = mirrors)

cuda = module_extension(
    implementation = _cuda_impl,
    doc = "Declares the CUDA toolkits and the @cuda hub; see toolchains/repositories.bzl.",
    tag_classes = {
        "redist": tag_class(
            doc = "A toolkit from an NVIDIA redistrib_<version>.json manifest.",
            attrs = {
                "name": attr.string(mandatory = True, doc = "The cuda_version value that selects it, e.g. '12.8'."),
                "manifest": attr.string(doc = "URL of the manifest."),
                "manifest_file": attr.label(doc = "The manifest as a file in a repository (file:// archives next to it unless base_url)."),
                "sha256": attr.string(doc = "sha256 of the manifest downloaded from `manifest`."),
                "base_url": attr.string(doc = "What relative_path entries are relative to; default: the manifest's directory."),
            },
        ),
        "mirror": tag_class(
            doc = "URL prefixes tried before every archive's own URL (prefix + the URL's path).",
            attrs = {"urls": attr.string_list(mandatory = True)},
        ),
    },
)

def _sysroot_impl(_mctx):
    sysroot_repositories()

sysroot = module_extension(
    implementation = _sysroot_impl,
    doc = """The glibc baseline's sysroot and C++ toolchain repositories (toolchains/sysroot).

    rules_cuda_go declares it; a module opts into the toolchain with
    register_toolchains("@rules_cuda_go//toolchains/sysroot:all") (docs/glibc-baseline.md).""",
)
