"""rules_cuda's module extension `toolchain` on rules_cuda_go's toolkits.

    cuda = use_extension("@rules_cuda//cuda:extensions.bzl", "toolchain")
    cuda.toolkit(name = "cuda", toolkit_path = "")
    use_repo(cuda, "cuda")

Each toolkit tag declares a repository of that name whose targets (cublas, thrust, cuda_runtime,
...) are rules_cuda_go's @cuda hub targets; the toolkit is the one rules_cuda_go's
--@rules_cuda_go//toolchains:cuda_version selects (default: a pinned CUDA 13 from NVIDIA's wheels;
`local` for the machine's own, found as rules_cuda finds it: CUDA_PATH, PATH, /usr/local/cuda).
"""

load("//cuda/private:targets.bzl", "TARGETS", "cuda_aliases")

def _hub_label(name):
    # The hub as this module sees it (MODULE.bazel: use_repo(cuda_go, rules_cuda_go_cuda = "cuda")).
    return str(Label("@rules_cuda_go_cuda//:" + name))

_REDIST = ("rules_cuda_go declares toolkits from NVIDIA's redistrib JSON with its own extension: " +
           "cuda = use_extension(\"@rules_cuda_go//toolchains:extensions.bzl\", \"cuda\"); " +
           "cuda.redist(name = \"12.8\", manifest = \"https://developer.download.nvidia.com/compute/cuda/redist/redistrib_12.8.1.json\"), " +
           "then --@rules_cuda_go//toolchains:cuda_version=12.8")

def _impl(mctx):
    root = None
    own = None
    for mod in mctx.modules:
        if mod.is_root:
            root = mod
        if mod.name == "rules_cuda":
            own = mod
    mod = root if root and root.tags.toolkit else own
    for tag in (root.tags.component if root else []):
        fail("@rules_cuda//cuda:extensions.bzl toolchain.component(name = %r): not supported; %s" % (tag.name, _REDIST))
    for tag in (root.tags.redist_json if root else []):
        fail("@rules_cuda//cuda:extensions.bzl toolchain.redist_json(name = %r): not supported; %s" % (tag.name, _REDIST))
    declared = {}
    for tag in mod.tags.toolkit:
        if tag.toolkit_path:
            fail(("toolchain.toolkit(name = %r, toolkit_path = %r): rules_cuda_go finds the local toolkit itself; write " +
                  "toolkit_path = \"\" and build with --@rules_cuda_go//toolchains:cuda_version=local " +
                  "--repo_env=CUDA_PATH=%s (or keep the default, a pinned CUDA 13 that Bazel downloads).") % (tag.name, tag.toolkit_path, tag.toolkit_path))
        if tag.components_mapping or tag.version or tag.nvcc_version:
            fail("toolchain.toolkit(name = %r): components_mapping, version and nvcc_version are not supported; %s" % (tag.name, _REDIST))
        if tag.name in declared:
            continue
        declared[tag.name] = True
        cuda_aliases(name = tag.name, targets = {k: _hub_label(v) for k, v in TARGETS.items()})

toolchain = module_extension(
    implementation = _impl,
    doc = "rules_cuda's toolchain extension: @cuda target names on rules_cuda_go's toolkits.",
    tag_classes = {
        "toolkit": tag_class(attrs = {
            "name": attr.string(default = "cuda", doc = "The repository's name."),
            "toolkit_path": attr.string(doc = "Must be empty: --@rules_cuda_go//toolchains:cuda_version=local with CUDA_PATH is the local toolkit."),
            "components_mapping": attr.string_dict(doc = "Not supported (fails)."),
            "version": attr.string(doc = "Not supported (fails)."),
            "nvcc_version": attr.string(doc = "Not supported (fails)."),
        }),
        "component": tag_class(attrs = {
            "name": attr.string(mandatory = True),
            "component_name": attr.string(),
            "descriptive_name": attr.string(),
            "integrity": attr.string(),
            "sha256": attr.string(),
            "strip_prefix": attr.string(),
            "url": attr.string(),
            "urls": attr.string_list(),
            "version": attr.string(),
        }),
        "redist_json": tag_class(attrs = {
            "name": attr.string(mandatory = True),
            "components": attr.string_list(),
            "integrity": attr.string(),
            "sha256": attr.string(),
            "urls": attr.string_list(),
            "platforms": attr.string_list(),
            "version": attr.string(),
        }),
    },
)
